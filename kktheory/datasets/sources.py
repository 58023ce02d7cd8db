"""Rows of a data set read where they are computed: what ``backend=dask`` hands its workers.

A :class:`RowSource` is one part (training or test points) of a data draw, described by
what its rows are read from — a file name and a row range, or a table data set's config
and the state of the run's data stream — never by the rows themselves. Its pickled form is
a few hundred bytes whatever n is, so a Dask task ``source.rows(a, b)`` can carry it to a
worker, which reads rows [a, b) there, from the data set's files (they must be at the same
path on the client and on the workers: a shared filesystem). ``rows(a, b)`` equals rows
[a, b) of the array the in-memory loader returns (same dtype, scaling, row order and
split), bit for bit.

The sources (the loaders of :data:`kktheory.datasets.base.ROW_SOURCES` called with ``sources=True``):

- :class:`~kktheory.datasets.disk_rows.DiskRows`: a uint8 ``.npy`` file read in row
  ranges as float32 / divisor (the augmented MNIST images, training and augmented test);
- :class:`~kktheory.datasets.base.TableRows`: a table data set (MNIST, LIBSVM, segment,
  digits): the process reading it reads and parses the source file itself (once per
  process, kept for the process's later chunks), repeats the split and the subsampling
  with the data stream's starting state, and selects and scales rows [a, b) of the draw.

Data sets without a source loader (the generated ones: their points are drawn in one
sequence from the run's stream, so no chunk can be drawn alone) are drawn on the client as
before, and so are augmented MNIST's original MNIST test digits (``test_set=mnist``, at
most 10,000); :func:`kktheory.run.dask.as_rows_array` scatters their chunks to the
workers.
"""

from __future__ import annotations

from typing import Any

import numpy as np


class RowSource:
    """An n × d part of a data draw whose rows [a, b) are read on demand (module docstring).

    Subclasses set ``shape`` and ``dtype`` and implement :meth:`rows`. Sources are finite
    by construction (uint8 pixels / 255; table rows scanned for NaN/inf when the draw was
    made), so :func:`kktheory.datasets.base.check_loaded` does not read them.
    """

    ndim = 2
    finite = True
    shape: tuple[int, int]
    dtype: np.dtype

    def __len__(self) -> int:
        return self.shape[0]

    def rows(self, start: int, stop: int) -> np.ndarray:
        """Rows [start, stop) as the in-memory loader's array holds them."""
        raise NotImplementedError

    def held(self) -> np.ndarray:
        """All rows in memory, for the steps that need them in one place (the reference)."""
        return self.rows(0, len(self))


def held(X: Any) -> Any:
    """``X`` in memory: the rows of a :class:`RowSource`, anything else as it is."""
    return X.held() if isinstance(X, RowSource) else X
