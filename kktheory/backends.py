"""Where a run's arrays live and what computes on them: the backend, chosen once per method.

A :class:`~kktheory.experiment.Method` (data → features → partition → centroids) holds one
backend (``Method.ops``) and never tests its name. A backend does the steps that depend on
where the rows are:

- ``check(method)``: what it refuses before any work (ConfigError);
- ``session(spec)``: a context for the whole run (the run-level checks, a Dask client);
- ``inputs(X, method)``: the training or test rows as it reads them;
- ``fit_kernel(method, X)``: the kernel with its bandwidth rule resolved on X;
- ``fit(method, X, kernel, ms, starts)``: one :class:`~kktheory.sketches.Fitted` per m
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
  rows as the risk computations read them (:class:`~kktheory.risk.Rows`);
  ``features(sketch, X)``; ``distances(centroids, X)`` to lifted centroids;
  ``cluster_means(F, labels, k)``.

``numpy`` (:class:`NumpyBackend`, here) computes in memory, or on rows read from disk in
blocks; ``dask`` (:class:`kktheory.dask_backend.DaskBackend`) on Dask row chunks, imported
only when asked for (the optional extra). Adding a backend is one module with a class
implementing :class:`Backend` and its line in :data:`kktheory.constraints.BACKENDS`.
"""

from __future__ import annotations

import contextlib
import importlib
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, ContextManager, Protocol

import numpy as np

from kktheory.constraints import BACKENDS
from kktheory.geometry import cluster_means
from kktheory.kernels import Kernel, make_kernel
from kktheory.risk import LiftedCentroids, Risk, Rows, as_rows, lifted_many
from kktheory.seeding import component_rng
from kktheory.sketches import Fitted, Sketch

if TYPE_CHECKING:
    from kktheory.config import RunSpec
    from kktheory.experiment import Method


class Backend(Protocol):
    """The steps of a method that depend on where the rows are (module docstring)."""

    name: str
    #: whether lifted risks are exact up to ``risk_exact_limit`` training points (else always estimated)
    exact_lifted_risks: bool
    #: whether a partition's features are a NumPy array in this process (then the row adds
    #: the feature-space diagnostics, :meth:`kktheory.experiment.RowWriter.kept_features`)
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


class NumpyBackend:
    """Rows in memory as NumPy arrays (or on disk, read in row blocks)."""

    name = "numpy"
    exact_lifted_risks = True
    features_in_memory = True
    reads_sources = False  # rows in memory, or DiskRows read in blocks by this process

    def check(self, method: Method) -> None:
        """Nothing beyond the method's own checks."""

    def session(self, spec: RunSpec) -> ContextManager[Any]:
        return contextlib.nullcontext()

    def inputs(self, X: Any, method: Method) -> Any:
        return X

    def fit_kernel(self, method: Method, X: Any) -> Kernel:
        return make_kernel(method.kernel, X, method.dtype)

    def fit(
        self, method: Method, X: Any, kernel: Kernel, ms: list[int], starts: dict[int, np.ndarray] | None = None,
    ) -> Iterator[Fitted]:
        """One fitted sketch and partition per m, and per value of the sketch's list field
        when it is a list (:meth:`kktheory.experiment.Method.fit`).

        The sketches of the list come from the sketch class's ``fit_nested`` (one stream
        ``component_rng(seed, "sketch")``, nested prefixes where the sketch has them); each
        m's features are computed, clustered with the stream ``component_rng(seed,
        "cluster")`` and released before the next m's.
        """
        order = sorted(ms, reverse=True) if method.warm_start else list(ms)
        starts = starts or {}
        nested = method.sketch_class.fit_nested(
            method.sketch, method.context(len(X)), X, kernel, order,
            lambda: component_rng(method.seed, "sketch"),
        )
        previous: np.ndarray | None = None
        t0 = time.perf_counter()
        for m, fitted in nested:
            # a list field's values (Sketch.variants) share the fit: its time is in the first row
            for variant, sketch in fitted.variants():
                time_fit = time.perf_counter() - t0
                t0 = time.perf_counter()
                start = starts.get(m, previous) if method.warm_start else None
                part = sketch.partition(X, method.k, method.clusterer(start), component_rng(method.seed, "cluster"))
                previous = np.asarray(part.labels)
                inner = part.info.pop("time_embedding", 0.0)  # the features (or own embedding) inside partition
                yield Fitted(m, sketch, part, time_fit + inner, time.perf_counter() - t0 - inner, variant)
                del part, sketch  # the next m's features are not computed beside this m's
                t0 = time.perf_counter()
            del fitted

    def lifted_risks(
        self, method: Method, kernel: Kernel, X_train: Any, labelings: list[np.ndarray], X_test: Any,
        make_rng: Callable[[], np.random.Generator],
    ) -> list[Risk]:
        return lifted_many(kernel, X_train, labelings, X_test, method.k, method.risk_settings, make_rng)

    def native_input(self, X: Any, n_features: int | None = None) -> None:
        """None: every input is validated as a NumPy array."""
        return None

    def rows(self, X: Any) -> Rows:
        return as_rows(X)

    def features(self, sketch: Sketch, X: Any) -> Any:
        return sketch.transform(X)

    def distances(self, centroids: LiftedCentroids, X: Any) -> Any:
        return centroids.distances(X, "predict")

    def cluster_means(self, F: Any, labels: np.ndarray, k: int) -> np.ndarray:
        return cluster_means(F, labels, k)[0]
