"""Any column of a results store against any axis: mean and 95 % interval over seeds per group.

    python -m kktheory.plot RESULTS x=COL y=COL [by=COL] [logx] [logy] [--out FILE] [--table]

For each group (the values of ``by``; one group without it) and each value of ``x``, the
mean of ``y`` over the runs there with its Student-t 95 % interval,
mean ± t_{r−1, 0.975}·sd/√r (r runs; with one run the point alone,
:func:`kktheory.report.stats.mean_ci`, the catalogue's own aggregation), drawn as error
bars with the number of runs r written beside each point. ``--table`` prints the same
aggregation (by, x, mean, lo, hi, runs) instead of only drawing it. The figure is written as
PNG and PDF (``--out FILE``, default ``RESULTS/plots/<y>_vs_<x>[_by_<by>].png``). Rows of
failed runs and rows without a value of ``y`` are left out; a non-numeric ``x`` (e.g.
``sketch.name``) is drawn as categories.

Columns are checked against the row schema (docs/schema.md, :mod:`kktheory.run.schema`) and the
store's own columns: an unknown column ends with one line naming the near matches
(:mod:`difflib`), exit status 2, nothing written; so does a store that does not exist or a
non-numeric ``y``. :func:`draw_groups` is the drawing that :mod:`kktheory.judge.judging` uses for a
claim's figure.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from kktheory.errors import UserError
from kktheory.report.rows import ok_rows
from kktheory.report.stats import mean_ci
from kktheory.report.style import color_marker, pyplot, save_figure

FLAGS = ("logx", "logy")
KEYS = ("x", "y", "by")


class PlotError(UserError):
    """A bad argument: one line naming the field, the value and what is allowed."""

    def __init__(self, field: str, value: object, allowed: str) -> None:
        super().__init__(f"plot error: {field}={value!r}: {allowed}")


def check_columns(rows: pd.DataFrame, names: dict[str, str]) -> None:
    """Each named column must be in the schema or in the rows (PlotError with near matches)."""
    from kktheory.run import schema

    known = set(schema.columns()) | set(rows.columns)
    for field, col in names.items():
        if col in known:
            if col not in rows or rows[col].isna().all():
                raise PlotError(field, col, "a column with values in this store (it is empty here)")
            continue
        near = difflib.get_close_matches(col, sorted(known), n=4, cutoff=0.5)
        raise PlotError(field, col, "a column of the rows (docs/schema.md)"
                        + (f"; did you mean {', '.join(near)}?" if near else ""))


def aggregate(rows: pd.DataFrame, x: str, y: str, by: str = "", level: float = 0.95) -> pd.DataFrame:
    """Mean of ``y`` per (``by``, ``x``) with its t-interval over runs (columns: by, x,
    mean, lo, hi, runs, sd)."""
    d = ok_rows(rows).dropna(subset=[y, x])
    keys = [by, x] if by else [x]
    if d.empty:
        return pd.DataFrame(columns=[*keys, "mean", "lo", "hi", "runs", "sd"])
    out = mean_ci(d, keys, y, level).rename(columns={"count": "runs"})
    return out[[*keys, "mean", "lo", "hi", "runs", "sd"]]


def _numeric(s: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(s) and not pd.api.types.is_bool_dtype(s)


def draw_groups(ax: Any, rows: pd.DataFrame, x: str, y: str, by: str = "", logx: bool = False,
                logy: bool = False, annotate: bool = True, level: float = 0.95) -> pd.DataFrame:
    """Mean ± interval of ``y`` against ``x`` per group on ``ax``, the runs per point written
    beside it; returns the aggregation. On a log axis a mean ≤ 0 is left out (it says so in
    the legend)."""
    agg = aggregate(rows, x, y, by, level)
    categorical = not agg.empty and not _numeric(agg[x])
    cats = sorted(agg[x].astype(str).unique()) if categorical else []
    groups = agg.groupby(by, sort=True) if by else [("", agg)]
    hidden = 0
    for i, (name, g) in enumerate(groups):
        g = g.sort_values(x)
        xs = g[x].astype(str).map(cats.index).to_numpy(float) if categorical else g[x].to_numpy(float)
        keep = (g["mean"] > 0).to_numpy() if logy else np.ones(len(g), bool)
        hidden += int((~keep).sum())
        color, marker = color_marker(str(name), i)
        mean, lo, hi = (g[c].to_numpy(float)[keep] for c in ("mean", "lo", "hi"))
        if logy:
            lo = np.maximum(lo, mean / 100)
        label = f"{by} = {name}" if by else y
        ax.errorbar(xs[keep], mean, yerr=[mean - lo, hi - mean], color=color, marker=marker, ms=5, capsize=3,
                    lw=1.3, label=label)
        if annotate:
            for xv, mv, r in zip(xs[keep], mean, g["runs"].to_numpy()[keep]):
                ax.annotate(f"{int(r)}", (xv, mv), textcoords="offset points", xytext=(4, 4), fontsize=7,
                            color=color)
    if hidden:
        ax.plot([], [], ls="none", label=f"{hidden} mean(s) ≤ 0 not drawn (log axis)")
    if categorical:
        ax.set_xticks(range(len(cats)))
        ax.set_xticklabels(cats, rotation=30, ha="right")
    if logx and not categorical:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel(x + (" (log scale)" if logx and not categorical else ""))
    ax.set_ylabel(y + (" (log scale)" if logy else ""))
    if len(agg):
        ax.legend(fontsize=8)
    return agg


def default_out(results: Path, x: str, y: str, by: str) -> Path:
    """RESULTS/plots/<y>_vs_<x>[_by_<by>].png (dots and slashes of column names as _)."""
    def safe(s: str) -> str:
        return s.replace("/", "_").replace(".", "_")

    return results / "plots" / (f"{safe(y)}_vs_{safe(x)}" + (f"_by_{safe(by)}" if by else "") + ".png")


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """The command line: RESULTS, then key=value and flag tokens in any order."""
    from kktheory.cli import OneLineParser

    parser = OneLineParser(prog="python -m kktheory.plot", description=__doc__.split("\n\n")[0])
    parser.add_argument("results", help="the results folder (holding runs/)")
    parser.add_argument("spec", nargs="*", help="x=COL y=COL [by=COL] [logx] [logy]")
    parser.add_argument("--out", default=None, help="the figure (PNG; a PDF is written beside it)")
    parser.add_argument("--table", action="store_true", help="print the aggregation too")
    args = parser.parse_intermixed_args(list(argv))
    for token in args.spec:
        key, eq, value = token.partition("=")
        if not eq and key in FLAGS:
            setattr(args, key, True)
        elif eq and key in KEYS and value:
            setattr(args, key, value)
        else:
            raise PlotError("argument", token, "x=COL, y=COL, by=COL, logx or logy")
    for key in KEYS:
        if not hasattr(args, key):
            setattr(args, key, "")
    for flag in FLAGS:
        if not hasattr(args, flag):
            setattr(args, flag, False)
    if not args.x or not args.y:
        raise PlotError("x" if not args.x else "y", None, "required: x=COL y=COL")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = parse(sys.argv[1:] if argv is None else argv)
        from kktheory.run.store import load

        try:
            rows = load(args.results)
        except FileNotFoundError:
            raise PlotError("RESULTS", args.results, "a results folder holding runs/ (where run.py wrote rows)") from None
        if rows.empty:
            raise PlotError("RESULTS", args.results, "a results folder with at least one row")
        cols = {k: getattr(args, k) for k in KEYS if getattr(args, k)}
        check_columns(rows, cols)
        values = pd.to_numeric(rows[args.y], errors="coerce")
        if values[ok_rows(rows).index].notna().sum() == 0:
            raise PlotError("y", args.y, "a numeric column (its values here are not numbers)")
        rows = rows.assign(**{args.y: values.astype(float)})
        if args.logx and not _numeric(rows[args.x]):
            raise PlotError("logx", args.x, "a numeric x for a log axis")
    except UserError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.6))
    agg = draw_groups(ax, rows, args.x, args.y, args.by, args.logx, args.logy)
    ax.set_title(f"{args.y} vs {args.x}" + (f" by {args.by}" if args.by else "")
                 + "\nmean ± 95% CI over runs; numbers: runs per point", fontsize=10)
    out = Path(args.out) if args.out else default_out(Path(args.results), args.x, args.y, args.by)
    out = out.with_suffix(".png")  # and the PDF beside it
    paths = save_figure(fig, out.parent, out.stem)
    if args.table:
        with pd.option_context("display.max_rows", 500, "display.width", 160):
            print(agg.drop(columns="sd").to_string(index=False))
    print(f"wrote {paths[0]} and {paths[1].name} ({int(agg['runs'].sum()) if len(agg) else 0} runs, "
          f"{len(agg)} points)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
