"""Every declared check of the catalogue: its power and size by simulation, and that the
rules judging the rows are the declared ones (no margin or selection read from the rows).

(a) rows drawn from the rule's design effect (the paper's own numbers and spread, or the
smallest effect that counts) at the design's run count pass with probability ≥ 0.8;
(b) rows drawn with the null or reversed effect (an equivalence: an effect on its margin)
pass with probability ≤ 0.05. Then the sequential decision's false-pass rate under
repeated looks.
"""

from __future__ import annotations


import numpy as np
import pandas as pd
import pytest

from kktheory.report import catalogue
from kktheory.report.claims import (
    AT_LEAST, EQUIVALENT, EXCEEDS, PLATEAU, POWER_TARGET, SIZE_LIMIT, Design, Margin, Rule,
)
from kktheory.report.verdicts import judge_checks
from kktheory.report.decide import PASS, look_level
from kktheory.report.entry import Entry
from kktheory.reproduce.committed import COMMITTED_ROWS, read_committed

REPS = 1000


def _declared(entry: Entry) -> tuple[Rule, ...]:
    speed = tuple(c.rule for c in entry.timing.claims) if entry.timing is not None else ()
    return tuple(entry.rules) + speed


RULES = [(name, r) for name, e in catalogue().items() for r in _declared(e) if r.design is not None and not r.sanity]


def test_every_entry_declares_its_checks():
    missing = [name for name, e in catalogue().items() if not e.rules]
    assert not missing, f"entries without declared rules: {missing}"


@pytest.mark.parametrize("name, rule", RULES, ids=[f"{n}: {r.name}" for n, r in RULES])
def test_power_and_size(name, rule):
    power = rule.power(reps=REPS)
    size = rule.size(reps=REPS)
    assert power >= POWER_TARGET, f"{name} / {rule.name}: power {power:.3f} at {rule.design.runs} runs"
    assert size <= SIZE_LIMIT, f"{name} / {rule.name}: size {size:.3f} at {rule.design.runs} runs"


def undeclared(entry: Entry, rows: pd.DataFrame) -> list[str]:
    """Names of the checks of ``entry.judge(rows)`` whose rule is not one of the entry's
    declared rules (a margin or selection built from the rows)."""
    declared = _declared(entry)
    return [c.name for c in entry.judge(rows).checks
            if c.rule is None or not any(c.rule is r or c.rule == r for r in declared)]


def _jittered(rows: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """The rows with every float result column scaled by a random factor near 1 and a
    seed dropped: another sample from the same sweep."""
    out = rows.copy()
    for c in out.columns:
        if out[c].dtype.kind == "f" and c not in ("n", "m", "k", "seed", "gamma_value"):
            out[c] = out[c] * (1 + 0.05 * rng.standard_normal(len(out)))
    if "seed" in out and out["seed"].nunique() > 3:
        out = out[out["seed"] != out["seed"].max()]
    return out


COMMITTED = [(name, e) for name, e in catalogue().items()
             if (COMMITTED_ROWS / f"{e.sweep_name}.parquet").exists()]


@pytest.mark.parametrize("name, entry", COMMITTED, ids=[n for n, _ in COMMITTED])
def test_checks_apply_declared_rules_only(name, entry, tmp_path):
    rows = read_committed(entry.sweep_name, tmp_path, lambda _: None)
    assert not undeclared(entry, rows)
    assert not undeclared(entry, _jittered(rows, np.random.default_rng(0)))


def test_a_margin_read_from_the_rows_is_caught():
    """A judge that builds its margin from the rows' mean fails the declared-rules test."""
    def judge(rows, level=0.95):
        est_rows = rows["x"].to_numpy()
        from kktheory.report.decide import Estimate

        rule = Rule("x is large", "mean of x", AT_LEAST,
                    Margin(float(est_rows.mean()) * 0.5, "half the observed mean", "the rows"))
        return judge_checks([rule.check(Estimate.mean_of(est_rows), level=level)], "", level)

    fake = Entry("fake", "Fake", "x is large", "rule", draw=lambda df, out: [], judge=judge,
                 rules=(Rule("x is large", "mean of x", AT_LEAST, Margin(0.1, "a stated bound", "a paper")),))
    rows = pd.DataFrame({"x": [1.0, 1.2, 0.9, 1.1]})
    assert undeclared(fake, rows) == ["x is large"]


# -- the sequential decision ------------------------------------------------------------
def _sequential_pass(rule: Rule, value: float, rng: np.random.Generator, start: int, most_looks: int) -> bool:
    """One simulated sequence: judge at look j with its spending level, add runs (doubling,
    as next_runs caps them) while undecided; True when any look passes."""
    a = list(rng.normal(value, rule.design.sd[0], start))
    b = list(rng.normal(0.0, rule.design.sd[-1], start))
    from kktheory.report.decide import Estimate

    for j in range(1, most_looks + 1):
        d = rule.decide(Estimate.difference(a, b), look_level(j))
        if d.status == PASS:
            return True
        if d.status != "inconclusive" or d.against:
            return False
        more = len(a)  # the next look doubles the runs (the most next_runs allows)
        a += list(rng.normal(value, rule.design.sd[0], more))
        b += list(rng.normal(0.0, rule.design.sd[-1], more))
    return False


def test_repeated_looks_keep_the_false_pass_rate():
    """A null effect judged with up to 5 looks (10 → 160 runs per arm): passes ≤ 5 % of
    sequences; without the spending (every look at 95 %), the rate is visibly larger."""
    rule = Rule("rises", "Welch difference", EXCEEDS, Margin(0.01, "a stated smallest effect", "test"),
                Design("welch", 0.02, 0.0, (0.01, 0.01), 10, "test"))
    rng = np.random.default_rng(7)
    n = 1000
    rate = sum(_sequential_pass(rule, 0.0, rng, 10, 5) for _ in range(n)) / n
    assert rate <= SIZE_LIMIT
    naive = 0
    rng = np.random.default_rng(7)
    from kktheory.report.decide import Estimate

    for _ in range(n):
        a, b = list(rng.normal(0, 0.01, 10)), list(rng.normal(0, 0.01, 10))
        for _ in range(5):
            d = rule.decide(Estimate.difference(a, b))
            if d.status != "inconclusive" or d.against:
                naive += d.status == PASS
                break
            a += list(rng.normal(0, 0.01, len(a)))
            b += list(rng.normal(0, 0.01, len(b)))
    assert naive / n > rate


@pytest.mark.parametrize("shape", [EQUIVALENT, PLATEAU])
def test_equivalence_size_is_on_the_margin(shape):
    rule = Rule("same", "difference", shape, Margin(0.02, "stated", "test"),
                Design("welch", 0.0, 0.02, (0.01, 0.01), 20, "test"))
    assert rule.power(reps=REPS) >= POWER_TARGET
    assert rule.size(reps=REPS) <= SIZE_LIMIT


def test_next_runs_grows_toward_the_largest_need_and_looks_round_trip(tmp_path):
    from kktheory.report.verdicts import Check
    from kktheory.report.sequential import Look, looks_text, next_runs, read_looks, write_looks

    waiting = [Check("a", None, "x", runs_needed=14), Check("b", None, "y", runs_needed=12)]
    n = next_runs(waiting, 10, 2)
    assert 14 < n <= 20  # the stricter level of look 2 asks for more than 14; at most doubling
    assert next_runs([Check("a", None, "x", runs_needed=400)], 10, 2) == 20
    assert next_runs([Check("a", None, "x", runs_needed=11)], 40, 4) == 60  # never a look for a run or two
    assert next_runs([Check("c", None, "z")], 10, 2) is None  # points against its claim: no runs asked
    looks = [Look(1, 10, look_level(1), 2, "inconclusive", "t"),
             Look(2, 16, look_level(2), 0, "reproduced", "t", ["seed=range(10,16)"])]
    write_looks(tmp_path, "e", looks)
    assert read_looks(tmp_path, "e") == looks
    text = looks_text(looks)
    assert "look 2 (added seed=range(10,16)): 16 runs" in text and "97.5%" in text
