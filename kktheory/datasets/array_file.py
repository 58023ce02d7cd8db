"""Your own array file as a data set: ``python run.py dataset=file dataset.path=X.npz``.

The format is the file's extension; X holds the features (rows are points):

- ``.npy``: a 2-D numeric array X, its labels from ``dataset.labels_path`` (a ``.npy`` of one
  label per row); memory-mapped, read in row blocks;
- ``.npz``: arrays ``dataset.features`` (default ``X``) and ``dataset.label`` (default ``y``);
  read whole;
- ``.csv``, ``.parquet``: every column a feature but the label column ``dataset.label``
  (required); a CSV's first line names its columns; read whole;
- ``.svm``, ``.libsvm``, ``.txt``: LIBSVM/svmlight text, parsed as the LIBSVM data sets parse
  theirs (:func:`~kktheory.datasets.libsvm.parse_svmlight`, 0- or 1-based indices); read
  whole, sparse, then made dense.

Labels may be numbers or strings; they are numbered 0..C−1 in sorted order. The file is a
table data set (:mod:`kktheory.datasets.base`): it has no split of its own, so ``split=auto``
is the seeded stratified split with ``test_fraction`` (default 0.3) of every class in the test
pool (``split=all``: in-sample), ``n`` and ``n_test`` points are drawn from the pools,
``normalize`` and ``drop_nonfinite`` act as for every table. ``n``, ``n_test`` and ``k`` are
the file's own unless given (``configs/dataset/file.yaml`` does not set them, so they stay
missing, ``???``, until the file is read): all of the
training and test pools up to 20,000 and 10,000 points (the caps of every data set option's
default sizes) and the number of distinct labels of the rows kept.

**Read at validation.** :meth:`ArrayFileConfig.resolve` reads the file when the run is
validated (:func:`kktheory.run.config.build_spec`), before anything is computed or written,
so that a bad file ends like a bad config value: one line naming the file and what is wrong,
exit status 2, nothing written. Refused: a missing file, one that is not a readable file of a
known extension or does not parse as its format, non-numeric features, NaN or inf (unless
``drop_nonfinite=true``), labels that are not one per row or are missing, a single class, a
missing label column or ``.npz`` array, a ``.npy`` without ``labels_path``.

**Memory.** A ``.npy`` file is memory-mapped: the NaN/inf scan and the column norms read it in
row blocks and a run copies only the rows it draws, so X may exceed the memory budget. The
other formats are parsed whole (then cached as a ``.npy`` in the parsed-table cache,
:mod:`kktheory.datasets.table_cache`, and memory-mapped from there): when X would exceed the
budget — its size known before parsing from the ``.npz`` header, the Parquet metadata, or the
CSV's lines × columns, and before densifying for svmlight — the run is refused with the
figure (save X as ``.npy`` to have it read in row blocks).

**Identity.** ``sha256`` (and ``labels_sha256`` for ``labels_path``) is filled in with the
SHA-256 of the file's bytes and enters the run's identity, so an edited file makes new runs
and an unchanged one reuses its stored runs. The hash is remembered by (path, size,
modification time) (:func:`~kktheory.datasets.table_cache.file_sha256`), so a sweep hashes a
big file once. The paths are execution fields: they say where the data are, not what they
are, so moving or renaming the file keeps its runs.

Cost: hashing reads the file once per (path, size, mtime); a ``.npy`` is scanned for NaN/inf
once at validation and once at loading, O(N·d) in row blocks; the other formats are parsed
once per (path, size, mtime, reading options) and memory-mapped from the cache afterwards.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Optional

import numpy as np

from kktheory.datasets.base import SplitConfig, Table, encode_labels, pools, register_table, validate_split
from kktheory.datasets.disk_rows import read_npy_header
from kktheory.datasets.libsvm import parse_svmlight, svmlight_table
from kktheory.datasets.table_cache import cached_table, file_sha256
from kktheory.errors import ConfigError, DataError
from kktheory.machine import memory
from kktheory.registry import EXECUTION
from kktheory.seeding import component_rng

SVMLIGHT = (".svm", ".libsvm", ".txt")
FORMATS = (".npy", ".npz", ".csv", ".parquet", *SVMLIGHT)
#: the caps of every data set option's default n and n_test (configs/dataset/*.yaml)
CAP_N, CAP_TEST = 20000, 10000
LISTED = 10  # column or array names a message lists


@dataclass
class ArrayFileConfig(SplitConfig):
    """Options of ``dataset=file`` (formats, reading and identity: module docstring).

    - ``path``: the file; its extension is its format (.npy, .npz, .csv, .parquet,
      .svm/.libsvm/.txt);
    - ``labels_path``: for a ``.npy``, the ``.npy`` of its labels, one per row of X;
    - ``label``: where the labels are in the file: the column of a ``.csv`` or ``.parquet``
      (required, e.g. ``dataset.label=class``), the array of a ``.npz`` (default ``y``);
    - ``features``: the array of features of a ``.npz``;
    - ``sha256``, ``labels_sha256``: the SHA-256 of the bytes of ``path`` and of
      ``labels_path``, filled in at validation and part of the run's identity; given on the
      command line, they pin the content (a file whose hash differs is refused);
    - ``split``, ``test_fraction``, ``normalize``, ``drop_nonfinite``: as for every table data
      set (:mod:`kktheory.datasets.base`; ``split=own`` is refused: a file has no split of its
      own).

    ``path`` and ``labels_path`` are not part of a run's identity (the content hashes are), so
    that moving or renaming the file keeps its runs while editing it makes new ones.
    """

    name: str = "file"
    path: Optional[str] = field(default=None, metadata=EXECUTION)  # the array file (.npy, .npz, .csv, .parquet, .svm/.libsvm/.txt)
    labels_path: Optional[str] = field(default=None, metadata=EXECUTION)  # .npy only: a .npy of one label per row
    label: Optional[str] = None  # the labels in the file: the column of a .csv/.parquet (required), the array of a .npz (default y)
    features: str = "X"  # .npz: the array of features
    sha256: Optional[str] = None  # SHA-256 of the file's bytes, filled in at validation (given: pins the content)
    labels_sha256: Optional[str] = None  # SHA-256 of labels_path's bytes, likewise (null without labels_path)

    def resolve(self, budget: int) -> tuple[ArrayFileConfig, dict[str, int]]:
        """The file read and checked (module docstring): this config with absolute paths and
        the content hashes filled in, and the file's own n, n_test and k."""
        validate(self)
        table = read_table(self, budget)
        path = _path(self.path)
        kept, train, test, _ = pools(f"file: {path}", table, self, component_rng(0, "file sizes"))  # sizes only
        classes = np.unique(table.y[kept])
        if len(classes) < 2:
            found = f"one class only (label {table.info['classes'][classes[0]]!r})" if len(classes) else "no rows"
            raise DataError(f"dataset file: {path}: {found} in the rows kept; "
                            "the labels must name at least two classes")
        resolved = replace(self, path=str(path), sha256=_hash(path, self.sha256, "sha256"))
        if self.labels_path:
            labels = _path(self.labels_path)
            resolved = replace(resolved, labels_path=str(labels),
                               labels_sha256=_hash(labels, self.labels_sha256, "labels_sha256"))
        return resolved, {"n": min(len(train), CAP_N), "n_test": min(len(test), CAP_TEST), "k": len(classes)}


def validate(params: ArrayFileConfig) -> None:
    """The fields that need no reading: a path of a known format, labels_path only for .npy."""
    validate_split(params)
    if not params.path:
        raise ConfigError("dataset.path", params.path, f"the array file to read ({', '.join(FORMATS)})")
    suffix = _path(params.path).suffix.lower()
    if suffix not in FORMATS:
        raise DataError(f"dataset file: {_path(params.path)}: unknown format {suffix or '(no extension)'!r}; "
                        f"the extension names it: one of {', '.join(FORMATS)}")
    if params.labels_path and suffix != ".npy":
        raise ConfigError("dataset.labels_path", params.labels_path,
                          f"null: a {suffix} file holds its own labels (labels_path is for a .npy of features)")


def _path(value: str) -> Path:
    return Path(value).expanduser().absolute()


def _hash(path: Path, pinned: Optional[str], field_name: str) -> str:
    """The SHA-256 of the file's bytes, checked against the value the config pins (if any)."""
    value = file_sha256(path)
    if pinned is not None and pinned != value:
        raise DataError(f"dataset file: {path}: its content's SHA-256 is {value}, not dataset.{field_name}={pinned}")
    return value


def read_table(params: ArrayFileConfig, budget: Optional[int] = None) -> Table:
    """The file's table: a ``.npy`` memory-mapped, any other format parsed once and cached.

    ``budget``: formats read whole are refused when X would exceed it (None: the loader's
    read, after the run's validation has read the file within its budget)."""
    path = _path(params.path)
    _require_file(path, "path")
    suffix = path.suffix.lower()
    if suffix == ".npy":
        return read_npy(path, params)
    options = json.dumps([suffix, params.label, params.features])
    return cached_table(f"file-{hashlib.sha1(options.encode()).hexdigest()[:8]}", [path],
                        lambda: READERS[suffix](path, params, budget))


def _require_file(path: Path, option: str) -> None:
    if not path.exists():
        raise DataError(f"dataset file: {path}: no such file (dataset.{option})")
    if not path.is_file():
        raise DataError(f"dataset file: {path}: not a file (dataset.{option})")


@contextlib.contextmanager
def reading(path: Path, fmt: str) -> Iterator[None]:
    """A file that cannot be opened or parsed as ``fmt`` is a DataError naming it (our own
    DataErrors pass through)."""
    try:
        yield
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise DataError(f"dataset file: {path}: cannot read it as {fmt}: {exc}") from exc


def _listed(names: list[Any]) -> str:
    shown = ", ".join(map(str, names[:LISTED]))
    return shown + (f", … ({len(names)} in all)" if len(names) > LISTED else "")


def check_features(path: Path, shape: tuple[int, ...], dtype: np.dtype) -> None:
    """X must be a non-empty 2-D array of numbers (booleans, integers or floats)."""
    if dtype.kind not in "biuf":
        raise DataError(f"dataset file: {path}: non-numeric features (dtype {dtype}); X must hold numbers")
    if len(shape) != 2 or 0 in shape:
        raise DataError(f"dataset file: {path}: X has shape {shape}; a 2-D array of one row per point is needed")


def require_whole(path: Path, rows: int, columns: int, itemsize: int, budget: Optional[int]) -> None:
    """A format read whole: refused when X (rows × columns × itemsize bytes) exceeds the budget."""
    if budget is not None:
        memory.require(rows * columns * itemsize, budget,
                       f"reading dataset file {path} whole ({rows} × {columns} values)",
                       "save X as a .npy file, which is read in row blocks (its labels as dataset.labels_path)")


def labeled(path: Path, X: np.ndarray, labels: np.ndarray, where: str = "") -> Table:
    """The table of X and its labels (0..C−1): one label per row, none missing. ``where``
    names the labels' own file in messages."""
    import pandas as pd

    labels = np.asarray(labels).reshape(-1)
    if len(labels) != len(X):
        raise DataError(f"dataset file: {path}: {len(labels)} labels{where} for {len(X)} rows of features")
    missing = int(pd.isna(labels).sum())
    if missing:
        raise DataError(f"dataset file: {path}: {missing} rows without a label{where}")
    y, classes = encode_labels(labels)
    return Table(X, y, None, 1.0, {"files": [str(path)], "classes": classes.tolist()})


def read_npy(path: Path, params: ArrayFileConfig) -> Table:
    """X memory-mapped (never read whole), its labels from ``labels_path``."""
    with reading(path, ".npy"):
        with open(path, "rb") as f:
            shape, _, dtype = read_npy_header(f)
        check_features(path, shape, dtype)
        X = np.load(path, mmap_mode="r", allow_pickle=False)
    if not params.labels_path:
        raise DataError(f"dataset file: {path}: a .npy holds the features only; give its labels as "
                        f"dataset.labels_path=<a .npy of {shape[0]} labels>")
    labels_path = _path(params.labels_path)
    _require_file(labels_path, "labels_path")
    with reading(labels_path, ".npy"), open(labels_path, "rb") as f:
        labels = np.lib.format.read_array(f, allow_pickle=False)
    return labeled(path, X, labels, f" in {labels_path}")


def read_npz(path: Path, params: ArrayFileConfig, budget: Optional[int]) -> Table:
    """Arrays ``features`` and ``label`` (default y), X's size checked from its header first."""
    label = params.label or "y"
    with reading(path, ".npz"), zipfile.ZipFile(path) as archive:
        names = [n.removesuffix(".npy") for n in archive.namelist()]
        for key, option in ((params.features, "features"), (label, "label")):
            if key not in names:
                raise DataError(f"dataset file: {path}: no array {key!r} (arrays: {_listed(names)}); "
                                f"set dataset.{option}=<name>")
        with archive.open(f"{params.features}.npy") as f:
            shape, _, dtype = read_npy_header(f)
        check_features(path, shape, dtype)
        require_whole(path, shape[0], shape[1], dtype.itemsize, budget)
        with np.load(path, allow_pickle=False) as arrays:
            return labeled(path, arrays[params.features], arrays[label])


def _csv_shape(path: Path) -> tuple[int, list[str]]:
    """(rows, column names) of a CSV without parsing it: its lines after the header."""
    import pandas as pd

    with open(path, "rb") as f:
        lines = sum(block.count(b"\n") for block in iter(lambda: f.read(2**20), b""))
    return max(0, lines - 1), list(pd.read_csv(path, nrows=0).columns)


def _parquet_shape(path: Path) -> tuple[int, list[str]]:
    """(rows, column names) from the Parquet metadata."""
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(path)
    return meta.metadata.num_rows, list(meta.schema_arrow.names)


def read_frame(path: Path, params: ArrayFileConfig, budget: Optional[int]) -> Table:
    """A CSV or Parquet table: the label column ``label``, every other column a feature."""
    import pandas as pd

    fmt = path.suffix.lower()
    with reading(path, fmt):
        rows, columns = (_csv_shape if fmt == ".csv" else _parquet_shape)(path)
        if params.label not in columns:
            what = "name the label column" if params.label is None else f"no column {params.label!r}"
            raise DataError(f"dataset file: {path}: {what}: dataset.label=<column> (columns: {_listed(columns)})")
        require_whole(path, rows, len(columns) - 1, 8, budget)
        frame = pd.read_csv(path) if fmt == ".csv" else pd.read_parquet(path)
    features = frame.drop(columns=params.label)
    text = [c for c in features.columns if not pd.api.types.is_numeric_dtype(features[c])]
    if text:
        raise DataError(f"dataset file: {path}: non-numeric features in column(s) {_listed(text)}; every column "
                        f"but the label column ({params.label}) must hold numbers")
    return labeled(path, features.to_numpy(np.float64), frame[params.label].to_numpy())


def read_svmlight(path: Path, params: ArrayFileConfig, budget: Optional[int]) -> Table:
    """LIBSVM/svmlight text, parsed sparse as the LIBSVM data sets are, its dense size checked
    before densifying."""
    parts, labels = parse_svmlight("file", [path], zero_based="auto")
    require_whole(path, *parts[0].shape, 8, budget)
    return svmlight_table(parts, labels, [path])


READERS = {".npz": read_npz, ".csv": read_frame, ".parquet": read_frame, **{s: read_svmlight for s in SVMLIGHT}}


@register_table("file", ArrayFileConfig)
def array_file(params: ArrayFileConfig) -> Table:
    """Your own array file (module docstring)."""
    return read_table(params)
