"""Yin et al. 2022, Table 2.

The catalogue entry ``yin_table2``: its checks declared before the data, its drawing, its
setting check and its judgement. What it shares with Yin et al.'s other entries is in
:mod:`kktheory.report.yin`.

The accuracy claim ("these methods give a similar accuracy as the exact kernel k-means",
§5.2) is said of Table 2, whose cells are data sets: it is judged per (sketch, data set), on
the seeds' paired differences, within ±0.10 (:data:`CLOSE_MARGIN`). Until 2026-11-27 it was
averaged over the data sets, which let ties elsewhere dilute dna's −0.20 and segment's −0.12;
re-declared after those rows were seen, the per-data-set checks count only seeds ≥ 10
(:data:`FRESH_FROM`). A data set on which kernel k-means is no better than one cluster (a8a)
or every method ties with it (mushrooms) cannot tell "close" from "uninformative" — any
sketch passes there — so its checks are shown as controls, not counted
(:data:`UNINFORMATIVE`). The four data sets of the paper whose files are not on this
machine (protein, w7a, connect-4, covtype) are a limitation stated under the entry's scale,
with the command that runs them where the files are (:data:`LIMITATION`), not a check.

ROS and Nyström (Ours) give equal rows seed by seed (:data:`~kktheory.report.yin.IDENTITY`;
the committed rows agree on every (data set, seed) both ran), so where they do, each accuracy
check is made once, "ROS ≡ Nyström (Ours)" (:func:`_one_arm`): a quantity counted once. The
one check stands for both declared rules, which keep their two places in Holm's family, so it
decides exactly what the two declared checks decided (a family of the distinct checks would
be a change of the rules after their rows were seen). Their speed claims stay one per method.

"Close to kernel k-means" is relative to kernel k-means; on every data set here kernel k-means
lies outside the setting check's tolerance of Table 2's (0.76 against 0.50 on dna; 0.72
against 0.11 on pendigits) and no bandwidth reading tried reaches the paper's baselines (the
Setting line). A failure of it there is caused *setting* (:func:`_kernel_kmeans_differs`), not
counted against the paper; Prop. 1 (an identity asserted for every data set) and the speed
claims do not rest on that baseline, and their failures stay the paper's.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
import numpy as np
import pandas as pd
from kktheory.report.claims import EQUIVALENT, Design, Margin, Rule
from kktheory.report.verdicts import CAUSE_INCONCLUSIVE, CAUSE_SETTING, Check, Verdict, judge_checks, not_run
from kktheory.report.paper_numbers import PaperNumber
from kktheory.report.rows import SKETCH_COL, DATASET_COL, by_seed, failed_rows, ok_rows, require_columns
from kktheory.report.decide import LEVEL, Estimate
from kktheory.report.stats import fmt
from kktheory.report.entry import Entry, SpeedClaim, TimingPlan
from kktheory.report.yin import (
    AS_PRINTED, FASTER_WHY, IDENTITY, ISOMETRIC, ISOMETRIC_LABEL, LABELS, LIU_READING, ORDER, PAPER_RUNS, PLAN_SD, PLAN_SD_SOURCE, PROP1_FAILS, PROP1_RULE, PROP1_SHOWN, PROPOSED, SIMILAR, SIMILAR_MARGIN, TARGET, TIMING_ROUNDS, TIMING_SD, TIMING_SD_SOURCE, _check, _no_target, _with_method,
)


BASELINES = ("gaussian", "nystrom_liu")


CUTOFF_S = 90.0  # Yin §5.2: a method whose training time exceeds 90 s is stopped


TABLE2_M = 150  # §5.2: "m = 150"


#: Yin Table 2's time ratio (proposed / baseline) on the data set least favourable to the
#: proposed sketch (protein … covtype are all more favourable), the design's effect
TABLE2_RATIO = {
    ("subgaussian", "gaussian"): (0.50, "dna 0.06 / 0.12 s"), ("subgaussian", "nystrom_liu"): (0.67, "dna 0.06 / 0.09 s"),
    ("ros", "gaussian"): (0.58, "dna 0.07 / 0.12 s"), ("ros", "nystrom_liu"): (0.78, "dna 0.07 / 0.09 s"),
    ("yin_nystrom", "gaussian"): (0.33, "dna 0.04 / 0.12 s"), ("yin_nystrom", "nystrom_liu"): (0.44, "dna 0.04 / 0.09 s"),
}


def _table2_claim(p: str, b: str) -> SpeedClaim:
    ratio, where = TABLE2_RATIO[(p, b)]
    return SpeedClaim(
        f"faster: {LABELS[p]} (m = 150) than {LABELS[b]}" + (" (m = √(nk))" if b == "nystrom_liu" else " (m = 150)"),
        (p,), (b,), 1.0, FASTER_WHY, "Yin §5.2: 'the proposed methods outperform Nytröm (Liu) and Gaussian in "
                                    "time cost'", ratio, TIMING_SD, _rounds(ratio),
        f"the paper's least favourable ratio, Table 2 {where}; {TIMING_SD_SOURCE}"
        + ("; the pass's 10 rounds give power 0.79, 12 reach 0.8 (python -m kktheory.timing --rounds 12)"
           if _rounds(ratio) > TIMING_ROUNDS else ""), reading=LIU_READING if b == "nystrom_liu" else "")


def _rounds(ratio: float) -> int:
    """Rounds at which a claim with the paper's ratio reaches power 0.8 (10, the pass's
    default, for every ratio below 0.75; 12 for ROS against Nyström (Liu), 0.78)."""
    return TIMING_ROUNDS if ratio < 0.75 else 12


TABLE2_CLAIMS = tuple(_table2_claim(p, b) for p in PROPOSED for b in BASELINES)


TABLE2_CONTROLS = tuple(
    SpeedClaim(f"control: {LABELS[p]} than Nyström (Liu) at equal m = 150", (p,), ("nystrom_liu_m150",),
                 1.0, "the same bound as the claim, at equal m: whether the speed difference is the method's or m's",
                 "issue 32: Nyström (Liu) runs at m = √(nk) = 65 / 107 / 107 on dna / segment / mushrooms, below 150",
                 TABLE2_RATIO[(p, "nystrom_liu")][0], TIMING_SD, _rounds(TABLE2_RATIO[(p, "nystrom_liu")][0]),
                 f"as the claim against Nyström (Liu); {TIMING_SD_SOURCE}", control=True, reading=LIU_READING)
    for p in PROPOSED)


#: what the clock can resolve: the cost of timing itself and the fixed cost of the smallest job
TIMER_FLOOR = ("timer floor (measured once here, 2026-11-25, one thread): a perf_counter pair costs 60 ns; one "
               "fit of the smallest job, the pass's own call on 60 dna points (Nyström (Liu), m = 14), takes "
               "0.006 s (median of 11; 0.004 s at best): the pass's times of 0.015–0.05 s on dna and segment are "
               "only 2.5–8× that fixed cost and measure overhead (Python, k-means++ restarts) as much as the "
               "methods")


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


# -- accuracy checks, one per (sketch, data set); re-declared 2026-11-27 ------------------
#: "close to kernel k-means" and "tracks its target" were averaged over the data sets until
#: this date, after the committed seeds had been seen (0–4; 0–9 of pendigits' kernel k-means
#: and target): re-declared per data set, they judge only the seeds run after it, from the
#: first seed above the sweep's largest committed one (Rule.fresh_from)
DECLARED = "2026-11-27"
FRESH_FROM = 10

#: §5.2's claim, of Table 2 (a table of data sets: the claim is made of each)
SIMILAR_QUOTE = ("'From the above results, we can find that these methods give a similar accuracy as the exact "
                 "kernel k-means' (Yin §5.2, of Table 2)")

#: the paper's own 95 % interval around the largest difference it calls similar (segment,
#: Nyström (Ours) 0.42 ± 0.01 against kernel k-means 0.50 ± 0.02, 5 repeats each)
_SEGMENT_SE = math.sqrt(0.01**2 + 0.02**2) / math.sqrt(PAPER_RUNS)  # 0.0100

CLOSE_MARGIN = Margin(
    0.10, f"§5.2 calls every cell of Table 2 similar ({SIMILAR_QUOTE}), the largest gap among them segment's "
          f"Nyström (Ours) 0.42 ± 0.01 against kernel k-means 0.50 ± 0.02; the margin is the far end of the paper's "
          f"own 95 % interval for that gap, 0.08 + 1.96·√(0.01² + 0.02²)/√5 = {0.08 + 1.96 * _SEGMENT_SE:.4f} ≈ 0.10, "
          f"so that each cell the paper calls similar can pass (a margin of 0.08, the cell's own value, could not)",
    "Yin §5.2; Table 2, segment: Nyström (Ours) 0.42 ± 0.01, kernel k-means 0.50 ± 0.02, 5 repeats")
CLOSE = CLOSE_MARGIN.value

#: the data sets of Table 2 with a kernel k-means value (covtype's is "/", stopped)
CLOSE_DATASETS = tuple(ds for ds, cells in PAPER_TABLE2.items() if cells[0] is not None)

#: the data sets of the paper whose LIBSVM files are not on this machine
#: (../shared/datasets/README.md): a stated limitation of the entry, not a check
OFFLINE = ("protein", "w7a", "connect4", "covtype")

#: the data sets of the paper that were run here, whose rows were seen before the declaration
SEEN = tuple(ds for ds in DATASETS if ds not in OFFLINE)

#: A data set on which kernel k-means does no better than one cluster, or on which every
#: method ties with it, baselines included, cannot tell "close" from "uninformative" — any
#: sketch passes there, so its checks are shown as controls, not counted. Decided on the rows
#: seen before the declaration (seeds 0–4):
UNINFORMATIVE = {
    "mushrooms": "every method ties, the baselines included (Gaussian, 0.2 below kernel k-means on dna): 0.893 "
                 "in every seed 0–4, no per-seed difference above 0.0012 — a check that every embedding passes "
                 "cannot tell a sketch that keeps the kernel's clusters from one that does not",
    "a8a": "kernel k-means is below the majority rate of the test labels (0.712 against 0.759, seeds 0–4) and "
           "every method ties with it (per-seed differences ≤ 0.004): being close to a partition no better than "
           "one cluster shows nothing (the paper's own a8a row, 0.73–0.75, sits at that rate too)",
}

#: the same in a few words, for the check lines
UNINFORMATIVE_SHORT = {"mushrooms": "every method ties, baselines included (0.893)",
                       "a8a": "kernel k-means below the majority rate, every method tied with it"}

#: sd over seeds of the per-seed difference (sketch − kernel k-means, sketch − k-means on the
#: kernel columns) on the committed rows seen before the declaration
#: (paper_figs/rows/yin_table2.parquet, seeds 0–4), rounded up to 0.001
SEEN_PAIRED_SD = {
    ("dna", "subgaussian"): (0.028, 0.019), ("dna", "ros"): (0.021, 0.027), ("dna", "yin_nystrom"): (0.021, 0.027),
    ("segment", "subgaussian"): (0.023, 0.036), ("segment", "ros"): (0.016, 0.031),
    ("segment", "yin_nystrom"): (0.016, 0.031),
    ("pendigits", "subgaussian"): (0.062, 0.027), ("pendigits", "ros"): (0.044, 0.007),
    ("pendigits", "yin_nystrom"): (0.044, 0.007),
}

#: seeds at which each counted design reaches power 0.8 (Rule.runs_for_power, exact; at least
#: the paper's 5 repeats): (close, tracks) per (data set, sketch); tracks only where the target fits
DESIGN_RUNS = {
    ("dna", "subgaussian"): (5, 5), ("dna", "ros"): (5, 5), ("dna", "yin_nystrom"): (5, 5),
    ("segment", "subgaussian"): (5, 5), ("segment", "ros"): (5, 5), ("segment", "yin_nystrom"): (13, 5),
    ("pendigits", "subgaussian"): (7, 5), ("pendigits", "ros"): (5, 5), ("pendigits", "yin_nystrom"): (5, 5),
    ("protein", "subgaussian"): (5, None), ("protein", "ros"): (5, None), ("protein", "yin_nystrom"): (5, None),
    ("w7a", "subgaussian"): (5, None), ("w7a", "ros"): (5, None), ("w7a", "yin_nystrom"): (5, None),
    ("connect4", "subgaussian"): (5, None), ("connect4", "ros"): (5, None), ("connect4", "yin_nystrom"): (5, None),
}


#: the data sets of Table 2 on which k-means on the kernel columns fits the memory budget
#: (three n × n arrays; a8a and larger are refused, experiments/yin_table2.yaml)
TARGET_DATASETS = ("dna", "segment", "mushrooms", "pendigits")


def _round_up(x: float) -> float:
    return math.ceil(x * 1000 - 1e-9) / 1000


def _paper_gap(ds: str, p: str) -> tuple[float, float]:
    """Table 2's own acc(p) − acc(kernel k-means) on ``ds`` and the sd of one repeat's
    difference from its printed sds, taken as independent (the paper prints no pairing)."""
    e, c = PAPER_TABLE2[ds][0], PAPER_TABLE2[ds][PAPER_METHODS.index(p)]
    return round(c[1] - e[1], 2), _round_up(math.hypot(c[2], e[2]))


PAIRING = "paired by seed (a seed's methods share its 70/30 split and test labels)"


def _role(ds: str) -> dict:
    """What a per-data-set rule on ``ds`` is: a control (uninformative), a re-declared check
    judged on fresh seeds (rows seen before the declaration) or one declared before any row."""
    if ds in UNINFORMATIVE:
        return {"control": True, "selection": f"shown, not counted, on every seed: {UNINFORMATIVE[ds]}"}
    if ds in SEEN:
        return {"fresh_from": FRESH_FROM, "declared": DECLARED, "selection": ""}
    return {"selection": f"declared {DECLARED} before any row of {ds} was seen (its files are not on this "
                         f"machine): every seed counts"}


def _paired_rule(ds: str, p: str, tracks: bool) -> Rule:
    """The equivalence rule of sketch ``p`` on ``ds`` against kernel k-means ("close to kernel
    k-means", ``tracks`` False: Table 2's own gap as the design's effect) or against its target,
    k-means on the kernel columns ("tracks its target", ``tracks`` True: effect 0, Thm 2's
    argument) — both the mean over seeds of the per-seed difference (:data:`PAIRING`) within
    ±:data:`CLOSE`, their design's sd the larger of the paper's printed sds combined as
    independent and the spread on the seeds seen before the declaration (:data:`SEEN_PAIRED_SD`)."""
    lab = LABELS[p]
    role = _role(ds)
    which = int(tracks)
    design = None
    if not role.get("control"):
        gap, sd_paper = _paper_gap(ds, p)
        sd_seen = SEEN_PAIRED_SD.get((ds, p), (0.0, 0.0))[which]
        sd, runs = max(sd_paper, sd_seen), DESIGN_RUNS[(ds, p)][which]
        source = (f"Thm 2's argument (Lemma 5: R·k_i preserves the k_i), effect 0; sd {sd:g} of a per-seed "
                  f"difference, the larger of Table 2's printed sds on {ds} combined as independent "
                  f"({sd_paper:g}; the target's taken as kernel k-means', Prop. 1) and the spread on the "
                  f"committed seeds 0–4 ({sd_seen:g}); {runs} seeds reach power 0.8 (at least the paper's 5)"
                  if tracks else
                  f"Table 2's own difference on {ds}, {gap:+.2f}; sd {sd:g} of a per-seed difference, the larger of "
                  f"the paper's printed sds combined as independent ({sd_paper:g}) and the spread on the "
                  f"committed seeds 0–4 ({sd_seen:g})" + ("" if sd_seen else ", none here") + f"; {runs} seeds "
                  f"reach power 0.8 (at least the paper's 5 repeats)")
        design = Design("paired", 0.0 if tracks else gap, -CLOSE, (sd,), runs, source)
    if tracks:
        name, against = f"tracks its target: {lab} − {LABELS[TARGET]} [{ds}]", "k-means on the kernel columns"
        selection = (f"m = {TABLE2_M}; {ds} alone, one check per (sketch, data set), {PAIRING}; the target's three "
                     f"n × n arrays fit on {', '.join(TARGET_DATASETS)}; the margin of 'close to kernel k-means' "
                     f"(Prop. 1 makes the target kernel k-means, so the paper's own cells must pass this check too); "
                     f"judges Remark 1's m ≈ √n, not Thm 2's m = Ω(n log n)")
    else:
        name, against = f"close to kernel k-means: {lab} − {LABELS['exact']} [{ds}]", "exact kernel k-means"
        selection = (f"m = {TABLE2_M} (§5.2); {ds} alone — §5.2's claim is made of Table 2, whose cells are data "
                     f"sets, so one check per (sketch, data set); {PAIRING}")
    return Rule(
        name, f"test accuracy of {lab} − that of {against} on {ds}, mean over seeds of the per-seed difference "
              f"({PAIRING}), Student t", EQUIVALENT, CLOSE_MARGIN, design,
        selection=selection + (f"; {role['selection']}" if role["selection"] else ""),
        control=role.get("control", False), fresh_from=role.get("fresh_from"), declared=role.get("declared", ""),
        part=(f"{DATA_AXIS}={ds}",))


#: the sweep axis of the data set (experiments/yin_table2.yaml): a per-data-set check reads its value's jobs
DATA_AXIS = "yin_table2/data"


#: per (data set, proposed sketch): "close to kernel k-means" (every data set with a kernel
#: k-means value in Table 2) and "tracks its target" (where the target fits in memory)
CLOSE_RULES = {(ds, p): _paired_rule(ds, p, tracks=False) for ds in CLOSE_DATASETS for p in PROPOSED}
TRACKS_RULES = {(ds, p): _paired_rule(ds, p, tracks=True) for ds in TARGET_DATASETS for p in PROPOSED}


def _prop1_rule(ds: str) -> Rule:
    """Prop. 1 on ``ds``: k-means on the kernel columns against exact kernel k-means, paired by
    seed (both arms run on a seed's split: :data:`PAIRING`), within ±:data:`SIMILAR`; the
    design's per-seed sd is √2 times Table 2's kernel k-means sd on ``ds`` (at least 0.01;
    :data:`PLAN_SD` where Table 2 has none) — the two arms taken as independent, the largest a
    positive correlation of a seed's arms allows."""
    cell = PAPER_TABLE2[ds][0]
    sd = max(cell[2], 0.01) if cell else PLAN_SD
    source = (f"the paper's Prop. 1 (eq. 6): the same, effect 0; sd per run "
              + (f"{cell[2]:.2f}, kernel k-means on {ds} in Table 2" if cell else PLAN_SD_SOURCE)
              + f", a per-seed difference's sd √2·{sd:g} (the arms independent); {PAPER_RUNS} repeats")
    return Rule(f"target matches kernel k-means: {LABELS[TARGET]} − {LABELS['exact']} [{ds}]",
                f"acc(k-means on the kernel columns) − acc(kernel k-means) on {ds}, mean over seeds of the per-seed "
                f"difference ({PAIRING}), Student t", EQUIVALENT, SIMILAR_MARGIN,
                Design("paired", 0.0, -SIMILAR, (round(math.sqrt(2) * sd, 4),), PAPER_RUNS, source),
                selection=f"Prop. 1 is an identity the paper asserts for every data set: one check per data set; "
                          f"{PROP1_SHOWN}", part=(f"{DATA_AXIS}={ds}",), value_range=(-1.0, 1.0), control=True)


TABLE2_PROP1 = {ds: _prop1_rule(ds) for ds in DATASETS}


#: the paper's data sets not on this machine, and how to run them where their files are
OFFLINE_FILES = {"protein": "protein and protein.t", "w7a": "w7a and w7a.t", "connect4": "connect-4",
                 "covtype": "covtype.scale"}
LIMITATION = (
    f"covers {len(SEEN)} of the paper's 9 sets ({', '.join(SEEN)}); not run here, a stated limitation and not a "
    f"check: {', '.join(OFFLINE)} — their LIBSVM files are not on this machine (../shared/datasets/README.md). Where "
    f"they exist, put {'; '.join(OFFLINE_FILES.values())} (raw, .bz2 or .gz) in the data folder's libsvm/ "
    f"(../shared/datasets/libsvm/ by default, or any <folder>/libsvm/ named by KKTHEORY_DATA) and run "
    f"`KKTHEORY_DATA=<folder> python -m kktheory.reproduce yin_table2 --scale paper yin_table2/data="
    f"{','.join(OFFLINE)}` (the loaders name each missing file and its LIBSVM address; "
    f"kktheory/datasets/libsvm.py); their accuracy checks are declared (close to kernel k-means on protein, w7a "
    f"and connect4: every seed counts; covtype has no kernel k-means value) and so is Prop. 1 on each; covtype's "
    f"own claim — the proposed sketches finish where the others are stopped — is judged by the timing pass "
    f"only where its file is")


def _paired_check(rule: Rule, d: pd.DataFrame, ds: str, a: str, b: str, paper: str, level: float,
                  fails: str = "", cause: str = "") -> Check:
    """``rule`` on the per-seed differences acc(a) − acc(b) on ``ds`` (:meth:`Estimate.paired`),
    over the seeds the rule may judge (:meth:`Rule.fresh`): the seeds seen before a
    re-declaration are shown, never judged; with none after it, the check waits for them
    (undecided, with the design's seed count)."""
    rows = d[(d[DATASET_COL] == ds) & d["method"].isin([a, b])]
    table = by_seed(rows, "test_accuracy", "method")
    if isinstance(table, str):
        return Check(rule.name, None, table, cause=CAUSE_INCONCLUSIVE, cause_detail="no pairing by seed", rule=rule)
    both = table.reindex(columns=[a, b]).dropna()
    judged = both[both.index.isin(rule.fresh(both.reset_index())["seed"])]
    seen = both.drop(judged.index)
    notes = []
    if len(seen):
        diff = seen[a] - seen[b]
        notes.append(f"seen before it, not judged: seeds {_seeds(seen.index)}, mean {diff.mean():+.3f}")
    notes.append(paper)
    if judged.empty:
        return rule.awaiting(level, notes="; ".join(notes))
    est = Estimate.paired(judged[a].to_numpy(), judged[b].to_numpy())
    head = f"paired over {len(judged)} seed(s) {_seeds(judged.index)}"
    if rule.control:
        head += f"; shown, not counted: {UNINFORMATIVE_SHORT.get(ds, 'uninformative')}"
    return _check(rule, est, "; ".join([head, *notes]), level, fails=fails, cause=cause)


def isometric_gap(d: pd.DataFrame, ds: str) -> tuple[float, int]:
    """The largest |test accuracy of ROS − of Nyström (Ours)| over the seeds both ran on ``ds``,
    and how many (nan and 0 when they share none): 0 by :data:`~kktheory.report.yin.IDENTITY`."""
    on = d[d[DATASET_COL] == ds]
    a, b = (on[on["method"] == p].set_index("seed")["test_accuracy"] for p in ISOMETRIC)
    common = a.index.intersection(b.index)
    return (float((a[common] - b[common]).abs().max()) if len(common) else math.nan), len(common)


def _one_arm(by_sketch: dict[str, Check], d: pd.DataFrame, ds: str, paper: dict[str, str] | None = None
             ) -> list[Check]:
    """The checks of one group on ``ds``, one per proposed sketch, with ROS's and Nyström
    (Ours)'s made one check "ROS ≡ Nyström (Ours)" when their rows on ``ds`` are equal on every
    seed both ran (:data:`~kktheory.report.yin.IDENTITY`: a quantity counted once). The one
    check keeps both declared rules' places in Holm's family (``also``: Nyström (Ours)'s rule),
    so it decides exactly what the two declared checks decided; rows that differ keep both.
    ``paper``: Table 2's difference per sketch as the checks quote it ("the paper's Table 2:
    −0.08"); the one check quotes both cells, which the paper prints apart."""
    pair = [by_sketch.get(p) for p in ISOMETRIC]
    rest = [c for p, c in by_sketch.items() if p not in ISOMETRIC]
    gap, shared = isometric_gap(d, ds)
    on = d[d[DATASET_COL] == ds]
    ran = [set(on.loc[on["method"] == p, "seed"]) for p in ISOMETRIC]
    same = None not in pair and all(  # the same test on the same seeds: only the sketch's name differs
        getattr(pair[0].rule, f) == getattr(pair[1].rule, f) for f in ("shape", "margin", "fresh_from", "control"))
    if not same or not shared or gap != 0 or ran[0] != ran[1] or pair[0].runs != pair[1].runs:
        return [*rest, *(c for c in pair if c is not None)]
    ros, detail = pair[0], pair[0].detail
    if paper:
        detail = detail.replace(f"the paper's Table 2: {paper['ros']}", f"the paper's Table 2: {LABELS['ros']} "
                                f"{paper['ros']}, {LABELS['yin_nystrom']} {paper['yin_nystrom']}")
    return [*rest, replace(ros, name=ros.name.replace(LABELS["ros"], ISOMETRIC_LABEL, 1), also=(pair[1].rule,),
                           detail=f"{detail}; one check for both: equal test accuracy on all {shared} seeds "
                                  f"both ran on {ds} ({LABELS['ros']}'s S = D·A is orthogonal on the rows "
                                  f"{LABELS['yin_nystrom']} samples), in Holm's family twice, as declared")]


def _seeds(index) -> str:
    s = sorted(int(x) for x in index)
    return f"{s[0]}–{s[-1]}" if len(s) > 1 and s[-1] - s[0] == len(s) - 1 else ", ".join(map(str, s))


CLOSE_FAILS = "Yin §5.2: 'these methods give a similar accuracy as the exact kernel k-means'"
CLOSE_SETTING = ("'close to kernel k-means' is judged here against a kernel k-means the paper's setting does not "
                 "reach, and no reading tried reaches the paper's (Setting): the failure is in our setting, not "
                 "shown of the paper's")
#: the same for a pass (declared 2026-12-07, after the rows were seen: it takes passes out of the count, never
#: makes one): closeness to a baseline the paper does not have does not carry over to the paper's, either way
CLOSE_PASSES = ("'close to kernel k-means' is judged here against a kernel k-means the paper's setting does not "
                "reach: a pass holds in our setting only, as a failure would")


def _baseline(cells: pd.DataFrame, ds: str, meth: str) -> tuple[float, float, float] | None:
    """A baseline's test accuracy on ``ds`` here, Table 2's, and the setting check's tolerance
    (twice Table 2's printed sd of the cell); None where either is missing."""
    paper = PAPER_TABLE2.get(ds, [None] * len(PAPER_METHODS))[PAPER_METHODS.index(meth)]
    c = cells[(cells["status"] == "ok") & (cells["dataset"] == ds) & (cells["method"] == meth)] if len(cells) else cells
    if paper is None or c.empty:
        return None
    return float(c["accuracy"].iloc[0]), paper[1], 2 * paper[2]


def _kernel_kmeans_differs(cells: pd.DataFrame, ds: str) -> str:
    """What differs when kernel k-means' test accuracy on ``ds`` lies outside the setting
    check's tolerance of Table 2's (:func:`setting_table2`), else ''. "Close to kernel k-means"
    is a claim relative to that baseline: where the baseline is not the paper's, a failure of
    it is attributed to the setting (*setting*), not to the paper."""
    b = _baseline(cells, ds, "exact")
    if b is None or abs(b[0] - b[1]) <= b[2]:
        return ""
    return f"kernel k-means {b[0]:.3f} here vs {b[1]:.2f} ± {b[2]:.2f} in Table 2 on {ds}"


def judge_table2(df: pd.DataFrame, level: float = LEVEL) -> Verdict:
    """Yin Table 2 claim rule ("these methods give a similar accuracy as the exact kernel
    k-means", §5.2): the declared rules :data:`CLOSE_RULES`, :data:`TRACKS_RULES` and
    :data:`TABLE2_PROP1` (speed: the timing pass, :data:`TABLE2_TIMING`).

    The claim is made of Table 2, whose cells are data sets: each check is one (sketch, data
    set). The methods of one seed share its 70/30 split and its test labels (``data_seed`` is
    the seed; the committed rows agree in ``test_majority`` within each (data set, seed)), so
    a difference between two methods is the Student-t mean of the per-seed differences. Three
    groups:

    1. *close to kernel k-means*, per (proposed sketch P, data set with a kernel k-means value
       in Table 2): acc(P) − acc(kernel k-means) in ±0.10 (:data:`CLOSE_MARGIN`: the far end of
       the paper's own 95 % interval around the largest gap it calls similar);
    2. *tracks its target*, per (P, data set where the target fits in memory): acc(P) −
       acc(k-means on the kernel columns) in ±0.10 (Thm 2's argument);
    3. *the target matches kernel k-means*, per data set: acc(kernel columns) − acc(kernel
       k-means) in ±0.08, paired by seed — Prop. 1 (a failure is the paper's claim failing).

    Groups 1 and 2 were averaged over the data sets until 2026-11-27, after the committed seeds
    were seen; re-declared per data set, they count only seeds ≥ :data:`FRESH_FROM`
    (:meth:`~kktheory.report.claims.Rule.fresh`), and show the seeds seen before, unjudged.
    A data set that cannot tell "close" from "uninformative" — kernel k-means no better than one
    cluster (a8a), or every method tied with it, baselines included (mushrooms) — has its
    checks shown as controls, not counted (:data:`UNINFORMATIVE`: any sketch passes there).
    The paper's data sets whose files are not on this machine are a stated limitation
    (:data:`LIMITATION`), not a check: the observed text says how many sets the verdict covers.
    """
    cells = table2_cells(df)
    if cells.empty or not (cells["status"] != "missing").any() or _with_method(df).empty:
        return not_run("no data set ran")
    if (why := require_columns(ok_rows(df), ["test_accuracy"])) is not None:
        return not_run(why)
    d = _with_method(df)
    have = set(zip(d[DATASET_COL], d["method"]))
    datasets = _order_datasets(d[DATASET_COL].unique())

    close, tracks = [], []
    for ds in datasets:
        close_ds, tracks_ds, papers = {}, {}, {}
        for p in PROPOSED:
            if (ds, p) not in have:
                continue
            if (ds, p) in CLOSE_RULES and (ds, "exact") in have:
                gap = _paper_gap(ds, p)[0]
                differs = _kernel_kmeans_differs(cells, ds)
                papers[p] = f"{gap:+.2f}"
                close_ds[p] = _paired_check(CLOSE_RULES[(ds, p)], d, ds, p, "exact",
                                            f"the paper's Table 2: {papers[p]}", level,
                                            fails=f"{differs}: {CLOSE_SETTING}" if differs else CLOSE_FAILS,
                                            cause=CAUSE_SETTING if differs else "")
                if differs and close_ds[p].passed:  # as its failure, its pass is in our setting only
                    close_ds[p] = replace(close_ds[p], cause=CAUSE_SETTING, cause_detail=f"{differs}: {CLOSE_PASSES}")
            if (ds, p) in TRACKS_RULES:
                rule = TRACKS_RULES[(ds, p)]
                tracks_ds[p] = (_paired_check(rule, d, ds, p, TARGET, "Thm 2's argument: 0", level)
                                if (ds, TARGET) in have else _no_target(rule))
        close += _one_arm(close_ds, d, ds, papers)
        tracks += _one_arm(tracks_ds, d, ds)
    both = [ds for ds in datasets if (ds, TARGET) in have and (ds, "exact") in have]
    prop1 = [_paired_check(TABLE2_PROP1[ds], d, ds, TARGET, "exact", "the paper's Prop. 1 (eq. 6) says they are "
                           "the same", level, fails=PROP1_FAILS) for ds in both if ds in TABLE2_PROP1]
    if not both:
        prop1.append(_no_target(PROP1_RULE))
    close = [_prop1_mechanism(c, prop1) for c in close]
    checks: list[Check] = [*close, *tracks, *prop1]
    if not checks:
        return not_run("no proposed sketch ran beside kernel k-means")
    return judge_checks(checks, _coverage(cells, datasets, d), level)


def _coverage(cells: pd.DataFrame, datasets: list[str], d: pd.DataFrame) -> str:
    """The observed text's first line: how many of the paper's sets the verdict covers, which
    are not run and why (those not on this machine: the limitation, not a check), and the
    fresh seeds behind the re-declared checks."""
    paper = [ds for ds in DATASETS if ds in set(datasets)]
    absent = [ds for ds in DATASETS if ds not in set(datasets)]
    text = f"covers {len(paper)} of the paper's 9 sets ({', '.join(paper)})"
    if absent:
        offline = [ds for ds in absent if ds in OFFLINE]
        other = [ds for ds in absent if ds not in OFFLINE]
        parts = []
        if offline:
            parts.append(f"{', '.join(offline)}: files not on this machine, a stated limitation, not a check (Scale "
                         f"says how to run them where the files are)")
        for ds in other:
            why = cells.loc[(cells["dataset"] == ds) & (cells["why"] != ""), "why"] if len(cells) else []
            parts.append(f"{ds}: {why.iloc[0] if len(why) else 'no rows'}")
        text += "; not run here: " + "; ".join(parts)
    fresh = sorted(int(s) for s in d.loc[d["seed"] >= FRESH_FROM, "seed"].unique())
    text += (f"; the per-data-set accuracy checks, declared {DECLARED} after seeds 0–{FRESH_FROM - 1} were seen, "
             f"judge seeds ≥ {FRESH_FROM} only: " + (f"{len(fresh)} so far ({_seeds(fresh)})" if fresh else "none yet"))
    if controls := [ds for ds in UNINFORMATIVE if ds in set(datasets)]:
        text += (f"; shown, not counted: {', '.join(controls)} (kernel k-means no better than one cluster, or every "
                 f"method tied with it)")
    return text


#: readings of §5.2's bandwidth and of the data tried against the paper's absolute numbers
#: (exact kernel k-means test accuracy; small probes, 2026-11-25; kktheory's runs for the
#: first four, a plain kernel k-means with k-means++ for the others, 2 seeds each)
SETTING_READINGS = (
    "Readings tried (exact kernel k-means test accuracy, dna / segment / mushrooms / pendigits, 2 seeds each; "
    "paper 0.50 / 0.50 / 0.64 / 0.11): σ² = Σ_ij‖x_i − x_j‖²/n as printed (kktheory's bandwidth=yin, "
    "exp(−d²/σ²)) 0.78 / 0.67 / 0.89 / 0.77; normalised by n² (bandwidth=yin_n2) 0.72 / 0.68 / 0.89 / 0.67; "
    "each with rows scaled to unit ℓ2 norm 0.72 / 0.68 / 0.89 / 0.72 and 0.73 / 0.67 / 0.89 / 0.68; σ not "
    "squared (exp(−d²/σ)) 0.69 / 0.57 / 0.71 / 0.66; σ² taken as a precision (exp(−σ²d²), K ≈ I) 0.53 / 0.14 "
    "/ 0.52 / 0.10, i.e. every test point in one cluster (the majority share: 0.525 / 0.143 / 0.518 / 0.104) — "
    "this last reading matches pendigits (0.11) and is near dna (0.50) and a8a's majority (0.759 vs 0.75) "
    "but not segment (0.50) or mushrooms (0.64); no reading reproduces the paper's absolute numbers, so no "
    "variant is offered and the relative claims are judged in the setting as printed")


def _prop1_mechanism(check: Check, prop1: list[Check]) -> Check:
    """A failed "close to kernel k-means" check on a data set where the paper's Prop. 1 fails
    too (k-means on the kernel columns, the sketches' target, away from kernel k-means) names
    that mechanism beside its cause: the method's own target, not the sketch, loses the gap."""
    ds = check.name.rsplit("[", 1)[-1].rstrip("]")
    failed = next((c for c in prop1 if c.passed is False and c.name.endswith(f"[{ds}]") and c.decision is not None),
                  None)
    if check.passed is not False or failed is None:
        return check
    return replace(check, cause_detail="; ".join(x for x in (check.cause_detail, (
        f"the gap is where the paper's Prop. 1 fails: the sketches track their target, k-means on the kernel columns "
        f"('tracks its target'), which lies {fmt(failed.decision.estimate.value, 2)} from kernel k-means on {ds} "
        f"(Prop. 1 ✗)")) if x))


def setting_table2(df: pd.DataFrame) -> str:
    """Yin Table 2's setting check: the baselines' test accuracy (kernel k-means, Gaussian,
    Nyström (Liu)) against the paper's, per data set, with tolerance twice the paper's own
    printed sd of that cell (the spread of one of its repeats; two sds cover a repeat's
    value with ≈ 95 %); a data set matches when every baseline's mean lies within it."""
    cells = table2_cells(df)
    ok = cells[cells["status"] == "ok"] if len(cells) else cells
    parts, matched = [], []
    for ds in _order_datasets(ok["dataset"].unique() if len(ok) else []):
        if ds not in PAPER_TABLE2:
            continue
        bits, fine = [], True
        for meth in ("exact", "gaussian", "nystrom_liu"):
            if (b := _baseline(ok, ds, meth)) is None:
                continue
            here, paper, tol = b
            fine &= abs(here - paper) <= tol
            bits.append(f"{LABELS[meth]} {here:.3f} vs {paper:.2f} ± {tol:.2f}")
        (matched if fine else parts).append(f"{ds} {'matches' if fine else 'differs'} ({'; '.join(bits)})")
    if not parts and not matched:
        return ""
    head = "setting differs" if parts else "setting matches"
    return (f"{head}: baselines' test accuracy here vs the paper's Table 2 (tolerance: twice the paper's printed sd "
            f"of the cell) — {'; '.join(parts + matched)}. The paper's pendigits 0.11 (10 classes) and a8a 0.75 / "
            f"w7a 0.97 are the majority or chance rates of those data sets. {SETTING_READINGS}")


TABLE2_TIMING = TimingPlan(
    method_key="yin/method",
    methods=(*BASELINES, "nystrom_liu_m150", *PROPOSED),
    fix=("seed=0",),
    group=DATASET_COL,
    cutoff_s=CUTOFF_S,
    claims=(*TABLE2_CLAIMS, *TABLE2_CONTROLS),
    labels=LABELS,
)


#: the paper's figure or table this entry reproduces
TITLE = "Yin et al. 2022, Table 2"

#: what the paper claims
CLAIM = ("on nine LIBSVM data sets the proposed sketches (m = 150) match the accuracy of "
         "kernel k-means and train faster than Gaussian and Nyström (Liu)")

#: how the rows judge it
RULE = (f"equivalence tests of test accuracy, one per (proposed sketch, data set) — §5.2's 'similar accuracy' is "
        f"said of Table 2, whose cells are data sets —, on the per-seed differences (a seed's methods share its "
        f"split), 95% CI inside ±{CLOSE} (the far end of the paper's own 95 % interval around the largest gap it "
        f"calls similar: segment, Nyström (Ours) 0.42 ± 0.01 vs 0.50 ± 0.02), in two groups — close to kernel "
        f"k-means: each proposed sketch vs exact on each data set with a kernel k-means value; tracks its target: "
        f"each proposed sketch vs k-means on the kernel columns (Prop. 1's target) where it fits in memory; both "
        f"declared {DECLARED} after seeds 0–{FRESH_FROM - 1} were seen, so judged only on seeds ≥ {FRESH_FROM}; on "
        f"a data set that cannot tell close from uninformative (kernel k-means no better than one cluster: a8a; "
        f"every method tied, baselines included: mushrooms) shown as controls, not counted — and Prop. 1: kernel "
        f"columns vs exact on each data set, paired by seed, ±{SIMILAR} (a failure is Prop. 1 failing); ROS's and "
        f"Nyström (Ours)'s checks made one where their rows are equal seed by seed ({AS_PRINTED}); speed (\"outperform "
        f"Nyström (Liu) and Gaussian in time cost\", §5.2) per data set and per (sketch, baseline) pair on a timing "
        f"pass only (median per-round ratio ≤ 1; Nyström (Liu) at its own m = √(nk) as run by the paper; the same "
        f"at equal m = 150 shown as a control, not counted, timed in the same pass; a baseline stopped at "
        f"{CUTOFF_S:.0f} s counts as slower; inconclusive above a load of 0.75 per CPU); the data sets not on this "
        f"machine are a limitation stated under Scale, not a check; one family, Holm "
        f"(kktheory/report/entries/yin_table2.py, judge_table2; kktheory/report/speed.py). {TIMER_FLOOR}")

#: what each scale changes against the paper
CHANGES = {
    "small": "training sets subsampled to n = 1400 (test 600) and 2 repeats instead of 70 % of "
             "each data set and 5 repeats",
    "paper": f"LIBSVM files, 70/30 split and m = 150 as the paper, 5 of 5 repeats; {LIMITATION}; k-means on the "
             f"kernel columns (not in the paper) only where its n × n arrays fit",
}


TABLE2 = Entry(
    name="yin_table2", place=(2, 2), label={"paper": f"covers {len(SEEN)} of the paper's 9 LIBSVM sets, their n"},
    paper_runs=5, title=TITLE, claim=CLAIM, rule=RULE, draw=draw_table2, judge=judge_table2, changes=CHANGES,
    paper_numbers=_paper_numbers_table2(), observe=observe_table2, timing=TABLE2_TIMING,
    rules=(*CLOSE_RULES.values(), *TRACKS_RULES.values(), *TABLE2_PROP1.values(),
           *(c.rule for c in (*TABLE2_CLAIMS, *TABLE2_CONTROLS))),
    setting=setting_table2,
    attribution=("2026-12-07: a 'close to kernel k-means' pass against a kernel k-means unlike the paper's holds in "
                 "our setting only (CLOSE_PASSES)",),
)
