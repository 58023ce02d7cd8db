"""Trace-norm errors of a kernel approximation K̃ = FFᵀ (Wang, Gittens & Mahoney 2019, Thm 1;
Pourkamali-Anaraki & Becker, Thm 1).

Wang Thm 1 bounds the rank-restricted Nyström error relative to the best rank-s error,

    trace_ratio = ‖K − (FFᵀ)_s‖_* / ‖K − K_s‖_*  ≤ 1 + ε   (w.p. 0.9 for c as in Table 2),

where (·)_s is the best rank-s approximation. By Mirsky's theorem (unitarily invariant
norms) ‖K − K_s‖_* ≤ ‖K − M‖_* for every rank-s M, so trace_ratio ≥ 1 for every F, and
trace_ratio → 1 as FFᵀ → K. The features of a sketch without a target rank have rank m > s
in general; they are truncated to rank s here, which is exactly Wang's (CW⁺Cᵀ)_s for
Nyström features.

When K − FFᵀ ⪰ 0 (projection embeddings: FFᵀ = ΦᵀΠ_mΦ ⪯ ΦᵀΦ), K − (FFᵀ)_s ⪰ 0 too, and
every trace norm is a trace:

    ‖K − (FFᵀ)_s‖_* = tr K − Σ_{i≤s} σ_i(F)²,   ‖K − K_s‖_* = tr K − Σ_{i≤s} λ_i(K),
    ‖K − FFᵀ‖_*     = tr K − ‖F‖_F².

These need tr K (O(nd)), the singular values of F (O(nr²)) and the top-s eigenvalues of K
(dense or randomized, kktheory.kernels.spectrum). For other sketches the nuclear norm of the
indefinite difference is computed by a dense eigendecomposition, O(n³), small n only.
When rank K ≤ s (‖K − K_s‖_* ≤ EIG_CUTOFF·tr K) the ratio is undefined and left empty.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kktheory.evaluation.bounds.gamma import EIG_CUTOFF
from kktheory.kernels.spectrum import nuclear_norm_dense


def top_sq_singular_values(F: np.ndarray, s: int) -> np.ndarray:
    """The s largest σ_i(F)² = eigenvalues of FᵀF (descending; zeros beyond rank F)."""
    G = F.T @ F
    lam = np.clip(np.linalg.eigvalsh((G + G.T) / 2.0)[::-1], 0.0, None)
    return np.pad(lam[:s], (0, max(0, s - lam.size)))


def truncated_gram(F: np.ndarray, s: int) -> np.ndarray:
    """(FFᵀ)_s = U_s Σ_s² U_sᵀ from the thin SVD of F (n×n, dense)."""
    U, sig, _ = np.linalg.svd(F, full_matrices=False)
    Us = U[:, :s] * sig[:s]
    return Us @ Us.T


@dataclass(frozen=True)
class TraceNorms:
    """‖K − (FFᵀ)_s‖_*, ‖K − K_s‖_* and their ratio, with the ratio's stated error."""

    s: int
    sketch: float
    best: float
    ratio: float
    ratio_err: float

    def columns(self) -> dict[str, float]:
        return {
            "trace_s": self.s, "trace_norm_sketch": self.sketch, "trace_norm_best": self.best,
            "trace_ratio": self.ratio, "trace_ratio_err": self.ratio_err,
        }


def _norms(s: int, sketch: float, trace_K: float, top_K: np.ndarray, best_err: float) -> TraceNorms:
    best = trace_K - float(np.sum(top_K[:s]))
    if best <= EIG_CUTOFF * trace_K:  # rank K ≤ s: K_s = K and the relative error is undefined
        return TraceNorms(s, sketch, best, float("nan"), float("nan"))
    ratio = sketch / best
    return TraceNorms(s, sketch, best, ratio, ratio * best_err / best)


def trace_norms_psd(
    trace_K: float, top_K: np.ndarray, F: np.ndarray, s: int, top_K_err: float = 0.0
) -> TraceNorms:
    """Trace norms when K − FFᵀ ⪰ 0, from tr K, the top-s eigenvalues of K and F.

    ``top_K_err`` is the stated error of Σ top-s λ_i(K) (0 when exact); the ratio's error
    is propagated to first order.
    """
    sketch = trace_K - float(top_sq_singular_values(F, s).sum())
    return _norms(s, sketch, trace_K, top_K, top_K_err)


def trace_norms_dense(K: np.ndarray, top_K: np.ndarray, F: np.ndarray, s: int) -> TraceNorms:
    """Trace norms for any F, ‖K − (FFᵀ)_s‖_* by a dense nuclear norm (O(n³))."""
    sketch = nuclear_norm_dense(K - truncated_gram(F, s))
    return _norms(s, sketch, float(np.trace(K)), top_K, 0.0)


def approximation_error_psd(trace_K: float, F: np.ndarray) -> float:
    """‖K − FFᵀ‖_* = tr K − ‖F‖_F² when K − FFᵀ ⪰ 0 (projection embeddings), O(nr)."""
    return trace_K - float(np.einsum("ij,ij->", F, F))


def approximation_error_dense(K: np.ndarray, F: np.ndarray) -> float:
    """‖K − FFᵀ‖_* for any F by a dense eigendecomposition (O(n³))."""
    return nuclear_norm_dense(K - F @ F.T)
