"""Exact kernel k-means and the ``exact`` sketch against dense numpy brute force."""

from __future__ import annotations

import numpy as np
import pytest

from kktheory.errors import MemoryBudgetError
from kktheory.kernels.gram import Gram
from kktheory.cluster.kernel_kmeans import kernel_kmeans, kernel_kmeanspp, lloyd
from kktheory.kernels.functions import Kernel
from kktheory.evaluation.risk import RiskSettings, lifted, projected_risk
from kktheory.embeddings.base import SketchContext
from kktheory.comparators.exact import Exact, ExactConfig
from kktheory.cluster.clusterers import ClusteringConfig, KMeansPP


def blobs(n, d, k, seed, spread=3.0):
    rng = np.random.default_rng(seed)
    centres = spread * rng.standard_normal((k, d))
    return centres[rng.integers(k, size=n)] + rng.standard_normal((n, d))


def explicit_lloyd(X, C):
    """Textbook Lloyd in R^d from centres C, to a fixed point: (labels, objective/n)."""
    labels = None
    while True:
        new = ((X[:, None, :] - C[None]) ** 2).sum(axis=2).argmin(axis=1)
        if labels is not None and np.array_equal(new, labels):
            break
        labels = new
        C = np.array([X[labels == j].mean(axis=0) for j in range(len(C))])
    return labels, ((X - C[labels]) ** 2).sum() / len(X)


def test_matches_explicit_lloyd_linear_kernel_n3000():
    X = blobs(3000, 5, 6, seed=0)
    gram = Gram(Kernel("linear"), X, budget=2**30)
    seeds, cols = kernel_kmeanspp(gram, 6, np.random.default_rng(1))
    np.testing.assert_allclose(cols, X @ X[seeds].T, rtol=1e-12)
    labels, obj, n_iter, reseeds = lloyd(gram, cols, gram.diag[seeds], max_iter=1000, tol=0.0)
    ref_labels, ref_obj = explicit_lloyd(X, X[seeds])
    assert reseeds == 0 and n_iter > 1
    np.testing.assert_array_equal(labels, ref_labels)
    assert obj == pytest.approx(ref_obj, rel=1e-10)


@pytest.mark.parametrize("kernel", [Kernel("gaussian", sigma=2.0), Kernel("polynomial", degree=2, coef0=1.0)])
def test_blocked_equals_stored(kernel):
    X = blobs(900, 3, 4, seed=2)
    stored = Gram(kernel, X, budget=2**30, store=True)
    blocked = Gram(kernel, X, budget=2**21, store=False)  # 1 MiB blocks: 145 rows
    assert stored.stored and not blocked.stored
    W = np.random.default_rng(0).standard_normal((300, 3))
    idx = np.arange(0, 900, 3)
    np.testing.assert_allclose(blocked.times(W, idx), stored.times(W, idx), rtol=1e-10, atol=1e-10)
    a = kernel_kmeans(stored, 4, np.random.default_rng(5), n_init=3, max_iter=100, tol=0.0)
    b = kernel_kmeans(blocked, 4, np.random.default_rng(5), n_init=3, max_iter=100, tol=0.0)
    np.testing.assert_array_equal(a.labels, b.labels)
    assert a.objective == pytest.approx(b.objective, rel=1e-10)


def test_objective_is_the_lifted_objective_and_best_restart_kept():
    X = blobs(400, 2, 5, seed=3, spread=1.5)
    kernel = Kernel("gaussian", sigma=1.0)
    res = kernel_kmeans(Gram(kernel, X, 2**30), 5, np.random.default_rng(0), n_init=4, max_iter=300, tol=0.0)
    assert len(res.objectives) == 4 and res.objective == min(res.objectives)
    K = np.exp(-((X[:, None] - X[None]) ** 2).sum(axis=2) / 2.0)
    B = np.eye(5)[res.labels]
    N = B.sum(axis=0)
    D = 1.0 - 2.0 * K @ B / N + np.einsum("lj,lm,mj->j", B, K, B) / N**2
    assert res.objective == pytest.approx(D[np.arange(400), res.labels].mean(), rel=1e-10)
    np.testing.assert_array_equal(D.argmin(axis=1), res.labels)  # a fixed point


def test_empty_cluster_reseeded_and_counted():
    """Two seeds on duplicated points: the second seed's cluster starts empty."""
    X = blobs(200, 2, 3, seed=4)
    X[1] = X[0]
    gram = Gram(Kernel("linear"), X, 2**30)
    seeds = np.array([0, 1, 50])
    labels, obj, _, reseeds = lloyd(gram, gram.columns(seeds), gram.diag[seeds], 100, 0.0)
    assert reseeds >= 1
    assert np.bincount(labels, minlength=3).min() >= 1
    C = np.array([X[labels == j].mean(axis=0) for j in range(3)])
    assert obj == pytest.approx(((X - C[labels]) ** 2).sum() / 200, rel=1e-10)


def test_kmeanspp_first_step_is_d2_sampling():
    """Plain D² sampling: the second seed given the first has P(i) ∝ ‖φ_i − φ_first‖²."""
    X = np.array([[0.0], [1.0], [3.0], [7.0]])
    gram = Gram(Kernel("linear"), X, 2**30)
    counts = np.zeros(4)
    rng = np.random.default_rng(0)
    draws = 20000
    for _ in range(draws):
        seeds, _ = kernel_kmeanspp(gram, 2, rng, n_local_trials=1)
        if seeds[0] == 0:
            counts[seeds[1]] += 1
    p = np.array([0.0, 1.0, 9.0, 49.0]) / 59.0
    total = counts.sum()
    assert counts[0] == 0
    assert np.all(np.abs(counts / total - p) <= 4 * np.sqrt(p * (1 - p) / total) + 1e-12)


def _exact(X, kernel, budget=2**30):
    ctx = SketchContext(n=len(X), k=4, gamma=1.0, budget=budget)
    return Exact(ExactConfig(), ctx).fit(X, kernel, 10, np.random.default_rng(0))


@pytest.mark.parametrize("kernel", [Kernel("gaussian", sigma=1.0), Kernel("polynomial", degree=2, coef0=1.0)])
def test_exact_features_preserve_every_rkhs_distance(kernel):
    X = blobs(300, 3, 4, seed=5)
    F = _exact(X, kernel).transform(X)
    K = kernel(X, X)
    rkhs = np.diag(K)[:, None] + np.diag(K)[None, :] - 2 * K
    feat = ((F[:, None, :] - F[None, :, :]) ** 2).sum(axis=2)
    assert np.max(np.abs(feat - rkhs)) <= 1e-10 * max(1.0, np.abs(K).max())


def test_exact_features_are_a_function_of_the_row():
    """The training rows' features equal those of a copy and of a permutation of the rows
    (one formula for every point), and come in the kernel's dtype."""
    X = blobs(200, 3, 4, seed=4)
    for dtype in ("float64", "float32"):
        kernel = Kernel("gaussian", sigma=1.0, dtype=dtype)
        sk = _exact(X, kernel)
        F = sk.transform(X)
        perm = np.random.default_rng(0).permutation(len(X))
        assert F.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(sk.transform(X.copy()), F)
        np.testing.assert_allclose(sk.transform(X[perm]), F[perm], rtol=1e-6 if dtype == "float32" else 1e-12,
                                   atol=1e-6 if dtype == "float32" else 1e-12)


def test_exact_projected_equals_lifted_and_partition_is_kernel_kmeans():
    X, Xt = blobs(250, 2, 4, seed=6), blobs(120, 2, 4, seed=7)
    kernel = Kernel("gaussian", sigma=1.0)
    sk = _exact(X, kernel)
    clusterer = KMeansPP(ClusteringConfig(name="kmeanspp", n_init=3, max_iter=200, tol=0.0))
    part = sk.partition(X, 4, clusterer, np.random.default_rng(9))
    ref = kernel_kmeans(Gram(kernel, X, 2**30), 4, np.random.default_rng(9), 3, 200, 0.0)
    np.testing.assert_array_equal(part.labels, ref.labels)
    assert part.info["kernel_stored"] and part.info["n_empty_clusters"] == 0
    proj = projected_risk(sk.transform(X), sk.residual(X), part.labels, sk.transform(Xt), sk.residual(Xt), 4)
    lift = lifted(kernel, X, part.labels, Xt, 4, RiskSettings.exact(2**30))
    for name in ("train_risk", "objective", "test_risk"):
        assert getattr(proj, name) == pytest.approx(getattr(lift, name), rel=1e-9, abs=1e-10)
    np.testing.assert_array_equal(proj.test_labels, lift.test_labels)
    assert sk.m_used(10) == 250


def test_exact_features_refused_above_budget():
    X = blobs(300, 2, 2, seed=8)
    sk = _exact(X, Kernel("gaussian", sigma=1.0), budget=300 * 300 * 8)  # K fits, eigh does not
    with pytest.raises(MemoryBudgetError, match="eigendecomposition"):
        sk.transform(X)
