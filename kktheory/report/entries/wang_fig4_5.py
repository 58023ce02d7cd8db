"""Wang, Gittens & Mahoney (2019), Figs. 4–5: Nyström, random feature maps (RFM) and the
two-step method of Chitta et al. (2011), NMI (Fig. 4) and kernel k-means objective (Fig. 5).

§5.2: "as measured by both NMIs and objective values, the Nyström method outperforms RFM in
most cases. Both the Nyström method and RFM are consistently superior to the two-step
method". Six checks, declared before the data (:data:`RULES`), distinct comparisons never
pooled: for NMI and for the objective, Nyström vs RFM ("most cases"), Nyström vs two-step
and RFM vs two-step ("consistently", two checks: "both A and B" is two claims). NMI on the
paper's three data sets; the objective on Mushrooms and PenDigits only, the data sets of
Fig. 5 ("For the Mushrooms and PenDigits data, we are able to evaluate the objective").

A *cell* is a (data set, s choice, c) of the config's grid (s ∈ {k, √(kc), no reduction},
c ∈ {3k, 9k, 27k, 81k}); two-step has no s and is matched on data set and c. In a cell the
difference of means over runs is tested with *exceeds* (pass: its 95 % interval beyond 0 in
the claim's direction; fail: the interval short of the smallest effect that counts): NMI on
the Welch difference of mean NMI, smallest effect :data:`NMI_CELL` (0.01); the objective on
the Welch difference of mean log objective (lower is better), smallest effect
:data:`OBJ_CELL` (1 %). A check is a share of cells (the cells read as a sample of the
paper's "cases"; :data:`MOST`, ⅔, "most cases"; :data:`CONSISTENTLY`, 0.8, "consistently"),
with exact Clopper–Pearson intervals: it *passes* when the share of cells whose test passes
lies above the claim's share; it *fails* when, even counting every undecided cell as holding,
the share lies below it (failed cells and cells without rows never hold) — a shortfall shown,
not a lack of runs; else it is undecided. Its design (:func:`_share_rule`) simulates the pass:
cells with the effect (a win three times the smallest that counts) in a share ``value`` of
the cells and none in the rest, 20 runs per arm, the judge's own cell test and share test;
power at every cell having the effect ("consistently") or nine in ten ("most"), size at the
claim's share exactly.

The objective is kktheory's RKHS kernel k-means cost divided by n (``objective``); the
paper's Fig. 5 prints the cost over the kernel columns k_i of §5.2's formula, another scale
(see the setting check, :func:`setting_fig45`). The relative claims are judged on ours.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from kktheory.report.claims import SHARE, Design, Margin, Rule
from kktheory.report.verdicts import CAUSE_READING, Check, Verdict, judge_checks, not_run
from kktheory.report.paper_numbers import PaperNumber
from kktheory.report.rows import DATASET_COL, SKETCH_COL, ok_rows, require_columns
from kktheory.report.style import color_marker, pyplot, save_figure
from kktheory.report.decide import LEVEL, PASS, FAIL, INCONCLUSIVE, Decision, Estimate, exceeds
from kktheory.report.entry import Entry
from kktheory.report.wang import PAPER_NMI_SD, S_RULE_COL

NYS, RFM, TWO = "nystrom_rr", "rff", "two_step"
FIG45_LABELS = {NYS: "Nyström", RFM: "RFM", TWO: "two-step"}
S_CHOICE = "s_choice"  # k | sqrt_kc | c, as the sketch's s rule was written


#: the s rules that mean "no dimensionality reduction": ℓ for Nyström (R itself), none for RFM
NO_REDUCTION = ("half_c", "c", "None", "nan", "none")


def _s_choice(rule: object) -> str:
    """k | sqrt_kc | c (no reduction) | an integer, from a row's ``sketch.s``."""
    text = str(rule)
    return "c" if text in NO_REDUCTION else text


def _fig45_frame(df: pd.DataFrame) -> pd.DataFrame:
    d = ok_rows(df)
    d = d[d[SKETCH_COL].isin([NYS, RFM, TWO])].copy()
    if S_RULE_COL in d:
        d[S_CHOICE] = d[S_RULE_COL].map(_s_choice).where(d[SKETCH_COL] != TWO, "—")
    else:
        d[S_CHOICE] = "—"
    return d


def _s_label(s: str) -> str:
    return {"k": "s = k", "sqrt_kc": "s = √(kc)", "c": "no reduction"}.get(s, f"s = {s}")


def _draw45(d: pd.DataFrame, col: str, ylabel: str, out_dir: Path, name: str, title: str) -> list[Path]:
    plt = pyplot()
    datasets = list(dict.fromkeys(d[DATASET_COL]))
    s_choices = [s for s in dict.fromkeys(d.loc[d[SKETCH_COL] != TWO, S_CHOICE])]
    fig, axes = plt.subplots(len(datasets), len(s_choices), figsize=(3.6 * len(s_choices), 3.0 * len(datasets)),
                             squeeze=False, sharey="row")
    for r, ds in enumerate(datasets):
        sub = d[d[DATASET_COL] == ds]
        cs = sorted(sub["m"].unique())
        pos = np.arange(len(cs))
        two = sub[sub[SKETCH_COL] == TWO].groupby("m")[col].quantile([0.25, 0.5, 0.75]).unstack()
        for j, sc in enumerate(s_choices):
            ax = axes[r, j]
            for off, meth in ((-0.18, NYS), (0.18, RFM)):
                cur = sub[(sub[SKETCH_COL] == meth) & (sub[S_CHOICE] == sc)]
                data = [cur.loc[cur["m"] == c, col].dropna().to_numpy() for c in cs]
                keep = [i for i, x in enumerate(data) if len(x)]
                if not keep:
                    continue
                color = color_marker(meth)[0]
                bp = ax.boxplot([data[i] for i in keep], positions=pos[keep] + off, widths=0.32,
                                patch_artist=True, showfliers=False)
                for patch in bp["boxes"]:
                    patch.set(facecolor=color, alpha=0.35, edgecolor=color)
                for med in bp["medians"]:
                    med.set(color=color)
                ax.plot([], [], color=color, lw=6, alpha=0.5, label=FIG45_LABELS[meth])
            if len(two):  # its median, and its interquartile range as a band (its runs spread widely)
                x = [pos[cs.index(c)] for c in two.index]
                ax.fill_between(x, two[0.25], two[0.75], color="0.3", alpha=0.15, lw=0,
                                label="two-step (quartiles)")
                ax.plot(x, two[0.5], color="0.3", ls="--", marker="d", ms=4, label="two-step (median)")
            ax.set_xticks(pos, [str(int(c)) for c in cs])
            ax.set_xlabel("sketch size c")
            ax.set_title(f"{ds}: {_s_label(sc)}")
            if j == 0:
                ax.set_ylabel(ylabel)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, frameon=False, bbox_to_anchor=(0.5, -0.02))
    fig.suptitle(title + f", {d['seed'].nunique()} runs per box", fontsize=10)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return save_figure(fig, out_dir, name)


def draw_fig45(df: pd.DataFrame, out_dir: Path) -> list[Path]:
    """Fig. 4 (NMI, three data sets) and Fig. 5 (objective, Mushrooms and PenDigits as the
    paper): boxes over runs per c, per s choice and data set; the two-step method (no s) as
    its median per c with its quartiles as a band."""
    d = _fig45_frame(df)
    return [
        *_draw45(d, "train_nmi", "NMI", out_dir, "wang_fig4_nmi",
                 "Wang et al. Fig. 4 — NMI of Nyström, random features (RFM) and two-step"),
        *_draw45(d[d[DATASET_COL].isin(FIG5_DATASETS)], "objective", "objective f/n (lower is better)", out_dir,
                 "wang_fig5_objective", "Wang et al. Fig. 5 — kernel k-means objective (f/n, not the paper's cost "
                 "over kernel columns) of Nyström, RFM and two-step"),
    ]


# -- the declared checks -----------------------------------------------------------------
#: the config's grid (experiments/wang_fig4_5.yaml and experiments/wang/data/)
FIG4_DATASETS = ("mnist", "mushrooms", "pendigits")
FIG5_DATASETS = ("mushrooms", "pendigits")  # Fig. 5: the data sets whose objective the paper evaluates
S_CHOICES = ("k", "sqrt_kc", "c")
C_FACTORS = (3, 9, 27, 81)
ARM_RUNS = 20  # the config's seeds (the paper: 500)
MOST, CONSISTENTLY = 2 / 3, 0.8
MOST_MARGIN = Margin(MOST, "'in most cases' read as at least two cells in three", "§5.2, the paper's words")
CONSISTENT_MARGIN = Margin(
    CONSISTENTLY, "'consistently superior' read leniently as at least four cells in five (with 24 cells that already "
    "needs all 24 to pass; a stricter share cannot be shown with this many cells)", "§5.2, the paper's words")
NMI_CELL = Margin(
    0.01, "a cell's mean NMI difference below one run's spread (the paper's per-run NMI sd ≈ 0.01) is not a "
    "superiority a box plot of 500 runs shows", "Wang et al. Tables 4–6 (per-run NMI sd 0.0001–0.0131)")
OBJ_CELL = Margin(
    0.01, "1 % of the objective: the smallest step between adjacent c that Fig. 5's captions print on Mushrooms "
    "(92.8 → 89.5, 3.6 %) is several times larger, and the values are printed to 0.1 on 85–210 (< 0.1 %)",
    "Wang et al. Fig. 5 captions")
OBJ_SD = 0.02  # planning spread of one run's log objective (none printed; twice the smallest effect)


def _cell_test(col: str, a: np.ndarray, b: np.ndarray, level: float = LEVEL) -> Decision:
    """A cell's test: NMI, Welch difference a − b exceeds 0 (fails below NMI_CELL); objective,
    Welch difference of log objective a − b below 0 (fails above −OBJ_CELL)."""
    if col == "train_nmi":
        return exceeds(Estimate.difference(a, b), NMI_CELL.value, level, 1.0)
    return exceeds(Estimate.difference(np.log(a), np.log(b)), OBJ_CELL.value, level, -1.0)


def _cells_pass(a: np.ndarray, b: np.ndarray, margin: float, sign: float, level: float = LEVEL) -> np.ndarray:
    """Vectorised :func:`_cell_test` on (cells × runs) arms already on the tested scale (NMI,
    or log objective): pass ⇔ the Welch interval lies beyond 0 in the claim's direction and
    does not lie wholly short of the smallest effect (a failure wins, as in ``exceeds``)."""
    va, vb = a.var(axis=1, ddof=1) / a.shape[1], b.var(axis=1, ddof=1) / b.shape[1]
    se = np.sqrt(va + vb)
    dof = (va + vb) ** 2 / (va**2 / (a.shape[1] - 1) + vb**2 / (b.shape[1] - 1))
    q = stats.t.ppf(0.5 + level / 2, dof)
    v = sign * (a.mean(axis=1) - b.mean(axis=1))
    return (v - q * se > 0) & (v + q * se >= margin)


def _share_sample(col: str, cells: int):
    """The design's draw: ``value`` is the share of the ``runs`` cells where the method wins by
    three times the smallest effect that counts (the rest: no difference); each cell has
    ``ARM_RUNS`` runs per arm; the judge's cell test (vectorised) and share estimate."""
    margin, sd = (NMI_CELL.value, PAPER_NMI_SD) if col == "train_nmi" else (OBJ_CELL.value, OBJ_SD)
    sign = 1.0 if col == "train_nmi" else -1.0

    def sample(rng: np.random.Generator, value: float, runs: int) -> Estimate:
        with_effect = math.floor(value * runs + 1e-9)
        shift = np.where(np.arange(runs) < with_effect, sign * 3 * margin, 0.0)[:, None]
        a = rng.normal(0.0, sd, (runs, ARM_RUNS)) + shift
        b = rng.normal(0.0, sd, (runs, ARM_RUNS))
        return Estimate.proportion(int(_cells_pass(a, b, margin, sign).sum()), runs)

    return sample


def _share_rule(label: str, col: str, a: str, b: str, datasets: tuple[str, ...], share: Margin, effect: float,
                words: str) -> Rule:
    cells = len(datasets) * len(S_CHOICES) * len(C_FACTORS)
    better = "higher NMI" if col == "train_nmi" else "lower objective"
    cell = NMI_CELL if col == "train_nmi" else OBJ_CELL
    return Rule(
        f"{label}: {FIG45_LABELS[a]} beats {FIG45_LABELS[b]}{' ' + words if words else ''}",
        f"share of the {cells} cells (data set × s × c) whose test passes: {FIG45_LABELS[a]} − {FIG45_LABELS[b]} "
        f"({better}), {'Welch difference of mean NMI' if col == 'train_nmi' else 'Welch difference of mean log objective'}"
        f" exceeds 0, smallest effect that counts {cell.value:g} ({cell.why}; {cell.source}); exact Clopper–Pearson "
        "interval of the share",
        SHARE, share,
        Design("share", effect, share.value, (PAPER_NMI_SD if col == "train_nmi" else OBJ_SD,), cells,
                     f"the run count is the number of cells; planning: a win of 3× the smallest effect in {effect:.0%} of the cells, none in the rest; per-run "
                     f"sd {PAPER_NMI_SD if col == 'train_nmi' else OBJ_SD:g} ({'the largest NMI sd the paper states' if col == 'train_nmi' else 'no spread printed: twice the smallest effect'}), "
                     f"{ARM_RUNS} runs per arm; size at exactly {share.value:.0%} of the cells with the effect; the "
                     "paper prints no Nyström or RFM value (Figs. 4–5 are box plots)", _share_sample(col, cells)),
        selection=f"data sets {', '.join(datasets)}; s ∈ {{k, √(kc), c}}, c ∈ {{3k, 9k, 27k, 81k}} (the config's grid)"
                  + ("; two-step matched on data set and c" if b == TWO else ""))


SHARE_RULES = {
    ("train_nmi", NYS, RFM): _share_rule("NMI", "train_nmi", NYS, RFM, FIG4_DATASETS, MOST_MARGIN, 0.9, "in most cases"),
    ("train_nmi", NYS, TWO): _share_rule("NMI", "train_nmi", NYS, TWO, FIG4_DATASETS, CONSISTENT_MARGIN, 1.0,
                                         "consistently"),
    ("train_nmi", RFM, TWO): _share_rule("NMI", "train_nmi", RFM, TWO, FIG4_DATASETS, CONSISTENT_MARGIN, 1.0,
                                         "consistently"),
    ("objective", NYS, RFM): _share_rule("objective", "objective", NYS, RFM, FIG5_DATASETS, MOST_MARGIN, 0.9,
                                         "in most cases"),
    ("objective", NYS, TWO): _share_rule("objective", "objective", NYS, TWO, FIG5_DATASETS, CONSISTENT_MARGIN, 1.0,
                                         "consistently"),
    ("objective", RFM, TWO): _share_rule("objective", "objective", RFM, TWO, FIG5_DATASETS, CONSISTENT_MARGIN, 1.0,
                                         "consistently"),
}
RULES = tuple(SHARE_RULES.values())


def _cells(d: pd.DataFrame, col: str, a: str, b: str, datasets: tuple[str, ...],
           level: float = LEVEL) -> dict[str, Decision | None]:
    """Per declared cell (data set, s choice, c = f·k): the cell test of ``a`` against ``b``
    (two-step matched on data set and c), or None when a side has no rows."""
    out: dict[str, Decision | None] = {}
    for ds in datasets:
        sub = d[d[DATASET_COL] == ds]
        if sub.empty:
            for sc in S_CHOICES:
                for f in C_FACTORS:
                    out[f"{ds} {_s_label(sc)} c = {f}k"] = None
            continue
        k = int(sub["k"].iloc[0])
        for sc in S_CHOICES:
            for f in C_FACTORS:
                c = f * k
                here = sub[(sub["m"] == c)]
                x = here.loc[(here[SKETCH_COL] == a) & (here[S_CHOICE] == sc), col].dropna().to_numpy(float)
                other = here[here[SKETCH_COL] == b]
                if b != TWO:
                    other = other[other[S_CHOICE] == sc]
                y = other[col].dropna().to_numpy(float)
                key = f"{ds} {_s_label(sc)} c = {c}"
                out[key] = _cell_test(col, x, y, level) if len(x) and len(y) else None
    return out


def _share_check(rule: Rule, cells: dict[str, Decision | None], level: float) -> Check:
    """The share of declared cells that hold, judged by ``rule`` in three ways: *pass* when the
    Clopper–Pearson interval of (cells that pass)/(cells) lies above the claim's share; *fail*
    when even counting every undecided cell as holding, (cells − cells that fail)/(cells), its
    interval lies below it (a share shown short, not a lack of runs); else *undecided*, with the
    most runs per arm an undecided cell on the claim's side needs (none when the passing and
    undecided cells together could not show the share). Cells without rows never hold."""
    status = {k: (dec.status if dec is not None else "missing") for k, dec in cells.items()}
    total = len(status)
    good = sum(s == PASS for s in status.values())
    bad = [k for k, s in status.items() if s == FAIL]
    open_ = [k for k, s in status.items() if s == INCONCLUSIVE]
    missing = [k for k, s in status.items() if s == "missing"]
    low, high = Estimate.proportion(good, total), Estimate.proportion(total - len(bad) - len(missing), total)
    d_low, d_high = rule.decide(low, level), rule.decide(high, level)
    need = [cells[k].runs_needed for k in open_ if cells[k].runs_needed]
    hopeless = Estimate.proportion(good + len(open_), total).interval(level)[0] <= rule.margin.value
    detail = (f"{good} pass, {len(bad)} fail, {len(open_)} undecided"
              + (f", {len(missing)} without rows" if missing else "") + f" of {total} cells; share passing "
              f"{low.text(level=level)}, at most {high.text(level=level)} if every undecided cell held "
              f"({100 * level:.4g}% Clopper–Pearson), claim ≥ {rule.margin.value:.3g}"
              + (f"; failing: {', '.join(bad[:4])}{' …' if len(bad) > 4 else ''}" if bad else ""))
    if d_low.status == PASS:
        return replace(rule.check(low, level=level), detail=detail)
    if d_high.status == FAIL:
        return replace(rule.check(high, level=level), detail=detail)
    detail += (f"; undecided cells need up to {max(need)} runs per arm" if need and not hopeless else "")
    detail += ("; even if every undecided cell passed, the share could not be shown with these cells"
               if hopeless else "")
    return Check(rule.name, None, detail, runs_needed=max(need) if need and not hopeless else None, rule=rule,
                 p_fail=d_high.p_fail, runs=total)


#: why a failed objective check is a matter of reading, not the paper's claim failing
OBJECTIVE_READING = ("the objective judged is f/n, the RKHS kernel k-means cost of each partition; Fig. 5 plots "
                     "the cost over the kernel columns k_i (§5.2), whose scale only the reading exp(−d²/σ²) "
                     "reproduces (see the setting); the ranking of the methods may differ between the two")


def judge_fig45(df: pd.DataFrame, level: float = LEVEL) -> Verdict:
    """Wang Figs. 4–5: the six declared share checks of :data:`RULES` (module docstring)."""
    d = _fig45_frame(df)
    if d.empty:
        return not_run("no Nyström, RFM or two-step row")
    if (why := require_columns(d, ["train_nmi", "objective"])) is not None:
        return not_run(why)
    checks = []
    for (col, a, b), rule in SHARE_RULES.items():
        datasets = FIG4_DATASETS if col == "train_nmi" else FIG5_DATASETS
        check = _share_check(rule, _cells(d, col, a, b, datasets, level), level)
        if col == "objective" and check.passed is False:  # judged on another quantity than Fig. 5's
            check = replace(check, cause=CAUSE_READING, cause_detail=OBJECTIVE_READING)
        checks.append(check)
    return judge_checks(checks, f"data sets {', '.join(dict.fromkeys(d[DATASET_COL]))}; "
                                f"{d['seed'].nunique()} runs per cell", level)


# -- the setting ---------------------------------------------------------------------------
#: Wang et al. Fig. 4 captions: median NMI of the two-step method at c = 3k, 9k, 27k, 81k
TWO_STEP_NMI = {"mnist": (0.072, 0.012, 0.017, 0.032), "mushrooms": (0.123, 0.224, 0.263, 0.494),
                "pendigits": (0.399, 0.413, 0.422, 0.421)}
#: Wang et al. Fig. 5 captions: median objective of the two-step method at c = 3k … 81k, and of a random partition
TWO_STEP_OBJ = {"mushrooms": (101.5, 92.8, 89.5, 85.3), "pendigits": (210.5, 198.2, 193.5, 193.4)}
RANDOM_OBJ = {"mushrooms": 119.5, "pendigits": 395.4}
NMI_TOLERANCE = 0.05  # the captions print medians of 500 runs without a spread: five per-run NMI sds (≈ 0.01)
#: probes (each < 1 min, /tmp, not committed): a random partition's cost over the kernel columns k_i ∈ Rⁿ
#: (§5.2's formula, divided by n), median of 5 partitions, per reading of the kernel and data
RANDOM_OBJ_PROBE = {
    "mushrooms": {"printed exp(−d²/(2σ²))": 66.1, "exp(−d²/σ²)": 121.1, "exp(−2d²/σ²)": 117.3},
    "pendigits": {"printed exp(−d²/(2σ²))": 147.7, "exp(−d²/σ²)": 258.2, "exp(−2d²/σ²)": 272.5,
                  "exp(−d²/σ²), all 10,992 digits": 381.4, "exp(−2d²/σ²), all 10,992 digits": 403.3},
}
#: probe: two-step's median NMI on PenDigits (7494) with exp(−d²/σ²) (kernel.beta = 1/√2), 10 runs, c = 3k … 81k
TWO_STEP_NMI_PROBE = {"pendigits": (0.599, 0.638, 0.690, 0.707)}


def setting_fig45(df: pd.DataFrame) -> str:
    """Two-step's median NMI per data set and c against Fig. 4's captions (tolerance
    :data:`NMI_TOLERANCE`), and what the probes found about Fig. 5's objective scale."""
    d = _fig45_frame(df)
    two = d[d[SKETCH_COL] == TWO]
    parts, inside, total = [], 0, 0
    for ds, paper in TWO_STEP_NMI.items():
        g = two[two[DATASET_COL] == ds]
        if g.empty:
            continue
        k = int(g["k"].iloc[0])
        ours = [float(g.loc[g["m"] == f * k, "train_nmi"].median()) for f in C_FACTORS]
        ok = [abs(o - p) <= NMI_TOLERANCE for o, p in zip(ours, paper) if math.isfinite(o)]
        inside, total = inside + sum(ok), total + len(ok)
        parts.append(f"{ds} {min(ours):.2f}–{max(ours):.2f} (paper {min(paper):.3f}–{max(paper):.3f})")
    if not total:
        return "setting differs: no two-step row"
    head = "setting matches" if inside == total else "setting differs"
    probe = "; ".join(f"{ds}: " + ", ".join(f"{k} {v:g}" for k, v in r.items()) for ds, r in RANDOM_OBJ_PROBE.items())
    return (f"{head}: two-step's median NMI here {'; '.join(parts)}; {inside} of {total} cells within ±{NMI_TOLERANCE:g} "
            "(the captions print 500-run medians with no spread: five per-run NMI sds). Fig. 5's objectives (two-step "
            "Mushrooms 101.5–85.3, random partition 119.5; PenDigits 210.5–193.4, random 395.4) are §5.2's cost over "
            "the kernel columns k_i, not kktheory's f/n (a random partition: 0.387 Mushrooms, 0.376 PenDigits). Probes "
            f"of a random partition's cost over kernel columns divided by n — {probe} — come within 1.3 % (Mushrooms) and "
            "3.5 % (PenDigits) of the paper's 119.5 and 395.4 only with the kernel exp(−d²/σ²) (σ² where eq. (5)'s "
            "kernel prints 2σ²) and, for PenDigits, all 10,992 digits (Table 3 says 7,494). That reading does not bring "
            "two-step's NMI to the captions' (PenDigits 0.60–0.71 with it, 10 runs, vs 0.399–0.421): no reading tried "
            "reproduces the two-step baseline, which is far stronger here than in the paper (on MNIST 0.31–0.48 vs "
            "0.012–0.072). The relative claims are judged in this regime (printed kernel, Table 3's n, f/n)")


def observe_fig45(df: pd.DataFrame) -> dict[str, Estimate]:
    """Median NMI of two-step per data set and c (keys ``two_step/<data set>/c<f>k``)."""
    d = _fig45_frame(df)
    out = {}
    for (ds, c), g in d[d[SKETCH_COL] == TWO].groupby([DATASET_COL, "m"]):
        k = int(g["k"].iloc[0])
        if c % k == 0:
            out[f"two_step/{ds}/c{int(c) // k}k"] = Estimate.median_of(g["train_nmi"].dropna().to_numpy(float))
    return out


#: the paper's figure or table this entry reproduces
TITLE = "Wang, Gittens & Mahoney 2019, Figs. 4–5"

#: what the paper claims
CLAIM = ("Nyström beats random feature maps in most cases and both consistently beat the two-step method, in NMI "
         "(MNIST, Mushrooms, PenDigits) and in the kernel k-means objective (Mushrooms, PenDigits)")

#: how the rows judge it
RULE = ("declared checks (INDEX table above): six shares of cells (data set × s × c), each cell an exceeds test of "
        f"a Welch difference over runs (NMI: fails below {NMI_CELL.value:g}; log objective: fails below 1 %); "
        f"Nyström vs RFM share ≥ ⅔ (\"most cases\"), Nyström vs two-step and RFM vs two-step (two checks) share ≥ "
        f"{CONSISTENTLY:g} (\"consistently\"), exact Clopper–Pearson intervals of the share; Holm over the six "
        "(kktheory/report/entries/wang_fig4_5.py)")

#: what each scale changes against the paper
CHANGES = {
    "small": "Mushrooms and PenDigits (MNIST at paper scale only), n = 1500 each, 3 of 500 runs; Nyström keeps "
             "all of W (ℓ = c, see the config)",
    "paper": "the paper's MNIST 60k, Mushrooms and PenDigits in full; 20 of 500 runs; Nyström keeps all of W "
             "(ℓ = c, not Alg. 2's ⌈c/2⌉) so that s = √(kc) ≤ ℓ at c = 3k",
}


FIG4_5 = Entry(
    name="wang_fig4_5", place=(3, 3), label={"paper": 'MNIST, Mushrooms, PenDigits as the paper'},
    paper_runs=500, title=TITLE, claim=CLAIM, rule=RULE, draw=draw_fig45, judge=judge_fig45,
    paper_numbers=tuple(
        PaperNumber(f"two-step median NMI, {ds}, c = {f}k", v, f"Fig. 4 caption ({ds})", key=f"two_step/{ds}/c{f}k")
        for ds, vals in TWO_STEP_NMI.items() for f, v in zip(C_FACTORS, vals)
    ),
    observe=observe_fig45, changes=CHANGES, rules=RULES, setting=setting_fig45,
)
