"""The rows handed to draw and judge functions: the stored rows of the entry's sweep plus
one pseudo-row per job that could not run, with the job's config columns and ``error_kind`` /
``error`` set (:func:`ok_rows`, :func:`failed_rows`), and the identity columns every report
selects by."""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd


#: the identity columns (docs/schema.md) every report selects and groups by; a paper module
#: names the config columns it reads in its own ``*_COL`` constants, and tests/test_report_columns.py
#: checks those, and what each report requires (``require_columns``), against the schema
SKETCH_COL = "sketch.name"
DATASET_COL = "dataset.name"
#: columns of the rows a sweep's redraw adds (kktheory.reproduce), not of a run's row
ERROR_KIND = "error_kind"
ERROR = "error"
CONFIG_COL = "job_config"  # the composed config of the row's job (YAML)
REPORT_COLUMNS = (ERROR_KIND, ERROR, CONFIG_COL)


def ok_rows(df: pd.DataFrame) -> pd.DataFrame:
    """Rows of runs that finished (pseudo-rows of failed jobs removed)."""
    if df.empty or ERROR_KIND not in df:
        return df
    return df[df[ERROR_KIND].isna()]


def failed_rows(df: pd.DataFrame) -> pd.DataFrame:
    """Pseudo-rows of jobs that could not run (error_kind, error and their config)."""
    if df.empty or ERROR_KIND not in df:
        return df.iloc[0:0]
    return df[df[ERROR_KIND].notna()]


def require_columns(df: pd.DataFrame, columns: Iterable[str], why: str = "") -> str | None:
    """None when all columns exist with at least one value, else a not-run reason."""
    missing = [c for c in columns if c not in df or df[c].isna().all()]
    if not missing:
        return None
    return f"column(s) {', '.join(missing)} absent from the rows" + (f" ({why})" if why else "")


def failure_summary(df: pd.DataFrame, by: str | None = None) -> str:
    """One line per distinct failure message (with how many jobs hit it)."""
    bad = failed_rows(df)
    if bad.empty:
        return ""
    counts = bad.groupby(ERROR, sort=False).size()
    return "; ".join(f"{msg} ({n} job{'s' if n > 1 else ''})" for msg, n in counts.items())


def by_seed(df: pd.DataFrame, col: str, columns: str | list[str]) -> pd.DataFrame | str:
    """Seed × cell table of ``col`` (a cell: the values of ``columns``; NaN where a run lacks
    one), the runs paired by seed; a reason (str) when the rows are not one per (seed, cell)."""
    d = df.dropna(subset=[col])
    keys = [columns] if isinstance(columns, str) else list(columns)
    dup = d.duplicated(["seed", *keys])
    if dup.any():
        return (f"{int(dup.sum())} duplicate (seed, {', '.join(keys)}) row(s): the rows are not one run per seed "
                "and cell")
    return d.pivot(index="seed", columns=columns, values=col)
