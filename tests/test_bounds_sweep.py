"""γ-preservation ε and JL distortion decrease in m on Yin's synthetic data (n = 4000).

Five data draws; for each, nested uniform landmark sets (prefixes of one permutation) give
Nyström features (γ-preservation, γ = √n) and Yin's uniform-sampling sketch k_i ↦ Q k_i
(JL distortion at scale m/n, all 8·10⁶ pairs). The means over draws must decrease with m,
up to a loose tolerance. About 1–2 minutes on 2 cores: marked slow.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from kktheory.evaluation.bounds import gamma_preservation, jl_distortion, pair_ratios, residual_matrix
from kktheory.kernels.spectrum import lambda_max_dense
from kktheory.datasets import DATASETS
from kktheory.kernels.functions import Kernel
from kktheory.seeding import component_rng

N, K_CLUSTERS, MS, SEEDS = 4000, 10, (25, 50, 100, 200, 400), range(5)


@pytest.mark.slow
def test_gamma_eps_and_jl_eps_decrease_in_m():
    gamma = math.sqrt(N)
    cfg = DATASETS.params({"name": "yin_hypercube"})
    g_eps, jl_eps, jl_free = [], [], []
    for seed in SEEDS:
        X = DATASETS.get("yin_hypercube").impl(cfg, N, 10, K_CLUSTERS, component_rng(seed, "data")).X_train
        K = Kernel("gaussian", sigma=2.0)(X, X)
        K2 = K @ K
        lam_max_K = lambda_max_dense(K, np.random.default_rng(seed))[0]
        perm = np.random.default_rng(seed).permutation(N)
        row_g, row_j, row_f = [], [], []
        for m in MS:
            idx = perm[:m]
            lam, U = np.linalg.eigh(K[np.ix_(idx, idx)])
            keep = lam > 1e-12 * lam.max()
            F = K[:, idx] @ (U[:, keep] / np.sqrt(lam[keep]))
            lam_E, err = lambda_max_dense(residual_matrix(K, F), np.random.default_rng(seed))
            row_g.append(gamma_preservation(lam_E, gamma, lam_max_K, err).gamma_eps)
            R_K = K[:, idx]  # row i = Q k_i
            jl = jl_distortion(pair_ratios(K2, R_K @ R_K.T), m / N)
            row_j.append(jl["jl_eps"])
            row_f.append(jl["jl_eps_free"])
        g_eps.append(row_g)
        jl_eps.append(row_j)
        jl_free.append(row_f)
    mean_g, mean_j, mean_f = (np.mean(a, axis=0) for a in (g_eps, jl_eps, jl_free))
    print(f"\nm = {MS}\nmean gamma_eps    = {np.round(mean_g, 3)}\n"
          f"mean jl_eps       = {np.round(mean_j, 3)}\nmean jl_eps_free  = {np.round(mean_f, 3)}")
    for mean in (mean_g, mean_j, mean_f):
        assert np.all(np.diff(mean) <= 0.02 * mean[0])  # non-increasing up to 2 % of the start
        assert mean[-1] < mean[0]
    assert mean_g[-1] < 0.5 * mean_g[0] and mean_j[-1] < 0.5 * mean_j[0]
    assert np.all(np.array(jl_free) <= np.array(jl_eps))
