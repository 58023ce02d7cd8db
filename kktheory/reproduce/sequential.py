"""The sequential decision (``--decide``), and every judgement at paper scale of an entry
whose rows a sequential decision touched (:mod:`kktheory.report.sequential` is the design).

What is guaranteed: look 1 is the fixed judgement at 95 % that INDEX publishes without
``--decide``; look j ≥ 2 is judged at 1 − 0.05/(j(j + 1)) (99.17 %, 99.58 %, …). Any look's
false decision on a check then has probability at most 0.075 (two-sided), 0.0375 in each
direction — 0.025 from look 1, 0.0125 from all later looks — whatever the data, because
the run counts are fixed in advance: look j has R₁·2^(j−1) runs per setting, R₁ the runs of
look 1 (the first schedule size above the rows' runs when they already hold more). A look
whose seeds were run and some of whose jobs left no row (they failed) is not judged
(:class:`LookIncomplete`): its ``.pending`` note stays and the next run retries those jobs, so
that no look is judged on a run count the failures chose.

:func:`decide` adds those seeds — to the part of the sweep the overrides select, else to the
jobs the undecided checks read (:func:`reads`), every setting of it brought to the next size
of the schedule (:func:`_fewest`) — while a counted check is undecided, on either side of its claim (an
estimate pointing against the claim is decided by more runs too), and while the predicted
compute fits the budget; it stops when no undecided check can be decided by more runs of
the sweep (no rows, or a speed claim judged on its timing pass) or the budget is spent.

:func:`redraw` is every other judgement at paper scale without overrides. Each judgement
(:func:`judge`) compares the rows it judges with the entry's last look: the same rows
(same runs per setting, same rows hash where one was recorded) are judged at the last
look's level and spend nothing; other rows — seeds this entry's or another entry's looks
added to a shared sweep, or rows run again — are a new look, recorded at the next look's
level, so no seed enters a verdict without spending. An entry without looks whose sweep
holds seeds another entry's looks added has its fixed judgement on the sweep's own seeds as
look 1 (its status not recorded) and this judgement as look 2. Every recorded look is pinned
to the hash of its rows and of the entry's declared rules; when the rules changed since a
look, INDEX says so ("rules changed after look j: the decision counts only runs made after
the change").
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pandas as pd

from kktheory.run.sweeps import (
    config_name,
)
from kktheory.report import Entry, catalogue, speed
from kktheory.report.claims import Rule
from kktheory.report.decide import LEVEL
from kktheory.report.sequential import (
    PRINTS, UNRECORDED, Look, attribution_hash, code_hash, decision_hash, fingerprints, first_looks, looks_text, next_look, next_runs, read_looks, read_pending, rows_hash, rule_prints, rules_hash, verdict_history, waiting,
    write_looks, write_pending,
)
from kktheory.report.verdicts import Check, Verdict, not_run
from kktheory.version import git_state
from kktheory.report.rows import ok_rows
from kktheory.reproduce import committed
from kktheory.reproduce.committed import read_committed
from kktheory.report.cost import compute_time
from kktheory.reproduce.entry import SETTING, Part, part_values, pending_text, picks, reproduce, runs_per_setting
from kktheory.report.index import read_index, update_index
from kktheory.reproduce.plan import log, plan_sweep


def declared_rules(entry: Entry) -> tuple[Rule, ...]:
    """The rules an entry's verdict applies, declared before the data: its own, then its
    speed claims' (:func:`~kktheory.report.sequential.rules_hash` pins a look to them)."""
    return (*entry.rules, *_timing_rules(entry))


def _timing_rules(entry: Entry) -> tuple[Rule, ...]:
    """The rules judged on the entry's timing pass, which seeds of the sweep do not change."""
    return tuple(c.rule for c in entry.timing.claims) if entry.timing is not None else ()


def redraw(entry: Entry, scale: str, results_dir: Path, out_dir: Path, overrides: Sequence[str] = (),
           execute: bool = True, log=log) -> Verdict:
    """An entry reproduced without ``--decide``: at paper scale without overrides, judged as
    its sequential decision stands (:func:`judge`: the rows of the last look at its level,
    other rows as a new look); otherwise the fixed design at 95 %. While a look of its sweep
    is in progress (:func:`_pending`) a redraw judges nothing — INDEX keeps the last recorded
    look's judgement, a look being judged on the seeds it planned — and a run finishes the
    look's seeds before it judges, recording them as the seeds the look added."""
    if scale != "paper" or overrides:
        return reproduce(entry, scale, results_dir, out_dir, overrides, execute, log)
    looks = read_looks(committed.COMMITTED_ROWS, entry.name)
    parts = _sweep_parts(entry)
    pending = _pending(entry)
    if pending and not execute:  # a look whose seeds are not all run is judged once they are, not before
        log(f"{entry.name}: a look of its sweep is in progress ({pending[0]}: {' '.join(pending[1][1])}): not judged "
            f"until its seeds are all run (python -m kktheory.reproduce {pending[0]} --scale paper --decide); "
            "INDEX keeps the last recorded look's judgement")
        return _kept(entry, out_dir, pending, results_dir)
    if not pending:
        return judge(entry, results_dir, out_dir, looks, parts, execute, log)[0]
    parts.append(pending[1])  # a run finishes the look's seeds before it judges: the look records them
    try:
        verdict = judge(entry, results_dir, out_dir, looks, parts, execute, log, pending[1])[0]
    except LookIncomplete as e:  # jobs of the look failed: it stays in progress, its note with it
        log(str(e))
        return _kept(entry, out_dir, pending, results_dir)
    if pending[0] == entry.name:  # its look judged: the note goes (another entry's judges its own look)
        write_pending(out_dir / "rows", entry.name, None)
    return verdict


class LookIncomplete(Exception):
    """A look's seeds were run and some of their jobs left no row (they failed): the look is
    not judged — judged on fewer seeds than it named, its level would be spent on a run
    count chosen by which jobs failed — and its ``.pending`` note stays, so that the next run
    retries those jobs before judging it."""


def _kept(entry: Entry, out_dir: Path, pending: tuple[str, Part], results_dir: Path) -> Verdict:
    """The entry's judgement as INDEX holds it (the last recorded look's), while a look is in
    progress (its record says so: :func:`in_progress`); not run where INDEX has none."""
    kept = read_index(out_dir).get(entry.name)
    if kept is None:
        return not_run("a look of its sweep is in progress")
    kept.progress = in_progress(entry, pending, results_dir)
    update_index(out_dir, kept, list(catalogue()), pending_text)
    return Verdict(kept.status, kept.observed)


def in_progress(entry: Entry, pending: tuple[str, Part], results_dir: Path) -> str:
    """INDEX's line of an entry whose sweep has a look in progress: which look, how many of
    its jobs have committed rows (in the sweep's committed file beside the rows judged), and
    that every count, interval and figure shown is the last recorded look's until its seeds
    are all run and it is judged."""
    owner, (cfg, over) = pending
    jobs = _jobs(cfg, results_dir, over)
    path = committed.committed_rows_path(entry.sweep_name)
    ids = pd.read_parquet(path, columns=["run_id"])["run_id"] if path.exists() else pd.Series([], dtype=str)
    done = sum(1 for job in jobs if ids.isin(job).any())
    look = len(read_looks(committed.COMMITTED_ROWS, owner)) + 1
    return (f"look {look} of {owner} ({cfg}: {' '.join(over)}) is in progress: {done} of its {len(jobs)} jobs have "
            f"run, their rows committed (rows/{path.name} holds {len(ids)} rows in all); they are judged, counted "
            f"and drawn once every job of the look has run (`python -m kktheory.reproduce {owner} --scale paper "
            f"--decide`): until then every count, interval and figure of this entry is the last recorded look's")


def _unrun(entry: Entry, rows: pd.DataFrame, added: Part, results_dir: Path) -> str:
    """Why the look adding ``added`` cannot be judged on ``rows`` (the rows about to be
    judged), or "": the jobs of its part with no row among them."""
    cfg, over = added
    jobs = _jobs(cfg, results_dir, over)
    have = set(rows["run_id"]) if "run_id" in rows else set()
    missing = [ids for ids in jobs if not have.intersection(ids)]
    if not missing:
        return ""
    return (f"{entry.name}: {len(missing)} of the {len(jobs)} jobs of the look's seeds ({cfg}: {' '.join(over)}) "
            "left no row (failed: the store's failure rows say why); the look is not judged and stays in progress: "
            f"python -m kktheory.reproduce {entry.name} --scale paper --decide runs them again before judging it")


def _pending(entry: Entry) -> tuple[str, Part] | None:
    """The entry of the sweep whose look is in progress (its seeds named, not all judged:
    :func:`~kktheory.report.sequential.read_pending`) and that look's part — this entry's or
    another's judging the same sweep; None where no look is in progress."""
    for e in catalogue().values():
        if e.sweep_name == entry.sweep_name and (part := read_pending(committed.COMMITTED_ROWS, e.name)):
            return e.name, part
    return None


def judge(entry: Entry, results_dir: Path, out_dir: Path, looks: Sequence[Look], parts: Sequence[Part],
          execute: bool, log=log, added: Part | None = None, start: bool = False,
          run_only: Part | None = None) -> tuple[Verdict, list[Look]]:
    """Judge the entry at paper scale on all its rows (the sweep's, with the seeds of
    ``parts``) after its recorded ``looks``; returns the verdict and the looks, with the new
    one recorded in ``<out>/rows/looks/<entry>.json``.

    The look is decided on the rows judged (:func:`~kktheory.report.sequential.next_look`):
    the last look's rows are judged at its level, and spend nothing; other rows are look
    j + 1, at its level, pinned to their hash and the declared rules' hash, with ``added``
    the seeds added before it. An entry without looks is the fixed design (nothing
    recorded) unless ``start`` (a sequential decision begins: look 1 at 95 %) or its rows
    hold seeds another entry's looks added (:func:`_fixed_before`)."""
    rules, decides = rules_hash(declared_rules(entry)), decision_hash(declared_rules(entry))
    attributes = attribution_hash(entry.attribution)
    before: list[Look] = list(looks)
    now: Look | None = None

    def at_look(rows: pd.DataFrame) -> tuple[float, str]:
        nonlocal before, now
        if not looks and not rows.empty:
            before = _fixed_before(entry, results_dir, rows, parts)
        if added and (why := _unrun(entry, rows, added, results_dir)):
            raise LookIncomplete(why)
        if not rows.empty and (before or start):
            cfg, over = added or ("", ())
            now = next_look(before, _runs(rows), rows_hash(rows), rules, over,
                            "" if cfg in ("", _own_config(entry)) else cfg, _timing_stamp(entry, results_dir),
                            decides, attributes)
            if added:
                ids = _ids(cfg, results_dir, over)
                now = replace(now, compute_s=round(compute_time(rows[rows["run_id"].isin(ids)]), 1))
        shown = [*before, *([now] if now else [])]
        level = shown[-1].level if shown else LEVEL
        return (level, looks_text(shown, rules), lambda stamp: _timing_level(shown, stamp, level),
                lambda judged: first_looks(before, judged, rules), lambda status: verdict_history(before, status, rules, decides, attributes))

    verdict = reproduce(entry, "paper", results_dir, out_dir, (), execute, log, parts=parts, look=at_look,
                        run_only=run_only)
    if now is None:
        if looks and looks[-1].rows_hash and not (looks[-1].seen and looks[-1].seen_rules) \
                and looks[-1].rules_hash == rules:
            # the last look's very rows judged again by its very rules: its checks' estimates and rules
            # recorded, nothing spent
            looks = [*looks[:-1], replace(looks[-1], seen=fingerprints(verdict), seen_rules=rule_prints(verdict),
                                          decision_hash=decides, prints=PRINTS)]
            write_looks(out_dir / "rows", entry.name, looks)
        return verdict, list(looks)
    recorded = [*before, replace(now, undecided=len(waiting(verdict, _timing_rules(entry))), status=verdict.status,
                                 when=time.strftime("%Y-%m-%d %H:%M"), checks=check_marks(verdict),
                                 seen=fingerprints(verdict), seen_rules=rule_prints(verdict), prints=PRINTS,
                                 commit=git_state(), code=code_hash())]
    write_looks(out_dir / "rows", entry.name, recorded)
    return verdict, recorded


def _timing_level(looks: Sequence[Look], stamp: str, level: float) -> float:
    """The level a group of the timing pass created at ``stamp`` is judged at: that of the
    first look that judged it — the first whose recorded pass is as new as it (a look records
    its pass's newest stamp, so it saw every group created before), or, a look recorded before
    the stamps were, the first made after it — else ``level``. A speed check's data is its
    group of the pass, not the sweep's seeds: looks that added seeds, or timed another group
    again, left it as it was and spend nothing of it, so its decision at the look that first
    judged it stands (a group timed again is judged at the level of the look that first saw it)."""
    if not stamp:
        return level
    for x in looks:
        if (x.timing and stamp <= x.timing) or (not x.timing and x.when and stamp <= x.when.replace(" ", "T")):
            return x.level
    return level


def _timing_stamp(entry: Entry, results_dir: Path) -> str:
    """The newest creation stamp of the entry's timing pass in the store ("" without one)."""
    table = speed.load(results_dir, entry.name) if entry.timing is not None else None
    return "" if table is None or table.empty or "created" not in table else str(table["created"].max())


def check_marks(verdict: Verdict) -> dict[str, str]:
    """Each counted check of a judgement: its mark (✓ passed, ✗ failed, ? undecided) and its
    estimate with the interval at the level it was judged at."""
    def mark(c: Check) -> str:
        return {True: "✓", False: "✗"}.get(c.passed, "?")
    return {c.name: f"{mark(c)} " + (c.decision.estimate.text(level=c.decision.level) if c.decision else "")
            for c in verdict.checks if c.counted}


def _fixed_before(entry: Entry, results_dir: Path, rows: pd.DataFrame, parts: Sequence[Part]) -> list[Look]:
    """For an entry without looks whose ``rows`` hold seeds that another entry's looks added
    to the sweep (``parts``): its look 1, the fixed judgement at 95 % on the sweep's own
    seeds (runs and rows hash of those rows; its status was not recorded). Empty otherwise."""
    if not parts:
        return []
    own = set().union(*(_ids(c, results_dir, ()) for c in sweep_configs(entry)))
    more = set().union(*(_ids(c, results_dir, p) for c, p in parts)) - own
    base = rows[~rows["run_id"].isin(more)]
    if len(base) == len(rows):
        return []
    return [Look(1, _runs(base), LEVEL, 0, UNRECORDED, "", [], rows_hash(base), "")]


def _jobs(cfg: str, results_dir: Path, select: Sequence[str]) -> set[tuple[str, ...]]:
    """The jobs of a sweep's part (``select``: overrides; () the whole sweep), each as the run
    ids it stores."""
    return {tuple(job.ids) for job in plan_sweep(cfg, results_dir, select).jobs if job.ids}


def _ids(cfg: str, results_dir: Path, select: Sequence[str]) -> set[str]:
    """The run ids of the jobs of a sweep's part."""
    return {i for ids in _jobs(cfg, results_dir, select) for i in ids}


def _own_config(entry: Entry) -> str:
    """The config of the entry's own sweep at paper scale."""
    return config_name(entry.sweep_name, "paper")


def sweep_configs(entry: Entry) -> list[str]:
    """The configs of the entry's sweeps at paper scale: its own, then its further sweeps."""
    return [_own_config(entry), *entry.extra_sweeps]


def _sweep_parts(entry: Entry) -> list[Part]:
    """The seeds sequential decisions added to the entry's sweeps — by this entry or by
    another judging the same sweep — so that every entry of a sweep reads all its rows and
    a re-run never drops the others' rows from the committed file; a part of a further
    sweep (``Look.sweep``) only where this entry runs that sweep too."""
    names = [e.name for e in catalogue().values() if e.sweep_name == entry.sweep_name]
    looks = [x for name in names for x in read_looks(committed.COMMITTED_ROWS, name) if x.part]
    return [(x.sweep or _own_config(entry), tuple(x.part)) for x in looks if not x.sweep or x.sweep in sweep_configs(entry)]


def _selected(entry: Entry, results_dir: Path, cfg: str, select: Sequence[str],
              parts: Sequence[Part]) -> tuple[pd.DataFrame, int]:
    """The committed rows of the part of the entry's sweep ``cfg`` that ``select`` picks —
    with the seeds earlier looks added to it (the jobs of ``parts`` of ``cfg`` that
    ``select`` picks, :func:`~kktheory.reproduce.entry.picks`) — and the number of jobs those rows come from: the compute per job is their ratio (the
    jobs of the sweep's own seeds alone would price every seed a look added as free: 8× too
    much for theory_rates' bound checks after three looks, 40 seeds over 5)."""
    rows = read_committed(entry.sweep_name, results_dir, lambda _: None)
    jobs = {tuple(job.ids) for job in plan_sweep(cfg, results_dir, select).jobs if job.ids}
    for c, part in parts:  # an earlier look's jobs that the selection picks, whatever overrides it was added with
        if c == cfg:
            jobs |= {tuple(job.ids) for job in plan_sweep(cfg, results_dir, part).jobs
                     if job.ids and picks(select, job.overrides)}
    rows = ok_rows(rows[rows["run_id"].isin({i for ids in jobs for i in ids})])
    have = set(rows["run_id"])
    return rows, sum(1 for ids in jobs if have.intersection(ids))


def decide(entry: Entry, results_dir: Path, out_dir: Path, budget_min: float,
           select: Sequence[str] = (), log=log, sweep: str = "") -> Verdict:
    """The sequential decision of one entry at paper scale (:mod:`kktheory.report.sequential`).

    Each round judges every row of the entry (:func:`judge`: look 1 at 95 % when no look
    was recorded, a new look at :func:`~kktheory.report.decide.look_level` (j) whenever the
    rows changed). While a counted check is undecided — on either side of its claim — and
    more runs could decide it (:func:`~kktheory.report.sequential.waiting`), the next look's
    run count is the next size of the doubling schedule R₁·2^k
    (:func:`~kktheory.report.sequential.next_runs`), reached by adding the seeds between
    the two counts to the part of the sweep that ``select`` (overrides of sweep axes, e.g.
    ``yin_table2/data=pendigits``) picks — the entry's own sweep, or ``sweep``, its own or one
    of its further sweeps (where a re-declared rule reads its fresh seeds, e.g.
    wang_fig4_5_objective), the seeds numbered on from the selection's last. Without
    overrides, each look adds its seeds to the jobs the undecided checks read (:func:`reads`:
    their rules' sweep and parts) — those of ``sweep`` alone where it is named — and stops
    where they read different sweeps — when the predicted
    compute (the selected rows' compute seconds per job, times the jobs to add) fits what
    is left of ``budget_min``. Each look is recorded, with the seeds added before it, in
    ``rows/looks/<entry>.json`` beside the rows. A first decision (no look recorded) runs
    whatever the entry's sweeps lack; a resumed one runs only the seeds its looks add
    (``run_only``): the entry's further sweeps and the committed rows are read as stored.
    """
    looks = read_looks(committed.COMMITTED_ROWS, entry.name)
    parts = _sweep_parts(entry)
    apart = _timing_rules(entry)
    auto = not select  # the seeds go where the undecided checks (of ``sweep``, where named) read
    cfg = sweep or _own_config(entry)
    left = budget_min * 60.0
    execute = not looks  # a first decision runs what the sweep lacks; a resumed one only what it adds
    added: Part | None = read_pending(committed.COMMITTED_ROWS, entry.name)
    if added and looks and (looks[-1].sweep or _own_config(entry), tuple(looks[-1].part)) == \
            (added[0], tuple(added[1])):  # recorded, and stopped before the note was removed: judged already
        write_pending(out_dir / "rows", entry.name, None)
        added = None
    if added:  # a look stopped part-way: its seeds are run to the end before it is judged
        log(f"{entry.name}: look {len(looks) + 1} was stopped part-way: running what is left of "
            f"{' '.join(added[1])} before judging it")
        parts.append(added)
    while True:
        t0 = time.perf_counter()
        had = len(looks)
        try:
            verdict, looks = judge(entry, results_dir, out_dir, looks, parts, execute or bool(added), log, added,
                                   True, run_only=None if execute else added)
        except LookIncomplete as e:  # its note stays: the next run retries the failed jobs, then judges
            log(str(e))
            return _kept(entry, out_dir, (entry.name, added), results_dir)
        left -= time.perf_counter() - t0
        write_pending(out_dir / "rows", entry.name, None)
        if added and len(looks) == had:
            log(f"{entry.name}: the seeds added ({' '.join(added[1])}) gave no new rows: stopped")
            break
        wait = waiting(verdict, apart)
        if auto and wait:
            if sweep:
                wait = [c for c in wait if (getattr(c.rule, "sweep", "") or _own_config(entry)) == sweep]
                if not wait:
                    log(f"{entry.name}: no undecided check reads {sweep}: stopped")
                    break
            where = reads(wait, _own_config(entry))
            if where is None:
                log(f"{entry.name}: the undecided checks read different sweeps "
                    f"({', '.join(sorted({getattr(c.rule, 'sweep', '') or _own_config(entry) for c in wait}))}): "
                    "name one with --sweep (and its part with overrides): stopped")
                break
            cfg, select = where
        elif wait:  # a part chosen by hand: only the checks that read it wait for its seeds
            wait = [c for c in wait if _reads_part(c, cfg, select, _own_config(entry))]
            if not wait:
                log(f"{entry.name}: no undecided check reads {' '.join(select) or cfg}: stopped")
                break
        rows, jobs_done = _selected(entry, results_dir, cfg, select, parts)
        judged = _judged_seeds(rows, wait)  # a re-declared rule's schedule counts the seeds it judges
        # a waiting check without runs (a re-declared rule before its fresh seeds) reads settings of the
        # selection that have none, whatever the others hold: the schedule starts again for it
        fresh = not len(judged) or any(c.runs == 0 for c in wait)
        runs, j = (0 if fresh else _runs(judged)), looks[-1].look if looks else 0
        nxt = next_runs(wait, looks[0].runs, runs) if looks else None  # no look: no row was judged
        if nxt is None:
            log(f"{entry.name}: look {j}: no undecided check that more runs could decide")
            break
        have, last = _fewest(judged)  # every setting of the selection reaches nxt runs, the one with fewest included
        first = max((getattr(c.rule, "fresh_from", None) or 0 for c in wait), default=0)  # (Rule.fresh_from)
        if fresh:  # settings not run yet: from the first seed its waiting checks judge
            have, last = 0, first - 1
        last = max(last, first - 1)  # never seeds below the first a waiting check judges (a window re-declared)
        over = (*select, f"seed=range({last + 1},{last + 1 + nxt - have})")
        done = set(rows["run_id"]) if len(rows) else set()
        jobs = len({tuple(job.ids) for job in plan_sweep(cfg, results_dir, over).jobs
                    if job.ids and not done.issuperset(job.ids)})  # each run once, those the store lacks
        cost = compute_time(rows) / max(jobs_done, 1) * jobs
        if cost > left:
            log(f"{entry.name}: {len(wait)} check(s) undecided at look {j}; look {j + 1} needs {nxt} runs "
                f"({jobs} jobs), predicted {cost / 60:.0f} min > {left / 60:.0f} min left of the budget: stopped")
            break
        log(f"{entry.name}: look {j + 1} with {nxt} runs ({jobs} jobs of {cfg}, predicted {cost / 60:.0f} min)")
        added = (cfg, over)
        parts.append(added)
        write_pending(out_dir / "rows", entry.name, added)
    return verdict


def reads(checks: Sequence[Check], own: str) -> Part | None:
    """The sweep and the part of it that ``checks`` read (their rules' ``Rule.sweep`` —
    ``own``, the entry's sweep, where empty — and ``Rule.part``): the sweep they all read
    and, per override key, the union of their parts' values in order (the jobs of every
    combination: a superset where the parts differ in more than one key); every job of it
    where a check reads all of it or the parts name different keys; None where they read
    different sweeps."""
    sweeps = {getattr(c.rule, "sweep", "") or own for c in checks}
    if len(sweeps) != 1:
        return None
    parts = [tuple(getattr(c.rule, "part", ())) for c in checks]
    if not all(parts) or len({tuple(o.partition("=")[0] for o in p) for p in parts}) != 1:
        return sweeps.pop(), ()
    values: dict[str, list[str]] = {}
    for part in parts:
        for key, _, want in (o.partition("=") for o in part):
            have = values.setdefault(key, [])
            have += [v for v in dict.fromkeys(want.split(",")) if v not in have]
    return sweeps.pop(), tuple(f"{key}={','.join(v)}" for key, v in values.items())


def _reads_part(check: Check, cfg: str, select: Sequence[str], own: str) -> bool:
    """Whether ``check`` reads jobs of the sweep ``cfg`` that ``select`` picks: its rule's
    sweep (``own`` where it names none) is ``cfg``, and on every key both name its part's
    values and the selection's meet (a key only one names does not separate them)."""
    if (getattr(check.rule, "sweep", "") or own) != cfg:
        return False
    mine = part_values(getattr(check.rule, "part", ()))
    return all(mine[key] & want for key, want in part_values(select).items() if key in mine)


def _judged_seeds(rows: pd.DataFrame, checks: Sequence[Check]) -> pd.DataFrame:
    """The rows of the seeds the waiting ``checks`` judge: where a check's rule was re-declared
    after its rows were seen (``Rule.fresh_from``), only the seeds it may judge
    (:meth:`~kktheory.report.claims.Rule.fresh`; those of every such rule together), so that
    the doubling schedule counts the runs behind its estimate and not the seeds seen before
    its declaration (counted, theory_rates' overlap part would have added 5, then 30, 70, 150
    and 310 fresh seeds per n where the schedule asks 5, 10, 20, 40, 80). All the rows where
    no waiting rule was re-declared."""
    rules = [c.rule for c in checks if getattr(c.rule, "fresh_from", None) is not None]
    if not rules or rows.empty or "seed" not in rows:
        return rows
    seeds = set().union(*(set(rule.fresh(rows[["seed"]])["seed"]) for rule in rules))
    return rows[rows["seed"].isin(seeds)]


def _fewest(rows: pd.DataFrame) -> tuple[int, int]:
    """The seed count and the last seed of the setting of ``rows`` with the fewest seeds
    (:data:`~kktheory.reproduce.entry.SETTING`; (0, −1) without rows): a look adds the seeds
    after its last up to the schedule's size, so that it reaches the size — and, seeds being
    numbered alike across settings, every other setting with it (their seeds in that range
    already run are not run again)."""
    if rows.empty or "seed" not in rows:
        return 0, -1
    keys = [c for c in SETTING if c in rows]
    seeds = rows.groupby(keys, dropna=False)["seed"] if keys else rows.assign(one=0).groupby("one")["seed"]
    per = pd.DataFrame({"have": seeds.nunique(), "last": seeds.max()}).sort_values(["have", "last"])
    return int(per["have"].iloc[0]), int(per["last"].iloc[0])


def _runs(rows: pd.DataFrame) -> int:
    """Runs per setting of an entry's rows: the most seeds of a setting (0 when none)."""
    per = runs_per_setting(rows)
    return int(per.split("–")[-1]) if per else 0
