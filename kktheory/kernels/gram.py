"""Kernel matrices as operators, held in memory or recomputed in blocks.

Exact kernel k-means (:mod:`kktheory.cluster.kernel_kmeans`), the lifted risk (:mod:`kktheory.evaluation.risk`)
and the iterative eigen-solvers (:mod:`kktheory.kernels.spectrum`, the bound checks) only touch
kernel matrices through products A·W with a few columns (A = κ(X, Y), W with k columns, or
a block of vectors). :class:`KernelBlock` answers them either from A held in memory or by
recomputing row blocks of A sized from the memory budget; :class:`Gram` is the square
training matrix K = κ(X, X), with column access for k-means++ seeding and
:meth:`Gram.operator` for ARPACK.

- Held: building A costs O(|X|·|Y|·d) once (BLAS, row blocks), each product
  O(|X|·|Y|·c) for c columns of W — a GEMM instead of a kernel evaluation.
- Blocked: every product costs O(|X|·|Y|·d) with memory one block. The blocks run over
  the longer of X and Y, so that a product with a few points against a large (possibly
  memory-mapped) training set never converts that set as a whole.

Products are returned in float64. With float32 kernels they are float32 GEMMs whose
partial sums over ``INNER_CHUNK`` terms are accumulated in float64 (:func:`block_times`),
or, with ``widen=True`` (Lanczos, which needs a linear operator), float64 GEMMs on the
float32 entries.

:func:`approximation_error` is the relative Frobenius error of a factorisation K ≈ FFᵀ
(Pourkamali-Anaraki & Becker 2017, Table 1 and Fig. 3(a)), in one pass over row blocks.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.sparse.linalg import LinearOperator

from kktheory.machine import memory
from kktheory.kernels.functions import Kernel

#: terms of the inner dimension summed in float32 before float64 accumulation
INNER_CHUNK = 2048


def gram_fits(n: int, dtype: str, budget: int) -> bool:
    """True when an n×n kernel matrix in ``dtype`` fits the memory budget."""
    return n * n * np.dtype(dtype).itemsize <= budget


def block_times(A: np.ndarray, W: np.ndarray, *, widen: bool = False) -> np.ndarray:
    """A @ W in float64 (len(A) × W.shape[1]) for a float64 W.

    float64 A, or ``widen``: one float64 GEMM (a float32 A widened to float64 — exact
    products of its entries, so the map W ↦ A W is linear to float64 round-off, as
    Lanczos needs).
    Otherwise, for a float32 A: float32 GEMMs over chunks of ``INNER_CHUNK`` terms of
    the inner dimension, each partial product added into a float64 result — the speed of
    a float32 GEMM (converting A to float64 cost 3.5× as much on a 20000 × 20000 matrix,
    benchmarks/README.md), with float32 rounding only within a chunk: relative error at
    most INNER_CHUNK·ε₃₂ ≈ 2.4e-4 per partial sum in the worst case, about
    √INNER_CHUNK·ε₃₂ ≈ 4e-6 in practice, the order of the float32 kernel entries' own
    rounding over such sums.
    """
    if A.dtype == np.float64 or widen:
        return A @ W
    W32 = W.astype(A.dtype)
    out = np.zeros((A.shape[0], W.shape[1]))
    for s in range(0, A.shape[1], INNER_CHUNK):
        out += A[:, s : s + INNER_CHUNK] @ W32[s : s + INNER_CHUNK]
    return out


def approximation_error(kernel: Kernel, X: np.ndarray, F: np.ndarray, budget: int) -> float:
    """‖K − FFᵀ‖_F / ‖K‖_F for K = κ(X, X) and features F (n × r) of the points X.

    The kernel approximation error of Pourkamali-Anaraki & Becker 2017 (Table 1, Fig. 3(a):
    "normalized approximation error of the kernel matrix ‖K − K̂‖_F/‖K‖_F") for K̂ = FFᵀ.
    One pass over row blocks of K, each block's residual K_b − F_b Fᵀ summed directly in
    float64 (no cancellation between ‖K‖² and tr(FᵀKF)); a block takes a sixth of the
    budget in the kernel's dtype, with its float64 copy and F_b Fᵀ at most 5/6 in all.
    O(n²(d + r)) time. The column side is X's rows whole (``X[:]``: rows on disk,
    :class:`~kktheory.datasets.disk_rows.DiskRows`, are read once — n is small for this pass).
    0 when FFᵀ = K exactly (also for K = 0).
    """
    F = np.asarray(F, dtype=np.float64)
    k2 = e2 = 0.0
    for sl, block in kernel.row_blocks(X, X[:], budget // 6):
        E = np.array(block, dtype=np.float64)
        k2 += float(np.einsum("ij,ij->", E, E))
        E -= F[sl] @ F.T
        e2 += float(np.einsum("ij,ij->", E, E))
    return 0.0 if e2 == 0 else math.sqrt(e2 / k2) if k2 > 0 else math.inf


class KernelBlock:
    """A = κ(X, Y) for products A·W; held when ``store`` (checked against the budget)."""

    def __init__(
        self, kernel: Kernel, X: np.ndarray, Y: np.ndarray, budget: int,
        store: bool = False, desc: str | None = None,
    ) -> None:
        self.kernel = kernel
        self.X = X
        self.Y = Y
        self.budget = budget
        self.desc = desc
        self.A: np.ndarray | None = kernel.matrix(X, Y, budget) if store else None

    @property
    def stored(self) -> bool:
        """Whether A is held in memory."""
        return self.A is not None

    def times(self, W: np.ndarray, *, widen: bool = False) -> np.ndarray:
        """A @ W in float64 (len(X) × W.shape[1]); ``widen``: see :func:`block_times`."""
        W = np.asarray(W, dtype=np.float64)
        if self.A is not None:
            return block_times(self.A, W, widen=widen)
        out = np.zeros((len(self.X), W.shape[1]))
        if len(self.Y) <= len(self.X):
            for sl, block in self.kernel.row_blocks(self.X, self.Y, self.budget, desc=self.desc):
                out[sl] = block_times(block, W, widen=widen)
        else:  # few rows against many columns: blocks of κ(Y, X) = Aᵀ
            for sl, block in self.kernel.row_blocks(self.Y, self.X, self.budget, desc=self.desc):
                out += block_times(block.T, W[sl], widen=widen)
        return out


class Gram(KernelBlock):
    """K = κ(X, X) for the training points ``X``: the one kernel operator of the package
    (kernel k-means, the lifted risks, the eigen-solvers of :mod:`kktheory.kernels.spectrum`).

    ``store=None`` stores K when it fits the budget (see :func:`gram_fits`); ``True``
    forces storing (refused above the budget), ``False`` forces blocked recomputation;
    ``matrix`` is K already in memory (then held, whatever ``store``).
    Cost: stored, O(n²d) once and O(n·|idx|·c) per product with c columns of W; blocked,
    O(n·|idx|·d) per product with memory of one block.
    """

    def __init__(
        self, kernel: Kernel, X: np.ndarray, budget: int, store: bool | None = None,
        matrix: np.ndarray | None = None,
    ) -> None:
        if store is None:
            store = gram_fits(len(X), kernel.dtype, budget)
        super().__init__(kernel, X, X, budget, store and matrix is None)
        if matrix is not None:
            self.A = matrix
        self.n = len(X)
        self.diag = kernel.diag(X)

    def operator(self) -> np.ndarray | LinearOperator:
        """K for an iterative eigen-solver (ARPACK): the held matrix itself, or a float64
        :class:`~scipy.sparse.linalg.LinearOperator` whose products recompute K in row
        blocks, each widened to float64 so that the operator is linear to float64 round-off
        (``times(V, widen=True)``; float32 partial sums would not be)."""
        if self.A is not None:
            return self.A

        def matmat(V: np.ndarray) -> np.ndarray:
            return self.times(np.reshape(V, (self.n, -1)), widen=True)

        return LinearOperator((self.n, self.n), matvec=matmat, matmat=matmat, rmatvec=matmat, dtype=np.float64)

    @property
    def K(self) -> np.ndarray | None:
        """The held matrix, or None."""
        return self.A

    def columns(self, idx: np.ndarray) -> np.ndarray:
        """K[:, idx] as float64 (n × |idx|); |idx| should be small."""
        idx = np.asarray(idx, dtype=np.int64)
        if self.A is not None:  # K is symmetric: gather contiguous rows
            return self.A[idx].T.astype(np.float64)
        return self.kernel.matrix(self.X, self.X[idx], self.budget).astype(np.float64)

    def times(self, W: np.ndarray, idx: np.ndarray | None = None, *, widen: bool = False) -> np.ndarray:
        """K[:, idx] @ W in float64 (n × W.shape[1]); idx=None means all columns (``widen``:
        see :func:`block_times`)."""
        if idx is None:
            return super().times(W, widen=widen)
        W = np.asarray(W, dtype=np.float64)
        idx = np.asarray(idx, dtype=np.int64)
        if self.A is None:
            return KernelBlock(self.kernel, self.X, self.X[idx], self.budget).times(W, widen=widen)
        itemsize = self.A.dtype.itemsize
        step = memory.block_rows(self.n, itemsize, self.budget, len(idx))
        out = np.zeros((self.n, W.shape[1]))
        for s in range(0, len(idx), step):
            rows = self.A[idx[s : s + step]]  # = K[:, idx]ᵀ (K symmetric), contiguous
            out += block_times(rows.T, W[s : s + step], widen=widen)
        return out
