"""Approximate kernel k-means of Chitta, Jin, Havens & Jain (2011) — a comparator, not an
embedding. It equals Lloyd's algorithm on the Nyström features started from the centroids
of a random balanced partition.

Chitta et al. restrict the cluster centres to the span of m landmarks sampled uniformly
without replacement, c_j = Σ_l α_jl φ(x̂_l), and alternate over all n points (their
Algorithm 1):

- centres: α_j = K̂⁺·K_Bᵀ·u_j/|C_j| (K_B = κ(X, landmarks) = K_nm, K̂ = K_mm, u_j the
  indicator of cluster j) — the projection of the cluster mean onto the span;
- labels: argmin_j α_jᵀK̂α_j − 2(K_B·α_j)_i (= ‖φ(x_i) − c_j‖² − κ(x_i, x_i)),

starting from a random membership, until the labels stop changing.

Equivalence used for the computation: with φ̃(x) = Λ^{-1/2}Uᵀκ(landmarks, x) the Nyström
coordinates of Π_m φ(x) (:mod:`kktheory.embeddings.nystrom`, K̂⁺ = UΛ⁻¹Uᵀ on the kept
eigenvalues), c_j = Π_m(mean of cluster j) has the coordinates mean_j φ̃ and
‖φ(x_i) − c_j‖² = ‖Π_m^⊥φ(x_i)‖² + ‖φ̃(x_i) − φ̃(c_j)‖², whose first term does not depend
on j. Chitta's iterations are therefore exactly Lloyd's algorithm on the Nyström features
from the centroids of the random initial membership, and are run as such (scikit-learn's
Lloyd, whose empty-cluster relocation replaces the undefined α_j of an empty cluster).
What separates this method from ``nystrom`` + k-means++ is only the initialisation, so its
partitions are Nyström's up to the local optimum Lloyd reaches.

This is not the "two-step method" that Wang, Gittens & Mahoney (2019, §5.2) compare
against: that is Chitta et al.'s other baseline, kernel k-means on the sample alone
followed by a nearest-centre assignment (``two_step``, :mod:`kktheory.comparators.two_step`).

The initial membership is a uniformly random balanced partition (a random permutation of
0, 1, …, k−1 repeated), so that no cluster starts empty; ``clustering.n_init`` restarts,
best objective kept; ``clustering.max_iter`` and ``tol`` as for k-means.

Cost: K_nm in O(nmd), K̂⁺ in O(m³), each iteration O(nmk); memory O(nm).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.cluster import KMeans

from kktheory.cluster.clusterers import Clusterer, ClusterResult, count_empty
from kktheory.embeddings.base import SKETCHES, Partition
from kktheory.comparators.nystrom_based import NystromComparator
from kktheory.embeddings.nystrom import NystromConfig


@dataclass
class ApproxKKMConfig(NystromConfig):
    name: str = "approx_kkm"


def lloyd_from_labels(
    F: np.ndarray, labels0: np.ndarray, k: int, max_iter: int, tol: float, seed: int
) -> tuple[ClusterResult, float]:
    """Lloyd on the rows of F from the centroids of an initial partition; (result, inertia)."""
    onehot = np.zeros((len(F), k))
    onehot[np.arange(len(F)), labels0] = 1.0
    centers0 = (onehot.T @ F) / onehot.sum(axis=0)[:, None]
    km = KMeans(
        n_clusters=k, init=centers0.astype(F.dtype), n_init=1, max_iter=max_iter, tol=tol,
        algorithm="lloyd", random_state=seed,
    ).fit(F)
    labels = km.labels_.astype(np.int64)
    info = {"n_iter": int(km.n_iter_), "n_empty_clusters": count_empty(labels, k)}
    return ClusterResult(labels, km.cluster_centers_, info), float(km.inertia_)


@SKETCHES.register("approx_kkm", ApproxKKMConfig)
class ApproxKernelKMeans(NystromComparator):
    """Chitta et al. (2011) approximate kernel k-means: centres in the landmark span."""

    # Chitta's iterations from random balanced memberships (the base's capabilities)
    held_arrays = 2  # the Nyström features and the method's own embedding

    def partition(self, X: np.ndarray, k: int, clusterer: Clusterer, rng: np.random.Generator) -> Partition:
        """Best of n_init runs of Chitta's iterations from random balanced memberships."""
        F = self.transform(X)
        p = clusterer.params
        best: tuple[ClusterResult, float] | None = None
        for _ in range(p.n_init):
            labels0 = rng.permutation(np.arange(len(F)) % k)
            run = lloyd_from_labels(F, labels0, k, p.max_iter, p.tol, int(rng.integers(2**31 - 1)))
            if best is None or run[1] < best[1]:
                best = run
        res = best[0]
        return Partition(labels=res.labels, features=F, centers=res.centers, info=res.info)
