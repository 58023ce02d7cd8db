"""Pourkamali-Anaraki & Becker, Fig. 3.

The catalogue entry ``pourkamali_fig3``: its checks declared before the data, its drawing, its
setting check and its judgement. What it shares with Pourkamali-Anaraki & Becker's other entries is in
:mod:`kktheory.report.pourkamali`.
"""

from __future__ import annotations

import math
from pathlib import Path
import pandas as pd
from kktheory.report.claims import EQUIVALENT, EXCEEDS, Design, Margin, Rule
from kktheory.report.verdicts import Verdict, judge_checks, not_run
from kktheory.report.paper_numbers import PaperNumber
from kktheory.report.rows import SKETCH_COL, ok_rows
from kktheory.report.stats import mean_ci
from kktheory.report.style import color_marker, legend_below, pyplot, save_figure
from kktheory.report.decide import LEVEL, Estimate
from kktheory.report.entry import Entry
from kktheory.report.pourkamali import (
    CLOSE, CLOSE_MARGIN, ERR, FIG3_M_MAX, FULL_KKM_ACCURACY, METHOD_LABELS, PAPER_RUNS, WIN_ERR, _judge, _judged_rows, _nys, _per_run, _setting_line, method_of, onepass_note,
)


FIG3_GRID = (5, 10, 20, 30, 40, 50, 75, 100)  # Nyström's m in experiments/pourkamali_fig3.yaml


WIN_ACC = Margin(0.02, "two points of accuracy: two values printed to two decimals (as §4's 0.46) may differ by "
                       "0.01 from rounding alone; a gain that counts must exceed that", "Pourkamali §4 (0.46)")


SD_ACC_SEG = 0.08


SD_ERR_SEG = 0.04


SD_SOURCE_SEG_ACC = ("sd 0.08 per paired run: planning value, a 7-class accuracy spreading by ≈ 0.05 per method and "
                     "run (Yin Table 2 prints 0.01–0.03 on segment for other sketches; doubled for a rank-2 "
                     "embedding), √2 × 0.05 for a difference; the paper prints no spread")


SD_SOURCE_SEG_ERR = ("sd 0.04 per paired run: planning value, the spread of Nyström's error in the Table 1 "
                     "experiment here (0.037 at m = 20), another experiment than the one judged")


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
    axes[0].set_title("(a) kernel approximation error")
    axes[1].set_title("(b) clustering accuracy")
    fig.suptitle(f"Pourkamali-Anaraki & Becker Fig. 3 — segment, n = {int(d['n'].iloc[0])}, polynomial kernel "
                 f"⟨x, y⟩², rank r = 2; mean ± sd over {d['seed'].nunique()} runs", fontsize=10)
    legend_below(fig, axes)
    return save_figure(fig, out_dir, "pourkamali_fig3")


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


#: the paper's figure or table this entry reproduces
TITLE = "Pourkamali-Anaraki & Becker, Fig. 3"

#: what the paper claims
CLAIM = ("on image segmentation data the one-pass method (r' = 7) approximates K better than Nyström "
         "with up to 50 columns, close to the exact decomposition, and clusters more accurately than "
         "Nyström and than full kernel k-means (0.46)")

#: how the rows judge it
RULE = (f"95% intervals over runs paired by seed, one check per comparison: one-pass − Nyström error < 0 at "
        f"every m ≤ {FIG3_M_MAX} of the grid (§4: m = 50 ≈ 7r'; smallest effect {WIN_ERR.value}); one-pass − exact "
        f"decomposition error within ±{CLOSE} (half Table 1's 0.44 vs 0.40); one-pass − Nyström accuracy > 0 at "
        f"every m (smallest effect {WIN_ACC.value}); one-pass, and exact rank-2, accuracy − full kernel k-means "
        f"> 0 (two checks); one family, Holm (kktheory/report/entries/pourkamali_fig3.py, judge_fig3). One-pass is "
        f"read as full_core: Q = orth(W) with all r' columns, truncated to rank r after the core, as the single-pass "
        f"method the paper cites does and as its own §3 says — Q's 'columns form an orthonormal basis for the range of "
        f"W', found 'via the QR decomposition' of W = KΩ (n × r'), a range of dimension r', not r —, and the reading "
        f"its Table 1 selects, where one-pass's error and accuracy equal the "
        f"exact rank-2 decomposition's (0.40, 0.99), which on that rank-3 kernel only full_core gives. The paper's "
        f"Q ∈ R^(n×r) read literally (rank_first) is another method here: on segment at small scale its error is "
        f"0.237 against full_core's 0.189 and the exact decomposition's 0.179, above Nyström's from m = 10, so these "
        f"checks would not pass under it (kktheory/embeddings/onepass.py)")

#: what each scale changes against the paper
CHANGES = {
    "small": "10 runs instead of 100",
    "paper": "UCI image segmentation (2310 rows, 19 attributes, rows scaled to unit ℓ2 norm) as the paper; "
             "100 of 100 runs",
}


FIG3 = Entry(
    name="pourkamali_fig3", place=(4, 2), label={"paper": 'UCI segmentation as the paper'}, paper_runs=100,
    title=TITLE, claim=CLAIM, rule=RULE, draw=draw_fig3, judge=judge_fig3,
    paper_numbers=(PaperNumber("full kernel k-means: accuracy", FULL_KKM_ACCURACY, "§4, Fig. 3 text",
                               key="exact/accuracy"),),
    observe=observe_fig3, changes=CHANGES,
    rules=(*FIG3_ERR_RULES.values(), FIG3_CLOSE_RULE, *FIG3_ACC_RULES.values(), *FIG3_FULL_RULES.values()),
    setting=setting_fig3,
)
