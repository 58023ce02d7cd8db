"""The committed rows of the paper-scale figures: ``paper_figs/rows/<entry>.parquet`` (the
rows behind the committed figures, without the per-run arrays), the tables of what a figure
plots beyond the rows (``rows/figures/``) and the timing passes (``rows/timing/``), imported
into a results store and written back as jobs finish."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from kktheory.run.sweeps import CONFIG_DIR
from kktheory.report import Entry
from kktheory.report.speed import path_of
from kktheory.report.rows import CONFIG_COL, ok_rows


ROOT = CONFIG_DIR.parent
#: the rows behind the committed paper-scale figures, one Parquet file per entry, and under
#: figures/ the tables of what a figure plots beyond the rows (no per-run arrays)
COMMITTED_ROWS = ROOT / "paper_figs" / "rows"


def committed_rows_path(name: str, folder: Path | None = None) -> Path:
    """The file of an entry's paper-scale rows in ``folder`` (default: the committed ones)."""
    return (COMMITTED_ROWS if folder is None else folder) / f"{name}.parquet"


def committed_figure_path(name: str, folder: Path | None = None) -> Path:
    """The file of the values an entry's figure plots beyond its rows (``Entry.figure_data``)
    in ``folder`` (default: the committed ones)."""
    return (COMMITTED_ROWS if folder is None else folder) / "figures" / f"{name}.parquet"


def import_committed(name: str, results_dir: Path, log: Callable[[str], None] = print,
                     ids: set[str] | None = None) -> int:
    """Copy an entry's committed rows into the store (rows already there are kept): those of
    the runs ``ids`` (the jobs about to run; all of them when None). One file per run is
    written, so a run of a few jobs does not write the thousands the entry has committed."""
    from kktheory.run.store import Store

    path = committed_rows_path(name)
    if not path.exists():
        return 0
    store = Store(results_dir)
    rows = pd.read_parquet(path)
    written = store.import_rows(rows if ids is None else rows[rows["run_id"].isin(ids)])
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
    src = path_of(COMMITTED_ROWS, name)
    dst = path_of(results_dir, name)
    if src.exists() and not dst.exists():
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
        log(f"{name}: committed timing pass {src} added to the store")


def export_rows(name: str, rows: pd.DataFrame, out_dir: Path, merge: bool = False) -> Path | None:
    """Write the finished rows of an entry's sweep to ``<out>/rows/<name>.parquet`` (atomic).

    With ``merge`` (a part of the sweep run on its own, with overrides such as ``seed=0``)
    the rows already in the file with other run ids are kept; otherwise the file holds
    exactly the sweep's rows. Each run id is written once: a job that two sweeps of an entry
    plan (theory_rates' bounds seeds 40–79 are also theory_rates_lemma5's) is one run — the
    rows saved as jobs finished held both copies, before the sweep's end removed them."""
    ok = ok_rows(rows).drop(columns=[CONFIG_COL], errors="ignore")
    ok = ok[~ok["run_id"].duplicated(keep="last")]  # a run is one row, whichever sweeps of the entry plan it
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


def stored_arrays(results_dir: Path, run_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """{run id: its arrays} of the runs whose arrays the store holds."""
    from kktheory.run.store import Store

    store = Store(results_dir)
    return {rid: store.arrays(rid) for rid in run_ids if store.has_arrays(rid)}
