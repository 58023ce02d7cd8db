"""Pourkamali-Anaraki & Becker, Table 1 and Fig. 2.

The catalogue entry ``pourkamali_table1_fig2``: its checks declared before the data, its drawing, its
setting check and its judgement. What it shares with Pourkamali-Anaraki & Becker's other entries is in
:mod:`kktheory.report.pourkamali`.

One-pass is the exact decomposition here, by construction. The kernel ⟨x, y⟩² on points of
R² has the three features x₁², √2·x₁x₂, x₂², so rank K = 3 ≤ r′ = r + l = 12. The one-pass
sketch W = KΩ then spans range(K) (Ω has full rank on it almost surely), Q = orth(W) holds
range(K), the core B = QᵀKQ is exact, and keeping its two leading eigenpairs
(``reading=full_core``, :mod:`kktheory.embeddings.onepass`) gives K's two leading eigenpairs:
K̂ = K₂, the exact rank-2 decomposition. The features are the same up to an orthogonal map
(the signs of the eigenvectors; Fig. 2's one-pass panel is the exact one mirrored), and
k-means with the same seed reads only distances, which such a map keeps: the clustering
is the same too. The committed rows (seeds 0–199) show it in every run: the accuracies, NMI,
ARI and k-means objectives are equal, the errors agree within 7·10⁻¹⁵. Comparing the two
is therefore one sanity check (:data:`IDENTITY_RULE`, shown, not counted), and "one-pass
beats Nyström" is "the exact rank-2 decomposition beats Nyström": one check per m, not two.

Counted (declared 2026-11-27, after seeds 0–99 were seen: judged only on seeds ≥ 100,
:meth:`~kktheory.report.claims.Rule.fresh`):

- the paper's words about Nyström (§4, the paragraph before Table 1): "the Nyström method
  does not provide an accurate solution even for a large value of m = 100 ≈ 8r′" — the
  share of runs in which Nyström is *not* accurate is at least one half, for m = 20 and for
  m = 100 (:data:`NYS_RULES`). The accuracies are bimodal (near 0.75 or near 1.0), so the
  share of runs, not the mean, is what "not accurate" is about; a run is accurate when its
  accuracy is at least :data:`ACCURATE` = 0.87, the midpoint of Table 1's 0.99 (called
  accurate) and 0.75 (called not accurate);
- "our method outperforms the Nyström technique on this data set" (§4, Table 1): the
  paired accuracy gain of one-pass over Nyström is positive (an ``exceeds`` check: a pass
  shows the sign, not the paper's gap 0.24–0.25). The size of that gap is not a second
  quantity: with one-pass accurate in (nearly) every run, the gap is ≈ 0.25 × the share of
  runs in which Nyström is not accurate, which the first check judges.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
import numpy as np
import pandas as pd

from kktheory.report.claims import AT_MOST, EXCEEDS, SHARE, Design, Margin, Rule
from kktheory.report.verdicts import CAUSE_SCALE, CAUSE_STAND_IN, Check, Verdict, judge_checks, not_run
from kktheory.report.paper_numbers import PaperNumber
from kktheory.report.rows import SKETCH_COL, ok_rows
from kktheory.report.stats import fmt, mean_ci
from kktheory.report.style import pyplot, save_figure
from kktheory.report.decide import LEVEL, Estimate
from kktheory.report.entry import Entry, FigureData
from kktheory.report.pourkamali import (
    ERR, PAPER_RUNS, WIN_ERR, _absent, _judge, _judged_rows, _nys, _per_run, _setting_line, label, method_of,
    onepass_note,
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


def _drawn(df: pd.DataFrame) -> dict[str, pd.Series]:
    """{method: the row of the run Fig. 2 draws for it (:func:`fig2_runs`)}."""
    d = ok_rows(df)
    ids = fig2_runs(d)
    if not ids:
        return {}
    d = d[d["run_id"].isin(ids)]
    return {m: r for m, (_, r) in zip(method_of(d), d.iterrows())}


def _accurate_count(df: pd.DataFrame) -> dict[str, tuple[int, int]]:
    """{method: (runs with accuracy ≥ :data:`ACCURATE`, runs)}."""
    d = ok_rows(df)
    d = d.assign(method=method_of(d))
    return {m: (int((acc >= ACCURATE).sum()), len(acc))
            for m in d["method"].unique() for acc in [_per_run(d, m, "train_accuracy")]}


def draw_table1_fig2(df: pd.DataFrame, out_dir: Path) -> list[Path]:
    """Table 1 (error and accuracy per method, and the runs that are accurate, Markdown) and
    Fig. 2 (2-D embeddings: each panel one run, titled with that run's seed, error and
    accuracy, then the method's mean accuracy and accurate runs over all runs)."""
    s = _summary(df).set_index("method")
    good = _accurate_count(df)
    out_dir.mkdir(parents=True, exist_ok=True)
    md = out_dir / "pourkamali_table1.md"
    lines = ["# Pourkamali-Anaraki & Becker, Table 1 (reproduced)", "",
             f"| method | kernel approx. error ‖K−K̂‖_F/‖K‖_F | clustering accuracy | accurate runs (accuracy ≥ "
             f"{ACCURATE}) | runs |", "|---|---|---|---|---|"]
    for m in _order(s.index):
        r = s.loc[m]
        k, n = good.get(m, (0, 0))
        lines.append(f"| {label(m)} | {fmt(r['error'])} ± {fmt(r['error_sd'], 2)} | "
                     f"{fmt(r['accuracy'])} ± {fmt(r['accuracy_sd'], 2)} | {k} of {n} | {int(r['count'])} |")
    note = onepass_note(df)
    feats, missing = fig2_features(df)
    gap = (f" Fig. 2 lacks {', '.join(label(m) for m in missing)}: no points of the first run (its arrays "
           f"hold no `train_features`, as in runs computed before kktheory kept planar features, and no "
           f"committed points table has them); recompute those runs to draw them." if missing else "")
    md.write_text("\n".join(lines) + "\n\nMean ± sd over runs; accuracy of the clustering of all points; a run is "
                  f"accurate when its accuracy is at least {ACCURATE} (the midpoint of Table 1's 0.99 and 0.75: the "
                  f"accuracies are bimodal, near 0.75 or near 1.0)."
                  + (f" One-pass: {note}." if note else "") + gap + "\n")
    methods = _order(feats)
    paths = [md]
    if methods:
        drawn = _drawn(df)
        plt = pyplot()
        fig, axes = plt.subplots(1, len(methods), figsize=(3.2 * len(methods), 3.7), squeeze=False)
        for ax, m in zip(axes[0], methods):
            F, y = feats[m]
            for j, cls in enumerate(np.unique(y)):
                ax.scatter(F[y == cls, 0], F[y == cls, 1], s=2, alpha=0.5, color=f"C{j}", label=f"class {cls}")
            name = f"{label(m)} ({note})" if m == "onepass" and note else label(m)
            run = drawn.get(m)
            this = (f"seed {int(run['seed'])} (drawn): error {run[ERR]:.3f}, accuracy {run['train_accuracy']:.3f}"
                    if run is not None else "")
            k, n = good.get(m, (0, 0))
            ax.set_title(f"{name}\n{this}\nall {n} runs: mean accuracy {s.loc[m, 'accuracy']:.3f}, "
                         f"{k} accurate", fontsize=9)
            ax.set_xlabel("$y_1$")
            ax.set_ylabel("$y_2$")
        axes[0][0].legend(markerscale=5, loc="best")
        fig.suptitle("Pourkamali-Anaraki & Becker Fig. 2 — rank-2 embeddings Y (K ≈ YᵀY) of the 2-D data, polynomial "
                     "kernel ⟨x, y⟩², coloured by true class\neach panel draws one run (its seed, error and accuracy); "
                     f"below, the method over all runs (accurate: accuracy ≥ {ACCURATE})", fontsize=9)
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


#: the counted checks were declared on this day, after the committed seeds 0–99 had been seen:
#: they are judged only on the seeds run after it (100–199)
DECLARED = "2026-11-27"
FRESH_FROM = 100


IDENTITY_MARGIN = Margin(1e-9, "the same matrices computed two ways: only round-off may differ (the committed "
                               "seeds 0–99 differ by at most 7e-15 in error and not at all in accuracy)",
                         "rank K = 3 ≤ r′ = 12; kktheory/embeddings/onepass.py (full_core)")


IDENTITY_RULE = Rule(
    "one-pass = exact decomposition, run by run",
    "largest |one-pass − exact decomposition| over the seeds of ‖K − K̂‖_F/‖K‖_F and of the accuracy, paired "
    "by seed (every run)", AT_MOST, IDENTITY_MARGIN, None,
    selection=f"{RANK_NOTE}; k-means with the same seed on features equal up to an orthogonal map clusters the "
              f"same (Table 1 prints 0.40 and 0.99 for both)", sanity=True)


#: a run clusters accurately when its accuracy is at least this
ACCURATE = 0.87
ACCURATE_WHY = ("0.87, the midpoint of Table 1's 0.99, which the paper calls accurate (Fig. 2 caption: exact and "
                "one-pass 'identify the two underlying clusters accurately'), and 0.75, Nyström's, which it calls "
                "not accurate (§4): a run is accurate when its accuracy is nearer 0.99 than 0.75")


NOT_ACCURATE = Margin(
    0.5, "'does not provide an accurate solution' is a statement about the method, read in its weakest form: "
         "not accurate in at least half the runs (Table 1's Nyström accuracies 0.74 and 0.75, at the failure mode, "
         "mean not accurate in every run: share 1)",
    "Pourkamali §4, the paragraph before Table 1: 'the Nyström method does not provide an accurate solution even "
    "for a large value of m = 100 ≈ 8r′'; Table 1")


WIN_ACC_T1 = Margin(0.01, "one point of accuracy, the last digit Table 1 prints: a smaller gain would print as a tie",
                    "Pourkamali Table 1 (two decimals); §4: 'our method outperforms the Nyström technique on this "
                    "data set'")


#: planning spreads (the paper prints none): a per-run accuracy confined to [0.5, 1] (two
#: balanced classes) has sd ≤ 0.25
SD_ACC_T1 = 0.25


SD_SOURCE_T1 = ("sd 0.25 per paired run: the largest spread of a two-class accuracy, which lies in [0.5, 1] (half "
                "its range); the paper prints no spread")


def _nys_rule(m: int) -> Rule:
    return Rule(
        f"Nyström not accurate, m = {m}",
        f"share of the runs in which Nyström (m = {m}, rank 2) clusters with accuracy below {ACCURATE} (not "
        f"accurate), one run per seed, exact Clopper–Pearson interval", SHARE, NOT_ACCURATE,
        Design("share", 0.75, NOT_ACCURATE.value, (), PAPER_RUNS,
               "planning: not accurate in three runs of four, below what Table 1 implies (its 0.74 / 0.75, at the "
               "failure mode, mean every run); null: half the runs; 100 runs after the declaration"),
        selection=f"m = {m} (Table 1; the paper's 'even for m = 100' names m = 100, m = 20 is a fortiori); "
                  f"accurate: accuracy ≥ {ACCURATE_WHY}",
        fresh_from=FRESH_FROM, declared=DECLARED)


def _err_rule(m: int) -> Rule:
    return Rule(
        f"one-pass error below Nyström, m = {m}", f"error of one-pass − of Nyström (m = {m}), paired by seed",
        EXCEEDS, WIN_ERR, None, sign=-1.0, sanity=True,
        selection=f"{RANK_NOTE}, and by Eckart–Young no rank-2 Nyström approximation has a smaller Frobenius "
                  f"error than the exact one: the sign holds by construction")


def _acc_rule(m: int) -> Rule:
    paper_acc = {20: 0.74, 100: 0.75}[m]
    return Rule(
        f"one-pass accuracy above Nyström, m = {m}", f"accuracy of one-pass − of Nyström (m = {m}), paired by seed",
        EXCEEDS, WIN_ACC_T1,
        Design("paired", round(0.99 - paper_acc, 2), 0.0, (SD_ACC_T1,), PAPER_RUNS,
               f"the paper's gap 0.99 − {paper_acc} (Table 1); {SD_SOURCE_T1}; 100 runs after the declaration"),
        selection=f"m = {m} (Table 1); the sign only ('outperforms'): the size of the gap is ≈ 0.25 × the share of "
                  f"runs in which Nyström is not accurate, judged by 'Nyström not accurate, m = {m}'; one-pass is "
                  f"the exact decomposition here (one-pass = exact decomposition, run by run), so this is also "
                  f"'exact rank-2 beats Nyström'",
        fresh_from=FRESH_FROM, declared=DECLARED)


#: per Nyström m: the sanity sign of the error, "Nyström not accurate", "one-pass accuracy above Nyström"
ERR_RULES = {m: _err_rule(m) for m in TABLE1_M}
NYS_RULES = {m: _nys_rule(m) for m in TABLE1_M}
ACC_RULES = {m: _acc_rule(m) for m in TABLE1_M}


def _identity(d: pd.DataFrame, level: float) -> Check:
    """:data:`IDENTITY_RULE` on every run: the largest paired |difference| of error and accuracy,
    a value without sampling error (an identity, not an estimate of one)."""
    rule = IDENTITY_RULE
    if not {"onepass", "kpca"} <= set(d["method"]):
        return _absent(rule, "one-pass and exact decomposition rows are both needed")
    gaps = {}
    for col in (ERR, "train_accuracy"):
        a, b = _per_run(d, "onepass", col), _per_run(d, "kpca", col)
        common = a.index.intersection(b.index)
        gaps[col] = float((a[common] - b[common]).abs().max())
    est = replace(Estimate.known(max(gaps.values()), 0.0), runs=len(common))
    return rule.check(est, f"largest |Δ| over {len(common)} seeds: error {gaps[ERR]:.2g}, accuracy "
                           f"{gaps['train_accuracy']:.2g}", level=level)


def _not_accurate(rule: Rule, d: pd.DataFrame, m: int, level: float) -> Check:
    """``rule`` (:data:`NYS_RULES`) on the share of Nyström's runs with accuracy below :data:`ACCURATE`."""
    if _nys(m) not in set(d["method"]):
        return _absent(rule, f"no rows of {label(_nys(m))}")
    acc = _per_run(d, _nys(m), "train_accuracy")
    low = int((acc < ACCURATE).sum())
    return rule.check(Estimate.proportion(low, len(acc)), f"{low} of {len(acc)} runs below {ACCURATE}", level=level)


def _fresh(rule: Rule, d: pd.DataFrame) -> pd.DataFrame | None:
    """The rows ``rule`` may judge (:meth:`Rule.fresh`), None when there are none yet."""
    f = rule.fresh(d)
    return f if len(f) else None


def bimodal_shares(df: pd.DataFrame) -> str:
    """The accuracies' two modes per method — runs below :data:`ACCURATE` (near 0.75) and at or
    above it (near 1.0), with their ranges — for the seeds judged (≥ :data:`FRESH_FROM`) and
    those seen before the declaration."""
    d = ok_rows(df)
    if d.empty:
        return ""
    d = d.assign(method=method_of(d))
    blocks = []
    for when, part in (("judged", d[d["seed"] >= FRESH_FROM]), ("seen before the declaration", d[d["seed"] < FRESH_FROM])):
        if part.empty:
            continue
        lo, hi = int(part["seed"].min()), int(part["seed"].max())
        items = []
        for m in _order(set(part["method"]) - {"onepass"}):
            acc = _per_run(part, m, "train_accuracy")
            low, high = acc[acc < ACCURATE], acc[acc >= ACCURATE]
            rng = (lambda x: "" if not len(x) else f" (all {x.min():.3f})" if x.min() == x.max()
                   else f" ({x.min():.3f}–{x.max():.3f})")
            who = "exact = one-pass" if m == "kpca" else label(m)
            items.append(f"{who}: {len(low)} of {len(acc)} near 0.75{rng(low)}, {len(high)} near 1.0{rng(high)}")
        blocks.append(f"seeds {lo}–{hi} ({when}): " + "; ".join(items))
    return (f"accuracy is bimodal (a run is accurate when ≥ {ACCURATE}): " + " | ".join(blocks))


def judge_table1_fig2(df: pd.DataFrame, level: float = LEVEL) -> Verdict:
    """Pourkamali Table 1 claim rule, as confidence-interval tests over runs paired by seed
    (the declared rules :data:`IDENTITY_RULE`, :data:`ERR_RULES`, :data:`NYS_RULES`,
    :data:`ACC_RULES`).

    Sanity (shown, not counted; every run): one-pass = the exact decomposition run by run
    (rank K = 3 ≤ r′ = 12 with ⟨x, y⟩² in 2-D: the module docstring), and the sign of
    "one-pass error below Nyström" (one-pass is the exact best rank-2 approximation here,
    Eckart–Young). Counted, for m = 20 and m = 100, on the seeds run after the declaration
    (``rule.fresh``): Nyström is not accurate (accuracy < 0.87) in at least half the runs
    (§4: "does not provide an accurate solution even for m = 100"), and one-pass accuracy −
    Nyström accuracy > 0 (§4: "outperforms"; 0.01 the smallest gain that counts, Table 1's
    last digit). The observed text reports the accuracies' two modes per method.
    """
    d = _judged_rows(df)
    if isinstance(d, Verdict):
        return d
    if not {"onepass", "kpca"} <= set(d["method"]):
        return not_run("one-pass and exact decomposition rows are both needed")
    checks = [_identity(d, level)]
    for m in TABLE1_M:
        checks.append(_judge(ERR_RULES[m], d, "onepass", _nys(m), ERR, level))
        for rule in (NYS_RULES[m], ACC_RULES[m]):
            f = _fresh(rule, d)
            if f is None:
                checks.append(rule.awaiting(level))
            elif rule is NYS_RULES[m]:
                checks.append(_not_accurate(rule, f, m, level))
            else:
                paper = round(0.99 - {20: 0.74, 100: 0.75}[m], 2)
                checks.append(_judge(rule, f, "onepass", _nys(m), "train_accuracy", level, f"paper's gap {paper}"))
    fresh = d[d["seed"] >= FRESH_FROM]["seed"].nunique()
    observed = (f"n = {int(d['n'].iloc[0])}, {d['seed'].nunique()} runs per method; counted checks on the {fresh} "
                f"run(s) after their declaration ({DECLARED}, seeds ≥ {FRESH_FROM}); {bimodal_shares(d)}")
    return judge_checks(checks, observed, level)


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
         "exact eigendecomposition (error 0.40, accuracy 0.99) and outperforms Nyström with 20 and 100 columns, "
         "which 'does not provide an accurate solution even for a large value of m = 100' (§4; Table 1: 0.74, 0.75)")

#: how the rows judge it
RULE = (f"Counted, declared {DECLARED} after seeds 0–99 were seen, so judged only on seeds ≥ {FRESH_FROM}: for m = 20 "
        f"and for m = 100, Nyström is not accurate (accuracy < {ACCURATE}, the midpoint of Table 1's 0.99 and 0.75) "
        f"in at least half the runs (share, exact Clopper–Pearson interval; §4 'does not provide an accurate "
        f"solution even for m = 100'), and one-pass accuracy − Nyström accuracy > 0, paired by seed (§4 "
        f"'outperforms'; a pass shows the sign, the paper's gap 0.24–0.25 is ≈ 0.25 × the share above; smallest "
        f"gain that counts {WIN_ACC_T1.value}, Table 1's last digit). Sanity, shown and not counted, on every run: "
        f"one-pass = exact decomposition run by run (error and accuracy within {IDENTITY_MARGIN.value:g}) — "
        f"{RANK_NOTE} — and one-pass error below Nyström (Eckart–Young makes the exact rank-2 error the smallest); "
        f"one family, Holm (kktheory/report/entries/pourkamali_table1_fig2.py, judge_table1_fig2)")

#: what each scale changes against the paper
CHANGES = {
    "small": f"10 runs instead of the 100 declared at paper scale (seeds 0–9, seen before the counted checks' declaration: they judge no run "
             f"at this scale)",
    "paper": "stand-in data: the paper's 2-D data (its Fig. 1) are not given; two rings of radii 1 and 5 "
             "(noise 0.2), a reconstruction whose radii were tuned here so that Table 1's exact and one-pass "
             f"rows come out (0.40, 0.99); n = 4000 as the paper; the counted checks judge only the runs after "
             f"their declaration (seeds ≥ {FRESH_FROM}: 100 declared — Table 1 states no run count; the paper's §5 "
             f"re-runs its stochastic methods 100 times — and those its looks added; "
             f"the run count is in each check's line), beside the {FRESH_FROM} seen before it",
}


TABLE1_FIG2 = Entry(
    name="pourkamali_table1_fig2", place=(4, 1),
    label={"paper": "rings reconstructed for the paper's 2-D data"}, title=TITLE, claim=CLAIM,
    rule=RULE, draw=draw_table1_fig2, judge=judge_table1_fig2,
    paper_numbers=tuple(
        PaperNumber(f"{name}: {what}", value, "Table 1", key=f"{method}/{what}")
        for name, method, err, acc in TABLE1_PAPER for what, value in (("error", err), ("accuracy", acc))
    ),
    observe=observe_table1, figure_data=FigureData(runs=fig2_runs, table=fig2_points), changes=CHANGES,
    shortfall={"small": CAUSE_SCALE, "paper": CAUSE_STAND_IN},
    attribution=("2026-12-07: a pass on stand-in data holds on it only, as a failure there is not the claim's "
                 "(attribute_shortfall)",),
    rules=(*(r for m in TABLE1_M for r in (NYS_RULES[m], ACC_RULES[m])), IDENTITY_RULE,
           *(ERR_RULES[m] for m in TABLE1_M)),
    setting=setting_table1,
)
