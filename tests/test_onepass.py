"""One-pass SRHT kernel approximation (Pourkamali-Anaraki & Becker Alg. 1) against dense
brute force, for both readings of its step 3 (``full_core``: Q = orth(W) with all r'
columns, rank r after the core; ``rank_first``: the r leading singular vectors of W):
exactness when r' ≥ rank K, the algorithm written densely, clipping of negative
eigenvalues, nested lists of m, and a kernel provider that refuses any request of n × n
size."""

from __future__ import annotations

import math
import tracemalloc
from dataclasses import dataclass

import numpy as np
import pytest
import scipy.fft
import scipy.linalg

from kktheory.errors import ConfigError
from kktheory.kernels.functions import Kernel
from kktheory.seeding import component_rng
from kktheory.embeddings import SKETCHES, SketchContext
from kktheory.embeddings.onepass import READINGS, OnePass


def make(n: int, k: int = 3, budget: int = 2**30, **params) -> OnePass:
    entry = SKETCHES.get("onepass")
    return entry.impl(entry.config_cls(**params), SketchContext(n=n, k=k, gamma=1.0, budget=budget))


def fit(X, kernel, m, seed=0, budget=2**30, **params) -> OnePass:
    return make(len(X), budget=budget, **params).fit(X, kernel, m, component_rng(seed, "sketch"))


def low_rank_data(n: int, d: int = 3, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=(n, d))


@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("rank,m,transform", [(3, 8, "hadamard"), (5, 9, "hadamard"), (3, 6, "dct")])
def test_reproduces_K_when_r_covers_rank(reading, rank, m, transform):
    X = low_rank_data(60)  # linear kernel: rank K = 3
    K = X @ X.T
    sk = fit(X, Kernel("linear"), m, rank=rank, transform=transform, reading=reading)
    Y = sk.transform(X)
    assert Y.shape == (60, rank)
    np.testing.assert_allclose(Y @ Y.T, K, atol=1e-10 * np.abs(K).max())
    assert sk.info_["onepass_rank"] == rank and sk.info_["onepass_oversampling"] == m - rank
    # new points: the Nyström-like extension reproduces κ(x, X) when the sketch is exact
    Xt = low_rank_data(5, seed=1)
    np.testing.assert_allclose(sk.transform(Xt) @ Y.T, Xt @ X.T, atol=1e-9 * np.abs(K).max())
    # (training features on round-off eigenvalues ε are √ε ≈ 1e-8; the extension zeroes them)
    np.testing.assert_allclose(sk.transform(X.copy()), Y, atol=1e-7 * np.abs(Y).max())


def align_signs(F: np.ndarray, G: np.ndarray) -> np.ndarray:
    """G with each column's sign flipped to agree with F's (eigenvectors are up to sign)."""
    return G * np.where(np.einsum("ij,ij->j", F, G) < 0, -1.0, 1.0)


# rank K = 3 < r': a linear kernel on anisotropic 3-D points, and Pourkamali's homogeneous
# degree-2 polynomial kernel on 2-D points (features x1², √2·x1x2, x2²)
def anisotropic(n, seed):
    return low_rank_data(n, seed=seed) * np.array([3.0, 2.0, 1.0])


LOW_RANK = {
    "linear": (Kernel("linear"), anisotropic, lambda A, B: A @ B.T),
    "poly2": (Kernel("polynomial", degree=2, coef0=0.0),
              lambda n, seed: low_rank_data(n, d=2, seed=seed) * np.array([1.5, 1.0]),
              lambda A, B: (A @ B.T) ** 2),
}


def exact_rank_r(K: np.ndarray, r: int) -> tuple[np.ndarray, np.ndarray]:
    """(V_r, Λ_r): the r leading eigenpairs of K by dense eigh, in decreasing order."""
    lam, V = np.linalg.eigh(K)
    return V[:, ::-1][:, :r], lam[::-1][:r]


@pytest.mark.parametrize("kernel_name", list(LOW_RANK))
@pytest.mark.parametrize("m,transform", [(6, "hadamard"), (12, "hadamard"), (7, "dct")])
def test_full_core_is_the_exact_rank_r_eigendecomposition(kernel_name, m, transform):
    """r' ≥ rank K > r: K̂ = V_r Λ_r V_rᵀ, features V_r Λ_r^{1/2}, new points κ(x, X)V_rΛ_r^{-1/2}."""
    kernel, data, dense = LOW_RANK[kernel_name]
    X, Xt, r = data(200, 0), data(7, 1), 2
    K = dense(X, X)
    Vr, lr = exact_rank_r(K, r)
    assert np.linalg.eigvalsh(K)[::-1][r] > 0.05 * lr[-1]  # λ_{r+1} matters: rank K > r
    sk = fit(X, kernel, m, rank=r, transform=transform, reading="full_core")
    F = sk.transform(X)
    Vr = align_signs(F, Vr)
    scale = np.abs(K).max()
    np.testing.assert_allclose(F @ F.T, (Vr * lr) @ Vr.T, atol=1e-9 * scale)
    np.testing.assert_allclose(F, Vr * np.sqrt(lr), atol=1e-9 * math.sqrt(scale))
    np.testing.assert_allclose(sk.transform(Xt), dense(Xt, X) @ Vr / np.sqrt(lr), atol=1e-9 * math.sqrt(scale))
    assert sk.info_["n_clipped_eigs"] == 0


@pytest.mark.parametrize("kernel_name", list(LOW_RANK))
def test_rank_first_misses_the_leading_eigenspace(kernel_name):
    """The same cases under ``rank_first``: range(Q) is the leading 2-D subspace of KΩ, not
    K's leading eigenspace, so K̂ is not K_r and its error exceeds the optimal one."""
    kernel, data, dense = LOW_RANK[kernel_name]
    X, r = data(200, 0), 2
    K = dense(X, X)
    Vr, lr = exact_rank_r(K, r)
    F = fit(X, kernel, 12, rank=r, reading="rank_first").transform(X)
    K_r = (Vr * lr) @ Vr.T
    assert np.linalg.norm(F @ F.T - K_r) > 0.01 * np.linalg.norm(K)
    assert np.linalg.norm(K - F @ F.T) > 1.01 * np.linalg.norm(K - K_r)


def gaussian_K(X: np.ndarray, sigma: float) -> np.ndarray:
    d2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    return np.exp(-d2 / (2 * sigma**2))


def dense_omega(srht, n: int, c: int) -> np.ndarray:
    """Ω (n × c) from the SRHT's signs and sampled columns: D·H_N·R/√c with H_N the
    Hadamard matrix of order N ≥ n (rows beyond n unused), or D·C_nᵀ·R·√(n/c) with C_n
    the orthonormal DCT-II matrix."""
    if srht.transform == "dct":
        C = scipy.fft.dct(np.eye(n), type=2, norm="ortho", axis=0)
        return np.diag(srht.signs) @ C.T[:, srht.cols] * math.sqrt(n / c)
    return np.diag(srht.signs) @ scipy.linalg.hadamard(srht.N)[:n][:, srht.cols] / math.sqrt(c)


def algorithm_1(K: np.ndarray, Omega: np.ndarray, r: int, reading: str) -> tuple[np.ndarray, np.ndarray]:
    """Alg. 1 steps 2–6 in dense NumPy: (Yᵀ = Q V_r Σ_r^{1/2}, kept eigenvalues before clipping).

    full_core: Q from a QR of W (all r' columns), B r' × r', truncated to r after eigh;
    rank_first: Q = the r leading left singular vectors of W, B r × r.
    """
    W = K @ Omega
    Q = np.linalg.qr(W)[0] if reading == "full_core" else np.linalg.svd(W)[0][:, :r]
    B = np.linalg.lstsq((Q.T @ Omega).T, (Q.T @ W).T, rcond=None)[0].T  # B·(QᵀΩ) = QᵀW
    B = (B + B.T) / 2
    lam, V = np.linalg.eigh(B)
    lam, V = lam[::-1][:r], V[:, ::-1][:, :r]
    return Q @ V * np.sqrt(np.maximum(lam, 0)), lam


@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("n,m,transform", [(50, 9, "hadamard"), (100, 16, "hadamard"), (90, 12, "dct")])
def test_equals_algorithm_1_written_densely(reading, n, m, transform):
    r = 4
    X = low_rank_data(n, d=2, seed=3)
    sk = fit(X, Kernel("gaussian", sigma=0.7), m, rank=r, transform=transform, reading=reading)
    assert sk.srht_.N == (n if transform == "dct" else 1 << (n - 1).bit_length())
    K = gaussian_K(X, 0.7)
    assert np.linalg.matrix_rank(K) > m  # K is not reproduced: the readings differ
    Y, lam = algorithm_1(K, dense_omega(sk.srht_, n, m), r, reading)
    F = sk.transform(X)
    np.testing.assert_allclose(F @ F.T, Y @ Y.T, atol=1e-10)
    np.testing.assert_allclose(F, align_signs(F, Y), atol=1e-8)
    np.testing.assert_allclose(sk.eigvals_, np.maximum(lam, 0), atol=1e-10)
    assert sk.info_["n_clipped_eigs"] == int((lam < 0).sum())
    assert sk.info_["clipped_eig_sum"] == pytest.approx(np.abs(lam[lam < 0]).sum(), abs=1e-10)
    # the rank-r approximation is close to K's best rank r (Gaussian kernel, fast decay)
    ev = np.linalg.eigvalsh(K)[::-1]
    err = np.linalg.norm(K - F @ F.T, "fro") ** 2
    assert err <= 2 * (ev[r:] ** 2).sum()


@dataclass(frozen=True)
class SignedLinear(Kernel):
    """An indefinite 'kernel' x·diag(s)·y (s = ±1 per coordinate), to exercise the clipping."""

    name: str = "linear"
    signs: tuple[float, ...] = (1.0, 1.0, -1.0)

    def __call__(self, X, Y):
        return (np.asarray(X) * np.array(self.signs)) @ np.asarray(Y).T


@pytest.mark.parametrize("reading,signs,rank,m", [
    ("full_core", (1.0, 1.0, -1.0), 3, 3),  # core = the 3 nonzero eigenvalues, one negative
    ("full_core", (1.0, -1.0, -1.0), 2, 3),  # the kept 2 of 3: one positive, one negative
    ("full_core", (1.0, 1.0, -1.0), 2, 8),  # the negative one is not kept: nothing clipped
    ("rank_first", (1.0, 1.0, -1.0), 3, 8),  # range(Q) = range(K): B has K's 3 eigenvalues
])
def test_negative_eigenvalues_are_clipped_and_counted(reading, signs, rank, m):
    """Only the kept r eigenvalues are clipped and counted; K̂ is K's PSD part on them."""
    X = low_rank_data(40)
    kernel = SignedLinear(signs=signs)
    K = kernel(X, X)
    lam, U = np.linalg.eigh(K)
    lam, U = lam[::-1], U[:, ::-1]
    nonzero = np.abs(lam) > 1e-8 * np.abs(lam).max()
    assert nonzero.sum() == 3
    kept = np.flatnonzero(nonzero)[:rank]  # K's nonzero eigenvalues, largest first
    sk = fit(X, kernel, m, rank=rank, reading=reading)
    F = sk.transform(X)
    K_plus = (U[:, kept] * np.maximum(lam[kept], 0)) @ U[:, kept].T
    np.testing.assert_allclose(F @ F.T, K_plus, atol=1e-9 * np.abs(K).max())
    negative = lam[kept] < 0
    assert sk.info_["n_clipped_eigs"] == negative.sum()
    assert sk.info_["clipped_eig_sum"] == pytest.approx(np.abs(lam[kept][negative]).sum(), rel=1e-9, abs=1e-12)


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


@pytest.mark.parametrize("reading", READINGS)
def test_m_alone_equals_m_inside_a_list(reading):
    X, Xt = low_rank_data(64, d=2, seed=5), low_rank_data(6, d=2, seed=6)
    kernel = Kernel("gaussian", sigma=1.0)
    probe = make(len(X), rank=3, reading=reading)
    ms = [4, 9, 20]
    nested = dict(OnePass.fit_nested(probe.params, probe.ctx, X, kernel, ms, lambda: component_rng(1, "sketch")))
    for m in ms:
        alone = fit(X, kernel, m, seed=1, rank=3, reading=reading)
        np.testing.assert_allclose(nested[m].transform(X), alone.transform(X), atol=1e-10)
        np.testing.assert_allclose(nested[m].transform(Xt), alone.transform(Xt), atol=1e-8)
        assert nested[m].info_ == alone.info_


def test_sketch_size_rules():
    sk = make(100, k=4)
    assert sk.m_used(30) == 30 and sk.rank() == 4
    with pytest.raises(ConfigError, match="m=3"):
        sk.validate(3)
    fixed = make(100, k=4, rank=2, oversampling=10)
    assert fixed.m_used(3) == 12 and fixed.m_used(50) == 12
    fixed.validate(3)
    with pytest.raises(ConfigError, match="sketch.oversampling"):
        make(100, rank=2, oversampling=99).validate(5)
    with pytest.raises(ConfigError, match="sketch.rank"):
        make(100, rank=0).validate(5)
    with pytest.raises(ConfigError, match="sketch.reading='truncate': one of full_core, rank_first"):
        make(100, reading="truncate").validate(5)
