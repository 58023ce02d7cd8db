"""JL distortion (Yin Lemma 5), projection ratios, the kernel-column objective (Yin Lemma 6)
and Yin's required m, against explicit pairwise loops written here.

Yin's sketches are constructed directly: R = rows of I_n sampled uniformly (scale m/n) and
a Gaussian matrix G/√m (scale 1); the features of point i are R·k_i.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from kktheory.evaluation.bounds import (
    jl_distortion, kernel_columns_objective, pair_ratios, projection_ratios, yin_implied_eps,
    yin_lemma6_bound, yin_required_m,
)
from kktheory.kernels.functions import Kernel

N = 200


def explicit_ratios(V: np.ndarray, W: np.ndarray) -> np.ndarray:
    """‖w_i − w_j‖²/‖v_i − v_j‖² over i < j by a loop over rows (V, W: points × dims)."""
    out = []
    for i in range(len(V)):
        for j in range(i + 1, len(V)):
            d = np.sum((V[i] - V[j]) ** 2)
            if d > 1e-12 * np.max(np.sum(V * V, axis=1)):
                out.append(np.sum((W[i] - W[j]) ** 2) / d)
    return np.array(out)


@pytest.fixture(scope="module")
def data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    centres = rng.choice([-1.0, 1.0], size=(4, 8))
    X = centres[rng.integers(0, 4, N)] + rng.standard_normal((N, 8))
    return X, Kernel("gaussian", sigma=2.0)(X, X)


@pytest.mark.parametrize("sketch", ["uniform", "gaussian"])
def test_jl_distortion_of_R_K(data, sketch):
    _, K = data
    rng = np.random.default_rng(1)
    m = 40
    if sketch == "uniform":
        R = np.eye(N)[rng.permutation(N)[:m]]
        scale = m / N
    else:
        R = rng.standard_normal((m, N)) / math.sqrt(m)
        scale = 1.0
    F = (R @ K).T  # row i = R k_i
    r = explicit_ratios(K.T, F)  # rows of K.T are the columns k_i
    jl = jl_distortion(pair_ratios(K @ K, F @ F.T), scale)
    assert jl["jl_pairs"] == r.size == N * (N - 1) // 2
    assert jl["jl_ratio_min"] == pytest.approx(r.min(), rel=1e-9)
    assert jl["jl_ratio_max"] == pytest.approx(r.max(), rel=1e-9)
    assert jl["jl_eps"] == pytest.approx(np.abs(r / scale - 1).max(), rel=1e-9)
    assert jl["jl_eps_free"] == pytest.approx((r.max() - r.min()) / (r.max() + r.min()), rel=1e-9)
    assert jl["jl_eps_free"] <= jl["jl_eps"]
    # the best scale s* = (max r + min r)/2 attains jl_eps_free
    s_star = (r.max() + r.min()) / 2
    assert np.abs(r / s_star - 1).max() == pytest.approx(jl["jl_eps_free"], rel=1e-9)


def test_identity_sketch_has_no_distortion(data):
    _, K = data
    jl = jl_distortion(pair_ratios(K @ K, K @ K), 1.0)
    assert jl["jl_eps"] == pytest.approx(0.0, abs=1e-9) and jl["jl_eps_free"] == pytest.approx(0.0, abs=1e-9)


def test_a_sketch_that_collapses_every_point_has_distortion_one(data):
    """Yin's sparse sub-Gaussian S can be all zero (probability (1 − p)^{m²}): every embedded
    distance is 0, so no scale s gives |s·r − 1| below 1 — both distortions are 1, computed
    here by brute force over a grid of scales."""
    _, K = data
    G, H = K @ K, np.zeros_like(K)
    jl = jl_distortion(pair_ratios(G, H), 0.3)
    d = lambda M, i, j: M[i, i] + M[j, j] - 2 * M[i, j]  # noqa: E731  (a pair's squared distance)
    r = np.array([d(H, i, j) / d(G, i, j) for i in range(N) for j in range(i + 1, N)])
    best = min(np.abs(s * r - 1.0).max() for s in np.geomspace(1e-3, 1e3, 61))
    assert jl["jl_eps"] == 1.0 and jl["jl_eps_free"] == best == 1.0 and jl["jl_ratio_max"] == 0.0
    same = jl_distortion(pair_ratios(np.ones((4, 4)), np.ones((4, 4))), 1.0)  # no pair apart: nothing measured
    assert math.isnan(same["jl_eps"]) and math.isnan(same["jl_eps_free"]) and same["jl_pairs"] == 0


def test_projection_ratios_nystrom(data):
    X, K = data
    idx = np.random.default_rng(2).permutation(N)[:25]
    lam, U = np.linalg.eigh(K[np.ix_(idx, idx)])
    F = K[:, idx] @ (U / np.sqrt(lam))
    # explicit: ‖φ_i − φ_j‖² = K_ii + K_jj − 2K_ij; embedded distances from F rows
    d_true = np.array([K[i, i] + K[j, j] - 2 * K[i, j] for i in range(N) for j in range(i + 1, N)])
    d_emb = np.array([np.sum((F[i] - F[j]) ** 2) for i in range(N) for j in range(i + 1, N)])
    r = d_emb / d_true
    pr = projection_ratios(pair_ratios(K, F @ F.T))
    assert pr["proj_ratio_min"] == pytest.approx(r.min(), rel=1e-8)
    assert pr["proj_ratio_mean"] == pytest.approx(r.mean(), rel=1e-8)
    assert pr["proj_ratio_max"] == pytest.approx(r.max(), rel=1e-8)
    assert pr["proj_ratio_max"] <= 1 + 1e-9
    assert pr["proj_pairs"] == N * (N - 1) // 2


def test_duplicate_points_have_no_ratio():
    V = np.array([[0.0, 1.0], [0.0, 1.0], [2.0, 0.0]])
    pr = pair_ratios(V @ V.T, 2 * V @ V.T)
    assert pr.count == 2 and pr.min == pytest.approx(2.0) and pr.max == pytest.approx(2.0)


def test_kernel_columns_objective(data):
    _, K = data
    labels = np.random.default_rng(3).integers(0, 5, N)
    labels[labels == 4] = 0  # cluster 4 empty
    cost = 0.0
    for j in range(5):
        cols = K[:, labels == j].T  # the kernel columns in cluster j, as rows
        if len(cols):
            cost += np.sum((cols - cols.mean(axis=0)) ** 2)
    assert kernel_columns_objective(K, labels, 5) == pytest.approx(cost / N, rel=1e-10)


def test_yin_required_m_and_implied_eps():
    n, delta = 4000, 0.1
    for eps in (0.05, 0.3, 0.9, 2.5):
        m = yin_required_m(n, delta, eps)
        assert m == pytest.approx((4 * math.log(n) - 2 * math.log(delta)) / (eps - math.log(1 + eps)))
        assert yin_implied_eps(n, delta, m) == pytest.approx(eps, rel=1e-9)
    assert yin_implied_eps(n, delta, 100) > yin_implied_eps(n, delta, 400)
    assert yin_lemma6_bound(0.2) == pytest.approx(0.4 / 0.8)
    assert yin_lemma6_bound(1.0) == math.inf
