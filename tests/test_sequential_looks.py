"""The sequential decision's looks (kktheory/report/sequential.py, kktheory/reproduce/sequential.py).

What the design guarantees, simulated with its own functions: look 1 at 95 %, look j ≥ 2 at
1 − 0.05/(j(j + 1)), the doubling sizes of ``next_runs``, continuing on both sides of the
claim (``waiting``) — a false decision in each direction at most 0.0375 (0.025 + 0.0125),
and the same simulation without spending, or with doubled spending, breaks that bound; each
look's own error within its share α_j/2 (the later looks' spending doubled is caught there);
an entry of true claims declared *not reproduced* through the real judge (Holm) and looks at
most 0.0375; one shared-sweep case, where another entry sets the run counts. Then the sizes,
who waits, when a judgement is a new look, the hashes that pin a look, and the committed
looks files.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import types
from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from scipy import special

from kktheory.report import catalogue
from kktheory.report.index import IndexRecord
from kktheory.report.claims import AT_LEAST, EXCEEDS, Design, Margin, Rule
from kktheory.report.decide import FAIL, INCONCLUSIVE, LEVEL, PASS, Estimate, look_level
from kktheory.report.sequential import (
    JUDGING, PRINTS, UNRECORDED, Look, attribution_hash, code_hash, decision_hash, fingerprints, first_levels, first_looks, looks_text, next_look, next_runs, read_looks, read_pending,
    rows_hash, rule_prints, rules_hash, verdict_history, waiting,
    write_looks, write_pending,
)
from kktheory.version import git_state
from kktheory.report.verdicts import INCONCLUSIVE as INCONCLUSIVE_VERDICT, NOT_REPRODUCED, Check, Verdict, judge_checks
from kktheory.reproduce import committed
from kktheory.reproduce import sequential as reproduce_sequential
from kktheory.reproduce.sequential import check_marks

@pytest.fixture(autouse=True)
def _no_committed_pending(monkeypatch):
    """A look the repository's own decision left running (its committed ``.pending`` note) is
    not these tests' business: read only from the folders the tests make."""
    real, committed_rows = reproduce_sequential.read_pending, committed.COMMITTED_ROWS
    monkeypatch.setattr(reproduce_sequential, "read_pending",
                        lambda folder, name: None if folder == committed_rows else real(folder, name))


FIRST, LOOKS = 10, 5  # look 1 with 10 runs per arm, at most 5 looks (10, 20, 40, 80, 160)
BOUND = 0.0375  # a false decision per direction: 0.025 at look 1 + 0.0125 over all later looks
SEQUENCES = 20_000
CHECKED = 100  # undecided (sequence, look) pairs per look also judged by the real Rule.decide

EXCEEDS_RULE = Rule("rises", "Welch difference of two arms", EXCEEDS, Margin(0.01, "a stated smallest effect", "test"),
                    Design("welch", 0.3, 0.0, (1.0, 1.0), FIRST, "test"))
AT_LEAST_RULE = Rule("at least", "paired mean", AT_LEAST, Margin(0.5, "a stated bound", "test"),
                     Design("paired", 0.8, 0.5, (1.0,), FIRST, "test"))


def _spec(j: int) -> float:
    """The looks' levels as docs/verdicts.md states them, written here apart from the code under
    test (decide.look_level): look 1 at 95 %, look j ≥ 2 at 1 − 0.05/(j(j+1)). The simulations'
    limits read these, so that a changed look_level fails them."""
    return 0.95 if j == 1 else 1 - 0.05 / (j * (j + 1))


def _coded(j: int) -> float:
    return look_level(j)


def _no_spending(j: int) -> float:
    return LEVEL


def _doubled(j: int) -> float:
    return 1 - 2 * (1 - _spec(j))


def _later_doubled(j: int) -> float:
    """Look 1 as coded, looks j ≥ 2 spending 2·α_j: the bound's union over looks would be
    0.025 + 0.025, yet its false decisions stay near 0.0375 (the looks overlap), so only the
    per-look rates (:func:`_per_look`) can tell it from the coded spending."""
    return _spec(j) if j == 1 else 1 - 2 * (1 - _spec(j))


def _statistics(rule: Rule, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Value, standard error and degrees of freedom of every sequence's estimate, as
    Estimate.difference (Welch) or Estimate.paired computes them, vectorised."""
    r = a.shape[1]
    if rule.design.kind == "welch":
        vx, vy = a.var(1, ddof=1) / r, b.var(1, ddof=1) / r
        return a.mean(1) - b.mean(1), np.sqrt(vx + vy), (vx + vy) ** 2 / (vx**2 / (r - 1) + vy**2 / (r - 1))
    d = a - b
    return d.mean(1), d.std(1, ddof=1) / math.sqrt(r), np.full(len(d), r - 1.0)


def _status(rule: Rule, value: np.ndarray, se: np.ndarray, dof: np.ndarray, level: float) -> np.ndarray:
    """The status Rule.decide gives (exceeds: pass above 0, fail below the smallest effect;
    at least: pass above the bound, fail below; a failure wins), from the two p-values on
    the two-sided scale — the vectorised twin of Estimate.tail, checked against the real
    Rule.decide in :func:`_simulate`."""
    b = rule.margin.value
    lo_pass, hi_fail = (0.0, b) if rule.shape == EXCEEDS else (b, b)
    p_pass = 2 * special.stdtr(dof, -(value - lo_pass) / se)
    p_fail = 2 * special.stdtr(dof, (value - hi_fail) / se)
    alpha = 1 - level
    return np.where(p_fail < alpha, FAIL, np.where(p_pass < alpha, PASS, INCONCLUSIVE))


def _estimate(rule: Rule, a: np.ndarray, b: np.ndarray) -> Estimate:
    return Estimate.difference(a, b) if rule.design.kind == "welch" else Estimate.paired(a, b)


def _simulate(rule: Rule, value: float, level_of: Callable[[int], float], seed: int,
              n: int = SEQUENCES) -> tuple[float, float]:
    """Shares of ``n`` sequences that end in a pass and in a failure: true value ``value``;
    look j at ``level_of(j)``; while the check is undecided — on either side — the next look
    has ``next_runs`` runs, read from the real ``waiting`` list of real checks. Every
    decision the vectorised test takes, and ``CHECKED`` undecided ones per look, are judged
    again by the real Rule.decide on Estimate.difference / Estimate.paired and must agree."""
    rng = np.random.default_rng(seed)
    most = FIRST * 2 ** (LOOKS - 1)
    sd = rule.design.sd
    if rule.design.kind == "welch":
        a, b = rng.normal(value, sd[0], (n, most)), rng.normal(0.0, sd[-1], (n, most))
    else:
        b = rng.normal(0.0, 1.0, (n, most))
        a = b + rng.normal(value, sd[0], (n, most))
    final = np.full(n, INCONCLUSIVE, dtype=object)
    active = np.arange(n)
    runs = FIRST
    both_sides: set[bool] = set()
    for j in range(1, LOOKS + 1):
        level = level_of(j)
        status = _status(rule, *_statistics(rule, a[active, :runs], b[active, :runs]), level)
        open_ = np.flatnonzero(status == INCONCLUSIVE)
        real = np.concatenate([np.flatnonzero(status != INCONCLUSIVE),
                               rng.choice(open_, min(CHECKED, len(open_)), replace=False)])
        checks = []
        for k in real:
            i = active[k]
            decision = rule.decide(_estimate(rule, a[i, :runs], b[i, :runs]), level)
            assert decision.status == status[k], (j, i, decision.text)
            checks.append(Check.of(rule.name, decision, rule=rule))
            if decision.status == INCONCLUSIVE:
                both_sides.add(decision.against)
        final[active] = status
        undecided = [c for c in checks if c.passed is None]
        assert list(map(id, waiting(Verdict("inconclusive", "", tuple(checks))))) == list(map(id, undecided))  # either side
        active = active[open_]
        if not len(active):
            break
        runs = next_runs(undecided, FIRST, runs)
        assert runs == FIRST * 2**j  # fixed in advance: doubling from look 1
    assert both_sides == {True, False}  # estimates pointing against the claim went on too
    return float(np.mean(final == PASS)), float(np.mean(final == FAIL))


def _limit(n: int = SEQUENCES) -> float:
    """The bound plus three Monte-Carlo standard errors of a share at the bound."""
    return BOUND + 3 * math.sqrt(BOUND * (1 - BOUND) / n)


def _per_look(rule: Rule, value: float, level_of: Callable[[int], float], seed: int,
              n: int = SEQUENCES) -> list[tuple[float, float]]:
    """Each look's own rates of a pass and of a failure over all ``n`` sequences, whether or not
    they stopped before it: look j judges R₁·2^(j−1) runs at ``level_of(j)``. The union bound
    over looks is the sum of these; each is at most α_j/2 for a valid test at look j's level."""
    rng = np.random.default_rng(seed)
    most = FIRST * 2 ** (LOOKS - 1)
    sd = rule.design.sd
    a = rng.normal(value, sd[0], (n, most))
    b = rng.normal(0.0, sd[-1], (n, most)) if rule.design.kind == "welch" else np.zeros((n, most))
    out = []
    for j in range(1, LOOKS + 1):
        status = _status(rule, *_statistics(rule, a[:, :FIRST * 2 ** (j - 1)], b[:, :FIRST * 2 ** (j - 1)]), level_of(j))
        out.append((float(np.mean(status == PASS)), float(np.mean(status == FAIL))))
    return out


def _look_limit(j: int, n: int = SEQUENCES) -> float:
    """Look j's one-sided share α_j/2 of the stated spending (:func:`_spec`) plus three Monte-Carlo
    standard errors."""
    a = (1 - _spec(j)) / 2
    return a + 3 * math.sqrt(a * (1 - a) / n)


@pytest.mark.parametrize(("rule", "value", "directions"), [
    (EXCEEDS_RULE, 0.0, (0,)),
    (AT_LEAST_RULE, 0.5, (0, 1)),
], ids=["exceeds", "at_least"])
def test_each_look_spends_its_share_and_doubled_later_spending_is_caught(rule, value, directions):
    """The premise of the union bound, look by look: on the boundary every look's own false
    decision rate is at most α_j/2 (the t test at that look's level is exact there, Welch's
    nearly so). With looks j ≥ 2 spending 2·α_j, look 2's rate is twice its share — caught here,
    though the sequences' total (test above) would stay near the bound."""
    coded = _per_look(rule, value, _coded, 2)
    doubled = _per_look(rule, value, _later_doubled, 2)
    print(f"\n{rule.shape}: per-look rates coded {coded}, later looks doubled {doubled}")
    for d in directions:
        assert all(rates[d] <= _look_limit(j) for j, rates in enumerate(coded, start=1)), coded
        assert doubled[0][d] == coded[0][d] and any(rates[d] > _look_limit(j) for j, rates in enumerate(doubled, start=1))


@pytest.mark.parametrize(("rule", "value", "directions"), [
    (EXCEEDS_RULE, 0.0, (0,)),  # a null effect on the pass boundary: a pass is false
    (AT_LEAST_RULE, 0.5, (0, 1)),  # exactly on the bound: the worst case of a false pass and of a false failure
], ids=["exceeds", "at_least"])
def test_spending_bounds_the_false_decisions_and_its_removal_breaks_it(rule, value, directions):
    """≤ 0.0375 per direction with the coded spending; the same simulation (same draws)
    with every look at 95 %, or with α_j doubled, exceeds the bound: the test is sensitive."""
    coded = _simulate(rule, value, _coded, 1)
    none = _simulate(rule, value, _no_spending, 1)
    doubled = _simulate(rule, value, _doubled, 1)
    print(f"\n{rule.shape}: pass/fail rates coded {coded}, no spending {none}, doubled {doubled}; "
          f"limit {_limit():.4f}")
    for d in directions:
        assert coded[d] <= _limit()
        assert none[d] > _limit() and doubled[d] > _limit()


FAMILY = tuple(Rule(f"at least, check {k}", "paired mean over seeds", AT_LEAST, Margin(0.5, "a stated bound", "test"),
                    Design("paired", 0.8, 0.5, (1.0,), FIRST, "test")) for k in range(3))
FAMILY_SEQUENCES = 8_000


def _family_not_reproduced(level_of: Callable[[int], float], seed: int, rho: float = 0.5,
                           n: int = FAMILY_SEQUENCES) -> float:
    """Share of ``n`` sequences of an entry whose three counted claims all hold, each on its
    bound (mean 0.5, "at least 0.5": the worst case for a false failure), that some look declares
    *not reproduced*. The seed is the unit: a seed draws one value per check, correlated ρ across
    the checks (√ρ·W + √(1 − ρ)·E, sd 1), and each check is the Student-t mean of its seeds. Each
    look judges the seeds it has with the real Rule.check and judge_checks (Holm) at
    ``level_of(j)``; while real checks wait (``waiting``), the next look has ``next_runs`` runs.
    A look where no check is decided is inconclusive with every check waiting, whatever Holm
    does: only those sequences (bar a sample, judged for real too) skip the real judge."""
    rng = np.random.default_rng(seed)
    most = FIRST * 2 ** (LOOKS - 1)
    x = 0.5 + math.sqrt(rho) * rng.standard_normal((n, most, 1)) + math.sqrt(1 - rho) * rng.standard_normal((n, most, 3))
    declared = np.zeros(n, bool)
    active, runs = np.arange(n), FIRST
    for j in range(1, LOOKS + 1):
        level = level_of(j)
        m, se = x[active, :runs].mean(1), x[active, :runs].std(1, ddof=1) / math.sqrt(runs)
        p = 2 * special.stdtr(runs - 1, -np.abs(m - 0.5) / se)  # the side the estimate lies on
        quiet = ~(p < 1 - level).any(axis=1)
        judged = np.concatenate([np.flatnonzero(~quiet),
                                 rng.choice(np.flatnonzero(quiet), min(CHECKED, int(quiet.sum())), replace=False)])
        go_on = quiet.copy()
        for k in judged:
            i = active[k]
            verdict = judge_checks([rule.check(Estimate.mean_of(x[i, :runs, c]), level=level)
                                    for c, rule in enumerate(FAMILY)], "", level)
            wait = waiting(verdict)
            assert not quiet[k] or (verdict.status == INCONCLUSIVE_VERDICT and len(wait) == 3)
            declared[i] |= verdict.status == NOT_REPRODUCED
            go_on[k] = bool(wait)
            if wait:
                assert next_runs(wait, FIRST, runs) == FIRST * 2**j
        active = active[go_on]
        if not len(active):
            break
        runs *= 2
    return float(declared.mean())


def test_a_true_claim_is_declared_not_reproduced_at_most_at_the_documented_rate():
    """The entry's guarantee under the looks (kktheory/report/verdicts.py): three true claims
    on their bounds, seeds correlated 0.5 across the checks, up to five looks from 10 runs,
    judged by the real judge_checks (Holm) and continued by the real waiting / next_runs — a
    false *not reproduced* at most 0.0375; with every look at 95 % (no spending) the bound
    breaks."""
    coded = _family_not_reproduced(_coded, 3)
    none = _family_not_reproduced(_no_spending, 3, n=3_000)
    print(f"\nfalse 'not reproduced': coded {coded}, no spending {none}; limit {_limit(FAMILY_SEQUENCES):.4f}")
    assert coded <= _limit(FAMILY_SEQUENCES)
    assert none > _limit(3_000)


def _shared_sweep(rho: float, seed: int, n: int = SEQUENCES) -> tuple[float, float]:
    """Entry B's shares of false passes and false failures when another entry A, judging the same
    sweep, sets B's run counts (kktheory/report/verdicts.py, "Shared sweeps"): both claims "at
    least 0.5" on their bounds (paired means of seeds, sd 1), A's per-seed value correlated ρ with
    B's (the same seeds). B's look 1 judged 10 runs; A's look 1, 15 (the sweep grown since): B's
    look 2. While A is undecided A adds seeds to 30, 60, 120 — each a look of B; once A is
    decided, B goes on with its own schedule, the next 10·2^k above what the rows hold. So B's
    look 4 judges 60 runs or 40, as A's estimates — correlated with B's — decided. Statuses
    by the vectorised twin of Rule.decide (:func:`_status`, checked in :func:`_simulate`); at
    most 160 runs."""
    rng = np.random.default_rng(seed)
    most = 160
    w = rng.standard_normal((n, most))
    b = 0.5 + w
    a = 0.5 + rho * w + math.sqrt(1 - rho**2) * rng.standard_normal((n, most))
    zero = np.zeros((n, most))
    final = np.full(n, INCONCLUSIVE, dtype=object)
    runs, look_b, look_a = np.full(n, 10), np.ones(n, int), np.zeros(n, int)
    b_open, a_open = np.ones(n, bool), np.ones(n, bool)
    while b_open.any():
        for r in np.unique(runs[b_open]):
            at = np.flatnonzero(b_open & (runs == r))
            for j in np.unique(look_b[at]):
                k = at[look_b[at] == j]
                status = _status(AT_LEAST_RULE, *_statistics(AT_LEAST_RULE, b[k, :r], zero[k, :r]), look_level(int(j)))
                final[k] = status
                b_open[k] = status == INCONCLUSIVE
            mine = at[a_open[at] & (r >= 15)]  # A judges from its first look, 15 runs
            for j in np.unique(look_a[mine] + 1):
                k = mine[look_a[mine] + 1 == j]
                status = _status(AT_LEAST_RULE, *_statistics(AT_LEAST_RULE, a[k, :r], zero[k, :r]), look_level(int(j)))
                look_a[k] = j
                a_open[k] = status == INCONCLUSIVE
        grow = b_open
        first_a = grow & (runs == 10)  # the sweep grows to A's first look
        by_a = grow & ~first_a & a_open
        own = grow & ~first_a & ~a_open
        runs = np.where(first_a, 15, np.where(by_a, 2 * runs, np.where(own, 10 * 2 ** np.ceil(np.log2((runs + 1) / 10)), runs))).astype(int)
        look_b = np.where(grow, look_b + 1, look_b)
        b_open &= runs <= most
    return float(np.mean(final == PASS)), float(np.mean(final == FAIL))


def test_a_shared_sweep_whose_run_counts_another_entry_sets():
    """One case of the shared-sweep looks that the union bound does not cover (B's look 4 at
    40 or 60 runs as A's estimates, correlated 0.7 with B's, decided): B's false decisions each
    way, simulated, within 0.0375 (3.0 % and 2.8 %: a simulation of one case, not a proof)."""
    rates = _shared_sweep(0.7, 4)
    print(f"\nshared sweep, ρ = 0.7: B's false pass / failure {rates}; limit {_limit():.4f}")
    assert max(rates) <= _limit()


def test_next_runs_doubles_from_the_first_look_whatever_the_checks_need():
    wait = [Check("a", None, "x", runs_needed=400, runs=10), Check("b", None, "y", runs_needed=11, runs=10)]
    assert [next_runs(wait, 10, have) for have in (10, 20, 40, 80)] == [20, 40, 80, 160]
    assert next_runs(wait[:1], 10, 10) == next_runs(wait[1:], 10, 10) == 20  # not chosen from the data
    assert next_runs(wait, 5, 40) == 80  # rows already past the schedule: its next size above them
    assert next_runs(wait, 10, 25) == 40
    assert next_runs([], 10, 10) is None  # nothing waits: no look


def test_a_check_pointing_against_its_claim_still_waits():
    against = EXCEEDS_RULE.decide(Estimate.difference([-0.2, 0.4, -1.0, 0.1], [0.0, 0.3, 0.2, -0.1]))
    assert against.status == INCONCLUSIVE and against.against
    one_run = EXCEEDS_RULE.decide(Estimate.difference([0.5], [0.1]))
    assert one_run.status == INCONCLUSIVE and not one_run.estimate.decidable
    speed = replace(EXCEEDS_RULE, name="faster")
    checks = (Check.of("against", against, rule=EXCEEDS_RULE), Check.of("no interval", one_run, rule=EXCEEDS_RULE),
              Check("no rows", None, "the rows are absent", rule=EXCEEDS_RULE),
              Check.of("timed", against, rule=speed),
              Check("decided", False, "x", rule=EXCEEDS_RULE, runs=10),
              Check("sanity", None, "x", rule=replace(EXCEEDS_RULE, sanity=True), runs=10))
    assert [c.name for c in waiting(Verdict("inconclusive", "", checks), apart=(speed,))] == ["against", "no interval"]


def test_a_judgement_on_other_rows_is_a_new_look_and_unchanged_rows_spend_nothing():
    looks = [Look(1, 10, LEVEL, 2, "inconclusive", "t", [], "h1", "r"),
             Look(2, 20, look_level(2), 1, "inconclusive", "t", ["seed=range(10,20)"], "h2", "r")]
    assert next_look([], 10, "h1", "r") == Look(1, 10, LEVEL, 0, JUDGING, "", [], "h1", "r")
    assert next_look(looks, 20, "h2", "r") is None  # a redraw of the same rows
    # rules changed on the same rows: a new look (a rule may now read other rows; the checks it
    # left unchanged keep their first level: the test of first_levels below) — what they decide by,
    # where the last look recorded it: a reworded reason is none
    assert next_look(looks, 20, "h2", "other rules").look == 3
    decided = [*looks[:-1], replace(looks[-1], decision_hash="d")]
    assert next_look(decided, 20, "h2", "reworded", decision="d") is None
    assert next_look(decided, 20, "h2", "reworded", decision="moved").look == 3
    assert next_look(decided, 20, "h2", "r", decision="printed otherwise") is None  # the very rules: no look
    assert next_look([replace(x, rules_hash="") for x in looks], 20, "h2", "other rules") is None  # unrecorded
    # attribution rules written in the judge's code (Entry.attribution) changed: a new look, said in the history
    assert next_look(looks, 20, "h2", "r", attribution="a1").look == 3
    assert next_look([replace(x, attribution="a1") for x in looks], 20, "h2", "r", attribution="a1") is None
    more = next_look(looks, 40, "h3", "r")  # seeds another entry's looks added to the shared sweep
    assert (more.look, more.level, more.part) == (3, look_level(3), [])
    assert next_look(looks, 20, "h3", "r").look == 3  # the same run count, other rows
    old = [replace(x, rows_hash="") for x in looks]  # recorded before the hashes: the run count alone
    assert next_look(old, 20, "h9", "r") is None and next_look(old, 40, "h9", "r").look == 3
    # seeds added to the settings that had fewer: the most seeds of a setting stays 20, still a new look
    added = next_look(old, 20, "h9", "r", ["yin_table2/data=dna", "seed=range(5,10)"])
    assert (added.look, added.part) == (3, ["yin_table2/data=dna", "seed=range(5,10)"])


def _fake_reproduce(rows: pd.DataFrame, seen: list):
    """A stand-in for reproduce: hands ``rows`` to the look and records the level it gets."""
    def fake(entry, scale, results_dir, out_dir, overrides=(), execute=True, log=None, level=LEVEL, looks="",
             parts=(), look=None, run_only=None):
        level, text, *_ = look(rows)
        seen.append((level, text))
        check = Check.of("a", EXCEEDS_RULE.decide(Estimate.difference([0.1, 0.3, -0.2], [0.0, 0.1, 0.2]), level),
                         rule=EXCEEDS_RULE)
        return Verdict("inconclusive", "", (check,))
    return fake


def _rows(seeds: int) -> pd.DataFrame:
    return pd.DataFrame({"run_id": [f"r{m}-{s}" for m in (10, 20) for s in range(seeds)],
                         "m": [m for m in (10, 20) for _ in range(seeds)],
                         "seed": [s for _ in (10, 20) for s in range(seeds)],
                         "value": [0.1 * s + m for m in (10, 20) for s in range(seeds)]})


def test_a_redraw_with_more_seeds_than_the_last_look_records_a_new_look(tmp_path, monkeypatch):
    entry = catalogue()["yin_fig1"]
    rules = rules_hash(reproduce_sequential.declared_rules(entry))
    looks = [Look(1, 10, LEVEL, 2, "inconclusive", "t", [], rows_hash(_rows(10)), rules,
                  attribution=attribution_hash(entry.attribution))]  # judged by the entry's attribution rules
    seen: list = []
    monkeypatch.setattr(reproduce_sequential, "reproduce", _fake_reproduce(_rows(10), seen))
    verdict, after = reproduce_sequential.judge(entry, tmp_path, tmp_path, looks, [], False)
    assert [replace(x, seen={}, seen_rules={}, decision_hash="", prints=1) for x in after] == looks \
        and seen[-1][0] == LEVEL and after[0].prints == PRINTS
    assert after[0].seen == fingerprints(verdict) and after[0].seen  # the last look's rows: its estimates noted
    assert after[0].seen_rules == rule_prints(verdict) and after[0].decision_hash  # and the rules they were judged by
    assert read_looks(tmp_path / "rows", entry.name) == after
    monkeypatch.setattr(reproduce_sequential, "reproduce", _fake_reproduce(_rows(20), seen))
    verdict, after = reproduce_sequential.judge(entry, tmp_path, tmp_path, looks, [], False)
    assert seen[-1][0] == look_level(2) and "look 2: 20 runs per setting" in seen[-1][1]
    assert [x.look for x in after] == [1, 2] and after[-1].rows_hash == rows_hash(_rows(20))
    assert after[-1].status == verdict.status and after[-1].undecided == 1
    assert read_looks(tmp_path / "rows", entry.name) == after
    # the new look records what judged it: the checkout's commit and the judging code's hash
    assert (after[-1].commit, after[-1].code) == (git_state(), code_hash()) and len(after[-1].code) == 64
    assert (after[0].commit, after[0].code) == ("", "")  # a look recorded before keeps what it had


def test_a_looks_commit_says_when_the_checkout_had_uncommitted_edits(tmp_path):
    """git_state: the commit, "+dirty" while a tracked file differs from it, "unknown" outside git."""
    def git(*args):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    assert git_state(tmp_path) == "unknown"
    git("init", "-q")
    (tmp_path / "a.py").write_text("x = 1\n")
    git("add", "a.py")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "a")
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=tmp_path, capture_output=True, text=True).stdout.strip()
    assert git_state(tmp_path) == head
    (tmp_path / "b.py").write_text("untracked\n")
    assert git_state(tmp_path) == head  # an untracked file is not the code that ran
    (tmp_path / "a.py").write_text("x = 2\n")
    assert git_state(tmp_path) == head + "+dirty"


def test_the_code_hash_reads_the_judging_source_and_nothing_else(tmp_path, monkeypatch):
    """The same in another process; another set of files, another hash; the file's bytes enter
    it (an edit of an estimator changes it), its path's place on the machine does not."""
    from kktheory.report import sequential as report_sequential

    here = code_hash()
    there = subprocess.run([sys.executable, "-c", "from kktheory.report.sequential import code_hash; print(code_hash())"],
                           capture_output=True, text=True, check=True).stdout.strip()
    assert there == here and code_hash(("report",)) != here
    pkg = tmp_path / "kktheory"
    (pkg / "report").mkdir(parents=True)
    (pkg / "report" / "sequential.py").write_text("x = 1\n")
    (pkg / "report" / "decide.py").write_text("y = 2\n")
    monkeypatch.setattr(report_sequential, "__file__", str(pkg / "report" / "sequential.py"))
    first = code_hash(("report",))
    (pkg / "report" / "decide.py").write_text("y = 3\n")
    assert code_hash(("report",)) != first
    (pkg / "report" / "decide.py").write_text("y = 2\n")
    assert code_hash(("report",)) == first


def test_an_entry_whose_shared_sweep_grew_judges_it_as_look_2(tmp_path, monkeypatch):
    """No look of its own, but seeds another entry's looks added: look 1 is its fixed
    judgement on the sweep's own seeds, this judgement look 2."""
    entry = catalogue()["theory_rates_calandriello"]
    own = {f"r{m}-{s}" for m in (10, 20) for s in range(5)}
    monkeypatch.setattr(reproduce_sequential, "_ids", lambda cfg, results_dir, select: own if not select else
                        {f"r{m}-{s}" for m in (10, 20) for s in range(10)})
    seen: list = []
    monkeypatch.setattr(reproduce_sequential, "reproduce", _fake_reproduce(_rows(10), seen))
    _, after = reproduce_sequential.judge(entry, tmp_path, tmp_path, [], [("theory_rates", ("seed=range(5,10)",))],
                                          False)
    assert [(x.look, x.runs, x.level) for x in after] == [(1, 5, LEVEL), (2, 10, look_level(2))]
    assert seen[-1][0] == look_level(2)


def test_a_change_of_the_rules_is_reported():
    looks = [Look(1, 10, LEVEL, 2, "inconclusive", "t", [], "h1", "old"),
             Look(2, 20, look_level(2), 1, "inconclusive", "t", ["seed=range(10,20)"], "h2", "old")]
    text = looks_text(looks, "new")
    assert "rules changed after look 2: a rule re-declared on fresh seeds judges only the runs made after it" in text
    assert "rules changed" not in looks_text(looks, "old")
    older = [replace(looks[0], rules_hash=""), *looks]  # a look recorded before the hashes were
    assert "look(s) 1 recorded no hash of the rules" in looks_text(older, "old")
    assert "recorded no hash" not in looks_text([replace(x, rules_hash="") for x in looks], "old")  # none did
    assert "look 2 (added seed=range(10,20)): 20 runs per setting at level 99.17%" in text
    assert "look 1: 10 runs per setting at level 95%" in text


def test_rules_hash_is_a_stable_projection_of_the_declared_rules():
    """The same in another process (no address of a function enters it); another margin,
    another hash."""
    here = {name: rules_hash(reproduce_sequential.declared_rules(e)) for name, e in catalogue().items()}
    code = ("import json; from kktheory.report import catalogue; from kktheory.report.sequential import rules_hash; "
            "from kktheory.reproduce.sequential import declared_rules; "
            "print(json.dumps({n: rules_hash(declared_rules(e)) for n, e in catalogue().items()}))")
    there = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                      env={**os.environ, "PYTHONHASHSEED": "123"}).stdout)
    assert there == here
    moved = replace(EXCEEDS_RULE, margin=Margin(0.02, "a stated smallest effect", "test"))
    assert rules_hash([moved]) != rules_hash([EXCEEDS_RULE])


def test_rows_hash_reads_values_not_how_they_were_stored():
    rows = pd.DataFrame({"run_id": ["a", "b"], "m": [10, 20], "s": [20, "sqrt_kc"], "ok": [True, None],
                         "v": [0.5, 0.25]})
    stored = pd.DataFrame({"v": [0.25, 0.5], "ok": [np.nan, True], "s": ["sqrt_kc", "20"], "m": [20.0, 10.0],
                           "run_id": ["b", "a"], "empty": [None, None], "job_config": ["x", "y"]})
    assert rows_hash(rows) == rows_hash(stored)
    assert rows_hash(rows.assign(v=[0.5, 0.26])) != rows_hash(rows)
    assert rows_hash(rows.iloc[:1]) != rows_hash(rows)


def test_looks_round_trip_and_old_records_without_hashes_load(tmp_path):
    looks = [Look(1, 10, LEVEL, 2, "inconclusive", "t", [], "h1", "r1"),
             Look(2, 20, look_level(2), 0, "reproduced", "t", ["seed=range(10,20)"], "h2", "r1")]
    write_looks(tmp_path, "e", looks)
    assert read_looks(tmp_path, "e") == looks
    old = [{"look": 1, "runs": 5, "level": 0.95, "undecided": 4, "status": "not reproduced", "when": "", "part": []}]
    (tmp_path / "looks" / "old.json").write_text(json.dumps(old))
    assert read_looks(tmp_path, "old") == [Look(1, 5, 0.95, 4, "not reproduced", "", [], "", "")]


@pytest.mark.parametrize("name", sorted(p.stem for p in (committed.COMMITTED_ROWS / "looks").glob("*.json")))
def test_committed_looks_start_with_the_fixed_judgement(name):
    """Look 1 is the published fixed judgement at 95 %, no seeds added; every look carries
    its number's level."""
    looks = read_looks(committed.COMMITTED_ROWS, name)
    assert looks[0].level == LEVEL and looks[0].part == []
    assert [x.look for x in looks] == list(range(1, len(looks) + 1))
    assert all(x.level == pytest.approx(look_level(x.look)) for x in looks)


def test_a_look_records_the_compute_of_the_seeds_it_added_and_each_checks_interval(tmp_path, monkeypatch):
    """The looks record says what a decision cost and what it changed: the compute stored in
    the rows of the seeds added before the look (and nothing of the rows it already had), and
    every counted check's mark and interval at the look's level."""
    entry = catalogue()["yin_fig1"]
    rules = rules_hash(reproduce_sequential.declared_rules(entry))
    looks = [Look(1, 10, LEVEL, 1, "inconclusive", "t", [], rows_hash(_rows(10)), rules)]
    rows = _rows(20).assign(time_embed=lambda d: 1.0 + d["seed"], time_cluster=0.5)
    added = ("yin_fig1", ("seed=range(10,20)",))
    monkeypatch.setattr(reproduce_sequential, "_jobs", lambda cfg, results_dir, select:
                        {(f"r{m}-{s}",) for m in (10, 20) for s in range(10, 20)} if tuple(select) == added[1] else set())
    monkeypatch.setattr(reproduce_sequential, "reproduce", _fake_reproduce(rows, []))
    verdict, after = reproduce_sequential.judge(entry, tmp_path, tmp_path, looks, [added], False, added=added)
    new = rows[rows["seed"] >= 10]
    assert after[-1].compute_s == pytest.approx(float((new["time_embed"] + new["time_cluster"]).sum()))
    check = verdict.checks[0]
    assert after[-1].checks == {"a": "? " + check.decision.estimate.text(level=look_level(2))}
    assert "(added seed=range(10,20); 5 min of compute)" in looks_text(after)
    assert read_looks(tmp_path / "rows", entry.name) == after


def test_a_resumed_decision_runs_only_the_seeds_it_added(tmp_path, monkeypatch):
    """A resumed ``--decide`` runs the part of the sweep its look added, not the entry's
    further sweeps (wang_fig4_5's objective sweep) nor the other parts: those are read."""
    from kktheory.reproduce import entry as reproduce_entry
    from kktheory.reproduce.sweep import SweepResult

    ran: list[tuple[str, tuple[str, ...]]] = []

    def fake_run(name, results_dir, over, execute, log, **kw):
        if execute:
            ran.append((name, tuple(over)))
        return SweepResult(rows=pd.DataFrame())

    monkeypatch.setattr(reproduce_entry, "plan_sweep", lambda *a, **k: types.SimpleNamespace(jobs=[]))
    monkeypatch.setattr(reproduce_entry, "run_sweep", fake_run)
    monkeypatch.setattr(reproduce_entry, "import_committed", lambda *a, **k: None)
    monkeypatch.setattr(reproduce_entry, "export_rows", lambda *a, **k: None)
    entry = catalogue()["wang_fig4_5"]
    old, added = ("wang_fig4_5", ("seed=range(20,40)",)), ("wang_fig4_5_objective", ("seed=range(40,60)",))
    reproduce_entry.reproduce(entry, "paper", tmp_path, tmp_path, (), True, lambda _: None,
                              parts=[old, added], run_only=added)
    assert ran == [added]
    ran.clear()  # a first decision (no run_only) runs what every sweep lacks
    reproduce_entry.reproduce(entry, "paper", tmp_path, tmp_path, (), True, lambda _: None, parts=[old])
    assert ran == [("wang_fig4_5", ()), ("wang_fig4_5_objective", ()), old]


def test_a_look_stopped_part_way_runs_the_rest_of_its_seeds_before_it_is_judged(tmp_path, monkeypatch):
    """A session that ends during a look leaves its seeds half-run; the look's part was named
    before they ran, so the resumed decision runs the rest of them and judges the look on
    the seeds it planned (not on those done when it stopped), then forgets the note."""
    entry = catalogue()["theory_rates_calandriello"]
    part = ("theory_rates_overlap", ("theory_rates/part=rate_nystrom_overlap", "seed=range(3,8)"))
    monkeypatch.setattr(committed, "COMMITTED_ROWS", tmp_path / "rows")
    write_looks(tmp_path / "rows", entry.name, [Look(1, 5, LEVEL, 1, "inconclusive", "t", [], "h", "r")])
    write_pending(tmp_path / "rows", entry.name, part)
    assert read_pending(tmp_path / "rows", entry.name) == part
    assert [p.name for p in (tmp_path / "rows" / "looks").glob("*.json")] == [f"{entry.name}.json"]
    calls = []

    def fake_judge(entry, results_dir, out_dir, looks, parts, execute, log, added=None, start=False, run_only=None):
        calls.append((execute, added, run_only, list(parts)))
        return Verdict("reproduced", "", ()), [*looks, Look(len(looks) + 1, 10, look_level(2), 0, "reproduced", "t",
                                                            list(added[1]) if added else [], "h2", "r")]
    monkeypatch.setattr(reproduce_sequential, "judge", fake_judge)
    monkeypatch.setattr(reproduce_sequential, "_selected", lambda *a: (pd.DataFrame(), 0))
    reproduce_sequential.decide(entry, tmp_path, tmp_path, 10.0, log=lambda _: None)
    execute, added, run_only, parts = calls[0]
    assert execute and added == part and run_only == part and part in parts
    assert read_pending(tmp_path / "rows", entry.name) is None and len(calls) == 1


def test_seeds_added_to_a_further_sweep_are_numbered_on_and_recorded_with_it(tmp_path, monkeypatch):
    """``--decide --sweep wang_fig4_5_objective``: the seeds go to the further sweep where the
    re-declared objective checks read their fresh seeds, numbered on from its last seed (39),
    not from the count of its seeds (20); the look records the sweep, and only the entries
    that run that sweep read the part."""
    entry = catalogue()["wang_fig4_5"]
    obj = "wang_fig4_5_objective"
    rows = pd.DataFrame({"run_id": [f"o{s}" for s in range(20, 40)], "seed": range(20, 40),
                         "time_embed": 1.0})
    planned: list = []
    monkeypatch.setattr(reproduce_sequential, "read_looks",
                        lambda folder, name: [Look(1, 40, LEVEL, 1, "inconclusive", "t")] if name == entry.name else [])
    monkeypatch.setattr(reproduce_sequential, "_selected", lambda e, r, cfg, select, parts: (rows, 20))
    monkeypatch.setattr(reproduce_sequential, "_runs", lambda rows: 40)  # seeds 0-19 of the own sweep beside them
    monkeypatch.setattr(reproduce_sequential, "plan_sweep",
                        lambda cfg, r, over: planned.append((cfg, tuple(over)))
                        or types.SimpleNamespace(jobs=[types.SimpleNamespace(ids=[f"j{i}"]) for i in range(40)]))
    judged: list = []

    def fake_judge(e, r, o, looks, parts, execute, log, added, start, run_only=None):
        judged.append((added, run_only, list(parts)))
        rule = replace(EXCEEDS_RULE, sweep=obj)  # a re-declared check that reads the further sweep
        check = Check.of("a", rule.decide(Estimate.difference([0.1, 0.3, -0.2], [0.0, 0.1, 0.2]), LEVEL), rule=rule)
        if added:  # the look with the seeds added decides it
            return Verdict("reproduced", "", ()), [*looks, Look(len(looks) + 1, 80, look_level(len(looks) + 1), 0, "")]
        return Verdict("inconclusive", "", (check,)), list(looks)

    monkeypatch.setattr(reproduce_sequential, "judge", fake_judge)
    reproduce_sequential.decide(entry, tmp_path, tmp_path, 10.0, (), lambda _: None, sweep=obj)
    # 80 runs per setting: the objective's setting (seeds 20-39) filled to 80, numbered on after seed 39
    assert planned[0] == (obj, ("seed=range(40,100)",))
    assert judged[1][:2] == ((obj, ("seed=range(40,100)",)), (obj, ("seed=range(40,100)",)))
    look = next_look([], 80, "h", "r", ("seed=range(40,80)",), obj)
    assert "(added wang_fig4_5_objective: seed=range(40,80))" in looks_text([look])
    monkeypatch.undo()
    monkeypatch.setattr(reproduce_sequential, "read_looks", lambda folder, name: [
        Look(2, 80, look_level(2), 1, "inconclusive", part=["seed=range(40,80)"], sweep=obj)] if name == "wang_fig4_5" else [])
    assert reproduce_sequential._sweep_parts(entry) == [(obj, ("seed=range(40,80)",))]


def test_a_decision_prices_a_job_at_the_jobs_its_rows_come_from(tmp_path, monkeypatch):
    """The predicted compute of a look is the selected rows' compute per job times the jobs
    to add, where the rows' jobs include the seeds earlier looks added: theory_rates' bound
    checks after three looks hold 40 seeds, 5 of the sweep's own and 35 added — dividing by
    the 5 own jobs predicted 8× the compute (97 min where the rows say 12)."""
    job = lambda s: types.SimpleNamespace(ids=[f"r{s}a", f"r{s}b"], overrides=[f"seed={s}"])  # noqa: E731
    plans = {(): [job(s) for s in range(5)], ("seed=range(5,40)",): [job(s) for s in range(5, 40)]}
    rows = pd.DataFrame({"run_id": [f"r{s}{x}" for s in range(40) for x in "ab"],
                         "seed": [s for s in range(40) for _ in "ab"], "time_embed": 1.0})
    monkeypatch.setattr(reproduce_sequential, "read_committed", lambda *a: rows)
    monkeypatch.setattr(reproduce_sequential, "plan_sweep",
                        lambda cfg, r, over: types.SimpleNamespace(jobs=plans[tuple(over)]))
    got, jobs = reproduce_sequential._selected(catalogue()["theory_rates_yin"], tmp_path, "theory_rates", (),
                                               [("theory_rates", ("seed=range(5,40)",))])
    assert len(got) == 80 and jobs == 40
    assert reproduce_sequential.compute_time(got) / jobs == 2.0  # two rows of 1 s per job


def test_without_a_selection_the_seeds_go_to_the_jobs_the_undecided_checks_read(tmp_path, monkeypatch):
    """``--decide`` with no overrides and no ``--sweep`` adds each look's seeds to the jobs
    its undecided checks read (Rule.sweep, Rule.part: yin_table2's per-data-set checks),
    not to every data set; where they read different sweeps it stops and says so, and
    ``--sweep`` — the entry's own as well as a further one — picks the checks of one
    (yin_fig1's stable check and its k = 5 checks: the own sweep could not be named)."""
    entry = catalogue()["yin_table2"]
    dna, seg = (replace(EXCEEDS_RULE, name=f"r {d}", part=(f"yin_table2/data={d}",)) for d in ("dna", "segment"))
    rows = pd.DataFrame({"run_id": [f"r{s}" for s in range(20)], "seed": range(20), "time_embed": 1.0})
    planned: list = []
    logged: list[str] = []
    monkeypatch.setattr(reproduce_sequential, "read_looks",
                        lambda folder, name: [Look(1, 20, LEVEL, 2, "inconclusive", "t")] if name == entry.name else [])
    monkeypatch.setattr(reproduce_sequential, "_selected",
                        lambda e, r, cfg, select, parts: planned.append(("selected", cfg, tuple(select))) or (rows, 20))
    monkeypatch.setattr(reproduce_sequential, "plan_sweep", lambda cfg, r, over: planned.append((cfg, tuple(over)))
                        or types.SimpleNamespace(jobs=[types.SimpleNamespace(ids=[f"n{i}"]) for i in range(20)]))
    rules = [dna, seg]

    def fake_judge(e, r, o, looks, parts, execute, log, added, start, run_only=None):
        est = Estimate.difference([0.1, 0.3, -0.2], [0.0, 0.1, 0.2])
        checks = tuple(Check.of(x.name, x.decide(est, LEVEL), rule=x) for x in rules)
        if added:
            return Verdict("reproduced", "", ()), [*looks, Look(len(looks) + 1, 40, look_level(len(looks) + 1), 0, "")]
        return Verdict("inconclusive", "", checks), list(looks)

    monkeypatch.setattr(reproduce_sequential, "judge", fake_judge)
    reproduce_sequential.decide(entry, tmp_path, tmp_path, 10.0, (), logged.append)
    assert planned[0] == ("selected", "yin_table2", ("yin_table2/data=dna,segment",))
    assert planned[1] == ("yin_table2", ("yin_table2/data=dna,segment", "seed=range(20,40)"))
    planned.clear()
    rules = [dna, replace(seg, sweep="yin_table2_other")]
    reproduce_sequential.decide(entry, tmp_path, tmp_path, 10.0, (), logged.append)
    assert not planned and "read different sweeps (yin_table2, yin_table2_other)" in logged[-1]
    for sweep, part in (("yin_table2", "yin_table2/data=dna"), ("yin_table2_other", "yin_table2/data=segment")):
        planned.clear()  # --sweep names which: the part of it its own undecided checks read
        reproduce_sequential.decide(entry, tmp_path, tmp_path, 10.0, (), logged.append, sweep=sweep)
        assert planned[:2] == [("selected", sweep, (part,)), (sweep, (part, "seed=range(20,40)"))]


def test_a_selection_counts_the_seeds_earlier_looks_added_whatever_their_overrides(tmp_path, monkeypatch):
    """Seeds an earlier look added with other overrides (``part=a,b,c``) are the selection's
    (``part=a,b``) where their jobs are picked by it: matched by job, not by override text —
    else a later look re-plans seeds that exist and spends a look on no new rows."""
    job = lambda p, s: types.SimpleNamespace(ids=[f"{p}{s}"], overrides=[f"part={p}", f"seed={s}"])  # noqa: E731
    plans = {("part=a,b",): [job(p, s) for p in "ab" for s in range(5)],
             ("part=a,b,c", "seed=range(5,40)"): [job(p, s) for p in "abc" for s in range(5, 40)]}
    rows = pd.DataFrame({"run_id": [f"{p}{s}" for p in "abc" for s in range(40)],
                         "seed": [s for _ in "abc" for s in range(40)], "time_embed": 1.0})
    monkeypatch.setattr(reproduce_sequential, "read_committed", lambda *a: rows)
    monkeypatch.setattr(reproduce_sequential, "plan_sweep",
                        lambda cfg, r, over: types.SimpleNamespace(jobs=plans[tuple(over)]))
    got, jobs = reproduce_sequential._selected(catalogue()["theory_rates_yin"], tmp_path, "theory_rates",
                                               ("part=a,b",), [("theory_rates", ("part=a,b,c", "seed=range(5,40)"))])
    assert jobs == 80 and set(got["run_id"].str[0]) == {"a", "b"} and got["seed"].max() == 39


def test_a_look_fills_the_setting_with_fewest_seeds_to_the_schedule_size():
    """A setting behind the others (its checks decided at an earlier look, undecided again
    at a stricter level) is brought to the next size of the schedule with the others: the
    seeds after its last, the others' seeds in that range already run."""
    rows = pd.DataFrame({"dataset.name": ["A"] * 40 + ["B"] * 80, "seed": [*range(40), *range(80)]})
    assert reproduce_sequential._fewest(rows) == (40, 39)
    assert reproduce_sequential._fewest(rows.iloc[:0]) == (0, -1)
    fresh = pd.DataFrame({"dataset.name": ["A"] * 20, "seed": range(20, 40)})  # a re-declared rule's seeds 20-39
    assert reproduce_sequential._fewest(fresh) == (20, 39)


def test_a_part_chosen_by_hand_gets_seeds_only_while_a_check_that_reads_it_waits(tmp_path, monkeypatch):
    """``--decide yin_table2/data=dna`` stops once no undecided check reads dna: theory_rates'
    Lemma 2 look, with Lemma 2 decided, went on adding Lemma 2 seeds (320 jobs) because the
    overlap checks, which read another sweep and had no rows, still waited."""
    entry = catalogue()["yin_table2"]
    seg = replace(EXCEEDS_RULE, name="r segment", part=("yin_table2/data=segment",))
    rows = pd.DataFrame({"run_id": [f"r{s}" for s in range(20)], "seed": range(20), "time_embed": 1.0})
    planned: list = []
    logged: list[str] = []
    monkeypatch.setattr(reproduce_sequential, "read_looks",
                        lambda folder, name: [Look(1, 20, LEVEL, 1, "inconclusive", "t")] if name == entry.name else [])
    monkeypatch.setattr(reproduce_sequential, "_selected", lambda e, r, cfg, select, parts: (rows, 20))
    monkeypatch.setattr(reproduce_sequential, "plan_sweep", lambda cfg, r, over: planned.append(tuple(over))
                        or types.SimpleNamespace(jobs=[types.SimpleNamespace(ids=[f"n{i}"]) for i in range(20)]))
    rules = [seg, replace(seg, name="other sweep", sweep="yin_table2_other", part=())]

    def fake_judge(e, r, o, looks, parts, execute, log, added, start, run_only=None):
        est = Estimate.difference([0.1, 0.3, -0.2], [0.0, 0.1, 0.2])
        return Verdict("inconclusive", "", tuple(Check.of(x.name, x.decide(est, LEVEL), rule=x) for x in rules)), \
            list(looks)

    monkeypatch.setattr(reproduce_sequential, "judge", fake_judge)
    reproduce_sequential.decide(entry, tmp_path, tmp_path, 0.001, ("yin_table2/data=dna",), logged.append)
    assert not planned and logged[-1] == "yin_table2: no undecided check reads yin_table2/data=dna: stopped"
    reproduce_sequential.decide(entry, tmp_path, tmp_path, 0.001, ("yin_table2/data=segment,dna",), logged.append)
    assert planned == [("yin_table2/data=segment,dna", "seed=range(20,40)")]  # segment's check reads it
    assert "predicted" in logged[-1]  # then the budget of 0.06 s stops it


def test_a_sweep_not_run_yet_gets_its_seeds_from_the_first_its_checks_judge(tmp_path, monkeypatch):
    """theory_rates' overlap checks (fresh from seed 3, experiments/theory_rates_overlap.yaml)
    have no rows: an automatic decision starts their sweep at seed 3, not at 0 (seeds 0-2
    would be run and never judged)."""
    entry = catalogue()["theory_rates_calandriello"]
    rule = replace(EXCEEDS_RULE, sweep="theory_rates_overlap", part=("theory_rates/part=rate_nystrom_overlap",),
                   fresh_from=3)
    planned: list = []
    monkeypatch.setattr(reproduce_sequential, "read_looks",
                        lambda folder, name: [Look(1, 5, LEVEL, 1, "inconclusive", "t")] if name == entry.name else [])
    monkeypatch.setattr(reproduce_sequential, "_selected", lambda e, r, cfg, select, parts: (pd.DataFrame(), 0))
    monkeypatch.setattr(reproduce_sequential, "plan_sweep", lambda cfg, r, over: planned.append((cfg, tuple(over)))
                        or types.SimpleNamespace(jobs=[]))
    check = Check("overlap", None, "no runs after the declaration", rule=rule, runs_needed=16)
    monkeypatch.setattr(reproduce_sequential, "judge",
                        lambda *a, **k: (Verdict("inconclusive", "", (check,)), [Look(1, 5, LEVEL, 1, "inconclusive")]))
    reproduce_sequential.decide(entry, tmp_path, tmp_path, 0.001, (), lambda _: None)
    assert planned == [("theory_rates_overlap", ("theory_rates/part=rate_nystrom_overlap", "seed=range(3,8)"))]


def _planned(monkeypatch, tmp_path, entry, first_runs: int, rows: pd.DataFrame, check: Check, sweep: str = "") -> list:
    """The parts a decision of ``entry`` plans when look 1 had ``first_runs`` runs, the
    selection holds ``rows`` and ``check`` waits (nothing is run)."""
    planned: list = []
    first = [Look(1, first_runs, LEVEL, 1, "inconclusive", "t")]
    monkeypatch.setattr(reproduce_sequential, "read_looks", lambda folder, name: first if name == entry.name else [])
    monkeypatch.setattr(reproduce_sequential, "_selected", lambda e, r, cfg, select, parts: (rows, len(rows)))
    monkeypatch.setattr(reproduce_sequential, "plan_sweep", lambda cfg, r, over: planned.append((cfg, tuple(over)))
                        or types.SimpleNamespace(jobs=[]))
    monkeypatch.setattr(reproduce_sequential, "judge", lambda *a, **k: (Verdict("inconclusive", "", (check,)), first))
    reproduce_sequential.decide(entry, tmp_path, tmp_path, 0.001, (), lambda _: None, sweep=sweep)
    return planned


def test_a_check_without_runs_gets_its_fresh_seeds_whatever_other_settings_hold(tmp_path, monkeypatch):
    """calandriello_fig2's held-out checks (fresh from seed 10) read a further sweep whose Fig. 1
    point already holds seeds 10-44 (calandriello_fig1's jobs): the look starts the schedule
    again at R₁ = 10 runs from seed 10, not at 40 runs numbered on after seed 44 (it planned
    seeds 45-49, none of which the held-out points' checks lacked)."""
    rule = replace(EXCEEDS_RULE, sweep="calandriello_fig2_heldout", fresh_from=10)
    rows = pd.DataFrame({"run_id": [f"f{s}" for s in range(10, 45)], "seed": range(10, 45), "time_embed": 1.0})
    check = Check("held-out", None, "no rows yet", rule=rule, runs_needed=10)
    assert _planned(monkeypatch, tmp_path, catalogue()["calandriello_fig2"], 10, rows, check,
                    "calandriello_fig2_heldout") == [("calandriello_fig2_heldout", ("seed=range(10,20)",))]


def test_a_re_declared_check_doubles_the_seeds_it_judges_not_those_seen_before(tmp_path, monkeypatch):
    """theory_rates' overlap part holds seeds 3–18, seen before a rule re-declared from seed 19,
    and 5 fresh seeds (19–23): the schedule (R₁ = 5) takes the next look to 10 fresh seeds,
    adding seeds 24–28 — not to 40 counted over every seed of the part (seeds 24–42)."""
    rule = replace(EXCEEDS_RULE, sweep="theory_rates_overlap", part=("theory_rates/part=rate_nystrom_overlap",),
                   fresh_from=19)
    rows = pd.DataFrame({"run_id": [f"o{s}" for s in range(3, 24)], "seed": range(3, 24), "time_embed": 1.0})
    check = Check.of("tail", rule.decide(Estimate.difference([0.1, 0.3, -0.2], [0.0, 0.1, 0.2]), LEVEL), rule=rule)
    assert _planned(monkeypatch, tmp_path, catalogue()["theory_rates_calandriello"], 5, rows, replace(check, runs=5)) \
        == [("theory_rates_overlap", ("theory_rates/part=rate_nystrom_overlap", "seed=range(24,29)"))]
    judged = reproduce_sequential._judged_seeds(rows, [check])
    assert list(judged["seed"]) == list(range(19, 24))
    assert reproduce_sequential._judged_seeds(rows, [replace(check, rule=EXCEEDS_RULE)]) is rows  # no re-declared rule


def test_a_window_re_declared_gets_its_seeds_from_its_first_fresh_seed(tmp_path, monkeypatch):
    """wang_fig4_5's NMI checks read seeds 0–19 and from 60 on (Rule.fresh_from, kept_below):
    with 20 runs behind them, a look numbers its seeds on from 60, not from the selection's
    last seed 19 (seeds 20–59 of the main sweep would be run and never read)."""
    rule = replace(EXCEEDS_RULE, fresh_from=60, kept_below=20)
    rows = pd.DataFrame({"run_id": [f"r{s}" for s in range(20)], "seed": range(20), "time_embed": 1.0})
    check = Check.of("nmi", rule.decide(Estimate.difference([0.1, 0.3, -0.2], [0.0, 0.1, 0.2]), LEVEL), rule=rule)
    assert _planned(monkeypatch, tmp_path, catalogue()["wang_fig4_5"], 40, rows, replace(check, runs=20)) == \
        [("wang_fig4_5", ("seed=range(60,80)",))]
    kept = rule.fresh(pd.DataFrame({"seed": range(100)}))
    assert list(kept["seed"]) == [*range(20), *range(60, 100)] and rule.fresh_runs == "seeds < 20 and ≥ 60"


def test_the_committed_looks_give_wang_fig4_5_its_checks_first_levels():
    """On the committed rows and looks: NMI Nyström beats RFM keeps look 1's 95 % (its seeds 0–19,
    judged then by the same test); the objective checks look 2's 99.17 %; look 3's NMI judgement,
    on seeds seen before, withdrawn."""
    from kktheory.reproduce import committed

    entry = catalogue()["wang_fig4_5"]
    rows = pd.read_parquet(committed.COMMITTED_ROWS / "wang_fig4_5.parquet")
    looks = read_looks(committed.COMMITTED_ROWS, entry.name)
    levels = first_levels(looks, entry.judge(rows, look_level(5)))
    assert levels["NMI: Nyström beats RFM in most cases"] == LEVEL
    assert {levels[n] for n in levels if n.startswith("objective")} == {look_level(2)}
    assert all(n.startswith("NMI") for n in looks[2].withdrawn) and len(looks[2].withdrawn) == 3


def test_a_timing_pass_made_after_the_last_look_is_a_new_look():
    """Speed claims are judged on a timing pass, not on the rows: timing them again (more rounds)
    is new data and spends a look; the same pass, or one older than a look recorded before the
    stamps were, spends nothing."""
    stamped = [Look(1, 10, LEVEL, 1, "inconclusive", "2026-11-27 18:00", [], "h", "r", timing="2026-11-27T10:00:00")]
    assert next_look(stamped, 10, "h", "r", timing="2026-11-27T10:00:00") is None
    again = next_look(stamped, 10, "h", "r", timing="2026-11-28T09:00:00")
    assert (again.look, again.level, again.timing) == (2, look_level(2), "2026-11-28T09:00:00")
    old = [replace(stamped[0], timing="")]  # recorded before the stamps: the pass's date against the look's
    assert next_look(old, 10, "h", "r", timing="2026-11-27T17:48:23") is None
    assert next_look(old, 10, "h", "r", timing="2026-11-27T18:30:00").look == 2
    assert next_look(old, 10, "h", "r") is None  # an entry without a pass


def test_speed_checks_keep_the_level_of_the_look_that_first_judged_their_pass():
    """Seeds added to the sweep leave a timing pass as it was: its checks stay at the level of
    the first look that judged it (stamped, or made after it where the looks predate the stamps),
    and a pass timed again is judged at the level of the look that first saw it."""
    from kktheory.reproduce.sequential import _timing_level

    looks = [Look(1, 5, LEVEL, 1, "inconclusive", "", [], "h1", "r"),
             Look(2, 10, look_level(2), 1, "inconclusive", "2026-11-27 20:13", [], "h2", "r"),
             Look(3, 20, look_level(3), 1, "inconclusive", "2026-11-27 21:02", [], "h3", "r", timing="2026-11-27T21:00:00"),
             Look(4, 40, look_level(4), 1, "inconclusive", "2026-11-27 23:00", [], "h4", "r", timing="2026-11-27T21:00:00")]
    assert _timing_level(looks, "2026-11-23T07:56:51", look_level(4)) == look_level(2)  # older than look 2
    assert _timing_level(looks, "2026-11-27T21:00:00", look_level(4)) == look_level(3)
    assert _timing_level(looks, "2026-11-28T00:13:00", look_level(5)) == look_level(5)  # a pass no look has seen
    assert _timing_level(looks, "", look_level(4)) == look_level(4)
    # one group timed again (its stamp the pass's newest): a new look for it, the others keep theirs
    looks.append(Look(5, 40, look_level(5), 1, "inconclusive", "2026-11-28 02:00", [], "h4", "r",
                      timing="2026-11-28T01:40:00"))
    assert _timing_level(looks, "2026-11-28T01:40:00", look_level(5)) == look_level(5)
    assert _timing_level(looks, "2026-11-27T21:00:00", look_level(5)) == look_level(3)


def test_a_check_whose_data_no_later_look_changed_keeps_the_level_of_the_first_look_that_saw_it():
    """Seeds added to other checks (or a shared sweep) leave a check's estimate as it was: it is
    judged at the level of the first look that saw that estimate, not at the new look's; a
    check whose estimate changed is judged at the new level (issue 41, the statistician's B:
    an 80-of-80 share at 0.9004 would flip to 0.8984 at look 11 on unchanged data). A look
    recorded before the estimates were is matched by its line, for a share only."""
    from kktheory.reproduce.entry import at_first_looks

    share = Rule("share", "share of seeds", AT_LEAST, Margin(0.9, "1 − δ", "test"))
    mean = Rule("mean", "mean", AT_LEAST, Margin(0.0, "stated", "test"))
    kept = Estimate.proportion(80, 80)
    grown = Estimate.mean_of([0.2, 0.1, 0.4, 0.3, 0.25, 0.15])

    def judge(rows, level):
        return judge_checks([share.check(kept, level=level), mean.check(grown, level=level)], "", level)

    first = judge(None, look_level(10))
    assert first.checks[0].passed is True  # 80 of 80 clear 0.9 at look 10's level
    prints = fingerprints(first)
    looks = [Look(9, 80, look_level(9), 0, "reproduced", "", [], "h9", "r", seen={"share": prints["share"]}),
             Look(10, 80, look_level(10), 0, "reproduced", "", [], "h10", "r", seen=prints)]
    assert first_levels(looks, first) == {"share": look_level(9), "mean": look_level(10)}
    assert judge(None, look_level(11)).checks[0].passed is None  # the flip, at the new look's level
    entry = types.SimpleNamespace(judge=judge, context=())
    v = at_first_looks(entry, None, judge(None, look_level(11)), lambda j: first_looks(looks, j), look_level(11))
    c = {x.name: x for x in v.checks}
    assert c["share"].passed is True and c["share"].decision.level == look_level(9)
    assert c["mean"].passed is None  # unchanged since look 10, undecided there: taken at this look's level
    assert c["mean"].decision.level == look_level(11)
    # the decision's code changed since look 9 (it recorded another mark for the same data): judged as new
    moved = [replace(looks[0], checks={"share": "✗ 1 [0.96, 1]"}), looks[1]]
    w = at_first_looks(entry, None, judge(None, look_level(11)), lambda j: first_looks(moved, j), look_level(11))
    assert {x.name: x for x in w.checks}["share"].passed is None
    grew = judge_checks([share.check(kept), mean.check(Estimate.mean_of([0.2, 0.1, 0.4]))], "")
    assert first_levels(looks, grew) == {"share": look_level(9)}
    assert first_levels([replace(looks[0], seen={}), looks[1]], first)["share"] == look_level(10)
    # judged on other data in between (seeds added, then withdrawn): the first look of this very estimate
    between = [looks[0], replace(looks[1], seen={"share": "other data"})]
    assert first_levels(between, first)["share"] == look_level(9)
    # looks recorded before the estimates: a share matched by its recorded line, a mean never
    lines = [replace(x, seen={}, checks=check_marks(judge(None, x.level))) for x in looks]
    assert first_levels(lines, first) == {"share": look_level(9)}
    other = [replace(x, checks={**x.checks, "share": "✓ 0.988 [0.9, 1]"}) for x in lines]  # 79 of 80 then
    assert first_levels(other, first) == {}
    # undecided at the first look that saw it, it is undecided now: taken at this look's level, its
    # runs planned from this look (from look 9 the schedule's levels would be those of looks long past)
    open_ = Estimate.mean_of([0.3, -0.2, 0.4, -0.1, 0.2, 0.0])

    def judge_open(rows, level):
        return judge_checks([mean.check(open_, level=level)], "", level)
    seen = [Look(9, 6, look_level(9), 1, "inconclusive", "", [], "h9", "r", seen=fingerprints(judge_open(None, look_level(9))))]
    now = judge_open(None, look_level(14))
    u = at_first_looks(types.SimpleNamespace(judge=judge_open, context=()), None, now, lambda j: first_looks(seen, j), look_level(14))
    assert u.checks[0].passed is None and u.checks[0].decision.level == look_level(14)
    assert u.checks[0].decision.plan_at == now.checks[0].decision.plan_at != judge_open(None, look_level(9)).checks[0].decision.plan_at


def test_an_unchanged_estimate_under_a_changed_rule_is_a_new_decision():
    """The same estimate judged by a rule whose margin moved (or selection, shape, estimator)
    is no sub-event of the first look's error: it is judged at the new look's level. Its rule
    is matched by the look's print of it (rule_prints) or, a look recorded before the prints,
    by the hash of all the declared rules; the wording of a reason or the power design moves
    neither print (decision_hash)."""
    rule = Rule("mean", "mean", AT_LEAST, Margin(0.0, "stated", "test"))
    est = Estimate.mean_of([0.2, 0.1, 0.4, 0.3, 0.25, 0.15])

    def judged(r):
        return judge_checks([r.check(est, level=look_level(3), name="mean")], "", look_level(3))

    first = judged(rule)
    looks = [Look(2, 6, look_level(2), 0, "reproduced", "", [], "h", "r", seen=fingerprints(first),
                  seen_rules=rule_prints(first))]
    assert first_levels(looks, first, "r2") == {"mean": look_level(2)}
    loose = replace(rule, margin=Margin(-0.5, "stated", "test"))
    assert first_levels(looks, judged(loose), "r2") == {}
    reworded = replace(rule, margin=Margin(0.0, "another reason", "another source"))
    assert rule_prints(judged(reworded)) == rule_prints(first)
    widened = replace(rule, selection="more seeds, none run yet")  # its rows are the estimate's fingerprint
    assert rule_prints(judged(widened)) == rule_prints(first) and decision_hash([widened]) != decision_hash([rule])
    # a look whose judgement of the check was withdrawn (it had read rows seen before its rule) lends no level,
    # even when a selection widened again brings its very rows back
    assert first_levels([replace(looks[0], withdrawn=["mean"])], first, "r2") == {}
    assert first_levels([replace(looks[0], withdrawn=["mean"]), replace(looks[0], look=5, level=look_level(5))],
                        first, "r2") == {"mean": look_level(5)}
    assert decision_hash([reworded]) == decision_hash([rule]) != decision_hash([loose])
    printed = [replace(looks[0], seen_rules={"mean": "another print"})]  # the very rules, printed otherwise
    assert first_levels(printed, first, "r") == {"mean": look_level(2)}
    old = [replace(looks[0], seen_rules={})]  # before the prints: the declared rules' hash decides
    assert first_levels(old, judged(loose), "r") == {"mean": look_level(2)}
    assert first_levels(old, judged(loose), "r2") == {}


def _record(name: str, status: str = "reproduced") -> IndexRecord:
    """An INDEX record of ``name`` judged ``status``, its observed text "as recorded"."""
    return IndexRecord(name, "title", "claim", status, "as recorded", "rule", "scale", "setup", "config", "command")


def test_a_redraw_does_not_judge_a_look_in_progress(tmp_path, monkeypatch):
    """A look whose seeds were named and not all run (its .pending note, this entry's or one
    sharing its sweep) is judged once they are: a redraw keeps INDEX's last judgement and
    records nothing; a run adds the look's part, so that it finishes it before judging."""
    entry = catalogue()["theory_rates_yin"]  # shares theory_rates_calandriello's sweep
    part = ("theory_rates_overlap", ("seed=range(3,13)",))
    monkeypatch.setattr(reproduce_sequential, "read_pending",
                        lambda folder, name: part if name == "theory_rates_calandriello" else None)
    monkeypatch.setattr(reproduce_sequential, "read_looks", lambda folder, name: [])
    monkeypatch.setattr(reproduce_sequential, "_sweep_parts", lambda e: [])
    monkeypatch.setattr(reproduce_sequential, "read_index", lambda out: {entry.name: _record(entry.name)})
    monkeypatch.setattr(reproduce_sequential, "_jobs", lambda cfg, results, over: {("r3",), ("r4",), ("r5",)})
    monkeypatch.setattr(committed, "COMMITTED_ROWS", tmp_path / "rows")
    (tmp_path / "rows").mkdir()
    pd.DataFrame({"run_id": ["r0", "r1", "r3", "r4"]}).to_parquet(tmp_path / "rows" / f"{entry.sweep_name}.parquet")
    judged: list = []
    monkeypatch.setattr(reproduce_sequential, "judge", lambda *a, **k: judged.append(a[4]) or (None, []))
    logged: list = []
    v = reproduce_sequential.redraw(entry, "paper", tmp_path, tmp_path, (), False, logged.append)
    assert (v.status, v.observed) == ("reproduced", "as recorded") and not judged
    assert "in progress" in logged[-1] and "theory_rates_calandriello --scale paper --decide" in logged[-1]
    # INDEX says so: the look, its jobs run, the rows committed in all, and that what it shows is the last look's
    index = (tmp_path / "INDEX.md").read_text()
    assert ("**In progress:** look 1 of theory_rates_calandriello (theory_rates_overlap: seed=range(3,13)) is in "
            "progress: 2 of its 3 jobs have run, their rows committed (rows/theory_rates.parquet holds 4 rows in all)"
            in index) and "last recorded look's" in index
    assert "a look in progress, its committed rows not yet judged" in next(
        ln for ln in index.splitlines() if ln.startswith(f"| [{entry.name}]"))
    monkeypatch.setattr(reproduce_sequential, "read_index", lambda out: {})  # no INDEX line to keep: nothing judged
    assert reproduce_sequential.redraw(entry, "paper", tmp_path, tmp_path, (), False, logged.append).status == "not run"
    assert not judged
    reproduce_sequential.redraw(entry, "paper", tmp_path, tmp_path, (), True, logged.append)
    assert judged == [[part]]
    monkeypatch.setattr(reproduce_sequential, "judge", lambda *a, **k: judged.append(a[7]) or (None, []))
    written: list = []
    monkeypatch.setattr(reproduce_sequential, "write_pending", lambda folder, name, p: written.append((name, p)))
    reproduce_sequential.redraw(entry, "paper", tmp_path, tmp_path, (), True, logged.append)
    assert judged[-1] == part and not written  # the look records its seeds; the other entry's note stays
    reproduce_sequential.redraw(catalogue()["theory_rates_calandriello"], "paper", tmp_path, tmp_path, (), True,
                                logged.append)
    assert judged[-1] == part and written == [("theory_rates_calandriello", None)]  # its own: judged, removed


def test_a_look_whose_jobs_failed_is_not_judged_and_stays_in_progress(tmp_path, monkeypatch):
    """Seeds of a look run, one of its two jobs leaving no row (it failed): judged on the other
    alone, the look would spend its level on a run count the failure chose. It is not judged,
    nothing is recorded, its .pending note stays and INDEX keeps the last judgement; with
    both jobs' rows it is judged and recorded."""
    entry = catalogue()["theory_rates_calandriello"]
    part = ("theory_rates_overlap", ("seed=range(3,5)",))
    monkeypatch.setattr(reproduce_sequential, "_jobs", lambda cfg, results, over: {("r3",), ("r4",)})
    monkeypatch.setattr(committed, "COMMITTED_ROWS", tmp_path / "rows")
    looks = [Look(1, 3, LEVEL, 0, "inconclusive", "t", [], "h", "r")]
    write_looks(tmp_path / "rows", entry.name, looks)
    write_pending(tmp_path / "rows", entry.name, part)
    monkeypatch.setattr(reproduce_sequential, "read_pending", read_pending)
    monkeypatch.setattr(reproduce_sequential, "_sweep_parts", lambda e: [])
    monkeypatch.setattr(reproduce_sequential, "read_index", lambda out: {
        entry.name: _record(entry.name, "inconclusive")})
    ran = {"ids": ["r0", "r3"]}

    def fake_reproduce(entry, scale, results_dir, out_dir, overrides, execute, log, parts=(), look=None, run_only=None):
        rows = pd.DataFrame({"run_id": ran["ids"], "seed": range(len(ran["ids"]))})
        look(rows)
        return Verdict("reproduced", "judged", ())
    monkeypatch.setattr(reproduce_sequential, "reproduce", fake_reproduce)
    logged: list = []
    v = reproduce_sequential.redraw(entry, "paper", tmp_path, tmp_path, (), True, logged.append)
    assert (v.status, v.observed) == ("inconclusive", "as recorded")
    assert "1 of the 2 jobs of the look's seeds" in logged[-1] and "not judged" in logged[-1]
    assert read_pending(tmp_path / "rows", entry.name) == part and read_looks(tmp_path / "rows", entry.name) == looks
    v = reproduce_sequential.decide(entry, tmp_path, tmp_path, 0.0, log=logged.append)  # a resumed decision too
    assert v.observed == "as recorded" and read_pending(tmp_path / "rows", entry.name) == part
    with pytest.raises(reproduce_sequential.LookIncomplete):
        reproduce_sequential.judge(entry, tmp_path, tmp_path, looks, [part], True, logged.append, part)
    ran["ids"] = ["r0", "r3", "r4"]  # the failed job run again: the look is judged, its note goes
    assert reproduce_sequential.redraw(entry, "paper", tmp_path, tmp_path, (), True, logged.append).observed == "judged"
    assert read_pending(tmp_path / "rows", entry.name) is None
    assert [x.look for x in read_looks(tmp_path / "rows", entry.name)] == [1, 2]


def test_the_verdict_says_what_earlier_looks_said_where_it_differs():
    """A verdict that moved (a cause declared, a rule changed) says beside its reasons what the
    recorded looks said and whether the rules changed since."""
    looks = [Look(j, 10, look_level(j), 0, "not reproduced", "", [], f"h{j}", "r1") for j in (1, 2, 3)]
    looks.append(Look(4, 10, look_level(4), 0, "inconclusive", "", [], "h4", "r2"))
    assert verdict_history(looks, "inconclusive", "r2") == (
        "earlier not reproduced at looks 1–3 (the rules changed since: see each check's line for what and when)")
    assert verdict_history(looks, "not reproduced", "r2") == "earlier inconclusive at look 4"
    assert verdict_history(looks[:3], "not reproduced", "r1") == ""
    assert verdict_history([replace(looks[0], status=UNRECORDED)], "inconclusive", "r1") == ""
    # a rule reworded (its full hash moved, what it decides by did not) is no change of the rules
    worded = [replace(x, decision_hash="d1") for x in looks[:3]]
    assert verdict_history(worded, "inconclusive", "r2", "d1") == "earlier not reproduced at looks 1–3"
    assert "rules changed" in verdict_history(worded, "inconclusive", "r2", "d2")
    assert "rules changed" in verdict_history(worded, "inconclusive", "r2", "d1", "a1")  # attribution added since


def test_a_fingerprint_reads_the_estimate_not_the_level_nor_a_bootstraps_draw_count():
    rule = Rule("mean", "mean", AT_LEAST, Margin(0.0, "stated", "test"))
    a = judge_checks([rule.check(Estimate.mean_of([0.1, 0.3, 0.2]), level=0.95)], "", 0.95)
    b = judge_checks([rule.check(Estimate.mean_of([0.1, 0.3, 0.2]), level=0.999)], "", 0.999)
    c = judge_checks([rule.check(Estimate.mean_of([0.1, 0.3, 0.25]), level=0.95)], "", 0.95)
    assert fingerprints(a) == fingerprints(b) != fingerprints(c)
    draws = np.linspace(-1, 1, 2001)
    runs = np.arange(10.0)
    few = judge_checks([rule.check(Estimate.resampled(0.2, draws[::2], 10, source=runs), level=0.95)], "", 0.95)
    many = judge_checks([rule.check(Estimate.resampled(0.2, draws, 10, source=runs), level=0.999)], "", 0.999)
    assert fingerprints(few) == fingerprints(many)
    # other runs giving the same value (a statistic of grid points) are another estimate; a look
    # recorded before the prints held them (Look.prints = 1) saw value and runs alone
    other = judge_checks([rule.check(Estimate.resampled(0.2, draws, 10, source=runs + 1), level=0.95)], "", 0.95)
    assert fingerprints(other) != fingerprints(few) and fingerprints(other, 1) == fingerprints(few, 1)
    ruled = rule_prints(few)
    old, new = (Look(1, 10, LEVEL, 0, "reproduced", seen=fingerprints(few, v), seen_rules=ruled, prints=v) for v in (1, 2))
    assert first_looks([old], other) == {"mean": old} and first_looks([new], other) == {}
    assert first_looks([new], many) == {"mean": new}


def test_a_rise_of_half_the_smallest_effect_passes_more_often_under_the_looks():
    """A pass of *exceeds* shows a rise > 0, not one that reaches δ, the smallest that counts
    (it fails below δ). A true rise of δ/2 passes the fixed design (look 1, 10 paired runs,
    sd 1, δ = 1: power 0.80 at δ) with the probability INDEX prints beside each such rule,
    0.273 (exact); under the doubling looks, continued while the check is undecided on either
    side, it ends in a pass 0.459 of the time (20,000 sequences through the real ``next_runs``,
    checked against the real Rule.decide) and in a failure 0.541: the looks decide it, nearly
    as often the one way as the other. docs/verdicts.md quotes these rates."""
    delta = 1.0
    rule = Rule("rises by δ", "paired mean over seeds", EXCEEDS, Margin(delta, "a stated smallest effect", "test"),
                Design("paired", delta, 0.0, (1.0,), FIRST, "test"))
    assert rule.power(FIRST) == pytest.approx(0.80, abs=0.01)
    fixed = rule.pass_rate(delta / 2, FIRST)
    passed, failed = _simulate(rule, delta / 2, _coded, 5)
    print(f"\nδ/2: fixed design passes {fixed:.4f}; under the looks passes {passed:.4f}, fails {failed:.4f}")
    mc = 3 * math.sqrt(passed * (1 - passed) / SEQUENCES)
    assert fixed == pytest.approx(0.273, abs=0.001)
    assert passed == pytest.approx(0.459, abs=mc) and passed > fixed + mc and passed + failed == pytest.approx(1.0)
