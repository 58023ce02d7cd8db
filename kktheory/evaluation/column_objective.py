"""The k-means objective of a partition over the columns of the kernel matrix (Wang, Gittens
& Mahoney 2019, §5.2).

Wang et al. score a partition J_1 … J_k of the n training points (Fig. 5, "objective values") by

    (1/n) Σ_{i=1..k} Σ_{j∈J_i} ‖k_j − (1/|J_i|) Σ_{l∈J_i} k_l‖₂²,

k_1 … k_n ∈ Rⁿ the columns of the kernel matrix K: the linear k-means cost of the columns of
K. It is also Yin et al. 2022 Lemma 6's W (the bound checks' ``kc_objective``). It is not
kktheory's ``objective``, the RKHS cost (1/n) Σ_i Σ_{j∈J_i} ‖φ_j − c_i‖² (Wang's f/n):
‖k_i − k_j‖² = (e_i − e_j)ᵀK²(e_i − e_j) is a distance under K², not K.

Expanding the squares, with 1_i the indicator vector of J_i and K symmetric,

    Σ_i Σ_{j∈J_i} ‖k_j − mean_{l∈J_i} k_l‖² = ‖K‖_F² − Σ_i ‖K 1_i‖²/|J_i|,

so one pass over row blocks K_B = K[B, :] gives it: ‖K_B‖_F² and the rows B of K·Z, Z = [Z_1 …
Z_M] the stacked memberships of M partitions (Z_li = 1/|J_i| on J_i,
:func:`~kktheory.kernels.geometry.stacked_membership`), whence ‖K 1_i‖²/|J_i| = |J_i|·‖K Z_i‖²
summed over the blocks. Empty clusters contribute nothing.

Cost: O(n²d) kernel evaluations and O(n²kM) for the products, the M partitions of a run in
one pass; memory one kernel block (:meth:`~kktheory.kernels.functions.Kernel.row_blocks`,
a share of the budget) and Z, n·kM float64 (:func:`memory_bytes`, checked against the budget
at validation, :func:`kktheory.run.config.check_column_objective`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from kktheory.kernels.functions import Kernel
from kktheory.kernels.geometry import stacked_membership
from kktheory.kernels.gram import block_times


def objectives_of_blocks(blocks: Iterable[np.ndarray], labelings: Sequence[np.ndarray], k: int) -> list[float]:
    """(‖K‖_F² − Σ_i ‖K 1_i‖²/|J_i|)/n for each partition ``labelings[p]`` (labels in 0..k−1),
    from the row blocks of K in order (module docstring); float64 sums, float32 blocks
    multiplied as :func:`~kktheory.kernels.gram.block_times` does."""
    n = len(labelings[0])
    Z = stacked_membership(labelings, k, n)
    sizes = np.concatenate([np.bincount(np.asarray(labels, dtype=np.int64), minlength=k)
                            for labels in labelings]).astype(np.float64)
    frobenius, start = 0.0, 0
    between = np.zeros(Z.shape[1])
    for block in blocks:
        rows = slice(start, start + len(block))
        start = rows.stop
        frobenius += float(np.einsum("ij,ij->", block, block, dtype=np.float64))
        S = block_times(block, Z)  # rows of K·Z
        between += sizes * np.einsum("ij,ij->j", S, S)
    if start != n:
        raise ValueError(f"the blocks hold {start} rows of K for {n} labels")
    return list((frobenius - between.reshape(len(labelings), k).sum(axis=1)) / n)


def column_objectives(kernel: Kernel, X: np.ndarray, labelings: Sequence[np.ndarray], k: int,
                      budget: int) -> list[float]:
    """Wang et al. §5.2's objective of every partition of the training points ``X`` with the
    kernel K = κ(X, X), in one pass over row blocks of K sized from ``budget``. The column
    side is X's rows whole (``X[:]``: rows on disk are read once)."""
    return objectives_of_blocks((block for _, block in kernel.row_blocks(X, X[:], budget, "objective (columns)")),
                                labelings, k)


def memory_bytes(n: int, k: int, partitions: int) -> int:
    """What :func:`column_objectives` holds besides its kernel block (a share of the budget):
    Z (n × k·partitions) and one block's products, float64 — at most twice Z."""
    return 2 * n * k * partitions * 8
