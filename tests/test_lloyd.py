"""Lloyd's iterations with Hamerly's bounds (kktheory.cluster.lloyd) against scikit-learn's Lloyd and
against the definition: a converged partition assigns every point to its nearest centre,
and every centre is the mean of its points."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.cluster import KMeans

from kktheory.cluster.clusterers import kmeanspp_init
from kktheory.cluster.lloyd import kmeans, lloyd, same_partition


def mixture(n: int, d: int, k: int, spread: float, seed: int, dtype=np.float64) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(k, d)) * spread
    return (centres[rng.integers(k, size=n)] + rng.normal(size=(n, d)) + 3.0).astype(dtype)


CASES = [(600, 2, 3, 4.0), (800, 10, 8, 0.6), (500, 30, 12, 1.5), (400, 3, 25, 1.0), (300, 5, 1, 1.0)]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n,d,k,spread", CASES)
def test_same_result_as_scikit_learn_kmeans(n, d, k, spread, dtype):
    """Labels, centres, inertia and iteration count of the best of 3 k-means++ restarts equal
    scikit-learn's KMeans (Lloyd) with the same seeds."""
    X = mixture(n, d, k, spread, seed=n + d, dtype=dtype)
    km = KMeans(k, init=kmeanspp_init, n_init=3, max_iter=300, tol=1e-4, random_state=5).fit(X)
    labels, centers, inertia, n_iter = kmeans(X, k, kmeanspp_init, 3, 300, 1e-4, 5)
    rtol = 1e-10 if dtype == np.float64 else 1e-4
    assert np.array_equal(labels, km.labels_) and n_iter == km.n_iter_
    np.testing.assert_allclose(centers, km.cluster_centers_, rtol=rtol, atol=rtol)
    assert inertia == pytest.approx(km.inertia_, rel=rtol)
    assert centers.dtype == dtype


def test_a_converged_partition_is_a_fixed_point_of_lloyd():
    """Brute force, without the code under test's distances: every point's nearest returned
    centre is its own, and every centre is its cluster's mean; the inertia is their sum."""
    X = mixture(700, 6, 7, 1.0, seed=3)
    labels, centers, inertia, n_iter = kmeans(X, 7, kmeanspp_init, 1, 1000, 0.0, 0)
    assert n_iter < 1000  # stopped because no label changed
    for i, x in enumerate(X):
        dist = [sum((x[t] - c[t]) ** 2 for t in range(X.shape[1])) for c in centers]
        assert int(np.argmin(dist)) == labels[i]
    for j in range(7):
        np.testing.assert_allclose(centers[j], X[labels == j].mean(axis=0), rtol=1e-12, atol=1e-12)
    assert inertia == pytest.approx(sum(((X[i] - centers[labels[i]]) ** 2).sum() for i in range(len(X))), rel=1e-10)


def test_an_empty_cluster_is_relocated_as_scikit_learn_does():
    """Two identical starting centres leave one cluster empty after the first assignment:
    scikit-learn moves it to the point farthest from its centre; so does lloyd()."""
    X = mixture(400, 4, 4, 3.0, seed=8)
    start = np.vstack([X[:3], X[:1]])  # centres 0 and 3 coincide: cluster 3 gets no point
    km = KMeans(4, init=start, n_init=1, max_iter=300, tol=1e-4).fit(X)
    labels, centers, inertia, n_iter = kmeans(X, 4, start, 1, 300, 1e-4, 0)
    assert np.array_equal(labels, km.labels_) and n_iter == km.n_iter_
    np.testing.assert_allclose(centers, km.cluster_centers_, rtol=1e-10, atol=1e-10)
    assert len(np.unique(labels)) == 4


def test_tolerance_stop_ends_with_an_assignment_to_the_final_centres():
    """Stopped by the tolerance (not by unchanged labels), the labels are re-assigned to the
    final centres, as scikit-learn does."""
    X = mixture(600, 8, 6, 0.4, seed=11)
    start = kmeanspp_init(X, 6, np.random.RandomState(0))
    labels, inertia, centers, n_iter = lloyd(X, start, max_iter=2, tol=0.0)
    d = ((X[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)
    assert n_iter == 2 and np.array_equal(labels, d.argmin(axis=1))


def test_same_partition_is_scikit_learns_relabelling_test():
    assert same_partition(np.array([0, 0, 1, 2]), np.array([2, 2, 0, 1]))
    assert not same_partition(np.array([0, 0, 1, 1]), np.array([0, 1, 1, 1]))


@pytest.mark.parametrize("X,init,max_iter", [
    ([[-2.0], [-2.0], [0.0], [4.0]], [[-3.0], [0.5]], 300),  # a point exactly between two centres
    ([[0.0], [0.0], [1.0], [1.0], [1.0]], [[0.0], [0.0], [1.0]], 300),  # a cluster left empty, after the largest
    ([[1, 8], [9, 7], [0, 3], [7, 4], [7, 4], [5, 2], [0, 3]], [[5, 2], [7, 4]], 1),  # integer ties
])
def test_exact_ties_and_empty_clusters_follow_scikit_learn(X, init, max_iter):
    """Where real arithmetic ties, scikit-learn's comparison decides (lower index at an exact
    tie; its own rounding for integer data); an empty cluster no point can fill takes the row
    scikit-learn's in-place averaging gives it."""
    X, init = np.asarray(X, dtype=np.float64), np.asarray(init, dtype=np.float64)
    for dtype in (np.float64, np.float32):
        Xd, id_ = X.astype(dtype), init.astype(dtype)
        km = KMeans(len(init), init=id_, n_init=1, max_iter=max_iter, tol=0.0).fit(Xd)
        labels, centers, inertia, n_iter = kmeans(Xd, len(init), id_, 1, max_iter, 0.0, 0)
        assert np.array_equal(labels, km.labels_) and n_iter == km.n_iter_
        np.testing.assert_allclose(centers, km.cluster_centers_, rtol=1e-6, atol=1e-6)


def test_more_clusters_than_points_is_refused():
    with pytest.raises(ValueError, match="n_clusters"):
        kmeans(np.zeros((3, 2)), 4, kmeanspp_init, 1, 10, 1e-4, 0)
