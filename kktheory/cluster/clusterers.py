"""k-means algorithms on sketch features, config group ``clustering``.

A clusterer takes an n×d feature matrix and returns labels and feature-space centroids.

- ``kmeanspp``: k-means++ seeding (Arthur & Vassilvitskii 2007) followed by Lloyd
  iterations, ``n_init`` restarts, best inertia kept, as scikit-learn's ``KMeans``. The
  iterations are computed by ``algorithm``: ``lloyd`` (the default, scikit-learn's
  ``KMeans``, every distance every iteration), ``hamerly`` (:mod:`kktheory.cluster.lloyd`:
  Hamerly's 2010 bounds skip the points whose assignment cannot change; extra memory O(n);
  on a quiet machine 0.6–1.4× Lloyd's speed, benchmarks/kmeans_algorithms.py) or ``elkan`` (scikit-learn's, Elkan's 2003 k bounds per point; extra memory
  O(nk)). All three compute the same iterations (the same partition up to round-off in
  near-ties, tested), so the choice is not part of a run's identity. The seeding is
  :func:`kmeanspp_init`: scikit-learn's greedy k-means++
  with the same random draws, its distances computed in the features' dtype (scikit-learn
  converts float32 features to float64 in small chunks for it, which made the seeding
  of 60000 × 245 float32 features 24× slower than in float64).
  ``warm_start=true`` (a list of m only; default off) clusters the m of a list from the
  largest down: the largest m as above, every smaller m from one start at the cluster means
  of the next larger m's partition in its own features (:func:`warm_centers`), Lloyd from
  there. This changes what a row computes — its partition depends on the larger m of the
  list, and the row's identity records them (``warm_start_from``) — for a grid that costs
  little more than its largest point (benchmarks/README.md, m-grid). Row columns
  ``seeding_cost_mean`` / ``seeding_cost_max``: the per-point cost of the k-means++ seeds
  themselves (before Lloyd) over the ``n_init`` seedings — the quantity Arthur &
  Vassilvitskii's Thm 3.1 bounds by 8(ln k + 2)·OPT in expectation, which Calandriello
  (Thm 2) and Yin (Thm 3) build on; compare it with ``feature_lower_bound``
  (:func:`kmeans_lower_bound`, written by every embedding's partition).
- ``minibatch``: scikit-learn's ``MiniBatchKMeans`` (Sculley 2010), what Calandriello &
  Rosasco (2018, §5) ran; ``max_iter`` counts passes over the data, ``tol`` is
  scikit-learn's early-stopping tolerance (0 disables it), ``batch_size`` the mini-batch.
  Cost O(max_iter·n·k·d) time, O(batch_size·k) extra memory. Its random state is a
  :class:`CachedCdfRandomState`: scikit-learn's own draws, without the O(n) cumulative sum
  NumPy forms at every mini-batch (which made 8.1M points 25× slower per step).
- ``localsearch``: k-means++ seeding by plain D² sampling, then ``Z`` local-search steps of
  LocalSearch++ (Lattanzi & Sohler 2019, "A better k-means++ algorithm via local search",
  ICML, Algorithm 1), then Lloyd (scikit-learn ``KMeans`` from those centres). One step
  samples a point p with probability d²(p, C)/cost(C) and finds the centre q whose
  replacement by p gives the lowest cost(C − q + p); the swap is made only if that cost is
  lower than cost(C). The theorem needs Z = O(k log log k) steps for a constant-factor
  approximation in expectation (Choo et al. 2020 show εk steps suffice w.h.p.); Yin et al.
  (2022, Thm 3) use this algorithm. A step costs O(n·d + n·k) with the n×k distances kept
  (memory O(nk)). Swaps and Lloyd never increase the cost, so the result is never worse
  than its own k-means++ start. Row columns ``init_cost`` and ``search_cost`` are the
  per-point costs (cost/n) of the seeding and of the searched centres of the kept restart.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.random import RandomState
from omegaconf import MISSING
from sklearn.cluster import KMeans, MiniBatchKMeans, kmeans_plusplus

from kktheory.cluster import lloyd
from kktheory.errors import ConfigError
from kktheory.kernels.geometry import cluster_means, feature_sq_distances
from kktheory.plugins import PluginRegistry
from kktheory.registry import EXECUTION
from kktheory.seeding import component_rng


@dataclass
class ClusteringConfig:
    """Base config of the ``clustering`` group."""

    name: str = MISSING
    n_init: int = 5  # restarts, each from its own seeding; the partition of lowest objective is kept
    max_iter: int = 300  # Lloyd iterations per restart at most
    tol: float = 1e-4  # convergence tolerance of Lloyd (scikit-learn's tol, relative to the features' variance)


@dataclass
class ClusterResult:
    """Labels in 0..k−1, centroids in feature space, and extra row columns."""

    labels: np.ndarray
    centers: np.ndarray
    info: dict[str, Any] = field(default_factory=dict)


class Clusterer:
    """Base class: ``fit(F, k, rng, low_memory)`` → ClusterResult.

    ``low_memory``: F is large against the memory budget (or a view into larger features):
    a C-contiguous F is centred in place and restored afterwards instead of copied
    (scikit-learn's ``copy_x=False``; the restored F can differ from the given one in the
    last bit), and the tolerance's feature variance is summed over row chunks
    (:func:`kktheory.cluster.lloyd.chunked_tolerance`) instead of through ``np.var``'s temporary
    as large as F. Clusterers that do not centre (mini-batch, local search) ignore it.

    ``start``: labels of a partition to start from (warm start), for clusterers that
    support it (:class:`KMeansPP`); None means their own seeding.
    """

    def __init__(self, params: ClusteringConfig, start: np.ndarray | None = None) -> None:
        self.params = params
        self.start = start

    def validate(self) -> None:
        p = self.params
        if p.n_init < 1:
            raise ConfigError("clustering.n_init", p.n_init, "an integer ≥ 1")
        if p.max_iter < 1:
            raise ConfigError("clustering.max_iter", p.max_iter, "an integer ≥ 1")
        if not p.tol >= 0:
            raise ConfigError("clustering.tol", p.tol, "a number ≥ 0")

    def fit(self, F: np.ndarray, k: int, rng: np.random.Generator, low_memory: bool = False) -> ClusterResult:
        raise NotImplementedError


CLUSTERERS: PluginRegistry[type[Clusterer]] = PluginRegistry("clustering", ("kktheory.cluster",),
                                                             ("kktheory.clusterers",))


def kmeanspp_init(X: np.ndarray, n_clusters: int, random_state: RandomState,
                  costs: list[float] | None = None) -> np.ndarray:
    """Greedy k-means++ seeds, as a scikit-learn ``KMeans`` ``init`` callable.

    ``costs``, when given, receives the seeding's cost (1/n) Σ_i min_s ‖x_i − x_s‖² (the
    potential of Arthur & Vassilvitskii, per point) — what their Thm 3.1 bounds by
    8(ln k + 2)·OPT in expectation.

    Arthur & Vassilvitskii (2007) D² sampling with scikit-learn's greedy variant: the first
    centre uniformly, then for each next centre 2 + ⌊ln k⌋ candidates drawn ∝ D²(x) (the
    squared distance to the nearest chosen centre) and the one lowering Σ D² most kept.
    The random draws are those of scikit-learn's ``_kmeans_plusplus`` (one ``choice``,
    then one ``uniform`` per centre from ``random_state``), so on float64 data the seeds
    are scikit-learn's. Distances ‖x‖² + ‖c‖² − 2⟨x, c⟩ come from one GEMM per centre in
    X's dtype, then float64 (clipped at 0); scikit-learn instead converts float32 data to
    float64 chunk by chunk for every candidate. Cost O(n·d·k·(2 + ln k)), memory
    O(n·(2 + ln k)).
    """
    n = len(X)
    trials = 2 + int(np.log(n_clusters))
    norms = np.einsum("ij,ij->i", X, X).astype(np.float64)

    def sq_dist(idx: np.ndarray) -> np.ndarray:  # len(idx) × n
        D = (X @ X[idx].T).T.astype(np.float64)
        D *= -2.0
        D += norms[None, :]
        D += norms[idx][:, None]
        return np.maximum(D, 0.0, out=D)

    indices = np.empty(n_clusters, dtype=np.int64)
    indices[0] = random_state.choice(n, p=np.full(n, 1.0 / n))
    closest = sq_dist(indices[:1])[0]
    pot = closest.sum()
    for c in range(1, n_clusters):
        cand = np.searchsorted(np.cumsum(closest), random_state.uniform(size=trials) * pot)
        np.clip(cand, None, n - 1, out=cand)
        D = np.minimum(closest[None, :], sq_dist(cand))
        pots = D.sum(axis=1)
        best = int(np.argmin(pots))
        pot, closest, indices[c] = pots[best], D[best], cand[best]
    if costs is not None:
        costs.append(float(pot) / n)
    return X[indices]


#: bytes of F per chunk of :func:`kmeans_lower_bound`'s Gram accumulation
GRAM_CHUNK_BYTES = 64 * 2**20
#: from this feature dimension on, and for features no more than :data:`LANCZOS_TALL` times
#: taller than wide, :func:`kmeans_lower_bound` finds its k − 1 eigenvalues by Lanczos on
#: F_cᵀF_c applied as two products with F, without forming the d × d Gram: at d = n = 5,245
#: (Yin's kernel columns on PenDigits) 0.42 s against the dense path's 11.0 s on the idle machine
#: (benchmarks/lower_bound.py; 66 s of a 228 s job under load). For much taller F the Gram's GEMM, at BLAS-3
#: speed, costs about what the Lanczos products read again and again, and ``eigh`` is small.
LANCZOS_MIN_D = 1024
LANCZOS_TALL = 8


def kmeans_lower_bound(F: np.ndarray, k: int) -> float:
    """The spectral lower bound of the k-means objective (per point) of the rows of F.

    For any partition, (1/n) Σ_j Σ_{i∈C_j} ‖F_i − μ_j‖² = (1/n)[‖F_c‖_F² − tr(YᵀF_cF_cᵀY)]
    with F_c the centred rows and Y's k orthonormal columns the normalised indicators, one
    of them ∝ 1 (which F_c annihilates); relaxing Y to any orthonormal frame gives
    ≥ (1/n)[‖F_c‖_F² − Σ_{i<k} σ_i²(F_c)] (Zha et al. 2001; Ding & He 2004).

    Below :data:`LANCZOS_MIN_D` features, from the d × d matrix F_cᵀF_c: each row chunk
    (about 64 MiB) centred and multiplied in F's dtype (one GEMM per chunk; float32 features
    need no float64 copy), the chunks' products summed in float64; then only the k − 1
    largest eigenvalues (``scipy.linalg.eigh`` with ``subset_by_index``). O(n·d² + d³)
    time, memory one chunk plus d × d. From it on, for F at most :data:`LANCZOS_TALL` times
    taller than wide (e.g. kernel columns, d = n), the k − 1 largest eigenvalues of F_cᵀF_c
    by Lanczos (``scipy.sparse.linalg.eigsh``, ``tol=0``: to machine precision, a fixed
    start vector) with x ↦ F_cᵀ(F_c x) applied as
    Fᵀ(Fx − (μ·x)1) − μ·1ᵀ(Fx − (μ·x)1), μ the mean row, and ‖F_c‖_F² summed over chunks:
    O(n·d) per product, memory O(n + d)."""
    n, d = F.shape
    dt = F.dtype if F.dtype in (np.float32, np.float64) else np.dtype(np.float64)
    mean = np.asarray(F.mean(axis=0, dtype=np.float64)).astype(dt)
    top = min(k - 1, d)
    step = max(1, GRAM_CHUNK_BYTES // (dt.itemsize * max(d, 1)))
    if d < LANCZOS_MIN_D or n > LANCZOS_TALL * d or top >= d - 1:
        from scipy.linalg import eigh

        G = np.zeros((d, d))
        for s in range(0, n, step):
            C = np.asarray(F[s:s + step], dtype=dt) - mean
            G += C.T @ C
        largest = eigh(G, eigvals_only=True, subset_by_index=[d - top, d - 1]).sum() if top > 0 else 0.0
        return max(0.0, float(np.trace(G) - largest) / n)
    from scipy.sparse.linalg import LinearOperator, eigsh

    trace = sum(float(np.sum(np.square(np.asarray(F[s:s + step], dtype=np.float64) - mean))) for s in range(0, n, step))
    if top == 0:
        return max(0.0, trace / n)
    mu = mean.astype(np.float64)

    def gram(x: np.ndarray) -> np.ndarray:
        x = np.ravel(x).astype(dt)
        y = np.asarray(F @ x, dtype=np.float64) - float(mu @ x)  # F_c x
        return np.asarray(F.T @ y.astype(dt), dtype=np.float64) - mu * y.sum()  # F_cᵀ y

    v0 = component_rng(0, "lanczos start").standard_normal(d)  # a fixed start: the bound is a function of F
    largest = eigsh(LinearOperator((d, d), matvec=gram, dtype=np.float64), k=top, which="LA", tol=0,
                    v0=v0, return_eigenvectors=False).sum()
    return max(0.0, (trace - float(largest)) / n)


def count_empty(labels: np.ndarray, k: int) -> int:
    """Number of the k clusters that received no point."""
    return int(k - np.unique(labels).size)


def warm_centers(F: np.ndarray, labels: np.ndarray, k: int) -> np.ndarray:
    """Centres to start Lloyd from a partition: the cluster means of F (k × d, F's dtype).

    A cluster that is empty in ``labels`` gets the point farthest from its own cluster's
    mean (first such point not yet used), as scikit-learn relocates empty clusters.
    """
    labels = np.asarray(labels, dtype=np.int64)
    means, sizes = cluster_means(F, labels, k)
    empty = np.flatnonzero(sizes == 0)
    if empty.size:
        own = feature_sq_distances(F, means)[np.arange(len(labels)), labels]
        means[empty] = np.asarray(F[np.argsort(-own, kind="stable")[: empty.size]], dtype=np.float64)
    return means.astype(F.dtype)


KMEANS_ALGORITHMS = ("hamerly", "lloyd", "elkan")


class LowMemoryKMeans(KMeans):
    """scikit-learn's ``KMeans`` whose tolerance scale (tol × the mean feature variance) is
    summed over row chunks (:func:`kktheory.cluster.lloyd.chunked_tolerance`): its own
    ``_tolerance`` calls ``np.var``, whose temporary is as large as X (measured at 1M × 320
    float32: 1.19 GiB beyond X, even with ``copy_x=False``)."""

    def _check_params_vs_input(self, X: np.ndarray) -> None:
        tol, self.tol = self.tol, 0.0
        try:
            super()._check_params_vs_input(X)
        finally:
            self.tol = tol
        self._tol = lloyd.chunked_tolerance(X, tol)


@dataclass
class KMeansPPConfig(ClusteringConfig):
    name: str = "kmeanspp"
    algorithm: str = field(default="lloyd", metadata=EXECUTION)  # lloyd | hamerly | elkan: Lloyd's iterations, computed with or without pruning
    warm_start: bool = False  # a list of m: each smaller m starts from the next larger m's partition


@CLUSTERERS.register("kmeanspp", KMeansPPConfig)
class KMeansPP(Clusterer):
    """k-means++ seeding then Lloyd's iterations, best of ``n_init``."""

    def validate(self) -> None:
        super().validate()
        algorithm = self.algorithm()
        if algorithm not in KMEANS_ALGORITHMS:
            raise ConfigError("clustering.algorithm", algorithm, f"one of {', '.join(KMEANS_ALGORITHMS)}")

    def algorithm(self) -> str:
        """How Lloyd's iterations are computed (a plain ClusteringConfig: the default)."""
        return getattr(self.params, "algorithm", KMeansPPConfig.algorithm)

    def fit(self, F: np.ndarray, k: int, rng: np.random.Generator, low_memory: bool = False) -> ClusterResult:
        """Best of ``n_init`` k-means++ starts, or one start from ``self.start``'s means
        (``low_memory``: :class:`Clusterer`)."""
        p = self.params
        seed = int(rng.integers(2**31 - 1))
        costs: list[float] = []
        seeding = functools.partial(kmeanspp_init, costs=costs)
        init, n_init = (seeding, p.n_init) if self.start is None else (warm_centers(F, self.start, k), 1)
        if self.algorithm() == "hamerly":
            labels, centers, _, n_iter = lloyd.kmeans(F, k, init, n_init, p.max_iter, p.tol, seed,
                                                      copy=not low_memory)
        else:
            km = (LowMemoryKMeans if low_memory else KMeans)(
                n_clusters=k, init=init, n_init=n_init, max_iter=p.max_iter, tol=p.tol,
                algorithm=self.algorithm(), random_state=seed, copy_x=not low_memory).fit(F)
            labels, centers, n_iter = km.labels_, km.cluster_centers_, km.n_iter_
        labels = labels.astype(np.int64)
        return ClusterResult(
            labels, centers,
            {"n_iter": int(n_iter), "n_empty_clusters": count_empty(labels, k),
             "clustering_algorithm": self.algorithm(), "warm_started": self.start is not None,
             "seeding_cost_mean": float(np.mean(costs)) if costs else np.nan,
             "seeding_cost_max": float(np.max(costs)) if costs else np.nan},
        )



@dataclass
class MiniBatchConfig(ClusteringConfig):
    name: str = "minibatch"
    n_init: int = 3  # k-means++ initialisations; the one of lowest inertia is kept
    max_iter: int = 100  # passes over the data at most
    tol: float = 0.0  # scikit-learn's early-stopping tolerance (0 disables it)
    batch_size: int = 1024  # points per mini-batch step


class CachedCdfRandomState(np.random.RandomState):
    """A ``RandomState`` whose weighted draws with replacement reuse the weights' cumulative sum.

    scikit-learn's ``MiniBatchKMeans.fit`` (since 1.7) draws each mini-batch as
    ``random_state.choice(n, batch_size, p=w, replace=True)`` with one weight array ``w``,
    and NumPy forms ``cumsum(w)`` (O(n)) at every call: 96 ms per step at n = 8.1M, where
    the step itself (1024 points against k centres) takes about 2 ms. This class forms it
    once per array ``w`` and draws as NumPy does — ``cdf = cumsum(w) / cdf[-1]`` in float64,
    index ``= searchsorted(cdf, u, 'right')`` with ``u = random_sample(size)`` — so every
    draw, and the random stream after it, is the one NumPy's ``RandomState`` with that seed gives
    (tested). Every other call is NumPy's.
    """

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self._weights: np.ndarray | None = None  # held so that its id is not reused
        self._cdf: np.ndarray | None = None

    def choice(self, a, size=None, replace=True, p=None):  # noqa: D102 — NumPy's signature
        if p is None or not replace or size is None or not isinstance(a, (int, np.integer)) \
                or np.ndim(p) != 1 or len(p) != a:
            return super().choice(a, size=size, replace=replace, p=p)
        if p is not self._weights:
            state = self.get_state()
            super().choice(a, p=p)  # NumPy's own checks of p (and its errors), then the stream put back
            self.set_state(state)
            cdf = np.asarray(p, dtype=np.float64).cumsum()
            self._weights, self._cdf = p, cdf / cdf[-1]
        return self._cdf.searchsorted(self.random_sample(size), side="right")


@CLUSTERERS.register("minibatch", MiniBatchConfig)
class MiniBatch(Clusterer):
    """scikit-learn MiniBatchKMeans with k-means++ initialisation, best of ``n_init``."""

    def validate(self) -> None:
        super().validate()
        if self.params.batch_size < 1:
            raise ConfigError("clustering.batch_size", self.params.batch_size, "an integer ≥ 1")

    def fit(self, F: np.ndarray, k: int, rng: np.random.Generator, low_memory: bool = False) -> ClusterResult:
        p = self.params
        km = MiniBatchKMeans(
            n_clusters=k, init="k-means++", n_init=p.n_init, max_iter=p.max_iter, tol=p.tol,
            batch_size=p.batch_size, random_state=CachedCdfRandomState(int(rng.integers(2**31 - 1))),
        ).fit(F)
        labels = km.labels_.astype(np.int64)
        return ClusterResult(
            labels, km.cluster_centers_,
            {"n_iter": int(km.n_iter_), "n_steps": int(km.n_steps_),
             "n_empty_clusters": count_empty(labels, k), "clustering_algorithm": "minibatch"},
        )


@dataclass
class LocalSearchConfig(ClusteringConfig):
    name: str = "localsearch"
    Z: int = 25  # local-search steps (Lattanzi & Sohler 2019)


def sq_distances(F: np.ndarray, C: np.ndarray) -> np.ndarray:
    """‖F_i − C_j‖² (n × k, float64, clipped at 0 against round-off)."""
    F = np.asarray(F, dtype=np.float64)
    C = np.asarray(C, dtype=np.float64)
    D = np.einsum("ij,ij->i", F, F)[:, None] - 2.0 * F @ C.T + np.einsum("ij,ij->i", C, C)[None, :]
    return np.maximum(D, 0.0)


#: a swap must lower the cost by more than this relative amount (round-off guard)
SWAP_RTOL = 1e-12


def local_search(
    F: np.ndarray, centers: np.ndarray, Z: int, rng: np.random.Generator
) -> tuple[np.ndarray, int]:
    """Z steps of LocalSearch++ from the centre indices ``centers``: (new indices, swaps)."""
    idx = np.array(centers, dtype=np.int64)
    n, k = len(F), len(idx)
    D = sq_distances(F, F[idx])
    rows = np.arange(n)
    swaps = 0
    for _ in range(Z):
        a1 = D.argmin(axis=1)
        d1 = D[rows, a1]
        d2 = np.partition(D, 1, axis=1)[:, 1] if k > 1 else np.full(n, np.inf)
        cost = d1.sum()
        if cost <= 0:
            break
        p = min(int(np.searchsorted(np.cumsum(d1), rng.random() * cost, side="right")), n - 1)
        dp = sq_distances(F, F[p : p + 1])[:, 0]
        keep = np.minimum(dp, d1)
        costs = keep.sum() + np.bincount(a1, weights=np.minimum(dp, d2) - keep, minlength=k)
        q = int(np.argmin(costs))
        if costs[q] < cost * (1.0 - SWAP_RTOL):
            idx[q] = p
            D[:, q] = dp
            swaps += 1
    return idx, swaps


def localsearch_pp(
    F: np.ndarray, k: int, Z: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, int]:
    """k-means++ (plain D² sampling) then Z local-search steps: (seeds, searched, swaps)."""
    _, seeds = kmeans_plusplus(
        np.asarray(F, dtype=np.float64), k, random_state=int(rng.integers(2**31 - 1)),
        n_local_trials=1,
    )
    searched, swaps = local_search(F, seeds, Z, rng)
    return np.asarray(seeds, dtype=np.int64), searched, swaps


@CLUSTERERS.register("localsearch", LocalSearchConfig)
class LocalSearch(Clusterer):
    """LocalSearch++ (Lattanzi & Sohler 2019) then Lloyd, best of ``n_init``."""

    def validate(self) -> None:
        super().validate()
        if self.params.Z < 0:
            raise ConfigError("clustering.Z", self.params.Z, "an integer ≥ 0")

    def fit(self, F: np.ndarray, k: int, rng: np.random.Generator, low_memory: bool = False) -> ClusterResult:
        p = self.params
        F = np.asarray(F, dtype=np.float64)
        n = len(F)
        best: tuple[float, KMeans, dict[str, Any]] | None = None
        for _ in range(p.n_init):
            seeds, searched, swaps = localsearch_pp(F, k, p.Z, rng)
            km = KMeans(
                n_clusters=k, init=F[searched], n_init=1, max_iter=p.max_iter, tol=p.tol,
                algorithm="lloyd", random_state=int(rng.integers(2**31 - 1)),
            ).fit(F)
            if best is None or km.inertia_ < best[0]:
                info = {
                    "n_swaps": swaps,
                    "init_cost": float(sq_distances(F, F[seeds]).min(axis=1).sum() / n),
                    "search_cost": float(sq_distances(F, F[searched]).min(axis=1).sum() / n),
                }
                best = (km.inertia_, km, info)
        assert best is not None
        _, km, info = best
        labels = km.labels_.astype(np.int64)
        info.update(n_iter=int(km.n_iter_), n_empty_clusters=count_empty(labels, k), clustering_algorithm="lloyd")
        return ClusterResult(labels, km.cluster_centers_, info)
