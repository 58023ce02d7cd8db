"""The runs that would decide an undecided check, planned on the doubling schedule as the
scheduler produces it (kktheory/report/decide.py: ``scheduled``, ``next_size``).

Simulated with the committed functions: a check that pools a sweep no look extends (10 runs)
with one the looks double (10 runs, calandriello_fig2's NMI checks) names a run count a look of
the scheduler holds and reaches its power at that look's level, where the plan that doubles
all 20 named 80 runs at look 3, whose scheduler holds 50 (power 0.54 where 0.8 was printed);
without a fixed part the plan is the one made before (a regression guard, against a copy of
it); a check without rows plans from its design's runs on the schedule.
"""

from __future__ import annotations

import math
from functools import partial

import numpy as np
import pytest

from kktheory.report.claims import AT_LEAST, Design, Margin, Rule
from kktheory.report.cost import design_plan
from kktheory.report.decide import (
    LEVEL, PASS, Estimate, at_least, look_level, look_of, next_size, runs_needed, scheduled, within,
)
from kktheory.report.sequential import next_runs
from kktheory.report.verdicts import Check

FIXED, GROWING = 10, 10  # calandriello_fig2's NMI checks: the grid's 10 seeds and the held-out sweep's first 10
EFFECT, SD = 0.443, 1.0  # a paired mean undecided at 20 runs, 95 % (half-width 0.468); ≈ 70 runs at look 3's level
REPS = 4000
RISES = Rule("rises", "mean of paired differences (t interval)", AT_LEAST, Margin(0.0, "a rise", "test"))


def runs_of(mean: float, sd: float, runs: int, seed: int = 0) -> Estimate:
    """The t estimate of ``runs`` paired differences whose mean and sd are exactly ``mean``, ``sd``."""
    z = np.random.default_rng(seed).standard_normal(runs)
    return Estimate.mean_of(mean + sd * (z - z.mean()) / z.std(ddof=1))


def scheduler_runs(look: int) -> int:
    """Runs per arm the scheduler gives the check at ``look`` (look 1 the fixed judgement of its
    20): the fixed part, and the growing sweep brought look by look to the next size of its
    schedule (:func:`next_runs`, R₁ = 10)."""
    grow = GROWING
    for _ in range(look - 1):
        grow = next_runs([Check("waits", None, "")], GROWING, grow)
    return FIXED + grow


def power(runs: int, level: float, seed: int = 1) -> float:
    """Share of ``REPS`` draws of ``runs`` paired differences N(EFFECT, SD) that the rule passes at ``level``."""
    rng = np.random.default_rng(seed)
    return float(np.mean([RISES.decide(Estimate.mean_of(rng.normal(EFFECT, SD, runs)), level).status == PASS
                          for _ in range(REPS)]))


def test_a_plan_pooling_a_sweep_no_look_extends_names_runs_a_look_holds_and_reaches_its_power():
    """10 runs that no look extends + 10 that each look doubles: look 1 + k holds 10 + 10·2^k.
    The plan names one of those counts at the level of the look that holds it, and draws of that
    many runs judged there by the rule pass at least 0.8 − 3 Monte-Carlo s.e. of the time. The
    plan that doubles all 20 runs (the one made before) named 80 runs at look 3, where the
    scheduler holds 50: those pass far less often than the 0.8 it printed."""
    est = runs_of(EFFECT, SD, FIXED + GROWING)
    check = RISES.check(est, level=LEVEL, fixed=FIXED)
    assert check.passed is None and check.decision.fixed == FIXED
    runs, at = check.runs_needed, check.decision.plan_at
    look = look_of(at)
    assert runs == scheduler_runs(look) and (runs, look) == (90, 4)
    assert "(20 now, 10 of them from a sweep no look extends; every arm grows)" in check.detail
    floor = 0.8 - 3 * math.sqrt(0.8 * 0.2 / REPS)
    assert power(runs, at) >= floor
    doubled = RISES.check(est, level=LEVEL)  # the fixed part ignored: 20·2^k
    wrong, when = doubled.runs_needed, doubled.decision.plan_at
    assert (wrong, look_of(when)) == (80, 3) and scheduler_runs(3) == 50 != wrong
    assert power(scheduler_runs(3), when) < 0.7  # what look 3 holds, at its level


def old_scheduled(est: Estimate, boundary: float, level: float, other: float | None = None) -> tuple[int | None, float]:
    """The plan as made before the fixed part (kktheory/report/decide.py until 2026-12-08):
    r·2^k runs at look j + k, the first reaching ``runs_needed`` at that look's level."""
    j = look_of(level)
    if j is None:
        return runs_needed(est, boundary, level, other=other), level
    have = max(est.runs, 1)
    for k in range(1, 64):
        at = look_level(j + k)
        need = runs_needed(est, boundary, at, other=other)
        if need is None:
            return None, at
        if need <= have * 2**k:
            return have * 2**k, at
    return None, level


@pytest.mark.parametrize("level", [LEVEL, look_level(3), 0.999])
def test_without_a_fixed_part_the_plan_is_the_one_made_before(level):
    """Fixed part 0: the runs double as a whole, as before — for a t mean, a share, a bounded
    mean's equivalence (both ends), on and off the schedule (0.999: Holm's level for one check)."""
    cases = [(runs_of(0.3, 1.0, 12), 0.0, None), (Estimate.proportion(17, 20), 0.7, None),
             (Estimate.bounded_mean([0.01] * 10, -1.0, 1.0), -0.05, 0.05), (runs_of(0.004, 0.06, 10, 3), 0.04, -0.04)]
    for est, boundary, other in cases:
        need = partial(runs_needed, est, boundary, other=other)
        assert scheduled(need, level, next_size(est.runs)) == old_scheduled(est, boundary, level, other)
    equivalence = within(runs_of(0.004, 0.06, 10, 3), -0.04, 0.04, level)
    assert equivalence.status == "inconclusive" and equivalence.other is not None
    assert equivalence.planned == old_scheduled(equivalence.estimate, equivalence.toward, level, equivalence.other)
    assert at_least(runs_of(0.3, 1.0, 12), 0.0, level).planned == old_scheduled(runs_of(0.3, 1.0, 12), 0.0, level)


def test_a_check_without_rows_plans_from_its_designs_runs_on_the_schedule():
    """Before any row, look 2 holds the design's 12 runs, look 3 24, …: the plan is the first
    whose runs reach power 0.8 at that look's own level — 12 are the design's at 95 % and fall
    short at look 2's 99.17 %; so does each earlier size at its own look."""
    rule = Rule("r", "a mean", AT_LEAST, Margin(0.9, "why", "src"), Design("paired", 1.0, 0.9, (0.1,), 12, "src"))
    runs, at = design_plan(rule, LEVEL)
    look = look_of(at)
    assert runs == 12 * 2 ** (look - 2) and look > 2
    assert rule.power(runs, level=at) >= 0.8 > rule.power(12, level=look_level(2))
    assert all(rule.power(12 * 2 ** (j - 2), level=look_level(j)) < 0.8 for j in range(2, look))
    later, when = design_plan(rule, look_level(2))  # judged at look 2: its first runs are look 3's
    assert look_of(when) > 2 and later == 12 * 2 ** (look_of(when) - 3)
