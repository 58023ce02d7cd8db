"""The subsampling estimator of the lifted risks: unbiasedness and standard errors.

200 independent draws of the estimator on one fixed problem; the exact values come from a
dense numpy kernel-trick computation written here. Acceptance: the mean of the
draws is within 3 standard errors (empirical sd/√200) of the exact value, and the mean
reported SE is within 20 % of the empirical sd of the draws.
"""

from __future__ import annotations

import numpy as np
import pytest

from kktheory.kernels.functions import Kernel
from kktheory.evaluation.risk import RiskSettings, lifted, within_cluster_sums

DRAWS = 200
SIGMA = 1.5


def gauss(A, B):
    d2 = ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=2)
    return np.exp(-d2 / (2 * SIGMA**2))


@pytest.fixture(scope="module")
def problem():
    """Four overlapping blobs; a noisy partition, so nearest ≠ own centroid for some points."""
    rng = np.random.default_rng(7)
    centres = 2.0 * rng.standard_normal((4, 2))
    y = rng.integers(4, size=600)
    X = centres[y] + rng.standard_normal((600, 2))
    Xt = centres[rng.integers(4, size=300)] + rng.standard_normal((300, 2))
    labels = np.where(rng.random(600) < 0.25, rng.integers(4, size=600), y)
    # dense brute force
    K, Kt = gauss(X, X), gauss(Xt, X)
    B = np.eye(4)[labels]
    N = B.sum(axis=0)
    q = np.einsum("lj,lm,mj->j", B, K, B) / N**2
    D = 1.0 - 2.0 * (K @ B) / N + q
    Dt = 1.0 - 2.0 * (Kt @ B) / N + q
    exact = {
        "train_risk": D.min(axis=1).mean(),
        "objective": D[np.arange(600), labels].mean(),
        "test_risk": Dt.min(axis=1).mean(),
    }
    assert np.mean(D.argmin(axis=1) != labels) > 0.1  # the min matters
    return X, Xt, labels, q, exact


def draws(problem, points, pairs):
    X, Xt, labels, _, _ = problem
    settings = RiskSettings(budget=2**30, exact_limit=0, points=points, pairs=pairs)
    kernel = Kernel("gaussian", sigma=SIGMA)
    out = {n: [] for n in ("train_risk", "objective", "test_risk")}
    ses = {n: [] for n in out}
    for s in range(DRAWS):
        r = lifted(kernel, X, labels, Xt, 4, settings, np.random.default_rng(1000 + s))
        assert r.estimator == f"subsample(b={points},pairs={pairs})"
        for n in out:
            out[n].append(getattr(r, n))
            ses[n].append(getattr(r, f"{n}_se"))
    return {n: np.array(v) for n, v in out.items()}, {n: np.array(v) for n, v in ses.items()}


@pytest.mark.parametrize("points,pairs", [(60, 400), (60, 40000)])
def test_unbiased_and_se_matches_spread(problem, points, pairs):
    """pairs=40000 ≥ N_j(N_j−1): q exact, the estimator is exactly unbiased; 400: q̂ sampled."""
    est, ses = draws(problem, points, pairs)
    exact = problem[4]
    for name in est:
        sd = est[name].std(ddof=1)
        if name == "objective" and pairs >= 40000:  # every q_j exact: no randomness at all
            np.testing.assert_allclose(est[name], exact[name], rtol=1e-12)
            assert np.all(ses[name] == 0)
            continue
        print(f"{name} pairs={pairs}: exact {exact[name]:.6f} mean {est[name].mean():.6f} "
              f"(mean−exact)/(sd/√{DRAWS}) {(est[name].mean() - exact[name]) / sd * np.sqrt(DRAWS):+.2f} "
              f"sd {sd:.5f} mean SE {ses[name].mean():.5f}")
        assert abs(est[name].mean() - exact[name]) <= 3 * sd / np.sqrt(DRAWS), name
        assert ses[name].mean() == pytest.approx(sd, rel=0.2), name


def test_q_hat_unbiased_with_correct_se(problem):
    X, _, labels, q, _ = problem
    kernel = Kernel("gaussian", sigma=SIGMA)
    qs, vs = zip(*(within_cluster_sums(kernel, X, labels, 4, 300, np.random.default_rng(s), 2**30)
                   for s in range(DRAWS)))
    qs, se = np.array(qs), np.sqrt(np.array(vs)).mean(axis=0)
    sd = qs.std(axis=0, ddof=1)
    assert np.all(np.abs(qs.mean(axis=0) - q) <= 3 * sd / np.sqrt(DRAWS))
    np.testing.assert_allclose(se, sd, rtol=0.2)


def test_small_clusters_are_exact(problem):
    X, _, labels, q, _ = problem
    kernel = Kernel("gaussian", sigma=SIGMA)
    q_hat, var = within_cluster_sums(kernel, X, labels, 4, 10**6, np.random.default_rng(0), 2**30)
    np.testing.assert_allclose(q_hat, q, rtol=1e-12)
    assert np.all(var == 0)


@pytest.mark.parametrize("kernel", [Kernel("gaussian", sigma=1.3), Kernel("linear"),
                                    Kernel("polynomial", degree=3, coef0=0.5),
                                    Kernel("gaussian", sigma=1.3, dtype="float32")])
def test_paired_kernel_is_the_block_diagonal(kernel):
    rng = np.random.default_rng(0)
    X, Y = rng.standard_normal((50, 4)), rng.standard_normal((50, 4))
    rtol = 1e-12 if kernel.dtype == "float64" else 1e-5
    np.testing.assert_allclose(kernel.paired(X, Y), np.diag(kernel(X, Y)), rtol=rtol)
