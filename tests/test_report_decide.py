"""Confidence-interval decisions (kktheory.report.decide) against hand-computed intervals."""

import math

import numpy as np
import pytest
from scipy import stats

from kktheory.report.verdicts import (
    CAUSE_CLAIM, CAUSE_INCONCLUSIVE, CAUSE_SCALE, INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED, Check, judge_checks, attribute_shortfall,
)
from kktheory.report.decide import (
    FAIL, INCONCLUSIVE as UNDECIDED, PASS, Estimate, at_least, at_most, runs_needed, within,
)


def t_interval(x):
    x = np.asarray(x, float)
    h = stats.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / math.sqrt(len(x))
    return x.mean() - h, x.mean() + h


def test_mean_interval_is_student_t():
    x = [0.41, 0.39, 0.44, 0.40, 0.38]
    assert Estimate.mean_of(x).interval() == pytest.approx(t_interval(x))


def test_welch_difference():
    a, b = [1.0, 1.2, 0.9, 1.1], [0.5, 0.7, 0.4, 0.6, 0.65, 0.55]
    va, vb = np.var(a, ddof=1) / 4, np.var(b, ddof=1) / 6
    dof = (va + vb) ** 2 / (va**2 / 3 + vb**2 / 5)
    h = stats.t.ppf(0.975, dof) * math.sqrt(va + vb)
    d = np.mean(a) - np.mean(b)
    assert Estimate.difference(a, b).interval() == pytest.approx((d - h, d + h))


@pytest.mark.parametrize("x, bound, status", [
    ([0.50, 0.52, 0.51, 0.49], 0.45, PASS),  # whole interval above
    ([0.40, 0.42, 0.41, 0.39], 0.45, FAIL),  # whole interval below
    ([0.40, 0.50, 0.45, 0.47], 0.45, UNDECIDED),  # straddles
])
def test_at_least(x, bound, status):
    lo, hi = t_interval(x)
    expected = PASS if lo > bound else FAIL if hi < bound else UNDECIDED
    assert expected == status
    assert at_least(Estimate.mean_of(x), bound).status == status
    # −value ≤ −bound is the same claim
    assert at_most(Estimate.mean_of(-np.asarray(x)), -bound).status == status


def test_within_is_equivalence():
    tight = [0.001, -0.002, 0.0005, 0.0015, -0.001]
    assert within(Estimate.mean_of(tight), -0.01, 0.01).status == PASS
    far = [0.05, 0.052, 0.049, 0.051]
    assert within(Estimate.mean_of(far), -0.01, 0.01).status == FAIL
    wide = [0.02, -0.02, 0.015, -0.01]
    assert within(Estimate.mean_of(wide), -0.01, 0.01).status == UNDECIDED


def test_one_run_is_never_decided():
    d = at_least(Estimate.mean_of([0.9]), 0.1)
    assert d.status == UNDECIDED and d.runs_needed is None


def test_runs_needed_is_the_smallest_deciding_count():
    est = Estimate.mean_of([0.40, 0.50, 0.45, 0.47])
    bound = 0.43
    r = runs_needed(est, bound)
    gap, s = abs(est.value - bound), est.unit_sd
    assert stats.t.ppf(0.975, r - 1) * s / math.sqrt(r) < gap
    assert stats.t.ppf(0.975, r - 2) * s / math.sqrt(r - 1) >= gap
    # with r runs of the same mean and spread, the test decides
    assert at_least(Estimate(est.value, s / math.sqrt(r), r - 1, r, s), bound).status == PASS


def test_known_standard_error_uses_the_normal_quantile():
    lo, hi = Estimate.known(1.0, 0.1).interval()
    assert (lo, hi) == pytest.approx((1 - 1.959964 * 0.1, 1 + 1.959964 * 0.1), rel=1e-6)


def test_verdict_with_inconclusive_and_causes():
    ok = Check("a", True, "")
    undecided = Check.of("b", at_least(Estimate.mean_of([0.40, 0.50, 0.45, 0.47]), 0.45))
    assert undecided.passed is None and undecided.cause == CAUSE_INCONCLUSIVE and undecided.runs_needed
    v = judge_checks([ok, undecided])
    assert v.status == INCONCLUSIVE and v.why == CAUSE_INCONCLUSIVE
    failed = Check.of("c", at_least(Estimate.mean_of([0.40, 0.42, 0.41, 0.39]), 0.45))
    v = judge_checks([ok, undecided, failed])
    assert v.status == NOT_REPRODUCED and failed.cause == CAUSE_CLAIM
    small = attribute_shortfall(v, CAUSE_SCALE, "n = 5000 of 60,000")
    assert small.checks[2].cause == CAUSE_SCALE and "5000" in small.checks[2].why
    assert small.checks[1].cause == CAUSE_INCONCLUSIVE  # undecided stays undecided
    assert attribute_shortfall(v, None, "").checks[2].cause == CAUSE_CLAIM
    assert judge_checks([ok]).status == REPRODUCED
    with pytest.raises(ValueError):
        Check("d", False, "", cause="bad luck")


def test_proportion_uses_the_exact_interval():
    for k, n in ((48, 48), (18, 18), (30, 48), (0, 5)):
        ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
        assert Estimate.proportion(k, n).interval() == pytest.approx((ci.low, ci.high))
    assert at_least(Estimate.proportion(48, 48), 0.9).status == PASS  # 1 − 0.025^(1/48) < 0.1
    undecided = at_least(Estimate.proportion(18, 18), 0.9)
    assert undecided.status == UNDECIDED
    assert undecided.runs_needed == math.ceil(math.log(0.025) / math.log(0.9))  # 36 runs, all holding
    assert at_least(Estimate.proportion(30, 48), 0.9).status == FAIL


def test_median_interval_is_the_widest_order_statistic_pair_with_95_percent_coverage():
    """Brute force: the coverage of [x(j), x(r+1−j)] is P(j ≤ #{runs below the median} ≤ r − j),
    summed from the binomial(r, ½) probabilities."""
    for r in range(3, 16):
        x = np.random.default_rng(r).lognormal(size=r)
        cover = {j: sum(math.comb(r, i) for i in range(j, r - j + 1)) / 2**r for j in range(1, r // 2 + 1)}
        ok = [j for j, c in cover.items() if c >= 0.95]
        est = Estimate.median_of(x)
        assert est.value == pytest.approx(np.median(x))
        if not ok:
            assert not est.decidable and at_most(est, 1e9).status == UNDECIDED
            continue
        j = max(ok)
        s = np.sort(x)
        assert est.interval() == (s[j - 1], s[r - j])


def test_average_of_independent_estimates():
    parts = [Estimate.difference([0.5, 0.52, 0.49], [0.6, 0.62, 0.58]),
             Estimate.difference([0.7, 0.71, 0.69, 0.72], [0.7, 0.69, 0.7, 0.71]), Estimate.mean_of([0.1, 0.3])]
    avg = Estimate.average(parts)
    v = [e.se**2 for e in parts]
    assert avg.value == pytest.approx(np.mean([e.value for e in parts]))
    assert avg.se == pytest.approx(math.sqrt(sum(v)) / 3)
    assert avg.dof == pytest.approx(sum(v) ** 2 / sum(a**2 / e.dof for a, e in zip(v, parts)))
    assert not Estimate.average([Estimate.mean_of([1.0]), parts[0]]).decidable  # one run: no interval


# -- p-values, exceeds, Holm, sanity, looks ---------------------------------------------
from kktheory.report.claims import AT_LEAST, EXCEEDS, PLATEAU, Margin, Rule  # noqa: E402
from kktheory.report.decide import exceeds, holm, look_level  # noqa: E402


@pytest.mark.parametrize("x, bound", [([0.50, 0.52, 0.51, 0.49], 0.45), ([0.40, 0.42, 0.41, 0.39], 0.45),
                                      ([0.40, 0.50, 0.45, 0.47], 0.45), ([0.40, 0.50, 0.45, 0.47], 0.4)])
def test_p_values_decide_as_the_interval_does(x, bound):
    est = Estimate.mean_of(x)
    d = at_least(est, bound)
    lo, hi = est.interval()
    assert (d.p_pass < 0.05) == (lo > bound)
    assert (d.p_fail < 0.05) == (hi < bound)
    # the one-sided p-value by hand: P(T_{r−1} ≥ (mean − b)/se)
    t = (np.mean(x) - bound) / (np.std(x, ddof=1) / 2)
    assert d.p_pass == pytest.approx(2 * stats.t.sf(t, 3))


def test_proportion_p_values_are_dual_to_clopper_pearson():
    for k in range(0, 21):
        est = Estimate.proportion(k, 20)
        lo, hi = est.interval()
        d = at_least(est, 0.7)
        assert (d.p_pass < 0.05) == (lo > 0.7)
        assert (d.p_fail < 0.05) == (hi < 0.7)


def test_exceeds_decides_a_null_effect():
    null = Estimate.mean_of([0.0001, -0.0002, 0.0003, 0.0, 0.0001, -0.0001])
    assert exceeds(null, 0.005).status == FAIL  # the whole interval below the smallest effect
    rise = Estimate.mean_of([0.012, 0.015, 0.011, 0.014, 0.013])
    assert exceeds(rise, 0.005).status == PASS
    fall = Estimate.mean_of([-0.012, -0.015, -0.011, -0.014, -0.013])
    d = exceeds(fall, 0.005)
    assert d.status == FAIL and d.against
    assert exceeds(fall, 0.005, sign=-1).status == PASS
    with pytest.raises(ValueError):
        exceeds(rise, 0.0)
    # undecided with an estimate nearer 0 than the smallest effect: the interval would leave
    # the smallest effect first (a failure), so no runs are promised
    near0 = Estimate.mean_of([0.012, -0.009, 0.006, -0.003, 0.009, -0.006])
    d = exceeds(near0, 0.01)
    assert d.status == UNDECIDED and d.against and d.runs_needed is None
    near_delta = Estimate.mean_of([0.02, -0.004, 0.016, -0.002, 0.018, 0.0])
    d = exceeds(near_delta, 0.01)
    assert d.status == UNDECIDED and not d.against and d.runs_needed


def test_against_the_claim_promises_no_runs():
    est = Estimate.mean_of([0.002, -0.001, 0.004, 0.0, 0.003])  # straddles 0, points above
    d = at_most(est, 0.0)
    assert d.status == UNDECIDED and d.against and d.runs_needed is None
    assert "points against the claim" in d.text


def test_holm_step_down():
    # m = 3: thresholds 0.05/3, 0.05/2, 0.05
    assert holm([0.01, 0.02, 0.04]) == [True, True, True]
    assert holm([0.02, 0.01, 0.04]) == [True, True, True]
    assert holm([0.02, 0.03, 0.04]) == [False, False, False]  # 0.02 > 0.0167 stops at once
    assert holm([0.001, 0.03, float("nan")]) == [True, True, False]  # m = 2 tested: 0.03 ≤ 0.05/1
    assert holm([0.001, 0.06, float("nan")]) == [True, False, False]


def test_a_lone_failure_that_holm_sets_aside_is_undecided():
    fail = Check("a", False, "x", p_fail=0.03)
    others = [Check(f"b{i}", True, "y", p_fail=0.9) for i in range(4)]
    v = judge_checks([fail, *others])
    assert v.status == INCONCLUSIVE and "Holm" in v.checks[0].detail
    strong = Check("a", False, "x", p_fail=0.001)
    assert judge_checks([strong, *others]).status == NOT_REPRODUCED


def test_sanity_checks_are_shown_not_counted():
    sanity = Rule("ratio ≥ 1", "trace ratio", AT_LEAST, Margin(1.0, "linear algebra", "Thm 1"), sanity=True)
    failing_sanity = sanity.check(Estimate.mean_of([0.5, 0.6, 0.55]))
    assert failing_sanity.passed is False and failing_sanity.sanity
    v = judge_checks([failing_sanity, Check("real", True, "z")])
    assert v.status == REPRODUCED and v.checks[0].mark.startswith("sanity")


def test_plateau_is_two_sided():
    rule = Rule("plateau", "change beyond √n", PLATEAU, Margin(0.01, "stated", "test"))
    fall = Estimate.mean_of([-0.016, -0.015, -0.017, -0.014, -0.016])
    assert rule.decide(fall).status == FAIL  # a fall is not a plateau
    flat = Estimate.mean_of([0.001, -0.001, 0.0005, 0.0, -0.0005])
    assert rule.decide(flat).status == PASS
    with pytest.raises(ValueError):
        Rule("rise", "d", EXCEEDS, Margin(0.0, "zero", "none"))
    with pytest.raises(ValueError):
        Margin(0.1, "", "source")


def test_look_levels_spend_alpha():
    alphas = [1 - look_level(j) for j in range(1, 2000)]
    assert alphas[0] == pytest.approx(0.025) and alphas[1] == pytest.approx(0.05 / 6)
    assert sum(alphas) < 0.05
