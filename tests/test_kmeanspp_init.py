"""The k-means++ seeding of the kmeanspp clusterer and its Elkan option."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.cluster import KMeans, kmeans_plusplus

from kktheory.cluster.clusterers import KMeansPP, KMeansPPConfig, kmeanspp_init
from kktheory.run.config import Point, build_spec
from kktheory.errors import ConfigError
from kktheory.run.identity import row_identity
from tests.hydra_cfg import make_cfg


def blobs(n: int, d: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((6, d)) * 4
    return centres[rng.integers(0, 6, n)] + rng.standard_normal((n, d))


@pytest.mark.parametrize("seed", range(4))
def test_seeds_are_scikit_learns_on_float64(seed: int) -> None:
    X = blobs(800, 7, seed)
    ours = kmeanspp_init(X, 6, np.random.RandomState(seed))
    theirs, _ = kmeans_plusplus(X, 6, random_state=np.random.RandomState(seed))
    np.testing.assert_array_equal(ours, theirs)


def brute_greedy_kmeanspp(X: np.ndarray, k: int, rs: np.random.RandomState) -> np.ndarray:
    """Greedy D² seeding with exact float64 pairwise distances (no norms trick)."""
    X64 = X.astype(np.float64)
    n, trials = len(X), 2 + int(np.log(k))
    idx = [rs.choice(n, p=np.full(n, 1.0 / n))]
    closest = ((X64 - X64[idx[0]]) ** 2).sum(1)
    for _ in range(1, k):
        cand = np.minimum(np.searchsorted(np.cumsum(closest), rs.uniform(size=trials) * closest.sum()), n - 1)
        D = np.minimum(closest[None], ((X64[None] - X64[cand][:, None]) ** 2).sum(-1))
        best = int(np.argmin(D.sum(1)))
        idx.append(cand[best])
        closest = D[best]
    return X[np.array(idx)]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_seeds_equal_brute_force_greedy_dsquared(dtype: type) -> None:
    X = blobs(600, 5, 11).astype(dtype)
    ours = kmeanspp_init(X, 6, np.random.RandomState(5))
    assert ours.dtype == dtype
    np.testing.assert_array_equal(ours, brute_greedy_kmeanspp(X, 6, np.random.RandomState(5)))


def test_every_algorithm_gives_lloyds_partition_and_is_not_identity() -> None:
    """lloyd (the default), hamerly and elkan compute the same iterations: the same labels,
    scikit-learn's, and one run identity."""
    F = blobs(1500, 4, 3).astype(np.float32)
    results = {}
    assert KMeansPPConfig().algorithm == "lloyd"
    for algorithm in ("hamerly", "lloyd", "elkan"):
        res = KMeansPP(KMeansPPConfig(n_init=3, algorithm=algorithm)).fit(F, 6, np.random.default_rng(0))
        assert res.info["clustering_algorithm"] == algorithm
        results[algorithm] = res.labels
    np.testing.assert_array_equal(results["lloyd"], results["elkan"])
    np.testing.assert_array_equal(results["lloyd"], results["hamerly"])
    theirs = KMeans(6, n_init=3, random_state=int(np.random.default_rng(0).integers(2**31 - 1))).fit(F.astype(np.float64))
    assert np.mean(theirs.labels_ == results["lloyd"]) == 1.0  # same seeds, same Lloyd fixed point
    base = ("n=300", "n_test=50", "k=3", "m=8")
    a = row_identity(build_spec(make_cfg(*base, "clustering.algorithm=lloyd")), Point("8", 8))
    b = row_identity(build_spec(make_cfg(*base, "clustering.algorithm=elkan")), Point("8", 8))
    c = row_identity(build_spec(make_cfg(*base, "clustering.algorithm=hamerly")), Point("8", 8))
    assert a == b == c  # the same computation: one run file
    with pytest.raises(ConfigError, match="clustering.algorithm"):
        build_spec(make_cfg(*base, "clustering.algorithm=fast"))
