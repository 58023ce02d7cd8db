"""What deciding an undecided check would cost this machine, and the checks it cannot afford.

A check left undecided names the runs per arm that would decide it at 80 % power
(:attr:`~kktheory.report.decide.Decision.runs_needed`; before any row of a re-declared
rule, its design's on the doubling schedule at the level they will be judged at,
:func:`design_plan`). Times the compute of one more seed of the jobs it reads
(:func:`seed_seconds`: the median over seeds of the rows' compute, :func:`compute_time`),
that is the compute still to spend (:class:`Cost`). Above
:data:`MACHINE_HOURS` of this 2-core machine the check is *not decidable on this machine*:
INDEX prints "not decidable on this machine: needs about N runs, H hours" in place of its
'?' and the verdict's overview names it (:attr:`~kktheory.report.verdicts.Check.beyond`);
below, the hours are added to its line (:func:`priced`). Each check is priced at the jobs
it reads: Calandriello's entries name their grid points; every other check the sweep and
the part of it that its rule names (``Rule.sweep``, ``Rule.part``; the entry's whole sweep
where it names none, :func:`kktheory.reproduce.entry.check_seconds`) — not at the entry's
median seed, which is the price of neither where seeds hold different jobs — and not at all
before it has rows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache, partial

import pandas as pd

from kktheory.report.claims import Rule
from kktheory.report.decide import LEVEL, POWER, scheduled
from kktheory.report.verdicts import Verdict

MACHINE_HOURS = 5.0  # the compute this 2-core machine gives the decision of one check (issue 43)


#: the parts of a row's own compute time (time_wall is not summed: in a list of m it accumulates)
ROW_TIMES = ("time_embed", "time_cluster", "time_evaluate", "time_bounds", "time_population")
#: times a job spends once and copies into every row of its list of m
JOB_TIMES = ("time_load", "time_reference")


def compute_time(rows: pd.DataFrame) -> float:
    """Seconds the stored rows took when they were computed: each row's ROW_TIMES, and each
    job's JOB_TIMES once (the rows of one job carry the same value and seed)."""
    total = sum(float(rows[c].fillna(0.0).sum()) for c in ROW_TIMES if c in rows)
    for c in JOB_TIMES:
        if c in rows:
            once = rows.drop_duplicates(["seed", c]) if "seed" in rows else rows
            total += float(once[c].fillna(0.0).sum())
    return total


def seed_seconds(rows: pd.DataFrame, points: list[str] | None = None) -> float:
    """Compute of one more seed: the median over seeds of the :func:`compute_time` of the
    seed's rows at the m rules ``points`` (one job per point), or of all its rows (``points``
    None) — the method's cost and the reference, bound checks and population scoring its
    jobs paid, as the overview's compute time counts them; nan without times."""
    timed = [c for c in (*ROW_TIMES, *JOB_TIMES) if c in rows]
    if rows.empty or "seed" not in rows or not timed or rows[timed].isna().all().all():
        return math.nan
    d = rows if points is None else rows[rows["m_rule"].astype(str).isin(points)]
    if d.empty:
        return math.nan
    return float(d.groupby("seed")[list(d.columns)].apply(compute_time).median())


@dataclass(frozen=True)
class Cost:
    """What deciding an undecided check takes: ``runs`` per arm (its runs needed at 80 %
    power, or its design's before any row), ``have`` of them run, ``seconds`` of compute
    per further seed on this machine."""

    runs: int
    have: int
    seconds: float

    @property
    def hours(self) -> float:
        return max(self.runs - self.have, 0) * self.seconds / 3600

    @property
    def text(self) -> str:
        return f"needs about {self.runs} runs, {self.hours:.2g} hours"


@lru_cache(maxsize=None)
def design_runs(rule: Rule, level: float) -> int:
    """The runs at which ``rule``'s design reaches power 0.8 at ``level``: its declared count
    at the fixed design's 95 %, else searched upward from it (doubling, then bisection; 1000
    simulated draws each) — a later look of a sequential decision judges at a stricter level."""
    lo, hi = rule.design.runs, rule.design.runs
    if level == LEVEL:
        return hi
    while rule.power(hi, reps=1000, level=level) < POWER:
        lo, hi = hi, 2 * hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if rule.power(mid, reps=1000, level=level) >= POWER else (mid, hi)
    return hi


def design_plan(rule: Rule, level: float) -> tuple[int | None, float]:
    """(runs per arm, level) that would decide a check without rows, judged at ``level``: on the
    doubling schedule from its design's runs — look j + k (k ≥ 1) holds design.runs·2^(k−1)
    and judges at its own level — the first whose runs reach power 0.8 there
    (:func:`~kktheory.report.decide.scheduled` with :func:`design_runs`). Its first runs are
    judged at the next look's level, stricter than the 95 % its design was declared at, and a
    design needing more than its runs there is reached at a later look, stricter still."""
    return scheduled(partial(design_runs, rule), level, rule.design.runs)


PRICED = "of this machine"  # the words an undecided check's line gets with its hours (priced once)


def priced(verdict: Verdict, seconds: Mapping[str, float | tuple[float, str]] | float, level: float = LEVEL,
           without_rows: bool = True) -> Verdict:
    """The verdict with each undecided check's cost on this machine (:class:`Cost`, at
    ``seconds[name]`` per seed — with the jobs no seed has run yet, which the price then leaves
    out: a lower bound, said so — or ``seconds`` for every check): beyond :data:`MACHINE_HOURS`
    not decidable here (``Check.beyond``), else its hours added to the line; a check without
    rows is priced at its design's runs on the schedule after ``level`` (:func:`design_plan`) — unless not
    ``without_rows`` and its rule names no part (a price per seed of the whole sweep says
    nothing of the jobs a check without rows will read: a re-declared rule's own sweep; a rule
    naming the part it reads, ``Rule.part``, is priced at that part's seed). A check priced
    already keeps its price."""
    out = []
    for c in verdict.checks:
        if c.runs == 0 and not without_rows and not getattr(c.rule, "part", ()):  # its jobs are not known here
            out.append(c)
            continue
        new = c.runs == 0 and c.rule is not None and c.rule.design is not None
        runs = c.runs_needed or (design_plan(c.rule, level)[0] if new else None)
        s = seconds.get(c.name, math.nan) if isinstance(seconds, Mapping) else seconds
        s, never = s if isinstance(s, tuple) else (s, "")
        # not priced: decided, priced already, no runs to plan, or no compute recorded (s nan or 0)
        if c.passed is not None or c.beyond or PRICED in c.detail or not runs or not s > 0:
            out.append(c)
        elif (cost := Cost(runs, c.runs, s)).hours > MACHINE_HOURS:
            out.append(replace(c, beyond=cost.text))
        else:
            out.append(replace(c, detail=f"{c.detail}; ≈ {'at least ' if never else ''}{cost.hours:.2g} h {PRICED} "
                                         f"({max(runs - c.runs, 0)} more seeds × {s:.0f} s"
                                         + (f"; not priced, no seed has run them yet: {never})" if never else ")")))
    return replace(verdict, checks=tuple(out))
