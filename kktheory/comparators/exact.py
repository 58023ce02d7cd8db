"""Exact kernel k-means and the exact kernel features.

Partition: the sketch runs exact kernel k-means on K = κ(X, X)
(:func:`kktheory.cluster.kernel_kmeans.kernel_kmeans`: Lloyd on K with k-means++ seeding in the
RKHS), with ``n_init``, ``max_iter`` and ``tol`` from the clustering config (whichever
clusterer is selected, the algorithm is Lloyd on K). K is stored when it fits the memory
budget. When it does not, the run is refused before any work (``validate``) unless
``allow_blocked=true``, which recomputes K in row blocks instead (memory of one block, but
O(n²d) time for every Lloyd pass of every restart: days at n = 2·10⁵); row column
``kernel_stored`` says which was used.
Cost: O(n²d) for K, O(n²k) for the first product of each restart, then O(n·moved·k) per
iteration; memory n²·itemsize (stored) or one block.

Features: with K = V Λ Vᵀ (eigenvalues above ``eig_cutoff``·λ_max kept, rank r), a point
maps to φ̃(x) = Λ_r^{-1/2} V_rᵀ κ(X, x), the projection onto H_n = span{φ(x_1..x_n)} in an
orthonormal basis (Nyström with every training point as a landmark), and
residual(x) = κ(x, x) − ‖φ̃(x)‖². On the training points φ̃ = V_r Λ_r^{1/2} in exact
arithmetic, so ‖f_i − f_j‖² = (e_i − e_j)ᵀ K (e_i − e_j) is every RKHS distance and projected
centroids coincide with lifted ones. The training points go through the same formula as any
other point, so that a row's features do not depend on which array holds it (a copy, a
permutation). The basis is Nyström's (:func:`~kktheory.embeddings.projection.whitening`,
whose cutoff is at least ε₃₂ in float32: a float32 K resolves no smaller eigenvalue, and
Λ^{-1/2} would amplify its rounding); the features are in the run's dtype. They are not
needed for the partition and are computed on first use of ``transform``: a dense
eigendecomposition, O(n³) time and about 3·n² floats of memory (K, V and LAPACK's
workspace), refused above the budget — small n only.

The sketch size m of the run is ignored: ``m_used`` = n.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from kktheory.machine import memory
from kktheory.cluster.clusterers import Clusterer, count_empty
from kktheory.errors import ConfigError
from kktheory.kernels.gram import Gram, gram_fits
from kktheory.cluster.kernel_kmeans import check_local_trials, kernel_kmeans
from kktheory.kernels.functions import Kernel
from kktheory.embeddings.base import Capabilities, SKETCHES, Partition, Sketch, SketchConfig
from kktheory.embeddings.projection import whitening

#: dense symmetric eigendecomposition: K, V and workspace, in float64
EIGH_COPIES = 3


@dataclass
class ExactConfig(SketchConfig):
    name: str = "exact"
    eig_cutoff: float = 1e-12  # features: drop eigenvalues of K below eig_cutoff·λ_max
    n_local_trials: Optional[int] = None  # k-means++ candidates per centre (None: 2+⌊ln k⌋)
    allow_blocked: bool = False  # K above the memory budget: recompute it in blocks (slow) instead of refusing


@SKETCHES.register("exact", ExactConfig)
class Exact(Sketch):
    """Exact kernel k-means on K; exact kernel features Λ^{-1/2} Vᵀ κ(X, x) on demand.

    Stored arrays: none beyond the run's labels (the k-means++ restarts only choose the
    partition, which is stored).
    """

    # onto span{φ(x_i)}: residual is defined, projected = lifted
    # the partition comes from Lloyd on K, not from k-means on features
    capabilities = Capabilities(projection=True, embedding=False, runs_clusterer=False)

    def validate(self, m: int) -> None:
        p = self.params
        if not 0 <= p.eig_cutoff < 1:
            raise ConfigError("sketch.eig_cutoff", p.eig_cutoff, "a number in [0, 1)")
        check_local_trials("sketch.n_local_trials", p.n_local_trials)
        n = self.ctx.n
        if self.ctx.centroids == "projected":  # scored through the features
            self.require_features(n)
        if not p.allow_blocked and not gram_fits(n, self.ctx.dtype, self.ctx.budget):
            memory.require(
                n * n * np.dtype(self.ctx.dtype).itemsize, self.ctx.budget,
                f"exact kernel k-means (the {n}×{n} kernel matrix K, {self.ctx.dtype})",
                "use a smaller n or a sketch, or sketch.allow_blocked=true to recompute K in row "
                "blocks (O(n²d) time per Lloyd pass)",
            )

    def m_used(self, m: int) -> int:
        return self.ctx.n

    def fit(self, X: np.ndarray, kernel: Kernel, m: int, rng: np.random.Generator) -> "Exact":
        self.kernel = kernel
        self.X_fit_ = X
        self._gram: Gram | None = None
        self._basis: np.ndarray | None = None  # V_r Λ_r^{-1/2}
        self._train_features: np.ndarray | None = None
        return self

    def gram(self) -> Gram:
        """K of the training points (stored when it fits the budget), built once."""
        if self._gram is None:
            self._gram = Gram(self.kernel, self.X_fit_, self.ctx.budget)
        return self._gram

    def require_features(self, n: int) -> None:
        """Refuse the exact features (a dense eigendecomposition) above the budget."""
        memory.require(
            EIGH_COPIES * n * n * 8, self.ctx.budget, f"exact kernel features (eigendecomposition of a {n}×{n} K)",
            "use a smaller n, or centroids=lifted (the exact partition itself does not need the features)",
        )

    def _eigen(self) -> None:
        n = len(self.X_fit_)
        self.require_features(n)
        gram = self.gram()
        K = gram.K if gram.stored else self.kernel.matrix(self.X_fit_, self.X_fit_, self.ctx.budget)
        self._basis = whitening(K, self.params.eig_cutoff)
        self.info_ = {"rank_K": int(self._basis.shape[1])}

    def _features(self, X: np.ndarray) -> np.ndarray:
        """Λ_r^{-1/2} V_rᵀ κ(X_train, x) of every row x of X, in float64 over row blocks of
        κ(X, X_train) (memory: one block), stored in the kernel's dtype."""
        F = np.empty((len(X), self._basis.shape[1]), dtype=self.kernel.dtype)
        for rows, block in self.kernel.row_blocks(X, self.X_fit_, self.ctx.budget):
            F[rows] = block.astype(np.float64) @ self._basis
        return F

    def transform(self, X: np.ndarray) -> np.ndarray:
        """φ̃(x) = Λ_r^{-1/2} V_rᵀ κ(X_train, x) (module docstring); the training points'
        features are kept after their first computation."""
        if self._basis is None:
            self._eigen()
        if not self.on_training_rows(X):
            return self._features(X)
        if self._train_features is None:
            self._train_features = self._features(self.X_fit_)
        return self._train_features

    def residual(self, X: np.ndarray) -> np.ndarray:
        """‖Π^⊥ φ(x)‖² = κ(x, x) − ‖φ̃(x)‖², clipped at 0 (≈ 0 on the training points)."""
        F = self.transform(X)
        return np.maximum(self.kernel.diag(X) - np.einsum("ij,ij->i", F, F), 0.0)

    def partition(self, X: np.ndarray, k: int, clusterer: Clusterer, rng: np.random.Generator) -> Partition:
        """Exact kernel k-means on K with the clustering config's n_init, max_iter, tol."""
        p = clusterer.params
        gram = self.gram()
        res = kernel_kmeans(gram, k, rng, p.n_init, p.max_iter, p.tol, self.params.n_local_trials)
        info = {
            "n_iter": res.n_iter, "n_empty_reseeds": res.n_empty_reseeds,
            "n_empty_clusters": count_empty(res.labels, k),
            "kernel_stored": gram.stored,
        }
        return Partition(labels=res.labels, info=info)
