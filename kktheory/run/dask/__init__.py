"""The Dask backend: the method of a run on row chunks of a Dask array.

``backend=dask`` (config) or ``SketchedKernelKMeans(backend="dask")`` runs the steps of
:class:`kktheory.run.method.Method` with the training points X as a Dask array of row
chunks (one chunk across the columns):

- data (:func:`as_rows_array`): a run draws its data with the rows left in the data set's
  files (``load_data(spec, sources=True)``, :mod:`kktheory.datasets.sources`): the client
  draws the labels, the split and the subsample, and every chunk of X (and of the test
  points) is a task that reads its rows [a, b) in the worker process computing it — a row
  range of the augmented-MNIST ``.npy`` file; for MNIST, LIBSVM and the other table data
  sets, the worker reads and parses the source once per process and selects its rows.
  The task graph holds file names, configs and row bounds; the rows equal, bit for bit,
  those the NumPy backend holds in memory. The files must be at the same path for the
  client and the workers (a shared filesystem). Data sets generated from the run's seed
  (``yin_hypercube``, the rings, ``moons``) are drawn on the client, as their points are
  one sequence of the stream, and arrays given to the estimator are held by the
  caller: their chunks are scattered to the workers (client → workers, not through the
  scheduler's graph);
- kernel: the bandwidth rules need (1/n) Σ_i ‖x_i − x̄‖² only, a chunked reduction;
- sketch: the landmarks are drawn on the client from the run's "sketch" stream, exactly as
  the in-memory sketch draws them, and only their m rows are gathered; the sketch is fitted
  on those rows (K_mm, the mixing matrix S) and the features of every chunk,
  f(x) = map(κ(x, landmarks)), are computed where the chunk lives (``map_blocks``) and
  kept there (``persist``). Supported: the sketches whose map depends on the training set
  only through n and the landmark rows, the sketches that opt into
  :class:`~kktheory.embeddings.landmark_rows.FromLandmarkRows` (with the reason when not:
  :func:`~kktheory.embeddings.landmark_rows.landmark_rows_refusal`), fitted through its
  ``draw_landmark_rows`` / ``fit_on_landmark_rows`` —
  ``nystrom``, ``nystrom_liu`` (Calandriello Alg. 1), ``yin_nystrom``, ``subgaussian`` and
  ``ros`` with ``order=sample_first`` (Yin Alg. 1);
- clustering: dask-ml's ``KMeans`` with k-means|| seeding (Bahmani et al. 2012, "Scalable
  k-means++") and distributed Lloyd iterations on the feature chunks. Only
  ``clustering=kmeanspp`` is accepted (its n_init, max_iter, tol are passed on; tol is
  scaled as scikit-learn does, by the mean variance of the features; dask-ml uses n_init
  for the weighted k-means++ on the oversampled k-means|| candidates). k-means|| is a
  different seeding from k-means++, so labels differ from the in-memory backend run to run;
  the partitions agree in quality (see tests/test_dask_backend.py);
- risk: the lifted subsampling estimator of :mod:`kktheory.evaluation.risk`, always (whatever n), with
  the data read through :class:`~kktheory.run.dask.chunks.DaskRows`: per-cluster sums of κ(x, x) and the cross sums
  κ(Y, X)·Z are chunked reductions, and only the b sampled evaluation points, the rows of
  the sampled pairs (evaluated on the client) and clusters with at most √pairs points are
  gathered. Projected centroids and bound checks need the n × m features in
  one place and are refused.

Nothing gathers an n × m or n × d array: the client holds the landmark rows, the n
training labels, the sampled points and pairs' rows and k × m centroid sums. The training labels (n
integers) are gathered, as the row's ``train_labels`` are stored; the per-chunk steps that
need them afterwards (the feature objective, the risk's cross sums) get their chunk's
slice of the labels or of the membership matrix scattered to the workers (:func:`~kktheory.run.dask.chunks.shipped`), not inside the
task graph, and so are the fitted sketch and the risk's sampled evaluation points, which
every chunk's task reads.

Where it runs: ``dask_scheduler=tcp://host:8786`` connects a ``distributed.Client`` to an
existing cluster for the run (started e.g. with ``dask scheduler`` and ``dask worker
tcp://host:8786``, or by dask-jobqueue on SLURM); null (default) uses the Dask scheduler
active in the process — the local threaded scheduler, or a ``distributed.Client`` the
caller created (the estimator always uses the active one). ``dask_chunk_rows`` sets the
rows per chunk of a data set's rows (read from its files or scattered); a Dask array given
to the estimator keeps its own. Dask, distributed and dask-ml are the
optional extra ``pip install -e ".[dask]"``; they are imported only when this backend runs.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from kktheory.run.dask.chunks import (
    INSTALL,
    DaskRows,
    cluster_means,
    feature_objective,
    from_source,
    is_dask,
    lifted_distances,
    lifted_many,
    mean_sq_dist_to_mean,
    persisted,
    require_dask,
    rows_of,
    scattered,
    shipped,
)
from kktheory.datasets.sources import RowSource
from kktheory.errors import ConfigError
from kktheory.kernels.functions import Kernel, make_kernel
from kktheory.evaluation.risk import Rows
from kktheory.seeding import component_rng, component_seed
from kktheory.embeddings import Fitted, Partition, Sketch
from kktheory.embeddings.landmark_rows import RowPass, landmark_rows_refusal

if TYPE_CHECKING:
    from kktheory.run.config import RunSpec
    from kktheory.run.method import Method

__all__ = [
    "DaskBackend", "DaskRows", "as_rows_array", "check", "check_run", "cluster_means", "features", "fit",
    "fit_kernel", "fit_sketches", "is_dask", "lifted_distances", "lifted_many", "refusal", "rows_of",
    "session", "supported_sketches",
]


# -- validation -------------------------------------------------------------------------
def refusal(cls: type[Sketch], params: Any) -> str | None:
    """None when backend=dask runs the sketch — an embedding whose features need only the
    landmark rows (:func:`~kktheory.embeddings.landmark_rows.landmark_rows_refusal`) — else why not."""
    if not cls.capabilities.embedding:
        return "it partitions by its own method, not by k-means on features computed chunk by chunk"
    return landmark_rows_refusal(cls, params)


def supported_sketches() -> list[str]:
    """Names of the registered sketches the Dask backend runs (with their default params)."""
    from kktheory.embeddings import SKETCHES

    return [name for name in SKETCHES.names()
            if refusal(SKETCHES.get(name).impl, SKETCHES.get(name).config_cls()) is None]


def check(method: "Method") -> None:
    """What backend=dask accepts (ConfigError otherwise); checks that Dask is installed."""
    require_dask()
    try:
        import dask_ml  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        raise ConfigError("backend", "dask", f"numpy, or install {INSTALL}") from None
    if (why := refusal(method.sketch_class, method.sketch)) is not None:
        raise ConfigError(
            "sketch", method.sketch.name,
            f"with backend=dask one of {', '.join(supported_sketches())} (ros with "
            f"order=sample_first), whose features are computed chunk by chunk from the landmark "
            f"rows; here {why}",
        )
    if method.clustering.name != "kmeanspp":
        raise ConfigError(
            "clustering", method.clustering.name,
            "kmeanspp with backend=dask (run as dask-ml KMeans with k-means|| seeding)",
        )
    if getattr(method.clustering, "algorithm", "lloyd") == "elkan":
        raise ConfigError(
            "clustering.algorithm", method.clustering.algorithm,
            "lloyd or hamerly with backend=dask (dask-ml KMeans computes Lloyd's iterations its own way, "
            "without Elkan's bounds)",
        )
    if method.warm_start:
        raise ConfigError(
            "clustering.warm_start", True, "false with backend=dask (dask-ml KMeans takes no warm start)",
        )
    if method.centroids != "lifted":
        raise ConfigError(
            "centroids", method.centroids,
            "lifted with backend=dask (projected risks need the n×m features in one place)",
        )


def check_run(spec: "RunSpec") -> None:
    """Run-level restrictions of backend=dask."""
    if spec.bounds.names:
        raise ConfigError(
            "bounds", list(spec.bounds.names),
            "[] with backend=dask (the bound checks need K or the features in one place)",
        )


@contextlib.contextmanager
def session(address: str | None) -> Iterator[Any]:
    """A distributed.Client connected to ``address`` for the block (None: the active scheduler)."""
    if address is None:
        yield None
        return
    require_dask()
    from distributed import Client

    try:
        client = Client(address, timeout="30s", set_as_default=True)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ConfigError(
            "dask_scheduler", address, f"the address of a running Dask scheduler ({exc})"
        ) from None
    with client:
        yield client


# -- data ----------------------------------------------------------------------------------
def as_rows_array(X: Any, chunk_rows: int) -> Any:
    """X as a Dask array of row chunks (one chunk across the columns), ``chunk_rows`` rows
    per chunk unless X is a Dask array already:

    - a :class:`~kktheory.datasets.sources.RowSource` (a data set's files): one task per
      chunk that reads it on the worker computing it (:func:`~kktheory.run.dask.chunks.from_source`),
      not persisted;
    - a Dask array: one chunk across the columns, persisted;
    - a NumPy array held by the client: its chunks scattered to the workers
      (:func:`~kktheory.run.dask.chunks.scattered`), persisted.
    """
    if isinstance(X, RowSource):
        return from_source(X, chunk_rows)
    X = X.rechunk({1: -1}) if is_dask(X) else scattered(np.asarray(X), chunk_rows)
    return persisted(X.persist())


def fit_kernel(method: "Method", X: Any) -> Kernel:
    """The kernel of the method; bandwidth rules from a chunked spread of X."""
    cfg = method.kernel
    spread = None
    if cfg.name == "gaussian" and cfg.bandwidth != "fixed":
        spread = mean_sq_dist_to_mean(X)
    return make_kernel(cfg, X, method.dtype, spread=spread)


# -- sketch and features ----------------------------------------------------------------
def fit_sketches(method: "Method", X: Any, kernel: Kernel, ms: list[int]) -> Iterator[tuple[int, Sketch]]:
    """(m, sketch fitted on the gathered landmark rows) for each m: the same draws, in the
    same order, as the in-memory ``fit_nested`` of the sketch
    (:meth:`~kktheory.embeddings.landmark_rows.FromLandmarkRows.draw_landmark_rows`), so landmarks are nested."""
    cls = method.sketch_class
    n = X.shape[0]
    ctx = method.context(n)
    probe = cls(method.sketch, ctx)
    used = [probe.m_used(m) for m in ms]
    idx, draw = probe.draw_landmark_rows(n, max(used), component_rng(method.seed, "sketch"))
    X_L = np.asarray(X[idx].compute())
    for m, mu in zip(ms, used):
        sketch = cls(method.sketch, ctx).fit_on_landmark_rows(X_L[:mu], kernel, idx[:mu], draw, n)
        yield m, sketch.finish_fit(row_sum(sketch, X)) if isinstance(sketch, RowPass) else sketch


def _row_statistic(rows: np.ndarray, sketch: Sketch) -> np.ndarray:
    return sketch.row_statistic(rows)


def row_sum(sketch: Sketch, X: Any) -> np.ndarray:
    """Σ over the row chunks of X of ``sketch.row_statistic(chunk)``, each computed where
    the chunk lives and summed by a tree reduction on the workers: the client receives one
    array (rank-restricted Nyström: the ℓ × ℓ matrix RᵀR)."""
    import dask
    import dask.array as da

    (fitted,) = shipped([sketch])
    probe = sketch.row_statistic(np.zeros((0, X.shape[1]), dtype=X.dtype))
    parts = [da.from_delayed(dask.delayed(_row_statistic)(block, fitted), probe.shape, probe.dtype)
             for block in X.to_delayed().ravel()]
    return np.asarray(da.stack(parts).sum(axis=0).compute())


def _transform(rows: np.ndarray, sketch: Sketch) -> np.ndarray:
    return sketch.transform(rows)


def features(sketch: Sketch, X: Any) -> Any:
    """sketch.transform of every row chunk of X, computed where the chunk lives (lazy); the
    fitted sketch (its m landmark rows and m × m maps) reaches the workers once,
    :func:`~kktheory.run.dask.chunks.shipped`, not in every task."""
    width = sketch.transform(np.zeros((1, X.shape[1]), dtype=X.dtype)).shape[1]
    (fitted,) = shipped([sketch])
    return X.map_blocks(_transform, fitted, chunks=(X.chunks[0], (width,)), dtype=np.dtype(sketch.ctx.dtype))


class _BelowWarningFrom(logging.Filter):
    """Drops records below WARNING whose logging call is in the files under ``folder``."""

    def __init__(self, folder: str) -> None:
        super().__init__()
        self.folder = folder

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno >= logging.WARNING or not record.pathname.startswith(self.folder)


@contextlib.contextmanager
def quiet_dask_ml() -> Iterator[None]:
    """dask-ml's INFO lines silenced (WARNING and above pass) while the block runs.

    dask-ml logs "Starting …"/"Finished …" around every step and one line per Lloyd
    iteration: through its ``dask_ml`` loggers, whose level is set to WARNING here, and —
    for its ``_timed`` helper — through the root logger itself (``dask_ml.utils.logger =
    logging.getLogger()``), where a filter drops the records made in dask-ml's files.
    Both are restored afterwards.
    """
    import dask_ml

    named = logging.getLogger("dask_ml")
    level = named.level
    root_filter = _BelowWarningFrom(str(Path(dask_ml.__file__).parent))
    named.setLevel(logging.WARNING)
    logging.getLogger().addFilter(root_filter)
    try:
        yield
    finally:
        logging.getLogger().removeFilter(root_filter)
        named.setLevel(level)


def kmeans_parallel(method: "Method", F: Any) -> Partition:
    """dask-ml KMeans (k-means|| then Lloyd) on the feature chunks; labels gathered (n ints)."""
    from dask_ml.cluster import KMeans

    p = method.clustering
    variance = float(F.astype(np.float64).var(axis=0).mean().compute())
    with quiet_dask_ml():
        km = KMeans(
            n_clusters=method.k, init="k-means||", n_init=p.n_init, max_iter=p.max_iter,
            tol=p.tol * variance, random_state=component_seed(method.seed, "cluster"),
        ).fit(F)
    labels = np.asarray(km.labels_.compute(), dtype=np.int64)
    info = {
        "n_iter": int(km.n_iter_),
        "n_empty_clusters": int(method.k - np.unique(labels).size),
        "feature_objective": feature_objective(F, labels, method.k),
        "clustering_algorithm": "dask-ml k-means||",
    }
    return Partition(labels=labels, features=F, centers=np.asarray(km.cluster_centers_), info=info)


def fit(method: "Method", X: Any, kernel: Kernel, ms: list[int]) -> Iterator[Fitted]:
    """:meth:`Method.fit` on Dask row chunks: one fitted sketch and partition per m."""
    import time

    t0 = time.perf_counter()
    for m, sketch in fit_sketches(method, X, kernel, ms):
        F = persisted(features(sketch, X).persist())
        time_embed = time.perf_counter() - t0
        t0 = time.perf_counter()
        part = kmeans_parallel(method, F)
        yield Fitted(m, sketch, part, time_embed, time.perf_counter() - t0)
        t0 = time.perf_counter()


class DaskBackend:
    """The backend protocol of :mod:`kktheory.run.backends` on Dask row chunks (module docstring)."""

    name = "dask"
    exact_lifted_risks = False  # the subsampling estimator at every n
    features_in_memory = False  # persisted chunks on the workers
    reads_sources = True  # the data set's rows read from its files by the workers

    def check(self, method: "Method") -> None:
        check(method)

    @contextlib.contextmanager
    def session(self, spec: "RunSpec") -> Iterator[Any]:
        """The run-level checks, then a client of ``dask_scheduler`` (the active one if null)."""
        check_run(spec)
        with session(spec.execution.dask_scheduler) as client:
            yield client

    def inputs(self, X: Any, method: "Method") -> Any:
        """:func:`as_rows_array`: a data set's rows read by the workers, other rows scattered."""
        return as_rows_array(X, method.chunk_rows)

    def fit_kernel(self, method: "Method", X: Any) -> Kernel:
        return fit_kernel(method, X)

    def fit(self, method: "Method", X: Any, kernel: Kernel, ms: list[int],
            starts: dict[int, np.ndarray] | None = None) -> Iterator[Fitted]:
        """:func:`fit` (warm starts are refused by :func:`check`)."""
        return fit(method, X, kernel, ms)

    def lifted_risks(self, method: "Method", kernel: Kernel, X_train: Any, labelings: list[np.ndarray],
                     X_test: Any, make_rng: Callable[[], np.random.Generator]) -> list[Any]:
        return lifted_many(kernel, X_train, labelings, X_test, method.k, method.risk_settings, make_rng)

    def native_input(self, X: Any, n_features: int | None = None) -> Any | None:
        """A Dask array checked — 2-D and numeric, ``n_features`` columns when given (a
        fitted model's), then finite (one pass over the chunks, last) — as float64 unless it
        is floating already; None for anything else (validated as NumPy)."""
        if not is_dask(X):
            return None
        if X.ndim != 2 or not np.issubdtype(X.dtype, np.number):
            raise ValueError(f"Expected a 2-D numeric Dask array, got ndim={X.ndim}, dtype={X.dtype}")
        if n_features is not None and X.shape[1] != n_features:
            raise ValueError(f"X has {X.shape[1]} features, but the model is expecting {n_features} features as input.")
        import dask.array as da

        if not bool(da.isfinite(X).all().compute()):
            raise ValueError("Input X contains NaN or infinity.")
        return X if np.issubdtype(X.dtype, np.floating) else X.astype(np.float64)

    # a fitted model on new rows: a Dask array is read chunk by chunk, a NumPy one in memory
    def rows(self, X: Any) -> Rows:
        return rows_of(X)

    def features(self, sketch: Sketch, X: Any) -> Any:
        return features(sketch, X) if is_dask(X) else sketch.transform(X)

    def distances(self, centroids: Any, X: Any) -> Any:
        return lifted_distances(centroids, X) if is_dask(X) else centroids.distances(X, "predict")

    def cluster_means(self, F: Any, labels: np.ndarray, k: int) -> np.ndarray:
        return cluster_means(F, labels, k)
