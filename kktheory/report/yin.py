"""Yin, Liu, Wang & Meng (NeurIPS 2022): Fig. 1 and Table 2.

Methods, as the paper names them (row → method by :func:`method_of`):

=================  ==========================================================
kernel k-means     exact kernel k-means (Lloyd on K), ``sketch=exact``
Gaussian           Biau et al. 2008, G·k_i/√m, ``sketch=gaussian``
Nyström (Liu)      Nyström with m = √(nk), ``sketch=nystrom_liu``
Sub-Gaussian       Yin Alg. 1, sparse ±1/√m S, ``sketch=subgaussian``
ROS                Yin Alg. 1, S = D·A (DCT), ``sketch=ros``
Nyström (Ours)     Yin Alg. 1, S = I, ``sketch=yin_nystrom``
=================  ==========================================================

Training time is ``time_embed + time_cluster`` (the sketch and the clustering; loading
the data and scoring the partition are not training), in seconds.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from kktheory.report import Entry
from kktheory.report.common import (
    Check, Verdict, band, color_marker, failed_rows, fmt, grid_ticks, judge_checks, mean_ci, not_run,
    ok_rows, pyplot, require_columns, save_figure, sqrt_n_line,
)

LABELS = {
    "exact": "kernel k-means",
    "gaussian": "Gaussian",
    "nystrom_liu": "Nyström (Liu)",
    "subgaussian": "Sub-Gaussian",
    "ros": "ROS",
    "yin_nystrom": "Nyström (Ours)",
}
#: the sketches the paper proposes (its claims are about these)
PROPOSED = ("subgaussian", "ros", "yin_nystrom")
BASELINES = ("gaussian", "nystrom_liu")
ORDER = ("exact", "gaussian", "nystrom_liu", "subgaussian", "ros", "yin_nystrom")

ACC_TOL = 0.03  # accuracy points: "stable" spread and "close to exact" gap (fig. 1)
SPEEDUP = 2.0  # proposed sketches at m = √n at least this much faster than exact
TABLE_ACC_TOL = 0.05  # per (data set, method) accuracy gap to exact in Table 2
TABLE_MEAN_TOL = 0.03  # mean accuracy gap to exact over Table 2
TABLE_SHARE = 0.8  # share of (data set, method) pairs that must satisfy a table check
CUTOFF_S = 90.0  # Yin §5.2: a method whose training time exceeds 90 s is stopped


def method_of(df: pd.DataFrame) -> pd.Series:
    """The paper's method of each row (the sketch name)."""
    return df["sketch.name"].astype(str)


def train_time(df: pd.DataFrame) -> pd.Series:
    """Training time in seconds: sketch + clustering."""
    return df["time_embed"].astype(float) + df["time_cluster"].astype(float)


def _with_method(df: pd.DataFrame) -> pd.DataFrame:
    out = ok_rows(df).copy()
    if out.empty:
        return out
    out["method"] = method_of(out)
    if {"time_embed", "time_cluster"} <= set(out.columns):
        out["train_time"] = train_time(out)
    return out


# -- Fig. 1 ------------------------------------------------------------------------------
def draw_fig1(df: pd.DataFrame, out_dir: Path) -> list[Path]:
    """Test accuracy (mean, 95% CI) and training time (geometric mean, 95% CI on the log
    scale) vs m, over seeds."""
    plt = pyplot()
    d = _with_method(df)
    n = int(d["n"].iloc[0])
    fig, axes = plt.subplots(1, 2, figsize=(10.5, 4.0))
    for ax, col, ylabel in ((axes[0], "test_accuracy", "test accuracy"),
                            (axes[1], "train_time", "training time (s, log scale)")):
        for i, meth in enumerate(ORDER):
            sub = d[d["method"] == meth]
            if sub.empty:
                continue
            s = mean_ci(sub, "m", col, log=col == "train_time")
            color, marker = color_marker(meth, i)
            if meth == "exact":  # no m: a horizontal line with its band
                mu, lo, hi = _pooled(sub[col], log=col == "train_time")
                ax.axhline(mu, color=color, lw=1.6, label=LABELS[meth])
                ax.axhspan(lo, hi, color=color, alpha=0.12, lw=0)
            elif len(s) == 1:  # Nyström (Liu) at its own m = √(nk)
                band(ax, s["m"].to_numpy(), s, f"{LABELS[meth]} (m = √(nk))", meth, i, errorbars=True)
            else:
                band(ax, s["m"].to_numpy(), s, LABELS[meth], meth, i)
        sqrt_n_line(ax, n)
        ax.set_xscale("log")
        grid_ticks(ax, d["m"].unique())
        ax.set_xlabel("sketch dimension m (log scale)")
        ax.set_ylabel(ylabel)
    axes[1].set_yscale("log")
    axes[0].set_title("(a) test accuracy")
    axes[1].set_title("(b) training time")
    seeds = d["seed"].nunique()
    fig.suptitle(
        f"Yin et al. Fig. 1 — synthetic hypercube mixture, n = {n} train / "
        f"{int(d['n_test'].iloc[0])} test, k = {int(d['k'].iloc[0])}; 95% CI over {seeds} seed(s) "
        f"(time: geometric mean)",
        fontsize=10,
    )
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, frameon=False, bbox_to_anchor=(0.5, -0.1))
    fig.tight_layout()
    return save_figure(fig, out_dir, "yin_fig1")


def _pooled(x: pd.Series, log: bool = False) -> tuple[float, float, float]:
    s = mean_ci(pd.DataFrame({"g": 0, "v": x.to_numpy()}), "g", "v", log=log).iloc[0]
    return float(s["mean"]), float(s["lo"]), float(s["hi"])


def judge_fig1(df: pd.DataFrame) -> Verdict:
    """Yin Fig. 1 claim rule.

    For each proposed sketch P (sub-Gaussian, ROS, Nyström (Ours)), with mean test
    accuracy over seeds per m:

    1. stable from √n on: max − min of the mean accuracy over the grid points m ≥ √n is
       at most ACC_TOL (0.03);
    2. close to exact: |mean accuracy of P at every m ≥ √n − mean accuracy of exact kernel
       k-means| ≤ ACC_TOL;
    3. far faster: P's training time at the smallest grid m ≥ √n is at most
       1/SPEEDUP (½) of exact kernel k-means' and below Gaussian's at that m and
       Nyström (Liu)'s (whichever of them ran). Times are geometric means over seeds
       (robust to a run slowed down by other load on the machine).

    Reproduced when every check passes for every proposed sketch present.
    """
    d = _with_method(df)
    if d.empty:
        return not_run("no row")
    if (why := require_columns(d, ["test_accuracy", "time_embed", "time_cluster"])) is not None:
        return not_run(why)
    if not (d["method"] == "exact").any():
        return not_run("no exact kernel k-means row to compare with")
    present = [p for p in PROPOSED if (d["method"] == p).any()]
    if not present:
        return not_run("none of the proposed sketches (subgaussian, ros, yin_nystrom) ran")
    n = int(d["n"].iloc[0])
    exact = d[d["method"] == "exact"]
    acc_exact = float(exact["test_accuracy"].mean())
    t_exact = _pooled(exact["train_time"], log=True)[0]
    checks: list[Check] = []
    for p in present:
        s = mean_ci(d[d["method"] == p], "m", "test_accuracy")
        t = mean_ci(d[d["method"] == p], "m", "train_time", log=True)
        big = s[s["m"] >= math.sqrt(n) - 1e-9]
        if big.empty:
            checks.append(Check(f"{LABELS[p]} grid", False, f"no m ≥ √n = {math.sqrt(n):.0f} in the grid"))
            continue
        spread = float(big["mean"].max() - big["mean"].min())
        checks.append(Check(
            f"{LABELS[p]} stable for m ≥ √n", spread <= ACC_TOL,
            f"accuracy {fmt(big['mean'].min())}–{fmt(big['mean'].max())} over m ∈ "
            f"{{{', '.join(str(int(m)) for m in big['m'])}}} (spread {fmt(spread)}, tolerance {ACC_TOL})",
        ))
        gap = float((big["mean"] - acc_exact).abs().max())
        checks.append(Check(
            f"{LABELS[p]} close to exact", gap <= ACC_TOL,
            f"largest |accuracy − exact {fmt(acc_exact)}| for m ≥ √n = {fmt(gap)} (tolerance {ACC_TOL})",
        ))
        m0 = float(big["m"].min())
        tp = float(t.loc[t["m"] == m0, "mean"].iloc[0])
        rivals = {"exact": t_exact / SPEEDUP}
        for b in BASELINES:
            tb = d[d["method"] == b]
            if tb.empty:
                continue
            same_m = tb[tb["m"] == m0]
            rivals[b] = _pooled((same_m if not same_m.empty else tb)["train_time"], log=True)[0]
        slower = [LABELS[b] for b, tb in rivals.items() if not tp < tb]
        checks.append(Check(
            f"{LABELS[p]} faster", not slower,
            f"{fmt(tp)} s at m = {int(m0)} vs kernel k-means {fmt(t_exact)} s"
            + "".join(f", {LABELS[b]} {fmt(v)} s" for b, v in rivals.items() if b != "exact")
            + (f"; not faster than: {', '.join(slower)}" if slower else ""),
        ))
    return judge_checks(checks, f"n = {n}, exact kernel k-means accuracy {fmt(acc_exact)}, "
                                f"training time {fmt(t_exact)} s")


FIG1 = Entry(
    name="yin_fig1",
    title="Yin et al. 2022, Fig. 1",
    claim=("on the synthetic mixture, test accuracy of the proposed sketches is stable from "
           "m = √n on and close to exact kernel k-means, and they train far faster"),
    rule=(f"per proposed sketch (sub-Gaussian, ROS, Nyström (Ours)): spread of mean test accuracy "
          f"over grid m ≥ √n ≤ {ACC_TOL}; |accuracy − exact| ≤ {ACC_TOL} at every m ≥ √n; "
          f"training time at the first m ≥ √n ≤ 1/{SPEEDUP:g} of exact's and below Gaussian's "
          f"(same m) and Nyström (Liu)'s (kktheory/report/yin.py, judge_fig1)"),
    draw=draw_fig1,
    judge=judge_fig1,
    changes={
        "small": "n = 2000 train / 2000 test and 3 seeds instead of 10,000 / 10,000 and 5 repeats",
        "paper": "as the paper (10,000 / 10,000, 5 repeats); k = 10 (the paper does not state k); "
                 "m grid 0.125–4·√n; Nyström (Liu) at its own m = √(nk)",
    },
)


# -- Table 2 -----------------------------------------------------------------------------
#: Yin Table 2's data sets in the paper's order, with the paper's instance and class counts
DATASETS = {
    "dna": (2000, 3), "segment": (2310, 7), "mushrooms": (8124, 2), "pendigits": (10992, 10),
    "protein": (17766, 3), "a8a": (32561, 2), "w7a": (49749, 2), "connect4": (67557, 3),
    "covtype": (581012, 7),
}


def table2_cells(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (data set, method): mean/sd of training time and accuracy, or why not.

    ``status`` is ``ok``, ``cutoff`` (mean training time above 90 s, shown "—" as in the
    paper), ``memory`` (refused by the memory budget, "—"), ``missing`` (data not on this
    machine) or ``failed`` (another error).
    """
    out = []
    d = _with_method(df)
    bad = failed_rows(df)
    keys = set()
    if not d.empty:
        keys |= set(zip(d["dataset.name"], d["method"]))
    if not bad.empty:
        keys |= set(zip(bad["dataset.name"], bad["sketch.name"].astype(str)))
    for ds, meth in sorted(keys):
        rows = d[(d["dataset.name"] == ds) & (d["method"] == meth)] if not d.empty else d
        fails = bad[(bad["dataset.name"] == ds) & (bad["sketch.name"].astype(str) == meth)] if not bad.empty else bad
        cell = {"dataset": ds, "method": meth, "runs": len(rows), "time": np.nan, "time_sd": np.nan,
                "accuracy": np.nan, "accuracy_sd": np.nan, "n": np.nan, "k": np.nan, "why": ""}
        if len(rows):
            cell.update(
                time=rows["train_time"].mean(), time_sd=rows["train_time"].std(ddof=1),
                accuracy=rows["test_accuracy"].mean(), accuracy_sd=rows["test_accuracy"].std(ddof=1),
                n=int(rows["n"].iloc[0]), k=int(rows["k"].iloc[0]),
            )
            cell["status"] = "cutoff" if cell["time"] > CUTOFF_S else "ok"
        elif len(fails):
            kind = str(fails["error_kind"].iloc[0])
            cell["why"] = str(fails["error"].iloc[0])
            cell["status"] = {"MemoryBudgetError": "memory", "DataError": "missing"}.get(kind, "failed")
        out.append(cell)
    return pd.DataFrame(out)


def _order_datasets(names) -> list[str]:
    known = [d for d in DATASETS if d in set(names)]
    return known + sorted(set(names) - set(known))


def _cell_text(c: pd.Series | None, latex: bool) -> tuple[str, str]:
    if c is None:
        return "", ""
    if c["status"] in ("cutoff", "memory"):
        return "—", "—"
    if c["status"] != "ok":
        return "n/a", "n/a"
    pm = r"$\pm$" if latex else "±"
    acc = f"{c['accuracy']:.2f}" + (f"{pm}{c['accuracy_sd']:.2f}" if np.isfinite(c["accuracy_sd"]) else "")
    return f"{c['time']:.2f}", acc


def table2_text(cells: pd.DataFrame, latex: bool) -> str:
    """Yin Table 2 as Markdown or LaTeX: time (s) and accuracy (mean ± sd) per method."""
    methods = [m for m in ORDER if m in set(cells["method"])]
    datasets = _order_datasets(cells["dataset"].unique())
    lines = []
    if latex:
        lines += [r"\begin{tabular}{lrrr" + "rr" * len(methods) + "}", r"\toprule",
                  "Dataset & Instance & $n$ (train) & Class & " + " & ".join(
                      rf"\multicolumn{{2}}{{c}}{{{LABELS[m]}}}" for m in methods) + r" \\",
                  " & & & & " + " & ".join("Time & Accuracy" for _ in methods) + r" \\", r"\midrule"]
    else:
        lines += ["| Dataset | Instance (paper) | n train (here) | Class | " + " | ".join(
            f"{LABELS[m]} time (s) | {LABELS[m]} accuracy" for m in methods) + " |",
            "|---|---|---|---|" + "---|---|" * len(methods)]
    notes = []
    for ds in datasets:
        sub = cells[cells["dataset"] == ds]
        ok = sub[sub["status"] == "ok"]
        inst, klass = (str(v) for v in DATASETS.get(ds, ("?", "?")))
        n_here = str(int(ok["n"].iloc[0])) if len(ok) else "—"
        row = [ds.replace("_", r"\_") if latex else ds, inst, n_here, klass]
        for m in methods:
            c = sub[sub["method"] == m]
            row += list(_cell_text(c.iloc[0] if len(c) else None, latex))
        lines.append((" & ".join(row) + r" \\") if latex else ("| " + " | ".join(row) + " |"))
        missing = sub[sub["status"] == "missing"]
        if len(missing):
            notes.append(f"{ds}: {missing['why'].iloc[0]}")
    if latex:
        lines += [r"\bottomrule", r"\end{tabular}"]
    foot = (f"Time: training time in seconds (sketch + clustering), mean over runs; accuracy: "
            f"test accuracy, mean ± sd. — : training time above {CUTOFF_S:.0f} s or refused by the "
            f"memory budget (as the paper's cut-off). n/a: not run (reason below).")
    if latex:
        lines += ["% " + foot] + [f"% {n}" for n in notes]
    else:
        lines += ["", foot] + [f"- {n}" for n in notes]
    return "\n".join(lines) + "\n"


def draw_table2(df: pd.DataFrame, out_dir: Path) -> list[Path]:
    """yin_table2.md and yin_table2.tex."""
    cells = table2_cells(df)
    out_dir.mkdir(parents=True, exist_ok=True)
    md, tex = out_dir / "yin_table2.md", out_dir / "yin_table2.tex"
    md.write_text("# Yin et al. 2022, Table 2 (reproduced)\n\n" + table2_text(cells, latex=False))
    tex.write_text(table2_text(cells, latex=True))
    return [md, tex]


def judge_table2(df: pd.DataFrame) -> Verdict:
    """Yin Table 2 claim rule, on the cells of :func:`table2_cells`.

    1. similar accuracy: over the (data set, proposed method) pairs where both the method
       and exact kernel k-means have a value, |accuracy − exact| ≤ TABLE_ACC_TOL (0.05) for
       at least TABLE_SHARE (80 %) of the pairs, and the mean gap ≤ TABLE_MEAN_TOL (0.03);
    2. faster than the baselines: for at least 80 % of the (data set, proposed method)
       pairs, the training time is below that of Gaussian and Nyström (Liu) on the same
       data (a baseline shown "—" counts as slower);
    3. (covtype only, when its rows exist) the proposed methods finish under the cut-off.

    Data sets whose files are missing are left out and listed. (The paper's own Table 2
    satisfies this rule: 23/24 pairs within 0.05, mean gap 0.016; every pair faster.)
    """
    cells = table2_cells(df)
    if cells.empty or not (cells["status"] == "ok").any():
        return not_run("no data set ran")
    missing = sorted(set(cells.loc[cells["status"] == "missing", "dataset"]))
    ok = cells[cells["status"] == "ok"]
    checks: list[Check] = []
    gaps = []
    faster = []
    for ds in _order_datasets(cells["dataset"].unique()):
        sub = cells[cells["dataset"] == ds]
        ex = sub[(sub["method"] == "exact") & (sub["status"] == "ok")]
        for p in PROPOSED:
            c = sub[(sub["method"] == p) & (sub["status"] == "ok")]
            if c.empty:
                continue
            if len(ex):
                gaps.append((ds, p, abs(float(c["accuracy"].iloc[0]) - float(ex["accuracy"].iloc[0]))))
            rivals = sub[sub["method"].isin(BASELINES)]
            if len(rivals):
                t = float(c["time"].iloc[0])
                beats = all(r["status"] in ("cutoff", "memory") or (r["status"] == "ok" and t < r["time"])
                            for _, r in rivals.iterrows() if r["status"] != "missing")
                faster.append((ds, p, beats))
    if gaps:
        g = np.array([x[2] for x in gaps])
        share = float(np.mean(g <= TABLE_ACC_TOL))
        worst = max(gaps, key=lambda x: x[2])
        checks.append(Check(
            "accuracy similar to kernel k-means",
            share >= TABLE_SHARE and float(g.mean()) <= TABLE_MEAN_TOL,
            f"{int((g <= TABLE_ACC_TOL).sum())}/{len(g)} pairs within {TABLE_ACC_TOL}, mean gap "
            f"{fmt(float(g.mean()))} (≤ {TABLE_MEAN_TOL}), worst {worst[0]}/{LABELS[worst[1]]} {fmt(worst[2])}",
        ))
    if faster:
        f = np.array([x[2] for x in faster])
        slow = [f"{ds}/{LABELS[p]}" for ds, p, b in faster if not b]
        checks.append(Check(
            "faster than Gaussian and Nyström (Liu)", float(f.mean()) >= TABLE_SHARE,
            f"{int(f.sum())}/{len(f)} pairs faster" + (f"; not faster: {', '.join(slow)}" if slow else ""),
        ))
    if "covtype" in set(ok["dataset"]):
        cov = cells[(cells["dataset"] == "covtype") & cells["method"].isin(PROPOSED)]
        checks.append(Check("covtype: proposed methods finish", bool((cov["status"] == "ok").all()),
                            ", ".join(f"{LABELS[r.method]} {r.status}" for r in cov.itertuples())))
    observed = f"data sets run: {', '.join(_order_datasets(ok['dataset'].unique()))}"
    if missing:
        observed += f"; not run (data not on this machine): {', '.join(missing)}"
    return judge_checks(checks, observed)


TABLE2 = Entry(
    name="yin_table2",
    title="Yin et al. 2022, Table 2",
    claim=("on nine LIBSVM data sets the proposed sketches (m = 150) match the accuracy of "
           "kernel k-means and train faster than Gaussian and Nyström (Liu)"),
    rule=(f"|accuracy − kernel k-means| ≤ {TABLE_ACC_TOL} for ≥ {TABLE_SHARE:.0%} of (data set, "
          f"proposed method) pairs and mean gap ≤ {TABLE_MEAN_TOL}; proposed faster than both "
          f"baselines for ≥ {TABLE_SHARE:.0%} of pairs; — when training exceeds {CUTOFF_S:.0f} s "
          f"or the memory budget (kktheory/report/yin.py, judge_table2)"),
    draw=draw_table2,
    judge=judge_table2,
    changes={
        "small": "training sets subsampled to n = 1400 (test 600) and 2 repeats instead of 70 % of "
                 "each data set and 5 repeats",
        "paper": "70/30 split of each data set as in the paper, 5 repeats; data sets not on this "
                 "machine are not run",
    },
)

ENTRIES = [FIG1, TABLE2]
