"""The embedding interface shared by every sketch.

A sketch is constructed from its config dataclass and the run context, fitted on the
training points with ``fit(X, kernel, m, rng)``, and maps points to features with
``transform(X)``. k-means on those features gives the partition (``partition``; the
comparator methods that are not embeddings override it). Risk and bounds never depend on
which sketch produced a partition; projection embeddings additionally expose
``residual(X)`` = ‖Π_m^⊥ φ(x)‖² so that projected centroids can be scored.

A list of m values runs nested sketches: :meth:`Sketch.fit_nested` yields one fitted
sketch per m from a single draw of randomness (prefixes of one landmark permutation),
so that the sketch for m alone equals the sketch for m inside the list.

:meth:`Sketch.arrays` hands back the sketch's randomness, which the run stores in its
``.npz`` so that the features can be recomputed from the stored arrays and the data:
arrays of size O(n + m²) as they are (landmarks, signs, sampled coordinates, sparse
entries, names prefixed ``sketch_``), dense random matrices as the generator state they
were drawn from (:class:`kktheory.seeding.NormalDraw`). Each sketch's docstring lists
what it stores; the arrays of an m inside a list equal those of the m alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

import numpy as np
from omegaconf import MISSING

from kktheory.cluster.clusterers import Clusterer, ClusterResult, kmeans_lower_bound
from kktheory.kernels.functions import Kernel
from kktheory.plugins import PluginRegistry
from kktheory.kernels.geometry import cluster_means, feature_sq_distances


@dataclass
class SketchConfig:
    """Base of every sketch's config dataclass (config group ``sketch``)."""

    name: str = MISSING


@dataclass(frozen=True)
class SketchContext:
    """Run-level quantities a sketch may need besides its own config."""

    n: int
    k: int
    gamma: float
    budget: int  # memory budget in bytes
    dtype: str = "float64"
    kernel: str | None = None  # the kernel's name, for checks in validate(m) (None: unknown)
    centroids: str = "lifted"  # lifted | projected: projected centroids need transform/residual


@dataclass
class Partition:
    """What a method hands to risk evaluation: training labels and optional extras."""

    labels: np.ndarray
    features: np.ndarray | None = None
    centers: np.ndarray | None = None
    info: dict[str, Any] = field(default_factory=dict)
    on_features: bool = False  # labels are k-means on ``features`` (:func:`feature_diagnostics`)


class NestedFit(NamedTuple):
    """What fitting the sketches of a list of m needs (:meth:`Sketch.fit_nested`): the
    sketch's config, the run's context, the training rows, the kernel, the m (in the order
    they are yielded) and a maker of fresh copies of the sketch's random stream."""

    params: Any
    ctx: SketchContext
    X: Any
    kernel: Kernel
    ms: Sequence[int]
    make_rng: Callable[[], np.random.Generator]


@dataclass
class Fitted:
    """One m of a method fitted on training points: the sketch, the partition it gave and
    their times (``time_embed``: the sketch's fit and the training features; ``time_cluster``:
    the rest of the partition)."""

    m: int
    sketch: Sketch
    partition: Partition
    time_embed: float
    time_cluster: float
    #: the value of the sketch's list field this fit stands for (:meth:`Sketch.variants`),
    #: None when the field is not a list
    variant: Any = None


@dataclass(frozen=True)
class Capabilities:
    """What a method of the ``sketch=`` axis does, declared once per class and read by the
    run's checks before any work (never found by testing which methods a class overrides).

    - ``projection``: the features are coordinates of an orthogonal projection onto
      H_m ⊂ RKHS (Nyström family, KPCA): ``residual`` is defined and centroids may be
      projected;
    - ``embedding``: the partition is the configured clusterer on ``transform(X)`` (the base
      :meth:`Sketch.partition`); False for the comparators, whose partition is an algorithm
      of their own. What the run reports of the features follows the partition itself
      (``Partition.on_features``); this answer is for refusals before any work (a backend
      that can only map features chunk by chunk);
    - ``runs_clusterer``: ``partition`` runs the configured clusterer (so
      ``clustering.warm_start`` applies);
    - ``rank_restricted``: the training features F are a factorisation K ≈ FFᵀ of a target
      rank s (KPCA, rank-restricted Nyström, the power method, one-pass): the run then
      reports the kernel approximation error ‖K − FFᵀ‖_F/‖K‖_F (``approx_fro_rel``);
    - ``rows_in_blocks``: fitting and transforming read the training rows only in row
      blocks and by index (``X[a:b]``, ``X[idx]``, ``len(X)``), so that they may stay on disk
      (:class:`kktheory.datasets.disk_rows.DiskRows`, :func:`kktheory.run.config.check_disk_rows`).

    Whether a sketch is fitted from its landmark rows alone is a protocol it opts into
    (:mod:`kktheory.embeddings.landmark_rows`), not a flag.
    """

    projection: bool = False
    embedding: bool = True
    runs_clusterer: bool = True
    rank_restricted: bool = False
    rows_in_blocks: bool = False


class Sketch:
    """Base class of embeddings. Subclasses implement ``fit`` and ``transform``."""

    #: what the method does, read by the run's checks before any work (:class:`Capabilities`)
    capabilities: ClassVar[Capabilities] = Capabilities()
    #: a parameter that may be given as a list whose values all come from one fit, one row
    #: each (:meth:`variants`; rank-restricted Nyström's ``s``), or None
    list_field: ClassVar[str | None] = None

    def __init__(self, params: Any, ctx: SketchContext) -> None:
        self.params = params
        self.ctx = ctx
        #: indices of training points the sketch sampled (stored with the run), if any
        self.landmarks_: np.ndarray | None = None
        #: extra row columns (e.g. clipped eigenvalues, failures)
        self.info_: dict[str, Any] = {}

    # -- the embedding --------------------------------------------------------------
    def fit(self, X: np.ndarray, kernel: Kernel, m: int, rng: np.random.Generator) -> "Sketch":
        raise NotImplementedError

    def transform(self, X: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def variants(self) -> Iterator[tuple[Any, "Sketch"]]:
        """(value, fitted sketch) for each value of :attr:`list_field` when the run gives it
        as a list, from this one fit; else ``(None, self)``."""
        yield None, self

    def residual(self, X: np.ndarray) -> np.ndarray:
        """‖Π_m^⊥ φ(x)‖² = κ(x, x) − ‖φ̃(x)‖² (projection embeddings only)."""
        raise NotImplementedError(f"{type(self).__name__} is not a projection embedding")

    def arrays(self) -> dict[str, np.ndarray]:
        """The randomness of the fitted sketch, as the run stores it (module docstring):
        here ``landmarks`` (the indices of the sampled training points) when there are any;
        sketches with more randomness add theirs under names prefixed ``sketch_``."""
        return {} if self.landmarks_ is None else {"landmarks": np.asarray(self.landmarks_)}

    def on_training_rows(self, X: Any) -> bool:
        """True when X holds the rows the sketch was fitted on: the same object, or an array
        equal to them (a copy; the data of an unpickled estimator), so that a sketch's
        cached training features serve whichever array holds those rows (O(nd) to compare,
        against the O(n·m·d) of transforming them again)."""
        fitted = getattr(self, "X_fit_", None)
        if X is fitted:
            return True
        return (isinstance(X, np.ndarray) and isinstance(fitted, np.ndarray) and X.shape == fitted.shape
                and X.dtype == fitted.dtype and np.array_equal(X, fitted))

    def jl_scale(self) -> float | None:
        """E‖R v‖²/‖v‖² for sketches of the form k_i ↦ R·k_i (Yin's family, Gaussian
        projection), used by the JL distortion check; None otherwise."""
        return None

    def m_used(self, m: int) -> int:
        """The sketch size actually used for a requested m (most sketches: m itself)."""
        return m

    #: why the sketch is not fitted from its landmark rows alone (a sketch that is opts into
    #: :class:`~kktheory.embeddings.landmark_rows.FromLandmarkRows` instead)
    not_from_landmark_rows: ClassVar[str] = "it is not fitted from landmark rows alone"

    def validate(self, m: int) -> None:
        """Check the sketch's parameters against the run (raise ConfigError) and the memory
        its fit will need (``memory.require``, MemoryBudgetError). Called by
        :func:`kktheory.run.config.build_spec` for every m of the run, before any work."""

    # -- nested sketches for a list of m ------------------------------------------------
    @classmethod
    def fit_nested(
        cls,
        params: Any,
        ctx: SketchContext,
        X: np.ndarray,
        kernel: Kernel,
        ms: Sequence[int],
        make_rng: Callable[[], np.random.Generator],
    ) -> Iterator[tuple[int, Sketch]]:
        """Yield (m, fitted sketch) for each m of ``ms``, in order (:meth:`nested`)."""
        return cls.nested(NestedFit(params, ctx, X, kernel, ms, make_rng))

    @classmethod
    def nested(cls, job: NestedFit) -> Iterator[tuple[int, Sketch]]:
        """The sketches of ``job.ms``, each from a fresh copy of the same stream.

        Sketches whose randomness is a prefix-consistent draw (a permutation, rows of a
        matrix drawn in order) are thus nested; subclasses override this to share work
        across m (e.g. one K_{n,m_max}).
        """
        for m in job.ms:
            yield m, cls(job.params, job.ctx).fit(job.X, job.kernel, m, job.make_rng())

    # -- the partition -----------------------------------------------------------------
    def partition(self, X: np.ndarray, k: int, clusterer: Clusterer, rng: np.random.Generator) -> Partition:
        """k-means on the features of the training points (``transform(X)``, its seconds in
        ``info["time_embedding"]``, which the runner counts as embedding); the partition is
        marked ``on_features`` (its diagnostics: :func:`feature_diagnostics`)."""
        t0 = time.perf_counter()
        features = self.transform(X)
        seconds = time.perf_counter() - t0
        # features whose copy would not fit beside them, or that live in a larger buffer (a
        # list of s, NystromRR.variants): no full-size temporaries in k-means (Clusterer)
        low_memory = 2 * features.nbytes > self.ctx.budget or in_larger_buffer(features)
        res: ClusterResult = clusterer.fit(features, k, rng, low_memory=low_memory)
        return Partition(labels=res.labels, features=features, centers=res.centers,
                         info={**res.info, "time_embedding": seconds}, on_features=True)


def in_larger_buffer(a: np.ndarray) -> bool:
    """Whether ``a`` is not C-contiguous or lives in a larger array's memory (a prefix of
    the features of a list of s): k-means then works on it in place rather than copy it."""
    base = a
    while isinstance(base.base, np.ndarray):
        base = base.base
    return not a.flags.c_contiguous or base.nbytes > a.nbytes


def feature_diagnostics(part: Partition, k: int) -> dict[str, float]:
    """What a run reports of a partition made by k-means on the features F (``part.on_features``):

    - ``feature_objective``: the k-means objective of the partition in the feature space,
      beside the RKHS ``objective`` (they differ when the embedding does not preserve RKHS
      distances, e.g. ``kernel_columns``), O(nkd);
    - with a k-means++ clusterer (``seeding_cost_mean`` in ``part.info``) also
      ``feature_lower_bound``, the spectral lower bound of that objective
      (:func:`kktheory.cluster.clusterers.kmeans_lower_bound`), against which the seeding's cost is
      compared, O(n·d²).

    Evaluations of the partition, not steps of clustering: the runner computes them as it
    evaluates a fitted m (``time_evaluate``); fitting the estimator does not.
    """
    if not part.on_features or part.features is None:
        return {}
    out = {"feature_objective": feature_objective(part.features, part.labels, k)}
    if "seeding_cost_mean" in part.info:  # the k-means++ guarantee is relative to OPT ≥ this bound
        out["feature_lower_bound"] = kmeans_lower_bound(part.features, k)
    return out


def feature_objective(F: np.ndarray, labels: np.ndarray, k: int) -> float:
    """(1/n) Σ_i ‖F_i − μ_{l_i}‖² with μ_j the mean of the rows of F in cluster j.

    The k-means objective of a partition in feature space, accumulated in float64 over row
    chunks (memory one chunk plus k × d; no float64 copy of F), O(nkd) time.
    """
    labels = np.asarray(labels, dtype=np.int64)
    means, _ = cluster_means(F, labels, k)
    return float(feature_sq_distances(F, means)[np.arange(len(labels)), labels].sum() / len(labels))


#: the ``sketch=`` axis of a sweep: the embeddings of this folder and the comparators of
#: :mod:`kktheory.comparators`, which register here and hold an embedding where they use one,
#: and other packages' sketches and comparators (:mod:`kktheory.plugins`)
SKETCHES: PluginRegistry[type[Sketch]] = PluginRegistry(
    "sketch", ("kktheory.embeddings", "kktheory.comparators"), ("kktheory.sketches", "kktheory.comparators"))
