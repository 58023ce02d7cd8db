"""Spectral clustering with a Nyström approximation (Fowlkes, Belongie, Chung & Malik 2004)
as described by Wang, Gittens & Mahoney (2019), §4.2–4.3 — a comparator, not an embedding.

Steps (Wang §4.2): (1) a Nyström approximation K̃ of K; (2) degrees D̃ = diag(K̃·1);
(3) the top-k eigenvectors U_k of D̃^{-1/2}K̃D̃^{-1/2}; (4) k-means (the run's clusterer)
on the rows of U_k normalised to unit length. Wang §4.3 uses the rank-restricted Nyström
approximation with s = k and uniform sampling, which is what is built here: K̃ = B·Bᵀ =
(C·W⁺·Cᵀ)_s with B = F·V_s, F the n × m Nyström features of
:mod:`kktheory.embeddings.nystrom` (F·Fᵀ = C·W⁺·Cᵀ, eigenvalues of W below ``eig_cutoff``
dropped) and V_s the top-s right singular vectors of F (Wang Alg. 2 step 2). This avoids
a dependency on the ``nystrom_rr`` sketch (Wang Alg. 2 additionally truncates W to ℓ < c
eigenvalues). Landmarks come from the same stream as ``nystrom``'s, so for one seed both
methods see the same landmarks.

Everything stays at rank s: K̃·1 = B·(Bᵀ·1), and D̃^{-1/2}K̃D̃^{-1/2} = E·Eᵀ with
E = D̃^{-1/2}B, whose top-k eigenvectors are the top-k left singular vectors of E
(O(ns²) by an SVD of E).

Failure (Wang §4.2–4.3): K̃ may have negative entries and a degree d_i ≤ 0, so D̃^{-1/2}
is not real. Wang discarded such trials; here the run still writes its row with
``spectral_failed=True``, the number of such degrees and the smallest degree, and the
fallback partition puts every point in cluster 0 (a clearly flagged, trivially scored
partition; filter on ``spectral_failed`` to discard as Wang did).

``s``: integer, ``k`` (default, Wang §4.3), ``sqrt_kc`` or ``c``; k ≤ s ≤ m.
Cost: K_nm in O(nmd), W⁺ in O(m³), the reduction in O(nm²), the embedding in O(ns²);
memory O(nm).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from kktheory.cluster.clusterers import Clusterer
from kktheory.embeddings.base import Capabilities, SKETCHES, Partition
from kktheory.embeddings.linalg import fix_signs, reduce_rank, resolve_rank
from kktheory.comparators.nystrom_based import NystromComparator
from kktheory.embeddings.nystrom import NystromConfig


@dataclass
class SpectralNystromConfig(NystromConfig):
    name: str = "spectral_nystrom"
    s: Any = "k"  # rank of the Nyström approximation: integer | k | sqrt_kc | c (k ≤ s ≤ m)


def spectral_embedding(B: np.ndarray, k: int) -> tuple[np.ndarray | None, dict[str, Any]]:
    """Row-normalised top-k eigenvectors of D̃^{-1/2}(B·Bᵀ)D̃^{-1/2}, D̃ = diag(B·Bᵀ·1).

    Returns (None, info) when a degree is ≤ 0 (the embedding is then undefined).
    """
    B = np.asarray(B, dtype=np.float64)
    degrees = B @ B.sum(axis=0)
    bad = degrees <= 0
    info: dict[str, Any] = {
        "spectral_failed": bool(bad.any()),
        "n_nonpositive_degrees": int(bad.sum()),
        "min_degree": float(degrees.min()),
    }
    if bad.any():
        return None, info
    E = B / np.sqrt(degrees)[:, None]
    U = fix_signs(np.linalg.svd(E, full_matrices=False)[0][:, :k])
    norms = np.linalg.norm(U, axis=1)
    U /= np.where(norms > 0, norms, 1.0)[:, None]
    return U, info


@SKETCHES.register("spectral_nystrom", SpectralNystromConfig)
class SpectralNystrom(NystromComparator):
    """Fowlkes et al. (2004) Nyström spectral clustering on (C·W⁺·Cᵀ)_s (Wang §4.2)."""

    capabilities = Capabilities(embedding=False)  # k-means (the configured clusterer) on its own embedding
    held_arrays = 2  # the Nyström features and the method's own embedding

    def target_dim(self, m: int) -> int:
        return resolve_rank(self.params.s, "sketch.s", self.ctx.k, m, lo=self.ctx.k, hi=m)

    def validate(self, m: int) -> None:
        super().validate(m)  # the embedding's
        self.target_dim(m)

    def partition(self, X: np.ndarray, k: int, clusterer: Clusterer, rng: np.random.Generator) -> Partition:
        """k-means on the spectral embedding, or the flagged all-zero fallback.

        ``info["time_embedding"]``: the seconds spent on the embedding (Nyström features,
        rank reduction, degrees and normalisation) before k-means, which the runner counts
        as embedding time, not clustering time (Wang et al. §4.3 time both methods without
        their k-means)."""
        t0 = time.perf_counter()
        F = self.transform(X)
        s = min(self.target_dim(len(self.landmarks_)), F.shape[1])
        B, _ = reduce_rank(F, s)
        emb, info = spectral_embedding(B, k)
        info["spectral_rank"] = int(s)
        info["time_embedding"] = time.perf_counter() - t0
        if emb is None:
            return Partition(labels=np.zeros(len(X), dtype=np.int64), info=info)
        res = clusterer.fit(emb, k, rng)
        return Partition(labels=res.labels, features=emb, centers=res.centers, info={**res.info, **info})
