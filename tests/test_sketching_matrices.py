"""Sketching matrices of Wang et al. Table 2 against independent dense constructions."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg
from scipy import stats

from kktheory.kernels.functions import Kernel
from kktheory.embeddings.sketching_matrices import (
    SKETCHING_MATRICES,
    ColumnSampling,
    CountSketch,
    Gaussian,
    SubsampledHadamard,
    draw_with_replacement,
    make_sketching_matrix,
    rank_leverage_scores,
)

N, C = 37, 6  # n not a power of two: SRHT pads to 64


def leverage_probabilities(n: int, seed: int = 5) -> np.ndarray:
    V = np.linalg.qr(np.random.default_rng(seed).standard_normal((n, 4)))[0]
    return rank_leverage_scores(V)


def independent_dense(P) -> np.ndarray:
    """P rebuilt from its random parameters with dense numpy only."""
    n, c = P.n, P.c
    if isinstance(P, ColumnSampling):
        D = np.zeros((n, c))
        D[P.idx, np.arange(c)] = P.scale
        return D
    if isinstance(P, Gaussian):
        return P.P
    if isinstance(P, SubsampledHadamard):
        H = scipy.linalg.hadamard(P.srht.N)
        return P.srht.signs[:, None] * H[:n, P.srht.cols] / np.sqrt(c)
    if isinstance(P, CountSketch):
        D = np.zeros((n, c))
        D[np.arange(n), P.buckets] = P.signs
        return D
    raise AssertionError(type(P))


@pytest.mark.parametrize("name", SKETCHING_MATRICES)
def test_products_match_dense_matrix(name: str) -> None:
    rng = np.random.default_rng(0)
    P = make_sketching_matrix(name, N, C, rng, leverage_probabilities(N))
    D = independent_dense(P)
    np.testing.assert_allclose(P.dense(), D, atol=1e-12)
    A = rng.standard_normal((5, N))
    M = rng.standard_normal((C, 3))
    np.testing.assert_allclose(P.right(A), A @ D, atol=1e-12)
    np.testing.assert_allclose(P.left(M), D @ M, atol=1e-12)
    support = P.support()
    if support is not None:  # rows outside the support are zero
        outside = np.setdiff1d(np.arange(N), support)
        assert not D[outside].any()
    X = rng.standard_normal((N, 3))
    kernel = Kernel("gaussian", sigma=1.5)
    K = np.exp(-((X[:, None] - X[None]) ** 2).sum(-1) / (2 * 1.5**2))
    np.testing.assert_allclose(P.kernel_sketch(kernel, X, 2**26, K), K @ D, atol=1e-12)


def test_uniform_is_without_replacement_and_scaled() -> None:
    P = ColumnSampling.uniform(N, C, np.random.default_rng(1))
    assert len(np.unique(P.idx)) == C
    np.testing.assert_allclose(P.scale, np.sqrt(N / C))
    X = np.random.default_rng(2).standard_normal((N, 2))
    kernel = Kernel("linear")
    np.testing.assert_allclose(
        P.kernel_sketch(kernel, X, 2**26, None), (X @ X.T)[:, P.idx] * np.sqrt(N / C), atol=1e-12
    )


def test_leverage_scale_is_inverse_sqrt_c_p() -> None:
    lev = leverage_probabilities(N)
    P = make_sketching_matrix("leverage", N, C, np.random.default_rng(3), lev)
    p = lev / lev.sum()
    np.testing.assert_allclose(P.scale, 1 / np.sqrt(C * p[P.idx]))


@pytest.mark.parametrize("name", SKETCHING_MATRICES)
def test_expected_P_Pt_is_identity(name: str) -> None:
    """E[P Pᵀ] = I_n for every scaled sketch (Wang §2): the mean over many draws lies
    within 6 standard errors of I, entrywise (fixed seed)."""
    n, c, draws = 12, 4, 3000
    lev = np.linspace(1.0, 3.0, n)  # bounded ratios keep the variance moderate
    rng = np.random.default_rng(4)
    samples = np.array([
        (lambda D: D @ D.T)(make_sketching_matrix(name, n, c, rng, lev).dense())
        for _ in range(draws)
    ])
    mean, se = samples.mean(0), samples.std(0) / np.sqrt(draws)
    assert np.all(np.abs(mean - np.eye(n)) <= 6 * se + 1e-12)


def test_draws_with_replacement_are_nested_and_follow_p() -> None:
    p = np.array([1.0, 2.0, 3.0, 4.0, 0.0, 10.0])
    long = draw_with_replacement(p, 20000, np.random.default_rng(7))
    short = draw_with_replacement(p, 50, np.random.default_rng(7))
    np.testing.assert_array_equal(long[:50], short)
    counts = np.bincount(long, minlength=len(p))
    assert counts[4] == 0
    keep = p > 0
    expected = long.size * p[keep] / p.sum()
    assert stats.chisquare(counts[keep], expected).pvalue > 1e-3
