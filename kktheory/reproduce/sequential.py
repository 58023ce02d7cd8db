"""The sequential decision (``--decide``): seeds added to an entry's sweep while a counted
check is undecided on the claim's side and the predicted compute fits the budget, each look
judged at its alpha-spending level (:mod:`kktheory.report.sequential`)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pandas as pd

from kktheory.run.sweeps import (
    config_name,
)
from kktheory.report import Entry, catalogue
from kktheory.report.decide import look_level
from kktheory.report.sequential import Look, looks_text, next_runs, read_looks, waiting, write_looks
from kktheory.report.verdicts import Verdict
from kktheory.report.rows import ok_rows
from kktheory.reproduce import committed
from kktheory.reproduce.committed import read_committed
from kktheory.reproduce.entry import compute_time, reproduce, runs_per_setting
from kktheory.reproduce.plan import log, plan_sweep


def _look_of(entry: Entry, scale: str, overrides: Sequence[str]) -> dict[str, Any]:
    """The last recorded look of an entry judged sequentially (paper scale, no overrides):
    the parts its looks added, its level and the looks' text — so that a redraw judges the
    committed rows as the sequential decision did. Empty for the fixed design."""
    if scale != "paper" or overrides:
        return {}
    looks = read_looks(committed.COMMITTED_ROWS, entry.name)
    parts = _sweep_parts(entry)
    if not looks:
        return {"parts": parts} if parts else {}
    return {"parts": parts, "level": looks[-1].level, "looks": looks_text(looks)}


def _sweep_parts(entry: Entry) -> list[list[str]]:
    """The seeds sequential decisions added to the entry's sweep — by this entry or by
    another judging the same sweep — so that every entry of a sweep reads all its rows and
    a re-run never drops the others' rows from the committed file."""
    names = [e.name for e in catalogue().values() if e.sweep_name == entry.sweep_name]
    return [x.part for name in names for x in read_looks(committed.COMMITTED_ROWS, name) if x.part]


def _selected(entry: Entry, results_dir: Path, select: Sequence[str],
              parts: Sequence[Sequence[str]]) -> tuple[pd.DataFrame, int]:
    """The committed rows of the part of the entry's sweep that ``select`` picks — with the
    seeds earlier looks added to it (``parts`` that contain ``select``) — and the number of
    jobs of the selection at the sweep's own seeds."""
    rows = read_committed(entry.sweep_name, results_dir, lambda _: None)
    cfg = config_name(entry.sweep_name, "paper")
    plan = plan_sweep(cfg, results_dir, select)
    ids = {i for job in plan.jobs for i in job.ids}
    for part in parts:
        if set(select) <= set(part):
            ids |= {i for job in plan_sweep(cfg, results_dir, part).jobs for i in job.ids}
    return ok_rows(rows[rows["run_id"].isin(ids)]), len(plan.jobs)


def decide(entry: Entry, results_dir: Path, out_dir: Path, budget_min: float,
           select: Sequence[str] = (), log=log) -> Verdict:
    """The sequential decision of one entry at paper scale (:mod:`kktheory.report.sequential`).

    Look j judges every row of the entry at level :func:`~kktheory.report.decide.look_level`
    (j). While a counted check is undecided with its estimate on the claim's side, the next
    look's run count (:func:`~kktheory.report.sequential.next_runs`) is reached by adding the
    seeds between the two counts to the sweep — to the part of it that ``select`` (overrides
    of sweep axes, e.g. ``yin_table2/data=pendigits``) picks, the whole sweep by default —
    when the predicted compute (the selected rows' compute seconds per job, times the jobs
    to add) fits what is left of ``budget_min``. Each look is recorded, with the part added
    before it, in ``rows/looks/<entry>.json`` beside the rows; a redraw judges them all at
    the last look.
    """
    looks = read_looks(committed.COMMITTED_ROWS, entry.name)
    parts = _sweep_parts(entry)
    left = budget_min * 60.0
    added: list[str] = []
    if looks:  # resumed: the last look stands as it was judged; no look is spent on the same rows
        verdict = reproduce(entry, "paper", results_dir, out_dir, (), False, log, looks[-1].level,
                            looks_text(looks), parts)
    while True:
        if added or not looks:  # a new look: rows were added (or none was judged yet)
            j = len(looks) + 1
            t0 = time.perf_counter()
            now = Look(j, 0, look_level(j), 0, "being judged", "", added)
            verdict = reproduce(entry, "paper", results_dir, out_dir, (), True, log, look_level(j),
                                looks_text([*looks, now]), parts)
            left -= time.perf_counter() - t0
            rows, jobs_now = _selected(entry, results_dir, select, parts)
            looks.append(replace(now, runs=_runs(rows), undecided=len(waiting(verdict)), status=verdict.status,
                                 when=time.strftime("%Y-%m-%d %H:%M")))
            write_looks(out_dir / "rows", entry.name, looks)
        else:
            rows, jobs_now = _selected(entry, results_dir, select, parts)
        runs = _runs(rows)
        wait = waiting(verdict)
        j = len(looks)
        nxt = next_runs(wait, runs, j + 1)
        if nxt is None:
            log(f"{entry.name}: look {j}: no undecided check that more runs could decide")
            break
        part = [*select, f"seed=range({runs},{nxt})"]
        jobs = len(plan_sweep(config_name(entry.sweep_name, "paper"), results_dir, part).jobs)
        cost = compute_time(rows) / max(jobs_now, 1) * jobs
        if cost > left:
            log(f"{entry.name}: {len(wait)} check(s) undecided at look {j}; look {j + 1} needs {nxt} runs "
                f"({jobs} jobs), predicted {cost / 60:.0f} min > {left / 60:.0f} min left of the budget: stopped")
            break
        log(f"{entry.name}: look {j + 1} with {nxt} runs ({jobs} jobs, predicted {cost / 60:.0f} min)")
        parts.append(part)
        added = part
    return reproduce(entry, "paper", results_dir, out_dir, (), False, log, looks[-1].level, looks_text(looks), parts)


def _runs(rows: pd.DataFrame) -> int:
    """Runs per setting of an entry's rows: the most seeds of a setting (0 when none)."""
    per = runs_per_setting(rows)
    return int(per.split("–")[-1]) if per else 0
