"""Two-step kernel k-means of Chitta, Jin, Havens & Jain (2011), the "two-step method"
that Wang, Gittens & Mahoney (2019, §5.2, Figs. 4–5) compare Nyström and random features
against — a comparator, not an embedding.

1. Sample: m training points x̂_1..x̂_m uniformly without replacement — the landmark draw
   of ``nystrom`` (the first m entries of one permutation from the sketch stream, so the
   samples of an m-list are nested; ``replace=true`` draws with replacement).
2. Cluster the sample alone: exact kernel k-means on K_mm = [κ(x̂_l, x̂_l')]
   (:func:`kktheory.cluster.kernel_kmeans.kernel_kmeans`: k-means++ seeding in the RKHS with
   ``n_local_trials`` candidates per centre, Lloyd on K_mm, ``clustering.n_init`` restarts
   with the lowest objective kept, ``clustering.max_iter`` iterations at most, stopping when
   the labels are fixed or the objective decreases by at most ``clustering.tol`` × its
   value). Its clusters C_1..C_k ⊂ {1..m} define the centres
   c_j = (1/|C_j|) Σ_{l∈C_j} φ(x̂_l).
3. Assign every one of the n training points (the sample included) to its nearest centre
   in the RKHS,

       ‖φ(x) − c_j‖² = κ(x, x) − (2/|C_j|) Σ_{l∈C_j} κ(x, x̂_l)
                       + (1/|C_j|²) Σ_{l,l'∈C_j} κ(x̂_l, x̂_l'),

   in matrix form D = diag(K)·1ᵀ − 2·K_nm·Z + 1·qᵀ with Z_lj = 1/|C_j| for l ∈ C_j and
   q_j = Z_jᵀ·K_mm·Z_j (:func:`kktheory.kernels.geometry.sq_dist_to_centroids`). For a sample point
   this is its kernel k-means label whenever Lloyd on K_mm stopped at a fixed point.
   Clusters that no point is nearest to stay empty and are counted (``n_empty_clusters``);
   ``n_iter`` and ``n_empty_reseeds`` are those of kernel k-means on the sample.

Only the m sampled points shape the centres, which is why Wang et al. find that the
method "requires a large sketch size": their medians of its NMI on PenDigits are 0.399,
0.413, 0.422 and 0.421 for c = 3k, 9k, 27k and 81k (Fig. 4c caption), below Nyström and
random features at every c.

Not Chitta et al.'s *approximate* kernel k-means (``approx_kkm``): that method iterates
Lloyd over all n points with centres restricted to span{φ(x̂_l)}, which is exactly Lloyd
on the Nyström features, so its partitions are Nyström's (on Mushrooms, n = 1500, their
NMI agree to three decimals at every c) and cannot show the gap of Wang's Fig. 4.

The fitted sketch is ``nystrom``'s on the same landmarks (K_mm's eigendecomposition,
O(m³)); its features serve the estimator's ``transform``, the partition does not use them.

Cost: K_mm in O(m²d); kernel k-means on the sample O(n_init·(m²k + iterations·m·k·moved))
with K_mm held (m² floats); K_nm·Z in O(nmd) over row blocks of K_nm (or from the
K_{n,m_max} that an m-list holds) and the distances in O(nk). Memory O(nm) for an m-list
(K_{n,m_max}), otherwise one kernel block plus O(m² + nk).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from kktheory.machine import memory
from kktheory.cluster.clusterers import Clusterer, count_empty
from kktheory.errors import ConfigError
from kktheory.kernels.gram import Gram, KernelBlock, block_times
from kktheory.cluster.kernel_kmeans import check_local_trials, kernel_kmeans
from kktheory.kernels.functions import Kernel
from kktheory.kernels.geometry import membership, sq_dist_to_centroids
from kktheory.embeddings.base import SKETCHES, Partition
from kktheory.comparators.nystrom_based import NystromComparator
from kktheory.embeddings.nystrom import NystromConfig
from kktheory.embeddings.projection import check_eig_cutoff


@dataclass
class TwoStepConfig(NystromConfig):
    name: str = "two_step"
    n_local_trials: Optional[int] = None  # k-means++ candidates per centre on the sample (None: 2+⌊ln k⌋)


def nearest_sample_centre(
    kernel: Kernel, X: np.ndarray, sample: Gram, sample_labels: np.ndarray, k: int,
    budget: int, cross: np.ndarray | None = None,
) -> np.ndarray:
    """argmin_j ‖φ(x_i) − c_j‖² for every row of X, c_j the mean of φ over the sampled
    points labelled j (step 3 of the module docstring).

    ``sample`` is the Gram of the sampled points; ``cross`` = κ(X, sample) when held,
    otherwise K_nm·Z is computed over row blocks of κ(X, sample).
    """
    Z = membership(sample_labels, k)  # m × k, Z_lj = 1/|C_j| for l ∈ C_j
    q = np.einsum("lj,lj->j", Z, sample.times(Z))  # q_j = Z_jᵀ K_mm Z_j
    S = block_times(cross, Z) if cross is not None else KernelBlock(kernel, X, sample.X, budget).times(Z)
    nonempty = np.bincount(sample_labels, minlength=k) > 0
    return sq_dist_to_centroids(kernel.diag(X), S, q, nonempty).argmin(axis=1)


@SKETCHES.register("two_step", TwoStepConfig)
class TwoStep(NystromComparator):
    """Chitta et al. (2011) two-step kernel k-means: cluster the sample, assign all points."""

    # kernel k-means on K_mm, then a nearest-centre assignment (the base's capabilities)

    def validate(self, m: int) -> None:
        """eig_cutoff in [0, 1); n_local_trials null or ≥ 1; m ≥ k; K_nm, K_mm and the n × k
        distances within the budget."""
        p, n, k = self.params, self.ctx.n, self.ctx.k
        check_eig_cutoff("sketch.eig_cutoff", p.eig_cutoff)
        check_local_trials("sketch.n_local_trials", p.n_local_trials)
        if m < k:
            raise ConfigError("m", m, f"an integer ≥ k = {k} (two_step clusters the m sampled points into k clusters)")
        memory.require(
            n * m * np.dtype(self.ctx.dtype).itemsize + 4 * m * m * 8 + 2 * n * k * 8, self.ctx.budget,
            f"the two-step method (K_nm: {n}×{m}, K_mm and its eigenvectors, {n}×{k} distances)",
            "use a smaller n or m",
        )

    def partition(self, X: np.ndarray, k: int, clusterer: Clusterer, rng: np.random.Generator) -> Partition:
        """Exact kernel k-means on the sample (the clustering config's n_init, max_iter,
        tol), then every point to the nearest of its k centres in the RKHS."""
        p = clusterer.params
        kernel = self.embedding.kernel
        sample = Gram(kernel, X[self.landmarks_], self.ctx.budget, store=True)
        res = kernel_kmeans(sample, k, rng, p.n_init, p.max_iter, p.tol, self.params.n_local_trials)
        cross = self.embedding.train_columns_ if self.embedding.on_training_rows(X) else None
        labels = nearest_sample_centre(kernel, X, sample, res.labels, k, self.ctx.budget, cross)
        info = {"n_iter": res.n_iter, "n_empty_reseeds": res.n_empty_reseeds,
                "n_empty_clusters": count_empty(labels, k)}
        return Partition(labels=labels, info=info)
