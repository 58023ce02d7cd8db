"""Kernel PCA features (Wang, Gittens & Mahoney 2019, Proposition 3).

With K_s = V_s Λ_s V_sᵀ the best rank-s approximation of K (top-s eigenpairs), the
features of the training points are B = V_s Λ_s^{1/2}, so B Bᵀ = K_s; Prop. 3: k-means
on B is a γ(1 + ε)-approximation of kernel k-means for s = ⌈k/ε⌉. B is the coordinate
map of the projection Π_s onto the top-s eigendirections of the empirical covariance in
the RKHS, u_j = Φᵀ v_j/√λ_j, so out of sample b(x) = Λ_s^{-1/2} V_sᵀ κ(X, x) (the
Nyström extension) and ``residual`` = κ(x, x) − ‖b(x)‖².

s (``s``): an integer or a rule (``k`` default, ``sqrt_kc``, ``half_c``, ``c`` with c =
the run's m; :func:`~kktheory.embeddings.projection.resolve_rank`); the run's m is used only
through these rules. Eigenvalues ≤ ``eig_cutoff``·λ_1 are dropped (``s_used``).

The eigenpairs come from Lanczos (:func:`kktheory.kernels.spectrum.top_eigenpairs`): on the stored
K when it fits the memory budget (O(n²d) to form, O(n²) per matvec), otherwise with K
recomputed in row blocks at each matvec (O(n²d) per matvec, memory O(n·s + block)); never
a dense O(n³) eigendecomposition unless 2s ≥ n. Deviation: none (the paper assumes exact
eigenpairs; ARPACK returns them to machine precision).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from kktheory.errors import ConfigError
from kktheory.kernels.functions import Kernel
from kktheory.embeddings.base import Capabilities, SKETCHES, SketchConfig
from kktheory.embeddings.linalg import resolve_rank
from kktheory.embeddings.projection import (
    KernelProjection,
    check_eig_cutoff,
    require_kernel_matrix,
)
from kktheory.kernels.spectrum import top_eigenpairs


@dataclass
class KPCAConfig(SketchConfig):
    name: str = "kpca"
    s: Any = "k"  # number of eigenpairs: integer or k | sqrt_kc | half_c | c (c = m)
    eig_cutoff: float = 1e-12  # drop eigenvalues below eig_cutoff * λ_1


@SKETCHES.register("kpca", KPCAConfig)
class KPCA(KernelProjection):
    """Top-s kernel principal components, B = V_s Λ_s^{1/2} (Wang Prop. 3).

    Stored arrays: none — the random Lanczos start changes the eigenpairs only within the
    solver's tolerance.
    """

    not_from_landmark_rows = "its features come from the top eigenvectors of all of K"

    capabilities = Capabilities(projection=True, rank_restricted=True)

    def rank(self, m: int) -> int:
        return resolve_rank(self.params.s, "sketch.s", self.ctx.k, m)

    def validate(self, m: int) -> None:
        s = self.rank(m)
        if s > self.ctx.n:
            raise ConfigError("sketch.s", self.params.s, f"s ≤ n = {self.ctx.n} (resolved s={s})")
        check_eig_cutoff("sketch.eig_cutoff", self.params.eig_cutoff)
        if 2 * s >= self.ctx.n:
            require_kernel_matrix(
                self.ctx.n, "float64", self.ctx.budget,
                f"KPCA with s={s} ≥ n/2 uses a dense eigendecomposition", "use a smaller s",
                copies=2,
            )

    def fit(self, X: np.ndarray, kernel: Kernel, m: int, rng: np.random.Generator) -> "KPCA":
        s = self.rank(m)
        lam, V = top_eigenpairs(kernel, X, s, self.ctx.budget, rng)
        keep = lam > self.params.eig_cutoff * lam[0] if lam[0] > 0 else np.zeros(s, bool)
        lam, V = lam[keep], V[:, keep]
        B = V * np.sqrt(lam)
        self.set_map(X, kernel, None, V / np.sqrt(lam), train_features=B.astype(kernel.dtype))
        self.info_.update(s=s, s_used=int(keep.sum()))
        return self
