"""Training rows that stay on disk: a uint8 ``.npy`` file read block by block as float32.

A data set larger than memory (8.1 million augmented MNIST images are 25 GB as float32
pixels, 6.4 GB as the uint8 file) is handed to a run as :class:`DiskRows`: an object with
the array interface the kernel's blocked passes use — ``len``, ``shape``, ``dtype`` and
row indexing (``X[a:b]``, ``X[index array]``, ``X[i]``) — where every index returns a fresh
float32 array ``scale · rows`` read from the file at that moment. Nothing is cached: a pass
over all rows holds one block of float32 plus its uint8 bytes, whatever n is.

Reads are plain file reads (``readinto`` at an offset), not a memory map: pages of a map
that a pass touches count as the process's resident memory until the kernel reclaims
them, so a pass over a 6.4 GB map would add up to 6.4 GB to the peak RSS a run reports;
file reads leave them in the page cache, which is not the process's memory.

Asking for the whole array (``np.asarray(X)``) is refused with a TypeError: the code paths
that accept disk rows (:func:`kktheory.run.config.check_disk_rows`) never do, and one that did
would silently allocate the n × d array this class exists to avoid.

The values equal the in-memory loader's float32 conversion bit for bit: ``float32(pixel)
/ float32(255)`` (division, not multiplication by the rounded reciprocal).

A DiskRows is also a :class:`~kktheory.datasets.sources.RowSource`: pickled, it is the
file's name, header offset, shape and divisor, so ``backend=dask`` sends it to the workers,
which read their row ranges from the file themselves (:meth:`DiskRows.rows`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from kktheory.datasets.sources import RowSource


def read_npy_header(f: BinaryIO) -> tuple[tuple[int, ...], bool, np.dtype]:
    """(shape, Fortran order, dtype) of the ``.npy`` stream ``f`` (a file, or a member of an
    ``.npz`` archive), which is left at the first byte of the data; nothing else is read."""
    fmt = np.lib.format
    version = fmt.read_magic(f)
    read_header = fmt.read_array_header_1_0 if version == (1, 0) else fmt.read_array_header_2_0
    return read_header(f)


class DiskRows(RowSource):
    """Rows of an n × d uint8 ``.npy`` file (C order), read on demand as float32 / divisor.

    ``n`` ≤ the file's row count takes the first n rows (a prefix of a larger file).
    """

    dtype = np.dtype(np.float32)  # uint8 / a finite divisor: finite, so the NaN/inf scan is skipped

    def __init__(self, path: str | Path, n: int | None = None, divisor: float = 255.0) -> None:
        self.path = str(path)
        with open(self.path, "rb") as f:
            shape, fortran, dtype = read_npy_header(f)
            self.offset = f.tell()
        if dtype != np.uint8 or fortran or len(shape) != 2:
            raise ValueError(f"{self.path}: expected a C-order 2-D uint8 array, found {dtype} {shape}")
        rows = shape[0] if n is None else n
        if not 0 <= rows <= shape[0]:
            raise ValueError(f"{self.path}: {rows} rows asked, the file holds {shape[0]}")
        self.shape = (int(rows), int(shape[1]))
        self.divisor = np.float32(divisor)

    @property
    def nbytes_float32(self) -> int:
        """What the rows would take in memory as float32 (never allocated)."""
        return self.shape[0] * self.shape[1] * 4

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        raise TypeError(
            f"{self.shape[0]}×{self.shape[1]} rows on disk ({self.path}) are read in blocks, "
            f"not whole ({self.nbytes_float32 / 2**30:.1f} GiB as float32)"
        )

    def __getitem__(self, key: Any) -> np.ndarray:
        n = self.shape[0]
        if isinstance(key, slice):
            start, stop, step = key.indices(n)
            if step == 1:
                return self._scaled(self._read_range(start, max(start, stop)))
            key = np.arange(start, stop, step)
        elif isinstance(key, (int, np.integer)):
            i = int(key) + (n if key < 0 else 0)
            if not 0 <= i < n:
                raise IndexError(f"row {key} of {n}")
            return self._scaled(self._read_range(i, i + 1))[0]
        idx = np.asarray(key)
        if idx.size == 0:
            idx = idx.astype(np.int64)
        if idx.dtype == bool:
            if idx.shape != (n,):
                raise IndexError(f"a boolean index of {n} rows, got shape {idx.shape}")
            idx = np.flatnonzero(idx)
        if idx.ndim != 1 or not np.issubdtype(idx.dtype, np.integer):
            raise IndexError(f"rows are indexed by a slice, an integer or a 1-D integer array, got {key!r}")
        idx = idx.astype(np.int64, copy=False)
        idx = np.where(idx < 0, idx + n, idx)
        if idx.size and (idx.min() < 0 or idx.max() >= n):
            raise IndexError(f"row indices outside 0..{n - 1}")
        return self._scaled(self._read_rows(idx))

    def rows(self, start: int, stop: int) -> np.ndarray:
        """Rows [start, stop) (``self[start:stop]``): one read of the file's row range."""
        return self[start:stop]

    def _scaled(self, raw: np.ndarray) -> np.ndarray:
        out = raw.astype(np.float32)
        out /= self.divisor
        return out

    def _read_range(self, start: int, stop: int) -> np.ndarray:
        d = self.shape[1]
        buf = np.empty((stop - start, d), dtype=np.uint8)
        if buf.size == 0:
            return buf
        with open(self.path, "rb") as f:
            f.seek(self.offset + start * d)
            if f.readinto(memoryview(buf).cast("B")) != buf.nbytes:
                raise OSError(f"{self.path}: short read of rows {start}..{stop}")
        return buf

    def _read_rows(self, idx: np.ndarray) -> np.ndarray:
        """Rows ``idx`` in the given order: sorted unique rows, runs of consecutive rows read together."""
        d = self.shape[1]
        order, inverse = np.unique(idx, return_inverse=True)
        buf = np.empty((len(order), d), dtype=np.uint8)
        if buf.size == 0:
            return buf
        breaks = np.flatnonzero(np.diff(order) != 1) + 1
        with open(self.path, "rb") as f:
            for lo, hi in zip(np.r_[0, breaks], np.r_[breaks, len(order)]):
                f.seek(self.offset + int(order[lo]) * d)
                if f.readinto(memoryview(buf[lo:hi]).cast("B")) != (hi - lo) * d:
                    raise OSError(f"{self.path}: short read at row {order[lo]}")
        return buf[inverse.reshape(-1)]
