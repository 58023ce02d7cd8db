"""γ-preservation, d_eff and their randomized estimates against dense recomputations.

The brute force here builds P_γ^{-1/2} E P_γ^{-1/2} on range(K) from a dense
eigendecomposition, exactly as Calandriello Def. 2 states it, and never
calls the implementation's closed form ρ = γ + λ_max(E).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from kktheory.evaluation.bounds import effective_dimension, gamma_preservation, lemma1_required_m, lemma2_bound, lemma3_required_m
from kktheory.kernels.spectrum import effective_dimension_hutchinson, lambda_max_dense, ritz_pairs
from kktheory.kernels.functions import Kernel

N = 300
GAMMA = math.sqrt(N)


def yin_data(n: int, seed: int, k: int = 10, d: int = 8) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.choice([-1.0, 1.0], size=(k, d))
    return centres[rng.integers(0, k, n)] + rng.standard_normal((n, d))


def nystrom_parts(K: np.ndarray, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(features F with FFᵀ = K_nm K_mm⁺ K_mn, dense E = K − K_nm pinv(K_mm) K_mn)."""
    C = K[:, idx]
    W = K[np.ix_(idx, idx)]
    lam, U = np.linalg.eigh(W)
    keep = lam > 1e-12 * lam.max()
    F = C @ (U[:, keep] / np.sqrt(lam[keep]))
    E = K - C @ np.linalg.pinv(W, rcond=1e-12, hermitian=True) @ C.T
    return F, E


def rho_by_definition(K: np.ndarray, E: np.ndarray, gamma: float, cutoff: float = 1e-10) -> float:
    """λ_max(P_γ^{-1/2} E P_γ^{-1/2}) on range(K), dense."""
    lam, V = np.linalg.eigh(K)
    keep = lam > cutoff * lam.max()
    V, lam = V[:, keep], lam[keep]
    P_inv_half = V * np.sqrt((lam + gamma) / lam)  # V diag(...) restricted to range(K)
    M = P_inv_half.T @ E @ P_inv_half
    return float(np.linalg.eigvalsh((M + M.T) / 2).max())


@pytest.fixture(scope="module")
def K() -> np.ndarray:
    X = yin_data(N, 0)
    return Kernel("gaussian", sigma=2.0)(X, X)


@pytest.mark.parametrize("m", [10, 17, 40, 120])
def test_rho_equals_definition(K, m):
    idx = np.random.default_rng(m).permutation(N)[:m]
    F, E = nystrom_parts(K, idx)
    lam_E, err = lambda_max_dense(K - F @ F.T, np.random.default_rng(1))
    assert abs(lam_E - np.linalg.eigvalsh(E).max()) <= 1e-9 * np.abs(E).max() + err
    gp = gamma_preservation(lam_E, GAMMA, np.linalg.eigvalsh(K).max(), err)
    rho = rho_by_definition(K, E, GAMMA)
    assert gp.rho == pytest.approx(rho, rel=1e-8)
    assert gp.gamma_ratio == pytest.approx(rho / GAMMA, rel=1e-8)
    assert gp.gamma_eps == pytest.approx(max(0.0, 1 - GAMMA / rho), rel=1e-8, abs=1e-12)
    assert gp.residual == pytest.approx(np.linalg.eigvalsh(E).max(), rel=1e-8)
    # Def. 2 itself: γ/(1−ε)·P_γ − E ⪰ 0 on range(K) at ε = gamma_eps, and not at a smaller ε
    lam, V = np.linalg.eigh(K)
    P = (V * (lam / (lam + GAMMA))) @ V.T
    for eps, sign in ((gp.gamma_eps, 1), (gp.gamma_eps - 0.01, -1)):
        D = GAMMA / (1 - eps) * P - E
        assert sign * np.linalg.eigvalsh((D + D.T) / 2).min() >= -1e-8 * sign * np.abs(D).max()


def test_full_dictionary_is_preserving(K):
    F, E = nystrom_parts(K, np.arange(N))
    lam_E, err = lambda_max_dense(K - F @ F.T, np.random.default_rng(2))
    gp = gamma_preservation(lam_E, GAMMA, np.linalg.eigvalsh(K).max(), err)
    assert gp.gamma_eps == 0.0 and gp.gamma_ratio == 0.0 and gp.rho == 0.0
    assert gp.residual <= 1e-9 and np.abs(E).max() <= 1e-9


def test_rank_deficient_kernel_range():
    """Linear kernel, d = 5: range(K) has dimension 5; 3 landmarks miss it, 8 span it."""
    rng = np.random.default_rng(3)
    X = rng.standard_normal((120, 5))
    K = X @ X.T
    for m, spans in ((3, False), (8, True)):
        F, E = nystrom_parts(K, np.arange(m))
        lam_E, err = lambda_max_dense(K - F @ F.T, rng)
        gp = gamma_preservation(lam_E, 4.0, np.linalg.eigvalsh(K).max(), err)
        if spans:
            assert gp.gamma_eps == 0.0 and gp.residual <= 1e-9
        else:
            assert gp.rho == pytest.approx(rho_by_definition(K, E, 4.0), rel=1e-8)


def test_effective_dimension(K):
    deff = effective_dimension(np.linalg.eigvalsh(K), GAMMA)
    assert deff == pytest.approx(np.trace(K @ np.linalg.inv(K + GAMMA * np.eye(N))), rel=1e-10)


def test_randomized_agree_within_stated_error(K):
    idx = np.random.default_rng(7).permutation(N)[:30]
    F, E = nystrom_parts(K, idx)
    exact = np.linalg.eigvalsh(E).max()
    ritz = ritz_pairs(lambda V: K @ V - F @ (F.T @ V), N, 1, np.random.default_rng(0), tol=1e-3)
    assert ritz.values[0] <= exact + 1e-10  # Ritz values never exceed λ_max
    assert abs(ritz.values[0] - exact) <= ritz.residuals[0]
    lam_max_K = np.linalg.eigvalsh(K).max()
    g_exact = gamma_preservation(exact, GAMMA, lam_max_K)
    g_rand = gamma_preservation(ritz.values[0], GAMMA, lam_max_K, ritz.residuals[0])
    assert abs(g_rand.gamma_eps - g_exact.gamma_eps) <= g_rand.gamma_eps_err
    # top-s eigenvalues of K
    lam = np.sort(np.linalg.eigvalsh(K))[::-1]
    top = ritz_pairs(lambda V: K @ V, N, 10, np.random.default_rng(1), tol=1e-4)
    assert np.all(top.values <= lam[:10] + 1e-10)
    assert np.all(np.abs(top.values - lam[:10]) <= top.residuals)
    # d_eff by Hutchinson + CG: within 3 stated errors (the error is a standard error + CG bound)
    est = effective_dimension_hutchinson(lambda V: K @ V, N, GAMMA, np.random.default_rng(2), 64, 1e-8)
    exact_deff = float(np.sum(lam / (lam + GAMMA)))
    assert abs(est.value - exact_deff) <= 3 * est.error
    assert est.error < 0.1 * exact_deff


def test_lemma_formulas():
    n, gamma, delta, eps = 2000, math.sqrt(2000), 0.1, 0.5
    assert lemma1_required_m(n, gamma, delta, eps) == pytest.approx(12 * n / gamma * math.log(n / delta) / eps**2)
    assert lemma1_required_m(n, gamma, delta, eps, kappa2=2.0) == pytest.approx(2 * 12 * n / gamma * math.log(n / delta) / eps**2)
    assert lemma3_required_m(n, 31.0, delta, eps) == pytest.approx(12 * 31.0 * math.log(n / delta) / eps**2)
    assert lemma2_bound(10, 31.2, 0.2, gamma, n) == pytest.approx(10 / 0.8 * gamma / n)
    assert lemma2_bound(10, 3.5, 0.2, gamma, n) == pytest.approx(3.5 / 0.8 * gamma / n)
