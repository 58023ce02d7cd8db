"""The Dask backend (DESIGN §9): the method of a run on row chunks of a Dask array.

``backend=dask`` (config) or ``SketchedKernelKMeans(backend="dask")`` runs the steps of
:class:`kktheory.experiment.Method` with the training points X as a Dask array of row
chunks (one chunk across the columns):

- kernel: the bandwidth rules need (1/n) Σ_i ‖x_i − x̄‖² only, a chunked reduction;
- sketch: the landmarks are drawn on the client from the run's "sketch" stream, exactly as
  the in-memory sketch draws them, and only their m rows are gathered; the sketch is fitted
  on those rows (K_mm, the mixing matrix S) and the features of every chunk,
  f(x) = map(κ(x, landmarks)), are computed where the chunk lives (``map_blocks``) and
  kept there (``persist``). Supported: the sketches whose map depends on the training set
  only through n and the landmark rows — ``nystrom``, ``nystrom_liu`` (Calandriello Alg. 1),
  ``yin_nystrom``, ``subgaussian`` and ``ros`` with ``order=sample_first`` (Yin Alg. 1);
- clustering: dask-ml's ``KMeans`` with k-means|| seeding (Bahmani et al. 2012, "Scalable
  k-means++") and distributed Lloyd iterations on the feature chunks. Only
  ``clustering=kmeanspp`` is accepted (its n_init, max_iter, tol are passed on; tol is
  scaled as scikit-learn does, by the mean variance of the features; dask-ml uses n_init
  for the weighted k-means++ on the oversampled k-means|| candidates). k-means|| is a
  different seeding from k-means++, so labels differ from the in-memory backend run to run;
  the partitions agree in quality (see tests/test_dask_backend.py);
- risk: the lifted subsampling estimator of :mod:`kktheory.risk`, always (whatever n), with
  the data read through :class:`DaskRows`: per-cluster sums of κ(x, x) and the cross sums
  κ(Y, X)·Z are chunked reductions, sampled pairs are evaluated by one task per pair of
  chunks, and only the b sampled evaluation points (and clusters with at most √pairs
  points) are gathered. Projected centroids and bound checks need the n × m features in
  one place and are refused.

Nothing gathers an n × m array: the client holds the landmark rows, the n training labels,
the sampled points and k × m centroid sums. The training labels (n integers) are gathered,
as the row's ``train_labels`` are stored.

Where it runs: ``dask_scheduler=tcp://host:8786`` connects a ``distributed.Client`` to an
existing cluster for the run (started e.g. with ``dask scheduler`` and ``dask worker
tcp://host:8786``, or by dask-jobqueue on SLURM); null (default) uses the Dask scheduler
active in the process — the local threaded scheduler, or a ``distributed.Client`` the
caller created (the estimator always uses the active one). ``dask_chunk_rows`` sets the
rows per chunk when the data arrive as a NumPy array. Dask, distributed and dask-ml are the
optional extra ``pip install -e ".[dask]"``; they are imported only when this backend runs.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from kktheory.errors import ConfigError
from kktheory.kernels import Kernel, make_kernel
from kktheory.risk import Risk, RiskSettings, Rows, lifted_risk_subsampled
from kktheory.seeding import component_rng, component_seed
from kktheory.sketches import Partition, Sketch
from kktheory.sketches.nystrom import Nystrom
from kktheory.sketches.ros import ROS
from kktheory.sketches.yin import SampledSketch

if TYPE_CHECKING:
    from kktheory.config import RunSpec
    from kktheory.experiment import Fitted, Method

INSTALL = 'the optional extra: pip install -e ".[dask]" (dask[array,distributed], dask-ml)'


def _da() -> Any:
    """dask.array, or a ConfigError saying how to install it."""
    try:
        import dask.array as da
    except ImportError:
        raise ConfigError("backend", "dask", f"numpy, or install {INSTALL}") from None
    return da


def is_dask(X: Any) -> bool:
    """True for a Dask collection (checked without importing Dask)."""
    return hasattr(X, "__dask_graph__") and callable(X.__dask_graph__)


# -- validation -------------------------------------------------------------------------
def landmark_family(cls: type[Sketch], params: Any) -> str | None:
    """'nystrom' or 'sampled' when the sketch's map needs only n and landmark rows, else None."""
    if not cls.is_embedding:
        return None
    if issubclass(cls, Nystrom) and cls.draw_landmarks is Nystrom.draw_landmarks:
        return "nystrom"
    if issubclass(cls, SampledSketch) and not (issubclass(cls, ROS) and params.order != "sample_first"):
        return "sampled"
    return None


def supported_sketches() -> list[str]:
    """Names of the registered sketches the Dask backend runs (with their default params)."""
    from kktheory.sketches import SKETCHES

    out = []
    for name in SKETCHES.names():
        entry = SKETCHES.get(name)
        if landmark_family(entry.impl, entry.config_cls()) is not None:
            out.append(name)
    return out


def check(method: "Method") -> None:
    """What backend=dask accepts (ConfigError otherwise); checks that Dask is installed."""
    _da()
    try:
        import dask_ml  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        raise ConfigError("backend", "dask", f"numpy, or install {INSTALL}") from None
    if landmark_family(method.sketch_class, method.sketch) is None:
        raise ConfigError(
            "sketch", method.sketch.name,
            f"with backend=dask one of {', '.join(supported_sketches())} (ros with "
            "order=sample_first): their features are computed chunk by chunk from the landmark "
            "rows; the others need all of K or global n×m operations",
        )
    if method.clustering.name != "kmeanspp":
        raise ConfigError(
            "clustering", method.clustering.name,
            "kmeanspp with backend=dask (run as dask-ml KMeans with k-means|| seeding)",
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
    _da()
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
    """X as a persisted Dask array of row chunks (one chunk across the columns)."""
    da = _da()
    if is_dask(X):
        X = X.rechunk({1: -1})
    else:
        X = np.asarray(X)
        X = da.from_array(X, chunks=(min(chunk_rows, max(1, len(X))), X.shape[1]))
    return _wait(X.persist())


def _blocks(X: Any) -> tuple[list[Any], np.ndarray]:
    """(one delayed object per row chunk, row offsets of the chunks: len = chunks + 1)."""
    blocks = list(X.to_delayed().ravel())
    return blocks, np.concatenate([[0], np.cumsum(X.chunks[0])]).astype(np.int64)


def _compute(*values: Any) -> Any:
    import dask

    return dask.compute(*values)


def _wait(X: Any) -> Any:
    """Block until a persisted collection is computed (distributed persists in the background)."""
    try:
        from distributed import default_client, wait
    except ImportError:
        return X
    try:
        default_client()
    except ValueError:  # no client: persist already computed synchronously
        return X
    wait(X)
    return X


def mean_sq_dist_to_mean(X: Any) -> float:
    """(1/n) Σ_i ‖x_i − x̄‖² of a Dask array, by chunked reductions (float64)."""
    X = X.astype(np.float64)
    centred = X - X.mean(axis=0)
    return float((centred * centred).sum().compute()) / X.shape[0]


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
    same order, as the in-memory ``fit_nested`` of the sketch, so landmarks are nested."""
    cls = method.sketch_class
    family = landmark_family(cls, method.sketch)
    n = X.shape[0]
    ctx = method.context(n)
    rng = component_rng(method.seed, "sketch")
    probe = cls(method.sketch, ctx)
    used = [probe.resolve_m(m) for m in ms]
    if family == "nystrom":
        idx = probe.draw_landmarks(X, kernel, max(used), rng)
        draw = None
    else:
        idx = rng.permutation(n)[: max(used)]
        draw = probe.draw(n, max(used), rng)
    X_L = np.asarray(X[idx].compute())
    for m, mu in zip(ms, used):
        sketch = cls(method.sketch, ctx)
        if family == "nystrom":
            sketch.info_.update(probe.info_)
            sketch.fit_landmarks(X_L[:mu], kernel, np.arange(mu), None)
        else:
            sketch._fit(X_L[:mu], kernel, np.arange(mu), draw, None)
            sketch.n_fit_ = n
        sketch.landmarks_ = np.asarray(idx[:mu])
        yield m, sketch


def features(sketch: Sketch, X: Any) -> Any:
    """sketch.transform of every row chunk of X, computed where the chunk lives (lazy)."""
    width = sketch.transform(np.zeros((1, X.shape[1]), dtype=X.dtype)).shape[1]
    return X.map_blocks(
        sketch.transform, chunks=(X.chunks[0], (width,)), dtype=np.dtype(sketch.ctx.dtype),
    )


def _cluster_sums(Fb: np.ndarray, lb: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    sums = np.zeros((k, Fb.shape[1]))
    np.add.at(sums, lb, np.asarray(Fb, dtype=np.float64))
    return sums, np.bincount(lb, minlength=k).astype(np.float64)


def _sq_dist_sum(Fb: np.ndarray, lb: np.ndarray, means: np.ndarray) -> float:
    diff = np.asarray(Fb, dtype=np.float64) - means[lb]
    return float(np.einsum("ij,ij->", diff, diff))


def cluster_means(F: Any, labels: np.ndarray, k: int) -> np.ndarray:
    """k × r means of the feature rows over each cluster (0 for empty clusters), float64;
    chunk by chunk for a Dask array."""
    if not is_dask(F):
        sums, counts = _cluster_sums(F, labels, k)
        return sums / np.maximum(counts, 1.0)[:, None]
    from dask import delayed

    blocks, off = _blocks(F)
    parts = _compute(*[
        delayed(_cluster_sums)(b, labels[off[i] : off[i + 1]], k) for i, b in enumerate(blocks)
    ])
    sums = sum(p[0] for p in parts)
    counts = sum(p[1] for p in parts)
    return sums / np.maximum(counts, 1.0)[:, None]


def feature_objective(F: Any, labels: np.ndarray, k: int) -> float:
    """(1/n) Σ_i ‖F_i − μ_{l_i}‖² (cf. :func:`kktheory.sketches.base.feature_objective`)."""
    from dask import delayed

    means = cluster_means(F, labels, k)
    blocks, off = _blocks(F)
    parts = _compute(*[
        delayed(_sq_dist_sum)(b, labels[off[i] : off[i + 1]], means) for i, b in enumerate(blocks)
    ])
    return float(sum(parts)) / F.shape[0]


def kmeans_parallel(method: "Method", F: Any) -> Partition:
    """dask-ml KMeans (k-means|| then Lloyd) on the feature chunks; labels gathered (n ints)."""
    from dask_ml.cluster import KMeans

    logging.getLogger("dask_ml").setLevel(logging.WARNING)  # one INFO line per Lloyd step
    p = method.clustering
    variance = float(F.astype(np.float64).var(axis=0).mean().compute())
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


def fit(method: "Method", X: Any, kernel: Kernel, ms: list[int]) -> Iterator["Fitted"]:
    """:meth:`Method.fit` on Dask row chunks: one fitted sketch and partition per m."""
    import time

    from kktheory.experiment import Fitted

    t0 = time.perf_counter()
    for m, sketch in fit_sketches(method, X, kernel, ms):
        F = _wait(features(sketch, X).persist())
        time_embed = time.perf_counter() - t0
        t0 = time.perf_counter()
        part = kmeans_parallel(method, F)
        yield Fitted(m, sketch, part, time_embed, time.perf_counter() - t0)
        t0 = time.perf_counter()


# -- risk --------------------------------------------------------------------------------
def _cross_block(kernel: Kernel, Y: np.ndarray, Xb: np.ndarray, Zb: np.ndarray, budget: int) -> np.ndarray:
    return Rows(Xb).cross_sums(kernel, np.asarray(Y), Zb, budget, "risk (chunk)")


def _diag_block(kernel: Kernel, Xb: np.ndarray, local: np.ndarray | None) -> float:
    return float(kernel.diag(Xb if local is None else Xb[local]).sum())


class DaskRows(Rows):
    """:class:`kktheory.risk.Rows` on a Dask array of row chunks (nothing n-sized gathered)."""

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
        from dask import delayed

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

    def _z_blocks(self, Z: np.ndarray) -> list[np.ndarray]:
        return [Z[self._off[i] : self._off[i + 1]] for i in range(len(self._blocks))]

    def cross_sums(self, kernel: Kernel, Y: Any, Z: np.ndarray, budget: int, desc: str) -> Any:
        """κ(Y, X)·Z: one task per (chunk of Y, chunk of X), summed over the chunks of X.

        Y NumPy → NumPy result; Y a Dask array → a lazy Dask array (len(Y) × k).
        """
        from dask import delayed

        da = _da()
        zb = self._z_blocks(Z)
        ys = list(Y.to_delayed().ravel()) if is_dask(Y) else [Y]
        rows = Y.chunks[0] if is_dask(Y) else (len(Y),)
        out = []
        for y, r in zip(ys, rows):
            total = delayed(sum)([delayed(_cross_block)(kernel, y, b, z, budget) for b, z in zip(self._blocks, zb)])
            out.append(da.from_delayed(total, shape=(r, Z.shape[1]), dtype=np.float64))
        S = da.concatenate(out, axis=0) if len(out) > 1 else out[0]
        return S if is_dask(Y) else np.asarray(S.compute())

    def paired(self, kernel: Kernel, ia: np.ndarray, ib: np.ndarray, budget: int) -> np.ndarray:
        """κ(x_ia[t], x_ib[t]): pairs grouped by (chunk of ia, chunk of ib), one task each."""
        from dask import delayed

        ia, ib = np.asarray(ia), np.asarray(ib)
        ca, cb = self._chunk_of(ia), self._chunk_of(ib)
        nb = len(self._blocks)
        group = ca * nb + cb
        order = np.argsort(group, kind="stable")
        keys, starts = np.unique(group[order], return_index=True)
        tasks = []
        for key, lo, hi in zip(keys, starts, np.append(starts[1:], len(order))):
            sel = order[lo:hi]
            a, b = divmod(int(key), nb)
            la, lb = ia[sel] - self._off[a], ib[sel] - self._off[b]
            if a == b:
                tasks.append(delayed(_pair_values)(kernel, self._blocks[a], None, la, lb, budget))
            else:
                tasks.append(delayed(_pair_values)(kernel, self._blocks[a], self._blocks[b], la, lb, budget))
        vals = np.empty(len(ia))
        for (lo, hi), v in zip(zip(starts, np.append(starts[1:], len(order))), _compute(*tasks)):
            vals[order[lo:hi]] = v
        return vals


def _pair_values(
    kernel: Kernel, Xa: np.ndarray, Xb: np.ndarray | None, la: np.ndarray, lb: np.ndarray, budget: int
) -> np.ndarray:
    """κ(Xa[la[t]], Xb[lb[t]]) (Xb None: the same chunk), through the in-memory Rows."""
    if Xb is None:
        return Rows(Xa).paired(kernel, la, lb, budget)
    return Rows(np.concatenate([Xa, Xb])).paired(kernel, la, lb + len(Xa), budget)


def lifted_risk(
    kernel: Kernel, X_train: Any, labels: np.ndarray, X_test: Any, k: int,
    settings: RiskSettings, rng: np.random.Generator,
) -> Risk:
    """Lifted risks by the subsampling estimator of :mod:`kktheory.risk` on row chunks."""
    return lifted_risk_subsampled(kernel, DaskRows(X_train), labels, DaskRows(X_test), k, settings, rng)


def lifted_distances(
    kernel: Kernel, rows: Rows, Y: Any, Z: np.ndarray, q: np.ndarray, nonempty: np.ndarray, budget: int
) -> Any:
    """‖φ(y) − c_j‖² for the rows of a Dask array Y (lazy, len(Y) × k)."""
    from kktheory.risk import sq_dist_to_centroids

    S = rows.cross_sums(kernel, Y, Z, budget, "predict")
    diag = Y.map_blocks(kernel.diag, drop_axis=1, dtype=np.float64)
    return S.map_blocks(
        lambda s, d: sq_dist_to_centroids(d[:, 0], s, q, nonempty), diag[:, None], dtype=np.float64,
    )


def rows_of(X: Any) -> Rows:
    """:class:`DaskRows` for a Dask array, the in-memory :class:`Rows` otherwise."""
    return DaskRows(X) if is_dask(X) else Rows(X)

