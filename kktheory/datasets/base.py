"""The common interface of data sets (config group ``dataset``).

A loader is registered with its config dataclass and called as
``loader(params, n, n_test, k, rng)``; it returns a :class:`Dataset` with ``n`` training
and ``n_test`` test points (float64, rows are points), their labels as integers
0..C−1, and the indices of the points in the source (kept with each run so that every
number can be recomputed). ``rng`` is the run's data stream
(``component_rng(data_seed, "data")``).

Data sets read from a finite source (MNIST, LIBSVM, UCI segment, sklearn's digits) are
a :class:`Table` — all rows of the source, its own training part first — turned into a
:class:`Dataset` by :func:`finish`, the one place where splitting and subsampling
happen:

1. non-finite values are counted (:func:`check_finite`): a :class:`DataError` naming
   the data set and the count, unless ``drop_nonfinite=true`` drops those rows (generated
   data sets are finite by construction and not scanned);
2. the split (``split``):

   - ``own``: the source's own train/test split (MNIST 60000/10000, LIBSVM ``.t`` files);
   - ``stratified``: a seeded stratified split of the pooled rows, a fraction
     ``test_fraction`` (default 0.3, Yin et al. 2022 §5.2: 70/30) of every class to the
     test pool (:func:`stratified_split`); ``pool=train`` pools only the source's own
     training part (Yin's instance counts for dna and protein are those of the training
     files alone);
   - ``all``: training and test points are both drawn from all rows (in-sample
     evaluation, as Pourkamali-Anaraki & Becker evaluate on the clustered set);
   - ``auto`` (default): ``own`` when the source has its own split, else ``stratified``;

3. subsampling (:func:`subsample`): ``n`` training points drawn without replacement from
   the training pool and ``n_test`` from the test pool, in source order. The draw is a
   prefix of one permutation of the pool, so for one seed the points for ``n`` are a
   subset of those for any larger ``n``, and the test draw does not depend on ``n``.
   Asking for more points than the pool holds is a :class:`ConfigError` naming ``n`` or
   ``n_test``, the value and the maximum;
4. preprocessing: ``X / divisor`` (MNIST pixels / 255, digits / 16; LIBSVM features as
   given), then ``normalize``: ``l2_rows`` scales every row to unit ℓ2 norm (zero rows
   stay zero), ``l2_columns`` every feature column over all kept rows of the source
   (both readings of Pourkamali-Anaraki & Becker §5, "19 attributes that are normalized
   to unit ℓ2 norm").

Cost: O(N) for the split and the draws, O((n + n_test)·d) for the copies (the source
stays in its own dtype; only the selected rows become float64).

Data folder of the data sets that need files: :func:`resolve_data_dir`.

Called with ``sources=True`` (the loaders named in :data:`ROW_SOURCES`; ``backend=dask``),
a loader returns the draw with its rows not read: ``X_train`` and ``X_test`` are
:class:`~kktheory.datasets.sources.RowSource` objects that a worker turns into rows
[a, b) by reading the files itself (:class:`TableRows` here for the table data sets),
while the labels and indices are drawn on the caller's side as in memory.
"""

from __future__ import annotations

import copy
import importlib
import os
import pickle
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Optional

import numpy as np
from omegaconf import MISSING

from kktheory.datasets.sources import RowSource
from kktheory.errors import ConfigError, DataError
from kktheory.plugins import PluginRegistry
from kktheory.registry import EXECUTION

SPLITS = ("auto", "own", "stratified", "all")
POOLS = ("all", "train")
NORMALIZATIONS = ("none", "l2_rows", "l2_columns")
DATA_ENV = "KKTHEORY_DATA"
REPO_ROOT = Path(__file__).resolve().parents[2]


@dataclass
class DatasetConfig:
    """Base config of the ``dataset`` group."""

    name: str = MISSING

    def rows_on_disk(self, n: int) -> bool:
        """Whether the loader hands n training points over as rows read from disk in blocks
        (:class:`kktheory.datasets.disk_rows.DiskRows`) instead of an array in memory."""
        return False

    def resolve(self, budget: int) -> tuple[DatasetConfig, dict[str, int]]:
        """What only the source can tell, read at validation (:func:`kktheory.run.config.build_spec`)
        before anything is computed or written: this config with the fields that name the
        source's content filled in (they enter the run's identity), and the source's own
        ``n``, ``n_test`` and ``k`` for an option whose YAML leaves them to the data
        (:mod:`kktheory.datasets.array_file`). ``budget`` is the run's memory budget in
        bytes, for a source that must be read whole. The other data sets name their files or
        generators in their fields and read nothing here."""
        return self, {}


@dataclass
class SplitConfig(DatasetConfig):
    """A data set read from a finite source: split, subsampling and preprocessing."""

    split: str = "auto"  # auto | own | stratified | all (module docstring)
    test_fraction: float = 0.3  # split=stratified: share of every class in the test pool
    pool: str = "all"  # split=stratified|all: all rows, or the source's own training part
    normalize: str = "none"  # none | l2_rows | l2_columns
    drop_nonfinite: bool = False  # drop rows with NaN/inf instead of failing


@dataclass
class FileConfig(SplitConfig):
    """A data set read from files in a data folder."""

    data_dir: Optional[str] = field(default=None, metadata=EXECUTION)  # default: $KKTHEORY_DATA, else ../shared/datasets


@dataclass
class Dataset:
    """Train and test arrays (rows are points) with labels 0..C−1 and source indices.

    ``X_train``, ``X_test``: NumPy arrays, or :class:`~kktheory.datasets.sources.RowSource`
    objects (rows on disk, or read where they are computed: module docstring)."""

    name: str
    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    train_idx: np.ndarray
    test_idx: np.ndarray
    info: dict[str, Any] = field(default_factory=dict)  # files read, split, generation report


@dataclass
class Table:
    """All rows of a finite source, its own training part first.

    ``X / divisor`` are the data (``X`` may stay uint8); ``n_own_train`` is the size of
    the source's own training part, None when the source has no split of its own.
    """

    X: np.ndarray
    y: np.ndarray
    n_own_train: Optional[int] = None
    divisor: float = 1.0
    info: dict[str, Any] = field(default_factory=dict)


Loader = Callable[[DatasetConfig, int, int, int, np.random.Generator], Dataset]

DATASETS: PluginRegistry[Loader] = PluginRegistry("dataset", ("kktheory.datasets",), ("kktheory.datasets",))
TABLES: dict[str, Callable[[Any], Table]] = {}
"""The table reader of every table data set, by registered name (full source, no draw)."""
ROW_SOURCES: set[str] = set()
"""The data sets whose loader also takes ``sources=True`` (module docstring)."""


@dataclass(frozen=True)
class DataSpec:
    """The data draw of a run: the data set's config, the sizes, k and the data seed — all
    that a quantity computed from the data alone depends on (:meth:`key`)."""

    dataset: Any  # the data set's config dataclass
    n: int
    n_test: int
    k: int
    data_seed: int

    def key(self) -> dict[str, Any]:
        """The draw as a cache key (a reference's or a bound check's)."""
        return {"dataset": asdict(self.dataset), "n": self.n, "n_test": self.n_test, "data_seed": self.data_seed}

    def load(self, rng: np.random.Generator, sources: bool = False) -> Dataset:
        """The draw, from the data stream ``rng`` (:func:`load`)."""
        return load(self.dataset.name, self.dataset, self.n, self.n_test, self.k, rng, sources)


def load(name: str, params: DatasetConfig, n: int, n_test: int, k: int, rng: np.random.Generator,
         sources: bool = False) -> Dataset:
    """The data draw of the data set ``name``; with ``sources`` its rows as
    :class:`~kktheory.datasets.sources.RowSource` objects where the data set has them
    (:data:`ROW_SOURCES`), else as its loader makes them."""
    loader = DATASETS.get(name).impl
    if sources and name in ROW_SOURCES:
        return loader(params, n, n_test, k, rng, sources=True)
    return loader(params, n, n_test, k, rng)


def register_table(name: str, config_cls: type) -> Callable[[Callable[[Any], Table]], Callable[[Any], Table]]:
    """Register ``read(params) -> Table`` as the data set ``name`` (loader = read + finish)."""

    def deco(read: Callable[[Any], Table]) -> Callable[[Any], Table]:
        def loader(params: SplitConfig, n: int, n_test: int, k: int, rng: np.random.Generator,
                   sources: bool = False) -> Dataset:
            validate_split(params)
            return finish(name, read(params), params, n, n_test, rng, sources)

        loader.__doc__ = read.__doc__
        DATASETS.register(name, config_cls)(loader)
        TABLES[name] = read
        ROW_SOURCES.add(name)
        return read

    return deco


# -- data folder -----------------------------------------------------------------------------
def default_data_dir() -> Path:
    """``shared/datasets`` beside the project root or beside one of its ancestors.

    The project root is the folder holding the ``kktheory`` package; ``../shared/datasets``
    for a checkout, ``../../shared/datasets`` for a worktree one level further down. When
    none exists, the first candidate (``<root>/../shared/datasets``) is returned so that
    error messages can name it.
    """
    candidates = [p / "shared" / "datasets" for p in REPO_ROOT.parents]
    return next((c for c in candidates if c.is_dir()), candidates[0])


def resolve_data_dir(configured: Optional[str]) -> Path:
    """The data folder: config ``data_dir``, else ``$KKTHEORY_DATA``, else the default."""
    if configured:
        return Path(configured).expanduser()
    env = os.environ.get(DATA_ENV, "")
    if env:
        return Path(env).expanduser()
    return default_data_dir()


def find_file(folders: list[Path], names: list[str]) -> Optional[Path]:
    """The first existing ``folder/name`` (folders outer, names inner), or None."""
    for folder in folders:
        for name in names:
            path = folder / name
            if path.is_file():
                return path
    return None


# -- labels, finiteness ----------------------------------------------------------------------
def encode_labels(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(labels 0..C−1 as int64, the sorted original values) for any label array."""
    classes, codes = np.unique(np.asarray(y), return_inverse=True)
    return codes.astype(np.int64).ravel(), classes


def check_finite(name: str, X: np.ndarray, drop: bool) -> np.ndarray:
    """Indices of the rows to keep; non-finite values fail unless ``drop``.

    Integer arrays cannot hold NaN/inf and are not scanned. Cost O(N·d), in row blocks.
    """
    if not np.issubdtype(X.dtype, np.floating):
        return np.arange(len(X))
    bad_rows = np.zeros(len(X), dtype=bool)
    bad_values = 0
    step = max(1, 2**24 // max(1, X.shape[1]))
    for s in range(0, len(X), step):
        bad = ~np.isfinite(X[s:s + step])
        bad_values += int(bad.sum())
        bad_rows[s:s + step] = bad.any(axis=1)
    if bad_values and not drop:
        raise DataError(
            f"dataset {name}: {bad_values} non-finite values (NaN/inf) in "
            f"{int(bad_rows.sum())} rows; set dataset.drop_nonfinite=true to drop those rows"
        )
    return np.flatnonzero(~bad_rows)


# -- split and subsampling -------------------------------------------------------------------
def validate_split(params: SplitConfig) -> None:
    """Check the split fields of a table data set before any work."""
    if params.split not in SPLITS:
        raise ConfigError("dataset.split", params.split, f"one of {', '.join(SPLITS)}")
    if params.pool not in POOLS:
        raise ConfigError("dataset.pool", params.pool, f"one of {', '.join(POOLS)}")
    if params.normalize not in NORMALIZATIONS:
        raise ConfigError("dataset.normalize", params.normalize, f"one of {', '.join(NORMALIZATIONS)}")
    if not 0.0 < params.test_fraction < 1.0:
        raise ConfigError("dataset.test_fraction", params.test_fraction, "a number in (0, 1)")


def stratified_split(y: np.ndarray, test_fraction: float, rng: np.random.Generator) -> np.ndarray:
    """Boolean mask of the test rows of a seeded stratified split.

    The test pool holds round(test_fraction·N) rows; class c contributes
    ⌊test_fraction·N_c⌋ rows plus one for the classes with the largest remainders
    (ties: smaller class index) until the total is reached, so every class's share is
    within one row of test_fraction·N_c. Rows of a class are chosen by a permutation from
    ``rng``. O(N log N).
    """
    classes, counts = np.unique(y, return_counts=True)
    quota = test_fraction * counts
    take = np.floor(quota).astype(int)
    extra = int(round(test_fraction * len(y))) - int(take.sum())
    order = np.argsort(-(quota - take), kind="stable")
    take[order[:max(0, extra)]] += 1
    mask = np.zeros(len(y), dtype=bool)
    for c, t in zip(classes, take):
        rows = np.flatnonzero(y == c)
        mask[rows[rng.permutation(len(rows))[:t]]] = True
    return mask


def split_pools(
    y: np.ndarray, n_own_train: Optional[int], params: SplitConfig, name: str, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, str]:
    """(training pool, test pool, split used): row positions for the config's split."""
    split = params.split
    if split == "auto":
        split = "own" if n_own_train is not None else "stratified"
    if split == "own":
        if n_own_train is None:
            raise ConfigError("dataset.split", "own", f"stratified | all (dataset {name} has no split of its own)")
        return np.arange(n_own_train), np.arange(n_own_train, len(y)), split
    rows = np.arange(len(y) if params.pool == "all" or n_own_train is None else n_own_train)
    if split == "all":
        return rows, rows, split
    test = stratified_split(y[rows], params.test_fraction, rng)
    return rows[~test], rows[test], split


def subsample(pool: np.ndarray, size: int, field_name: str, name: str, rng: np.random.Generator) -> np.ndarray:
    """``size`` rows of ``pool`` without replacement, in source order.

    The rows are the first ``size`` of a permutation of the whole pool (so draws for
    increasing sizes are nested and the stream use does not depend on ``size``).
    """
    if size > len(pool):
        raise ConfigError(field_name, size, f"at most {len(pool)} points in this split of dataset {name}")
    return np.sort(pool[rng.permutation(len(pool))[:size]])


def column_norms(X: np.ndarray, divisor: float, rows: np.ndarray) -> np.ndarray:
    """ℓ2 norm of every column of X[rows] / divisor, read in row blocks (X may be a memory
    map larger than memory). O(len(rows)·d)."""
    sq = np.zeros(X.shape[1])
    step = max(1, 2**22 // max(1, X.shape[1]))
    for s in range(0, len(rows), step):
        block = np.asarray(X[rows[s:s + step]], dtype=np.float64) / divisor
        sq += np.einsum("ij,ij->j", block, block)
    return np.sqrt(sq)


def _select(table: Table, rows: np.ndarray, params: SplitConfig, col_norms: Optional[np.ndarray]) -> np.ndarray:
    X = np.asarray(table.X[rows], dtype=np.float64)
    if table.divisor != 1.0:
        X /= table.divisor
    if params.normalize == "l2_rows":
        norms = np.linalg.norm(X, axis=1, keepdims=True)
        np.divide(X, norms, out=X, where=norms > 0)
    elif params.normalize == "l2_columns":
        np.divide(X, col_norms, out=X, where=col_norms > 0)
    return X


@dataclass
class Draw:
    """The rows of a table that a data draw uses (steps 1–3 of the module docstring), the
    column norms of ``normalize=l2_columns`` (None otherwise) and what the draw reports."""

    train: np.ndarray
    test: np.ndarray
    col_norms: Optional[np.ndarray]
    info: dict[str, Any]


class Pools(NamedTuple):
    """The rows of a table kept by the NaN/inf scan, and the training and test pools (positions
    in ``kept``) of the config's split (steps 1–2 of the module docstring)."""

    kept: np.ndarray
    train: np.ndarray
    test: np.ndarray
    split: str


def pools(name: str, table: Table, params: SplitConfig, rng: np.random.Generator) -> Pools:
    """Scan and split a table (steps 1–2 of the module docstring). The pools' sizes do not
    depend on ``rng`` (a stratified split takes a fixed number of rows of every class)."""
    kept = check_finite(name, table.X, params.drop_nonfinite)
    n_own = None if table.n_own_train is None else int(np.searchsorted(kept, table.n_own_train))
    return Pools(kept, *split_pools(table.y[kept], n_own, params, name, rng))


def draw(name: str, table: Table, params: SplitConfig, n: int, n_test: int, rng: np.random.Generator) -> Draw:
    """Scan, split and subsample a table (steps 1–3 of the module docstring)."""
    kept, train_pool, test_pool, split = pools(name, table, params, rng)
    train = kept[subsample(train_pool, n, "n", name, rng)]
    test = kept[subsample(test_pool, n_test, "n_test", name, rng)]
    col_norms = None
    if params.normalize == "l2_columns":
        col_norms = column_norms(table.X, table.divisor, kept)
    info = dict(table.info, split=split, train_pool=len(train_pool), test_pool=len(test_pool),
                dropped_rows=len(table.X) - len(kept))
    return Draw(train, test, col_norms, info)


def finish(
    name: str, table: Table, params: SplitConfig, n: int, n_test: int, rng: np.random.Generator,
    sources: bool = False,
) -> Dataset:
    """Split, subsample and preprocess a table (steps 1–4 of the module docstring); with
    ``sources`` the rows are :class:`TableRows` (selected and scaled where they are read)."""
    stream = copy.deepcopy(rng)  # the data stream at its start, which TableRows repeat the draw from
    d = draw(name, table, params, n, n_test, rng)
    if sources:
        reader = TABLES[name].__module__
        X_train, X_test = (TableRows(name, params, n, n_test, stream, part, (size, table.X.shape[1]), reader)
                           .kept(table, d)
                           for part, size in (("train", n), ("test", n_test)))
    else:
        X_train, X_test = (_select(table, rows, params, d.col_norms) for rows in (d.train, d.test))
    return Dataset(name, X_train, table.y[d.train], X_test, table.y[d.test], d.train, d.test, d.info)


_DRAWS: dict[bytes, tuple[Table, Draw]] = {}
_DRAWS_LOCK = threading.Lock()
DRAWS_KEPT = 2  # (table, draw) pairs a process keeps for TableRows


@dataclass(frozen=True, eq=False)
class TableRows(RowSource):
    """Rows of a table data set's draw, read where they are computed
    (:mod:`kktheory.datasets.sources`).

    Holds the data set's name and config, n, n_test, the data stream at its start and the
    part (``train`` or ``test``), nothing of size n. The reading process reads the table
    (``TABLES[name](params)``: the files of the config's data folder, which must be at the
    same path there), repeats :func:`draw` with a copy of the stream and selects and scales
    rows [a, b) of the part as :func:`finish` does, so they equal the in-memory rows bit for
    bit. The table and the draw are kept per process (the last :data:`DRAWS_KEPT` draws),
    so a worker reads and parses the files once for all its chunks of both parts.
    """

    name: str
    params: Any
    n: int
    n_test: int
    stream: np.random.Generator
    part: str
    shape: tuple[int, int]
    reader: str = ""  # the module that registers the table's reader (imported where the rows are read)
    dtype = np.dtype(np.float64)

    def key(self) -> bytes:
        """What identifies the draw (the same for both parts)."""
        return pickle.dumps((self.name, self.params, self.n, self.n_test, self.stream.bit_generator.state))

    def kept(self, table: Table, d: Draw) -> "TableRows":
        """This source, with the draw already made in this process kept for its reads."""
        with _DRAWS_LOCK:
            _keep(self.key(), table, d)
        return self

    def drawn(self) -> tuple[Table, Draw]:
        """The table and the draw: kept by this process, else read and drawn now."""
        key = self.key()
        with _DRAWS_LOCK:  # one reader per process; the others wait for its table
            if key not in _DRAWS:
                if self.name not in TABLES:  # a fresh worker process: register the reader first
                    importlib.import_module(self.reader)
                table = TABLES[self.name](self.params)
                _keep(key, table, draw(self.name, table, self.params, self.n, self.n_test,
                                       copy.deepcopy(self.stream)))
            return _DRAWS[key]

    def rows(self, start: int, stop: int) -> np.ndarray:
        table, d = self.drawn()
        idx = d.train if self.part == "train" else d.test
        return _select(table, idx[start:stop], self.params, d.col_norms)


def _keep(key: bytes, table: Table, d: Draw) -> None:
    _DRAWS.pop(key, None)
    _DRAWS[key] = (table, d)
    while len(_DRAWS) > DRAWS_KEPT:
        _DRAWS.pop(next(iter(_DRAWS)))


def check_loaded(data: Dataset, n: int, n_test: int) -> None:
    """Post-load checks of a data set: shapes against n and n_test, and finite values.

    Loaders of finite sources refuse n + n_test above their size and scan the source for
    NaN/inf (:func:`kktheory.datasets.base.check_finite`, with ``drop_nonfinite``);
    generated data sets are finite when their (checked, finite) parameters are. This is
    the one place every loader's output passes through, so that no run starts on
    malformed data whatever the loader. O((n + n_test)·d).
    """
    name = data.name
    for part, X, y, size in (("train", data.X_train, data.y_train, n),
                             ("test", data.X_test, data.y_test, n_test)):
        if not getattr(X, "finite", False):  # rows on disk (DiskRows) are finite by construction
            X = np.asarray(X)
        if X.ndim != 2 or len(X) != size or len(y) != size or X.shape[1] < 1:
            raise DataError(
                f"dataset {name}: the {part} part has shape {X.shape} with {len(y)} labels, "
                f"expected {size} rows of at least one feature"
            )
        bad = 0 if getattr(X, "finite", False) else size - len(check_finite(name, X, drop=True))
        if bad:
            raise DataError(
                f"dataset {name}: {bad} {part} points with non-finite values (NaN/inf) after "
                "loading; check the dataset's parameters (files: dataset.drop_nonfinite=true drops such rows)"
            )
