"""Yin, Liu, Wang & Meng (NeurIPS 2022): Fig. 1 and Table 2.

Methods, as the paper names them (row → method by :func:`method_of`):

==========================  ==================================================================
kernel k-means              exact kernel k-means (Lloyd on K), ``sketch=exact``
k-means on kernel columns   k-means on the columns k_i of K, ``sketch=kernel_columns``: the
                            target of Yin's Prop. 1 (not in the paper's figures, see below)
Gaussian                    Biau et al. 2008, G·k_i/√m, ``sketch=gaussian``
Nyström (Liu)               Nyström with m = √(nk), ``sketch=nystrom_liu``
Sub-Gaussian                Yin Alg. 1, sparse ±1/√m S, ``sketch=subgaussian``
ROS                         Yin Alg. 1, S = D·A (DCT), ``sketch=ros``
Nyström (Ours)              Yin Alg. 1, S = I, ``sketch=yin_nystrom``
==========================  ==================================================================

**The paper's quantity.** Yin's sketches run k-means on R·k_i, an approximation of the
kernel columns k_i; Prop. 1 states that k-means on the k_i is kernel k-means (eq. 6). It is
not: ‖k_i − k_j‖² = (e_i − e_j)ᵀK²(e_i − e_j), a K² geometry, where kernel k-means uses
(e_i − e_j)ᵀK(e_i − e_j). So the paper's claim "the sketches keep the accuracy of kernel
k-means" is two claims, judged apart:

1. *the sketch tracks its target*: the accuracy of each proposed sketch is that of k-means
   on the kernel columns (what Thm 2's argument through Lemma 5 is about);
2. *the target matches kernel k-means*: k-means on the kernel columns has the accuracy of
   exact kernel k-means (Prop. 1). A failure here is the paper's claim failing, not the
   sketches'.

**Margin.** Both are equivalence tests within ±``SIMILAR`` = 0.08 accuracy: the largest
difference to kernel k-means that the paper's Table 2 shows and calls "a similar accuracy"
(§5.2) — segment, Nyström (Ours) 0.42 ± 0.01 against kernel k-means 0.50 ± 0.02. The other
differences of the proposed sketches in Table 2 are 0–0.04 (mean over the eight data sets
with a kernel k-means value: Sub-Gaussian −0.015, ROS −0.009, Nyström (Ours) −0.024); the
baselines' reach 0.05 (Gaussian, segment) and 0.07 (Nyström (Liu), segment). Fig. 1's
values are not in the text, only its shape ("stable" from m = √n, "similar accuracy to
the exact kernel k-means", §5.1), so Fig. 1 is judged with the same margin.

**Speed** is judged only on a timing pass (:mod:`kktheory.timing`): the training times of
the sweep rows are drawn, never judged. The claims are §5.1 (3), "Our methods (ROS,
Sub-Gaussian, Nyström) have obvious advantages over other methods in running time", and
§5.2, "The proposed methods outperform Nytröm (Liu) and Gaussian in time cost"; no factor
is stated, and Table 2's smallest speed-up is 1.29× (dna: ROS 0.07 s against Nyström (Liu)
0.09 s), so the test is "faster": the median over the pass's paired rounds of the ratio
(time of the sketch)/(time of the fastest rival) at most 1. Training time is
``time_embed + time_cluster`` (the sketch and the clustering; loading the data and
scoring the partition are not training), in seconds.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from kktheory.report.common import (
    SKETCH_COL, DATASET_COL,
    CAUSE_INCONCLUSIVE, CAUSE_STAND_IN, Check, PaperNumber, Verdict, band, color_marker,
    failed_rows, fmt, grid_ticks, judge_checks, mean_ci, not_run, ok_rows, pyplot, require_columns,
    save_figure, sqrt_n_line,
)
from kktheory.report.decide import FAIL, Estimate, within
from kktheory.report.entry import Entry, SpeedClaim, TimingPlan

LABELS = {
    "exact": "kernel k-means",
    "kernel_columns": "k-means on kernel columns",
    "gaussian": "Gaussian",
    "nystrom_liu": "Nyström (Liu)",
    "subgaussian": "Sub-Gaussian",
    "ros": "ROS",
    "yin_nystrom": "Nyström (Ours)",
}
#: the sketches the paper proposes (its claims are about these)
PROPOSED = ("subgaussian", "ros", "yin_nystrom")
BASELINES = ("gaussian", "nystrom_liu")
#: the target of the proposed sketches (Yin Prop. 1: k-means on the kernel columns k_i)
TARGET = "kernel_columns"
ORDER = ("exact", TARGET, "gaussian", "nystrom_liu", "subgaussian", "ros", "yin_nystrom")

#: accuracy: the largest difference to kernel k-means that Yin's Table 2 calls "similar"
#: (segment: Nyström (Ours) 0.42 ± 0.01, kernel k-means 0.50 ± 0.02)
SIMILAR = 0.08
CUTOFF_S = 90.0  # Yin §5.2: a method whose training time exceeds 90 s is stopped

def method_of(df: pd.DataFrame) -> pd.Series:
    """The paper's method of each row (the sketch name)."""
    return df[SKETCH_COL].astype(str)


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


def _similar(name: str, est: Estimate, detail: str = "", cause_detail: str = "") -> Check:
    """Equivalence of an accuracy difference with 0 within ±SIMILAR (``cause_detail``
    explains a failure)."""
    decision = within(est, -SIMILAR, SIMILAR)
    return Check.of(name, decision, detail, cause_detail=cause_detail if decision.status == FAIL else "")


PROP1_FAILS = ("Yin Prop. 1: k-means on the kernel columns optimises the K² geometry ‖k_i − k_j‖², "
               "not kernel k-means")


# -- Fig. 1 ------------------------------------------------------------------------------
def draw_fig1(df: pd.DataFrame, out_dir: Path) -> list[Path]:
    """Test accuracy (mean, 95% CI) and training time (geometric mean, 95% CI on the log
    scale) vs m, over seeds; kernel k-means and its Prop. 1 target (k-means on the kernel
    columns), which do not depend on m, as horizontal lines with their bands."""
    plt = pyplot()
    d = _with_method(df)
    n = int(d["n"].iloc[0])
    fig, axes = plt.subplots(1, 2, figsize=(10.5, 4.2))
    for ax, col, ylabel in ((axes[0], "test_accuracy", "test accuracy"),
                            (axes[1], "train_time", "training time (s, log scale)")):
        for i, meth in enumerate(ORDER):
            sub = d[d["method"] == meth]
            if sub.empty:
                continue
            s = mean_ci(sub, "m", col, log=col == "train_time")
            color, marker = color_marker(meth, i)
            if meth in ("exact", TARGET):  # no m: a horizontal line with its band
                mu, lo, hi = _pooled(sub[col], log=col == "train_time")
                ax.axhline(mu, color=color, lw=1.6, ls="-" if meth == "exact" else "-.",
                           label=LABELS[meth] + (" (Prop. 1 target)" if meth == TARGET else ""))
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
    if _same_partitions(d, "ros", "yin_nystrom"):
        axes[0].text(0.98, 0.02, "ROS as printed (S = D·A on the sampled rows) is an isometry of\n"
                     "Nyström (Ours): the same accuracies, its line hides the other",
                     transform=axes[0].transAxes, ha="right", va="bottom", fontsize=7.5, color="0.3")
    axes[1].set_yscale("log")
    axes[0].set_title("(a) test accuracy")
    axes[1].set_title("(b) training time of the sweep's runs (drawn; speed is judged on a timing pass)")
    seeds = d["seed"].nunique()
    fig.suptitle(
        f"Yin et al. Fig. 1 — synthetic hypercube mixture, n = {n} train / "
        f"{int(d['n_test'].iloc[0])} test, k = {int(d['k'].iloc[0])}; 95% CI over {seeds} seed(s) "
        f"(time: geometric mean)",
        fontsize=10,
    )
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, frameon=False, bbox_to_anchor=(0.5, -0.12))
    fig.tight_layout()
    return save_figure(fig, out_dir, "yin_fig1")


def _same_partitions(d: pd.DataFrame, a: str, b: str) -> bool:
    """Whether methods a and b have the same test accuracy in every (m, seed) they share."""
    key = ["m", "seed"]
    both = d[d["method"] == a].merge(d[d["method"] == b], on=key, suffixes=("_a", "_b"))
    return bool(len(both)) and bool((both["test_accuracy_a"] == both["test_accuracy_b"]).all())


def _pooled(x: pd.Series, log: bool = False) -> tuple[float, float, float]:
    s = mean_ci(pd.DataFrame({"g": 0, "v": x.to_numpy()}), "g", "v", log=log).iloc[0]
    return float(s["mean"]), float(s["lo"]), float(s["hi"])


def _no_target(name: str) -> Check:
    return Check(name, None, "no row of k-means on the kernel columns (the Prop. 1 target): "
                             "the sweep needs yin/method=kernel_columns",
                 cause=CAUSE_INCONCLUSIVE, cause_detail="target not run")


def judge_fig1(df: pd.DataFrame) -> Verdict:
    """Yin Fig. 1 claim rule: equivalence tests within ±SIMILAR (0.08) accuracy.

    With m₀ the smallest grid m ≥ √n and m_max the largest, per proposed sketch P
    (Sub-Gaussian, ROS, Nyström (Ours)):

    1. *the sketch tracks its target*: mean test accuracy of P over all its runs at
       m ≥ √n − that of k-means on the kernel columns (Welch) in [−0.08, 0.08];
    2. *stable from √n*: accuracy of P at m_max − at m₀ (Welch) in [−0.08, 0.08] (the
       paper: from m = √n on "the accuracy of the proposed methods tends to be stable",
       i.e. larger m gives a "similar accuracy");

    and once: 3. *the target matches kernel k-means*: accuracy of k-means on the kernel
    columns − exact kernel k-means in [−0.08, 0.08]; a failure is Prop. 1 failing, the
    paper's claim, not the sketches. Speed is judged on the timing pass (``timing`` of
    the entry). Runs are the seeds; the data draw is fixed (``data_seed``), as in the
    paper, so the intervals are over the sketches' and k-means' randomness.
    """
    d = _with_method(df)
    if d.empty:
        return not_run("no row")
    if (why := require_columns(d, ["test_accuracy"])) is not None:
        return not_run(why)
    if not (d["method"] == "exact").any():
        return not_run("no exact kernel k-means row to compare with")
    present = [p for p in PROPOSED if (d["method"] == p).any()]
    if not present:
        return not_run("none of the proposed sketches (subgaussian, ros, yin_nystrom) ran")
    n = int(d["n"].iloc[0])
    acc = {meth: g["test_accuracy"] for meth, g in d.groupby("method")}
    target = acc.get(TARGET)
    tracks, stable = [], []
    seen = []
    for p in present:
        sub = d[d["method"] == p]
        big = sub[sub["m"] >= math.sqrt(n) - 1e-9]
        name = f"tracks its target: {LABELS[p]} (m ≥ √n) − {LABELS[TARGET]}"
        if big.empty:
            tracks.append(Check(name, None, f"no m ≥ √n = {math.sqrt(n):.0f} in the grid"))
            continue
        ms = sorted(big["m"].unique())
        m0, m1 = int(ms[0]), int(ms[-1])
        seen.append(f"{LABELS[p]} {fmt(big['test_accuracy'].mean())}")
        tracks.append(_no_target(name) if target is None else _similar(
            name, Estimate.difference(big["test_accuracy"], target),
            f"runs at m ∈ {{{', '.join(str(int(m)) for m in ms)}}}; margin ±{SIMILAR} (Table 2's largest "
            "difference called similar)"))
        stable.append(_similar(
            f"stable from √n: {LABELS[p]}, m = {m1} − m = {m0}",
            Estimate.difference(big.loc[big["m"] == m1, "test_accuracy"], big.loc[big["m"] == m0, "test_accuracy"]),
            f"accuracy {fmt(big.loc[big['m'] == m0, 'test_accuracy'].mean())} at m = {m0}, "
            f"{fmt(big.loc[big['m'] == m1, 'test_accuracy'].mean())} at m = {m1}"))
    name = f"target matches kernel k-means: {LABELS[TARGET]} − {LABELS['exact']}"
    matches = _no_target(name) if target is None else _similar(
        name, Estimate.difference(target, acc["exact"]), "the paper's Prop. 1 (eq. 6) says they are the same",
        PROP1_FAILS)
    observed = (f"n = {n}; test accuracy: kernel k-means {fmt(acc['exact'].mean())}, "
                + (f"{LABELS[TARGET]} {fmt(target.mean())}, " if target is not None else "")
                + f"proposed sketches at m ≥ √n: {', '.join(seen)}")
    return judge_checks([*tracks, matches, *stable], observed)


FIG1_TIMING = TimingPlan(
    method_key="yin/method",
    methods=("exact", "gaussian", "nystrom_liu", "subgaussian", "ros", "yin_nystrom"),
    fix=("seed=0", "m_sqrt_n=x1"),
    claims=tuple(
        SpeedClaim(f"faster: {LABELS[p]} (m = √n) than kernel k-means, Gaussian (m = √n) and Nyström (Liu)",
                   (p,), ("exact", "gaussian", "nystrom_liu"))
        for p in PROPOSED
    ),
    labels=LABELS,
)

FIG1 = Entry(
    name="yin_fig1",
    title="Yin et al. 2022, Fig. 1",
    claim=("on the synthetic mixture, test accuracy of the proposed sketches is stable from "
           "m = √n on and close to exact kernel k-means, and they train far faster"),
    rule=(f"equivalence tests (95% CI of a Welch difference over seeds inside ±{SIMILAR} accuracy, the "
          f"largest difference to kernel k-means that Yin's Table 2 calls similar: segment, Nyström (Ours) "
          f"0.42 vs 0.50), in two groups — the sketch tracks its target: each proposed sketch at m ≥ √n vs "
          f"k-means on the kernel columns k_i (Prop. 1's target); the target matches kernel k-means: "
          f"kernel columns vs exact (a failure is Prop. 1 failing) — and stable from √n: accuracy at the "
          f"largest m vs the first m ≥ √n; speed (\"obvious advantages over other methods in running time\", "
          f"§5.1) on a timing pass only (methods alternated in one process at the paper's n, median of the "
          f"per-round ratio to the fastest of kernel k-means, Gaussian and Nyström (Liu) ≤ 1, inconclusive "
          f"above a load of 0.75 per CPU) (kktheory/report/yin.py, judge_fig1; kktheory/timing.py)"),
    draw=draw_fig1,
    judge=judge_fig1,
    changes={
        "small": "n = 2000 train / 2000 test and 3 seeds instead of 10,000 / 10,000 and 5 repeats",
        "paper": "as the paper (10,000 / 10,000, 5 repeats); k = 10 (the paper does not state k); "
                 "m grid 0.125–4·√n; Nyström (Liu) at its own m = √(nk)",
    },
    paper_numbers=(
        PaperNumber("m from which the accuracy of the proposed sketches is stable (m = √n; the paper's figure "
                    "gives no other number)", 100, "§5.1, summary (1)"),
    ),
    timing=FIG1_TIMING,
)


# -- Table 2 -----------------------------------------------------------------------------
#: Yin Table 2's data sets in the paper's order, with the paper's instance and class counts
DATASETS = {
    "dna": (2000, 3), "segment": (2310, 7), "mushrooms": (8124, 2), "pendigits": (10992, 10),
    "protein": (17766, 3), "a8a": (32561, 2), "w7a": (49749, 2), "connect4": (67557, 3),
    "covtype": (581012, 7),
}
#: Yin Table 2 as printed: (time s, accuracy, sd) for kernel k-means, Gaussian, Nyström
#: (Liu), Sub-Gaussian, ROS, Nyström (Ours); None where the paper shows "/" (stopped)
PAPER_TABLE2 = {
    "dna": ((0.16, .50, .01), (0.12, .49, .02), (0.09, .50, .02), (0.06, .49, .01), (0.07, .50, .01), (0.04, .50, .01)),
    "segment": ((0.13, .50, .02), (0.09, .45, .03), (0.05, .43, .01), (0.03, .47, .03), (0.03, .49, .01), (0.02, .42, .01)),
    "mushrooms": ((0.56, .64, .01), (0.32, .63, .02), (0.11, .61, .01), (0.04, .63, .01), (0.04, .62, .02), (0.03, .60, .01)),
    "pendigits": ((0.61, .11, .01), (0.34, .11, .01), (0.21, .10, .02), (0.14, .11, .01), (0.16, .11, .01), (0.03, .11, .02)),
    "protein": ((5.07, .46, .01), (3.16, .44, .03), (1.09, .45, .02), (0.16, .45, .01), (0.21, .46, .01), (0.03, .44, .02)),
    "a8a": ((6.47, .75, .01), (3.21, .73, .03), (1.12, .73, .02), (0.11, .74, .01), (0.12, .74, .02), (0.03, .73, .02)),
    "w7a": ((29.7, .97, .02), (15.3, .95, .02), (1.36, .96, .01), (0.30, .94, .02), (0.36, .95, .01), (0.03, .97, .01)),
    "connect4": ((0.28, .61, .01), (0.22, .60, .03), (0.11, .59, .02), (0.05, .59, .01), (0.06, .60, .02), (0.03, .58, .02)),
    "covtype": (None, None, None, (1.02, .32, .02), (1.36, .33, .04), (0.66, .32, .03)),
}
PAPER_METHODS = ("exact", "gaussian", "nystrom_liu", "subgaussian", "ros", "yin_nystrom")


def _paper_numbers_table2() -> tuple[PaperNumber, ...]:
    out = []
    for ds, cells in PAPER_TABLE2.items():
        out.append(PaperNumber(f"{ds}: classes", DATASETS[ds][1], "Table 2", f"{ds}/classes"))
        for meth, cell in zip(PAPER_METHODS, cells):
            if cell is None:
                continue
            t, acc, sd = cell
            out.append(PaperNumber(f"{ds}: {LABELS[meth]} accuracy (± {sd:.2f} over 5 repeats)", acc, "Table 2",
                                   f"{ds}/{meth}/accuracy", (f"{ds}/majority", f"{ds}/chance")))
            out.append(PaperNumber(f"{ds}: {LABELS[meth]} training time (s; sweep rows, not judged)", t, "Table 2",
                                   f"{ds}/{meth}/time"))
    return tuple(out)


def label_rates(df: pd.DataFrame) -> pd.DataFrame:
    """One row per data draw behind the rows (data set config, n, n_test, data seed), from the
    columns each run stores about its test labels: ``majority`` (``test_majority``, the share
    of the largest class, the accuracy of putting every point in one cluster), ``classes``
    (``test_classes``) — NaN for rows computed before the runs stored them — and ``chance``
    = 1/k."""
    d = ok_rows(df)
    out = ["dataset", "majority", "classes", "chance"]
    if d.empty:
        return pd.DataFrame(columns=out)
    draws = d.drop_duplicates([c for c in d if c.startswith("dataset.") or c in ("n", "n_test", "data_seed")])
    return pd.DataFrame({
        "dataset": draws[DATASET_COL].astype(str),
        "majority": draws["test_majority"] if "test_majority" in draws else np.nan,
        "classes": draws["test_classes"] if "test_classes" in draws else np.nan,
        "chance": 1 / draws["k"],
    }, columns=out).reset_index(drop=True)


def observe_table2(df: pd.DataFrame) -> dict[str, Estimate]:
    """The quantities of Table 2 here: accuracy and training time per (data set, method),
    mean over runs; classes, majority-class rate (mean over the data draws) and chance
    (1/k) of each data set."""
    d = _with_method(df)
    out: dict[str, Estimate] = {}
    if d.empty:
        return out
    for (ds, meth), g in d.groupby([DATASET_COL, "method"]):
        out[f"{ds}/{meth}/accuracy"] = Estimate.mean_of(g["test_accuracy"])
        if "train_time" in g:
            out[f"{ds}/{meth}/time"] = Estimate.mean_of(g["train_time"])
    for ds, g in label_rates(df).groupby("dataset"):
        out[f"{ds}/chance"] = Estimate.known(float(g["chance"].iloc[0]), 0.0)
        if g["majority"].notna().any():  # rows computed before the runs stored their classes have none
            out[f"{ds}/majority"] = Estimate.mean_of(g["majority"].dropna())
            out[f"{ds}/classes"] = Estimate.known(float(g["classes"].max()), 0.0)
    return out


def table2_cells(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (data set, method): mean/sd of training time and accuracy, or why not.

    ``status`` is ``ok``, ``cutoff`` (mean training time above 90 s, shown "—" as in the
    paper; drawn only: speed is judged on the timing pass), ``memory`` (refused by the
    memory budget, "—"), ``missing`` (data not on this machine) or ``failed`` (another error).
    """
    out = []
    d = _with_method(df)
    bad = failed_rows(df)
    keys = set()
    if not d.empty:
        keys |= set(zip(d[DATASET_COL], d["method"]))
    if not bad.empty:
        keys |= set(zip(bad[DATASET_COL], bad[SKETCH_COL].astype(str)))
    for ds, meth in sorted(keys):
        rows = d[(d[DATASET_COL] == ds) & (d["method"] == meth)] if not d.empty else d
        fails = bad[(bad[DATASET_COL] == ds) & (bad[SKETCH_COL].astype(str) == meth)] if not bad.empty else bad
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


def table2_text(cells: pd.DataFrame, latex: bool, rates: pd.DataFrame | None = None) -> str:
    """Yin Table 2 as Markdown or LaTeX: time (s) and accuracy (mean ± sd) per method, with
    the majority-class rate of the test labels and 1/k beside each data set."""
    methods = [m for m in ORDER if m in set(cells["method"])]
    datasets = _order_datasets(cells["dataset"].unique())
    rate = {} if rates is None or rates.empty else {
        ds: g[["majority", "chance"]].mean() for ds, g in rates.groupby("dataset")}
    lines = []
    if latex:
        lines += [r"\begin{tabular}{lrrrrr" + "rr" * len(methods) + "}", r"\toprule",
                  "Dataset & Instance & $n$ (train) & Class & Majority & $1/k$ & " + " & ".join(
                      rf"\multicolumn{{2}}{{c}}{{{LABELS[m]}}}" for m in methods) + r" \\",
                  " & & & & & & " + " & ".join("Time & Accuracy" for _ in methods) + r" \\", r"\midrule"]
    else:
        lines += ["| Dataset | Instance (paper) | n train (here) | Class | majority (test labels) | 1/k | "
                  + " | ".join(f"{LABELS[m]} time (s) | {LABELS[m]} accuracy" for m in methods) + " |",
            "|---|---|---|---|---|---|" + "---|---|" * len(methods)]
    notes = []
    for ds in datasets:
        sub = cells[cells["dataset"] == ds]
        ok = sub[sub["status"] == "ok"]
        inst, klass = (str(v) for v in DATASETS.get(ds, ("?", "?")))
        n_here = str(int(ok["n"].iloc[0])) if len(ok) else "—"
        r = rate.get(ds)
        row = [ds.replace("_", r"\_") if latex else ds, inst, n_here, klass,
               *(f"{r[c]:.3f}" if r is not None and np.isfinite(r[c]) else "—" for c in ("majority", "chance"))]
        for m in methods:
            c = sub[sub["method"] == m]
            row += list(_cell_text(c.iloc[0] if len(c) else None, latex))
        lines.append((" & ".join(row) + r" \\") if latex else ("| " + " | ".join(row) + " |"))
        if not len(ok) and len(why := sub.loc[sub["status"].isin(["missing", "failed"]), "why"]):
            notes.append(f"{ds}: {why.iloc[0]}")
    if latex:
        lines += [r"\bottomrule", r"\end{tabular}"]
    foot = (f"Time: training time in seconds (sketch + clustering), mean over the sweep's runs (drawn, not "
            f"judged: speed is judged on the timing pass); accuracy: test accuracy, mean ± sd. Majority: "
            f"share of the largest class in the test labels (the accuracy of a single cluster; — for rows "
            f"computed before the runs stored it, test_majority); 1/k: chance. "
            f"k-means on kernel columns: the target of Yin's Prop. 1, not in the paper. — : training time "
            f"above {CUTOFF_S:.0f} s or refused by the memory budget (as the paper's cut-off). n/a: not run "
            f"(reason below).")
    if latex:
        lines += ["% " + foot] + [f"% {n}" for n in notes]
    else:
        lines += ["", foot] + [f"- {n}" for n in notes]
    return "\n".join(lines) + "\n"


def draw_table2(df: pd.DataFrame, out_dir: Path) -> list[Path]:
    """yin_table2.md and yin_table2.tex."""
    cells = table2_cells(df)
    rates = label_rates(df)
    out_dir.mkdir(parents=True, exist_ok=True)
    md, tex = out_dir / "yin_table2.md", out_dir / "yin_table2.tex"
    md.write_text("# Yin et al. 2022, Table 2 (reproduced)\n\n" + table2_text(cells, False, rates))
    tex.write_text(table2_text(cells, True, rates))
    return [md, tex]


def judge_table2(df: pd.DataFrame) -> Verdict:
    """Yin Table 2 claim rule ("these methods give a similar accuracy as the exact kernel
    k-means", §5.2): equivalence tests within ±SIMILAR (0.08) of averages over data sets.

    A per-data-set difference is the Welch difference of the runs' test accuracies; an
    average over the data sets where both methods ran has the standard error of the
    average of independent estimates (:meth:`Estimate.average`). The sketches' check is
    averaged because the paper's own table has a cell at its largest difference (segment,
    Nyström (Ours) −0.08): "similar accuracy" is the table's claim, not every cell's. Two
    groups:

    1. *the sketch tracks its target*, per proposed sketch P: average of acc(P) − acc(k-means
       on the kernel columns) in [−0.08, 0.08];
    2. *the target matches kernel k-means*, per data set: acc(k-means on the kernel columns)
       − acc(kernel k-means) in [−0.08, 0.08] — Prop. 1 is an identity the paper asserts
       for every data set, so it is tested on each (a failure is the paper's claim failing).

    Speed ("outperform Nyström (Liu) and Gaussian in time cost") is judged on the timing
    pass (``timing`` of the entry), never on the rows' times. Data sets the paper uses
    whose files are not on this machine make one inconclusive check (cause *stand-in
    data*): the claim is judged on the others only.
    """
    cells = table2_cells(df)
    if cells.empty or not (cells["status"] != "missing").any() or _with_method(df).empty:
        return not_run("no data set ran")
    if (why := require_columns(ok_rows(df), ["test_accuracy"])) is not None:
        return not_run(why)
    d = _with_method(df)
    acc = {key: g["test_accuracy"] for key, g in d.groupby([DATASET_COL, "method"])}
    datasets = _order_datasets(d[DATASET_COL].unique())

    def pairs(a: str, b: str) -> tuple[list[Estimate], str]:
        ests, texts = [], []
        for ds in datasets:
            if (ds, a) in acc and (ds, b) in acc:
                e = Estimate.difference(acc[(ds, a)], acc[(ds, b)])
                ests.append(e)
                texts.append(f"{ds} {e.value:+.3f}")
        return ests, f"average over {len(ests)} data set(s) ({', '.join(texts)})"

    checks: list[Check] = []
    for p in PROPOSED:
        if not (d["method"] == p).any():
            continue
        name = f"tracks its target: {LABELS[p]} − {LABELS[TARGET]}"
        ests, text = pairs(p, TARGET)
        checks.append(_similar(name, Estimate.average(ests), text) if ests else _no_target(name))
    name = f"target matches kernel k-means: {LABELS[TARGET]} − {LABELS['exact']}"
    both = [ds for ds in datasets if (ds, TARGET) in acc and (ds, "exact") in acc]
    checks += [_similar(f"{name} [{ds}]", Estimate.difference(acc[(ds, TARGET)], acc[(ds, "exact")]),
                        "the paper's Prop. 1 (eq. 6) says they are the same", PROP1_FAILS) for ds in both]
    if not both:
        checks.append(_no_target(name))
    absent = [ds for ds in _order_datasets(cells["dataset"].unique()) if ds not in set(datasets)]
    no_data = [ds for ds in absent if (cells.loc[cells["dataset"] == ds, "status"] == "missing").any()]
    if no_data:
        checks.append(Check(
            "data sets of the paper not run", None,
            f"{', '.join(no_data)}: data not on this machine; accuracy and speed are judged on "
            f"{', '.join(datasets)} only (covtype's claim, the proposed methods finishing where the others "
            f"cannot, is not checked without it)",
            cause=CAUSE_STAND_IN, cause_detail=f"{', '.join(no_data)} not available offline",
        ))
    if other := [ds for ds in absent if ds not in no_data]:
        why = "; ".join(f"{ds}: {cells.loc[cells['dataset'] == ds, 'why'].iloc[0]}" for ds in other)
        checks.append(Check("data sets not run", None, why, cause=CAUSE_INCONCLUSIVE,
                            cause_detail=f"{', '.join(other)} not run here"))
    observed = f"data sets run: {', '.join(datasets)}"
    if absent:
        observed += f"; not run: {', '.join(absent)}"
    return judge_checks(checks, observed)


TABLE2_TIMING = TimingPlan(
    method_key="yin/method",
    methods=(*BASELINES, *PROPOSED),
    fix=("seed=0",),
    group=DATASET_COL,
    cutoff_s=CUTOFF_S,
    claims=(SpeedClaim("faster: Sub-Gaussian, ROS and Nyström (Ours) than Gaussian and Nyström (Liu)",
                       PROPOSED, BASELINES),),
    labels=LABELS,
)

TABLE2 = Entry(
    name="yin_table2",
    title="Yin et al. 2022, Table 2",
    claim=("on nine LIBSVM data sets the proposed sketches (m = 150) match the accuracy of "
           "kernel k-means and train faster than Gaussian and Nyström (Liu)"),
    rule=(f"equivalence tests on Welch differences of test accuracy, 95% CI inside ±{SIMILAR} (the largest "
          f"difference to kernel k-means that the paper's Table 2 calls similar: segment, Nyström (Ours) 0.42 vs "
          f"0.50), in two groups — the sketch tracks its target: each proposed sketch vs k-means on the kernel "
          f"columns (Prop. 1's target), averaged over data sets; the target matches kernel k-means: kernel "
          f"columns vs exact on each data set (a failure is Prop. 1 failing); speed (\"outperform Nyström (Liu) "
          f"and Gaussian in time cost\", §5.2) per data set on a timing pass only (median per-round ratio of the "
          f"slowest proposed sketch to the fastest baseline ≤ 1; a baseline stopped at {CUTOFF_S:.0f} s counts as "
          f"slower; inconclusive above a load of 0.75 per CPU); data sets not on this machine: inconclusive, "
          f"stand-in data (kktheory/report/yin.py, judge_table2; kktheory/timing.py)"),
    draw=draw_table2,
    judge=judge_table2,
    changes={
        "small": "training sets subsampled to n = 1400 (test 600) and 2 repeats instead of 70 % of "
                 "each data set and 5 repeats",
        "paper": "70/30 split of each data set as in the paper, 5 repeats; data sets not on this "
                 "machine are not run",
    },
    paper_numbers=_paper_numbers_table2(),
    observe=observe_table2,
    timing=TABLE2_TIMING,
)

ENTRIES = [FIG1, TABLE2]
