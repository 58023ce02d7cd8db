"""Random Fourier features (Rahimi & Recht 2007) with Wang et al.'s rank reduction, and
the rank helpers of kktheory.embeddings.linalg, against dense brute force."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kktheory.errors import ConfigError
from kktheory.kernels.functions import Kernel
from kktheory.seeding import component_rng
from kktheory.embeddings import SKETCHES, SketchContext
from kktheory.embeddings.linalg import reduce_rank, resolve_rank

SIGMA = 1.3


def make(n: int, k: int = 3, **params):
    entry = SKETCHES.get("rff")
    return entry.impl(entry.config_cls(**params), SketchContext(n=n, k=k, gamma=1.0, budget=2**30))


def fit(X, m, seed=0, kernel=None, **params):
    kernel = kernel or Kernel("gaussian", sigma=SIGMA)
    return make(len(X), **params).fit(X, kernel, m, component_rng(seed, "sketch"))


def gaussian(X, Y):
    d2 = ((X[:, None, :] - Y[None, :, :]) ** 2).sum(-1)
    return np.exp(-d2 / (2 * SIGMA**2))


def test_kernel_estimate_converges_as_D_grows():
    X = np.random.default_rng(0).normal(size=(25, 3))
    K = gaussian(X, X)
    errors = {}
    for D in (100, 1000, 10_000, 100_000):
        Z = fit(X, D).transform(X)
        assert Z.shape == (25, D)
        errors[D] = np.sqrt(((Z @ Z.T - K) ** 2).mean())
    # each entry is a mean of D bounded terms: RMS error ≈ c/√D
    assert errors[100_000] < 0.01
    for a, b in ((100, 10_000), (1000, 100_000)):
        assert errors[b] < errors[a] / 4, errors  # ideal factor 10
    # unbiased: the diagonal is 1 on average (z(x)ᵀz(x) = 1 + mean of cos(2ωᵀx + 2b))
    Z = fit(X, 100_000).transform(X)
    np.testing.assert_allclose(np.einsum("ij,ij->i", Z, Z), 1.0, atol=0.02)


def test_features_match_the_formula_and_new_points():
    X = np.random.default_rng(1).normal(size=(10, 2))
    sk = fit(X, 7)
    Z = math.sqrt(2 / 7) * np.cos(X @ sk.omega_.T + sk.phase_)
    np.testing.assert_allclose(sk.transform(X), Z, atol=1e-14)
    Xt = np.random.default_rng(2).normal(size=(3, 2))
    np.testing.assert_allclose(sk.transform(Xt), math.sqrt(2 / 7) * np.cos(Xt @ sk.omega_.T + sk.phase_), atol=1e-14)
    # ω ~ N(0, σ^{-2} I): check the scale on a large draw
    big = fit(X, 20_000)
    assert np.std(big.omega_) * SIGMA == pytest.approx(1.0, abs=0.02)
    assert big.phase_.min() >= 0 and big.phase_.max() < 2 * math.pi


def test_reduction_gives_best_rank_s_of_the_feature_gram():
    X = np.random.default_rng(3).normal(size=(40, 3))
    full = fit(X, 30).transform(X)
    sk = fit(X, 30, s=5)
    B = sk.transform(X)
    assert B.shape == (40, 5) and sk.info_ == {"rff_s": 5}
    lam, U = np.linalg.eigh(full @ full.T)
    best = (U[:, -5:] * lam[-5:]) @ U[:, -5:].T
    np.testing.assert_allclose(B @ B.T, best, atol=1e-10)
    Xt = np.random.default_rng(4).normal(size=(4, 3))
    np.testing.assert_allclose(sk.transform(Xt), fit(X, 30).transform(Xt) @ sk.V_, atol=1e-12)


def test_m_alone_equals_m_inside_a_list():
    X = np.random.default_rng(5).normal(size=(20, 2))
    kernel = Kernel("gaussian", sigma=SIGMA)
    probe = make(len(X))
    nested = dict(type(probe).fit_nested(probe.params, probe.ctx, X, kernel, [5, 50], lambda: component_rng(2, "sketch")))
    big = nested[50].transform(X)
    np.testing.assert_allclose(nested[5].transform(X), fit(X, 5, seed=2).transform(X), atol=1e-14)
    # the first D features of a larger draw, up to the √(2/D) normalisation
    np.testing.assert_allclose(nested[5].transform(X) * math.sqrt(5 / 2), big[:, :5] * math.sqrt(50 / 2), atol=1e-13)


def test_gaussian_kernel_only_and_rank_rules():
    X = np.zeros((5, 2))
    with pytest.raises(ConfigError, match="kernel.name"):
        fit(X, 3, kernel=Kernel("linear"))
    with pytest.raises(ConfigError, match="sketch.s"):
        make(10, s=11).validate(10)
    with pytest.raises(ConfigError, match="sketch.s"):
        make(10, s="half").validate(10)
    assert resolve_rank(None, "s", 3, 27) == 27
    assert resolve_rank("c", "s", 3, 27) == 27
    assert resolve_rank("k", "s", 3, 27) == 3
    assert resolve_rank("sqrt_kc", "s", 3, 27) == 9
    assert resolve_rank("sqrt_kc", "s", 3, 28) == 10
    with pytest.raises(ConfigError):
        resolve_rank("k", "s", 3, 27, lo=4)


def test_reduce_rank_equals_truncated_svd():
    F = np.random.default_rng(6).normal(size=(30, 8))
    B, V = reduce_rank(F, 3)
    U, sv, Vt = np.linalg.svd(F, full_matrices=False)
    np.testing.assert_allclose(np.abs(B), np.abs(U[:, :3] * sv[:3]), atol=1e-10)
    np.testing.assert_allclose(V.T @ V, np.eye(3), atol=1e-12)
