"""A run without its data, and the backend it computes on.

:class:`Method` (data → features → partition → centroids) is shared by
:func:`kktheory.run.experiment.run` and the estimator
(:class:`kktheory.estimator.SketchedKernelKMeans`). It holds one backend (``Method.ops``,
:class:`Backend`) and never tests its name. A backend does the steps that depend on where
the rows are:

- ``check(method)``: what it refuses before any work (ConfigError);
- ``session(spec)``: a context for the whole run (the run-level checks, a Dask client);
- ``inputs(X, method)``: the training or test rows as it reads them;
- ``fit_kernel(method, X)``: the kernel with its bandwidth rule resolved on X;
- ``fit(method, X, kernel, ms, starts)``: one :class:`~kktheory.embeddings.Fitted` per m
  (nested sketches for a list of m);
- ``lifted_risks(method, kernel, X_train, labelings, X_test, make_rng)``: the lifted
  centroids' risks of every partition, in one pass;
- the attributes ``exact_lifted_risks`` (exact risks up to ``risk_exact_limit``, else
  estimated), ``features_in_memory`` (features are a NumPy array here) and
  ``reads_sources`` (the run's data are drawn with their rows left in the data set's
  files, :class:`~kktheory.datasets.sources.RowSource`, and ``inputs`` reads them where
  they are computed);
- for the estimator, whatever array it is given: ``native_input(X, n_features)``, X
  checked (with ``n_features`` columns, when given) if it is of the backend's own kind (a
  Dask array), None otherwise (then it is validated as a NumPy array); and, for a fitted
  model on new rows (predict, transform, score and cluster_centers_): ``rows(X)``, the
  rows as the risk computations read them (:class:`~kktheory.evaluation.risk.Rows`);
  ``features(sketch, X)``; ``distances(centroids, X)`` to lifted centroids;
  ``cluster_means(F, labels, k)``.

The backends are named in :data:`kktheory.constraints.BACKENDS` as ``module:Class`` and
imported when a run chooses one (``numpy``: :class:`kktheory.run.backends.NumpyBackend`;
``dask``: :class:`kktheory.run.dask.DaskBackend`, the optional extra).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ContextManager, Protocol

import numpy as np

from kktheory.cluster.clusterers import CLUSTERERS, Clusterer, ClusteringConfig
from kktheory.constraints import BACKENDS
from kktheory.embeddings import SKETCHES, Fitted, Sketch, SketchContext
from kktheory.errors import ConfigError
from kktheory.evaluation.risk import LiftedCentroids, Risk, RiskSettings, Rows, projected_risk
from kktheory.kernels.functions import Kernel, KernelConfig, validate_kernel
from kktheory.run.config import RunSpec, check_centroids
from kktheory.seeding import component_rng


@dataclass(frozen=True)
class Method:
    """A run without its data: how training points become a partition, and how it is scored.

    Steps (each a method, shared by :func:`run` and the estimator): :meth:`check` (before
    any work), :meth:`fit_kernel` (bandwidth rules on the training points), :meth:`fit`
    (sketches for a list of m — nested, one draw of randomness — their features and the
    partition of the training points) and :meth:`risk` (lifted or projected centroids).
    Random streams: ``component_rng(seed, "sketch" | "cluster" | "risk")``.
    """

    kernel: KernelConfig
    sketch: Any  # the sketch's config dataclass
    clustering: ClusteringConfig
    k: int
    gamma: float
    seed: int
    budget: int  # bytes
    risk_settings: RiskSettings
    dtype: str = "float64"
    centroids: str = "lifted"
    backend: str = "numpy"
    chunk_rows: int = 5000  # backend=dask: rows per chunk of arrays given as NumPy

    @classmethod
    def of(cls, spec: RunSpec) -> Method:
        """The method of a validated run."""
        return cls(
            kernel=spec.kernel, sketch=spec.sketch, clustering=spec.clustering, k=spec.k,
            gamma=spec.gamma, seed=spec.seed, budget=spec.budget, risk_settings=spec.risk,
            dtype=spec.dtype, centroids=spec.centroids, backend=spec.execution.backend,
            chunk_rows=spec.execution.dask_chunk_rows,
        )

    @cached_property
    def ops(self) -> Backend:
        """The backend's steps (:mod:`kktheory.run.backends`), chosen once from ``backend``."""
        return backend_of(self.backend)

    @property
    def sketch_class(self) -> type[Sketch]:
        return SKETCHES.get(self.sketch.name).impl

    def context(self, n: int) -> SketchContext:
        return SketchContext(
            n=n, k=self.k, gamma=self.gamma, budget=self.budget, dtype=self.dtype,
            kernel=self.kernel.name, centroids=self.centroids,
        )

    def clusterer(self, start: np.ndarray | None = None) -> Clusterer:
        """The configured clusterer (warm-started from the labels ``start`` if given)."""
        return CLUSTERERS.get(self.clustering.name).impl(self.clustering, start)

    def check(self, n: int, ms: list[int], variants: bool = False) -> None:
        """Method-level validation before any work (ConfigError / MemoryBudgetError);
        ``variants``: the sketch's list field is a list (rows per value)."""
        validate_kernel(self.kernel)
        check_centroids(self.centroids, self.sketch.name)
        self.clusterer().validate()
        if self.warm_start and not self.sketch_class.capabilities.runs_clusterer:
            raise ConfigError(
                "clustering.warm_start", True,
                f"false with sketch={self.sketch.name} (its partition does not run the clusterer)",
            )
        if self.warm_start and variants:
            raise ConfigError(
                "clustering.warm_start", True,
                f"false with a list of sketch.{self.sketch_class.list_field} (warm starts follow a list of m)",
            )
        probe = self.sketch_class(self.sketch, self.context(n))
        for m in ms:
            probe.validate(m)
        self.ops.check(self)

    def inputs(self, X: Any) -> Any:
        """X as the backend reads it (NumPy as given; a Dask array of row chunks)."""
        return self.ops.inputs(X, self)

    def fit_kernel(self, X: Any) -> Kernel:
        """The kernel with its bandwidth rule resolved on the training points."""
        return self.ops.fit_kernel(self, X)

    @property
    def warm_start(self) -> bool:
        """Whether the m of a list are clustered from the largest down, warm-started."""
        return bool(getattr(self.clustering, "warm_start", False))

    def fit(
        self, X: Any, kernel: Kernel, ms: list[int], starts: dict[int, np.ndarray] | None = None,
    ) -> Iterator[Fitted]:
        """Yield one fitted sketch and partition per m (nested sketches for a list of m).

        With ``clustering.warm_start`` the m are taken from the largest down and each
        partition after the first starts from the previous one's labels; ``starts[m]``
        (labels of the next larger m computed earlier) overrides that for m. ``time_embed``
        counts the sketch's fit (done lazily by ``fit_nested`` when the next m is asked
        for) and the training features, or the embedding a comparator computes inside its
        partition (``info["time_embedding"]``, spectral clustering); ``time_cluster`` the rest
        of the partition.
        """
        yield from self.ops.fit(self, X, kernel, ms, starts)

    def risks(
        self, kernel: Kernel, X_train: Any, X_test: Any, labelings: list[np.ndarray],
        fits: list[Fitted | None],
    ) -> list[Risk]:
        """Train risk, objective and test risk of each partition under the centroid rule.

        Lifted: exact up to ``risk_exact_limit`` training points, else (and always with
        backend=dask) the subsampling estimator of :mod:`kktheory.evaluation.risk`; all partitions in
        one pass over the kernel blocks (:func:`kktheory.evaluation.risk.lifted_many`), each with the
        stream ``component_rng(seed, "risk")``, so a partition's risk does not depend on
        the others evaluated with it. Projected: exact, from each fit's sketch and features.
        """
        if self.centroids == "projected":
            return [self._projected(X_train, X_test, fit) for fit in fits]
        return self.ops.lifted_risks(self, kernel, X_train, labelings, X_test,
                                     lambda: component_rng(self.seed, "risk"))

    def _projected(self, X_train: Any, X_test: Any, fit: Fitted | None) -> Risk:
        if fit is None:
            raise ValueError("projected risks need the fitted sketch")
        sketch, part = fit.sketch, fit.partition
        F_train = part.features if part.features is not None else sketch.transform(X_train)
        return projected_risk(
            F_train, sketch.residual(X_train), np.asarray(part.labels),
            sketch.transform(X_test), sketch.residual(X_test), self.k,
        )


class Backend(Protocol):
    """The steps of a method that depend on where the rows are (module docstring)."""

    name: str
    #: whether lifted risks are exact up to ``risk_exact_limit`` training points (else always estimated)
    exact_lifted_risks: bool
    #: whether a partition's features are a NumPy array in this process (then the row adds
    #: the feature-space diagnostics, :meth:`kktheory.run.experiment.RowWriter.kept_features`)
    features_in_memory: bool
    #: whether ``inputs`` takes the rows as sources read where they are computed (module docstring)
    reads_sources: bool

    def check(self, method: Method) -> None: ...

    def session(self, spec: RunSpec) -> ContextManager[Any]: ...

    def inputs(self, X: Any, method: Method) -> Any: ...

    def fit_kernel(self, method: Method, X: Any) -> Kernel: ...

    def fit(self, method: Method, X: Any, kernel: Kernel, ms: list[int],
            starts: dict[int, np.ndarray] | None = None) -> Iterator[Fitted]: ...

    def lifted_risks(self, method: Method, kernel: Kernel, X_train: Any, labelings: list[np.ndarray],
                     X_test: Any, make_rng: Callable[[], np.random.Generator]) -> list[Risk]: ...

    def native_input(self, X: Any, n_features: int | None = None) -> Any | None: ...

    def rows(self, X: Any) -> Rows: ...

    def features(self, sketch: Sketch, X: Any) -> Any: ...

    def distances(self, centroids: LiftedCentroids, X: Any) -> Any: ...

    def cluster_means(self, F: Any, labels: np.ndarray, k: int) -> np.ndarray: ...


def backend_class(name: str) -> type[Backend]:
    """The class of the backend called ``name`` (one of :data:`BACKENDS`)."""
    module, cls = BACKENDS[name].split(":")
    return getattr(importlib.import_module(module), cls)


def backend_of(name: str) -> Backend:
    """The backend called ``name``."""
    return backend_class(name)()
