"""Trace-norm ratio (Wang Thm 1) and ‖K − FFᵀ‖_* (Pourkamali Thm 1) against dense nuclear norms."""

from __future__ import annotations

import numpy as np
import pytest

from kktheory.evaluation.bounds import (
    approximation_error_dense, approximation_error_psd, trace_norms_dense, trace_norms_psd,
)
from kktheory.kernels.spectrum import ritz_pairs
from kktheory.kernels.functions import Kernel

N, S = 250, 10


def nuclear(A: np.ndarray) -> float:
    return float(np.abs(np.linalg.svd(A, compute_uv=False)).sum())


def best_rank(A: np.ndarray, s: int) -> np.ndarray:
    lam, V = np.linalg.eigh(A)
    top = np.argsort(lam)[::-1][:s]
    return (V[:, top] * lam[top]) @ V[:, top].T


@pytest.fixture(scope="module")
def K() -> np.ndarray:
    rng = np.random.default_rng(0)
    centres = rng.choice([-1.0, 1.0], size=(5, 6))
    X = centres[rng.integers(0, 5, N)] + 0.8 * rng.standard_normal((N, 6))
    return Kernel("gaussian", sigma=2.0)(X, X)


def nystrom_features(K: np.ndarray, idx: np.ndarray) -> np.ndarray:
    lam, U = np.linalg.eigh(K[np.ix_(idx, idx)])
    keep = lam > 1e-12 * lam.max()
    return K[:, idx] @ (U[:, keep] / np.sqrt(lam[keep]))


def test_psd_trace_norms_equal_dense(K):
    lam = np.sort(np.linalg.eigvalsh(K))[::-1]
    best = nuclear(K - best_rank(K, S))
    ratios = []
    for m in (12, 25, 60, 150, N):
        F = nystrom_features(K, np.random.default_rng(m).permutation(N)[:m])
        tn = trace_norms_psd(np.trace(K), lam, F, S)
        G = F @ F.T
        sketch = nuclear(K - best_rank(G, S))
        assert tn.sketch == pytest.approx(sketch, rel=1e-9)
        assert tn.best == pytest.approx(best, rel=1e-9)
        assert tn.ratio == pytest.approx(sketch / best, rel=1e-9)
        assert tn.ratio >= 1 - 1e-9
        assert approximation_error_psd(np.trace(K), F) == pytest.approx(nuclear(K - G), rel=1e-7, abs=1e-9)
        ratios.append(tn.ratio)
    assert ratios[-1] == pytest.approx(1.0, abs=1e-9)  # c = n: (FFᵀ)_s = K_s
    assert ratios[0] > ratios[2] > ratios[-1]


def test_indefinite_difference_dense(K):
    """Random features whose FFᵀ is not below K: the nuclear norms are not traces."""
    rng = np.random.default_rng(1)
    lam = np.sort(np.linalg.eigvalsh(K))[::-1]
    F = nystrom_features(K, rng.permutation(N)[:40]) * 1.3 + 0.05 * rng.standard_normal((N, 40))
    D = K - F @ F.T
    assert np.linalg.eigvalsh(D).min() < -1e-3  # really indefinite
    tn = trace_norms_dense(K, lam, F, S)
    sketch = nuclear(K - best_rank(F @ F.T, S))
    assert tn.sketch == pytest.approx(sketch, rel=1e-9)
    assert tn.ratio == pytest.approx(sketch / nuclear(K - best_rank(K, S)), rel=1e-9)
    assert tn.ratio >= 1
    assert approximation_error_dense(K, F) == pytest.approx(nuclear(D), rel=1e-9)


def test_randomized_top_eigenvalues_within_stated_error(K):
    lam = np.sort(np.linalg.eigvalsh(K))[::-1]
    F = nystrom_features(K, np.random.default_rng(2).permutation(N)[:30])
    exact = trace_norms_psd(np.trace(K), lam, F, S)
    ritz = ritz_pairs(lambda V: K @ V, N, S, np.random.default_rng(3), tol=1e-3)
    est = trace_norms_psd(np.trace(K), ritz.values, F, S, float(ritz.residuals.sum()))
    assert est.ratio_err > 0
    assert abs(est.ratio - exact.ratio) <= est.ratio_err


def test_rank_below_s_leaves_ratio_empty():
    X = np.random.default_rng(4).standard_normal((60, 3))
    K = X @ X.T  # rank 3 < s
    lam = np.sort(np.linalg.eigvalsh(K))[::-1]
    tn = trace_norms_psd(np.trace(K), lam, X[:, :2], 5)
    assert np.isnan(tn.ratio) and np.isnan(tn.ratio_err)
