"""Image segmentation (UCI; LIBSVM ``segment.scale``): 2310 regions × 19 attributes, 7 classes.

Used by Yin et al. 2022 Table 2 (the LIBSVM file, 70/30 split) and by Pourkamali-Anaraki &
Becker 2016 §5 / Fig. 3 (the UCI data, all 2310 rows, "attributes normalized to unit ℓ2
norm", homogeneous degree-2 polynomial kernel).

``source``:

- ``libsvm``: ``<data_dir>/libsvm/segment.scale`` (raw, .bz2 or .gz), labels 1..7;
- ``uci``: built from ``<data_dir>/uci_segment/segmentation.data`` (210 rows) and
  ``segmentation.test`` (2100 rows), each attribute min–max scaled over the 2310 rows to
  [−1, 1] as LIBSVM's ``svm-scale`` made ``segment.scale``:
  x' = −1 + 2·(x − min)/(max − min). A constant attribute (region-pixel-count is 9 for
  every row) is mapped to 0, which is what ``svm-scale`` leaves for it (it writes no
  value, i.e. 0 in the sparse format);
- ``uci_raw``: the UCI attributes as given (Pourkamali's starting point);
- ``auto`` (default): ``libsvm`` when the file is present, else ``uci``.

Classes are numbered in the Statlog/LIBSVM order brickface, sky, foliage, cement, window,
path, grass → 0..6. The UCI files are a 210/2100 split (usable with ``split=own``, only for
the UCI sources); the default split is the stratified 70/30 of all 2310 rows for every
source. Pourkamali's setting is the data set ``segment_pourkamali`` (the same reader with
``source=uci_raw normalize=l2_rows split=all``; use n = n_test = 2310 for all rows).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kktheory.datasets.base import FileConfig, Table, register_table, resolve_data_dir
from kktheory.datasets.libsvm import find_libsvm_file, libsvm_folder, read_libsvm
from kktheory.errors import ConfigError, DataError

SEGMENT_CLASSES = ("BRICKFACE", "SKY", "FOLIAGE", "CEMENT", "WINDOW", "PATH", "GRASS")
UCI_FILES = ("segmentation.data", "segmentation.test")
UCI_URL = "https://archive.ics.uci.edu/ml/machine-learning-databases/image"
SOURCES = ("auto", "libsvm", "uci", "uci_raw")
N_ATTRIBUTES = 19


@dataclass
class SegmentConfig(FileConfig):
    name: str = "segment"
    split: str = "stratified"
    source: str = "auto"  # auto | libsvm | uci | uci_raw (module docstring)


def read_uci_segment(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """(attributes, labels 0..6) of one UCI file: lines ``CLASS,19 numbers``; others skipped."""
    rows, labels = [], []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            head, _, rest = line.strip().partition(",")
            if head in SEGMENT_CLASSES:
                values = rest.split(",")
                if len(values) != N_ATTRIBUTES:
                    raise DataError(f"{path}:{number}: {len(values)} attributes, expected {N_ATTRIBUTES}")
                rows.append([float(v) for v in values])
                labels.append(SEGMENT_CLASSES.index(head))
            elif head and not head.startswith(";") and head != "REGION-CENTROID-COL":
                raise DataError(f"{path}:{number}: unknown class {head!r}")
    return np.array(rows, dtype=np.float64).reshape(-1, N_ATTRIBUTES), np.array(labels, dtype=np.int64)


def minmax_scale(X: np.ndarray, lower: float = -1.0, upper: float = 1.0) -> np.ndarray:
    """Every column mapped affinely onto [lower, upper] (svm-scale); constant columns → 0."""
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = hi - lo
    out = np.zeros_like(X, dtype=np.float64)
    varying = span > 0
    out[:, varying] = lower + (upper - lower) * (X[:, varying] - lo[varying]) / span[varying]
    return out


def uci_segment(data_dir: str | None, scaled: bool) -> Table:
    """The 2310 UCI rows (.data then .test), min–max scaled to [−1, 1] when ``scaled``."""
    folder = resolve_data_dir(data_dir) / "uci_segment"
    parts = []
    for name in UCI_FILES:
        path = folder / name
        if not path.is_file():
            raise DataError(
                f"dataset segment: neither {libsvm_folder(data_dir) / 'segment.scale'} nor {path} "
                f"exists (download segment.scale from https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/"
                f"datasets/multiclass/segment.scale, or {', '.join(UCI_FILES)} from {UCI_URL}/)"
            )
        parts.append(read_uci_segment(path))
    X = np.vstack([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    files = [str(folder / name) for name in UCI_FILES]
    return Table(minmax_scale(X) if scaled else X, y, len(parts[0][1]), 1.0,
                 {"files": files, "source": "uci" if scaled else "uci_raw"})


@dataclass
class SegmentPourkamaliConfig(SegmentConfig):
    """Pourkamali-Anaraki & Becker §5: the raw UCI rows at unit ℓ2 norm, scored in-sample."""

    name: str = "segment_pourkamali"
    source: str = "uci_raw"
    split: str = "all"
    normalize: str = "l2_rows"


@register_table("segment_pourkamali", SegmentPourkamaliConfig)
@register_table("segment", SegmentConfig)
def segment(params: SegmentConfig) -> Table:
    """Image segmentation from the LIBSVM file or the UCI files (module docstring)."""
    if params.source not in SOURCES:
        raise ConfigError("dataset.source", params.source, f"one of {', '.join(SOURCES)}")
    source = params.source
    if source == "auto":
        present = find_libsvm_file(libsvm_folder(params.data_dir), ("segment.scale",)) is not None
        source = "libsvm" if present else "uci"
    if source == "libsvm":
        table = read_libsvm("segment", params.data_dir)
        table.info["source"] = "libsvm"
        return table
    return uci_segment(params.data_dir, scaled=source == "uci")
