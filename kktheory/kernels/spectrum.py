"""Eigenvalues and traces of kernel matrices, without a dense n×n eigendecomposition.

The iterative solvers reach K = κ(X, X) through products only — :class:`kktheory.kernels.gram.Gram`,
the package's one kernel operator: K held when it fits the memory budget, else recomputed
in row blocks sized from it (or a product callable built on it, such as a deflated one).
Two of them answer two different questions:

- :func:`top_eigenpairs` — the s largest eigenpairs for features (KPCA, Wang et al. 2019,
  Prop. 3; leverage-score sketching, Wang Table 2): implicitly restarted Lanczos (ARPACK,
  ``scipy.sparse.linalg.eigsh``, ``which="LA"``) on the held K (each matvec O(n²)) or on
  :meth:`~kktheory.kernels.gram.Gram.operator` (memory one block + n·s, each matvec O(n²d)). A
  dense ``numpy.linalg.eigh`` (O(n³)) only when 2s ≥ n — half the spectrum or more, where
  Lanczos has no advantage and ARPACK needs s < n — guarded by the budget. ARPACK's start
  vector comes from the caller's generator, so results are reproducible. No error is
  stated: the features are what they are.
- :func:`ritz_pairs` — the top eigenvalues for the bound checks, each with a stated error:
  subspace iteration with Rayleigh–Ritz (Saad, *Numerical Methods for Large Eigenvalue
  Problems*, 2011, Alg. 5.2; Halko, Martinsson & Tropp 2011, Alg. 4.4) on a block of
  t + 10 vectors, one pass over A per iteration, through a matrix-product callable
  (``matmat(V) = A V``; a Gram's ``times``, or a deflated product). The stated error of
  each Ritz value θ_i is its residual ‖A x_i − θ_i x_i‖ (unit x_i): a symmetric A has an
  eigenvalue within that distance of θ_i (Parlett, *The Symmetric Eigenvalue Problem*,
  Thm 4.5.1), and θ_i ≤ λ_i by Cauchy interlacing, so θ_i is a lower estimate of λ_i with
  error ‖r_i‖ once the iteration has locked onto the top eigenvalues (which the starting
  block makes almost sure).

Lanczos is kept for features because it is what their committed rows were computed
with; the subspace iteration's residual stop is what a bound needs. For the bound checks'
exact path (n up to ``bound_exact_max_n``) and their traces:

- :func:`lambda_max_dense` — the largest eigenvalue of a dense symmetric matrix by Lanczos
  (ARPACK ``eigsh`` run to machine precision, tol=0, random start), returned with its
  residual ‖Ax − θx‖ as stated error (≈1e-13·‖A‖; there is an eigenvalue within it, and
  θ ≤ λ_max); O(n²) per iteration instead of the O(n³) tridiagonal reduction. When ARPACK
  does not converge or fails (A = 0 gives a zero Krylov start), LAPACK ``syevr`` on the
  top index (error 0);
- :func:`nuclear_norm_dense` — ‖A‖_* = Σ|λ_i(A)| of a dense symmetric matrix, O(n³);
- :func:`effective_dimension_hutchinson` — tr(A(A+γI)⁻¹) = n − γ·tr((A+γI)⁻¹) by
  Hutchinson's estimator with Rademacher probes z (Hutchinson 1990; Avron & Toledo
  2011): each probe gives n − γ zᵀ(A+γI)⁻¹z, with (A+γI)⁻¹z from block conjugate
  gradients. The stated error is the standard error of the probe mean plus the bound
  √n·max‖r_j‖ on the conjugate-gradient truncation (λ_min(A+γI) ≥ γ).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.linalg
import scipy.sparse.linalg

from kktheory.machine import memory
from kktheory.kernels.gram import Gram
from kktheory.kernels.functions import Kernel

MatMat = Callable[[np.ndarray], np.ndarray]


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
    op = Gram(kernel, X, budget, matrix=K).operator()
    v0 = rng.uniform(-1.0, 1.0, size=n)
    lam, V = scipy.sparse.linalg.eigsh(op, k=s, which="LA", v0=v0.astype(op.dtype))
    order = np.argsort(lam)[::-1]
    return lam[order].astype(np.float64), V[:, order].astype(np.float64)


def lambda_max_dense(A: np.ndarray, rng: np.random.Generator) -> tuple[float, float]:
    """(λ_max, residual error) of a dense symmetric matrix (see module docstring)."""
    n = A.shape[0]
    if n > 2:
        try:
            theta, x = scipy.sparse.linalg.eigsh(A, k=1, which="LA", tol=0.0, v0=rng.standard_normal(n))
            return float(theta[0]), float(np.linalg.norm(A @ x[:, 0] - theta[0] * x[:, 0]))
        except scipy.sparse.linalg.ArpackError:  # no convergence, or A·v0 = 0 (A = 0): dense
            pass
    return float(scipy.linalg.eigvalsh(A, subset_by_index=[n - 1, n - 1], check_finite=False)[0]), 0.0


def nuclear_norm_dense(A: np.ndarray) -> float:
    """‖A‖_* = Σ|λ_i(A)| for a dense symmetric matrix."""
    return float(np.abs(scipy.linalg.eigvalsh(A, check_finite=False)).sum())


@dataclass
class RitzPairs:
    """Top Ritz values (descending), their vectors, residual norms, and the work done."""

    values: np.ndarray
    vectors: np.ndarray
    residuals: np.ndarray
    iterations: int
    converged: bool


def ritz_pairs(
    matmat: MatMat,
    n: int,
    t: int,
    rng: np.random.Generator,
    tol: float,
    max_iter: int = 300,
    oversample: int = 10,
) -> RitzPairs:
    """Top-t eigenpairs of a symmetric n×n operator by subspace iteration + Rayleigh–Ritz.

    Stops when every wanted residual ‖A x_i − θ_i x_i‖ ≤ tol·|θ_1| or after ``max_iter``
    passes over A. Memory O(n(t + oversample)).
    """
    b = min(n, t + oversample)
    V, _ = np.linalg.qr(rng.standard_normal((n, b)))
    for it in range(1, max_iter + 1):
        Y = matmat(V)
        H = V.T @ Y
        theta, W = np.linalg.eigh((H + H.T) / 2.0)
        order = np.argsort(theta)[::-1]
        theta, W = theta[order], W[:, order]
        X = V @ W
        AX = Y @ W
        res = np.linalg.norm(AX[:, :t] - X[:, :t] * theta[:t], axis=0)
        done = bool(np.all(res <= tol * max(abs(theta[0]), np.finfo(float).tiny)))
        if done or it == max_iter or b == n:
            return RitzPairs(theta[:t], X[:, :t], res, it, done or b == n)
        V, _ = np.linalg.qr(AX)
    raise AssertionError("unreachable")


@dataclass
class TraceEstimate:
    """A randomized trace estimate with its stated error."""

    value: float
    error: float
    probes: int


def effective_dimension_hutchinson(
    matmat: MatMat,
    n: int,
    gamma: float,
    rng: np.random.Generator,
    probes: int,
    tol: float,
    max_iter: int = 1000,
) -> TraceEstimate:
    """d_eff(γ) = tr(A(A+γI)⁻¹) by Hutchinson's estimator and block conjugate gradients.

    Cost: one product with A per CG iteration on a block of ``probes`` vectors (CG on
    A+γI converges in O(√((λ_max+γ)/γ)·log(1/tol)) iterations); memory O(n·probes).
    """
    Z = rng.choice([-1.0, 1.0], size=(n, probes))
    Y = np.zeros_like(Z)
    R = Z.copy()
    P = R.copy()
    rr = np.einsum("ij,ij->j", R, R)
    stop = (tol**2) * np.einsum("ij,ij->j", Z, Z)
    for _ in range(max_iter):
        if np.all(rr <= stop):
            break
        AP = matmat(P) + gamma * P
        alpha = rr / np.einsum("ij,ij->j", P, AP)
        Y += P * alpha
        R -= AP * alpha
        rr_new = np.einsum("ij,ij->j", R, R)
        P = R + P * (rr_new / rr)
        rr = rr_new
    samples = n - gamma * np.einsum("ij,ij->j", Z, Y)
    se = float(samples.std(ddof=1) / np.sqrt(probes)) if probes > 1 else float("inf")
    cg_bound = float(np.sqrt(n) * np.sqrt(rr.max()))
    return TraceEstimate(float(samples.mean()), se + cg_bound, probes)
