"""Confidence-interval decisions (kktheory.report.decide) against hand-computed intervals."""

import math
from dataclasses import replace

import numpy as np
import pytest
from scipy import special, stats

from kktheory.report.verdicts import (
    CAUSE_CLAIM, CAUSE_INCONCLUSIVE, CAUSE_SCALE, INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED, Check, judge_checks, attribute_shortfall,
)
from kktheory.report.decide import (
    FAIL, INCONCLUSIVE as UNDECIDED, LEVEL, PASS, Estimate, _spread_at, at_least, at_most, runs_needed, within,
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


def _t_power(mean: float, sd: float, r: int, bound: float, reps: int, seed: int) -> float:
    """Share of simulated r-run t intervals lying above ``bound`` (brute force, numpy only)."""
    x = np.random.default_rng(seed).normal(mean, sd, (reps, r))
    lo = x.mean(1) - stats.t.ppf(0.975, r - 1) * x.std(1, ddof=1) / math.sqrt(r)
    return float((lo > bound).mean())


def test_runs_needed_gives_80_percent_power():
    """The runs reported decide the check 80 % of the time under the plug-in value and
    spread (simulated), one run fewer does not; the old rule (expected half-width = gap)
    asked for a count that decides about half the time."""
    est = Estimate.mean_of([0.40, 0.50, 0.45, 0.47])
    bound = 0.43
    r = runs_needed(est, bound)
    gap, s = abs(est.value - bound), est.unit_sd
    reps = 20_000
    mc = 3 * math.sqrt(0.8 * 0.2 / reps)
    assert _t_power(est.value, s, r, bound, reps, 1) >= 0.8 - mc
    assert _t_power(est.value, s, r - 1, bound, reps, 2) < 0.8 + mc
    half = next(q for q in range(2, 1000) if stats.t.ppf(0.975, q - 1) * s / math.sqrt(q) < gap)
    assert half < r and _t_power(est.value, s, half, bound, reps, 3) < 0.65


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


def on_schedule(est, boundary, look=1):
    """By hand: the runs of the first look after ``look`` of the doubling schedule (r·2^k, r the
    runs now) at which the test reaches 80 % power at that look's own level, and that level."""
    from kktheory.report.decide import look_level as level_of

    for k in range(1, 40):
        need = runs_needed(est, boundary, level_of(look + k))
        if need is not None and need <= est.runs * 2**k:
            return est.runs * 2**k, level_of(look + k)
    return None, None


def test_proportion_uses_the_exact_interval():
    for k, n in ((48, 48), (18, 18), (30, 48), (0, 5)):
        ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
        assert Estimate.proportion(k, n).interval() == pytest.approx((ci.low, ci.high))
    assert at_least(Estimate.proportion(48, 48), 0.9).status == PASS  # 1 − 0.025^(1/48) < 0.1
    undecided = at_least(Estimate.proportion(18, 18), 0.9)
    assert undecided.status == UNDECIDED
    # all holding: 0.9^r < α/2 at the level of the look that reaches r — 18 → 36 → 72 runs (looks 2, 3)
    assert undecided.runs_needed == on_schedule(Estimate.proportion(18, 18), 0.9)[0] == 72
    assert math.ceil(math.log((1 - look_level(3)) / 2) / math.log(0.9)) <= 72
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
        if not ok:  # no order-statistic pair reaches 95 %: no interval, no decision
            assert at_most(est, 1e9).status == UNDECIDED and at_least(est, -1e9).status == UNDECIDED
            assert est.interval() == (-math.inf, math.inf)
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
    # the smallest effect first, so the runs counted are those that would show the failure
    near0 = Estimate.mean_of([0.012, -0.009, 0.006, -0.003, 0.009, -0.006])
    d = exceeds(near0, 0.01)
    assert d.status == UNDECIDED and d.against and d.runs_needed == on_schedule(near0, 0.01)[0]
    assert "decide its failure" in d.text
    assert "> 0, fails below 0.01" in d.text and "by at least" not in d.text
    near_delta = Estimate.mean_of([0.02, -0.004, 0.016, -0.002, 0.018, 0.0])
    d = exceeds(near_delta, 0.01)
    assert d.status == UNDECIDED and not d.against and d.runs_needed


def test_against_the_claim_counts_the_runs_to_its_failure():
    est = Estimate.mean_of([0.002, -0.001, 0.004, 0.0, 0.003])  # straddles 0, points above
    d = at_most(est, 0.0)
    assert d.status == UNDECIDED and d.against and d.runs_needed == on_schedule(est, 0.0)[0]
    assert "points against the claim" in d.text and "failure" in d.text


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
    # a failure without an interval (a share of cells) says what Holm's level asks of it: at Holm's threshold
    # of each look of the doubling schedule, the first whose runs (20 at look 2, 40 at look 3) reach it
    asked = []
    shares = replace(fail, runs=10, fail_runs=lambda level: asked.append(level) or (30 if level >= 0.998 else 12))
    c = judge_checks([shares, *others]).checks[0]
    assert asked == [pytest.approx(1 - (1 - look_level(k)) / 5) for k in (2, 3)]
    assert c.runs_needed == 40 and c.passed is None
    assert "about 40 runs per arm would show it at Holm's level 99.92%, of the look of the doubling" in c.detail
    assert judge_checks([fail, *others]).checks[0].runs_needed is None


def test_a_check_standing_for_identical_rules_keeps_their_places_in_holms_family():
    """Checks identical by construction made once (``also``) decide exactly what the declared
    family decided: the one check enters Holm once per rule it stands for. Here p = 0.012 is
    rejected in a family of four (0.05/4 = 0.0125) but not in the five that count the twin."""
    twin = Rule("twin", "q", AT_LEAST, Margin(0.0, "stated", "test"))
    fail = Check("a", False, "x", p_fail=0.012)
    others = [Check(f"b{i}", True, "y", p_fail=0.9) for i in range(3)]
    merged = replace(fail, also=(twin,))
    declared = judge_checks([fail, replace(fail, name="a twin"), *others])
    assert [c.passed for c in declared.checks[:2]] == [None, None]
    v = judge_checks([merged, *others])
    assert v.checks[0].passed is None and "over 5 checks" in v.checks[0].detail
    assert judge_checks([fail, *others]).checks[0].passed is False  # without its twin's place: a failure
    assert merged.rules == (twin,) and replace(merged, rule=twin).rules == (twin, twin)


def test_checks_judged_again_with_more_added_are_corrected_once_over_all():
    """An entry's timing checks join its family after the accuracy checks were judged: the
    second judgement is one Holm correction over all of them, as if judged together — a
    failure the smaller family set aside is judged again in the larger one (it says one N)."""
    fail = Check("a", False, "x", p_fail=0.012)  # survives 0.05/3, not 0.05/5
    first = [fail, *(Check(f"b{i}", True, "y", p_fail=0.9) for i in range(2))]
    more = [Check(f"t{i}", True, "z", p_fail=0.9) for i in range(2)]
    once = judge_checks([*first, *more])
    twice = judge_checks([*judge_checks(first).checks, *more])
    assert judge_checks(first).checks[0].passed is False and once.checks[0].passed is None
    assert [(c.passed, c.detail) for c in twice.checks] == [(c.passed, c.detail) for c in once.checks]
    assert "over 5 checks" in twice.checks[0].detail
    small = [Check("a", False, "x", p_fail=0.03), Check("b", True, "y", p_fail=0.9)]  # 0.03 > 0.05/2: set aside
    assert "over 2 checks" in judge_checks(small).checks[0].detail
    again = judge_checks([*judge_checks(small).checks, *more])
    assert "over 4 checks" in again.checks[0].detail and "over 2 checks" not in again.checks[0].detail
    strong = [Check("a", False, "x", p_fail=0.03), *(Check(f"b{i}", True, "y", p_fail=0.9) for i in range(9))]
    set_aside = judge_checks(strong)  # 0.03 > 0.05/10: undecided in the family of ten
    assert set_aside.checks[0].passed is None
    assert judge_checks(set_aside.checks[:1]).checks[0].passed is False  # alone again: its own failure


def test_runs_needed_for_an_equivalence_count_both_of_its_boundaries():
    """An undecided equivalence passes only when its interval excludes both boundaries: the runs
    planned against the nearer one alone (9 for a centred estimate of sd 0.037 within ±0.04)
    pass 61 % of the time; planned against both, the judge's own pass rate reaches 80 %."""
    rng = np.random.default_rng(3)
    x = rng.normal(0, 1, 4)
    x = (x - x.mean()) / x.std(ddof=1) * 0.037
    d = within(Estimate.mean_of(x), -0.04, 0.04)
    near = runs_needed(Estimate.mean_of(x), -0.04)
    assert d.status == UNDECIDED and near == 9 and d.runs_needed > near

    def pass_rate(r: int) -> float:
        return float(np.mean([within(Estimate.mean_of(rng.normal(0, 0.037, r)), -0.04, 0.04).status == PASS
                              for _ in range(4000)]))

    limit = 3 * math.sqrt(0.8 * 0.2 / 4000)
    assert pass_rate(near) < 0.8 - limit and pass_rate(d.runs_needed) >= 0.8 - limit


def test_an_interval_never_prints_an_end_as_its_boundary():
    """An upper end of 1.0001 against "≤ 1" printed at 3 digits reads [0.72, 1]: decided to the
    eye, undecided to the test; an upper end of 0.99971 reads as touching the boundary of a
    pass (Yin Table 2's a8a line, [0.777, 1]). Each line gets the digits that show which side
    its ends lie on; ends away from a boundary keep 3."""
    d = at_most(Estimate.known(0.86, 0.04083), 1.0, 0.9994)
    assert d.status == UNDECIDED and "[0.71989, 1.0001] (99.94% CI)" in d.text
    assert "[0.721, 0.999]" in at_most(Estimate.known(0.86, 0.0406), 1.0, 0.9994).text  # decided: 3 digits
    passed = at_most(Estimate.known(0.904, 0.02789), 1.0, 0.9994)  # upper end 0.99971
    assert passed.status == PASS and "[0.8083, 0.9997] (99.94% CI)" in passed.text
    assert "[0.766, 0.909]" in at_most(Estimate.known(0.8375, 0.0208), 1.0, 0.9994).text


def test_no_level_is_printed_where_no_interval_was_computed():
    """A line prints "(xx % CI)" only beside an interval computed at that level: one run, runs
    all equal, or too few runs for an order-statistic interval at the level give none."""
    for est in (Estimate.mean_of([0.5]), Estimate.mean_of([1.0] * 5), Estimate.median_of([1.0, 1.2, 0.9])):
        d = at_most(est, 1.0, 0.9975)
        assert "no interval" in d.text and "CI)" not in d.text
    assert "(99.75% CI)" in at_most(Estimate.mean_of([0.5, 0.6, 0.7]), 1.0, 0.9975).text


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
    """Look 1 is the fixed judgement at 95 %; looks 2, 3, … spend 0.05/(j(j+1)), 0.025 in all:
    at most 0.075 over every look (two-sided), 0.0375 per direction."""
    alphas = [1 - look_level(j) for j in range(1, 2000)]
    assert alphas[0] == pytest.approx(0.05) and alphas[1] == pytest.approx(0.05 / 6)
    assert look_level(2) == pytest.approx(0.991667, abs=1e-6) and look_level(3) == pytest.approx(0.995833, abs=1e-6)
    assert sum(alphas[1:]) == pytest.approx(0.025, abs=1e-4) and sum(alphas[1:]) < 0.025
    assert sum(alphas) / 2 < 0.0375


# -- every estimate at the level it is used ----------------------------------------------
from kktheory.report.decide import ORDER, RESAMPLED, T  # noqa: E402

LEVELS = (0.95, 0.975, 1 - 0.05 / 20)  # the fixed design, look 1 of the old spending, a late look


def _kinds() -> dict[str, Estimate]:
    rng = np.random.default_rng(11)
    x, y = rng.normal(0.3, 0.1, 12), rng.normal(0.2, 0.15, 9)
    boot = rng.choice(x, (50_000, len(x))).mean(axis=1)  # enough draws for a late look's tail (add-one reading)
    return {
        "mean": Estimate.mean_of(x), "welch": Estimate.difference(x, y), "paired": Estimate.paired(x[:9], y),
        "known": Estimate.known(0.3, 0.04), "share": Estimate.proportion(17, 20),
        "median": Estimate.median_of(rng.lognormal(0, 0.3, 25)), "resampled": Estimate.resampled(np.mean(x), boot, 12),
        "resampled, expanded": Estimate.resampled(np.mean(x), boot, 12, expanded=True),
        "bounded": Estimate.bounded_mean(x, -1.0, 2.0),
        "ratio of means": Estimate.ratio_of_means(x + 1, y + 1),
        "scale ratio": Estimate.scale_ratio(x, y), "average": Estimate.average([Estimate.mean_of(x), Estimate.mean_of(y)]),
    }


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("kind", list(_kinds()))
def test_interval_and_p_value_agree_at_every_level(kind, level):
    """For every estimate kind and level: the interval at that level lies above b exactly
    when the "above" p-value (two-sided scale) is below 1 − level, and below b exactly when
    the "below" one is — on a grid of b that includes the interval's ends and points a hair
    inside and outside them (the old code gave bootstrap and order-statistic intervals at
    95 % whatever the level, and p-values from a 95 % half-width)."""
    est = _kinds()[kind]
    lo, hi = est.interval(level)
    assert math.isfinite(lo) and math.isfinite(hi) and lo < est.value < hi
    eps = 1e-9 * max(1.0, abs(lo), abs(hi))
    ends = [lo, hi] if est.kind in (ORDER, RESAMPLED) else []  # a data value: ties decide; else measure zero
    grid = np.concatenate([np.linspace(lo - (hi - lo), hi + (hi - lo), 60), ends, [lo - eps, lo + eps, hi - eps, hi + eps]])
    alpha = 1 - level
    for b in grid:
        assert (2 * est.tail(b, "above") < alpha) == (lo > b), (kind, level, b)
        assert (2 * est.tail(b, "below") < alpha) == (hi < b), (kind, level, b)
        d = at_least(est, b, level)
        assert (d.status == PASS) == (lo > b) and (d.status == FAIL) == (hi < b)
        assert f"{100 * level:.4g}% CI" in d.text


def test_intervals_widen_with_the_level_for_every_kind():
    for kind, est in _kinds().items():
        widths = [np.subtract(*est.interval(lv)[::-1]) for lv in LEVELS]
        assert widths[0] < widths[1] < widths[2] or kind == "median" and widths[0] <= widths[1] <= widths[2], kind


def test_order_statistics_at_the_looks_level():
    """10 runs: [x(2), x(9)] at 95 %, [x(1), x(10)] at 99.17 % (2·P(Bin(10, ½) ≤ 0) = 0.002 <
    0.0083 < 2·P(Bin(10, ½) ≤ 1) = 0.021); the sign test's p-value for "above b" is
    2·P(Bin(10, ½) ≤ #{x ≤ b}) — by hand, not from the code."""
    x = np.array([0.96, 1.07, 1.12, 1.2, 1.25, 1.3, 1.33, 1.4, 1.51, 1.48])
    est = Estimate.median_of(x)
    s = np.sort(x)
    assert est.kind == ORDER and est.interval(0.95) == (s[1], s[8]) and est.interval(1 - 0.05 / 6) == (s[0], s[9])
    assert 2 * est.tail(1.0, "above") == pytest.approx(2 * 11 / 1024)  # one run (0.96) at or below 1
    late = at_most(est, 1.0, 1 - 0.05 / 6)  # Yin Table 2's pendigits case: undecided at look 2
    assert late.status == UNDECIDED and "[0.96, 1.51] (99.17% CI)" in late.text
    assert at_most(est, 1.0).status == FAIL and "[1.07, 1.48] (95% CI)" in at_most(est, 1.0).text


def test_median_p_value_is_exact_below_005():
    """Under H0 (median = b) the sign test's p-value is exact: P(p ≤ u) ≤ u for the attainable
    u, below 0.05 too (the old normal extrapolation of the 95 % interval gave P(p < u) = 0.0098
    for every u from 0.05 down to 0.0042)."""
    rng = np.random.default_rng(5)
    reps, r = 4000, 10
    p = np.array([2 * Estimate.median_of(rng.normal(0, 1, r)).tail(0.0, "above") for _ in range(reps)])
    for u in (0.05, 0.0215, 0.0042):
        assert (p <= u).mean() <= u + 3 * math.sqrt(u * (1 - u) / reps)
    assert (p <= 0.0042).mean() < 0.0098 - 3 * math.sqrt(0.0098 / reps)


def test_resampled_estimate_outside_its_interval_keeps_the_p_values_sign():
    """A percentile-bootstrap value can lie outside its own interval; the p-value counts draws,
    so it still agrees with the interval (the old half-width rule flipped its sign)."""
    draws = np.linspace(1.0, 2.0, 2000)
    est = Estimate.resampled(0.9, draws, 10)  # the value below every draw
    lo, hi = est.interval()
    assert est.kind == RESAMPLED and lo > 0.9
    assert at_least(est, 0.95).status == PASS  # every draw above 0.95: the interval clears it
    assert 2 * est.tail(0.95, "above") == pytest.approx(2 / 2001)  # a Monte-Carlo p-value: never 0


def test_a_bootstrap_is_read_no_finer_than_its_draws():
    """Every draw above b gives the Monte-Carlo p-value 1/(B + 1), not 0: 2,000 draws decide at
    95 % and at a second look's 99.17 %, but cannot at a ninth look's 99.94 % (2/2001 > 0.0006)
    — there the interval is (−∞, ∞) and the check undecided, where the draws' range was
    printed as a 99.94 % interval before; draws_for gives the B that level needs."""
    from kktheory.resampling import draws_for

    est = Estimate.resampled(1.5, np.linspace(1.0, 2.0, 2000), 10)
    assert at_least(est, 0.95).status == PASS and at_least(est, 0.95, 1 - 0.05 / 6).status == PASS
    late = 1 - 0.05 / 90
    assert est.interval(late) == (-math.inf, math.inf) and at_least(est, 0.95, late).status != PASS
    b = draws_for(late)
    assert b == 36_001 and draws_for(0.95) == 2000
    assert at_least(Estimate.resampled(1.5, np.linspace(1.0, 2.0, b), 10), 0.95, late).status == PASS


def test_expanded_percentile_by_hand():
    """12 units: the one-sided p-value of c draws of B at or below b is T₁₁(Φ⁻¹((c+1)/(B+1))·√(11/12)),
    the interval's ends the draws where it crosses (1 − L)/2; wider than the plain percentile;
    no interval from fewer than MIN_UNITS units."""
    from kktheory.report.decide import MIN_UNITS

    draws = np.linspace(-1.0, 1.0, 2000)
    est = Estimate.resampled(0.0, draws, 12, expanded=True)
    c = int(np.sum(draws <= -0.9))  # read as c + 1 of B + 1 (a Monte-Carlo p-value)
    assert est.tail(-0.9, "above") == pytest.approx(stats.t.cdf(stats.norm.ppf((c + 1) / 2001) * math.sqrt(11 / 12), 11))
    k = sum(2 * stats.t.cdf(stats.norm.ppf((j + 1) / 2001) * math.sqrt(11 / 12), 11) < 0.05 for j in range(1, 1000))
    assert est.interval() == (draws[k], draws[1999 - k])
    plain = Estimate.resampled(0.0, draws, 12).interval()
    assert est.interval()[0] < plain[0] and est.interval()[1] > plain[1]
    assert not Estimate.resampled(0.0, draws, MIN_UNITS - 1, expanded=True).decidable


def test_bounded_mean_keeps_its_size_where_the_t_interval_does_not():
    """Ceiling-skewed values in [0, 1] (1 − min(1, Exp(0.05)), skewness ≈ −2), "mean ≥ μ" on its
    boundary: the t interval passes falsely 10.7 % of the time at 5 runs and 7.6 % at 20 (decide's
    docstring); the Hoeffding–Bentkus interval of a bounded mean never does (0 of 4,000) — and
    cannot pass "mean ≥ 0.85" either at 20 runs (0.85^20 = 0.039 > 0.025 even were every run 1),
    where the t interval passes almost always: the price of validity near the range's end."""
    rng = np.random.default_rng(12)
    reps, theta = 4000, 0.05
    mu = 1 - theta * (1 - math.exp(-1 / theta))
    limit = 0.025 + 3 * math.sqrt(0.025 * 0.975 / reps)
    for r in (5, 20):
        x = 1 - np.minimum(1.0, rng.exponential(theta, (reps, r)))
        t = np.mean([at_least(Estimate.mean_of(v), mu).status == PASS for v in x])
        hb = np.mean([at_least(Estimate.bounded_mean(v, 0.0, 1.0), mu).status == PASS for v in x])
        assert t > limit and hb <= limit, (r, t, hb)
    assert not any(at_least(Estimate.bounded_mean(v, 0.0, 1.0), 0.85).status == PASS for v in x[:200])
    assert at_least(Estimate.bounded_mean(np.ones(20), 0.0, 1.0), 0.85).status != PASS
    assert at_least(Estimate.bounded_mean(np.ones(23), 0.0, 1.0), 0.85).status == PASS  # 0.85^23 = 0.024


def test_bounded_mean_by_hand():
    """Hoeffding's bound exp(−r·KL(ȳ‖β)) and Bentkus's e·P(Bin(r, β) ≤ ⌈rȳ⌉), the smaller the
    p-value; all values at 0 still give an interval (the t interval has none); out of range, refused."""
    y = np.array([0.0] * 38 + [1 / 6, 1 / 6])
    est = Estimate.bounded_mean(y, 0.0, 1.0)
    m, b = y.mean(), 0.1
    kl = m * math.log(m / b) + (1 - m) * math.log((1 - m) / (1 - b))
    assert est.tail(b, "below") == pytest.approx(min(math.exp(-40 * kl), math.e * stats.binom.cdf(1, 40, b)))
    assert est.tail(b, "below") == pytest.approx(math.exp(-40 * kl))  # 0.049: Hoeffding's is the smaller here
    lo, hi = est.interval()
    assert 2 * est.tail(hi, "below") >= 0.05 > 2 * est.tail(np.nextafter(hi, 1.0), "below")
    zero = Estimate.bounded_mean(np.zeros(40), 0.0, 1.0)
    assert zero.interval()[0] == 0.0 and zero.tail(0.1, "below") == pytest.approx(0.9**40)
    with pytest.raises(ValueError):
        Estimate.bounded_mean([0.5, 1.2], 0.0, 1.0)


def test_runs_needed_for_a_median_never_asks_for_fewer_runs_than_its_interval_needs():
    """A median far from its boundary: the normal approximation asks for 2 runs, but no
    order-statistic interval exists before 2·0.5^r < 1 − level (6 runs at 95 %, 8 at look 2's
    99.17 %, 9 at look 3's 99.58 %; by hand); runs_needed returns those, and an interval exists
    there and not one run fewer. From 5 runs (no interval at 95 %) it plans with the median's
    √(π/2)·sd and still asks for at least 6."""
    est = Estimate.median_of([1.0, 1.1, 1.05, 0.95, 1.02, 0.98, 1.01])
    for level, fewest in ((0.95, 6), (look_level(2), 8), (look_level(3), 9)):
        r = runs_needed(est, 100.0, level)
        assert r == fewest and 2 * 0.5**r < 1 - level <= 2 * 0.5 ** (r - 1)
        assert math.isfinite(Estimate.median_of(np.arange(r)).interval(level)[0])
        assert not math.isfinite(Estimate.median_of(np.arange(r - 1)).interval(level)[0])
    few = at_most(Estimate.median_of([1.0, 1.1, 0.9, 1.05, 0.97]), 2.0)
    assert few.status == UNDECIDED and few.runs_needed == 10  # look 2 doubles 5 runs, at 99.17 % (8 needed there)


def test_zero_spread_is_undecided():
    """All runs equal gives no interval (not a point interval that decides): a two-valued
    outcome with its mean on the bound, at 5 runs, would pass a third of the time."""
    est = Estimate.mean_of([1.0] * 5)
    assert est.kind == T and not est.decidable
    d = at_least(est, 0.9)
    assert d.status == UNDECIDED and "all 5 runs equal" in d.text
    rng = np.random.default_rng(3)
    reps = 4000
    x = np.where(rng.random((reps, 5)) < 0.8, 1.0, 0.75)  # mean 0.95, on the bound
    passed = sum(at_least(Estimate.mean_of(row), 0.95).status == PASS for row in x)
    assert passed / reps <= 0.025 + 3 * math.sqrt(0.025 * 0.975 / reps)
    assert not Estimate.difference([1.0] * 4, [1.0] * 4).decidable


def test_share_runs_needed_is_exact_power():
    """The runs reported for a share give ≥ 80 % exact power under the observed share, one
    fewer less (binomial sum written here, not from the code)."""
    est = Estimate.proportion(19, 20)
    r = runs_needed(est, 0.8)

    def power(n: int) -> float:
        k = np.arange(n + 1)
        lower = np.array([stats.beta.ppf(0.025, j, n - j + 1) if j > 0 else 0.0 for j in k])
        return float(stats.binom.pmf(k, n, 0.95)[lower > 0.8].sum())

    assert power(r) >= 0.8 and power(r - 1) < 0.8


def test_a_failure_of_our_reading_never_makes_not_reproduced():
    """An entry whose only failing counted check is caused *reading* (or a setting, scale or
    stand-in of ours) is inconclusive with that cause named; a failure caused *claim fails*
    makes it not reproduced."""
    from kktheory.report.verdicts import CAUSE_READING, CAUSE_SETTING, CAUSE_STAND_IN

    ok = Check("a", True, "")
    for cause in (CAUSE_READING, CAUSE_SETTING, CAUSE_SCALE, CAUSE_STAND_IN):
        ours = Check("objective", False, "x", cause=cause, p_fail=1e-6)
        v = judge_checks([ok, ours])
        assert v.status == INCONCLUSIVE and v.why == cause, cause
    claim = Check("nmi", False, "y", p_fail=1e-6)
    v = judge_checks([ok, Check("objective", False, "x", cause=CAUSE_READING, p_fail=1e-6), claim])
    assert v.status == NOT_REPRODUCED and v.why == f"{CAUSE_READING}, {CAUSE_CLAIM}"
    # the shortfall of scale turns a failure of the claim into ours: inconclusive, not a failure of the paper
    assert attribute_shortfall(judge_checks([ok, claim]), CAUSE_SCALE, "n = 5000").status == INCONCLUSIVE
    # a pass that holds only in our setting (a cause of ours on a pass) cannot make "reproduced" either
    qualified = Check("nmi", True, "z", cause=CAUSE_SETTING, cause_detail="a baseline weaker here")
    v = judge_checks([ok, qualified])
    assert qualified.qualified and v.status == INCONCLUSIVE and v.why == CAUSE_SETTING
    assert v.summary == "passes only in our setting: nmi" and qualified.why == "setting (a baseline weaker here)"
    assert Check("nmi", True, "z", cause=CAUSE_CLAIM).cause == "" and judge_checks([ok]).status == "reproduced"


def test_a_failure_holm_sets_aside_is_printed_at_holms_level():
    """A check failing alone at 95 % but not after Holm's correction is shown at the level
    Holm tested it at, where its interval meets the boundary: the printed line agrees with
    its "?" (the 95 % interval would exclude the boundary)."""
    import re

    x = [0.40, 0.44, 0.41, 0.43, 0.42, 0.46, 0.39, 0.445]  # mean 0.4256, below 0.45 at 95 %, not at 99 %
    alone = Rule("large", "mean", AT_LEAST, Margin(0.45, "stated", "test")).check(Estimate.mean_of(x))
    assert alone.passed is False and 0.01 < alone.p_fail < 0.05
    others = [Check(f"b{i}", True, "y", p_fail=0.9) for i in range(4)]
    v = judge_checks([alone, *others])
    c = v.checks[0]
    assert c.passed is None and "Holm" in c.detail
    lo, hi, pct = re.search(r"\[(-?[\d.]+), (-?[\d.]+)\] \(([\d.]+)% CI\)", c.detail).groups()
    assert float(pct) == pytest.approx(99.0) and float(lo) <= 0.45 <= float(hi)  # Holm's first threshold 0.05/5
    assert c.runs_needed and "decide its failure" in c.detail


def test_a_sign_pass_shown_short_of_the_effect_is_undecided_when_holm_sets_its_failure_aside():
    """exceeds: an interval above 0 but short of δ fails at the look's level (a failure wins);
    when Holm's correction sets the failure aside, the check is undecided — an effect shown
    short of the smallest that counts is no pass, whatever the family's size."""
    z = np.linspace(-1.0, 1.0, 12)
    x = 0.0075 + 0.0025 * z / z.std(ddof=1)  # t = 2.5e-3/(2.5e-3/√12) ≈ 3.46 against δ: p ≈ 0.005
    d = exceeds(Estimate.mean_of(x), 0.01, 0.99)
    assert d.status == FAIL and d.p_pass < 0.01 and 0.0 < d.p_fail
    rule = Rule("rises", "mean", EXCEEDS, Margin(0.01, "stated", "test"))
    c = rule.check(Estimate.mean_of(x), level=0.99)
    others = [Check(f"b{i}", True, "y", p_fail=0.9) for i in range(6)]
    v = judge_checks([c, *others], level=0.99)
    assert c.p_fail > 0.01 / 7  # Holm's first threshold: the failure is set aside
    assert v.checks[0].passed is None and "not after Holm's correction over 7 checks" in v.checks[0].detail
    assert v.status == INCONCLUSIVE


def test_runs_that_all_agree_name_the_runs_of_a_test_that_needs_no_spread():
    """Five equal paired differences give no t interval, however many more agree; a rule that
    declares its values' range names the runs at which the Hoeffding–Bentkus bound of a mean
    in that range decides (both ends of an equivalence), if every run agrees; without a range
    it names none."""
    from kktheory.report.claims import EQUIVALENT
    from kktheory.report.decide import pct

    rule = Rule("same", "a − b", EQUIVALENT, Margin(0.08, "stated", "test"), value_range=(-1.0, 1.0))
    est = Estimate.paired([0.893] * 5, [0.893] * 5)
    level = look_level(9)
    c = rule.check(est, level=level)
    # the runs are those of the first look of the doubling schedule (5·2^k at look 9 + k) that
    # decides at its own level: found here by trying the looks one by one
    k = next(k for k in range(1, 20) if within(Estimate.bounded_mean([0.0] * (5 * 2**k), -1.0, 1.0),
                                                -0.08, 0.08, look_level(9 + k)).status == PASS)
    want, at = 5 * 2**k, look_level(9 + k)
    assert c.passed is None and c.runs_needed == want and 1000 < want < 10_000
    assert (f"Hoeffding–Bentkus, every run in [-1, 1]) it would decide with about {want} runs if they all agree, "
            f"judged at {pct(at)}") in c.detail
    assert "the declared t test never decides while they agree" in c.detail
    # the previous look of the schedule, at its own level, does not decide
    assert within(Estimate.bounded_mean([0.0] * (want // 2), -1.0, 1.0), -0.08, 0.08, look_level(8 + k)).status != PASS
    plain = replace(rule, value_range=None).check(est, level=level)
    assert plain.runs_needed is None and "no spread to plan from" in plain.detail


def test_a_pass_below_the_smallest_effect_says_it_shows_the_sign_only():
    """exceeds passes when the interval clears 0 and is not wholly short of δ: an estimate below
    δ that passes says so; one at or beyond δ does not."""
    short = exceeds(Estimate.known(0.0072, 0.003), 0.01)
    assert short.status == PASS and "a pass on the sign only" in short.text and "(0.01)" in short.text
    full = exceeds(Estimate.known(0.02, 0.003), 0.01)
    assert full.status == PASS and "sign only" not in full.text
    fall = exceeds(Estimate.known(-0.007, 0.003), 0.01, sign=-1.0)
    assert fall.status == PASS and "(-0.01)" in fall.text
    assert short.sign_only and fall.sign_only and not full.sign_only
    # the overview names such passes, in a reproduced entry too: it cannot read as an effect that counts
    v = judge_checks([Check.of("rise", short), Check.of("big rise", full)])
    assert v.status == "reproduced" and v.summary == "passes on the sign only, short of the effect that counts: rise"
    assert judge_checks([Check.of("big rise", full)]).summary == ""


def test_the_percentile_interval_is_the_largest_count_whose_tail_is_below_the_level():
    """The bisection over the counts equals counting every count whose two-sided tail is
    below 1 − level (the tail increases in the count), for the plain, expanded and add-one
    tails, from 2 draws to 36,001 and levels up to 0.99999."""
    from kktheory.resampling import add_one, expanded_tail, percentile_interval, plain_tail

    rng = np.random.default_rng(0)
    for b in (2, 3, 5, 20, 101, 2000, 36001):
        d = np.sort(rng.normal(size=b))
        for level in (0.5, 0.95, 0.9917, 0.9995, 0.99999):
            for tail in (plain_tail, expanded_tail(10), expanded_tail(3), add_one(plain_tail)):
                if not 2 * tail(0, b) < 1 - level:
                    assert percentile_interval(d, level, tail) == (-math.inf, math.inf)
                    continue
                k = int(np.sum(2 * tail(np.arange(1, (b + 1) // 2), b) < 1 - level))
                assert percentile_interval(d, level, tail) == (d[k], d[b - 1 - k])


def test_scale_ratio_keeps_its_size_where_the_f_interval_does_not():
    """Two arms of 10 runs with equal spreads: the share of one-sided passes of "the first
    spreads less" (the 95 % interval below 0; nominal 0.025). For t₃, log-normal (σ = ½) and
    10 %-contaminated normal runs the F interval of the variance ratio passes 0.09–0.18 of the
    time, the mean-absolute-deviation ratio at most 0.04; for normal runs with a true sd ratio
    e^−1.41 it still passes ≥ 0.9 (the F test ≈ 0.98)."""
    from scipy import stats

    rng = np.random.default_rng(2)
    shapes = {"t3": lambda r: rng.standard_t(3, r), "lognormal": lambda r: rng.lognormal(0.0, 0.5, r),
              "contaminated": lambda r: np.where(rng.random(r) < 0.1, 5.0, 1.0) * rng.standard_normal(r)}
    f_hi = 0.5 * math.log(stats.f.ppf(0.975, 9, 9))

    def rates(draw, ratio=1.0, reps=3000):
        robust = f_test = 0
        for _ in range(reps):
            a, b = ratio * draw(10), draw(10)
            robust += Estimate.scale_ratio(a, b).interval()[1] < 0
            f_test += 0.5 * math.log(a.var(ddof=1) / b.var(ddof=1)) + f_hi < 0
        return robust / reps, f_test / reps

    for name, draw in shapes.items():
        robust, f_test = rates(draw)
        assert robust <= 0.04 and f_test >= 0.07, (name, robust, f_test)
    robust, f_test = rates(lambda r: rng.standard_normal(r), math.exp(-1.41))
    assert robust >= 0.9 and f_test >= 0.95


def test_scale_ratio_is_the_log_ratio_of_mean_absolute_deviations_from_the_median():
    a, b = np.array([1.0, 2.0, 4.0, 7.0]), np.array([0.0, 1.0, 1.5, 2.0, 10.0])
    e = Estimate.scale_ratio(a, b)
    da, db = np.array([2.0, 1.0, 1.0, 4.0]), np.array([1.5, 0.5, 0.0, 0.5, 8.5])  # medians 3 and 1.5, by hand
    assert e.value == pytest.approx(math.log(da.mean() / db.mean()))
    assert e.se == pytest.approx(math.sqrt(da.var(ddof=1) / 4 / da.mean() ** 2 + db.var(ddof=1) / 5 / db.mean() ** 2))
    assert e.runs == 4 and e.kind == T


def test_scale_ratio_decides_nothing_without_spread_in_an_arm():
    """Two runs per arm have equal deviations by construction (the statistician's case: it
    passed at se = 0), and ties or an arm of equal runs leave no spread: no interval."""
    assert not Estimate.scale_ratio([0.400, 0.402], [0.380, 0.400]).decidable
    tied = Estimate.scale_ratio([0.1, 0.2] * 5, np.linspace(0.0, 1.0, 10))
    assert not tied.decidable and math.isfinite(tied.value)
    assert not Estimate.scale_ratio([0.3] * 10, np.linspace(0.0, 1.0, 10)).decidable
    assert not Estimate.ratio_of_means([2.0, 2.0, 2.0], [1.0, 1.5, 2.0]).decidable
    assert Estimate.scale_ratio([0.1, 0.2, 0.4], [0.0, 0.5, 0.6]).decidable


def test_runs_are_planned_at_the_level_they_will_be_judged_at():
    """Runs added after look j are judged at the look of the doubling schedule that reaches
    them: a plan names the first size r·2^k at which the test reaches 80 % power at look
    j + k's level (the fixed 95 % is look 1); a level off the schedule (Holm's for one check)
    plans at itself."""
    from kktheory.report.decide import scheduled

    est = Estimate.mean_of([0.02, -0.004, 0.016, -0.002, 0.018, 0.0])
    assert scheduled(lambda level: runs_needed(est, 0.01, level), 0.999, 12) == (runs_needed(est, 0.01, 0.999), 0.999)
    d = exceeds(est, 0.01)
    runs, at = on_schedule(est, d.toward)
    assert d.runs_needed == runs and d.plan_at == at and f"at {100 * at:.4g}%" in d.text
    assert runs >= runs_needed(est, d.toward, at) > runs_needed(est, d.toward, 0.95)  # more than a plan at 95 %
    assert runs // est.runs & (runs // est.runs - 1) == 0  # a size of the doubling schedule


def test_an_estimate_on_its_boundary_is_planned_at_the_designs_effect():
    """On the boundary no run count decides a check at the observed value (its power there is
    the test's size); its runs are planned at the design's effect, declared before the data,
    with the observed spread — the runs that give 80 % power if the claim's own value holds —
    and the text says so. Off the boundary the plan is the observed value's, as before."""
    from kktheory.report.claims import AT_MOST, Design

    rule = Rule("rate", "slope", AT_MOST, Margin(-0.4, "stated", "test"), Design("known", -0.5, -0.4, (0.025,), 16, "t"))
    runs = Estimate.mean_of(list(-0.4 + 0.1 * np.random.default_rng(0).standard_normal(10)))
    level = look_level(14)
    on = rule.check(replace(runs, value=-0.4001), level=level)
    design = runs_needed(replace(runs, value=-0.5), -0.4, look_level(15))
    assert on.passed is None and on.runs_needed in (20, 40, 80) and on.runs_needed >= design
    assert "which sits on the boundary; were the value the design's (-0.5, the claim's own)" in on.detail
    off = rule.check(replace(runs, value=-0.35), level=level)
    assert off.runs_needed and "sits on the boundary" not in off.detail and "points against the claim" in off.detail


def test_a_resampled_estimate_is_planned_with_the_spread_of_its_interval_at_the_level():
    """Draws heavier-tailed than a normal (a studentised bootstrap's can be) have a 99.99 %
    interval far wider than their 95 % one suggests: planned with the 95 % spread, a rate fit
    whose 99.99 % interval was [−15.9, 4.64] was said to need 10 runs. The plan at a level uses
    the spread the draws' own interval at that level implies, where it is wider; normal draws
    plan as before (the two spreads agree within the draws' noise)."""
    rng = np.random.default_rng(0)
    heavy = Estimate.resampled(-1.44, -1.44 + 0.5 * rng.standard_t(1.5, 20_000), 5)
    lo, hi = heavy.interval(0.9999)
    assert _spread_at(heavy, 0.9999) == pytest.approx((hi - lo) / (2 * float(special.ndtri(0.99995))) * math.sqrt(5))
    assert _spread_at(heavy, 0.9999) > 10 * heavy.unit_sd and _spread_at(heavy, LEVEL) == heavy.unit_sd
    assert runs_needed(heavy, -0.4, LEVEL) is not None and runs_needed(heavy, -0.4, 0.9999) is None
    normal = Estimate.resampled(-1.44, -1.44 + 0.5 * rng.standard_normal(20_000), 5)
    assert _spread_at(normal, 0.9999) == pytest.approx(normal.unit_sd, rel=0.1)
