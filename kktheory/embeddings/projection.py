"""What the projection embeddings (Nyström family, KPCA, power method) share.

Every such embedding is the coordinate map of an orthogonal projection Π onto an
r-dimensional subspace of span{φ(x_i): i ∈ S} for a support set S of training points:

    f(x) = Aᵀ κ(X_S, x),        ⟨f(x), f(y)⟩ = ⟨Π φ(x), Π φ(y)⟩,

with a coefficient matrix A (|S| × r) that the sketch fits. :class:`KernelProjection`
holds (S, A) and provides ``transform`` (blocked over rows, O(n·|S|·d) time, memory one
kernel block plus the n × r output) and ``residual(x)`` = κ(x, x) − ‖f(x)‖² = ‖Π^⊥φ(x)‖²
(Calandriello eq. 2). Training features computed during the fit are kept and reused.

Also here, written once for every sketch that needs them:

- :func:`whitening` — U_r Λ_r^{-1/2} for the top eigenpairs of a small SPSD matrix above a
  relative eigenvalue cutoff (the pseudo-inverse square root used by Nyström);
- :func:`rank_restricted` — Wang et al. 2019 Alg. 2 steps 1–2: from C = K·P and
  W = Pᵀ·K·P, R = C U_{W,ℓ} Λ_{W,ℓ}^{-1/2} and B = R V_s, so that BBᵀ = (C W_ℓ⁺ Cᵀ)_s
  (rank-restricted Nyström also computes the same map from row blocks of C that are never
  held together, RᵀR summed over the blocks: :mod:`kktheory.embeddings.nystrom_rr`);
- :func:`require_kernel_matrix` — the memory check before a sketch forms all of K.
"""

from __future__ import annotations

import numpy as np

from kktheory.machine import memory
from kktheory.errors import ConfigError
from kktheory.kernels.functions import Kernel, row_sq_norms
from kktheory.embeddings.base import Capabilities, Sketch
from kktheory.embeddings.linalg import gram_eigh, gram_f64
from kktheory.machine.threads import small_dense


def check_eig_cutoff(field: str, value: float) -> None:
    """The relative eigenvalue cutoff must lie in [0, 1)."""
    if not 0.0 <= value < 1.0:
        raise ConfigError(field, value, "a relative eigenvalue cutoff in [0, 1)")


def require_kernel_matrix(
    n: int, dtype: str, budget: int, why: str, hint: str, copies: int = 1
) -> None:
    """Refuse (MemoryBudgetError) when ``copies`` n×n kernel matrices do not fit the budget."""
    what = f"the {n}×{n} kernel matrix" if copies == 1 else f"{copies} copies of the {n}×{n} kernel matrix"
    memory.require(copies * n * n * np.dtype(dtype).itemsize, budget, f"{why} ({what})", hint)


def whitening(M: np.ndarray, eig_cutoff: float, rank: int | None = None) -> np.ndarray:
    """U_r Λ_r^{-1/2} for the eigenpairs of the SPSD matrix M with λ > eig_cutoff·λ_max,
    restricted to the ``rank`` largest when given (columns in decreasing λ order).

    A float32 M (a run with dtype=float32) resolves eigenvalues only down to about
    ε₃₂·λ_max (ε₃₂ ≈ 1.2e-7: its entries carry that relative rounding), and Λ^{-1/2} would
    amplify the rounding in the directions below; the cutoff is then at least ε₃₂.
    The eigendecomposition itself is float64, O(m³), on one BLAS thread for m ≤ 2048
    (:func:`kktheory.machine.threads.small_dense`).
    """
    if np.asarray(M).dtype == np.float32:
        eig_cutoff = max(eig_cutoff, float(np.finfo(np.float32).eps))
    M = np.asarray(M, dtype=np.float64)
    with small_dense(len(M)):
        lam, U = np.linalg.eigh((M + M.T) / 2)
    lam, U = lam[::-1], U[:, ::-1]
    keep = lam > eig_cutoff * lam[0] if lam[0] > 0 else np.zeros_like(lam, dtype=bool)
    if rank is not None:
        keep[rank:] = False
    return U[:, keep] / np.sqrt(lam[keep])


def rank_restricted(
    C: np.ndarray, W: np.ndarray, ell: int, s: int, eig_cutoff: float
) -> tuple[np.ndarray, np.ndarray]:
    """(M, B) with B = C·M = R·V_s and B Bᵀ = (C W_ℓ⁺ Cᵀ)_s (Wang et al. 2019, Alg. 2).

    W_ℓ is the best rank-ℓ approximation of W (its top-ℓ eigenpairs above the relative
    cutoff), R = C U_{W,ℓ} Λ_{W,ℓ}^{-1/2} (R Rᵀ = C W_ℓ⁺ Cᵀ) and V_s holds the top-s
    right singular vectors of R, so M = U_{W,ℓ} Λ_{W,ℓ}^{-1/2} V_s (c × s'), s' =
    min(s, rank R). V_s and the squared singular values come from RᵀR (ℓ × ℓ, float64,
    :func:`~kktheory.embeddings.linalg.gram_f64`, :func:`top_right_singular`); R and B stay
    in C's dtype. Cost O(c³ + n·c·ℓ + n·ℓ²); memory O(n·ℓ).
    """
    E = whitening(W, eig_cutoff, ell)
    R = C @ E.astype(C.dtype, copy=False)
    V = top_right_singular(gram_f64(R), s, eig_cutoff)
    return E @ V, R @ V.astype(R.dtype, copy=False)


def top_right_singular(G: np.ndarray, s: int, eig_cutoff: float) -> np.ndarray:
    """V_s: the top-s eigenvectors of the Gram matrix G = RᵀR (R's right singular vectors,
    signs fixed), only those with eigenvalue > eig_cutoff·λ_max (s' = min(s, rank R) columns)."""
    ev, V = gram_eigh(G)  # ev: eigenvalues of R Rᵀ = C W_ℓ⁺ Cᵀ
    r = min(s, int(np.sum(ev > eig_cutoff * ev[0])) if ev.size and ev[0] > 0 else 0)
    return V[:, :r]


class KernelProjection(Sketch):
    """Features f(x) = Aᵀ κ(X_S, x): coordinates of an orthogonal projection in the RKHS."""

    capabilities = Capabilities(projection=True)

    def set_map(
        self,
        X: np.ndarray,
        kernel: Kernel,
        support: np.ndarray | None,
        coef: np.ndarray,
        train_columns: np.ndarray | None = None,
        train_features: np.ndarray | None = None,
    ) -> None:
        """Store the map. ``support`` indexes rows of X (None: all of X); ``coef`` is A
        (|S| × r); ``train_columns`` = κ(X, X_S) or ``train_features`` = f(X), if known."""
        self.kernel = kernel
        self.X_fit_ = X
        self.X_support_ = X if support is None else X[np.asarray(support)]
        self.coef_ = np.asarray(coef, dtype=np.float64)
        self.train_columns_ = train_columns
        self.train_features_ = train_features

    def transform(self, X: np.ndarray) -> np.ndarray:
        """f(x) for every row of X (n × r, in the kernel's dtype)."""
        if self.on_training_rows(X):
            if self.train_features_ is None:
                self.train_features_ = self._features(X, self.train_columns_)
            return self.train_features_
        return self._features(X, None)

    def _features(self, X: np.ndarray, columns: np.ndarray | None) -> np.ndarray:
        dtype = np.dtype(self.kernel.dtype)
        A = self.coef_.astype(dtype, copy=False)
        if columns is not None:
            return np.asarray(columns, dtype=dtype) @ A
        out = np.empty((len(X), A.shape[1]), dtype=dtype)
        for sl, block in self.kernel.row_blocks(X, self.X_support_, self.ctx.budget):
            np.matmul(block, A, out=out[sl])
        return out

    def residual(self, X: np.ndarray) -> np.ndarray:
        """‖Π^⊥ φ(x)‖² = κ(x, x) − ‖f(x)‖², clipped at 0 against round-off."""
        return np.maximum(self.kernel.diag(X) - row_sq_norms(self.transform(X)), 0.0)
