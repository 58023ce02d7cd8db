"""Yin's unified sketches (yin_nystrom, subgaussian, ros), the Gaussian projection and
the transform helpers they use (``orthonormal``, SRHT's DCT variant and ``prefix``),
checked against dense brute force on small problems."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.linalg

from kktheory.errors import ConfigError, MemoryBudgetError
from kktheory.kernels.functions import Kernel
from kktheory.seeding import component_rng
from kktheory.embeddings import SKETCHES, SketchContext
from kktheory.embeddings.ros import nearest_powers_of_two
from kktheory.embeddings.yin import shell_coordinates
from kktheory.embeddings.transforms import SRHT, orthonormal

SIGMA = 1.5


def make(name: str, n: int, k: int = 3, budget: int = 2**30, **params):
    entry = SKETCHES.get(name)
    return entry.impl(entry.config_cls(**params), SketchContext(n=n, k=k, gamma=1.0, budget=budget))


def data(n: int, d: int = 3, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=(n, d))


def dense_gaussian(X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """exp(−‖x−y‖²/(2σ²)) by explicit differences (independent of kktheory.kernels.functions)."""
    diff = X[:, None, :] - Y[None, :, :]
    return np.exp(-(diff**2).sum(-1) / (2 * SIGMA**2))


KERNEL = Kernel("gaussian", sigma=SIGMA)


def fitted(name: str, X: np.ndarray, m: int, seed: int = 0, **params):
    return make(name, len(X), **params).fit(X, KERNEL, m, component_rng(seed, "sketch"))


def sq_dists(F: np.ndarray) -> np.ndarray:
    return ((F[:, None, :] - F[None, :, :]) ** 2).sum(-1)


# -- yin_nystrom ------------------------------------------------------------------------
def test_yin_nystrom_features_are_raw_kernel_columns():
    X = data(40)
    sk = fitted("yin_nystrom", X, 7)
    K = dense_gaussian(X, X)
    assert sk.landmarks_.shape == (7,) and len(set(sk.landmarks_)) == 7
    np.testing.assert_allclose(sk.transform(X), K[:, sk.landmarks_], atol=1e-12)
    Xt = data(5, seed=1)  # new points: κ(landmarks, x)
    np.testing.assert_allclose(sk.transform(Xt), dense_gaussian(Xt, X[sk.landmarks_]), atol=1e-12)
    assert sk.jl_scale() == pytest.approx(7 / 40)


def test_yin_sketches_share_the_landmarks_of_nystrom():
    X = data(50)
    ref = fitted("nystrom", X, 9).landmarks_
    for name, params in [("yin_nystrom", {}), ("subgaussian", {}), ("ros", {})]:
        np.testing.assert_array_equal(fitted(name, X, 9, **params).landmarks_, ref)


# -- subgaussian ----------------------------------------------------------------------------
def test_shell_order_enumerates_leading_blocks():
    for m in (1, 2, 5, 9):
        r, c = shell_coordinates(np.arange(m * m))
        assert set(zip(r.tolist(), c.tolist())) == {(i, j) for i in range(m) for j in range(m)}


def test_subgaussian_density_signs_and_scale():
    n, m = 10_000, 400  # p = 1/√n = 0.01 as printed: about 1600 non-zeros in 160 000 entries
    sk = make("subgaussian", n)
    sk.set_mixing(sk.draw(n, m, np.random.default_rng(3)), m)
    S = sk.S_.toarray()
    p = 1 / math.sqrt(n)
    assert sk.p_ == pytest.approx(p)
    nnz = np.count_nonzero(S)
    mean, sd = m * m * p, math.sqrt(m * m * p * (1 - p))
    assert abs(nnz - mean) < 4 * sd, (nnz, mean, sd)
    values = S[S != 0]
    np.testing.assert_allclose(np.abs(values), 1 / math.sqrt(m), rtol=1e-15)
    positive = np.count_nonzero(values > 0)
    assert abs(positive - nnz / 2) < 4 * math.sqrt(nnz / 4)
    # ‖S‖_F² = Σ_i ‖row_i‖² has mean m·p (each row: E‖S_i‖² = m·p/m)
    assert abs((S**2).sum() - m * p) < 4 * sd / m
    zero_rows = int((np.abs(S).sum(axis=1) == 0).sum())
    assert sk.info_ == {"subgaussian_p": p, "subgaussian_nnz": nnz, "subgaussian_zero_rows": zero_rows}
    # rows entirely zero: expected m(1 − p)^m ≈ m e^{-m p}
    q = (1 - p) ** m
    assert abs(zero_rows - m * q) < 4 * math.sqrt(m * q * (1 - q))


def test_subgaussian_features_equal_dense_product():
    X = data(60)
    sk = fitted("subgaussian", X, 12, p=0.3)
    S = sk.S_.toarray()
    K_hat = dense_gaussian(X[sk.landmarks_], X)  # m × n
    np.testing.assert_allclose(sk.transform(X), (S @ K_hat).T, atol=1e-12)
    assert sk.jl_scale() == pytest.approx(0.3 * 12 / 60)


def test_subgaussian_p_is_validated():
    with pytest.raises(ConfigError, match="sketch.p"):
        make("subgaussian", 10, p=1.5).validate(3)


# -- ros --------------------------------------------------------------------------------
def test_ros_hadamard_equals_dense_hadamard_product():
    X = data(70)
    m = 16
    sk = fitted("ros", X, m, transform="hadamard")
    A = scipy.linalg.hadamard(m) / math.sqrt(m)
    D = np.diag(sk.signs_)
    K_hat = dense_gaussian(X[sk.landmarks_], X)
    np.testing.assert_allclose(sk.transform(X), (D @ A @ K_hat).T, atol=1e-10, rtol=0)
    assert set(np.unique(sk.signs_)) <= {-1.0, 1.0}


def dct_matrix(m: int) -> np.ndarray:
    """Orthonormal DCT-II: C_kj = √(2/m)·c_k·cos(π(2j+1)k/(2m)), c_0 = 1/√2."""
    k, j = np.meshgrid(np.arange(m), np.arange(m), indexing="ij")
    C = math.sqrt(2 / m) * np.cos(np.pi * (2 * j + 1) * k / (2 * m))
    C[0] /= math.sqrt(2)
    return C


@pytest.mark.parametrize("m", [5, 12, 13])
def test_ros_dct_path_is_orthonormal_and_matches_dense(m):
    C = dct_matrix(m)
    np.testing.assert_allclose(C.T @ C, np.eye(m), atol=1e-12)
    X = data(40)
    sk = fitted("ros", X, m, transform="dct")
    K_hat = dense_gaussian(X[sk.landmarks_], X)
    F = sk.transform(X)
    np.testing.assert_allclose(F, (np.diag(sk.signs_) @ C @ K_hat).T, atol=1e-12)
    # S = D·C is orthogonal: column norms of K̂ are kept
    np.testing.assert_allclose(np.linalg.norm(F, axis=1), np.linalg.norm(K_hat, axis=0), rtol=1e-12)


@pytest.mark.parametrize("transform", ["dct", "hadamard"])
def test_printed_ros_is_an_isometry_of_yin_nystrom(transform):
    X = data(50)
    ros = fitted("ros", X, 8, transform=transform)
    yin = fitted("yin_nystrom", X, 8)
    np.testing.assert_allclose(sq_dists(ros.transform(X)), sq_dists(yin.transform(X)), atol=1e-12)


@pytest.mark.parametrize("transform", ["dct", "hadamard"])
def test_ros_mix_first_equals_dense_formula(transform):
    n, m = 37, 10
    X = data(n)
    sk = fitted("ros", X, m, transform=transform, order="mix_first")
    srht = sk.srht_
    N = srht.N
    A = scipy.linalg.hadamard(N) / math.sqrt(N) if transform == "hadamard" else dct_matrix(N)
    R = math.sqrt(N / m) * A[srht.cols][:, :n] * srht.signs[None, :]  # √(N/m)·P·A_N·D
    K = dense_gaussian(X, X)
    np.testing.assert_allclose(sk.transform(X), (R @ K).T, atol=1e-10)
    Xt = data(4, seed=2)
    np.testing.assert_allclose(sk.transform(Xt), (R @ dense_gaussian(X, Xt)).T, atol=1e-10)
    assert sk.landmarks_ is None and sk.jl_scale() == 1.0


def test_ros_hadamard_refuses_other_m_with_nearest_valid_values():
    sk = make("ros", 2000, transform="hadamard")
    with pytest.raises(ConfigError) as err:
        sk.validate(100)
    msg = str(err.value)
    assert "m=100" in msg and "64 or 128" in msg and "transform=dct" in msg and "\n" not in msg
    sk.validate(64)
    make("ros", 2000, transform="dct").validate(100)
    make("ros", 2000, transform="hadamard", order="mix_first").validate(100)
    assert nearest_powers_of_two(100, 100) == [64]
    assert nearest_powers_of_two(1000, 2000) == [512, 1024]


# -- gaussian ---------------------------------------------------------------------------------
def test_gaussian_projection_equals_dense_product():
    X = data(45)
    sk = fitted("gaussian", X, 6)
    G = sk.G_
    assert G.shape == (6, 45)
    K = dense_gaussian(X, X)
    np.testing.assert_allclose(sk.transform(X), K @ G.T / math.sqrt(6), atol=1e-12)
    Xt = data(3, seed=5)
    np.testing.assert_allclose(sk.transform(Xt), dense_gaussian(Xt, X) @ G.T / math.sqrt(6), atol=1e-12)
    np.testing.assert_array_equal(G, component_rng(0, "sketch").standard_normal((6, 45)))


def test_gaussian_refuses_above_budget():
    with pytest.raises(MemoryBudgetError, match="Gaussian projection"):
        make("gaussian", 100_000, budget=2**20).validate(1000)


# -- shared properties ----------------------------------------------------------------------
NESTED = [
    ("yin_nystrom", {}, [3, 7, 12]),
    ("subgaussian", {"p": 0.4}, [3, 7, 12]),
    ("ros", {"transform": "dct"}, [3, 7, 12]),
    ("ros", {"transform": "hadamard"}, [4, 8, 16]),
    ("ros", {"transform": "dct", "order": "mix_first"}, [3, 7, 12]),
    ("ros", {"transform": "hadamard", "order": "mix_first"}, [3, 7, 12]),
    ("gaussian", {}, [3, 7, 12]),
]


@pytest.mark.parametrize("name,params,ms", NESTED)
def test_m_alone_equals_m_inside_a_list(name, params, ms):
    X = data(48)
    probe = make(name, len(X), **params)
    nested = dict(type(probe).fit_nested(
        probe.params, probe.ctx, X, KERNEL, ms, lambda: component_rng(4, "sketch")
    ))
    for m in ms:
        alone = fitted(name, X, m, seed=4, **params)
        np.testing.assert_allclose(nested[m].transform(X), alone.transform(X), atol=1e-12)
        Xt = data(3, seed=9)
        np.testing.assert_allclose(nested[m].transform(Xt), alone.transform(Xt), atol=1e-12)
        if alone.landmarks_ is not None:
            np.testing.assert_array_equal(nested[m].landmarks_, alone.landmarks_)
        assert nested[m].jl_scale() == pytest.approx(alone.jl_scale())


JL = [
    ("yin_nystrom", {}),
    ("subgaussian", {"p": 0.5}),
    ("ros", {"transform": "dct"}),
    ("ros", {"transform": "hadamard", "order": "mix_first"}),
    ("gaussian", {}),
]


@pytest.mark.parametrize("name,params", JL)
def test_jl_scale_is_the_expected_squared_distance_ratio(name, params):
    """Σ_pairs ‖R(k_i − k_j)‖² / Σ_pairs ‖k_i − k_j‖², averaged over draws, → jl_scale()."""
    X = data(32)
    K = dense_gaussian(X, X)
    base = sq_dists(K).sum()
    ratios, scale = [], None
    for seed in range(300):
        sk = fitted(name, X, 8, seed=seed, **params)
        ratios.append(sq_dists(sk.transform(X)).sum() / base)
        scale = sk.jl_scale()
    ratios = np.asarray(ratios)
    se = ratios.std(ddof=1) / math.sqrt(len(ratios))
    assert abs(ratios.mean() - scale) < 4 * se + 1e-12, (ratios.mean(), scale, se)


# -- transform helpers ----------------------------------------------------------------

@pytest.mark.parametrize("transform,n", [("hadamard", 16), ("dct", 11)])
def test_orthonormal_equals_dense_matrix(transform, n):
    A = scipy.linalg.hadamard(n) / math.sqrt(n) if transform == "hadamard" else dct_matrix(n)
    U = np.random.default_rng(0).normal(size=(n, 3))
    np.testing.assert_allclose(orthonormal(U, transform), A @ U, atol=1e-12)
    np.testing.assert_allclose(A @ A.T, np.eye(n), atol=1e-12)


def test_orthonormal_rejects_unknown_transform():
    with pytest.raises(ValueError, match="unknown transform"):
        orthonormal(np.eye(4), "fourier")


def test_srht_dct_equals_dense_formula_and_is_isotropic():
    n, c = 13, 5
    srht = SRHT(n, c, np.random.default_rng(1), transform="dct")
    assert srht.N == n
    Omega = np.diag(srht.signs) @ dct_matrix(n).T[:, srht.cols] * math.sqrt(n / c)
    np.testing.assert_allclose(srht.dense(), Omega, atol=1e-12)
    # E[Ω Ωᵀ] = I: average over many draws
    acc = np.zeros((n, n))
    draws = 3000
    rng = np.random.default_rng(2)
    for _ in range(draws):
        O = SRHT(n, c, rng, transform="dct").dense()
        acc += O @ O.T
    assert np.abs(acc / draws - np.eye(n)).max() < 0.15


@pytest.mark.parametrize("transform", ["hadamard", "dct"])
def test_srht_prefix_is_the_smaller_draw(transform):
    n = 21
    big = SRHT(n, 9, np.random.default_rng(7), transform=transform)
    for c in (1, 4, 9):
        small = SRHT(n, c, np.random.default_rng(7), transform=transform)
        np.testing.assert_allclose(big.prefix(c).dense(), small.dense(), atol=1e-12)
        np.testing.assert_allclose(big.prefix(c).dense(), big.dense()[:, :c] * math.sqrt(9 / c), atol=1e-12)
    with pytest.raises(ValueError):
        big.prefix(10)
