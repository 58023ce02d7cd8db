"""Statistics over seeds: confidence intervals (:func:`mean_ci`, Student t), rank
correlation, the standard error of a difference, and numbers as INDEX.md prints them."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats


def mean_ci(
    df: pd.DataFrame, by: str | Sequence[str], col: str, level: float = 0.95, log: bool = False
) -> pd.DataFrame:
    """Mean of ``col`` per group with a Student-t confidence interval over the runs.

    Returns columns ``by…, mean, sd, se, count, lo, hi``; with one run the interval is
    the point itself (no spread is claimed). ``log=True`` (positive quantities such as
    times, drawn on log axes): the geometric mean with the interval computed on log
    values and mapped back (``sd`` and ``se`` then refer to the logs).
    """
    keys = [by] if isinstance(by, str) else list(by)
    if log:
        d = df.dropna(subset=[col])
        d = d[d[col] > 0].assign(**{col: lambda x: np.log(x[col])})
        out = mean_ci(d, keys, col, level)
        for c in ("mean", "lo", "hi"):
            out[c] = np.exp(out[c])
        return out
    g = df.dropna(subset=[col]).groupby(keys, sort=True)[col]
    out = g.agg(mean="mean", sd="std", count="count").reset_index()
    out["sd"] = out["sd"].fillna(0.0)
    out["se"] = out["sd"] / np.sqrt(out["count"])
    q = np.array([stats.t.ppf(0.5 + level / 2, c - 1) if c > 1 else 0.0 for c in out["count"]])
    out["lo"] = out["mean"] - q * out["se"]
    out["hi"] = out["mean"] + q * out["se"]
    return out


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman rank correlation (nan with fewer than 3 distinct points)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if len(x) < 3 or np.unique(x).size < 3:
        return float("nan")
    return float(stats.spearmanr(x, y).statistic)


def diff_se(se_a: float, se_b: float) -> float:
    """Standard error of a difference of two independent means."""
    return float(math.hypot(se_a, se_b))


def fmt(x: float, digits: int = 3) -> str:
    """A number for INDEX.md with ``digits`` significant digits (— for nan)."""
    if x is None or not np.isfinite(x):
        return "—"
    return f"{x:,.0f}" if abs(x) >= 10**digits else f"{x:.{digits}g}"
