"""The training kernel matrix K = κ(X, X) as an operator, stored or recomputed in blocks.

Exact kernel k-means (:mod:`kktheory.kernel_kmeans`) only touches K through products
K[:, idx]·W (k columns at a time for the assignment step, a few columns for k-means++
seeding). :class:`Gram` answers them either from K held in memory — when the n×n matrix
fits the memory budget (``n²·itemsize ≤ budget``, the same test as
:meth:`Kernel.matrix`) — or by recomputing row blocks of κ(X, X[idx]) sized from the budget.
Both give the same numbers up to floating-point summation order.

Cost: stored, O(n²d) once to build K and O(n·|idx|·c) per product with c columns of W;
blocked, O(n·|idx|·d) per product with memory of one block. Products accumulate in
float64 whatever the kernel's dtype.
"""

from __future__ import annotations

import numpy as np

from kktheory import memory
from kktheory.kernels import Kernel


def gram_fits(n: int, dtype: str, budget: int) -> bool:
    """True when an n×n kernel matrix in ``dtype`` fits the memory budget."""
    return n * n * np.dtype(dtype).itemsize <= budget


class Gram:
    """K = κ(X, X) for the training points ``X``.

    ``store=None`` stores K when it fits the budget (see :func:`gram_fits`); ``True``
    forces storing (refused above the budget), ``False`` forces blocked recomputation.
    """

    def __init__(self, kernel: Kernel, X: np.ndarray, budget: int, store: bool | None = None) -> None:
        self.kernel = kernel
        self.X = np.asarray(X)
        self.budget = budget
        self.n = len(self.X)
        self.diag = kernel.diag(self.X)
        if store is None:
            store = gram_fits(self.n, kernel.dtype, budget)
        self.K: np.ndarray | None = kernel.matrix(self.X, self.X, budget) if store else None

    @property
    def stored(self) -> bool:
        """Whether K is held in memory."""
        return self.K is not None

    def columns(self, idx: np.ndarray) -> np.ndarray:
        """K[:, idx] as float64 (n × |idx|); |idx| should be small."""
        idx = np.asarray(idx, dtype=np.int64)
        if self.K is not None:  # K is symmetric: gather contiguous rows
            return self.K[idx].T.astype(np.float64)
        return self.kernel.matrix(self.X, self.X[idx], self.budget).astype(np.float64)

    def times(self, W: np.ndarray, idx: np.ndarray | None = None) -> np.ndarray:
        """K[:, idx] @ W in float64 (n × W.shape[1]); idx=None means all columns."""
        W = np.asarray(W, dtype=np.float64)
        if self.K is None:
            Y = self.X if idx is None else self.X[idx]
            out = np.empty((self.n, W.shape[1]))
            for sl, block in self.kernel.row_blocks(self.X, Y, self.budget):
                out[sl] = block.astype(np.float64, copy=False) @ W
            return out
        if idx is None:
            return (self.K @ W.astype(self.K.dtype, copy=False)).astype(np.float64, copy=False)
        idx = np.asarray(idx, dtype=np.int64)
        itemsize = self.K.dtype.itemsize
        step = memory.block_rows(self.n, itemsize, self.budget, len(idx))
        out = np.zeros((self.n, W.shape[1]))
        for s in range(0, len(idx), step):
            rows = self.K[idx[s : s + step]]  # = K[:, idx]ᵀ (K symmetric), contiguous
            out += (W[s : s + step].astype(self.K.dtype, copy=False).T @ rows).T
        return out
