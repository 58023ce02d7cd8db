"""two_step (Chitta et al. 2011's two-step kernel k-means, Wang et al. 2019 §5.2) against
dense brute force: the optimal kernel k-means partition of the sample by enumeration of
every labelling, then every point to the nearest of its centres in the RKHS."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from kktheory.cluster.clusterers import CLUSTERERS, ClusteringConfig
from kktheory.errors import ConfigError, MemoryBudgetError
from kktheory.kernels.functions import Kernel
from kktheory.seeding import component_rng
from kktheory.embeddings import SKETCHES, SketchContext

SIGMA = 1.5


def make(name: str, n: int, k: int, budget: int = 2**30, **params):
    entry = SKETCHES.get(name)
    return entry.impl(entry.config_cls(**params), SketchContext(n=n, k=k, gamma=1.0, budget=budget))


def clusterer(n_init: int = 10):
    return CLUSTERERS.get("kmeanspp").impl(ClusteringConfig(name="kmeanspp", n_init=n_init, tol=0.0))


def partition(name: str, X: np.ndarray, k: int, m: int, kernel: Kernel, seed: int = 0, **params):
    sk = make(name, len(X), k, **params).fit(X, kernel, m, component_rng(seed, "sketch"))
    return sk, sk.partition(X, k, clusterer(), component_rng(seed, "cluster"))


def gaussian(X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    d2 = ((X[:, None, :] - Y[None, :, :]) ** 2).sum(-1)
    return np.exp(-d2 / (2 * SIGMA**2))


def canonical(labels: np.ndarray) -> np.ndarray:
    """Labels renumbered by order of first appearance (a partition, whatever the numbering)."""
    first = {}
    return np.array([first.setdefault(int(v), len(first)) for v in labels])


def optimal_partitions(K: np.ndarray, k: int) -> tuple[np.ndarray, float, float]:
    """Every labelling of the m points into k nonempty clusters: (canonical optimal labels,
    optimal objective Σ_i ‖φ_i − c_{l_i}‖², objective of the best different partition)."""
    m = len(K)
    L = np.array(list(itertools.product(range(k), repeat=m)))
    B = (L[:, :, None] == np.arange(k)).astype(float)  # N × m × k
    sizes = B.sum(axis=1)
    full = (sizes > 0).all(axis=1)
    L, B, sizes = L[full], B[full], sizes[full]
    within = np.einsum("nlj,lp,npj->nj", B, K, B)
    obj = np.trace(K) - (within / sizes).sum(axis=1)
    order = np.argsort(obj)
    best = canonical(L[order[0]])
    other = next(i for i in order if not np.array_equal(canonical(L[i]), best))
    return best, float(obj[order[0]]), float(obj[other])


def nearest_centre(K_xs: np.ndarray, K_ss: np.ndarray, diag: np.ndarray, sample_labels: np.ndarray) -> np.ndarray:
    """argmin_j κ(x,x) − 2/|C_j| Σ_{l∈C_j} κ(x, s_l) + 1/|C_j|² Σ_{l,l'∈C_j} κ(s_l, s_l'), by loops."""
    D = np.empty((len(K_xs), sample_labels.max() + 1))
    for j in range(D.shape[1]):
        C = np.flatnonzero(sample_labels == j)
        for i in range(len(K_xs)):
            D[i, j] = diag[i] - 2 * K_xs[i, C].sum() / len(C) + K_ss[np.ix_(C, C)].sum() / len(C) ** 2
    return D.argmin(axis=1)


def lloyd_fixed_point(X: np.ndarray, labels: np.ndarray) -> bool:
    """Whether every point of X is nearest to the mean of its own cluster (Euclidean)."""
    means = np.array([X[labels == j].mean(axis=0) for j in range(labels.max() + 1)])
    d = ((X[:, None, :] - means[None]) ** 2).sum(-1)
    return bool((d[np.arange(len(X)), labels] <= d.min(axis=1) + 1e-12).all())


def overlapping_blobs(n: int = 60, seed: int = 3, spread: float = 0.6) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = np.array([[0.0, 0.0], [2.5, 0.5], [1.0, 2.5]])
    return centres[np.arange(n) % 3] + spread * rng.normal(size=(n, 2))


@pytest.mark.parametrize("seed", range(5))
def test_labels_equal_optimal_sample_partition_then_nearest_centre(seed):
    # blobs separated enough that 10 restarts of kernel k-means on the 10 sampled points
    # reach the enumerated optimum; overlapping enough that the assignment is not trivial
    X = overlapping_blobs()
    k, m = 3, 10
    kernel = Kernel("gaussian", sigma=SIGMA)
    sk, part = partition("two_step", X, k, m, kernel, seed=seed)
    S = sk.landmarks_
    # the sample is nystrom's landmark draw: m distinct training points
    np.testing.assert_array_equal(S, make("nystrom", len(X), k).fit(X, kernel, m, component_rng(seed, "sketch")).landmarks_)
    assert len(set(S.tolist())) == m
    K_ss = gaussian(X[S], X[S])
    best, opt, second = optimal_partitions(K_ss, k)
    assert second - opt > 1e-6  # the optimum is a unique partition
    expected = nearest_centre(gaussian(X, X[S]), K_ss, np.ones(len(X)), best)
    assert len(np.unique(expected)) == k
    np.testing.assert_array_equal(canonical(part.labels), canonical(expected))
    assert part.features is None and not sk.capabilities.embedding and not sk.capabilities.runs_clusterer
    assert part.info["n_empty_clusters"] == 0 and part.info["n_iter"] >= 1


@pytest.mark.parametrize("seed", range(4))
def test_assignment_is_nearest_centre_of_the_sample_clusters(seed):
    # wider blobs: kernel k-means on the sample may stop at a local optimum (with tol = 0,
    # a fixed point of Lloyd on K_mm). Whatever it is, the sampled points keep their
    # clusters and every point is assigned to the nearest of their centres.
    X = overlapping_blobs(seed=7, spread=1.0)
    k, m = 3, 10
    sk, part = partition("two_step", X, k, m, Kernel("gaussian", sigma=SIGMA), seed=seed)
    S = sk.landmarks_
    K_ss = gaussian(X[S], X[S])
    sample_labels = canonical(part.labels[S])
    assert len(np.unique(sample_labels)) == k
    np.testing.assert_array_equal(canonical(nearest_centre(K_ss, K_ss, np.ones(m), sample_labels)), sample_labels)
    expected = nearest_centre(gaussian(X, X[S]), K_ss, np.ones(len(X)), sample_labels)
    np.testing.assert_array_equal(canonical(part.labels), canonical(expected))


def test_m_inside_a_list_equals_m_alone():
    X = overlapping_blobs(seed=5)
    kernel = Kernel("gaussian", sigma=SIGMA)
    ctx = SketchContext(n=len(X), k=3, gamma=1.0, budget=2**30)
    params = SKETCHES.get("two_step").config_cls()
    nested = dict(SKETCHES.get("two_step").impl.fit_nested(
        params, ctx, X, kernel, [12, 25], lambda: component_rng(4, "sketch")))
    alone, part = partition("two_step", X, 3, 12, kernel, seed=4)
    assert nested[12].embedding.train_columns_ is not None and alone.embedding.train_columns_ is None
    got = nested[12].partition(X, 3, clusterer(), component_rng(4, "cluster"))
    np.testing.assert_array_equal(nested[12].landmarks_, alone.landmarks_)
    np.testing.assert_array_equal(got.labels, part.labels)


def line_data(n: int, m: int, seed: int) -> np.ndarray:
    """1-D points whose m sampled ones sit 3 at 0 and 3 at 10, the others 4 at 5.1 and the
    rest at 30 — so the sample's optimal 2-means centres are 0 and 10."""
    S = make("two_step", n, 2).fit(np.zeros((n, 1)), Kernel("linear"), m, component_rng(seed, "sketch")).landmarks_
    x = np.full(n, 30.0)
    x[S] = [0.0, 0.0, 0.0, 10.0, 10.0, 10.0]
    rest = np.setdiff1d(np.arange(n), S)
    x[rest[:4]] = 5.1
    return x[:, None]


def test_two_step_differs_from_approx_kkm_and_nystrom():
    # Linear kernel in 1-D: the span of the landmarks is the whole line, so Nyström's
    # features are x itself (up to sign) and approx_kkm and nystrom return Lloyd fixed
    # points of k-means on x. Two-step: the sample's 2-means centres are 0 and 10, so the
    # points at 5.1 and 10 go with 10 and the partition is {0} | {5.1, 10, 30}, whose
    # means 0 and 27.2 put 5.1 and 10 nearer to 0: not a Lloyd fixed point, hence
    # different from both partitions whatever their seeding.
    n, m, seed = 60, 6, 0
    X = line_data(n, m, seed)
    kernel = Kernel("linear")
    _, two = partition("two_step", X, 2, m, kernel, seed=seed)
    x = X[:, 0]
    np.testing.assert_array_equal(canonical(two.labels), canonical((x > 0).astype(int)))
    assert not lloyd_fixed_point(X, two.labels)
    for name in ("approx_kkm", "nystrom"):
        _, other = partition(name, X, 2, m, kernel, seed=seed)
        assert lloyd_fixed_point(X, other.labels), name
        assert not np.array_equal(canonical(other.labels), canonical(two.labels)), name


def test_validate():
    with pytest.raises(ConfigError, match="m="):
        make("two_step", 100, 5).validate(4)  # fewer sampled points than clusters
    with pytest.raises(ConfigError, match="sketch.n_local_trials"):
        make("two_step", 100, 5, n_local_trials=0).validate(20)
    with pytest.raises(MemoryBudgetError, match="two-step"):
        make("two_step", 10**6, 5, budget=2**20).validate(100)
    make("two_step", 100, 5).validate(5)
