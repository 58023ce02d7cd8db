"""Benchmark passes shown beside an entry: one script of ``benchmarks/`` timing the paper's
own experiment on this machine, recorded row by row and rendered in the entry's INDEX
section next to the paper's times.

They are shown, not judged: the paper's times are another machine's (a Spark cluster, say),
so "faster than the paper" is a measurement of two machines, not a claim of the paper. A
pass is a dedicated run, never a sweep row's time (sweep rows share the machine with other
jobs). The script writes one row per pass to ``<out>/rows/benchmarks/<entry>.parquet`` (the
committed folder, beside the entry's rows), replacing an earlier row of the same pass; every
row names its machine, its load average before and after, its commit and its date, so the
entry can say where its numbers come from.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

BENCH_DIR = "benchmarks"
PASS_KEY = "pass"  # the record's column naming the pass (one row each; not a row column of the store)


def path_of(rows_dir: Path, name: str) -> Path:
    """The benchmark record of an entry in a rows folder (``paper_figs/rows``)."""
    return Path(rows_dir) / BENCH_DIR / f"{name}.parquet"


def load(rows_dir: Path, name: str) -> pd.DataFrame | None:
    """The entry's recorded passes (None when there is none)."""
    p = path_of(rows_dir, name)
    return pd.read_parquet(p) if p.exists() else None


def record(rows_dir: Path, name: str, row: dict[str, Any]) -> Path:
    """Add one pass (``row[PASS_KEY]`` names it) to the entry's record, replacing the row of
    the same pass; the record is written whole (a Parquet file of one row per pass)."""
    if PASS_KEY not in row:
        raise ValueError(f"a benchmark row names its pass ({PASS_KEY!r})")
    p = path_of(rows_dir, name)
    old = load(rows_dir, name)
    new = pd.DataFrame([row])
    if old is not None:
        new = pd.concat([old[old[PASS_KEY] != row[PASS_KEY]], new], ignore_index=True)
    p.parent.mkdir(parents=True, exist_ok=True)
    new.sort_values(PASS_KEY, ignore_index=True).to_parquet(p, index=False)
    return p
