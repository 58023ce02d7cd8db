"""Pourkamali-Anaraki & Becker, Table 1 and Fig. 2.

The catalogue entry ``pourkamali_table1_fig2``: its checks declared before the data, its drawing, its
setting check and its judgement. What it shares with Pourkamali-Anaraki & Becker's other entries is in
:mod:`kktheory.report.pourkamali`.
"""

from __future__ import annotations

import math
from pathlib import Path
import numpy as np
import pandas as pd
from kktheory.report.claims import AT_LEAST, EQUIVALENT, EXCEEDS, Design, Margin, Rule
from kktheory.report.verdicts import CAUSE_SCALE, CAUSE_STAND_IN, Verdict, judge_checks, not_run
from kktheory.report.paper_numbers import PaperNumber
from kktheory.report.rows import SKETCH_COL, ok_rows
from kktheory.report.stats import fmt, mean_ci
from kktheory.report.style import pyplot, save_figure
from kktheory.report.decide import LEVEL, Estimate
from kktheory.report.entry import Entry, FigureData
from kktheory.report.pourkamali import (
    ERR, PAPER_RUNS, WIN_ERR, _judge, _judged_rows, _nys, _per_run, _setting_line, label, method_of, onepass_note,
)


def fig2_runs(df: pd.DataFrame) -> list[str]:
    """The runs whose features Fig. 2 draws: the first seed of each embedding method."""
    d = ok_rows(df)
    d = d[d[SKETCH_COL] != "exact"] if len(d) else d
    if d.empty:
        return []
    d = d.assign(method=method_of(d))
    return list(d.loc[d.groupby("method")["seed"].idxmin(), "run_id"])


def fig2_points(arrays: dict[str, dict[str, np.ndarray]]) -> pd.DataFrame:
    """Fig. 2's points: one row per training point of each run in ``arrays`` that holds
    ``train_features`` and ``train_classes`` (run_id, y1, y2, class; features of rank 1 get
    y2 = 0), in float32 as drawn."""
    parts = []
    for rid, a in arrays.items():
        if "train_features" in a and "train_classes" in a:
            y = np.asarray(a["train_classes"])
            F = np.asarray(a["train_features"], dtype=np.float32).reshape(len(y), -1)
            F = np.pad(F, ((0, 0), (0, 2 - F.shape[1])))
            parts.append(pd.DataFrame({"run_id": rid, "y1": F[:, 0], "y2": F[:, 1], "class": y}))
    return (pd.concat(parts, ignore_index=True) if parts
            else pd.DataFrame({"run_id": [], "y1": [], "y2": [], "class": []}))


def fig2_features(df: pd.DataFrame) -> tuple[dict[str, tuple[np.ndarray, np.ndarray]], list[str]]:
    """({method: (2-D features, true classes)} of :func:`fig2_runs` read from the points table
    ``df.attrs["figure"]`` (:func:`fig2_points`), [methods whose run has no points there])."""
    d = ok_rows(df)
    points = df.attrs.get("figure")
    found, missing = {}, []
    for rid in fig2_runs(d):
        method = method_of(d[d["run_id"] == rid]).iloc[0]
        p = points[points["run_id"] == rid] if points is not None else ()
        if len(p):
            found[method] = (p[["y1", "y2"]].to_numpy(np.float64), p["class"].to_numpy())
        else:
            missing.append(method)
    return found, _order(missing)


# -- Table 1 and Fig. 2 --------------------------------------------------------------------
def _summary(df: pd.DataFrame) -> pd.DataFrame:
    d = ok_rows(df).copy()
    d["method"] = method_of(d)
    err = mean_ci(d, "method", ERR) if ERR in d else None
    acc = mean_ci(d, "method", "train_accuracy")
    out = acc[["method", "mean", "sd", "count"]].rename(columns={"mean": "accuracy", "sd": "accuracy_sd"})
    if err is not None and len(err):
        out = out.merge(err[["method", "mean", "sd"]].rename(columns={"mean": "error", "sd": "error_sd"}),
                        on="method", how="left")
    else:
        out["error"] = out["error_sd"] = np.nan
    return out


def _order(methods) -> list[str]:
    def key(m: str) -> tuple[int, int]:
        base, _, c = m.partition(":")
        return ({"kpca": 0, "onepass": 1, "nystrom_rr": 2, "exact": 3}.get(base, 4), int(c or 0))

    return sorted(methods, key=key)


def draw_table1_fig2(df: pd.DataFrame, out_dir: Path) -> list[Path]:
    """Table 1 (error and accuracy per method, Markdown) and Fig. 2 (2-D embeddings)."""
    s = _summary(df).set_index("method")
    out_dir.mkdir(parents=True, exist_ok=True)
    md = out_dir / "pourkamali_table1.md"
    lines = ["# Pourkamali-Anaraki & Becker, Table 1 (reproduced)", "",
             "| method | kernel approx. error ‖K−K̂‖_F/‖K‖_F | clustering accuracy | runs |", "|---|---|---|---|"]
    for m in _order(s.index):
        r = s.loc[m]
        lines.append(f"| {label(m)} | {fmt(r['error'])} ± {fmt(r['error_sd'], 2)} | "
                     f"{fmt(r['accuracy'])} ± {fmt(r['accuracy_sd'], 2)} | {int(r['count'])} |")
    note = onepass_note(df)
    feats, missing = fig2_features(df)
    gap = (f" Fig. 2 lacks {', '.join(label(m) for m in missing)}: no points of the first run (its arrays "
           f"hold no `train_features`, as in runs computed before kktheory kept planar features, and no "
           f"committed points table has them); recompute those runs to draw them." if missing else "")
    md.write_text("\n".join(lines) + "\n\nMean ± sd over runs; accuracy of the clustering of all points."
                  + (f" One-pass: {note}." if note else "") + gap + "\n")
    methods = _order(feats)
    paths = [md]
    if methods:
        plt = pyplot()
        fig, axes = plt.subplots(1, len(methods), figsize=(3.2 * len(methods), 3.3), squeeze=False)
        for ax, m in zip(axes[0], methods):
            F, y = feats[m]
            for j, cls in enumerate(np.unique(y)):
                ax.scatter(F[y == cls, 0], F[y == cls, 1], s=2, alpha=0.5, color=f"C{j}", label=f"class {cls}")
            name = f"{label(m)} ({note})" if m == "onepass" and note else label(m)
            ax.set_title(f"{name}\nerror {fmt(s.loc[m, 'error'])}, accuracy {fmt(s.loc[m, 'accuracy'])}")
            ax.set_xlabel("$y_1$")
            ax.set_ylabel("$y_2$")
        axes[0][0].legend(markerscale=5, loc="best")
        fig.suptitle("Pourkamali-Anaraki & Becker Fig. 2 — rank-2 embeddings Y (K ≈ YᵀY) of the 2-D data, "
                     "polynomial kernel ⟨x, y⟩², coloured by true class (first run)", fontsize=10)
        fig.tight_layout()
        paths += save_figure(fig, out_dir, "pourkamali_fig2")
    return paths


#: Pourkamali-Anaraki & Becker, Table 1: (method, kernel approximation error, accuracy)
TABLE1_PAPER = (("exact decomposition", "kpca", 0.40, 0.99), ("one-pass (Alg. 1)", "onepass", 0.40, 0.99),
                ("Nyström, m = 20", "nystrom_rr:20", 0.56, 0.74), ("Nyström, m = 100", "nystrom_rr:100", 0.44, 0.75))


TABLE1_M = (20, 100)  # Nyström's m in Table 1 (experiments/pourkamali_table1_fig2.yaml)


# -- margins and designs, declared before the data -------------------------------------------
RANK_NOTE = ("with the homogeneous degree-2 kernel in 2-D, rank K = 3 ≤ r′ = 12: the one-pass sketch spans K's "
             "range and equals the exact rank-2 decomposition by construction")


ERR_MARGIN = Margin(0.01, "Table 1 prints both errors as 0.40 (two decimals): equal within one unit of the last digit",
                    "Pourkamali Table 1")


ACC_MARGIN = Margin(-0.02, "Table 1 prints both accuracies as 0.99: one-pass at most two units of the last digit "
                           "below exact", "Pourkamali Table 1")


WIN_ACC_T1 = Margin(0.01, "one point of accuracy, the last digit Table 1 prints: a smaller gain would print as a tie",
                    "Pourkamali Table 1 (two decimals)")


#: planning spreads (the paper prints none): a per-run accuracy confined to [0.5, 1] (two
#: balanced classes) has sd ≤ 0.25; segment's paired accuracy differences and error
#: differences are planned at 0.08 and 0.04
SD_ACC_T1 = 0.25


SD_SOURCE_T1 = ("sd 0.25 per paired run: the largest spread of a two-class accuracy, which lies in [0.5, 1] (half "
                "its range); the paper prints no spread")


EXACT_RULE_T1 = Rule(
    "one-pass error ≈ exact decomposition's", "‖K − K̂‖_F/‖K‖_F of one-pass − of the exact rank-2 decomposition, "
    "paired by seed", EQUIVALENT, ERR_MARGIN, None, selection=RANK_NOTE, sanity=True)


EXACT_ACC_RULE_T1 = Rule(
    "one-pass accuracy ≥ exact decomposition's − 0.02", "accuracy of one-pass − of the exact decomposition, paired",
    AT_LEAST, ACC_MARGIN, None, selection=RANK_NOTE, sanity=True)


def _t1_rules(m: int) -> tuple[Rule, Rule]:
    paper_acc = {20: 0.74, 100: 0.75}[m]
    err = Rule(
        f"one-pass error below Nyström, m = {m}", f"error of one-pass − of Nyström (m = {m}), paired by seed",
        EXCEEDS, WIN_ERR, None, sign=-1.0, sanity=True,
        selection=f"{RANK_NOTE}, and by Eckart–Young no rank-2 Nyström approximation has a smaller Frobenius "
                  f"error than the exact one: the sign holds by construction")
    acc = Rule(
        f"one-pass accuracy above Nyström, m = {m}", f"accuracy of one-pass − of Nyström (m = {m}), paired by seed",
        EXCEEDS, WIN_ACC_T1,
        Design("paired", round(0.99 - paper_acc, 2), 0.0, (SD_ACC_T1,), PAPER_RUNS,
               f"the paper's gap 0.99 − {paper_acc} (Table 1); {SD_SOURCE_T1}; 100 runs (§4)"),
        selection=f"m = {m} (Table 1); one-pass equals the exact decomposition here ({RANK_NOTE}), so this is "
                  f"'exact rank-2 beats Nyström' as much as one-pass")
    return err, acc


TABLE1_RULES = {m: _t1_rules(m) for m in TABLE1_M}


def judge_table1_fig2(df: pd.DataFrame, level: float = LEVEL) -> Verdict:
    """Pourkamali Table 1 claim rule, as confidence-interval tests over runs paired by seed
    (the declared rules :data:`TABLE1_RULES`, :data:`EXACT_RULE_T1`, :data:`EXACT_ACC_RULE_T1`).

    Sanity (shown, not counted): one-pass ≈ exact decomposition (error within ±0.01,
    accuracy ≥ −0.02) holds by construction — rank K = 3 ≤ r′ = 12 with ⟨x, y⟩² in 2-D —
    and so does the sign of "one-pass error below Nyström" (one-pass is the exact best
    rank-2 approximation here, Eckart–Young). Counted: one-pass accuracy − Nyström
    accuracy exceeds 0 for m = 20 and m = 100, separately (Table 1: 0.99 against 0.74 and
    0.75), with 0.01 the smallest gain that counts (Table 1's last digit).
    """
    d = _judged_rows(df)
    if isinstance(d, Verdict):
        return d
    if not {"onepass", "kpca"} <= set(d["method"]):
        return not_run("one-pass and exact decomposition rows are both needed")
    checks = [_judge(EXACT_RULE_T1, d, "onepass", "kpca", ERR, level),
              _judge(EXACT_ACC_RULE_T1, d, "onepass", "kpca", "train_accuracy", level)]
    for m in TABLE1_M:
        r_err, r_acc = TABLE1_RULES[m]
        checks.append(_judge(r_err, d, "onepass", _nys(m), ERR, level))
        checks.append(_judge(r_acc, d, "onepass", _nys(m), "train_accuracy", level))
    return judge_checks(checks, f"n = {int(d['n'].iloc[0])}, {d['seed'].nunique()} runs per method", level)


#: what was tried for Table 1's setting (small probes, 2026-11-25, 5 seeds each)
TABLE1_PROBE_RESULT = (
    "Tried (5 seeds each): k-means alone (linear kernel) on these rings reaches 0.67 (the caption's 0.53); rings "
    "of radii 1 and 3 (same noise) give Nyström accuracy 0.747 / 0.746 at m = 20 / 100 — the paper's 0.74 / 0.75 — "
    "and error 0.466 / 0.408 (paper 0.56 / 0.44), but the exact decomposition then also splits the outer ring "
    "(accuracy 0.748, paper 0.99): no ring geometry tried reproduces both the exact and the Nyström rows, so no "
    "variant is offered and the relative claim is judged on the radii-5 rings, where Nyström is stronger than "
    "in the paper (a harder test of 'one-pass beats Nyström')")


def setting_table1(df: pd.DataFrame) -> str:
    """Table 1's setting check: the exact decomposition and Nyström's error and accuracy against
    the paper's. Table 1 prints no spread: the tolerance is half a unit of its last printed
    digit (±0.005), and a value matches when its 95 % interval meets that band."""
    d = ok_rows(df)
    if d.empty:
        return ""
    obs = observe_table1(df)
    good, bad = [], []
    for name, method, err, acc in TABLE1_PAPER:
        for what, paper in (("error", err), ("accuracy", acc)):
            est = obs.get(f"{method}/{what}")
            if est is None or not math.isfinite(est.value):
                continue
            ok, text = _setting_line(f"{name} {what}", est, paper, 0.005)
            (good if ok else bad).append(text)
    head = "setting differs" if bad else "setting matches"
    return (f"{head}: Table 1 here vs the paper (no spread printed; tolerance ±0.005, half its last digit, around "
            f"our 95 % interval) — differs: {'; '.join(bad) or 'none'}; matches: {'; '.join(good) or 'none'}. "
            f"Nyström is far better here than in the paper. The data are a reconstruction: the paper's Fig. 1 data "
            f"are not given, and the rings' radii (1 and 5, noise 0.2) were tuned here so that the exact and "
            f"one-pass rows of Table 1 come out (error 0.40, accuracy 0.99); nothing tuned Nyström's rows. "
            f"{TABLE1_PROBE_RESULT}")


def observe_table1(df: pd.DataFrame) -> dict[str, Estimate]:
    """Mean error and accuracy per method of Table 1 (keys ``<method>/error|accuracy``)."""
    d = ok_rows(df)
    d = d.assign(method=method_of(d))
    out = {}
    for _, method, _, _ in TABLE1_PAPER:
        for col, key in ((ERR, "error"), ("train_accuracy", "accuracy")):
            if col in d:
                out[f"{method}/{key}"] = Estimate.mean_of(_per_run(d, method, col).to_numpy())
    return out


#: the paper's figure or table this entry reproduces
TITLE = "Pourkamali-Anaraki & Becker, Table 1 and Fig. 2"

#: what the paper claims
CLAIM = ("on 2-D data separable only with a degree-2 kernel, the one-pass rank-2 method matches the "
         "exact eigendecomposition (error 0.40, accuracy 0.99) and beats Nyström with 20 and 100 columns")

#: how the rows judge it
RULE = (f"95% intervals over runs paired by seed. Counted: one-pass accuracy − Nyström accuracy > 0 for m = 20 "
        f"and for m = 100 (two checks; smallest gain that counts {WIN_ACC_T1.value}, Table 1's last digit). "
        f"Sanity, shown and not counted: one-pass − exact error within ±{ERR_MARGIN.value} and accuracy ≥ "
        f"{ACC_MARGIN.value}, and one-pass error below Nyström — {RANK_NOTE}, and Eckart–Young makes the exact "
        f"rank-2 error the smallest; one family, Holm (kktheory/report/entries/pourkamali_table1_fig2.py, judge_table1_fig2)")

#: what each scale changes against the paper
CHANGES = {
    "small": "10 runs instead of 100",
    "paper": "stand-in data: the paper's 2-D data (its Fig. 1) are not given; two rings of radii 1 and 5 "
             "(noise 0.2), a reconstruction whose radii were tuned here so that Table 1's exact and one-pass "
             "rows come out (0.40, 0.99); n = 4000 as the paper; 100 of 100 runs",
}


TABLE1_FIG2 = Entry(
    name="pourkamali_table1_fig2", place=(4, 1),
    label={"paper": "rings reconstructed for the paper's 2-D data"}, paper_runs=100, title=TITLE, claim=CLAIM,
    rule=RULE, draw=draw_table1_fig2, judge=judge_table1_fig2,
    paper_numbers=tuple(
        PaperNumber(f"{name}: {what}", value, "Table 1", key=f"{method}/{what}")
        for name, method, err, acc in TABLE1_PAPER for what, value in (("error", err), ("accuracy", acc))
    ),
    observe=observe_table1, figure_data=FigureData(runs=fig2_runs, table=fig2_points), changes=CHANGES,
    shortfall={"small": CAUSE_SCALE, "paper": CAUSE_STAND_IN},
    rules=(EXACT_RULE_T1, EXACT_ACC_RULE_T1, *(r for m in TABLE1_M for r in TABLE1_RULES[m])),
    setting=setting_table1,
)
