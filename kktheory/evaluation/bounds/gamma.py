"""γ-preservation of a projection embedding (Calandriello & Rosasco 2018, Def. 2, Def. 3).

Let Φ = [φ_1, …, φ_n], K = ΦᵀΦ, Π_n the projection onto H_n = span Φ, and Π_m the
projection onto the subspace H_m ⊂ H_n of a projection embedding (for Nyström
H_m = span of the landmarks), whose features F (n × r) satisfy FFᵀ = ΦᵀΠ_mΦ. Definition 2
calls H_m γ-preserving with ε when

    Π_m^⊥ = Π_n − Π_m ⪯ γ/(1−ε) · (ΦΦᵀ + γΠ_n)⁻¹           (Calandriello eq. 4)

Conjugating with Φ (which maps ℝⁿ onto H_n, so the order is preserved both ways) gives the
n×n form checked here: E ⪯ γ/(1−ε)·P_γ on range(K), with E = K − FFᵀ = ΦᵀΠ_m^⊥Φ (for
Nyström K − K_nm K_mm⁺ K_mn) and P_γ = K(K+γI)⁻¹. The smallest such ε is 1 − γ/ρ with

    ρ = λ_max(P_γ^{-1/2} E P_γ^{-1/2})   on range(K).

**Closed form used here.** Write Φ = U Λ^{1/2} Vᵀ (U an orthonormal basis of H_n) and
Q = Uᵀ Π_m^⊥ U, a projection. Then P_γ^{-1/2} E P_γ^{-1/2} = V (Λ+γ)^{1/2} Q (Λ+γ)^{1/2} Vᵀ,
whose top eigenvalue equals that of Q(Λ+γI)Q = QΛQ + γQ. On range(Q) the second term is γI,
and QΛQ has the same non-zero eigenvalues as Λ^{1/2}QΛ^{1/2} = VᵀEV. Hence

    ρ = γ + λ_max(E)   when Π_m^⊥ ≠ 0 on H_n,      ρ = 0 when H_m = H_n,

so ``gamma_ratio`` = ρ/γ = 1 + λ_max(E)/γ, ``gamma_eps`` = max(0, 1 − γ/ρ) = λ_max(E)/(γ +
λ_max(E)), and Def. 2 is equivalent to ‖E‖₂ ≤ γε/(1−ε). Only λ_max(E) is needed: no
P_γ^{-1/2}, no eigendecomposition of K, no ill-conditioning from small eigenvalues. (The
tests recompute ρ from the definition with dense P_γ^{-1/2} and check the identity.)

**Cutoff.** "Π_m^⊥ = 0 on H_n" is decided numerically: E is treated as zero when
λ_max(E) ≤ ``EIG_CUTOFF``·λ_max(K) (E = K − FFᵀ carries round-off of order 1e-13·‖K‖ for
n ≤ 10⁴); eigenvalues of K below the same relative cutoff are outside range(K) for d_eff.

Effective dimension (Def. 3): d_eff(γ) = tr P_γ = Σ_i λ_i/(λ_i + γ).

Cost: exact — λ_max of the dense n×n E by Lanczos to machine precision (O(n²) per
iteration, one n×n matrix); randomized — subspace iteration on V ↦ KV − F(FᵀV) without
forming E. Both state the residual error of λ_max(E) (kktheory.kernels.spectrum).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: relative eigenvalue cutoff: λ ≤ EIG_CUTOFF·λ_max(K) counts as zero (range(K), E = 0)
EIG_CUTOFF = 1e-10


@dataclass(frozen=True)
class GammaPreservation:
    """ρ of Def. 2 and the quantities derived from it, with stated errors (0 when exact)."""

    rho: float
    gamma_ratio: float
    gamma_eps: float
    gamma_eps_err: float
    residual: float  # λ_max(E), clipped at 0
    residual_err: float

    def columns(self) -> dict[str, float]:
        return {
            "gamma_rho": self.rho, "gamma_ratio": self.gamma_ratio, "gamma_eps": self.gamma_eps,
            "gamma_eps_err": self.gamma_eps_err, "gamma_residual": self.residual,
            "gamma_residual_err": self.residual_err,
        }


def gamma_preservation(
    lam_max_E: float, gamma: float, lam_max_K: float, err: float = 0.0, cutoff: float = EIG_CUTOFF
) -> GammaPreservation:
    """ρ, ρ/γ, ε = max(0, 1 − γ/ρ) from λ_max(E) (module docstring: ρ = γ + λ_max(E)).

    ``err`` is the stated error of λ_max(E); it propagates to ε through
    dε/dλ = γ/(γ+λ)².
    """
    lam = max(float(lam_max_E), 0.0)
    if lam <= cutoff * lam_max_K:
        return GammaPreservation(0.0, 0.0, 0.0, 0.0, lam, float(err))
    rho = gamma + lam
    eps = max(0.0, 1.0 - gamma / rho)
    return GammaPreservation(rho, rho / gamma, eps, gamma * float(err) / rho**2, lam, float(err))


def effective_dimension(eigenvalues: np.ndarray, gamma: float, cutoff: float = EIG_CUTOFF) -> float:
    """d_eff(γ) = Σ λ/(λ+γ) over the eigenvalues of K above cutoff·λ_max (Def. 3)."""
    lam = np.asarray(eigenvalues, dtype=np.float64)
    lam = lam[lam > cutoff * lam.max()]
    return float(np.sum(lam / (lam + gamma)))


def residual_matrix(K: np.ndarray, F: np.ndarray) -> np.ndarray:
    """E = K − FFᵀ (dense, n×n): the Gram matrix of the residuals Π_m^⊥φ_i."""
    E = F @ -F.T
    E += K
    return E
