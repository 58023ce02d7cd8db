"""Batched lifted risks (kktheory.evaluation.risk.lifted_many): several partitions in one pass over the
kernel blocks give the numbers of each partition evaluated alone, and the plain numpy
computation (explicit features of the linear kernel, the dense Gram matrix otherwise).
"""

from __future__ import annotations

import numpy as np
import pytest

from kktheory.kernels import gram
from kktheory.machine import memory
from kktheory.kernels.functions import Kernel
from kktheory.evaluation.risk import (
    Risk,
    RiskSettings,
    lifted,
    lifted_many,
)

SIGMA = 1.3
K = 4
N, N_TEST = 120, 50
BUDGET = 1  # blocks of the minimal size (further reduced by the small_blocks fixture)
SEED = 11
SETTINGS = {
    "exact": RiskSettings(BUDGET, exact_limit=10**6, points=30, pairs=50),
    "subsample": RiskSettings(BUDGET, exact_limit=10, points=30, pairs=200),
}


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Kernel blocks of a few rows and float32 products summed 7 terms at a time, so that
    every cross sum runs over several row blocks (checked in :func:`data`)."""
    monkeypatch.setattr(memory, "MAX_BLOCK_BYTES", 2000)
    monkeypatch.setattr(gram, "INNER_CHUNK", 7)


def data() -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """Training and test points and three partitions; the third has cluster 1 empty."""
    rng = np.random.default_rng(0)
    X, Xt = rng.standard_normal((N, 3)), rng.standard_normal((N_TEST, 3))
    third = rng.integers(0, 3, N)
    third[third == 1] = 3
    labelings = [rng.integers(0, K, N), np.arange(N) % K, third]
    assert Kernel("gaussian", sigma=SIGMA).block_rows(N, N, BUDGET) < N_TEST  # several blocks
    return X, Xt, labelings


def make_kernel(kind: str, dtype: str) -> Kernel:
    return Kernel("linear", dtype=dtype) if kind == "linear" else Kernel("gaussian", sigma=SIGMA, dtype=dtype)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("kind", ["linear", "gaussian"])
@pytest.mark.parametrize("mode", sorted(SETTINGS))
def test_batch_equals_each_partition_alone(mode: str, kind: str, dtype: str) -> None:
    X, Xt, labelings = data()
    kernel, settings = make_kernel(kind, dtype), SETTINGS[mode]
    many = lifted_many(kernel, X, labelings, Xt, K, settings, lambda: np.random.default_rng(SEED))
    assert len(many) == len(labelings)
    rel = 1e-10 if dtype == "float64" else 1e-5
    for labels, got in zip(labelings, many):
        alone = lifted(kernel, X, labels, Xt, K, settings, np.random.default_rng(SEED))
        for name in ("train_risk", "objective", "test_risk", "train_risk_se", "objective_se",
                     "test_risk_se", "bias_bound"):
            assert getattr(got, name) == pytest.approx(getattr(alone, name), rel=rel, abs=1e-12), name
        for name in ("train_nearest", "test_labels", "train_eval", "test_eval"):
            np.testing.assert_array_equal(getattr(got, name), getattr(alone, name), err_msg=name)
        assert got.estimator == alone.estimator
        if mode == "subsample":
            assert got.estimator.startswith("subsample") and len(got.test_eval) == settings.points
            assert got.objective_se > 0  # the pairs were sampled, not summed exactly


def explicit_linear(X: np.ndarray, labels: np.ndarray, Xt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Squared distances to the cluster means of X (φ(x) = x), +inf for empty clusters."""
    def dist(P: np.ndarray) -> np.ndarray:
        D = np.full((len(P), K), np.inf)
        for j in range(K):
            if np.any(labels == j):
                D[:, j] = ((P - X[labels == j].mean(axis=0)) ** 2).sum(axis=1)
        return D

    return dist(X), dist(Xt)


def dense_gaussian(X: np.ndarray, labels: np.ndarray, Xt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """‖φ(x) − c_j‖² = κ(x,x) − 2 mean_{l∈C_j} κ(x, x_l) + mean_{l,l'∈C_j} κ(x_l, x_l') from
    the dense Gaussian kernel matrices, +inf for empty clusters."""
    def gauss(A: np.ndarray, B: np.ndarray) -> np.ndarray:
        return np.exp(-((A[:, None, :] - B[None, :, :]) ** 2).sum(-1) / (2 * SIGMA**2))

    def dist(P: np.ndarray) -> np.ndarray:
        D = np.full((len(P), K), np.inf)
        for j in range(K):
            C = X[labels == j]
            if len(C):
                D[:, j] = 1.0 - 2.0 * gauss(P, C).mean(axis=1) + gauss(C, C).mean()
        return D

    return dist(X), dist(Xt)


@pytest.mark.parametrize(
    "settings",
    [SETTINGS["exact"], RiskSettings(BUDGET, exact_limit=0, points=10**6, pairs=10**6)],
    ids=["exact", "subsample-all-points-all-pairs"],  # the estimator is then exact
)
@pytest.mark.parametrize("kind", ["linear", "gaussian"])
def test_batch_equals_numpy(kind: str, settings: RiskSettings) -> None:
    X, Xt, labelings = data()
    kernel = make_kernel(kind, "float64")
    reference = explicit_linear if kind == "linear" else dense_gaussian
    many = lifted_many(kernel, X, labelings, Xt, K, settings, lambda: np.random.default_rng(SEED))
    for labels, got in zip(labelings, many):
        D, Dt = reference(X, labels, Xt)
        assert got.train_risk == pytest.approx(D.min(axis=1).mean(), rel=1e-10, abs=1e-10)
        assert got.objective == pytest.approx(D[np.arange(N), labels].mean(), rel=1e-10, abs=1e-10)
        assert got.test_risk == pytest.approx(Dt.min(axis=1).mean(), rel=1e-10, abs=1e-10)
        np.testing.assert_array_equal(got.train_nearest, D.argmin(axis=1))
        np.testing.assert_array_equal(got.test_labels, Dt.argmin(axis=1))
        assert got.train_eval is None and got.test_eval is None


def test_streams_must_draw_the_same_points() -> None:
    X, Xt, labelings = data()
    kernel, settings = make_kernel("gaussian", "float64"), SETTINGS["subsample"]
    rng = np.random.default_rng(SEED)
    with pytest.raises(ValueError, match="same state"):  # one generator for every labeling
        lifted_many(kernel, X, labelings, Xt, K, settings, lambda: rng)
    with pytest.raises(ValueError, match="needs make_rng"):
        lifted_many(kernel, X, labelings, Xt, K, settings)
    with pytest.raises(ValueError, match="labels for 120 training points"):
        lifted_many(kernel, X, [labelings[0][:-1]], Xt, K, RiskSettings.exact(BUDGET))
    with pytest.raises(ValueError, match="0..3"):
        lifted_many(kernel, X, [labelings[0] + 1], Xt, K, RiskSettings.exact(BUDGET))
    empty: list[Risk] = lifted_many(kernel, X, [], Xt, K, settings, lambda: rng)
    assert empty == []
