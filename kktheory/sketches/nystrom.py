"""Nyström embedding (Calandriello & Rosasco 2018, Algorithm 1 and Section 3).

Given a dictionary of m landmarks x_{j_1..j_m}, with K_mm = U Λ Uᵀ the landmark kernel
matrix, the embedding is

    φ̃(x) = Λ^{-1/2} Uᵀ κ(landmarks, x)                           (Calandriello eq. 3)

so that ⟨φ̃(x), φ̃(y)⟩ = κ(x, L) K_mm⁺ κ(L, y): the coordinates of Π_m φ(x), the
projection of φ(x) onto H_m = span{φ(landmarks)}, in an orthonormal basis of H_m. The
residual ‖Π_m^⊥ φ(x)‖² = κ(x, x) − ‖φ̃(x)‖² is what projected centroids need
(Calandriello eq. 2). Eigenvalues of K_mm below ``eig_cutoff``·λ_max are dropped (the
pseudo-inverse on the numerically well-determined part of span{landmarks}); the default
1e-12 keeps every direction that float64 resolves and drops the exact null space that
duplicated landmarks create.

Landmarks: uniform without replacement (default; Calandriello §3.1) or with replacement
(``replace=true``; duplicates then add nothing to H_m). Landmarks are the first m entries
of one random permutation (or one i.i.d. sequence), so sketches for a list of m are
nested, and K_{n,m_max} is computed once for the whole list.

Cost: K_nm in O(nmd) time (BLAS, row blocks), the eigendecomposition of K_mm in O(m³),
the features in O(nm²); memory O(nm).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from kktheory.kernels import Kernel
from kktheory.sketches.base import SKETCHES, Sketch, SketchConfig, SketchContext


@dataclass
class NystromConfig(SketchConfig):
    name: str = "nystrom"
    replace: bool = False  # sample landmarks with replacement
    eig_cutoff: float = 1e-12  # drop eigenvalues of K_mm below eig_cutoff * λ_max


def whitening(K_mm: np.ndarray, eig_cutoff: float) -> np.ndarray:
    """U_r Λ_r^{-1/2} for the eigenpairs of K_mm with λ > eig_cutoff·λ_max (m × r)."""
    lam, U = np.linalg.eigh(np.asarray(K_mm, dtype=np.float64))
    keep = lam > eig_cutoff * max(lam[-1], 0.0) if lam[-1] > 0 else np.zeros_like(lam, bool)
    return U[:, keep] / np.sqrt(lam[keep])


@SKETCHES.register("nystrom", NystromConfig)
class Nystrom(Sketch):
    """Nyström embedding with uniform landmarks (Calandriello Alg. 1)."""

    is_projection = True

    def draw_landmarks(self, n: int, m: int, rng: np.random.Generator) -> np.ndarray:
        """First m entries of a permutation (or an i.i.d. uniform sequence) of 0..n−1."""
        if self.params.replace:
            return rng.integers(0, n, size=m)
        return rng.permutation(n)[:m]

    def fit(self, X: np.ndarray, kernel: Kernel, m: int, rng: np.random.Generator) -> "Nystrom":
        idx = self.draw_landmarks(len(X), m, rng)
        return self._fit_columns(X, kernel, idx, None)

    def _fit_columns(
        self, X: np.ndarray, kernel: Kernel, idx: np.ndarray, K_nm: np.ndarray | None
    ) -> "Nystrom":
        """Fit from landmark indices; K_nm (n × m, optional) are their kernel columns."""
        self.kernel = kernel
        self.X_fit_ = X
        self.landmarks_ = np.asarray(idx)
        self.X_landmarks_ = np.asarray(X)[idx]
        if K_nm is None:
            K_mm = kernel(self.X_landmarks_, self.X_landmarks_)
        else:
            K_mm = K_nm[idx]
        self.K_nm_train_ = K_nm
        self.W_ = whitening(K_mm, self.params.eig_cutoff)
        self.info_ = {"rank_Kmm": int(self.W_.shape[1])}
        return self

    @classmethod
    def fit_nested(
        cls,
        params: NystromConfig,
        ctx: SketchContext,
        X: np.ndarray,
        kernel: Kernel,
        ms: Sequence[int],
        make_rng: Callable[[], np.random.Generator],
    ) -> Iterator[tuple[int, "Nystrom"]]:
        """One landmark sequence and one K_{n,m_max} for the whole list of m."""
        probe = cls(params, ctx)
        idx = probe.draw_landmarks(len(X), max(ms), make_rng())
        K = kernel.matrix(X, X[idx], ctx.budget)
        for m in ms:
            yield m, cls(params, ctx)._fit_columns(X, kernel, idx[:m], K[:, :m])

    def kernel_columns(self, X: np.ndarray) -> np.ndarray:
        """κ(X, landmarks), reusing the columns computed at fit for the training set."""
        if self.K_nm_train_ is not None and X is self.X_fit_:
            return self.K_nm_train_
        return self.kernel.matrix(X, self.X_landmarks_, self.ctx.budget)

    def transform(self, X: np.ndarray) -> np.ndarray:
        """φ̃(x) = Λ^{-1/2} Uᵀ κ(landmarks, x) for every row of X (n × rank)."""
        K = self.kernel_columns(X)
        return K @ self.W_.astype(K.dtype, copy=False)

    def residual(self, X: np.ndarray) -> np.ndarray:
        """‖Π_m^⊥ φ(x)‖² = κ(x, x) − ‖φ̃(x)‖², clipped at 0 against round-off."""
        F = self.transform(X).astype(np.float64, copy=False)
        return np.maximum(self.kernel.diag(X) - np.einsum("ij,ij->i", F, F), 0.0)
