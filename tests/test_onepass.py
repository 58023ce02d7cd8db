"""One-pass SRHT kernel approximation (Pourkamali-Anaraki & Becker Alg. 1) against dense
brute force: exactness when r' ≥ rank K, the algorithm written densely, clipping of
negative eigenvalues, and a kernel provider that refuses any request of n × n size."""

from __future__ import annotations

import math
import tracemalloc
from dataclasses import dataclass

import numpy as np
import pytest
import scipy.linalg

from kktheory.errors import ConfigError
from kktheory.kernels import Kernel
from kktheory.seeding import component_rng
from kktheory.sketches import SKETCHES, SketchContext
from kktheory.sketches.onepass import OnePass


def make(n: int, k: int = 3, budget: int = 2**30, **params) -> OnePass:
    entry = SKETCHES.get("onepass")
    return entry.impl(entry.config_cls(**params), SketchContext(n=n, k=k, gamma=1.0, budget=budget))


def fit(X, kernel, m, seed=0, budget=2**30, **params) -> OnePass:
    return make(len(X), budget=budget, **params).fit(X, kernel, m, component_rng(seed, "sketch"))


def low_rank_data(n: int, d: int = 3, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=(n, d))


@pytest.mark.parametrize("rank,m,transform", [(3, 8, "hadamard"), (5, 9, "hadamard"), (3, 6, "dct")])
def test_reproduces_K_when_r_prime_covers_rank(rank, m, transform):
    X = low_rank_data(60)  # linear kernel: rank K = 3
    K = X @ X.T
    sk = fit(X, Kernel("linear"), m, rank=rank, transform=transform)
    Y = sk.transform(X)
    assert Y.shape == (60, rank)
    np.testing.assert_allclose(Y @ Y.T, K, atol=1e-10 * np.abs(K).max())
    assert sk.info_["onepass_rank"] == rank and sk.info_["onepass_oversampling"] == m - rank
    # new points: the Nyström-like extension reproduces κ(x, X) when the sketch is exact
    Xt = low_rank_data(5, seed=1)
    np.testing.assert_allclose(sk.transform(Xt) @ Y.T, Xt @ X.T, atol=1e-9 * np.abs(K).max())
    # (training features on round-off eigenvalues ε are √ε ≈ 1e-8; the extension zeroes them)
    np.testing.assert_allclose(sk.transform(X.copy()), Y, atol=1e-7 * np.abs(Y).max())


def gaussian_K(X: np.ndarray, sigma: float) -> np.ndarray:
    d2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    return np.exp(-d2 / (2 * sigma**2))


def test_equals_algorithm_1_written_densely():
    n, r, m = 50, 4, 9
    X = low_rank_data(n, d=2, seed=3)
    sk = fit(X, Kernel("gaussian", sigma=0.7), m, rank=r)
    srht = sk.srht_
    # Ω = D·H·R/√r' with H the Hadamard matrix of order N ≥ n (rows beyond n unused)
    N = srht.N
    Omega = np.diag(srht.signs) @ scipy.linalg.hadamard(N)[:n][:, srht.cols] / math.sqrt(m)
    K = gaussian_K(X, 0.7)
    W = K @ Omega
    Q = np.linalg.svd(W)[0][:, :r]
    B = np.linalg.pinv((Q.T @ Omega).T) @ (Q.T @ W).T  # least squares for Bᵀ
    B = (B.T + B) / 2
    lam, V = np.linalg.eigh(B)
    Y = np.diag(np.sqrt(np.maximum(lam, 0))) @ V.T @ Q.T  # r × n
    F = sk.transform(X)
    np.testing.assert_allclose(F @ F.T, Y.T @ Y, atol=1e-10)
    assert sk.info_["n_clipped_eigs"] == int((lam < 0).sum())
    # the rank-r approximation is close to K's best rank r (Gaussian kernel, fast decay)
    ev = np.linalg.eigvalsh(K)[::-1]
    err = np.linalg.norm(K - F @ F.T, "fro") ** 2
    assert err <= 2 * (ev[r:] ** 2).sum()


@dataclass(frozen=True)
class SignedLinear(Kernel):
    """An indefinite 'kernel' x·diag(1, 1, −1)·y, to exercise the clipping of Alg. 1."""

    name: str = "linear"

    def __call__(self, X, Y):
        return (np.asarray(X) * np.array([1.0, 1.0, -1.0])) @ np.asarray(Y).T


def test_negative_eigenvalues_are_clipped_and_counted():
    X = low_rank_data(40)
    K = SignedLinear()(X, X)
    lam, U = np.linalg.eigh(K)
    assert (lam < -1e-8).sum() == 1  # exactly one negative eigenvalue
    sk = fit(X, SignedLinear(), 8, rank=3)
    F = sk.transform(X)
    K_plus = (U * np.maximum(lam, 0)) @ U.T
    np.testing.assert_allclose(F @ F.T, K_plus, atol=1e-9 * np.abs(K).max())
    assert sk.info_["n_clipped_eigs"] == 1
    assert sk.info_["clipped_eig_sum"] == pytest.approx(-lam.min(), rel=1e-9)


@dataclass(frozen=True)
class RefusingKernel(Kernel):
    """A Gaussian kernel that refuses any block larger than ``max_entries``."""

    max_entries: int = 0

    def __call__(self, X, Y):
        if len(X) * len(Y) > self.max_entries:
            raise AssertionError(f"asked for a {len(X)}×{len(Y)} block")
        return super().__call__(X, Y)


def test_never_asks_for_or_allocates_an_n_by_n_array():
    n = 1500
    X = low_rank_data(n, d=4, seed=2)
    budget = 2**24  # kernel blocks of 1 MiB: 87 rows of 1500
    kernel = RefusingKernel("gaussian", sigma=2.0, max_entries=200 * n)
    with pytest.raises(AssertionError, match="block"):
        kernel(X, X)
    tracemalloc.start()
    try:
        sk = fit(X, kernel, 30, rank=10, budget=budget)
        F = sk.transform(X)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert F.shape == (n, 10) and np.isfinite(F).all()
    assert peak < n * n * 8 / 2, peak  # K alone would be n²·8 bytes


def test_m_alone_equals_m_inside_a_list():
    X = low_rank_data(64, d=2, seed=5)
    kernel = Kernel("gaussian", sigma=1.0)
    probe = make(len(X), rank=3)
    ms = [4, 9, 20]
    nested = dict(OnePass.fit_nested(probe.params, probe.ctx, X, kernel, ms, lambda: component_rng(1, "sketch")))
    for m in ms:
        alone = fit(X, kernel, m, seed=1, rank=3)
        np.testing.assert_allclose(nested[m].transform(X), alone.transform(X), atol=1e-10)


def test_sketch_size_rules():
    sk = make(100, k=4)
    assert sk.resolve_m(30) == 30 and sk.rank() == 4
    with pytest.raises(ConfigError, match="m=3"):
        sk.validate(3)
    fixed = make(100, k=4, rank=2, oversampling=10)
    assert fixed.resolve_m(3) == 12 and fixed.resolve_m(50) == 12
    fixed.validate(3)
    with pytest.raises(ConfigError, match="sketch.oversampling"):
        make(100, rank=2, oversampling=99).validate(5)
    with pytest.raises(ConfigError, match="sketch.rank"):
        make(100, rank=0).validate(5)
