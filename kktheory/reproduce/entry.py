"""One catalogue entry reproduced: its sweep run (or read), its figure drawn, its claim
judged, and its INDEX.md record written (what ran, against the paper's scale, in how long)."""

from __future__ import annotations

import math
import os
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pandas as pd

from kktheory.run.sweeps import (
    config_name,
)
from kktheory.report import Entry, benchmark, catalogue, speed
from kktheory.report.claims import rules_table
from kktheory.report.decide import LEVEL
from kktheory.report.sequential import Look
from kktheory.report.verdicts import Check, Verdict, attribute_shortfall, judge_checks, not_run
from kktheory.report.paper_numbers import paper_table
from kktheory.report.rows import ERROR, failed_rows, ok_rows
from kktheory.report.index import IndexRecord, update_index
from kktheory.reproduce.committed import (
    committed_rows_path, export_figure_table, export_rows, figure_table, import_committed, read_committed,
)
from kktheory.report.cost import compute_time, priced, seed_seconds
from kktheory.reproduce.plan import Plan, log, plan_sweep
from kktheory.reproduce.sweep import SweepResult, run_sweep


def _values(setups: Sequence[Mapping[str, Any]], key: str) -> list[Any]:
    vals = []
    for setup in setups:
        v = setup.get(key)
        if v not in vals:
            vals.append(v)
    return vals


def _join(vals: Sequence[Any]) -> str:
    return ", ".join(str(v) for v in vals)


def describe_setup(setups: Sequence[Mapping[str, Any]]) -> str:
    """The sizes of a sweep in one line (data sets, n, n_test, k, seeds, methods, m), from
    its jobs' flattened configs."""
    if not setups:
        return "no job"
    seeds = sorted(_values(setups, "seed"))
    parts = [
        f"data {_join(_values(setups, 'dataset.name'))}",
        f"n = {_join(_values(setups, 'n'))}",
        f"n_test = {_join(_values(setups, 'n_test'))}",
        f"k = {_join(_values(setups, 'k'))}",
        f"kernel {_join(_values(setups, 'kernel.name'))}",
        f"sketches {_join(_values(setups, 'sketch.name'))}",
        f"m = {_join(_values(setups, 'm'))}",
        f"clustering {_join(_values(setups, 'clustering.name'))}",
        f"{len(seeds)} seed(s) ({seeds[0]}–{seeds[-1]})" if len(seeds) > 1 else f"seed {seeds[0]}",
        f"{len(setups)} jobs",
    ]
    return "; ".join(parts)


def command_line(name: str, scale: str, overrides: Sequence[str], further: Sequence[str] = (),
                 sweep: str = "") -> tuple[str, str]:
    """The command that reproduces an entry, and the run.py commands of its sweeps alone
    (``sweep``: the entry's experiment config when it is not named after the entry)."""
    extra = "".join(f" {o}" for o in overrides)
    return (
        f"python -m kktheory.reproduce {name} --scale {scale}{extra}",
        "; ".join([f"python run.py --config-dir experiments --config-name {config_name(sweep or name, scale)} -m{extra}",
                   *(f"python run.py --config-dir experiments --config-name {c} -m" for c in further)]),
    )


def benchmark_tables(entry: Entry, out_dir: Path) -> list[str]:
    """The entry's benchmark passes, rendered (none without a renderer or a record): read
    from the committed rows folder, where the benchmark script records them."""
    record = benchmark.load(out_dir / "rows", entry.name) if entry.benchmark is not None else None
    return [] if record is None or record.empty else [entry.benchmark(record)]


def _without_title(markdown: str) -> str:
    """A Markdown file's text without its first-level title line."""
    return "\n".join(ln for ln in markdown.splitlines() if not ln.startswith("# ")).strip()


#: the columns that tell one plotted setting from another (those a sweep's rows carry)
SETTING = ("dataset.name", "n", "k", "m", "sketch.name", "sketch.P", "sketch.s", "centroids", "kernel.beta")


def runs_per_setting(rows: pd.DataFrame) -> str:
    """Independent runs (seeds) behind each setting of an entry: "r", or "lo–hi" when the
    settings differ (e.g. a sweep still running, or a method with fewer runs)."""
    if rows.empty or "seed" not in rows:
        return ""
    keys = [c for c in SETTING if c in rows]
    counts = rows.groupby(keys, dropna=False)["seed"].nunique() if keys else pd.Series([rows["seed"].nunique()])
    lo, hi = int(counts.min()), int(counts.max())
    return str(lo) if lo == hi else f"{lo}–{hi}"


def adds_runs(rows: pd.DataFrame, path: Path) -> bool:
    """Whether ``rows`` hold a finished run that the committed file at ``path`` lacks (or there
    is no file): a run made outside ``reproduce`` (the sweep alone, ``python run.py … -m``, into
    the same store) reaches the committed rows at the next redraw, not only at a run."""
    if not path.exists():
        return True
    ok = ok_rows(rows)
    return not ok.empty and not set(ok["run_id"]) <= set(pd.read_parquet(path, columns=["run_id"])["run_id"])


def scale_label(entry: Entry, scale: str, runs: str) -> str:
    """The overview's scale column: what the data and n are against the paper's — the
    entry's label, else the first clause of what the scale changes — and the runs per
    setting against the paper's run count (e.g. "MNIST 60k for MNIST8M; 10 runs, the paper's 10")."""
    parts = [entry.label.get(scale) or entry.changes.get(scale, scale).split(";")[0].strip()]
    if runs and entry.paper_runs:
        parts.append(f"{runs} runs, the paper's {entry.paper_runs}")
    elif runs:
        parts.append(f"{runs} runs (the paper states none)")
    return "; ".join(parts)


def pending_text(name: str) -> str:
    """INDEX.md text of an entry that was never reproduced here: the claim, the rule, the
    paper's numbers (none measured) and the command."""
    entry = catalogue()[name]
    paper = paper_table(entry.paper_numbers, {})
    return "\n".join([
        f"**{entry.title}.** Claim: {entry.claim}",
        "",
        "**Verdict: not run** at paper scale here (no committed rows).",
        "",
        *(["The paper's numbers:", "", paper, ""] if paper else []),
        f"Rule: {entry.rule}",
        "",
        f"Scale it would run: {entry.changes.get('paper', 'as the paper')}",
        "",
        f"Command: `python -m kktheory.reproduce {name} --scale paper` (config "
        f"`experiments/{config_name(entry.sweep_name, 'paper')}.yaml`); a quick look: `--scale small`.",
    ])


#: a part of one of an entry's sweeps that a sequential decision added seeds to: the config's
#: name and the overrides that select the part (its seeds included)
Part = tuple[str, tuple[str, ...]]


def _added_ids(plans: Sequence[Plan], base: int) -> set[str]:
    """Run ids of the parts a sequential decision added (``plans[base:]``) that the sweep's
    own plans (``plans[:base]``) do not hold: the rows its looks paid for."""
    def ids(ps: Sequence[Plan]) -> set[str]:
        return {i for p in ps for job in p.jobs for i in job.ids}
    return ids(plans[base:]) - ids(plans[:base])


def picks(part: Sequence[str], job: Sequence[str]) -> bool:
    """Whether a job (its overrides) is one of the jobs ``part`` picks: for each override
    ``key=v1,v2,…`` of the part, the job's value of ``key`` is one of the values — keys read
    without Hydra's ``+``/``~`` prefixes, numbers as numbers (``kernel.beta=1`` picks
    ``kernel.beta=1.0``); a job without the key is not picked."""
    values = {key.lstrip("+~"): override_value(v) for key, _, v in (o.partition("=") for o in job)}
    return all(values.get(key, _ABSENT) in want for key, want in part_values(part).items())


def part_values(part: Sequence[str]) -> dict[str, set[float | str]]:
    """Each override ``key=v1,v2,…`` of a part: its key (without ``+``/``~``) and its values
    (:func:`override_value`)."""
    return {key.lstrip("+~"): {override_value(v) for v in want.split(",")}
            for key, _, want in (o.partition("=") for o in part)}


_ABSENT = object()  # the value of a key a job's overrides do not set


def override_value(text: str) -> float | str:
    """An override's value: a number where it reads as one (1, 1.0, 1e0 alike), else its text."""
    try:
        return float(text)
    except ValueError:
        return text


def check_seconds(verdict: Verdict, rows: pd.DataFrame, plans: Sequence[tuple[Part, Plan]],
                  own: str) -> dict[str, tuple[float, str]]:
    """Compute of one more seed of the jobs each check reads (:func:`seed_seconds` of their
    rows), and the planned jobs no seed has run yet ("" when every one has a row: else the
    price counts only the jobs that ran, a lower bound): the jobs of the sweep its rule names
    (``Rule.sweep``, else ``own``, the entry's sweep) that its ``Rule.part`` picks
    (:func:`picks`; every job without a part), among ``plans`` — each sweep with its seeds
    added by sequential decisions. A check without a rule is priced at its entry's own sweep.
    Where seeds hold different jobs (a further sweep's seeds, a decision's seeds added to one
    part) a check is priced at its own jobs, not at the median seed of the whole entry."""
    seconds: dict[tuple[str, tuple[str, ...]], tuple[float, str]] = {}
    out = {}
    for c in verdict.checks:
        key = (getattr(c.rule, "sweep", "") or own, tuple(getattr(c.rule, "part", ())))
        if key not in seconds:
            jobs = [job for (name, _), plan in plans if name == key[0] for job in plan.jobs
                    if picks(key[1], job.overrides)]
            ids = {i for job in jobs for i in job.ids}
            ran = set(rows["run_id"]) if "run_id" in rows else set()
            kinds: dict[str, bool] = {}  # a job of every seed (its overrides but the seed): has any seed run it?
            for job in jobs:
                kind = " ".join(o for o in job.overrides if not o.startswith("seed="))
                kinds[kind] = kinds.get(kind, False) or bool(ran & set(job.ids))
            never = sorted(k for k, r in kinds.items() if not r)
            seconds[key] = (seed_seconds(rows[rows["run_id"].isin(ids)]) if ran else math.nan,
                            "; ".join(never) if len(never) <= 3 else f"{len(never)} of its jobs")
        out[c.name] = seconds[key]
    return out


def judge_rows(entry: Entry, rows: pd.DataFrame, level: float) -> Verdict:
    """The entry's judge on ``rows`` at ``level``, with the committed rows of the sweeps it
    reads beside its own (``Entry.context``; None for a sweep without a file)."""
    if not entry.context:
        return entry.judge(rows, level)
    from kktheory.run.store import read_rows  # as committed.read_committed reads the file

    context = {name: read_rows(path) if (path := committed_rows_path(name)).exists() else None
               for name in entry.context}
    return entry.judge(rows, level, context)


def at_first_looks(entry: Entry, rows: pd.DataFrame, verdict: Verdict,
                   first_looks: Callable[[Verdict], Mapping[str, Look]], level: float) -> Verdict:
    """``verdict`` (judged at the look's ``level``) with each check whose estimate earlier
    looks saw unchanged taken from the entry's judgement at the first of those looks' level
    (:func:`~kktheory.report.sequential.first_looks`): its decision there, with the entry's own
    causes — where it is the mark that look recorded (the decision's code unchanged since; a
    mark that moved is judged at ``level``, as new); Holm's correction over the family at ``level``.
    An undecided check is taken at ``level``: undecided at the earlier level it is undecided at
    this stricter one, and the runs that would decide it are planned from this look, not from
    a look long past (the statistician, 2026-12-07: yin_fig1's k = 5 checks were planned from
    look 10 while the entry stood at look 14)."""
    firsts = {name: x for name, x in first_looks(verdict).items() if x.level != level}
    if not firsts:
        return verdict
    earlier = {at: {c.name: c for c in judge_rows(entry, rows, at).checks} for at in {x.level for x in firsts.values()}}

    def kept(c: Check) -> Check:
        x = firsts.get(c.name)
        then = earlier[x.level].get(c.name) if x else None
        recorded = x.checks.get(c.name, "")[:1] if x else ""
        if then is None or then.passed is None or (recorded and recorded != _mark(then)):
            return c  # undecided there, undecided here (the interval only widens): planned from this look
        return then
    checks = [kept(c) for c in verdict.checks]
    return judge_checks(checks, verdict.observed, level)


def judged_at(verdict: Verdict, level: float) -> dict[str, set[tuple[int, float]]]:
    """Each declared rule's (runs, level) in the checks that applied it: one pair for most
    rules, one per data set for a rule judged on each (a speed claim on a timing pass whose
    groups had their own rounds and looks)."""
    out: dict[str, set[tuple[int, float]]] = {}
    for c in verdict.checks:
        for r in c.rules if c.runs else ():
            out.setdefault(r.name, set()).add((c.runs, c.decision.level if c.decision else level))
    return out


def _no_looks(verdict: Verdict) -> dict[str, Look]:
    """The fixed design: no earlier look, every check at the one level."""
    return {}


def _mark(c: Check) -> str:
    """A check's mark as a look records it: ✓ passed, ✗ failed, ? undecided."""
    return {True: "✓", False: "✗"}.get(c.passed, "?")


def _fixed(level: float) -> Callable[[str], float]:
    """Every group of a timing pass at one ``level`` (the fixed design's)."""
    return lambda stamp: level


def reproduce(entry: Entry, scale: str, results_dir: Path, out_dir: Path,
              overrides: Sequence[str] = (), execute: bool = True, log=log,
              level: float = LEVEL, looks: str = "", parts: Sequence[Part] = (),
              look: Callable[[pd.DataFrame], tuple[float, str, Callable[[str], float],
                                    Callable[[Verdict], Mapping[str, Look]], Callable[[str], str]]] | None = None,
              run_only: Part | None = None) -> Verdict:
    """Run the missing rows of one entry, draw it, judge it, update INDEX.md.

    ``level`` is the confidence level of this look (a sequential decision's
    :func:`~kktheory.report.decide.look_level`; 0.95 for the fixed design), ``looks`` the
    record of the looks so far, printed in INDEX, and ``parts`` the seeds a sequential
    decision added to parts of the entry's sweeps (:data:`Part`: config, overrides; their
    rows join the sweep's).
    ``look`` (a sequential decision, :mod:`kktheory.reproduce.sequential`), called with the
    rows about to be judged, returns the level, the looks' text in their place and the level of
    a group of the timing pass from its creation stamp (that of the look that first judged it): the look is decided
    on the very rows it judges, and what earlier looks said where it differs from this
    judgement's verdict (said beside the verdict's reasons). ``run_only`` (with ``execute``): run only this part —
    the seeds a resumed sequential decision added — and read every other sweep and part as
    stored."""
    t0 = time.perf_counter()
    cfg_name = config_name(entry.sweep_name, scale)
    # an entry's further sweeps (paper scale) run as configured, only when no override picks a part
    cfg_names = [cfg_name, *(entry.extra_sweeps if scale == "paper" and not overrides else ())]
    sweeps = [(cfg_name, tuple(overrides)), *((c, ()) for c in cfg_names[1:]),
              *((c, tuple(o)) for c, o in parts)]
    log(f"== {entry.name} ({entry.title}) — scale {scale}, config "
        f"{', '.join(f'experiments/{c}.yaml' for c in cfg_names)}"
        + (f"; {len(parts)} part(s) added by a sequential decision" if parts else ""))
    plans = [plan_sweep(c, results_dir, o) for c, o in sweeps]
    save = None
    committed = None
    if scale == "paper":  # paper-scale rows are committed: start from them, save as jobs finish
        if execute:  # the committed rows of the jobs planned, so that they are not run again
            import_committed(entry.sweep_name, results_dir, log, {i for plan in plans for job in plan.jobs
                                                                  for i in job.ids})
        else:
            committed = read_committed(entry.sweep_name, results_dir, log)
        # overrides that only pick values of the sweep (e.g. seed=0) run a part of it: its rows
        # are added to the file; other overrides change the setup, whose rows replace it
        keys = [o.partition("=")[0].lstrip("+~") for o in overrides]
        part = bool(keys) and all(k in plans[0].axes for k in keys)

        def save(rows: pd.DataFrame) -> None:
            path = export_rows(entry.sweep_name, rows, out_dir, merge=part)
            if path is not None and entry.figure_data is not None:  # what its figure plots beyond the rows
                export_figure_table(entry.sweep_name, figure_table(entry, pd.read_parquet(path), results_dir), out_dir)

    sweep = SweepResult(rows=pd.DataFrame())
    for (name, over), plan in zip(sweeps, plans):
        before = sweep.rows
        after = None if save is None else (
            lambda rows, before=before: save(rows if before.empty else pd.concat([before, rows], ignore_index=True)))
        run = execute and (run_only is None or (name, tuple(over)) == (run_only[0], tuple(run_only[1])))
        sweep = sweep.joined(run_sweep(name, results_dir, over, run, log,
                                       after_job=after, plan=plan, committed=committed))
    if parts and not sweep.rows.empty and "run_id" in sweep.rows:  # a part may repeat a job of the sweep
        ids = sweep.rows["run_id"]  # failure rows carry no run id: each stays (not one merged failure)
        sweep = replace(sweep, rows=sweep.rows[ids.isna() | (ids == "") | ~ids.duplicated()].reset_index(drop=True))
    if save is not None and (sweep.ran or adds_runs(sweep.rows, committed_rows_path(entry.sweep_name, out_dir / "rows"))):
        save(sweep.rows)  # a redraw leaves the committed rows as they are, unless the store holds runs they lack
    rows = sweep.rows
    ok = ok_rows(rows)
    timing_level: Callable[[str], float] = _fixed(level)  # a timing group's level, from its creation stamp
    first_looks: Callable[[Verdict], Mapping[str, Look]] = _no_looks  # a check's first look
    history: Callable[[str], str] = lambda status: ""  # what earlier looks said, where it differs
    if look is not None:
        level, looks, timing_level, first_looks, history = look(ok)
    files: list[Path] = []
    if ok.empty:
        bad = failed_rows(rows)
        reason = "; ".join(dict.fromkeys(bad[ERROR])) if not bad.empty else "no row in the store"
        verdict = not_run(reason)
    else:
        if entry.figure_data is not None:
            rows.attrs["figure"] = figure_table(entry, ok, results_dir)
        drawn = rows
        if entry.timing is not None:  # an entry with a speed claim may draw its timing pass (drawing
            # only: a frame in attrs would follow the rows into the judge's merges)
            drawn = rows.copy(deep=False)
            drawn.attrs = {**rows.attrs, "timing": speed.load(results_dir, entry.name)}
        files = entry.draw(drawn, out_dir)
        verdict = attribute_shortfall(at_first_looks(entry, rows, judge_rows(entry, rows, level), first_looks, level),
                                      entry.shortfall.get(scale), entry.changes.get(scale, scale))
        # what the undecided checks of the sweep would cost this machine (one more seed of the jobs each
        # reads; a speed check is decided by its timing pass, not by seeds, and is not priced)
        seconds = check_seconds(verdict, ok, list(zip(sweeps, plans)), cfg_name) if scale == "paper" else None
        if entry.timing is not None:  # speed: judged on the entry's timing pass, at its own scale
            verdict = speed.add_checks(verdict, speed.judge(entry.timing, speed.load(results_dir, entry.name),
                                                              entry.name, timing_level), level)
            if save is not None and speed.path_of(results_dir, entry.name).exists():  # committed with the rows
                dst = speed.path_of(out_dir / "rows", entry.name)
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(speed.path_of(results_dir, entry.name), dst)
        if seconds is not None:  # priced last: the timing checks' Holm correction rewrites the set-aside lines
            verdict = priced(verdict, seconds, level, without_rows=False)
    elapsed = time.perf_counter() - t0
    log(f"{entry.name}: {verdict.status.upper()}")
    for line in verdict.text.splitlines():
        log(f"  {line}")
    log(f"  files: {', '.join(str(f) for f in files) or 'none'}; {elapsed:.1f} s")
    scale_note = scale + (f" (overrides: {' '.join(overrides)})" if overrides else "")
    if entry.changes.get(scale):
        scale_note += f": {entry.changes[scale]}"
    command, sweep_command = command_line(entry.name, scale, overrides, cfg_names[1:], entry.sweep_name)
    record = IndexRecord(
        name=entry.name, title=entry.title, claim=entry.claim, status=verdict.status,
        observed=verdict.text, rule=entry.rule, scale=scale_note,
        setup=describe_setup(sweep.setups),
        config=f"experiments/{cfg_name}.yaml",
        command=command, sweep_command=sweep_command,
        files=[f.name for f in files],
        tables="\n\n".join([*(_without_title(f.read_text()) for f in files if f.suffix == ".md"),
                             *benchmark_tables(entry, out_dir)]),
        rows=(f"{len(ok)} rows from {sweep.jobs} jobs ({sweep.reused} reused, {sweep.ran} run, "
              f"{sweep.failed} could not run); {compute_time(ok):.0f} s of compute in the rows (method, reference, bounds, population), "
              f"{elapsed:.0f} s for this invocation; load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs at the end (timings are wall-clock "
              f"and suffer from other load)"),
        when=f"generated {time.strftime('%Y-%m-%d %H:%M')}",
        why="; ".join(x for x in (verdict.summary, history(verdict.status)) if x),
        runs=runs_per_setting(ok),
        compute_s=compute_time(ok),
        looks_compute_s=compute_time(ok[ok["run_id"].isin(_added_ids(plans, len(cfg_names)))]) if parts and not ok.empty else 0.0,
        paper=paper_table(entry.paper_numbers, entry.observe(ok) if entry.observe and not ok.empty else {}),
        rules=rules_table(entry.rules, judged_at(verdict, level), level),
        looks=looks,
        setting=entry.setting(ok) if entry.setting is not None and not ok.empty else "",
        label=scale_label(entry, scale, runs_per_setting(ok)),
    )
    update_index(out_dir, record, list(catalogue()), pending_text)
    return verdict
