"""Pourkamali-Anaraki & Becker: Table 1 with Fig. 2 (2-D toy data) and Fig. 3 (segment).

Every method gives a rank-r factorisation K ≈ K̂ = F Fᵀ with F the n×r training features:

=======================  =========================================================
exact decomposition      ``kpca`` with s = r (best rank-r approximation K_r)
one-pass (their Alg. 1)  ``onepass`` with rank r, oversampling l and
                         ``reading=full_core`` (Q with all r' = r + l columns, rank r
                         after the core: the reading Table 1's error 0.40 = exact's
                         supports; ``kktheory/embeddings/onepass.py``)
Nyström, m columns       ``nystrom_rr`` with P uniform, c = m, ℓ = s = r: the standard
                         rank-r Nyström C W_r⁺ Cᵀ of their comparison
full kernel k-means      ``exact`` (Fig. 3's reference accuracy, r = rank K)
=======================  =========================================================

The paper measures ‖K − K̂‖_F / ‖K‖_F and the clustering accuracy of the n points (the
whole data set is clustered, so accuracy is ``train_accuracy``). Both are columns of the
rows: every run of a rank-restricted sketch stores ``approx_fro_rel`` (computed by the run
on its features, :func:`kktheory.kernels.gram.approximation_error`). Fig. 2's scatter is a table of
points (run, y₁, y₂, true class): the rank-2 features of the first seed of each method, as
stored in the arrays of that run (``train_features`` and ``train_classes``, kept by the run
for features of at most two columns) and committed with the rows. The report only reads: a method whose
points are missing is named, never recomputed.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from kktheory.report.claims import AT_LEAST, EQUIVALENT, EXCEEDS, Design, Margin, Rule
from kktheory.report.verdicts import CAUSE_SCALE, CAUSE_STAND_IN, Check, Verdict, judge_checks, not_run
from kktheory.report.paper_numbers import PaperNumber
from kktheory.report.rows import SKETCH_COL, ok_rows, require_columns
from kktheory.report.stats import fmt, mean_ci
from kktheory.report.style import color_marker, pyplot, save_figure
from kktheory.report.decide import LEVEL, Estimate
from kktheory.report.entry import Entry, FigureData

ERR = "approx_fro_rel"  # ‖K − K̂‖_F / ‖K‖_F, a column of the runs (kktheory.run.experiment.APPROX_ERROR)
#: why rows may lack ERR: not computed by the run (rows older than the column, or above risk_exact_limit)
ERR_WHY = ("written by each run of a rank-restricted sketch with n ≤ risk_exact_limit; rows computed before "
           "kktheory stored it must be recomputed")
CLOSE = 0.02  # one-pass vs exact decomposition: error and accuracy within this
METHOD_LABELS = {
    "kpca": "exact decomposition", "onepass": "one-pass (Alg. 1)", "nystrom_rr": "Nyström",
    "exact": "full kernel k-means",
}


def method_of(df: pd.DataFrame) -> pd.Series:
    """The method label of each row; Nyström rows carry their number of columns m."""
    name = df[SKETCH_COL].astype(str)
    return name.where(name != "nystrom_rr", "nystrom_rr:" + df["m"].astype(int).astype(str))


def label(method: str) -> str:
    base, _, m = method.partition(":")
    return f"Nyström, m = {m}" if m else METHOD_LABELS.get(base, base)


def onepass_note(df: pd.DataFrame) -> str:
    """r' and the reading of the one-pass rows, e.g. "r' = 12, full_core" ("" without rows)."""
    op = ok_rows(df)
    op = op[op[SKETCH_COL] == "onepass"]
    if op.empty:
        return ""
    notes = []
    if "m_used" in op:
        notes.append("r' = " + ", ".join(str(int(v)) for v in sorted(op["m_used"].unique())))
    if "sketch.reading" in op:
        notes.append(", ".join(sorted(op["sketch.reading"].astype(str).unique())))
    return ", ".join(notes)


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
KMEANS_ALONE = 0.53  # Table 1's caption: "(non-kernel) K-means has only 0.53 accuracy"
PAPER_RUNS = 100  # §4: "we re-run each experiment 100 times and report the average"
TABLE1_M = (20, 100)  # Nyström's m in Table 1 (experiments/pourkamali_table1_fig2.yaml)
FIG3_GRID = (5, 10, 20, 30, 40, 50, 75, 100)  # Nyström's m in experiments/pourkamali_fig3.yaml
FIG3_M_MAX = 50  # §4: r' = 7 sampled rows beat m = 50 ≈ 7r' Nyström columns
#: Pourkamali-Anaraki & Becker §4 (segment): the accuracy of full kernel k-means, r = rank K
FULL_KKM_ACCURACY = 0.46

# -- margins and designs, declared before the data -------------------------------------------
RANK_NOTE = ("with the homogeneous degree-2 kernel in 2-D, rank K = 3 ≤ r′ = 12: the one-pass sketch spans K's "
             "range and equals the exact rank-2 decomposition by construction")
ERR_MARGIN = Margin(0.01, "Table 1 prints both errors as 0.40 (two decimals): equal within one unit of the last digit",
                    "Pourkamali Table 1")
ACC_MARGIN = Margin(-0.02, "Table 1 prints both accuracies as 0.99: one-pass at most two units of the last digit "
                           "below exact", "Pourkamali Table 1")
WIN_ACC_T1 = Margin(0.01, "one point of accuracy, the last digit Table 1 prints: a smaller gain would print as a tie",
                    "Pourkamali Table 1 (two decimals)")
WIN_ERR = Margin(0.01, "one point of relative Frobenius error, the resolution at which the paper prints errors "
                       "(Table 1, two decimals): a smaller gap would print as a tie", "Pourkamali Table 1")
WIN_ACC = Margin(0.02, "two points of accuracy: two values printed to two decimals (as §4's 0.46) may differ by "
                       "0.01 from rounding alone; a gain that counts must exceed that", "Pourkamali §4 (0.46)")
CLOSE_MARGIN = Margin(0.02, "'very close to the optimal exact eigenvalue decomposition': half the smallest error gap "
                            "the paper treats as a real difference (Table 1: Nyström m = 100, 0.44, 'does not "
                            "provide an accurate solution', against exact 0.40)", "Pourkamali Table 1 and §4")
CLOSE = CLOSE_MARGIN.value
#: planning spreads (the paper prints none): a per-run accuracy confined to [0.5, 1] (two
#: balanced classes) has sd ≤ 0.25; segment's paired accuracy differences and error
#: differences are planned at 0.08 and 0.04
SD_ACC_T1 = 0.25
SD_ACC_SEG = 0.08
SD_ERR_SEG = 0.04
SD_SOURCE_T1 = ("sd 0.25 per paired run: the largest spread of a two-class accuracy, which lies in [0.5, 1] (half "
                "its range); the paper prints no spread")
SD_SOURCE_SEG_ACC = ("sd 0.08 per paired run: planning value, a 7-class accuracy spreading by ≈ 0.05 per method and "
                     "run (Yin Table 2 prints 0.01–0.03 on segment for other sketches; doubled for a rank-2 "
                     "embedding), √2 × 0.05 for a difference; the paper prints no spread")
SD_SOURCE_SEG_ERR = ("sd 0.04 per paired run: planning value, the spread of Nyström's error in the Table 1 "
                     "experiment here (0.037 at m = 20), another experiment than the one judged")
EXACT_RULE_T1 = Rule(
    "one-pass error ≈ exact decomposition's", "‖K − K̂‖_F/‖K‖_F of one-pass − of the exact rank-2 decomposition, "
    "paired by seed", EQUIVALENT, ERR_MARGIN, None, selection=RANK_NOTE, sanity=True)
EXACT_ACC_RULE_T1 = Rule(
    "one-pass accuracy ≥ exact decomposition's − 0.02", "accuracy of one-pass − of the exact decomposition, paired",
    AT_LEAST, ACC_MARGIN, None, selection=RANK_NOTE, sanity=True)


def _nys(m: int) -> str:
    return f"nystrom_rr:{m}"


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


def _fig3_design(sd: float, source: str, smallest: float, sign: float = 1.0) -> Design:
    """A paired design at the smallest effect that counts (the paper prints Fig. 3 only as a
    plot), at the run count where it reaches power 0.8 (said in the source)."""
    runs = _runs_for(sd, smallest)
    return Design("paired", sign * smallest, 0.0, (sd,), runs,
                  f"the smallest effect that counts ({smallest:g}; Fig. 3's values are not printed); {source}; "
                  + (f"the paper's 100 runs give power < 0.8, {runs} reach it" if runs > PAPER_RUNS
                     else "100 runs (§4)"))


def _runs_for(sd: float, smallest: float) -> int:
    """Runs at which a paired mean with per-run sd ``sd`` excludes 0 with probability 0.8
    when the true effect is ``smallest`` (normal approximation, rounded up to a multiple of 10)."""
    r = math.ceil(1.25 * ((1.96 + 0.8416) * sd / smallest) ** 2)  # 1.25: Student t at ≈ 100 runs, and a margin
    return max(PAPER_RUNS, 10 * math.ceil(r / 10))


FIG3_ERR_RULES = {
    m: Rule(f"one-pass error below Nyström, m = {m}", f"error of one-pass (r′ = 7) − of Nyström (m = {m}), paired",
            EXCEEDS, WIN_ERR, _fig3_design(SD_ERR_SEG, SD_SOURCE_SEG_ERR, WIN_ERR.value, -1.0), sign=-1.0,
            selection=f"every m ≤ {FIG3_M_MAX} of the declared grid (§4: 'more accurate … than sampling m = 50 ≈ "
                      f"7r′ columns')")
    for m in FIG3_GRID if m <= FIG3_M_MAX
}
FIG3_CLOSE_RULE = Rule(
    "one-pass error ≈ exact decomposition's", "error of one-pass (r′ = 7) − of the exact rank-2 decomposition, paired",
    EQUIVALENT, CLOSE_MARGIN,
    Design("paired", 0.0, CLOSE, (SD_ERR_SEG,), PAPER_RUNS, f"the paper: 'very close', effect 0; {SD_SOURCE_SEG_ERR}; "
                                                            f"100 runs (§4)"),
    selection="rank K = 190 > r′ = 7 on segment: a genuine check")
FIG3_ACC_RULES = {
    m: Rule(f"one-pass accuracy above Nyström, m = {m}", f"accuracy of one-pass − of Nyström (m = {m}), paired",
            EXCEEDS, WIN_ACC, _fig3_design(SD_ACC_SEG, SD_SOURCE_SEG_ACC, WIN_ACC.value),
            selection="every m of the declared grid (§4: 'higher accuracy than the Nyström decomposition approach')")
    for m in FIG3_GRID
}
FIG3_FULL_RULES = {
    a: Rule(f"{METHOD_LABELS[a]} accuracy above full kernel k-means",
            f"accuracy of {METHOD_LABELS[a]} (rank 2) − of full kernel k-means, paired", EXCEEDS, WIN_ACC,
            _fig3_design(SD_ACC_SEG, SD_SOURCE_SEG_ACC, WIN_ACC.value),
            selection="§4: 'both our method and the … exact eigenvalue decomposition … have higher accuracy than "
                      "the full Kernel K-means': two checks")
    for a in ("onepass", "kpca")
}


def _per_run(d: pd.DataFrame, method: str, col: str) -> pd.Series:
    """The column of one method's rows, indexed by seed (runs are paired by seed)."""
    sub = d[d["method"] == method]
    return sub.groupby("seed")[col].mean()


def _paired(d: pd.DataFrame, a: str, b: str, col: str) -> Estimate:
    """mean(a − b) over the seeds both methods ran (the same data draw per seed)."""
    x, y = _per_run(d, a, col), _per_run(d, b, col)
    common = x.index.intersection(y.index)
    return Estimate.paired(x[common].to_numpy(), y[common].to_numpy())


def _judged_rows(df: pd.DataFrame) -> pd.DataFrame | Verdict:
    """The finished rows with their ``method`` (:func:`method_of`), or the not-run verdict
    when there are none or they lack the error and accuracy columns."""
    d = ok_rows(df)
    if d.empty:
        return not_run("no row")
    if (why := require_columns(d, [ERR, "train_accuracy"], ERR_WHY)) is not None:
        return not_run(why)
    return d.assign(method=method_of(d))


def _absent(rule: Rule, why: str) -> Check:
    return Check(rule.name, None, why, cause_detail="rows absent", rule=rule)


def _judge(rule: Rule, d: pd.DataFrame, a: str, b: str, col: str, level: float, detail: str = "") -> Check:
    """``rule`` on the paired difference a − b of ``col`` (undecided when a method is absent)."""
    if not {a, b} <= set(d["method"]):
        return _absent(rule, f"no rows of {', '.join(label(x) for x in (a, b) if x not in set(d['method']))}")
    return rule.check(_paired(d, a, b, col), detail, level=level)


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


def _setting_line(label_: str, est: Estimate, paper: float, tol: float) -> tuple[bool, str]:
    """Whether the 95 % interval of ``est`` meets [paper − tol, paper + tol], and its text."""
    lo, hi = est.interval()
    ok = lo <= paper + tol and hi >= paper - tol
    return ok, f"{label_} {est.value:.3f} [{lo:.3f}, {hi:.3f}] vs {paper:.2f}"


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


TABLE1_FIG2 = Entry(
    name="pourkamali_table1_fig2",
    label={"paper": "rings reconstructed for the paper's 2-D data"},
    paper_runs=100,
    title="Pourkamali-Anaraki & Becker, Table 1 and Fig. 2",
    claim=("on 2-D data separable only with a degree-2 kernel, the one-pass rank-2 method matches the "
           "exact eigendecomposition (error 0.40, accuracy 0.99) and beats Nyström with 20 and 100 columns"),
    rule=(f"95% intervals over runs paired by seed. Counted: one-pass accuracy − Nyström accuracy > 0 for m = 20 "
          f"and for m = 100 (two checks; smallest gain that counts {WIN_ACC_T1.value}, Table 1's last digit). "
          f"Sanity, shown and not counted: one-pass − exact error within ±{ERR_MARGIN.value} and accuracy ≥ "
          f"{ACC_MARGIN.value}, and one-pass error below Nyström — {RANK_NOTE}, and Eckart–Young makes the exact "
          f"rank-2 error the smallest; one family, Holm (kktheory/report/pourkamali.py, judge_table1_fig2)"),
    draw=draw_table1_fig2,
    judge=judge_table1_fig2,
    paper_numbers=tuple(
        PaperNumber(f"{name}: {what}", value, "Table 1", key=f"{method}/{what}")
        for name, method, err, acc in TABLE1_PAPER for what, value in (("error", err), ("accuracy", acc))
    ),
    observe=observe_table1,
    figure_data=FigureData(runs=fig2_runs, table=fig2_points),  # Fig. 2's scatter
    changes={
        "small": "10 runs instead of 100",
        "paper": "stand-in data: the paper's 2-D data (its Fig. 1) are not given; two rings of radii 1 and 5 "
                 "(noise 0.2), a reconstruction whose radii were tuned here so that Table 1's exact and one-pass "
                 "rows come out (0.40, 0.99); n = 4000 as the paper; 100 of 100 runs",
    },
    shortfall={"small": CAUSE_SCALE, "paper": CAUSE_STAND_IN},  # the rings are a reconstruction
    rules=(EXACT_RULE_T1, EXACT_ACC_RULE_T1, *(r for m in TABLE1_M for r in TABLE1_RULES[m])),
    setting=setting_table1,
)


# -- Fig. 3 ------------------------------------------------------------------------------
def draw_fig3(df: pd.DataFrame, out_dir: Path) -> list[Path]:
    """(a) approximation error and (b) accuracy vs the number m of sampled columns."""
    plt = pyplot()
    d = ok_rows(df).copy()
    d["method"] = method_of(d)
    note = onepass_note(d)
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    for ax, col, ylabel in ((axes[0], ERR, r"$\|K-\hat K\|_F / \|K\|_F$"), (axes[1], "train_accuracy", "clustering accuracy")):
        ny = d[d[SKETCH_COL] == "nystrom_rr"]
        if len(ny) and col in ny:
            st = mean_ci(ny, "m", col)
            c, mk = color_marker("nystrom_rr")
            ax.errorbar(st["m"], st["mean"], yerr=st["sd"], color=c, marker=mk, ms=4, capsize=3,
                        label="Nyström (rank 2)")
        for j, meth in enumerate(("onepass", "kpca", "exact")):
            cur = d[d[SKETCH_COL] == meth]
            if cur.empty or col not in cur or cur[col].isna().all():
                continue
            if meth == "exact" and col == ERR:
                continue
            c, _ = color_marker(meth, j)
            extra = f" ({note})" if meth == "onepass" and note else ""
            ax.axhline(cur[col].mean(), color=c, ls="--" if meth != "kpca" else "-", lw=1.4,
                       label=METHOD_LABELS[meth] + extra)
        ax.set_xlabel("number of sampled columns m")
        ax.set_ylabel(ylabel)
        ax.legend()
    axes[0].set_title("(a) kernel approximation error")
    axes[1].set_title("(b) clustering accuracy")
    fig.suptitle(f"Pourkamali-Anaraki & Becker Fig. 3 — segment, n = {int(d['n'].iloc[0])}, polynomial kernel "
                 f"⟨x, y⟩², rank r = 2; mean ± sd over {d['seed'].nunique()} runs", fontsize=10)
    fig.tight_layout()
    return save_figure(fig, out_dir, "pourkamali_fig3")


#: Pourkamali-Anaraki & Becker §4 (segment): the accuracy of full kernel k-means, r = rank K
FULL_KKM_ACCURACY = 0.46
FIG3_M_MAX = 50  # §4: r' = 7 sampled rows beat m = 50 ≈ 7r' Nyström columns


def judge_fig3(df: pd.DataFrame, level: float = LEVEL) -> Verdict:
    """Pourkamali Fig. 3 claim rule, as confidence-interval tests over runs paired by seed
    (the declared rules :data:`FIG3_ERR_RULES`, :data:`FIG3_CLOSE_RULE`,
    :data:`FIG3_ACC_RULES`, :data:`FIG3_FULL_RULES`; one check per comparison, never pooled).

    The paper (§4, segment, r = 2, l = 5) states: sampling r' = 7 rows of the preconditioned
    K "leads to a more accurate decomposition than sampling m = 50 ≈ 7r' columns" with
    Nyström, "very close to the optimal exact eigenvalue decomposition"; the one-pass
    accuracy is "higher than the Nyström decomposition approach"; full kernel k-means
    reaches 0.46 and both rank-2 methods are more accurate. Checks:

    1. one-pass error − Nyström error < 0 at every m ≤ 50 of the declared grid (smallest
       effect that counts 0.01, the paper's printed resolution of errors);
    2. one-pass − exact decomposition error within ±0.02 (half the smallest gap the paper
       treats as a real difference, Table 1's 0.44 vs 0.40);
    3. one-pass accuracy − Nyström accuracy > 0 at every m of the grid (smallest effect 0.02);
    4. one-pass accuracy − full kernel k-means > 0, and exact decomposition − full kernel
       k-means > 0 (two checks, smallest effect 0.02).
    """
    d = _judged_rows(df)
    if isinstance(d, Verdict):
        return d
    nys = [m for m in FIG3_GRID if _nys(m) in set(d["method"])]
    if "onepass" not in set(d["method"]) or not nys:
        return not_run("one-pass and Nyström rows are both needed")
    checks = [_judge(FIG3_ERR_RULES[m], d, "onepass", _nys(m), ERR, level) for m in FIG3_ERR_RULES]
    checks.append(_judge(FIG3_CLOSE_RULE, d, "onepass", "kpca", ERR, level))
    checks += [_judge(FIG3_ACC_RULES[m], d, "onepass", _nys(m), "train_accuracy", level) for m in FIG3_GRID]
    checks += [_judge(FIG3_FULL_RULES[a], d, a, "exact", "train_accuracy", level) for a in FIG3_FULL_RULES]
    return judge_checks(checks, f"segment, n = {int(d['n'].iloc[0])}, {d['seed'].nunique()} runs per method", level)


def setting_fig3(df: pd.DataFrame) -> str:
    """Fig. 3's setting check: full kernel k-means' accuracy against §4's 0.46 (no spread
    printed: ±0.005, half its last digit, around our 95 % interval)."""
    est = observe_fig3(df).get("exact/accuracy")
    if est is None or not math.isfinite(est.value):
        return ""
    ok, text = _setting_line("full kernel k-means accuracy", est, FULL_KKM_ACCURACY, 0.005)
    return (f"setting {'matches' if ok else 'differs'}: {text} (§4; no spread printed: tolerance ±0.005, half its last "
            f"digit, around our 95 % interval); the rank-2 curves of Fig. 3 are printed only as a plot")


def observe_fig3(df: pd.DataFrame) -> dict[str, Estimate]:
    """Mean accuracy of full kernel k-means (the one number §4 states)."""
    d = ok_rows(df)
    d = d.assign(method=method_of(d))
    return {"exact/accuracy": Estimate.mean_of(_per_run(d, "exact", "train_accuracy").to_numpy())}


FIG3 = Entry(
    name="pourkamali_fig3",
    label={"paper": 'UCI segmentation as the paper'},
    paper_runs=100,
    title="Pourkamali-Anaraki & Becker, Fig. 3",
    claim=("on image segmentation data the one-pass method (r' = 7) approximates K better than Nyström "
           "with up to 50 columns, close to the exact decomposition, and clusters more accurately than "
           "Nyström and than full kernel k-means (0.46)"),
    rule=(f"95% intervals over runs paired by seed, one check per comparison: one-pass − Nyström error < 0 at "
          f"every m ≤ {FIG3_M_MAX} of the grid (§4: m = 50 ≈ 7r'; smallest effect {WIN_ERR.value}); one-pass − exact "
          f"decomposition error within ±{CLOSE} (half Table 1's 0.44 vs 0.40); one-pass − Nyström accuracy > 0 at "
          f"every m (smallest effect {WIN_ACC.value}); one-pass, and exact rank-2, accuracy − full kernel k-means "
          f"> 0 (two checks); one family, Holm (kktheory/report/pourkamali.py, judge_fig3)"),
    draw=draw_fig3,
    judge=judge_fig3,
    paper_numbers=(PaperNumber("full kernel k-means: accuracy", FULL_KKM_ACCURACY, "§4, Fig. 3 text",
                               key="exact/accuracy"),),
    observe=observe_fig3,
    changes={
        "small": "10 runs instead of 100",
        "paper": "UCI image segmentation (2310 rows, 19 attributes, rows scaled to unit ℓ2 norm) as the paper; "
                 "100 of 100 runs",
    },
    rules=(*FIG3_ERR_RULES.values(), FIG3_CLOSE_RULE, *FIG3_ACC_RULES.values(), *FIG3_FULL_RULES.values()),
    setting=setting_fig3,
)

ENTRIES = [TABLE1_FIG2, FIG3]
