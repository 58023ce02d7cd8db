"""Run what is missing for a figure, then draw it and judge the paper's claim.

    python -m kktheory.reproduce NAME|all [--scale small|paper] [--results-dir DIR]
                                 [--out DIR] [--no-run] [--decide [--budget-min B]] [OVERRIDE ...]

For each catalogue entry NAME (``python -m kktheory.reproduce --list``):

1. The sweep is the one ``python run.py --config-dir experiments --config-name CONFIG -m``
   would run, with CONFIG = NAME (``--scale paper``) or NAME_small (``--scale small``,
   the default): the experiment config's ``hydra.sweeper.params`` and the trailing
   OVERRIDEs (Hydra syntax, command line wins, e.g. ``n=500 seed=0``) are expanded into
   jobs by Hydra's own BasicSweeper, and each job's config is composed with Hydra's
   compose API, so a row written here and a row written by run.py have the same hash.
2. Jobs whose rows are all in the store are not run again; the others run in this
   process through :func:`kktheory.run.experiment.run`. A job that cannot run (missing data
   file, memory budget, invalid option, or a bug) becomes a pseudo-row carrying the
   job's config and ``error_kind``/``error``, so figures and claim rules see it.
3. The entry draws its files into ``--out`` (default ``paper_figs/``), evaluates its
   claim rule on the rows, prints the verdict and rewrites ``INDEX.md`` there. An entry
   with a speed claim judges it on its timing pass, ``<results-dir>/timing/NAME.parquet``
   (:mod:`kktheory.timing`; inconclusive when there is none), never on the rows' times.

At ``--scale paper`` the store starts from the entry's committed rows
(``paper_figs/rows/<entry>.parquet``, the rows behind the committed figures, without the
per-run arrays), and the rows are written back to ``<out>/rows/<entry>.parquet`` after
every job that ran, so that a sweep interrupted on one machine continues on another from
what was committed. When no job ran, an existing rows file is left untouched. A redraw
(``--no-run``) at paper scale reads the committed rows file itself for the runs the store
lacks (:func:`read_committed`) and writes no run file.

``--decide`` (paper scale) is the sequential decision (:func:`decide`,
:mod:`kktheory.report.sequential`): while a counted check is undecided with its estimate on
the claim's side and the predicted compute fits ``--budget-min`` (default 60 minutes), seeds
are added to the entry's sweep (to the part the OVERRIDEs select, when given) and the entry
is judged again, on all its rows, at the next look's alpha-spending level; the looks are
committed in ``rows/looks/<entry>.json`` and a later redraw judges at the last look.

``--no-run`` only redraws and judges from the rows already stored. The exit status is 0
when every requested entry produced a verdict (including *not run* with its reason) and
1 when drawing or judging an entry raised an exception.

A redraw reads, it does not compose or compute: the jobs of a sweep with their run ids and
configs (its *plan*, :func:`plan_sweep`) are kept in ``<results-dir>/cache/plans`` and
composed again only when a YAML file of experiments/ or configs/, the kktheory source, the
Hydra version, the overrides or the results folder changed; while none of the run files
changed, the rows of the sweep are read as one file kept there (:func:`read_rows`). Drawing reads
rows and, for an entry whose figure plots more than the rows (``Entry.figure_data``, e.g.
the points of a scatter), the table of those values built from a few runs' stored arrays;
at paper scale the table is committed beside the rows (``rows/figures/<entry>.parquet``)
and read from there for the runs whose arrays the store does not hold.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import pickle
import shutil
import sys
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import pandas as pd
from omegaconf import DictConfig, OmegaConf

from kktheory.cli import OneLineParser
from kktheory.run.sweeps import CONFIG_DIR
from kktheory.errors import UserError
from kktheory.run.sweeps import (
    EXPERIMENTS_DIR, SCALES, compose_jobs, config_name, expand_jobs, fixed_overrides, sweep_params,
)
from kktheory.report import Entry, catalogue
from kktheory.report.claims import rules_table
from kktheory.report.decide import LEVEL, look_level
from kktheory.report.sequential import Look, looks_text, next_runs, read_looks, waiting, write_looks
from kktheory.report.verdicts import Verdict, attribute_shortfall, not_run
from kktheory.report.paper_numbers import paper_table
from kktheory.report.rows import CONFIG_COL, ERROR, ERROR_KIND, failed_rows, ok_rows
from kktheory.report.index import IndexRecord, update_index

ROOT = CONFIG_DIR.parent
PACKAGE_DIR = Path(__file__).parent
#: the rows behind the committed paper-scale figures, one Parquet file per entry, and under
#: figures/ the tables of what a figure plots beyond the rows (no per-run arrays)
COMMITTED_ROWS = ROOT / "paper_figs" / "rows"
#: the layout of a plan file (a new layout recomposes)
PLAN_FORMAT = 1


def committed_rows_path(name: str, folder: Path | None = None) -> Path:
    """The file of an entry's paper-scale rows in ``folder`` (default: the committed ones)."""
    return (COMMITTED_ROWS if folder is None else folder) / f"{name}.parquet"


def committed_figure_path(name: str, folder: Path | None = None) -> Path:
    """The file of the values an entry's figure plots beyond its rows (``Entry.figure_data``)
    in ``folder`` (default: the committed ones)."""
    return (COMMITTED_ROWS if folder is None else folder) / "figures" / f"{name}.parquet"


def import_committed(name: str, results_dir: Path, log: Callable[[str], None] = print) -> int:
    """Copy an entry's committed rows into the store (rows already there are kept)."""
    from kktheory.run.store import Store

    path = committed_rows_path(name)
    if not path.exists():
        return 0
    store = Store(results_dir)
    written = store.import_rows(pd.read_parquet(path))
    if written:
        log(f"{name}: {written} committed row(s) from {path} added to the store")
    import_committed_timing(name, results_dir, log)
    return written


def read_committed(name: str, results_dir: Path, log: Callable[[str], None] = print) -> pd.DataFrame | None:
    """An entry's committed rows as a redraw reads them (None without a file), its committed
    timing pass copied into the store. Nothing is written to the store's runs: a redraw
    reads the one file instead of writing, then reading, one file per run."""
    from kktheory.run.store import read_rows as read_file

    path = committed_rows_path(name)
    if not path.exists():
        return None
    rows = read_file(path)
    log(f"{name}: {len(rows)} committed row(s) read from {path}")
    import_committed_timing(name, results_dir, log)
    return rows


def import_committed_timing(name: str, results_dir: Path, log: Callable[[str], None] = print) -> None:
    """Copy an entry's committed timing pass (``rows/timing/<name>.parquet``) into the store's
    timing folder when the store has none (a pass measured here is never replaced)."""
    from kktheory import timing

    src = timing.path_of(COMMITTED_ROWS, name)
    dst = timing.path_of(results_dir, name)
    if src.exists() and not dst.exists():
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
        log(f"{name}: committed timing pass {src} added to the store")


def export_rows(name: str, rows: pd.DataFrame, out_dir: Path, merge: bool = False) -> Path | None:
    """Write the finished rows of an entry's sweep to ``<out>/rows/<name>.parquet`` (atomic).

    With ``merge`` (a part of the sweep run on its own, with overrides such as ``seed=0``)
    the rows already in the file with other run ids are kept; otherwise the file holds
    exactly the sweep's rows."""
    ok = ok_rows(rows).drop(columns=[CONFIG_COL], errors="ignore")
    if ok.empty:
        return None
    ok.attrs = {}  # figure-only extras (e.g. embeddings for scatters) stay out of the file
    path = committed_rows_path(name, out_dir / "rows")
    path.parent.mkdir(parents=True, exist_ok=True)
    if merge and path.exists():
        from kktheory.run.store import read_rows as read_file

        old = read_file(path)
        ok = pd.concat([old[~old["run_id"].isin(set(ok["run_id"]))], ok], ignore_index=True)
    ok = _uniform_types(ok)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    ok.sort_values("run_id").to_parquet(tmp, index=False)
    os.replace(tmp, path)
    return path


def _uniform_types(rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` with every object column that mixes numbers and strings written as strings
    (a config field given as an integer in one job and as a rule in another, e.g.
    ``sketch.s`` = 20 and ``sqrt_kc``): Parquet stores one type per column."""
    mixed = [c for c in rows.columns if rows[c].dtype == object
             and len({type(v) for v in rows[c].dropna()} - {bool}) > 1
             and any(isinstance(v, str) for v in rows[c].dropna())]
    return rows.assign(**{c: rows[c].map(lambda v: v if v is None or isinstance(v, str) or v != v else str(v))
                          for c in mixed}) if mixed else rows


def figure_table(entry: Entry, rows: pd.DataFrame, results_dir: Path) -> pd.DataFrame:
    """What ``entry``'s figure plots beyond the rows (``Entry.figure_data``): built from the
    stored arrays of the runs it names, and for those whose arrays the store lacks, read
    from the committed table."""
    runs = entry.figure_data.runs(rows)
    arrays = stored_arrays(results_dir, runs)
    parts = [entry.figure_data.table(arrays)]
    committed = committed_figure_path(entry.sweep_name)
    if committed.exists() and set(runs) - set(arrays):
        old = pd.read_parquet(committed)
        parts.append(old[old["run_id"].isin(set(runs) - set(arrays))])
    return pd.concat([p for p in parts if len(p)] or parts[:1], ignore_index=True)


def export_figure_table(name: str, table: pd.DataFrame, out_dir: Path) -> None:
    """Write the figure table of an entry to ``<out>/rows/figures/<name>.parquet`` (atomic)."""
    path = committed_figure_path(name, out_dir / "rows")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    table.sort_values("run_id", kind="stable").to_parquet(tmp, index=False)
    os.replace(tmp, path)


def log(message: str) -> None:
    """Print a progress line at once (also when stdout is a file)."""
    print(message, flush=True)


def run_ids(cfg: DictConfig) -> list[str]:
    """The run ids (store file names) of the rows a job config produces."""
    from kktheory.run.config import build_spec
    from kktheory.run.identity import row_identity
    from kktheory.run.store import run_id

    spec = build_spec(cfg)
    return [run_id(row_identity(spec, p)) for p in spec.points]


class NotInStore(UserError):
    """A job whose rows are missing and were not computed (``--no-run``)."""


def error_of(exc: BaseException) -> tuple[str, str]:
    """(error kind, message) of a job that cannot run: the class of a user error, ``bug:``
    and the class for anything else; the message's first line."""
    kind = type(exc).__name__ if isinstance(exc, UserError) else f"bug:{type(exc).__name__}"
    return kind, str(exc).splitlines()[0] if str(exc) else kind


# -- the plan of a sweep, cached -------------------------------------------------------------
@dataclass
class PlannedJob:
    """One job of a sweep as reading its rows needs it (no Hydra config object)."""

    overrides: list[str]
    ids: list[str]  # the run ids of its rows ([] when the config is refused)
    config: str  # the composed config, YAML (the rows' job_config)
    setup: dict[str, Any]  # the resolved config, flattened (failure rows, describe_setup)
    error: tuple[str, str] | None = None  # (kind, message) when the config is refused


@dataclass
class Plan:
    """The jobs of a sweep and the keys of its sweep axes (``hydra.sweeper.params``);
    ``composed`` holds the job configs when this process composed them."""

    jobs: list[PlannedJob]
    axes: list[str]
    cache: Path | None = None  # <results_dir>/cache/plans/<config>-<overrides hash> (no suffix)
    composed: list[DictConfig] | None = None

    @property
    def rows_cache(self) -> Path | None:
        return None if self.cache is None else self.cache.with_name(self.cache.name + ".rows.pkl")


def plan_key(cfg_name: str, results_dir: Path, overrides: Sequence[str] = (),
             experiments_dir: Path = EXPERIMENTS_DIR) -> str:
    """SHA-256 of everything a sweep's plan depends on: the config name, the overrides, the
    results folder (written into every config), the default memory budget (validation
    refuses what exceeds it), the versions of hydra-core and omegaconf, and the content of
    every YAML file of ``experiments_dir`` and configs/ and of every module of the kktheory
    package but the report (schemas, defaults, validation and the row identity)."""
    from importlib.metadata import version

    from kktheory.machine.memory import default_budget_bytes

    h = hashlib.sha256(json.dumps([
        PLAN_FORMAT, cfg_name, list(overrides), str(results_dir), str(experiments_dir), default_budget_bytes(),
        version("hydra-core"), version("omegaconf"),
    ]).encode())
    for root, pattern in ((experiments_dir, "*.yaml"), (CONFIG_DIR, "*.yaml"), (PACKAGE_DIR, "*.py")):
        for f in sorted(root.rglob(pattern)):
            rel = f.relative_to(root)
            if root == PACKAGE_DIR and rel.parts[0] == "report":
                continue
            h.update(f"{root.name}/{rel.as_posix()}\0".encode())
            h.update(f.read_bytes())
    return h.hexdigest()


def plan_sweep(cfg_name: str, results_dir: Path, overrides: Sequence[str] = (),
               experiments_dir: Path = EXPERIMENTS_DIR) -> Plan:
    """The jobs of a sweep with their run ids and configs.

    Read from ``<results_dir>/cache/plans/<cfg_name>-<hash of the overrides>.json.gz`` when
    that file's :func:`plan_key` is the current one; otherwise the jobs are expanded
    (:func:`expand_jobs`) and composed (:func:`compose_jobs`) with Hydra, their run ids
    computed (:func:`run_ids`), and the file rewritten. A changed YAML file, module, Hydra
    version, override or results folder thus recomposes once; the ids are those composing
    gives, because the file holds what composing gave under the same key.
    """
    key = plan_key(cfg_name, results_dir, overrides, experiments_dir)
    digest = hashlib.sha256(json.dumps(list(overrides)).encode()).hexdigest()[:12]
    cache = results_dir / "cache" / "plans" / f"{cfg_name}-{digest}"
    path = cache.with_name(cache.name + ".json.gz")
    try:
        stored = json.loads(gzip.decompress(path.read_bytes()))
        if stored["key"] == key:
            jobs = [PlannedJob(**{**j, "error": tuple(j["error"]) if j["error"] else None}) for j in stored["jobs"]]
            return Plan(jobs, stored["axes"], cache)
    except (OSError, ValueError, KeyError, TypeError):
        pass  # no plan, or an unreadable one: compose
    params = sweep_params(cfg_name, fixed_overrides(overrides), experiments_dir)
    jobs = expand_jobs(cfg_name, overrides, experiments_dir, params)
    cfgs = compose_jobs(cfg_name, jobs, results_dir, experiments_dir)
    plan = Plan([_plan_job(job, cfg) for job, cfg in zip(jobs, cfgs)], list(params), cache, cfgs)
    blob = gzip.compress(json.dumps({"key": key, "axes": plan.axes, "jobs": [asdict(j) for j in plan.jobs]}).encode())
    _write_atomic(path, blob)
    return plan


def _plan_job(job: Sequence[str], cfg: DictConfig) -> PlannedJob:
    from kktheory.run.identity import flatten

    setup = flatten(OmegaConf.to_container(cfg, resolve=True))
    try:
        ids, error = run_ids(cfg), None
    except UserError as exc:
        ids, error = [], error_of(exc)
    return PlannedJob(list(job), ids, OmegaConf.to_yaml(cfg), setup, error)


def _write_atomic(path: Path, blob: bytes) -> None:
    """Write a cache file atomically; a folder that cannot be written leaves no cache."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(blob)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)


def failure_row(job: PlannedJob, kind: str, message: str) -> dict[str, Any]:
    """A pseudo-row for a job that could not run: its config, the error kind and message."""
    return {**job.setup, CONFIG_COL: job.config, ERROR_KIND: kind, ERROR: message, "job": " ".join(job.overrides)}


def read_rows(results_dir: Path, ids: Sequence[str], cache: Path | None = None) -> pd.DataFrame:
    """The stored rows with these ids (those present), as one DataFrame.

    With ``cache`` (a file) the frame is kept there with the size, modification time and
    inode of every row file read, and read back from it while they are all the same: one
    file instead of one per run (a sweep of 2000 runs reads 2000 Parquet files otherwise).
    """
    from kktheory.run.store import Store

    store = Store(results_dir)
    stamp = []
    for rid in dict.fromkeys(ids):
        try:
            st = store.row_path(rid).stat()
        except FileNotFoundError:
            continue
        stamp.append((rid, st.st_size, st.st_mtime_ns, st.st_ino))
    if cache is not None:
        try:
            kept = pickle.loads(cache.read_bytes())
            if kept["stamp"] == stamp:
                return kept["rows"]
        except Exception:  # noqa: BLE001  (no cache, or one another pandas wrote: read the files)
            pass
    frames = [store.row(rid) for rid, *_ in stamp]  # old column names read under the new ones
    rows = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    if cache is not None:
        _write_atomic(cache, pickle.dumps({"stamp": stamp, "rows": rows}))
    return rows


def _with_committed(rows: pd.DataFrame, committed: pd.DataFrame, ids: Sequence[str]) -> pd.DataFrame:
    """The store's ``rows`` and, for the ``ids`` the store lacks, the committed ones, in the
    order of ``ids`` (as :func:`read_rows` orders them)."""
    have = set(rows["run_id"]) if not rows.empty else set()
    extra = committed[committed["run_id"].isin(set(ids) - have)]
    if extra.empty:
        return rows
    both = pd.concat([rows, extra], ignore_index=True) if not rows.empty else extra.reset_index(drop=True)
    order = {rid: i for i, rid in enumerate(dict.fromkeys(ids))}
    both = both.iloc[both["run_id"].map(order).argsort(kind="stable")].reset_index(drop=True)
    return both.dropna(axis=1, how="all")


def stored_arrays(results_dir: Path, run_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """{run id: its arrays} of the runs whose arrays the store holds."""
    from kktheory.run.store import Store

    store = Store(results_dir)
    return {rid: store.arrays(rid) for rid in run_ids if store.has_arrays(rid)}


@dataclass
class SweepResult:
    """The rows of an entry's sweep and what it took to get them."""

    rows: pd.DataFrame
    jobs: int = 0
    ran: int = 0
    reused: int = 0
    written: int = 0
    failed: int = 0
    setups: list[dict[str, Any]] = field(default_factory=list)  # each job's flattened config

    def joined(self, other: SweepResult) -> SweepResult:
        """This sweep's rows and counts followed by another's (an entry's further sweeps)."""
        parts = [r for r in (self.rows, other.rows) if not r.empty]
        return SweepResult(
            rows=pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(),
            jobs=self.jobs + other.jobs, ran=self.ran + other.ran, reused=self.reused + other.reused,
            written=self.written + other.written, failed=self.failed + other.failed,
            setups=self.setups + other.setups,
        )


def run_sweep(cfg_name: str, results_dir: Path, overrides: Sequence[str] = (),
              execute: bool = True, log=log,
              experiments_dir: Path = EXPERIMENTS_DIR,
              after_job: Callable[[pd.DataFrame], Any] | None = None,
              plan: Plan | None = None, committed: pd.DataFrame | None = None) -> SweepResult:
    """Run the jobs of a sweep whose rows are missing; return every row of the sweep.

    The jobs and their run ids come from the sweep's ``plan`` (:func:`plan_sweep`); only
    the jobs that run are composed (when the plan was read from its file). ``after_job(rows
    so far)`` is called after every job that ran (to save progress). ``committed`` (a
    redraw at paper scale) holds rows read from the committed file: a run that is not in
    the store is taken from there, in the sweep's order, as the store would give it (the
    columns it leaves empty dropped)."""
    from kktheory.run.store import Store

    store = Store(results_dir)
    from_file = set() if committed is None else set(committed["run_id"])
    plan = plan_sweep(cfg_name, results_dir, overrides, experiments_dir) if plan is None else plan
    res = SweepResult(rows=pd.DataFrame(), jobs=len(plan.jobs), setups=[j.setup for j in plan.jobs])
    ids: list[str] = []
    seen: set[str] = set()
    config_of: dict[str, str] = {}
    failures: list[dict[str, Any]] = []
    todo: list[int] = []
    label = [f"[{cfg_name} {i}/{len(plan.jobs)}] {' '.join(j.overrides)}" for i, j in enumerate(plan.jobs, 1)]
    for i, job in enumerate(plan.jobs):
        if job.error is not None:
            failures.append(failure_row(job, *job.error))
            log(f"{label[i]}: cannot run: {job.error[1]}")
            continue
        if set(job.ids) <= seen:  # the same runs as an earlier job of this sweep
            res.reused += 1
            continue
        seen.update(job.ids)
        ids.extend(job.ids)
        config_of.update(dict.fromkeys(job.ids, job.config))
        if all(store.has(j) or j in from_file for j in job.ids):
            res.reused += 1
        elif not execute:
            failures.append(failure_row(job, *error_of(NotInStore("not in the store (--no-run)"))))
            log(f"{label[i]}: missing (not run: --no-run)")
        else:
            todo.append(i)
    if todo and plan.composed is None:  # read from its file: compose the jobs to run
        cfgs = dict(zip(todo, compose_jobs(cfg_name, [plan.jobs[i].overrides for i in todo], results_dir,
                                           experiments_dir)))
    else:
        cfgs = {i: plan.composed[i] for i in todo} if todo else {}
    if todo:  # the run's machinery (scikit-learn, the sketches) is loaded only to run
        from kktheory.run.experiment import run
    for i in todo:
        t0 = time.perf_counter()
        try:
            outcome = run(cfgs[i])
        except UserError as exc:
            failures.append(failure_row(plan.jobs[i], *error_of(exc)))
            log(f"{label[i]}: cannot run: {exc}")
            continue
        except Exception as exc:  # a bug in a sketch must not stop the other jobs
            failures.append(failure_row(plan.jobs[i], *error_of(exc)))
            log(f"{label[i]}: FAILED with {type(exc).__name__}: {exc}")
            traceback.print_exc(limit=3, file=sys.stderr)
            continue
        res.ran += 1
        res.written += len(outcome.rows)
        log(f"{label[i]}: {len(outcome.rows)} row(s) in {time.perf_counter() - t0:.1f} s")
        if after_job is not None:
            after_job(read_rows(results_dir, ids))
    rows = read_rows(results_dir, ids, plan.rows_cache)
    if from_file:
        rows = _with_committed(rows, committed, ids)
    if not rows.empty:
        rows[CONFIG_COL] = rows["run_id"].map(config_of)
    res.failed = len(failures)
    if failures:
        rows = pd.concat([rows, pd.DataFrame(failures)], ignore_index=True)
    res.rows = rows
    return res


# -- describing what ran --------------------------------------------------------------------
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


# -- one entry ----------------------------------------------------------------------------
def _without_title(markdown: str) -> str:
    """A Markdown file's text without its first-level title line."""
    return "\n".join(ln for ln in markdown.splitlines() if not ln.startswith("# ")).strip()


#: the parts of a row's own compute time (time_wall is not summed: in a list of m it accumulates)
ROW_TIMES = ("time_embed", "time_cluster", "time_evaluate", "time_bounds", "time_population")
#: times a job spends once and copies into every row of its list of m
JOB_TIMES = ("time_load", "time_reference")


#: the columns that tell one plotted setting from another (those a sweep's rows carry)
SETTING = ("dataset.name", "n", "m", "sketch.name", "sketch.P", "sketch.s", "centroids", "kernel.beta")


def runs_per_setting(rows: pd.DataFrame) -> str:
    """Independent runs (seeds) behind each setting of an entry: "r", or "lo–hi" when the
    settings differ (e.g. a sweep still running, or a method with fewer runs)."""
    if rows.empty or "seed" not in rows:
        return ""
    keys = [c for c in SETTING if c in rows]
    counts = rows.groupby(keys, dropna=False)["seed"].nunique() if keys else pd.Series([rows["seed"].nunique()])
    lo, hi = int(counts.min()), int(counts.max())
    return str(lo) if lo == hi else f"{lo}–{hi}"


def scale_label(entry: Entry, scale: str, runs: str) -> str:
    """The overview's scale column: what the data and n are against the paper's — the
    entry's label, else the first clause of what the scale changes — and the runs per
    setting against the paper's run count (e.g. "MNIST 60k for MNIST8M; 10 of 10 runs")."""
    parts = [entry.label.get(scale) or entry.changes.get(scale, scale).split(";")[0].strip()]
    if runs and entry.paper_runs:
        parts.append(f"{runs} of {entry.paper_runs} runs")
    elif runs:
        parts.append(f"{runs} runs (the paper states none)")
    return "; ".join(parts)


def _compute_time(rows: pd.DataFrame) -> float:
    """Seconds the stored rows took when they were computed: each row's ROW_TIMES, and each
    job's JOB_TIMES once (the rows of one job carry the same value and seed)."""
    total = sum(float(rows[c].fillna(0.0).sum()) for c in ROW_TIMES if c in rows)
    for c in JOB_TIMES:
        if c in rows:
            once = rows.drop_duplicates(["seed", c]) if "seed" in rows else rows
            total += float(once[c].fillna(0.0).sum())
    return total



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


def reproduce(entry: Entry, scale: str, results_dir: Path, out_dir: Path,
              overrides: Sequence[str] = (), execute: bool = True, log=log,
              level: float = LEVEL, looks: str = "", parts: Sequence[Sequence[str]] = ()) -> Verdict:
    """Run the missing rows of one entry, draw it, judge it, update INDEX.md.

    ``level`` is the confidence level of this look (a sequential decision's
    :func:`~kktheory.report.decide.look_level`; 0.95 for the fixed design), ``looks`` the
    record of the looks so far, printed in INDEX, and ``parts`` the override sets of the
    seeds a sequential decision added to parts of the sweep (their rows join the sweep's)."""
    t0 = time.perf_counter()
    cfg_name = config_name(entry.sweep_name, scale)
    # an entry's further sweeps (paper scale) run as configured, only when no override picks a part
    cfg_names = [cfg_name, *(entry.extra_sweeps if scale == "paper" and not overrides else ())]
    sweeps = [(cfg_name, tuple(overrides)), *((c, ()) for c in cfg_names[1:]),
              *((cfg_name, tuple(o)) for o in parts)]
    log(f"== {entry.name} ({entry.title}) — scale {scale}, config "
        f"{', '.join(f'experiments/{c}.yaml' for c in cfg_names)}"
        + (f"; {len(parts)} part(s) added by a sequential decision" if parts else ""))
    plans = [plan_sweep(c, results_dir, o) for c, o in sweeps]
    save = None
    committed = None
    if scale == "paper":  # paper-scale rows are committed: start from them, save as jobs finish
        if execute:
            import_committed(entry.sweep_name, results_dir, log)
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
        sweep = sweep.joined(run_sweep(name, results_dir, over, execute, log,
                                       after_job=after, plan=plan, committed=committed))
    if parts and not sweep.rows.empty and "run_id" in sweep.rows:  # a part may repeat a job of the sweep
        sweep = replace(sweep, rows=sweep.rows.drop_duplicates("run_id", ignore_index=True))
    if save is not None and (sweep.ran or not committed_rows_path(entry.sweep_name, out_dir / "rows").exists()):
        save(sweep.rows)  # a redraw leaves the committed rows as they are
    rows = sweep.rows
    ok = ok_rows(rows)
    files: list[Path] = []
    if ok.empty:
        bad = failed_rows(rows)
        reason = "; ".join(dict.fromkeys(bad[ERROR])) if not bad.empty else "no row in the store"
        verdict = not_run(reason)
    else:
        if entry.figure_data is not None:
            rows.attrs["figure"] = figure_table(entry, ok, results_dir)
        drawn = rows
        if entry.timing is not None:  # an entry with a speed claim may draw its timing pass (drawing only:
            from kktheory import timing# a frame in attrs would follow the rows into the judge's merges)

            drawn = rows.copy(deep=False)
            drawn.attrs = {**rows.attrs, "timing": timing.load(results_dir, entry.name)}
        files = entry.draw(drawn, out_dir)
        verdict = attribute_shortfall(entry.judge(rows, level), entry.shortfall.get(scale),
                                      entry.changes.get(scale, scale))
        if entry.timing is not None:  # speed: judged on the entry's timing pass, at its own scale
            from kktheory import timing

            verdict = timing.add_checks(verdict, timing.judge(entry.timing, timing.load(results_dir, entry.name),
                                                              entry.name, level), level)
            if save is not None and timing.path_of(results_dir, entry.name).exists():  # committed with the rows
                dst = timing.path_of(out_dir / "rows", entry.name)
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(timing.path_of(results_dir, entry.name), dst)
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
        tables="\n\n".join(_without_title(f.read_text()) for f in files if f.suffix == ".md"),
        rows=(f"{len(ok)} rows from {sweep.jobs} jobs ({sweep.reused} reused, {sweep.ran} run, "
              f"{sweep.failed} could not run); {_compute_time(ok):.0f} s of compute in the rows (method, reference, bounds, population), "
              f"{elapsed:.0f} s for this invocation; load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs at the end (timings are wall-clock "
              f"and suffer from other load)"),
        when=f"generated {time.strftime('%Y-%m-%d %H:%M')}",
        why=verdict.why,
        runs=runs_per_setting(ok),
        compute_s=_compute_time(ok),
        paper=paper_table(entry.paper_numbers, entry.observe(ok) if entry.observe and not ok.empty else {}),
        rules=rules_table(entry.rules, {c.rule.name: c.runs for c in verdict.checks if c.rule is not None and c.runs},
                          level),
        looks=looks,
        setting=entry.setting(ok) if entry.setting is not None and not ok.empty else "",
        label=scale_label(entry, scale, runs_per_setting(ok)),
    )
    update_index(out_dir, record, list(catalogue()), pending_text)
    return verdict


def _look_of(entry: Entry, scale: str, overrides: Sequence[str]) -> dict[str, Any]:
    """The last recorded look of an entry judged sequentially (paper scale, no overrides):
    the parts its looks added, its level and the looks' text — so that a redraw judges the
    committed rows as the sequential decision did. Empty for the fixed design."""
    if scale != "paper" or overrides:
        return {}
    looks = read_looks(COMMITTED_ROWS, entry.name)
    parts = _sweep_parts(entry)
    if not looks:
        return {"parts": parts} if parts else {}
    return {"parts": parts, "level": looks[-1].level, "looks": looks_text(looks)}


def _sweep_parts(entry: Entry) -> list[list[str]]:
    """The seeds sequential decisions added to the entry's sweep — by this entry or by
    another judging the same sweep — so that every entry of a sweep reads all its rows and
    a re-run never drops the others' rows from the committed file."""
    names = [e.name for e in catalogue().values() if e.sweep_name == entry.sweep_name]
    return [x.part for name in names for x in read_looks(COMMITTED_ROWS, name) if x.part]


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
    looks = read_looks(COMMITTED_ROWS, entry.name)
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
        cost = _compute_time(rows) / max(jobs_now, 1) * jobs
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


def main(argv: Sequence[str] | None = None) -> int:
    entries = catalogue()
    parser = OneLineParser(
        prog="python -m kktheory.reproduce", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("name", nargs="?", help=f"one of: all, {', '.join(entries)}")
    parser.add_argument("overrides", nargs="*", help="Hydra overrides applied to every job")
    parser.add_argument("--scale", choices=SCALES, default="small")
    parser.add_argument("--results-dir", default="results", help="the results store (default results/)")
    parser.add_argument("--out", default="paper_figs", help="where figures and INDEX.md go")
    parser.add_argument("--no-run", action="store_true", help="only draw and judge stored rows")
    parser.add_argument("--list", action="store_true", help="list the catalogue and exit")
    parser.add_argument("--decide", action="store_true",
                        help="paper scale: add seeds while a check is undecided (sequential design, "
                             "kktheory/report/sequential.py)")
    parser.add_argument("--budget-min", type=float, default=60.0,
                        help="with --decide: the most minutes of predicted compute to add (default 60)")
    args = parser.parse_intermixed_args(argv)
    if args.list:
        for e in entries.values():
            print(f"{e.name:24s} {e.title}: {e.claim}")
        return 0
    if args.name is None:
        print(f"config error: name=None: one of all, {', '.join(entries)} (--list describes them)",
              file=sys.stderr)
        return 2
    if args.decide and (args.scale != "paper" or args.no_run or args.name == "all"
                        or any(o.partition("=")[0].lstrip("+~") == "seed" for o in args.overrides)):
        print("config error: --decide: one entry, with --scale paper, without --no-run and without a seed "
              "override (it chooses the seeds; other overrides select the part of the sweep that gets them)",
              file=sys.stderr)
        return 2
    if not args.budget_min > 0:
        print(f"config error: --budget-min={args.budget_min:g}: a number of minutes > 0", file=sys.stderr)
        return 2
    names = list(entries) if args.name == "all" else [args.name]
    unknown = [n for n in names if n not in entries]
    if unknown:
        print(f"config error: name={unknown[0]!r}: one of all, {', '.join(entries)}", file=sys.stderr)
        return 2
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import OverrideParseException

    for text in args.overrides:  # one line for a malformed override, before anything is written
        try:
            OverridesParser.create().parse_overrides([text])
        except OverrideParseException:
            print(f"config error: override={text!r}: key=value (a Hydra override); one entry name per call",
                  file=sys.stderr)
            return 2
    results_dir = Path(args.results_dir).resolve()
    out_dir = Path(args.out).resolve()
    t0 = time.perf_counter()
    status = 0
    summary = []
    for name in names:
        t1 = time.perf_counter()
        try:
            if args.decide:
                verdict = decide(entries[name], results_dir, out_dir, args.budget_min, args.overrides)
            else:
                verdict = reproduce(entries[name], args.scale, results_dir, out_dir, args.overrides,
                                    execute=not args.no_run, **_look_of(entries[name], args.scale, args.overrides))
            summary.append(f"{name:24s} {verdict.status:15s} {time.perf_counter() - t1:7.1f} s")
        except Exception as exc:  # report the entry as broken, go on with the others
            traceback.print_exc()
            summary.append(f"{name:24s} {'ERROR':15s} {type(exc).__name__}: {exc}")
            status = 1
    if len(names) > 1:
        print("\n== summary")
        print("\n".join(summary))
        print(f"total {time.perf_counter() - t0:.1f} s")
    return status


if __name__ == "__main__":
    sys.exit(main())
