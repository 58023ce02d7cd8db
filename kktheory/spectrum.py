"""Top eigenpairs of a kernel matrix without a dense n×n eigendecomposition.

:func:`top_eigenpairs` returns the s largest eigenvalues λ_1 ≥ … ≥ λ_s of K = κ(X, X) and
their eigenvectors, by implicitly restarted Lanczos (ARPACK, ``scipy.sparse.linalg.eigsh``,
``which="LA"``). The operator is

- the stored K when n² entries fit the memory budget: each matvec costs O(n²);
- otherwise a :class:`~scipy.sparse.linalg.LinearOperator` whose product recomputes K in
  row blocks sized from the budget: memory O(block + n·s), each matvec O(n²d).

A dense ``numpy.linalg.eigh`` (O(n³) time) is used only when 2s ≥ n — half the spectrum
or more is asked for, where Lanczos has no advantage and ARPACK needs s < n — and it is
guarded by the memory budget. ARPACK's start vector is drawn from the caller's generator,
so results are reproducible. Used by KPCA (Wang et al. 2019, Prop. 3), leverage-score
sketching (Wang Table 2) and the trace-norm bounds.
"""

from __future__ import annotations

import numpy as np
from scipy.sparse.linalg import LinearOperator, eigsh

from kktheory import memory
from kktheory.gram import gram_fits
from kktheory.kernels import Kernel


def kernel_operator(kernel: Kernel, X: np.ndarray, budget: int) -> LinearOperator:
    """K = κ(X, X) as a LinearOperator; products recompute K in row blocks (float64)."""
    n = len(X)

    def matmat(V: np.ndarray) -> np.ndarray:
        V = np.asarray(V, dtype=np.float64).reshape(n, -1)
        out = np.empty((n, V.shape[1]))
        for sl, block in kernel.row_blocks(X, X, budget):
            out[sl] = block @ V
        return out

    return LinearOperator((n, n), matvec=matmat, matmat=matmat, rmatvec=matmat, dtype=np.float64)


def top_eigenpairs(
    kernel: Kernel,
    X: np.ndarray,
    s: int,
    budget: int,
    rng: np.random.Generator,
    K: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(λ, V): the s largest eigenvalues of κ(X, X) in decreasing order, V n×s orthonormal.

    ``K``, when given, is the kernel matrix already in memory. The result is float64.
    """
    n = len(X)
    if not 1 <= s <= n:
        raise ValueError(f"top_eigenpairs needs 1 ≤ s ≤ n={n}, got s={s}")
    if 2 * s >= n:
        memory.require(
            n * n * 8 * 2, budget, f"a dense eigendecomposition of the {n}×{n} kernel matrix",
            "use a smaller s or n",
        )
        if K is None:
            K = kernel.matrix(X, X, budget)
        lam, V = np.linalg.eigh(np.asarray(K, dtype=np.float64))
        return lam[::-1][:s].copy(), V[:, ::-1][:, :s].copy()
    if K is None and gram_fits(n, kernel.dtype, budget):
        K = kernel.matrix(X, X, budget)
    op = K if K is not None else kernel_operator(kernel, X, budget)
    v0 = rng.uniform(-1.0, 1.0, size=n)
    lam, V = eigsh(op, k=s, which="LA", v0=v0.astype(op.dtype))
    order = np.argsort(lam)[::-1]
    return lam[order].astype(np.float64), V[:, order].astype(np.float64)
