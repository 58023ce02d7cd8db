"""Clustering risk in the RKHS with lifted centroids, through the kernel trick (DESIGN §3.4).

A partition C_1..C_k of the training set defines lifted centroids c_j = (1/|C_j|) Σ_{l∈C_j} φ_l
(Yin et al. 2022, eq. 11), and for any point x

    ‖φ(x) − c_j‖² = κ(x, x) − (2/|C_j|) Σ_{l∈C_j} κ(x, x_l) + (1/|C_j|²) Σ_{l,l'∈C_j} κ(x_l, x_l').

With Z the n×k matrix Z_lj = 1/|C_j| if l ∈ C_j (0 otherwise), the middle term is
2·(κ(x, X) Z)_j and the last is q_j = (ZᵀKZ)_jj. Reported (Calandriello eq. 1, Wang's f/n):

- ``train_risk`` = W(C, μ_n) = (1/n) Σ_i min_j ‖φ_i − c_j‖²  (nearest centroid),
- ``objective``  = (1/n) Σ_j Σ_{i∈C_j} ‖φ_i − c_j‖²           (cost of the returned partition),
- ``test_risk``  = W(C, μ_test), and the test labels argmin_j ‖φ(x) − c_j‖².

One pass over row blocks of κ(X_train, X_train) gives the train quantities and q, one pass
over κ(X_test, X_train) the test ones: O((n + n_test)·n·d) time, memory of one block
(sized from the budget) plus O((n + n_test)·k). Empty clusters have no centroid.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kktheory.kernels import Kernel


@dataclass
class LiftedRisk:
    """Risks of a partition and the nearest-centroid labels of train and test points."""

    train_risk: float
    objective: float
    test_risk: float
    train_nearest: np.ndarray
    test_labels: np.ndarray


def membership(labels: np.ndarray, k: int) -> np.ndarray:
    """Z with Z_lj = 1/|C_j| for l ∈ C_j (zero columns for empty clusters)."""
    sizes = np.bincount(labels, minlength=k).astype(np.float64)
    Z = np.zeros((len(labels), k))
    Z[np.arange(len(labels)), labels] = 1.0 / sizes[labels]
    return Z


def _cross_sums(kernel: Kernel, X: np.ndarray, X_train: np.ndarray, Z: np.ndarray, budget: int, desc: str) -> np.ndarray:
    """S = κ(X, X_train) Z, in row blocks (float64 accumulation)."""
    S = np.empty((len(X), Z.shape[1]))
    for sl, block in kernel.row_blocks(X, X_train, budget, desc=desc):
        S[sl] = block.astype(np.float64, copy=False) @ Z
    return S


def sq_dist_to_centroids(diag: np.ndarray, S: np.ndarray, q: np.ndarray, nonempty: np.ndarray) -> np.ndarray:
    """‖φ(x) − c_j‖² = κ(x,x) − 2 S_xj + q_j; +inf for empty clusters; clipped at 0."""
    D = diag[:, None] - 2.0 * S + q[None, :]
    np.maximum(D, 0.0, out=D)
    D[:, ~nonempty] = np.inf
    return D


def lifted_risk(
    kernel: Kernel,
    X_train: np.ndarray,
    labels: np.ndarray,
    X_test: np.ndarray,
    k: int,
    budget: int,
) -> LiftedRisk:
    """Exact lifted train risk, objective and test risk of a partition (blocked)."""
    labels = np.asarray(labels, dtype=np.int64)
    Z = membership(labels, k)
    nonempty = np.bincount(labels, minlength=k) > 0
    S_train = _cross_sums(kernel, X_train, X_train, Z, budget, "risk (train)")
    q = np.einsum("ij,ij->j", Z, S_train)
    D_train = sq_dist_to_centroids(kernel.diag(X_train), S_train, q, nonempty)
    S_test = _cross_sums(kernel, X_test, X_train, Z, budget, "risk (test)")
    D_test = sq_dist_to_centroids(kernel.diag(X_test), S_test, q, nonempty)
    return LiftedRisk(
        train_risk=float(D_train.min(axis=1).mean()),
        objective=float(D_train[np.arange(len(labels)), labels].mean()),
        test_risk=float(D_test.min(axis=1).mean()),
        train_nearest=D_train.argmin(axis=1),
        test_labels=D_test.argmin(axis=1),
    )
