"""Speed claims judged on a timing pass (:mod:`kktheory.timing` runs and stores it).

Each :class:`~kktheory.report.entry.SpeedClaim` "the methods ``fast`` are faster than the
methods ``slow``" is, per round, the ratio (slowest of ``fast``)/(fastest of ``slow``) — the
claim for every pair at once — and its test is ``at_most(median ratio, bound)`` with the
distribution-free interval of the median over the R paired rounds
(:meth:`~kktheory.report.decide.Estimate.median_of`; R ≥ 6 for a 95 % interval). When the
load average during the pass exceeded ``LOAD_PER_CPU`` × CPUs (1.5 on 2 CPUs: the pass's own
thread plus half a CPU of other work) the check is *inconclusive*, never failed: the timings
measured the other jobs. Each check names its pass (file, date, n, threads) and the load
during it. Times of ordinary sweep rows are drawn in figures, never judged.

A group may hold several passes (a pass: the rows of one ``created`` stamp): a claim is
judged on the newest pass of its group that timed every method it compares, since only
within one pass do the rounds pair the methods (:func:`pass_for`) — so a pass of only the
methods an undecided claim compares decides it without timing the others again.
"""

from __future__ import annotations

import math
from dataclasses import replace
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from kktheory.report.decide import LEVEL, Estimate
from kktheory.report.entry import SpeedClaim, TimingPlan
from kktheory.report.stats import fmt
from kktheory.report.verdicts import (
    CAUSE_CLAIM, CAUSE_INCONCLUSIVE, CAUSE_READING, CAUSE_SCALE, Check, Verdict, judge_checks,
)

#: a pass is judged only when its 1-minute load stayed at or below this many per CPU
LOAD_PER_CPU = 0.75
TIMING_DIR = "timing"
OK, CUTOFF, MEMORY = "ok", "cutoff", "memory"  # statuses of a method in a pass


def path_of(results_dir: Path, name: str) -> Path:
    """The stored pass of an entry."""
    return Path(results_dir) / TIMING_DIR / f"{name}.parquet"


def load(results_dir: Path, name: str) -> pd.DataFrame | None:
    """The stored pass of an entry (None when there is none)."""
    p = path_of(results_dir, name)
    return pd.read_parquet(p) if p.exists() else None


def load_limit(cpus: int) -> float:
    """The largest 1-minute load average at which a pass is judged."""
    return LOAD_PER_CPU * cpus


def judge(plan: TimingPlan, table: pd.DataFrame | None, name: str,
          level: float | Callable[[str], float] = LEVEL) -> list[Check]:
    """The plan's speed claims judged on a stored pass (one check per claim and group), at
    ``level``, or — a function of a group's creation stamp — at each group's own level (a
    group timed again is new data, the others are not).

    No pass: one inconclusive check saying how to run it. A pass whose load exceeded the
    limit: inconclusive checks (the numbers shown, not judged). A pass below the paper's
    scale: a failed check's cause is *scale*.
    """
    if table is None or table.empty:
        return [Check(
            "speed (timing pass)", None,
            f"no timing pass stored (timing/{name}.parquet in the results folder): the training times "
            f"of the sweep rows are drawn, not judged; run python -m kktheory.timing {name}",
            cause=CAUSE_INCONCLUSIVE, cause_detail="no timing pass",
        )]
    checks = []
    for group, g in table.groupby("group", sort=False):
        for claim in plan.claims:
            one = pass_for(g, (*claim.fast, *claim.slow))
            at = level(str(one["created"].iloc[0])) if callable(level) else level
            checks.append(_judge_claim(plan, claim, one, name, group if plan.group else "", at))
    return checks


def passes(group: pd.DataFrame) -> list[pd.DataFrame]:
    """The passes of one group's rows, newest first (a pass: the rows of one creation stamp)."""
    return [p for _, p in sorted(group.groupby("created", sort=False), key=lambda kv: str(kv[0]), reverse=True)]


def pass_for(group: pd.DataFrame, methods: Sequence[str]) -> pd.DataFrame:
    """The newest pass of a group that timed every one of ``methods`` (a claim's rounds pair
    its methods within one pass), else the newest pass (whose check then names the methods
    it lacks)."""
    every = passes(group)
    return next((p for p in every if set(methods) <= set(p["method"])), every[0])


def newest(table: pd.DataFrame) -> pd.DataFrame:
    """Each (group, method)'s rows from the newest pass that timed it: what a figure draws."""
    stamp = table.groupby(["group", "method"])["created"].transform("max")
    return table[table["created"] == stamp]


def _pass_text(g: pd.DataFrame, name: str) -> tuple[str, float, float]:
    """What names a pass in a check, the largest load during it and the limit."""
    loads = g[["load_before", "load_after"]].to_numpy(dtype=float)
    loads = loads[np.isfinite(loads)]
    low, peak = (float(loads.min()), float(loads.max())) if loads.size else (math.nan, math.nan)
    cpus = int(g["cpu_count"].iloc[0])
    limit = load_limit(cpus)
    text = (f"timing pass timing/{name}.parquet of {g['created'].iloc[0]} ({g['scale'].iloc[0]} scale, "
            f"n = {int(g['n'].iloc[0])}, {int(g['rounds'].iloc[0])} rounds, {int(g['threads'].iloc[0])} "
            f"thread(s)), load {low:.2f}–{peak:.2f} on {cpus} CPUs (limit {limit:g})")
    return text, peak, limit


def _judge_claim(plan: TimingPlan, claim: SpeedClaim, g: pd.DataFrame, name: str, group: str,
                 level: float = LEVEL) -> Check:
    title = claim.name + (f" [{group}]" if group else "")
    pass_text, peak, limit = _pass_text(g, name)
    status = {m: s for m, s in zip(g["method"], g["status"]) if s != OK}
    fast = [m for m in claim.fast if m in set(g["method"])]
    slow = [m for m in claim.slow if m in set(g["method"])]
    if not fast or not slow:
        absent = [plan.label(m) for m in claim.fast + claim.slow if m not in set(g["method"])]
        return Check(title, None, f"not in the pass: {', '.join(absent)}; {pass_text}",
                     cause=CAUSE_INCONCLUSIVE, cause_detail="method not timed", rule=claim.rule)
    stopped_fast = [m for m in fast if m in status]
    running_slow = [m for m in slow if m not in status]
    scale = str(g["scale"].iloc[0])
    cause = ((CAUSE_READING, claim.reading) if claim.reading else (CAUSE_CLAIM, "")) if scale == "paper" else (
        CAUSE_SCALE, f"timing pass at the {scale} scale")
    if stopped_fast:  # a claimed faster method stopped at the cut-off or refused by the memory budget
        text = ", ".join(f"{plan.label(m)} {status[m]}" for m in stopped_fast)
        return Check(title, False, f"{text}; {pass_text}", *cause)
    ok = g[g["status"] == OK]
    wide = ok.pivot_table(index="round", columns="method", values="seconds")
    medians = "; ".join(_median_text(plan, ok, m) for m in fast + slow if m not in status)
    stopped = "; ".join(f"{plan.label(m)} {status[m]}" for m in slow if m in status)
    if not running_slow:  # every slower method was stopped or refused: the fast ones finished
        return Check(title, True, f"{stopped} (the fast methods finished); {medians}; {pass_text}")
    wide = wide[fast + running_slow].dropna()
    ratio = wide[fast].max(axis=1) / wide[running_slow].min(axis=1)
    decision = claim.rule.decide(Estimate.median_of(ratio.to_numpy(), unit="rounds"), level)
    detail = (f"median over rounds of (slowest of {', '.join(plan.label(m) for m in fast)}) / (fastest of "
              f"{', '.join(plan.label(m) for m in running_slow)})" + (f"; {stopped}" if stopped else "")
              + f"; median times {medians}; {pass_text}")
    if len(ratio) < 6:
        detail += "; fewer than 6 rounds give no 95% interval of a median"
    if math.isfinite(peak) and peak > limit:
        return Check(title, None, f"{decision.estimate.text()} not judged: {detail}",
                     cause=CAUSE_INCONCLUSIVE, cause_detail=f"load {peak:.2f} above {limit:g} during the timing pass")
    check = Check.of(title, decision, detail, *cause, rule=claim.rule)
    if check.passed is None and check.runs_needed:  # the pass that would give the rounds
        check = replace(check, detail=check.detail + (
            f"; to time them: python -m kktheory.timing {name} --rounds {check.runs_needed} --methods "
            f"{','.join(fast + running_slow)} (and the group's override)"))
    return check


def _median_text(plan: TimingPlan, ok: pd.DataFrame, method: str) -> str:
    s = ok.loc[ok["method"] == method, "seconds"].to_numpy(dtype=float)
    if not len(s):
        return f"{plan.label(method)} —"
    q1, med, q3 = np.percentile(s, [25, 50, 75])
    return f"{plan.label(method)} {fmt(med)} s (IQR {fmt(q1)}–{fmt(q3)})"


def add_checks(verdict: Verdict, checks: Sequence[Check], level: float = LEVEL) -> Verdict:
    """The verdict judged again with the timing checks added: one family, one Holm correction
    over all its checks (:func:`~kktheory.report.verdicts.judge_checks` undoes the first)."""
    return judge_checks([*verdict.checks, *checks], verdict.observed, level)
