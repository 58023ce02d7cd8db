"""Running a sweep: the jobs whose rows the store lacks run in this process; a job that
cannot run becomes a pseudo-row with its config and ``error_kind``/``error``; the rows of the
sweep are read as one table (kept while no run file changed)."""

from __future__ import annotations

import io
import json
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from kktheory.errors import UserError
from kktheory.run.sweeps import (
    EXPERIMENTS_DIR, compose_jobs,
)
from kktheory.report.rows import CONFIG_COL, ERROR, ERROR_KIND
from kktheory.reproduce.plan import NotInStore, Plan, PlannedJob, write_atomic, error_of, log, plan_sweep

if TYPE_CHECKING:
    from kktheory.run.store import Store


def failure_row(job: PlannedJob, kind: str, message: str) -> dict[str, Any]:
    """A pseudo-row for a job that could not run: its config, the error kind and message."""
    return {**job.setup, CONFIG_COL: job.config, ERROR_KIND: kind, ERROR: message, "job": " ".join(job.overrides)}


#: the key of the rows cache's stamp in its Parquet metadata
STAMP_KEY = b"kktheory.rows_stamp"
#: ``[run id, size, modification time (ns), inode]`` of each row file read
Stamp = list[list[Any]]


def read_rows(results_dir: Path, ids: Sequence[str], cache: Path | None = None) -> pd.DataFrame:
    """The stored rows with these ids (those present), as one DataFrame.

    With ``cache`` (a file) the frame is kept there with the size, modification time and
    inode of every row file read, and read back from it while they are all the same: one
    file instead of one per run (a sweep of 2000 runs reads 2000 Parquet files otherwise).
    The cache is data only, a Parquet file with that stamp as JSON in its metadata (one
    file, replaced whole); a file that is not one (another format, a pickle) is ignored.
    """
    from kktheory.run.store import Store

    store = Store(results_dir)
    stamp = _row_stamp(store, ids)
    if not stamp:
        return pd.DataFrame()
    kept = None if cache is None else _kept_rows(cache, stamp)
    if kept is not None:
        return kept
    frames = [store.row(rid) for rid, *_ in stamp]  # old column names read under the new ones
    rows = pd.concat(frames, ignore_index=True)
    if cache is not None:
        _keep_rows(cache, rows, stamp)
    return rows


def _row_stamp(store: Store, ids: Sequence[str]) -> Stamp:
    """The stamp of the stored row files of ``ids`` (those present, in the order of ``ids``)."""
    stamp = []
    for rid in dict.fromkeys(ids):
        try:
            st = store.row_path(rid).stat()
        except FileNotFoundError:
            continue
        stamp.append([rid, st.st_size, st.st_mtime_ns, st.st_ino])
    return stamp


def _kept_rows(cache: Path, stamp: Stamp) -> pd.DataFrame | None:
    """The rows kept in ``cache`` when its stamp is ``stamp``, else None (no cache, another
    stamp, or a file that is not a rows cache)."""
    try:
        blob = cache.read_bytes()
        schema = pq.read_schema(io.BytesIO(blob))
        if json.loads((schema.metadata or {}).get(STAMP_KEY, b"null")) != stamp:
            return None
        return _as_written(pd.read_parquet(io.BytesIO(blob)), schema)
    except (OSError, ValueError, pa.ArrowException):
        return None


def _as_written(rows: pd.DataFrame, schema: pa.Schema) -> pd.DataFrame:
    """``rows`` with the object columns of the frame that was written back to object (pandas
    3 reads every column of strings as ``str``; a concatenation of runs can leave strings
    in an object column), their missing values None as in pyarrow's other object columns."""
    written = (schema.pandas_metadata or {}).get("columns", [])
    for name in [c["name"] for c in written if c["numpy_type"] == "object"]:
        if name in rows and rows[name].dtype != object:
            rows[name] = rows[name].astype(object).where(rows[name].notna(), None)
    return rows


def _keep_rows(cache: Path, rows: pd.DataFrame, stamp: Stamp) -> None:
    """Write ``rows`` with their ``stamp`` to ``cache`` (atomically); rows Parquet cannot
    hold (a column of mixed types) are not kept."""
    try:
        table = pa.Table.from_pandas(rows, preserve_index=False)
    except (ValueError, pa.ArrowException):
        return
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), STAMP_KEY: json.dumps(stamp).encode()})
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    write_atomic(cache, sink.getvalue().to_pybytes())


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


#: the least time between two saves of a sweep's rows as its jobs finish (:func:`run_sweep`)
SAVE_EVERY_S = 60.0


def run_sweep(cfg_name: str, results_dir: Path, overrides: Sequence[str] = (),
              execute: bool = True, log=log,
              experiments_dir: Path = EXPERIMENTS_DIR,
              after_job: Callable[[pd.DataFrame], Any] | None = None,
              plan: Plan | None = None, committed: pd.DataFrame | None = None) -> SweepResult:
    """Run the jobs of a sweep whose rows are missing; return every row of the sweep.

    The jobs and their run ids come from the sweep's ``plan`` (:func:`plan_sweep`); only
    the jobs that run are composed (when the plan was read from its file). ``after_job(rows
    so far)`` is called after a job that ran when :data:`SAVE_EVERY_S` seconds have passed
    since the last call, and after the last job that ran (to save progress: reading the rows
    so far and saving them costs O(rows) per call — 4 s a job at wang_fig3's 720 jobs, ten
    times its 0.3 s jobs, when it was called after each). ``committed`` (a
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
    saved, unsaved = time.perf_counter(), False
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
        unsaved = True
        if after_job is not None and time.perf_counter() - saved >= SAVE_EVERY_S:
            after_job(read_rows(results_dir, ids))
            saved, unsaved = time.perf_counter(), False
    if after_job is not None and unsaved:
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
