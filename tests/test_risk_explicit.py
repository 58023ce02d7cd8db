"""Lifted risks through the kernel trick equal explicit feature-space computations.

With the linear kernel φ(x) = x, so centroids, distances and risks can be computed
directly; the degree-2 polynomial kernel (⟨x,y⟩ + c)² has the explicit map
φ(x) = (x⊗x, √(2c)·x, c).
"""

from __future__ import annotations

import numpy as np
import pytest

from kktheory.kernels.functions import Kernel
from kktheory.evaluation.risk import RiskSettings, lifted


def explicit_risks(F_train, labels, F_test, k):
    centres = np.stack([F_train[labels == j].mean(axis=0) for j in range(k)])
    d_train = ((F_train[:, None, :] - centres[None]) ** 2).sum(-1)
    d_test = ((F_test[:, None, :] - centres[None]) ** 2).sum(-1)
    return (
        d_train.min(1).mean(),
        d_train[np.arange(len(labels)), labels].mean(),
        d_test.min(1).mean(),
        d_test.argmin(1),
    )


def poly2_features(X, c):
    outer = np.einsum("ni,nj->nij", X, X).reshape(len(X), -1)
    return np.hstack([outer, np.sqrt(2 * c) * X, np.full((len(X), 1), c)])


@pytest.mark.parametrize("budget", [2**30, 2**12])  # single block, and many tiny blocks
@pytest.mark.parametrize("kind", ["linear", "poly2"])
def test_lifted_risk_matches_explicit_features(kind, budget):
    rng = np.random.default_rng(0)
    X, Xt = rng.standard_normal((150, 4)), rng.standard_normal((60, 4))
    k = 5
    labels = rng.integers(0, k, 150)  # an arbitrary partition: not a k-means optimum
    if kind == "linear":
        kernel, F, Ft = Kernel("linear"), X, Xt
    else:
        kernel = Kernel("polynomial", degree=2, coef0=0.7)
        F, Ft = poly2_features(X, 0.7), poly2_features(Xt, 0.7)
    res = lifted(kernel, X, labels, Xt, k, RiskSettings.exact(budget))
    train, objective, test, test_labels = explicit_risks(F, labels, Ft, k)
    assert res.train_risk == pytest.approx(train, abs=1e-10, rel=1e-10)
    assert res.objective == pytest.approx(objective, abs=1e-10, rel=1e-10)
    assert res.test_risk == pytest.approx(test, abs=1e-10, rel=1e-10)
    np.testing.assert_array_equal(res.test_labels, test_labels)
    assert res.train_risk <= res.objective + 1e-12


def test_gaussian_distances_are_at_most_two():
    # ‖φ(x) − c‖² ≤ 4 for unit-norm features; a quick sanity bound on the Gaussian path
    rng = np.random.default_rng(1)
    X = rng.standard_normal((80, 3))
    res = lifted(Kernel("gaussian", sigma=1.0), X, rng.integers(0, 3, 80), X, 3, RiskSettings.exact(2**30))
    assert 0 <= res.train_risk <= res.objective <= 4


@pytest.mark.parametrize("kind", ["linear", "poly2"])
def test_lifted_centroids_match_explicit_features(kind):
    """LiftedCentroids (exact): distances to the centroids and the risk of new points equal
    the explicit feature-space ones; an empty cluster is at +inf."""
    from kktheory.evaluation.risk import LiftedCentroids

    rng = np.random.default_rng(2)
    X, Xt = rng.standard_normal((90, 3)), rng.standard_normal((40, 3))
    k = 4
    labels = rng.integers(0, k - 1, 90)  # cluster k − 1 empty
    if kind == "linear":
        kernel, F, Ft = Kernel("linear"), X, Xt
    else:
        kernel = Kernel("polynomial", degree=2, coef0=0.7)
        F, Ft = poly2_features(X, 0.7), poly2_features(Xt, 0.7)
    centres = np.stack([F[labels == j].mean(axis=0) for j in range(k - 1)])
    want = ((Ft[:, None, :] - centres[None]) ** 2).sum(-1)
    c = LiftedCentroids.fit(kernel, X, labels, k, 2**30, True, 10, np.random.default_rng(0))
    D = c.distances(Xt)
    np.testing.assert_allclose(D[:, : k - 1], want, rtol=1e-10, atol=1e-10)
    assert np.all(np.isinf(D[:, k - 1]))
    risk, se, nearest, idx = c.risk(Xt, points=5, rng=np.random.default_rng(0))  # exact: every point
    assert idx is None and se == 0.0 and risk == pytest.approx(want.min(1).mean(), rel=1e-10)
    np.testing.assert_array_equal(nearest, want.argmin(1))
