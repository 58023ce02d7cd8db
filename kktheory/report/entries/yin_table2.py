"""Yin et al. 2022, Table 2.

The catalogue entry ``yin_table2``: its checks declared before the data, its drawing, its
setting check and its judgement. What it shares with Yin et al.'s other entries is in
:mod:`kktheory.report.yin`.
"""

from __future__ import annotations

import math
from pathlib import Path
import numpy as np
import pandas as pd
from kktheory.report.claims import AT_LEAST, EQUIVALENT, Design, Margin, Rule
from kktheory.report.verdicts import CAUSE_INCONCLUSIVE, CAUSE_STAND_IN, Check, Verdict, judge_checks, not_run
from kktheory.report.paper_numbers import PaperNumber
from kktheory.report.rows import SKETCH_COL, DATASET_COL, failed_rows, ok_rows, require_columns
from kktheory.report.decide import LEVEL, Estimate
from kktheory.report.entry import Entry, SpeedClaim, TimingPlan
from kktheory.report.yin import (
    FASTER_WHY, LABELS, ORDER, PAPER_RUNS, PLAN_SD, PLAN_SD_SOURCE, PROP1_FAILS, PROP1_RULE, PROPOSED, SIMILAR, SIMILAR_MARGIN, TARGET, TIMING_ROUNDS, TIMING_SD, TIMING_SD_SOURCE, _absent, _check, _no_target, _similar_design, _with_method,
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
           if _rounds(ratio) > TIMING_ROUNDS else ""))


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
                 f"as the claim against Nyström (Liu); {TIMING_SD_SOURCE}", control=True)
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


def _paper_close(p: str) -> tuple[float, float, int]:
    """Yin Table 2's own average of acc(p) − acc(kernel k-means) over the data sets where both
    are printed, the standard error of that average at 5 repeats with the printed sds, and
    the number of data sets."""
    diffs, var = [], []
    for cells in PAPER_TABLE2.values():
        e, c = cells[0], cells[PAPER_METHODS.index(p)]
        if e is not None and c is not None:
            diffs.append(c[1] - e[1])
            var.append((c[2] ** 2 + e[2] ** 2) / PAPER_RUNS)
    return float(np.mean(diffs)), math.sqrt(sum(var)) / len(diffs), len(diffs)


#: the data sets of Table 2 on which k-means on the kernel columns fits the memory budget
#: (three n × n arrays; a8a and larger are refused, experiments/yin_table2.yaml)
TARGET_DATASETS = ("dna", "segment", "mushrooms", "pendigits")


def _table2_rules(p: str) -> tuple[Rule, Rule]:
    lab = LABELS[p]
    eff, se, count = _paper_close(p)
    close = Rule(
        f"close to kernel k-means: {lab} − {LABELS['exact']} (average over data sets)",
        f"mean over the data sets run of the Welch difference acc({lab}) − acc(kernel k-means), standard error "
        f"of the average of independent estimates", EQUIVALENT, SIMILAR_MARGIN,
        Design("known", round(eff, 4), -SIMILAR, (round(se, 4),), PAPER_RUNS,
               f"the paper's own average difference {eff:+.3f} over its {count} data sets with a kernel k-means "
               f"value (Table 2), standard error {se:.4f} from its printed sds at 5 repeats"),
        selection=f"m = {TABLE2_M} (§5.2); every data set of Table 2 with rows of both methods; the average, "
                  f"because the paper's own table calls a cell at −0.08 (segment) similar")
    tracks = Rule(
        f"tracks its target: {lab} − {LABELS[TARGET]} (average over data sets)",
        f"mean over the data sets run of the Welch difference acc({lab}) − acc(k-means on the kernel columns)",
        EQUIVALENT, SIMILAR_MARGIN,
        Design("known", 0.0, -SIMILAR, (round(math.sqrt(len(TARGET_DATASETS) * 2 * PLAN_SD**2 / PAPER_RUNS)
                                               / len(TARGET_DATASETS), 4),), PAPER_RUNS,
               f"Thm 2's argument (Lemma 5), effect 0; {PLAN_SD_SOURCE}, both arms, over the "
               f"{len(TARGET_DATASETS)} data sets where the target fits in memory"),
        selection=f"m = {TABLE2_M}; the data sets {', '.join(TARGET_DATASETS)} (the target's three n × n arrays); "
                  f"judges Remark 1's m ≈ √n, not Thm 2's m = Ω(n log n)")
    return close, tracks


TABLE2_RULES = {p: _table2_rules(p) for p in PROPOSED}


TABLE2_PROP1 = {
    ds: Rule(f"target matches kernel k-means: {LABELS[TARGET]} − {LABELS['exact']} [{ds}]",
             f"acc(k-means on the kernel columns) − acc(kernel k-means) on {ds}, Welch over runs", EQUIVALENT,
             SIMILAR_MARGIN,
             _similar_design(0.0, max(PAPER_TABLE2[ds][0][2], 0.01) if PAPER_TABLE2[ds][0] else PLAN_SD,
                             "the paper's Prop. 1 (eq. 6): the same, effect 0; sd per run "
                             + (f"{PAPER_TABLE2[ds][0][2]:.2f}, kernel k-means on {ds} in Table 2"
                                if PAPER_TABLE2[ds][0] else PLAN_SD_SOURCE) + "; 5 repeats"),
             selection="Prop. 1 is an identity the paper asserts for every data set: one check per data set")
    for ds in DATASETS
}


COVERAGE_RULE = Rule(
    "data sets of the paper run", "the number of Table 2's nine data sets with rows here", AT_LEAST,
    Margin(9, "the claim is made over the nine data sets of Table 2 ('the 9 real datasets', §5.2), covtype's "
              "'our proposed methods can obtain small training time' among them", "Yin §5.2, Table 2"),
    selection="the data sets of Table 2; one missing leaves the claim undecided (the files are not on this "
              "machine), never failed")


def judge_table2(df: pd.DataFrame, level: float = LEVEL) -> Verdict:
    """Yin Table 2 claim rule ("these methods give a similar accuracy as the exact kernel
    k-means", §5.2): the declared rules :data:`TABLE2_RULES`, :data:`TABLE2_PROP1` and
    :data:`COVERAGE_RULE`.

    A per-data-set difference is the Welch difference of the runs' test accuracies; an
    average over the data sets where both methods ran has the standard error of the
    average of independent estimates (:meth:`Estimate.average`). The accuracy checks of
    the sketches are averaged because the paper's own table has a cell at its largest
    difference (segment, Nyström (Ours) −0.08): "similar accuracy" is the table's claim,
    not every cell's. Three groups:

    1. *close to kernel k-means*, per proposed sketch P: average of acc(P) − acc(kernel
       k-means) in [−0.08, 0.08] (the paper's words);
    2. *tracks its target*, per P: average of acc(P) − acc(k-means on the kernel columns)
       in [−0.08, 0.08] (Thm 2's argument);
    3. *the target matches kernel k-means*, per data set: acc(kernel columns) − acc(kernel
       k-means) in [−0.08, 0.08] — Prop. 1 (a failure is the paper's claim failing).

    Speed ("outperform Nyström (Liu) and Gaussian in time cost") is judged on the timing
    pass (``timing`` of the entry), never on the rows' times. Data sets the paper uses
    whose files are not on this machine leave :data:`COVERAGE_RULE` undecided (cause
    *stand-in data*): the claim is judged on the others only.
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

    close, tracks = [], []
    for p in PROPOSED:
        if not (d["method"] == p).any():
            continue
        r_close, r_tracks = TABLE2_RULES[p]
        ests, text = pairs(p, "exact")
        close.append(_check(r_close, Estimate.average(ests), text, level) if ests
                     else _absent(r_close, "no data set with both"))
        ests, text = pairs(p, TARGET)
        tracks.append(_check(r_tracks, Estimate.average(ests), text, level) if ests else _no_target(r_tracks))
    both = [ds for ds in datasets if (ds, TARGET) in acc and (ds, "exact") in acc]
    prop1 = [_check(TABLE2_PROP1[ds], Estimate.difference(acc[(ds, TARGET)], acc[(ds, "exact")]),
                    "the paper's Prop. 1 (eq. 6) says they are the same", level, fails=PROP1_FAILS)
             for ds in both if ds in TABLE2_PROP1]
    if not both:
        prop1.append(_no_target(PROP1_RULE))
    checks: list[Check] = [*close, *tracks, *prop1]
    absent = [ds for ds in _order_datasets(cells["dataset"].unique()) if ds not in set(datasets)]
    no_data = [ds for ds in absent if (cells.loc[cells["dataset"] == ds, "status"] == "missing").any()]
    other = [ds for ds in absent if ds not in no_data]
    if absent:
        why = "; ".join([*(f"{ds}: data not on this machine" for ds in no_data),
                         *(f"{ds}: {cells.loc[cells['dataset'] == ds, 'why'].iloc[0]}" for ds in other)])
        checks.append(Check(
            COVERAGE_RULE.name, None,
            f"{len(datasets)} of 9 run; not run: {', '.join(absent)} ({why}); accuracy and speed are judged on {', '.join(datasets)} only "
            f"(covtype's claim, the proposed methods finishing where the others cannot, is not checked without it)",
            cause=CAUSE_STAND_IN if no_data and not other else CAUSE_INCONCLUSIVE,
            cause_detail=f"{', '.join(absent)} not run here", rule=COVERAGE_RULE))
    observed = f"data sets run: {', '.join(datasets)}"
    if absent:
        observed += f"; not run: {', '.join(absent)}"
    return judge_checks(checks, observed, level)


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
            paper = PAPER_TABLE2[ds][PAPER_METHODS.index(meth)]
            c = ok[(ok["dataset"] == ds) & (ok["method"] == meth)]
            if paper is None or c.empty:
                continue
            here, tol = float(c["accuracy"].iloc[0]), 2 * paper[2]
            fine &= abs(here - paper[1]) <= tol
            bits.append(f"{LABELS[meth]} {here:.3f} vs {paper[1]:.2f} ± {tol:.2f}")
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
RULE = (f"equivalence tests on Welch differences of test accuracy, 95% CI inside ±{SIMILAR} (the largest "
        f"difference to kernel k-means that the paper's Table 2 calls similar: segment, Nyström (Ours) 0.42 vs "
        f"0.50), in three groups — close to kernel k-means: each proposed sketch vs exact, averaged over data "
        f"sets; tracks its target: each proposed sketch vs k-means on the kernel columns (Prop. 1's target), "
        f"averaged; Prop. 1: kernel columns vs exact on each data set (a failure is Prop. 1 failing); speed "
        f"(\"outperform Nyström (Liu) and Gaussian in time cost\", §5.2) per data set and per (sketch, baseline) "
        f"pair on a timing pass only (median per-round ratio ≤ 1; Nyström (Liu) at its own m = √(nk) as run by "
        f"the paper; the same at equal m = 150 shown as a control, not counted; a baseline stopped at "
        f"{CUTOFF_S:.0f} s counts as slower; inconclusive above a load of 0.75 per CPU); data sets not on this "
        f"machine: undecided, stand-in data; one family, Holm (kktheory/report/entries/yin_table2.py, judge_table2; "
        f"kktheory/report/speed.py). {TIMER_FLOOR}")

#: what each scale changes against the paper
CHANGES = {
    "small": "training sets subsampled to n = 1400 (test 600) and 2 repeats instead of 70 % of "
             "each data set and 5 repeats",
    "paper": "LIBSVM files, 70/30 split and m = 150 as the paper, 5 of 5 repeats; 5 of 9 data sets (dna, "
             "segment, mushrooms, pendigits, a8a; protein, w7a, connect4 and covtype are not on this machine); "
             "k-means on the kernel columns (not in the paper) only where its n × n arrays fit",
}


TABLE2 = Entry(
    name="yin_table2", place=(2, 2), label={"paper": "5 of the paper's 9 LIBSVM sets, their n"}, paper_runs=5,
    title=TITLE, claim=CLAIM, rule=RULE, draw=draw_table2, judge=judge_table2, changes=CHANGES,
    paper_numbers=_paper_numbers_table2(), observe=observe_table2, timing=TABLE2_TIMING,
    rules=(*(r for p in PROPOSED for r in TABLE2_RULES[p]), *TABLE2_PROP1.values(), COVERAGE_RULE,
           *(c.rule for c in (*TABLE2_CLAIMS, *TABLE2_CONTROLS))),
    setting=setting_table2,
)
