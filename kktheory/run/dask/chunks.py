"""Chunked data access of the Dask backend: reductions over row chunks of a Dask array and
:class:`DaskRows`, the :class:`kktheory.evaluation.risk.Rows` the risk estimators read.

Every function here runs one task per row chunk and brings back only small results: sums
over chunks, k × r cluster sums, and the rows of sampled points (the evaluation points,
the rows of sampled pairs). Where the rows come from: :func:`from_source` (tasks that read a
data set's files on the workers) or :func:`scattered` (an array the client holds); what
else of the client's the tasks read (label slices, membership rows, the sampled points) reaches them through :func:`shipped`, so that no graph carries an array of
size n or a copy per task. Dask is imported inside the
functions (optional extra).
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from kktheory.kernels import geometry
from kktheory.evaluation import risk
from kktheory.datasets.sources import RowSource
from kktheory.errors import ConfigError
from kktheory.kernels.geometry import sq_dist_to_centroids
from kktheory.kernels.functions import Kernel
from kktheory.evaluation.risk import Risk, RiskSettings, Rows

INSTALL = 'the optional extra: pip install -e ".[dask]" (dask[array,distributed], dask-ml)'


def require_dask() -> Any:
    """dask.array, or a ConfigError saying how to install it."""
    try:
        import dask.array as da
    except ImportError:
        raise ConfigError("backend", "dask", f"numpy, or install {INSTALL}") from None
    return da


def is_dask(X: Any) -> bool:
    """True for a Dask collection (checked without importing Dask)."""
    return hasattr(X, "__dask_graph__") and callable(X.__dask_graph__)


def _blocks(X: Any) -> tuple[list[Any], np.ndarray]:
    """(one delayed object per row chunk, row offsets of the chunks: len = chunks + 1)."""
    blocks = list(X.to_delayed().ravel())
    return blocks, np.concatenate([[0], np.cumsum(X.chunks[0])]).astype(np.int64)


def _compute(*values: Any) -> Any:
    import dask

    return dask.compute(*values)


def active_client() -> Any:
    """The distributed.Client computations go to, or None (the local scheduler)."""
    try:
        from distributed import default_client
    except ImportError:
        return None
    try:
        return default_client()
    except ValueError:
        return None


def persisted(X: Any) -> Any:
    """Block until a persisted collection is computed (distributed persists in the background;
    without a client, persist already computed synchronously)."""
    if active_client() is not None:
        from distributed import wait

        wait(X)
    return X


def shipped(blocks: list[Any]) -> list[Any]:
    """Arrays the client holds (slices of the training labels, of the membership matrix, the
    sampled points; a fitted sketch) as the chunk tasks take them: scattered to the workers
    when a distributed client is active — sent to them directly, the graph holding
    references — else as they are. Keys are fresh (``hash=False``): a scatter of equal data under the key of futures being
    released (e.g. the same label slices for two steps) would find it lost."""
    client = active_client()
    return blocks if client is None or not blocks else client.scatter(blocks, hash=False)


def _row_ranges(n: int, chunk_rows: int) -> list[tuple[int, int]]:
    step = max(1, min(chunk_rows, n))
    return [(a, min(a + step, n)) for a in range(0, n, step)]


def _read_rows(source: RowSource, start: int, stop: int) -> np.ndarray:
    """The task of one chunk: rows [start, stop) of the source, read by the process running it."""
    return source.rows(start, stop)


def from_source(source: RowSource, chunk_rows: int) -> Any:
    """The rows of a :class:`~kktheory.datasets.sources.RowSource` as a Dask array of row
    chunks: one task per chunk, ``source.rows(a, b)``, which reads the chunk from the data
    set's files in the worker process that runs it. The graph holds the pickled source (its
    file names and parameters, a few hundred bytes) and the two bounds per chunk — nothing
    of size n. Not persisted: every pass over X reads its chunks again (memory: the chunks
    being computed; the operating system's page cache keeps the file)."""
    da = require_dask()
    from dask.base import tokenize

    n, d = source.shape
    ranges = _row_ranges(n, chunk_rows)
    name = "rows-" + tokenize(pickle.dumps(source), chunk_rows)
    graph = {(name, i, 0): (_read_rows, source, a, b) for i, (a, b) in enumerate(ranges)}
    chunks = (tuple(b - a for a, b in ranges), (d,))
    return da.Array(graph, name, chunks, meta=np.empty((0, d), dtype=source.dtype))


def scattered(X: np.ndarray, chunk_rows: int) -> Any:
    """A NumPy array held by the client as a Dask array of row chunks: with a distributed
    client the chunks are scattered to the workers (sent to them directly, outside the
    task graph, which holds only references); with the local scheduler ``from_array``."""
    da = require_dask()
    ranges = _row_ranges(len(X), chunk_rows)
    if active_client() is None or not ranges:
        return da.from_array(X, chunks=(ranges[0][1] if ranges else 1, X.shape[1]))
    return da.concatenate([da.from_delayed(f, shape=(b - a, X.shape[1]), dtype=X.dtype)
                           for f, (a, b) in zip(shipped([X[a:b] for a, b in ranges]), ranges)])


def mean_sq_dist_to_mean(X: Any) -> float:
    """(1/n) Σ_i ‖x_i − x̄‖² of a Dask array, float64: two passes over the chunks (the mean,
    then the centred squares), each a separate computation, so that rows read from files
    are released after each chunk's partial sums."""
    X = X.astype(np.float64)
    mean = X.mean(axis=0).compute()
    centred = X - mean
    return float((centred * centred).sum().compute()) / X.shape[0]


def _cluster_sums(Fb: np.ndarray, lb: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    sums = np.zeros((k, Fb.shape[1]))
    np.add.at(sums, lb, np.asarray(Fb, dtype=np.float64))
    return sums, np.bincount(lb, minlength=k).astype(np.float64)


def _sq_dist_sum(Fb: np.ndarray, lb: np.ndarray, means: np.ndarray) -> float:
    diff = np.asarray(Fb, dtype=np.float64) - means[lb]
    return float(np.einsum("ij,ij->", diff, diff))


def _label_blocks(labels: np.ndarray, off: np.ndarray) -> list[Any]:
    """The labels of each row chunk (chunk offsets ``off``), :func:`shipped`."""
    return shipped([labels[off[i] : off[i + 1]] for i in range(len(off) - 1)])


def cluster_means(F: Any, labels: np.ndarray, k: int) -> np.ndarray:
    """k × r means of the feature rows over each cluster (0 for empty clusters), float64;
    chunk by chunk for a Dask array."""
    if not is_dask(F):  # in memory: the one implementation for NumPy features
        return geometry.cluster_means(F, labels, k)[0]
    from dask import delayed

    blocks, off = _blocks(F)
    parts = _compute(*[delayed(_cluster_sums)(b, lb, k) for b, lb in zip(blocks, _label_blocks(labels, off))])
    sums = sum(p[0] for p in parts)
    counts = sum(p[1] for p in parts)
    return sums / np.maximum(counts, 1.0)[:, None]


def feature_objective(F: Any, labels: np.ndarray, k: int) -> float:
    """(1/n) Σ_i ‖F_i − μ_{l_i}‖² (cf. :func:`kktheory.embeddings.base.feature_objective`)."""
    from dask import delayed

    means = cluster_means(F, labels, k)
    blocks, off = _blocks(F)
    parts = _compute(*[delayed(_sq_dist_sum)(b, lb, means) for b, lb in zip(blocks, _label_blocks(labels, off))])
    return float(sum(parts)) / F.shape[0]


def _cross_block(kernel: Kernel, Y: np.ndarray, Xb: np.ndarray, Zb: np.ndarray, budget: int) -> np.ndarray:
    return Rows(Xb).cross_sums(kernel, np.asarray(Y), Zb, budget, "risk (chunk)")


def _diag_block(kernel: Kernel, Xb: np.ndarray, local: np.ndarray | None) -> float:
    return float(kernel.diag(Xb if local is None else Xb[local]).sum())


class DaskRows(Rows):
    """:class:`kktheory.evaluation.risk.Rows` on a Dask array of row chunks (nothing n-sized gathered)."""

    def __init__(self, X: Any) -> None:
        self.X = X if len(X.chunks[1]) == 1 else X.rechunk({1: -1})
        self._blocks, self._off = _blocks(self.X)

    def __len__(self) -> int:
        return int(self.X.shape[0])

    def _chunk_of(self, idx: np.ndarray) -> np.ndarray:
        return np.searchsorted(self._off, idx, side="right") - 1

    def take(self, idx: np.ndarray | None) -> np.ndarray:
        """The rows ``idx`` (None: all — used only for at most ``risk_points`` points)."""
        return np.asarray((self.X if idx is None else self.X[np.asarray(idx)]).compute())

    def diag_sum(self, kernel: Kernel, idx: np.ndarray | None = None) -> float:
        """Σ κ(x_i, x_i) over the rows ``idx`` (None: all), one task per chunk holding some;
        the Gaussian kernel's diagonal is 1 and reads nothing."""
        from dask import delayed

        if kernel.name == "gaussian":  # κ(x, x) = 1: nothing to read (Kernel.diag)
            return float(len(self) if idx is None else len(idx))
        if idx is None:
            parts = [delayed(_diag_block)(kernel, b, None) for b in self._blocks]
        else:
            idx = np.asarray(idx)
            chunk = self._chunk_of(idx)
            parts = [
                delayed(_diag_block)(kernel, self._blocks[c], idx[chunk == c] - self._off[c])
                for c in np.unique(chunk)
            ]
        return float(sum(_compute(*parts)))

    def _z_blocks(self, Z: np.ndarray) -> list[Any]:
        """The rows of Z (n × k, the client's) of each chunk, :func:`shipped`."""
        return shipped([Z[self._off[i] : self._off[i + 1]] for i in range(len(self._blocks))])

    def cross_sums(self, kernel: Kernel, Y: Any, Z: np.ndarray, budget: int, desc: str) -> Any:
        """κ(Y, X)·Z: one task per (chunk of Y, chunk of X), summed over the chunks of X.

        Y NumPy → NumPy result; Y a Dask array → a lazy Dask array (len(Y) × k).
        """
        from dask import delayed

        da = require_dask()
        zb = self._z_blocks(Z)
        ys = list(Y.to_delayed().ravel()) if is_dask(Y) else shipped([np.asarray(Y)])  # one copy for all tasks
        rows = Y.chunks[0] if is_dask(Y) else (len(Y),)
        out = []
        for y, r in zip(ys, rows):
            total = delayed(sum)([delayed(_cross_block)(kernel, y, b, z, budget) for b, z in zip(self._blocks, zb)])
            out.append(da.from_delayed(total, shape=(r, Z.shape[1]), dtype=np.float64))
        S = da.concatenate(out, axis=0) if len(out) > 1 else out[0]
        return S if is_dask(Y) else np.asarray(S.compute())

    def paired(self, kernel: Kernel, ia: np.ndarray, ib: np.ndarray, budget: int) -> np.ndarray:
        """κ(x_ia[t], x_ib[t]): the distinct sampled rows gathered in one pass over the chunks
        (each chunk's task selects the ones it holds: at most 2·len(ia) rows reach the
        client, not n), then every pair evaluated in memory. Grouping the pairs by pair of
        chunks instead made one task per pair of chunks, each reading both: at 8.1M rows in
        162 chunks read from disk, tens of thousands of chunk reads."""
        ia, ib = np.asarray(ia), np.asarray(ib)
        idx, inverse = np.unique(np.concatenate([ia, ib]), return_inverse=True)
        return Rows(self.take(idx)).paired(kernel, inverse[: len(ia)], inverse[len(ia):], budget)


def lifted_many(
    kernel: Kernel, X_train: Any, labelings: Sequence[np.ndarray], X_test: Any, k: int,
    settings: RiskSettings, make_rng: Callable[[], np.random.Generator],
) -> list[Risk]:
    """Lifted risks of every partition ``labelings[i]`` by the subsampling estimator on row
    chunks (at every n), partition i reading the stream ``make_rng()``: the cross sums at the
    sampled points are one pass over the chunks for all partitions
    (:func:`kktheory.evaluation.risk.lifted_many` on :class:`DaskRows`)."""
    estimated = RiskSettings.estimated(settings.budget, settings.points, settings.pairs)
    return risk.lifted_many(kernel, DaskRows(X_train), labelings, DaskRows(X_test), k, estimated, make_rng)


def lifted_distances(centroids: risk.LiftedCentroids, Y: Any) -> Any:
    """‖φ(y) − c_j‖² for the rows of a Dask array Y (lazy, len(Y) × k): the centroids'
    cross sums on Y's chunks, then :meth:`~kktheory.evaluation.risk.LiftedCentroids.distances`'s formula
    chunk by chunk."""
    S = centroids.cross_sums(Y, "predict")
    diag = Y.map_blocks(centroids.kernel.diag, drop_axis=1, dtype=np.float64)
    q, nonempty = centroids.q, centroids.nonempty
    return S.map_blocks(
        lambda s, d: sq_dist_to_centroids(d[:, 0], s, q, nonempty), diag[:, None], dtype=np.float64,
    )


def rows_of(X: Any) -> Rows:
    """:class:`DaskRows` for a Dask array, the in-memory :class:`Rows` otherwise."""
    return DaskRows(X) if is_dask(X) else Rows(X)
