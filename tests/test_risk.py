"""Lifted and projected risks against explicit feature maps.

The linear kernel has φ(x) = x and the degree-2 polynomial kernel (⟨x,y⟩ + c)² has
φ(x) = [vec(x xᵀ), √(2c) x, c]; centroids, distances, risks and labels are recomputed
directly in that feature space with dense numpy.
"""

from __future__ import annotations

import numpy as np
import pytest

from kktheory.kernels.functions import Kernel
from kktheory.evaluation.risk import RiskSettings, lifted, projected_risk
from kktheory.embeddings.base import SketchContext
from kktheory.embeddings.nystrom import Nystrom, NystromConfig

TOL = 1e-10
C0 = 0.7


def phi_linear(X: np.ndarray) -> np.ndarray:
    return np.asarray(X, dtype=np.float64)


def phi_poly2(X: np.ndarray) -> np.ndarray:
    outer = np.einsum("ni,nj->nij", X, X).reshape(len(X), -1)
    return np.hstack([outer, np.sqrt(2 * C0) * X, np.full((len(X), 1), C0)])


KERNELS = {
    "linear": (Kernel("linear"), phi_linear),
    "poly2": (Kernel("polynomial", degree=2, coef0=C0), phi_poly2),
}


def brute_force(P_train, labels, P_test, centres):
    """Risks from explicit features and explicit centres (k × p, NaN rows = empty)."""
    def dist(P):
        D = ((P[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
        D[:, np.isnan(centres).any(axis=1)] = np.inf
        return D

    Dtr, Dte = dist(P_train), dist(P_test)
    return {
        "train_risk": Dtr.min(axis=1).mean(),
        "objective": Dtr[np.arange(len(labels)), labels].mean(),
        "test_risk": Dte.min(axis=1).mean(),
        "train_nearest": Dtr.argmin(axis=1),
        "test_labels": Dte.argmin(axis=1),
    }


def means(P, labels, k):
    return np.array([P[labels == j].mean(axis=0) if np.any(labels == j) else np.full(P.shape[1], np.nan) for j in range(k)])


def data(n=70, n_test=45, d=3, k=4, seed=0, empty=False):
    rng = np.random.default_rng(seed)
    X = 0.6 * rng.standard_normal((n, d))
    Xt = 0.6 * rng.standard_normal((n_test, d))
    labels = rng.integers(k - 1 if empty else k, size=n)  # cluster k−1 empty if asked
    return X, Xt, labels


def check(risk, expect):
    for name in ("train_risk", "objective", "test_risk"):
        assert getattr(risk, name) == pytest.approx(expect[name], rel=TOL, abs=TOL), name
    np.testing.assert_array_equal(risk.train_nearest, expect["train_nearest"])
    np.testing.assert_array_equal(risk.test_labels, expect["test_labels"])


@pytest.mark.parametrize("name", sorted(KERNELS))
@pytest.mark.parametrize("empty", [False, True])
def test_lifted_equals_explicit_features(name, empty):
    kernel, phi = KERNELS[name]
    k = 4
    X, Xt, labels = data(empty=empty)
    risk = lifted(kernel, X, labels, Xt, k, RiskSettings.exact(2**30))
    expect = brute_force(phi(X), labels, phi(Xt), means(phi(X), labels, k))
    check(risk, expect)
    assert risk.estimator == "exact" and risk.train_risk_se == 0 and risk.test_risk_se == 0
    assert risk.train_risk <= risk.objective + TOL


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_projected_equals_explicit_projection(name):
    """Nyström features: c̃_j = mean of Πφ_i with Π the projection onto span{φ(landmarks)}."""
    kernel, phi = KERNELS[name]
    k, m = 4, 3 if name == "linear" else 6
    X, Xt, labels = data(d=4 if name == "linear" else 3)
    ctx = SketchContext(n=len(X), k=k, gamma=1.0, budget=2**30)
    sk = Nystrom(NystromConfig(), ctx).fit(X, kernel, m, np.random.default_rng(3))
    risk = projected_risk(sk.transform(X), sk.residual(X), labels, sk.transform(Xt), sk.residual(Xt), k)
    P, Pt = phi(X), phi(Xt)
    L = P[sk.landmarks_].T  # p × m, columns span H_m
    Pi = L @ np.linalg.pinv(L)  # orthogonal projection onto span(L)
    expect = brute_force(P, labels, Pt, means(P @ Pi.T, labels, k))
    check(risk, expect)
    lifted_risk = lifted(kernel, X, labels, Xt, k, RiskSettings.exact(2**30))
    assert risk.objective >= lifted_risk.objective - TOL  # projecting centroids can only cost


def test_blocked_equals_single_block():
    rng = np.random.default_rng(1)
    X, Xt = rng.standard_normal((1000, 3)), rng.standard_normal((400, 3))
    labels = rng.integers(5, size=1000)
    kernel = Kernel("gaussian", sigma=1.5)
    one = lifted(kernel, X, labels, Xt, 5, RiskSettings.exact(2**34))  # one block
    many = lifted(kernel, X, labels, Xt, 5, RiskSettings.exact(1))  # 1 MiB blocks: 131 rows
    for name in ("train_risk", "objective", "test_risk"):
        assert getattr(many, name) == pytest.approx(getattr(one, name), rel=1e-12)
    np.testing.assert_array_equal(many.test_labels, one.test_labels)
    np.testing.assert_array_equal(many.train_nearest, one.train_nearest)
