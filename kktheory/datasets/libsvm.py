"""LIBSVM data sets (Chang & Lin), the real data of Yin et al. 2022 Table 2 and Wang et al. 2019.

Files are read with ``sklearn.datasets.load_svmlight_files`` from ``<data_dir>/libsvm/``
(data folder: :func:`~kktheory.datasets.base.resolve_data_dir`), raw or compressed
(``.bz2`` and ``.gz`` are accepted, as the LIBSVM site distributes the large ones), with
the number of features fixed per data set so that training and test files agree, and
converted to dense float64 arrays. Features are used as given. Labels are mapped to
0..C−1 in the order of their sorted original values (e.g. −1 → 0, +1 → 1).

==========  ======================  =====================  ==========  =======  ===============
config      files (train, test)     rows (train / test)    features    classes  LIBSVM page
==========  ======================  =====================  ==========  =======  ===============
dna         dna.scale, dna.scale.t  2000 / 1186            180         3        multiclass
segment     segment.scale           2310                   19          7        multiclass (see
                                                                                segment.py)
mushrooms   mushrooms               8124                   112         2        binary
pendigits   pendigits.scale, .t     7494 / 3498            16          10       multiclass
protein     protein, protein.t      17766 / 6621           357         3        multiclass
a8a         a8a, a8a.t              22696 / 9865           123         2        binary
w7a         w7a, w7a.t              24692 / 25057          300         2        binary
connect4    connect-4               67557                  126         3        multiclass
covtype     covtype.scale           581012                 54          7        multiclass
==========  ======================  =====================  ==========  =======  ===============

Splits: the files' own train/test split where there is one (``split=auto``), otherwise a
seeded stratified 70/30 split. Yin et al. §5.2 split every data set 70/30; their instance
counts are those of both files pooled for pendigits (10992), a8a (32561) and w7a (49749)
(``split=stratified``) and of the training file alone for dna (2000) and protein (17766)
(``split=stratified pool=train``). covtype is the 7-class multiclass file, as in Yin's
table (the binary ``covtype.libsvm.binary.scale`` is a different problem). pendigits on
the LIBSVM site is ``pendigits``/``pendigits.t`` with features 0..100; ``pendigits.scale``
(features / 100, in ../shared/datasets) is read first when both are present.

Missing files end with one :class:`DataError` naming each missing file (with the other
names accepted for it), the folder, and each file's URL on the LIBSVM site.
Parsed tables are cached on disk (:mod:`kktheory.datasets.table_cache`): a8a's 1.3 s of
parsing becomes a memory-mapped read.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import numpy as np

from kktheory.datasets.base import FileConfig, Table, encode_labels, find_file, register_table, resolve_data_dir
from kktheory.datasets.table_cache import cached_table
from kktheory.errors import DataError

LIBSVM_URL = "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets"
COMPRESSED = ("", ".bz2", ".gz")


@dataclass(frozen=True)
class LibsvmSpec:
    """Files of one LIBSVM data set: candidate names of each part, in order of preference;
    the last is the file's name on the LIBSVM site (``<page>/<name><site_ext>``)."""

    train: tuple[str, ...]
    test: Optional[tuple[str, ...]]
    n_features: int
    page: str  # "binary" or "multiclass" on the LIBSVM site
    site_ext: str = ""  # compression of the files on the site


LIBSVM: dict[str, LibsvmSpec] = {
    "dna": LibsvmSpec(("dna.scale",), ("dna.scale.t",), 180, "multiclass"),
    "segment": LibsvmSpec(("segment.scale",), None, 19, "multiclass"),
    "mushrooms": LibsvmSpec(("mushrooms",), None, 112, "binary"),
    "pendigits": LibsvmSpec(("pendigits.scale", "pendigits"), ("pendigits.scale.t", "pendigits.t"), 16, "multiclass"),
    "protein": LibsvmSpec(("protein",), ("protein.t",), 357, "multiclass", ".bz2"),
    "a8a": LibsvmSpec(("a8a",), ("a8a.t",), 123, "binary"),
    "w7a": LibsvmSpec(("w7a",), ("w7a.t",), 300, "binary"),
    "connect4": LibsvmSpec(("connect-4",), None, 126, "multiclass"),
    "covtype": LibsvmSpec(("covtype.scale",), None, 54, "multiclass", ".bz2"),
}


@dataclass
class LibsvmConfig(FileConfig):
    """Config of the LIBSVM data sets (``name`` selects the files, see the module table)."""


def libsvm_folder(data_dir: Optional[str]) -> Path:
    """``<data folder>/libsvm``."""
    return resolve_data_dir(data_dir) / "libsvm"


def find_libsvm_file(folder: Path, names: tuple[str, ...]) -> Optional[Path]:
    """The first of ``names`` present in ``folder``, raw or compressed."""
    return find_file([folder], [name + ext for name in names for ext in COMPRESSED])


def _require(name: str, spec: LibsvmSpec, folder: Path) -> list[Path]:
    """The training file, then the test file if the data set has one; a DataError naming
    every missing part (each with its other accepted names) and the URLs to download."""
    parts = [spec.train] if spec.test is None else [spec.train, spec.test]
    paths = [find_libsvm_file(folder, names) for names in parts]
    missing = [names for names, path in zip(parts, paths) if path is None]
    if missing:
        files = " and ".join(names[0] + (f" (or {', '.join(names[1:])})" if len(names) > 1 else "") for names in missing)
        urls = " and ".join(f"{LIBSVM_URL}/{spec.page}/{names[-1]}{spec.site_ext}" for names in missing)
        raise DataError(
            f"dataset {name}: {'file' if len(missing) == 1 else 'files'} {files} not found in {folder} "
            f"(download {urls}; raw, .bz2 or .gz are read; set dataset.data_dir or KKTHEORY_DATA "
            "to the folder holding libsvm/)"
        )
    return [path for path in paths if path is not None]


def parse_svmlight(name: str, paths: list[Path], n_features: Optional[int] = None,
                   zero_based: bool | str = False) -> tuple[list[Any], np.ndarray]:
    """The sparse feature rows of each svmlight/LIBSVM file (``sklearn.datasets.load_svmlight_files``:
    ``n_features`` None takes the largest index; ``zero_based="auto"`` reads 0-based files too)
    and the labels of all of them; a file that does not parse is a DataError naming the files."""
    from sklearn.datasets import load_svmlight_files

    try:
        parts = load_svmlight_files([str(p) for p in paths], n_features=n_features, zero_based=zero_based)
    except ValueError as exc:
        raise DataError(f"dataset {name}: cannot parse {', '.join(map(str, paths))}: {exc}") from exc
    return list(parts[0::2]), np.concatenate(parts[1::2])


def svmlight_table(parts: list[Any], labels: np.ndarray, paths: list[Path]) -> Table:
    """The parsed files as one dense float64 table, labels 0..C−1; with several files the first
    is the source's own training part."""
    X = np.vstack([m.toarray() for m in parts])
    y, classes = encode_labels(labels)
    n_own = parts[0].shape[0] if len(parts) > 1 else None
    return Table(X, y, n_own, 1.0, {"files": [str(p) for p in paths], "classes": classes.tolist()})


def read_libsvm(name: str, data_dir: Optional[str]) -> Table:
    """The LIBSVM data set ``name`` as a table (training file first, then the test file)."""
    spec = LIBSVM[name]
    paths = _require(name, spec, libsvm_folder(data_dir))

    def parse() -> Table:
        return svmlight_table(*parse_svmlight(name, paths, spec.n_features), paths)

    return cached_table(f"libsvm-{name}", paths, parse)


def _register(name: str) -> None:
    def read(params: LibsvmConfig) -> Table:
        return read_libsvm(name, params.data_dir)

    read.__doc__ = f"LIBSVM {name} (module table)."
    register_table(name, LibsvmConfig)(read)


for _name in LIBSVM:
    if _name != "segment":  # segment has its own loader (LIBSVM file or the UCI files)
        _register(_name)
