"""Kernel columns as features (Yin, Liu, Wang & Meng 2022, Proposition 1).

Training point x_i is represented by k_i = κ(X, x_i) ∈ R^n, the i-th column of K (a new
point x by κ(X, x)); k-means runs on these n-dimensional vectors. This is the embedding
that Yin's sketches approximate (k_i ↦ R·k_i; here R = I, so ``jl_scale`` = 1).

Beware: ‖k_i − k_j‖² = (e_i − e_j)ᵀ K² (e_i − e_j), not the RKHS distance
‖φ_i − φ_j‖² = (e_i − e_j)ᵀ K (e_i − e_j). Yin states that the embedding preserves the
kernel k-means objective, citing Calandriello's Prop. 2, which is the kernel trick, not
this embedding: k-means on kernel columns optimises a different objective. kktheory
scores every partition in the RKHS (``objective``, ``train_risk``) and also reports the
k-means objective in the feature space (``feature_objective``, for every embedding), so
the two sit side by side in the row; compare with ``exact`` on the same data.

Cost: K in O(n²d) time and n² memory; k-means on n-dimensional features, O(n²k) per
Lloyd iteration. The budget check counts three n×n arrays: K, scikit-learn's centred copy
of the features and the temporary of its tolerance (``np.var`` over the columns) — measured
at n = 4000: the fit's peak memory rose by 3.3 × the size of K. The run's m is not used
(``m_used`` = n, the feature dimension).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kktheory.kernels.functions import Kernel
from kktheory.embeddings.base import SKETCHES, Sketch, SketchConfig
from kktheory.embeddings.projection import require_kernel_matrix


@dataclass
class KernelColumnsConfig(SketchConfig):
    name: str = "kernel_columns"


@SKETCHES.register("kernel_columns", KernelColumnsConfig)
class KernelColumns(Sketch):
    """Features k_i = κ(X_train, x_i): the columns of K (Yin Prop. 1). Stored arrays: none
    (no randomness)."""

    not_from_landmark_rows = "its features are the n kernel columns themselves"

    def validate(self, m: int) -> None:
        require_kernel_matrix(
            self.ctx.n, self.ctx.dtype, self.ctx.budget,
            "kernel_columns uses all of K as features, and k-means copies them and takes their variance",
            "use a smaller n", copies=3,
        )

    def m_used(self, m: int) -> int:
        return self.ctx.n

    def fit(self, X: np.ndarray, kernel: Kernel, m: int, rng: np.random.Generator) -> "KernelColumns":
        self.kernel = kernel
        self.X_fit_ = X
        self.K_ = kernel.matrix(X, X, self.ctx.budget)
        return self

    def transform(self, X: np.ndarray) -> np.ndarray:
        """κ(X, X_train): rows are the kernel columns of the points."""
        if self.on_training_rows(X):
            return self.K_
        return self.kernel.matrix(X, self.X_fit_, self.ctx.budget)

    def jl_scale(self) -> float:
        return 1.0
