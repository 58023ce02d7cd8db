"""Clusterers: minibatch, localsearch (LocalSearch++, Lattanzi & Sohler 2019), validation."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from sklearn.cluster import MiniBatchKMeans

from kktheory.cluster.clusterers import (
    CLUSTERERS, CachedCdfRandomState, LocalSearch, LocalSearchConfig, MiniBatch, MiniBatchConfig, local_search,
    localsearch_pp,
)
from kktheory.errors import ConfigError


def blobs(n=600, d=4, k=6, seed=0):
    rng = np.random.default_rng(seed)
    centres = 2.5 * rng.standard_normal((k, d))
    return centres[rng.integers(k, size=n)] + rng.standard_normal((n, d))


def cost(F, C):
    """Σ_i min_j ‖F_i − C_j‖² by explicit differences."""
    return ((F[:, None, :] - C[None, :, :]) ** 2).sum(axis=2).min(axis=1).sum()


def partition_cost(F, labels):
    return sum(((F[labels == j] - F[labels == j].mean(axis=0)) ** 2).sum() for j in np.unique(labels))


@pytest.mark.parametrize("seed", range(8))
def test_localsearch_never_worse_than_its_kmeanspp_start(seed):
    F = blobs(seed=seed)
    p = LocalSearchConfig(n_init=1, Z=15)
    seeds, searched, swaps = localsearch_pp(F, 6, p.Z, np.random.default_rng(seed))
    assert cost(F, F[searched]) <= cost(F, F[seeds]) * (1 + 1e-12)
    res = LocalSearch(p).fit(F, 6, np.random.default_rng(seed))  # same stream: same start
    final = partition_cost(F, res.labels)
    assert final <= cost(F, F[searched]) * (1 + 1e-12)
    assert res.info["init_cost"] == pytest.approx(cost(F, F[seeds]) / len(F), rel=1e-10)
    assert res.info["search_cost"] == pytest.approx(cost(F, F[searched]) / len(F), rel=1e-10)
    assert res.info["n_swaps"] == swaps


def one_step(seed):
    """Z = 1: the sampled p replaces the centre whose removal costs least, if that lowers the cost."""
    F = blobs(n=200, k=5, seed=seed)
    start = np.random.default_rng(100 + seed).choice(len(F), 5, replace=False)
    rng = np.random.default_rng(seed)
    probe = copy.deepcopy(rng)
    new, swaps = local_search(F, start, 1, rng)
    d1 = ((F[:, None, :] - F[start][None]) ** 2).sum(axis=2).min(axis=1)
    p = int(np.argmax(np.cumsum(d1) > probe.random() * d1.sum()))  # D² sampling by inverse CDF
    costs = [cost(F, F[np.where(np.arange(5) == q, p, start)]) for q in range(5)]
    q = int(np.argmin(costs))
    expect = start.copy()
    if costs[q] < cost(F, F[start]):
        expect[q] = p
    assert swaps == int(not np.array_equal(expect, start))
    np.testing.assert_array_equal(new, expect)
    return swaps


def test_one_local_search_step_is_the_best_swap():
    assert sum(one_step(seed) for seed in range(6)) >= 1  # and some steps did swap


def test_minibatch_and_registry():
    F = blobs()
    assert {"kmeanspp", "minibatch", "localsearch"} <= set(CLUSTERERS.names())
    res = MiniBatch(MiniBatchConfig(batch_size=128)).fit(F, 6, np.random.default_rng(0))
    assert res.labels.shape == (len(F),) and set(res.labels) <= set(range(6))
    assert res.centers.shape == (6, F.shape[1]) and res.info["n_steps"] >= 1
    again = MiniBatch(MiniBatchConfig(batch_size=128)).fit(F, 6, np.random.default_rng(0))
    np.testing.assert_array_equal(res.labels, again.labels)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cached_cdf_draws_are_numpys(dtype):
    """Weighted draws with replacement: the same indices and the same stream after them."""
    n = 5003
    w = np.random.default_rng(1).random(n).astype(dtype)
    for p in (w / w.sum(), np.full(n, 1 / n, dtype=dtype)):
        ours, numpys = CachedCdfRandomState(11), np.random.RandomState(11)
        for size in (1, 64, (3, 5)):
            for _ in range(3):
                np.testing.assert_array_equal(ours.choice(n, size, p=p), numpys.choice(n, size, p=p))
        assert ours._weights is p  # drawn from the cached sum
        assert ours.choice(n, p=p) == numpys.choice(n, p=p)  # a scalar draw is NumPy's own
        np.testing.assert_array_equal(ours.choice(n, 9, replace=False), numpys.choice(n, 9, replace=False))
        assert ours.random_sample() == numpys.random_sample()
    with pytest.raises(ValueError):
        CachedCdfRandomState(0).choice(n, 4, p=np.full(n, 2 / n))  # NumPy's check of p


def test_minibatch_kmeans_with_cached_cdf_is_scikit_learns():
    F = blobs(n=3000).astype(np.float32)
    fit = lambda rs: MiniBatchKMeans(6, n_init=3, batch_size=64, tol=0.0, random_state=rs).fit(F)
    state = CachedCdfRandomState(5)
    ours, theirs = fit(state), fit(5)
    assert state._cdf is not None and len(state._cdf) == len(F)  # the mini-batches used the cache
    assert ours.n_steps_ == theirs.n_steps_ > 10
    np.testing.assert_array_equal(ours.labels_, theirs.labels_)
    np.testing.assert_array_equal(ours.cluster_centers_, theirs.cluster_centers_)


@pytest.mark.parametrize("impl,params,field", [
    (LocalSearch, LocalSearchConfig(Z=-1), "clustering.Z"),
    (MiniBatch, MiniBatchConfig(batch_size=0), "clustering.batch_size"),
    (LocalSearch, LocalSearchConfig(n_init=0), "clustering.n_init"),
])
def test_bad_parameters_are_config_errors(impl, params, field):
    with pytest.raises(ConfigError) as exc:
        impl(params).validate()
    assert exc.value.field == field


def test_kmeans_lower_bound_below_every_partition_and_tight_for_separated_clusters():
    """Brute force over all partitions of 8 points into 2 and 3 clusters."""
    import itertools

    from kktheory.cluster.clusterers import kmeans_lower_bound

    rng = np.random.default_rng(4)
    F = rng.normal(size=(8, 3))
    for k in (2, 3):
        best = np.inf
        for labels in itertools.product(range(k), repeat=len(F)):
            labels = np.array(labels)
            if len(set(labels)) < k:
                continue
            cost = sum(((F[labels == j] - F[labels == j].mean(0)) ** 2).sum() for j in range(k)) / len(F)
            best = min(best, cost)
        assert kmeans_lower_bound(F, k) <= best + 1e-12
    # k coincident groups: every partition cost is within-group spread = 0 at the optimum, bound 0
    G = np.repeat(np.eye(3) * 5.0, 4, axis=0)
    assert kmeans_lower_bound(G, 3) == pytest.approx(0.0, abs=1e-12)


def test_kmeans_lower_bound_is_the_dense_formula_in_chunks_and_float32(monkeypatch):
    """(‖F_c‖_F² − Σ_{i<k} σ_i²(F_c))/n from a dense SVD, with chunks of a few rows and with
    float32 features (within float32 rounding); k − 1 ≥ d gives 0."""
    from kktheory.cluster import clusterers as cluster

    rng = np.random.default_rng(5)
    F = rng.normal(size=(500, 6)) + rng.normal(size=6) * 10  # a large mean: centring matters
    Fc = F - F.mean(0)
    s2 = np.linalg.svd(Fc, compute_uv=False) ** 2
    for k in (2, 4):
        dense = ((Fc**2).sum() - s2[: k - 1].sum()) / len(F)
        assert cluster.kmeans_lower_bound(F, k) == pytest.approx(dense, rel=1e-12)
        assert cluster.kmeans_lower_bound(F.astype(np.float32), k) == pytest.approx(dense, rel=1e-5)
    monkeypatch.setattr(cluster, "GRAM_CHUNK_BYTES", 7 * 6 * 8)  # chunks of 7 rows
    assert cluster.kmeans_lower_bound(F, 3) == pytest.approx(((Fc**2).sum() - s2[:2].sum()) / len(F), rel=1e-12)
    assert cluster.kmeans_lower_bound(F, 10) == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("d", [60, 200])
def test_kmeans_lower_bound_by_lanczos_is_the_dense_formula(monkeypatch, d):
    """From LANCZOS_MIN_D features on, the k − 1 eigenvalues come from Lanczos on x ↦ F_cᵀF_c x
    (no d × d Gram): the same bound as a dense SVD of the centred rows, for kernel columns
    (d = n, a fast-decaying spectrum) and for wide features (d > n), in chunks and in float32."""
    from kktheory.cluster import clusterers as cluster

    monkeypatch.setattr(cluster, "LANCZOS_MIN_D", 50)
    rng = np.random.default_rng(7)
    X = rng.normal(size=(200, 3)) + np.repeat(np.eye(3) * 4, [70, 70, 60], axis=0)
    F = np.exp(-0.1 * ((X[:, None] - X[None]) ** 2).sum(-1)) if d == 200 else rng.normal(size=(40, d)) + 5
    Fc = F - F.mean(0)
    s2 = np.linalg.svd(Fc, compute_uv=False) ** 2
    for k in (1, 2, 4):
        dense = ((Fc**2).sum() - s2[: k - 1].sum()) / len(F)
        assert cluster.kmeans_lower_bound(F, k) == pytest.approx(dense, rel=1e-10)
        assert cluster.kmeans_lower_bound(F.astype(np.float32), k) == pytest.approx(dense, rel=1e-4)
    monkeypatch.setattr(cluster, "GRAM_CHUNK_BYTES", 7 * d * 8)  # chunks of 7 rows
    assert cluster.kmeans_lower_bound(F, 3) == pytest.approx(((Fc**2).sum() - s2[:2].sum()) / len(F), rel=1e-10)


def test_kmeanspp_records_the_seeding_cost():
    from kktheory.cluster.clusterers import kmeanspp_init

    rng = np.random.default_rng(0)
    F = rng.normal(size=(200, 4))
    costs = []
    C = kmeanspp_init(F, 5, np.random.RandomState(0), costs=costs)
    brute = ((F[:, None, :] - C[None, :, :]) ** 2).sum(-1).min(1).mean()
    assert costs == [pytest.approx(brute)]
