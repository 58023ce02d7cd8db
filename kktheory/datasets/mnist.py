"""MNIST (LeCun & Cortes): IDX files from the data folder, else OpenML.

Files (gzip-compressed ``.gz`` or raw), looked for in ``<data_dir>/mnist/`` and then in
``<data_dir>/`` itself (data folder: :func:`~kktheory.datasets.base.resolve_data_dir`)::

    train-images-idx3-ubyte   train-labels-idx1-ubyte   (60000 images 28×28, uint8)
    t10k-images-idx3-ubyte    t10k-labels-idx1-ubyte    (10000 images)

When any is absent and ``download=true``, ``sklearn.datasets.fetch_openml("mnist_784")``
is used with its cache (``~/scikit_learn_data``; ``parser="auto"``, which is pandas for this
dense ARFF file in scikit-learn ≥ 1.4): its 70000 rows are the training images followed by
the test images. When that fails too, a :class:`DataError` names the four
files and the folder searched, on one line (scikit-learn's warnings during the fetch are
silenced).

The table holds the 70000 images as uint8 (60000 training rows first, own split
60000/10000); the selected rows become float64 pixels / 255 in [0, 1], as Calandriello &
Rosasco (§5: "we divide each pixel by 255") and Wang et al. do. Decoding the gzip files
takes about 0.35 s, so nothing is cached. Label counts of the original distribution:
training [5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949], test [980, 1135,
1032, 1010, 982, 892, 958, 1028, 974, 1009].
"""

from __future__ import annotations

import gzip
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kktheory.datasets.base import FileConfig, Table, find_file, register_table, resolve_data_dir
from kktheory.errors import DataError

MNIST_FILES = (
    "train-images-idx3-ubyte",
    "train-labels-idx1-ubyte",
    "t10k-images-idx3-ubyte",
    "t10k-labels-idx1-ubyte",
)
N_TRAIN, N_TEST = 60000, 10000
READ_BLOCK = 2**20  # bytes decoded per read (gzip allocates a buffer of the request size)
# IDX type codes (the third magic byte) → big-endian numpy dtypes
IDX_DTYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


@dataclass
class MnistConfig(FileConfig):
    name: str = "mnist"
    download: bool = True  # fetch from OpenML when the IDX files are absent


def read_idx(path: Path, out: np.ndarray | None = None) -> np.ndarray:
    """An IDX file (raw or ``.gz``) as an array of its shape and type, optionally into ``out``.

    Format: two zero bytes, a type code, the number of dimensions, the dimensions as
    big-endian int32, then the data in row-major order. The data are read straight into
    the result (``out`` when given: its size must match and its dtype be the file's), so
    decoding needs no memory beyond the array.
    """
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rb") as f:
            magic = f.read(4)
            if len(magic) < 4 or magic[:2] != b"\0\0" or magic[2] not in IDX_DTYPES:
                raise DataError(f"{path} is not an IDX file (magic {magic.hex()})")
            shape = tuple(int(d) for d in np.frombuffer(f.read(4 * magic[3]), ">i4"))
            dtype = np.dtype(IDX_DTYPES[magic[2]])
            if out is None:
                out = np.empty(shape, dtype.newbyteorder("="))
            elif out.size != int(np.prod(shape)) or out.dtype.itemsize != dtype.itemsize:
                raise DataError(f"{path}: shape {shape} of {dtype} does not fit {out.shape} of {out.dtype}")
            view = memoryview(out.reshape(-1).view(np.uint8))
            got = 0
            while got < out.nbytes and (step := f.readinto(view[got:got + READ_BLOCK])):
                got += step
            if got != out.nbytes or f.read(1):
                raise DataError(f"{path}: data size does not match shape {shape} of {dtype}")
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc}") from exc
    if dtype.byteorder == ">" and dtype.itemsize > 1:  # stored big-endian: swap to native
        out.byteswap(inplace=True)
    return out.reshape(shape)


def _from_idx(folders: list[Path]) -> tuple[np.ndarray, np.ndarray, list[str]] | None:
    paths = [find_file(folders, [f"{name}.gz", name]) for name in MNIST_FILES]
    if any(p is None for p in paths):
        return None
    images = np.empty((N_TRAIN + N_TEST, 784), np.uint8)
    labels = np.empty(N_TRAIN + N_TEST, np.uint8)
    read_idx(paths[0], images[:N_TRAIN])
    read_idx(paths[1], labels[:N_TRAIN])
    read_idx(paths[2], images[N_TRAIN:])
    read_idx(paths[3], labels[N_TRAIN:])
    return images, labels.astype(np.int64), [str(p) for p in paths]


def _from_openml() -> tuple[np.ndarray, np.ndarray]:
    """OpenML's mnist_784; scikit-learn's UserWarnings during the fetch (e.g. "A network
    error occurred … Retrying") are silenced: a failure is reported in the one-line error."""
    from sklearn.datasets import fetch_openml

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        X, y = fetch_openml("mnist_784", version=1, as_frame=False, return_X_y=True, parser="auto")
    images = np.asarray(X).astype(np.uint8)
    if images.shape != (N_TRAIN + N_TEST, 784) or not np.array_equal(images, X):
        raise ValueError(f"unexpected OpenML mnist_784 data: shape {np.shape(X)}, not 0..255 integers")
    return images, np.asarray(y).astype(np.int64)


def mnist_arrays(data_dir: str | None, download: bool) -> tuple[np.ndarray, np.ndarray, dict]:
    """(70000 × 784 uint8 images, labels 0..9, info): training rows first, then test rows."""
    root = resolve_data_dir(data_dir)
    found = _from_idx([root / "mnist", root])
    if found is not None:
        images, labels, paths = found
        return images, labels, {"source": "idx", "files": paths}
    reason = "OpenML download disabled (dataset.download=false)"
    if download:
        try:
            images, labels = _from_openml()
            return images, labels, {"source": "openml:mnist_784"}
        except Exception as exc:  # network, cache or parser failure: report it in the one line
            reason = f"OpenML fetch of mnist_784 failed: {type(exc).__name__}: {exc}"
    raise DataError(
        f"MNIST not found: expected {', '.join(MNIST_FILES)} (each raw or .gz) in "
        f"{root / 'mnist'} or {root}; {reason}. Set dataset.data_dir or KKTHEORY_DATA "
        "to the folder holding them."
    )


@register_table("mnist", MnistConfig)
def mnist(params: MnistConfig) -> Table:
    """MNIST: 70000 × 784 uint8 (/255 on selection), own split 60000/10000."""
    images, labels, info = mnist_arrays(params.data_dir, params.download)
    return Table(images, labels, N_TRAIN, 255.0, info)
