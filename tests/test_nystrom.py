"""Nyström embedding: defining properties checked with dense numpy."""

from __future__ import annotations

import numpy as np

from kktheory.kernels.functions import Kernel
from kktheory.embeddings import SKETCHES, SketchContext
from kktheory.embeddings.nystrom import NystromConfig


def fit(X, m, seed=0, **params):
    ctx = SketchContext(n=len(X), k=3, gamma=1.0, budget=2**30)
    return SKETCHES.get("nystrom").impl(NystromConfig(**params), ctx).fit(
        X, Kernel("gaussian", sigma=1.5), m, np.random.default_rng(seed)
    )


def dense_K(X, sigma=1.5):
    d = ((X[:, None] - X[None]) ** 2).sum(-1)
    return np.exp(-d / (2 * sigma**2))


def test_m_equals_n_reproduces_K():
    X = np.random.default_rng(0).standard_normal((120, 2))
    sk = fit(X, 120)
    F = sk.transform(X)
    np.testing.assert_allclose(F @ F.T, dense_K(X), atol=1e-8)
    assert np.all(sk.residual(X) < 1e-8)


def test_features_are_projection_onto_landmark_span():
    rng = np.random.default_rng(1)
    X, Xt = rng.standard_normal((100, 3)), rng.standard_normal((20, 3))
    sk = fit(X, 15)
    L = X[sk.landmarks_]
    both = np.vstack([Xt, L])
    K = dense_K(both)
    K_tl, K_ll = K[:20, 20:], K[20:, 20:]
    np.testing.assert_allclose(sk.transform(Xt) @ sk.transform(Xt).T,
                               K_tl @ np.linalg.pinv(K_ll) @ K_tl.T, atol=1e-8)
    # residual = κ(x,x) − ‖Π φ(x)‖² ≥ 0
    proj = np.einsum("ij,jk,ik->i", K_tl, np.linalg.pinv(K_ll), K_tl)
    np.testing.assert_allclose(sk.residual(Xt), 1 - proj, atol=1e-8)


def test_duplicated_landmarks_do_not_break_the_embedding():
    X = np.repeat(np.random.default_rng(2).standard_normal((10, 2)), 3, axis=0)
    sk = fit(X, 30)
    assert sk.info_["rank_Kmm"] == 10
    F = sk.transform(X)
    np.testing.assert_allclose(F @ F.T, dense_K(X), atol=1e-8)


def test_landmarks_uniform_without_and_with_replacement():
    X = np.zeros((50, 1))
    assert len(set(fit(X, 50).landmarks_)) == 50
    draws = np.concatenate([fit(X, 50, seed=s, replace=True).landmarks_ for s in range(40)])
    counts = np.bincount(draws, minlength=50)  # 2000 draws, 40 expected per point
    chi2 = ((counts - 40) ** 2 / 40).sum()
    assert chi2 < 90  # χ²(49) 99.9% quantile ≈ 85.4; fixed seeds make this deterministic


def test_nested_landmarks_are_prefixes():
    X = np.random.default_rng(3).standard_normal((60, 2))
    big, small = fit(X, 30), fit(X, 10)
    np.testing.assert_array_equal(big.landmarks_[:10], small.landmarks_)
