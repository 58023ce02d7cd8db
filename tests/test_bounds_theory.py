"""Theory curves and the log–log slope fit with its t-interval."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from kktheory.evaluation.bounds import calandriello_thm1_shape, fit_loglog_slope, pourkamali_bound, wang_thm2_bound, yin_thm2_shape


def test_shapes():
    n = np.array([100.0, 1e4, 1e6])
    assert np.allclose(calandriello_thm1_shape(n, 10, np.sqrt(n)), 10 / np.sqrt(n) + 10 * np.sqrt(n) / n)
    assert np.allclose(yin_thm2_shape(n, 10), np.sqrt(10 / n) * np.log(np.sqrt(n)) ** 2)
    # with γ = √n Calandriello's shape is 2k/√n: slope exactly −1/2
    assert fit_loglog_slope(n, calandriello_thm1_shape(n, 10, np.sqrt(n))).slope == pytest.approx(-0.5)
    # Yin's log² factor: local slope −1/2 + 2/log n
    n2 = np.array([1e4, 1.0001e4])
    assert fit_loglog_slope(n2, yin_thm2_shape(n2, 10)).slope == pytest.approx(-0.5 + 2 / math.log(1e4), rel=1e-3)
    assert wang_thm2_bound(0.2, 10, 20) == pytest.approx(1.7)
    assert pourkamali_bound(3.0) == 6.0


def test_slope_fit_matches_ols_t_interval():
    rng = np.random.default_rng(0)
    x = np.repeat([250.0, 500, 1000, 2000, 4000], 4)
    y = 3.0 * x**-0.5 * np.exp(0.1 * rng.standard_normal(x.size))
    fit = fit_loglog_slope(x, y, level=0.9)
    lx, ly = np.log(x), np.log(y)
    sxx = np.sum((lx - lx.mean()) ** 2)
    slope = np.sum((lx - lx.mean()) * (ly - ly.mean())) / sxx
    resid = ly - ly.mean() - slope * (lx - lx.mean())
    se = math.sqrt(np.sum(resid**2) / (x.size - 2) / sxx)
    half = stats.t.ppf(0.95, x.size - 2) * se
    assert fit.slope == pytest.approx(slope, rel=1e-12)
    assert fit.intercept == pytest.approx(ly.mean() - slope * lx.mean(), rel=1e-12)
    assert fit.stderr == pytest.approx(se, rel=1e-10)
    assert (fit.ci_low, fit.ci_high) == pytest.approx((slope - half, slope + half), rel=1e-10)
    assert fit.n_points == 20 and fit.level == 0.9


def test_slope_interval_coverage():
    rng = np.random.default_rng(1)
    x = np.array([100.0, 200, 400, 800, 1600, 3200])
    hits = sum(
        fit_loglog_slope(x, x**-0.5 * np.exp(0.2 * rng.standard_normal(x.size))).contains(-0.5)
        for _ in range(400)
    )
    assert 0.92 <= hits / 400 <= 0.98


def test_slope_fit_rejects_bad_input():
    with pytest.raises(ValueError):
        fit_loglog_slope([1.0, 2.0, 3.0], [1.0, -1.0, 2.0])
    with pytest.raises(ValueError):
        fit_loglog_slope([2.0, 2.0, 2.0], [1.0, 2.0, 3.0])
    two = fit_loglog_slope([1.0, 10.0], [1.0, 0.1])
    assert two.slope == pytest.approx(-1.0) and math.isinf(two.ci_high)


def test_rate_fit_is_curve_fits_weighted_least_squares():
    """fit_rate's point fit and every bootstrap fit equal scipy's curve_fit of a·x^b
    (x = n / min n, sigma = the standard errors, p0 = (mean at the smallest n, −0.5); its
    tolerances tightened to 1e-15: at its defaults it stops up to 4e-7 short of the minimum
    the batched search finds) on the per-n means, recomputed here with a plain loop over the
    same resamples; its standard error of b is curve_fit's at known sigma (absolute_sigma:
    the inverse of JᵀWJ), and the kept draws are the bootstrap-t pseudo-slopes
    b̂ − (b* − b̂)/se*·se(b̂), sorted. A standard error of 0 (a resample repeating one run) is
    the median of all of them, and every one is at least 1e-12 of the largest |mean|."""
    from scipy import optimize

    from kktheory.evaluation.bounds.theory import fit_rate

    rng = np.random.default_rng(3)
    levels = np.array([1000.0, 2000, 4000, 8000, 16000])
    n = np.repeat(levels, [5, 5, 4, 5, 3])
    y = 0.4 * (n / 1000) ** -0.6 + rng.normal(0, 0.02, n.size)
    boot = 60

    def curve_fit_slope(groups):
        mean = np.array([g.mean() for g in groups])
        se = np.array([g.std(ddof=1) / np.sqrt(len(g)) for g in groups])
        se = np.where(se > 0, se, np.median(se))
        se = np.maximum(se, 1e-12 * np.abs(mean).max())
        p, cov = optimize.curve_fit(lambda x, a, b: a * x**b, levels / levels.min(), mean, p0=[mean[0], -0.5],
                                    sigma=se, absolute_sigma=True, maxfev=20000, ftol=1e-15, xtol=1e-15,
                                    gtol=1e-15)
        return p[1], math.sqrt(cov[1, 1])

    groups = [np.sort(y[n == v]) for v in levels]  # order-free: the runs sorted within each n
    b_hat, se_hat = curve_fit_slope(groups)
    draw = np.random.default_rng(7)
    fits = [curve_fit_slope([g[draw.integers(len(g), size=len(g))] for g in groups]) for _ in range(boot)]
    pseudo = np.sort([b_hat - (b - b_hat) / se * se_hat for b, se in fits])
    shuffled = np.random.default_rng(0).permutation(n.size)
    fit = fit_rate(n[shuffled], y[shuffled], boot=boot, rng=np.random.default_rng(7))
    assert fit.slope == pytest.approx(b_hat, rel=1e-8) and fit.se == pytest.approx(se_hat, rel=1e-6)
    # the percentile interval of the pseudo-slopes: K = the largest count with 2K/B < 5 % (K = 1 of 60).
    # Two resamples repeat one run at n = 16,000: its se is floored at 1e-12·max|mean|, a weight
    # 1e24 times the others', and double precision then fixes b to about 1e-7 only (both fits lie
    # within 2e-7 of the minimum computed with 60 digits); the others agree to 1e-6
    assert fit.draws == pytest.approx(tuple(pseudo), rel=1e-5)
    assert sum(d != pytest.approx(s, rel=1e-6) for d, s in zip(fit.draws, pseudo)) <= 2
    assert (fit.ci_low, fit.ci_high) == pytest.approx((pseudo[1], pseudo[-2]), rel=1e-5) and fit.boot == boot
    again = fit_rate(n, y, boot=boot, rng=np.random.default_rng(7))  # the same runs in file order
    assert (again.ci_low, again.ci_high, again.slope) == (fit.ci_low, fit.ci_high, fit.slope)


def test_a_fit_beyond_the_grid_is_an_infinite_draw_not_a_dropped_one():
    """A curve whose least squares lie beyond the searched exponents (−8 … 4) is b = ∓∞ (a NaN
    scale): a bootstrap keeps such draws as the extremes they are — dropping them would narrow
    its interval — and a point fit beyond the grid is no fit."""
    from kktheory.evaluation.bounds.theory import _fit_power, fit_rate

    levels = np.array([1000.0, 2000, 4000, 8000])
    x = levels / 1000
    means = np.stack([x ** -10.0, x ** 6.0, 0.3 * x ** -0.5])
    a, b = _fit_power(levels, means, np.full_like(means, 0.01))
    assert b[0] == -np.inf and b[1] == np.inf and np.isnan(a[:2]).all()
    assert b[2] == pytest.approx(-0.5, abs=1e-8) and a[2] == pytest.approx(0.3 * 1000 ** 0.5, rel=1e-8)
    n = np.repeat(levels, 3)
    assert fit_rate(n, np.repeat(x ** -10.0, 3) * (1 + 0.01 * np.tile([-1, 0, 1], 4)), boot=20) is None


def test_rate_fit_lack_of_fit_is_the_weighted_residual_chi2():
    """RateFit.chi2 = Σ((mean − a·n^b)/se)² at the point fit, recomputed from scipy's curve_fit
    (the same weighted least squares), and its p-value the χ²'s tail on (values of n) − 2 df: a
    power law with noise at its standard errors fits (p not small), a bent curve does not."""
    from scipy import optimize, stats

    from kktheory.evaluation.bounds.theory import fit_rate

    rng = np.random.default_rng(5)
    levels = np.array([1000.0, 2000, 4000, 8000, 16000, 32000])
    n = np.repeat(levels, 8)
    for bend, small in ((0.0, False), (1.0, True)):
        truth = 0.4 * (n / 1000) ** -0.5 * (1 + bend * (n >= 8000) * (n / 8000 - 1) / 3)  # flat-ish tail when bent
        y = truth + rng.normal(0, 0.01, n.size)
        fit = fit_rate(n, y, boot=0)
        mean = np.array([y[n == v].mean() for v in levels])
        se = np.array([y[n == v].std(ddof=1) / np.sqrt(8) for v in levels])
        p, _ = optimize.curve_fit(lambda x, a, b: a * x**b, levels / 1000, mean, p0=[mean[0], -0.5], sigma=se,
                                  absolute_sigma=True, maxfev=20000, ftol=1e-15, xtol=1e-15, gtol=1e-15)
        chi2 = float((((mean - p[0] * (levels / 1000) ** p[1]) / se) ** 2).sum())
        assert fit.chi2 == pytest.approx(chi2, rel=1e-6) and fit.levels == 6
        assert fit.misfit_p == pytest.approx(stats.chi2.sf(chi2, 4), rel=1e-9)
        assert (fit.misfit_p < 0.01) is small


def test_a_rate_bootstrap_draws_whole_seeds_where_each_ran_every_n():
    """With ``seeds``, where every seed ran every n, a resample draws whole seeds: a seed's runs
    across n stay together. A seed effect shared by its runs at every n (a common factor, as a
    seed's streams give) leaves the slope's noise small, and only the seed bootstrap sees that:
    its interval is narrower than the runs-within-n bootstrap's, which takes the seed effect as
    noise at each n; the point fit is the same. Order-free over the rows and the seeds' labels'
    order; a seed missing an n, or fewer than MIN_SEEDS seeds, falls back to the runs within n."""
    from kktheory.evaluation.bounds.theory import MIN_SEEDS, fit_rate

    rng = np.random.default_rng(5)
    levels = np.array([1000.0, 2000, 4000, 8000, 16000, 32000])
    seeds = 12
    effect = rng.normal(0, 0.5, seeds)  # each seed's factor at every n
    n = np.tile(levels, seeds)
    s = np.repeat(np.arange(seeds), len(levels))
    y = 2.0 * n ** -0.5 * np.exp(effect[s] + rng.normal(0, 0.02, len(n)))
    joint = fit_rate(n, y, boot=400, seeds=s)
    within = fit_rate(n, y, boot=400)
    assert joint.slope == pytest.approx(within.slope, abs=1e-9)
    assert joint.ci_high - joint.ci_low < 0.5 * (within.ci_high - within.ci_low)
    assert joint.ci_low < -0.5 < joint.ci_high
    perm = rng.permutation(len(n))
    again = fit_rate(n[perm], y[perm], boot=400, seeds=s[perm])
    assert (again.ci_low, again.ci_high) == (joint.ci_low, joint.ci_high)
    short = s != 0
    short[0] = True  # seed 0 keeps its first n only
    assert fit_rate(n[short], y[short], boot=400, seeds=s[short]) == fit_rate(n[short], y[short], boot=400)
    few = s < MIN_SEEDS - 1  # one seed short of MIN_SEEDS: the runs within each n
    assert fit_rate(n[few], y[few], boot=400, seeds=s[few]) == fit_rate(n[few], y[few], boot=400)
    least = s < MIN_SEEDS  # exactly MIN_SEEDS: whole seeds
    assert fit_rate(n[least], y[least], boot=400, seeds=s[least]) != fit_rate(n[least], y[least], boot=400)
