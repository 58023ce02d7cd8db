"""Squared distances to cluster means: in feature space, and in the RKHS by the kernel trick.

Shared by the clusterers (:mod:`kktheory.cluster.clusterers`), the sketches' partitions, the risks
(:mod:`kktheory.evaluation.risk`) and the backends.

- Feature space: c_j = (1/N_j) Σ_{l∈C_j} F_l (:func:`cluster_means`) and
  ‖F_i − c_j‖² (:func:`feature_sq_distances`), over float64 row chunks of F.
- RKHS (Yin et al. 2022, eq. 11): with Z_lj = 1/N_j for l ∈ C_j (:func:`membership`),
  S = κ(x, X)·Z and q_j = Z_jᵀ K Z_j, ‖φ(x) − c_j‖² = κ(x, x) − 2 S_xj + q_j
  (:func:`sq_dist_to_centroids`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kktheory.kernels.functions import row_chunks


def stacked_membership(labelings: Sequence[np.ndarray], k: int, n: int) -> np.ndarray:
    """[Z_1 … Z_M] (n × kM): columns i·k … i·k + k − 1 hold the membership matrix of
    ``labelings[i]``, Z_lj = 1/|C_j| for l ∈ C_j (zero columns for empty clusters)."""
    Z = np.zeros((n, k * len(labelings)))
    rows = np.arange(n)
    for i, labels in enumerate(labelings):
        labels = np.asarray(labels, dtype=np.int64)
        if len(labels) != n:
            raise ValueError(f"labeling {i} has {len(labels)} labels for {n} training points")
        sizes = np.bincount(labels, minlength=k).astype(np.float64)
        Z[rows, i * k + labels] = 1.0 / sizes[labels]
    return Z


def membership(labels: np.ndarray, k: int) -> np.ndarray:
    """Z with Z_lj = 1/|C_j| for l ∈ C_j (zero columns for empty clusters)."""
    return stacked_membership([labels], k, len(labels))


def sq_dist_to_centroids(diag: np.ndarray, S: np.ndarray, q: np.ndarray, nonempty: np.ndarray) -> np.ndarray:
    """‖φ(x) − c_j‖² = κ(x,x) − 2 S_xj + q_j; +inf for empty clusters; clipped at 0."""
    D = diag[:, None] - 2.0 * S + q[None, :]
    np.maximum(D, 0.0, out=D)
    D[:, ~nonempty] = np.inf
    return D


def cluster_means(F: np.ndarray, labels: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(k × r means of the rows of F per cluster, float64; cluster sizes). Empty: zero rows.

    Accumulated over float64 row chunks of F (no float64 copy of a float32 F): O(n·r·k)
    time through one small GEMM per chunk, memory one chunk.
    """
    labels = np.asarray(labels, dtype=np.int64)
    sizes = np.bincount(labels, minlength=k).astype(np.float64)
    sums = np.zeros((k, F.shape[1]))
    start = 0
    for chunk in row_chunks(F):
        rows = labels[start : start + len(chunk)]
        onehot = np.zeros((k, len(chunk)))
        onehot[rows, np.arange(len(chunk))] = 1.0
        sums += onehot @ chunk
        start += len(chunk)
    return sums / np.maximum(sizes, 1.0)[:, None], sizes


def feature_sq_distances(F: np.ndarray, C: np.ndarray) -> np.ndarray:
    """‖F_i − C_j‖² (n × k, float64, clipped at 0), over float64 row chunks of F."""
    cc = np.einsum("ij,ij->i", C, C)
    out = np.empty((len(F), len(C)))
    start = 0
    for chunk in row_chunks(F):
        D = out[start : start + len(chunk)]
        np.matmul(chunk, C.T, out=D)
        D *= -2.0
        D += np.einsum("ij,ij->i", chunk, chunk)[:, None]
        D += cc[None, :]
        np.maximum(D, 0.0, out=D)
        start += len(chunk)
    return out
