"""The NumPy backend (:class:`NumpyBackend`): rows in memory as NumPy arrays, or on disk
read in row blocks by this process. What a backend does is :class:`kktheory.run.method.Backend`'s
docstring; adding a backend is one module with a class implementing it and its line in
:data:`kktheory.constraints.BACKENDS`.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any, ContextManager

import numpy as np

from kktheory.kernels.geometry import cluster_means
from kktheory.kernels.functions import Kernel, make_kernel
from kktheory.evaluation.risk import LiftedCentroids, Risk, Rows, as_rows, lifted_many
from kktheory.seeding import component_rng
from kktheory.embeddings import Fitted, Sketch

from kktheory.run.config import RunSpec
from kktheory.run.method import Method


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
        when it is a list (:meth:`kktheory.run.method.Method.fit`).

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
