"""Pairwise distortion of an embedding (Yin et al. 2022, Lemma 5) and the k-means objective
over kernel columns (Yin Lemma 6, Prop. 1).

For two Gram matrices over the same points — G of the vectors being embedded and H of
their embeddings — the squared distance of a pair is g_ii + g_jj − 2g_ij. The ratio

    r_ij = ‖ṽ_i − ṽ_j‖² / ‖v_i − v_j‖²,   i < j,

is summarised by its minimum, maximum and mean over all pairs of the given points
(:func:`pair_ratios`). Two uses:

- JL distortion of k_i ↦ R·k_i (Yin's sketches, Gaussian projection): G = K² (the Gram
  matrix of the kernel columns, (K²)_ij = k_iᵀk_j) and H = FFᵀ with F the n×m features.
  With s = E‖Rv‖²/‖v‖² the sketch's expected scale, ``jl_eps`` = max_ij |r_ij/s − 1| is the
  smallest ε of Lemma 5's (1 ± ε) statement after rescaling R by 1/√s, and
  ``jl_eps_free`` = (max r − min r)/(max r + min r) the smallest ε under the best common
  scale s* = (max r + min r)/2 (so jl_eps_free ≤ jl_eps always). An embedding that maps
  every point to one point (every r_ij = 0: Yin's sparse sub-Gaussian S is all zero with
  probability (1 − p)^{m²}, about 7 % at m = ¼√n, p = 1/√n, n = 2000) has both equal to 1:
  |s·r_ij − 1| = 1 at every scale s, so no scale undoes a collapse.
- Projection embeddings (Nyström, KPCA): G = K (RKHS distances), H = FFᵀ; the ratios are
  ≤ 1 because ‖Π_m(φ_i − φ_j)‖ ≤ ‖φ_i − φ_j‖ (``proj_ratio_min`` / ``proj_ratio_mean``).

Pairs whose true squared distance is at most ``rel_floor``·max_i g_ii (duplicate points)
have no ratio and are left out; the count of pairs used is reported.

Lemma 6's W is the k-means objective over the kernel columns, not the RKHS risk: for
a partition C_1..C_k with indicator vectors 1_j,

    W_kc(C) = (1/n) Σ_j Σ_{i∈C_j} ‖k_i − mean_{l∈C_j} k_l‖² = (‖K‖_F² − Σ_j ‖K 1_j‖²/|C_j|)/n.

Cost: :func:`pair_ratios` O(p²) time over p points, in row blocks of memory O(block·p);
:func:`kernel_columns_objective` O(n²k).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kktheory.evaluation.column_objective import objectives_of_blocks

#: rows per block when scanning the pairs (memory: a few block × p float64 arrays)
PAIR_BLOCK = 256


@dataclass(frozen=True)
class PairRatios:
    """Summary of r_ij over the pairs i < j that have a ratio."""

    min: float
    max: float
    mean: float
    count: int


def pair_ratios(G: np.ndarray, H: np.ndarray, rel_floor: float = 1e-12) -> PairRatios:
    """min, max and mean of r_ij = d_H(i,j)/d_G(i,j) over i < j (see module docstring)."""
    G = np.asarray(G, dtype=np.float64)
    H = np.asarray(H, dtype=np.float64)
    p = G.shape[0]
    g, h = np.diag(G), np.diag(H)
    floor = rel_floor * max(float(g.max()), np.finfo(float).tiny) if p else 0.0
    lo, hi, total, count = np.inf, -np.inf, 0.0, 0
    cols = np.arange(p)
    for a in range(0, p, PAIR_BLOCK):
        b = min(p, a + PAIR_BLOCK)
        rows = np.arange(a, b)[:, None]
        dG = g[a:b, None] + g[None, :] - 2.0 * G[a:b]
        dH = np.maximum(h[a:b, None] + h[None, :] - 2.0 * H[a:b], 0.0)
        keep = (cols[None, :] > rows) & (dG > floor)
        if not keep.any():
            continue
        r = dH[keep] / dG[keep]
        lo, hi = min(lo, float(r.min())), max(hi, float(r.max()))
        total += float(r.sum())
        count += int(r.size)
    if count == 0:
        nan = float("nan")
        return PairRatios(nan, nan, nan, 0)
    return PairRatios(lo, hi, total / count, count)


def jl_distortion(ratios: PairRatios, scale: float) -> dict[str, float]:
    """jl_eps (expected scale s), jl_eps_free (best scale), and the raw ratio range."""
    lo, hi = ratios.min, ratios.max
    return {
        "jl_scale": float(scale),
        "jl_eps": max(hi / scale - 1.0, 1.0 - lo / scale),
        "jl_eps_free": 1.0 if hi == 0 else (hi - lo) / (hi + lo),  # hi = 0: every pair collapsed; nan: no pair
        "jl_ratio_min": lo,
        "jl_ratio_max": hi,
        "jl_pairs": ratios.count,
    }


def projection_ratios(ratios: PairRatios) -> dict[str, float]:
    """proj_ratio_min / proj_ratio_mean / proj_ratio_max and the pair count."""
    return {
        "proj_ratio_min": ratios.min, "proj_ratio_mean": ratios.mean,
        "proj_ratio_max": ratios.max, "proj_pairs": ratios.count,
    }


def kernel_columns_objective(K: np.ndarray, labels: np.ndarray, k: int) -> float:
    """W_kc(C) = (‖K‖_F² − Σ_j ‖K 1_j‖²/|C_j|)/n (empty clusters contribute nothing) of K in
    memory: :func:`kktheory.evaluation.column_objective.objectives_of_blocks` with K as one block."""
    return objectives_of_blocks([K], [labels], k)[0]
