"""Wang, Gittens & Mahoney (JMLR 2019): Fig. 2, Fig. 3, Figs. 4–5 and Table 2.

All use the rank-restricted Nyström method of their Alg. 2 (``sketch=nystrom_rr``):
sketch size c (the run's m), truncation ℓ (``sketch.ell``), target rank s (``sketch.s``
as configured, ``s`` resolved), sketching matrix P (``sketch.P``). NMI is the arithmetic
NMI of the training partition against the classes (``train_nmi``); the objective is the
kernel k-means cost of the returned partition divided by n (``objective``, Wang's f/n).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from kktheory.bounds.theory import TABLE2_SKETCHES, wang_table2_c
from kktheory.report.decide import FAIL, INCONCLUSIVE, PASS, Decision, Estimate, at_least, at_most
from kktheory.report.common import (
    SKETCH_COL, DATASET_COL,
    CAUSE_READING, CAUSE_SCALE, CAUSE_STAND_IN, Check, PaperNumber, Verdict, band, color_marker, fmt, grid_ticks, judge_checks, mean_ci, not_run, ok_rows,
    pyplot, require_columns, save_figure,
)
from kktheory.report.entry import Entry

S_RULE_COL = "sketch.s"  # target rank of nystrom_rr as configured: integer or k | sqrt_kc | half_c | c
S_COL = "s"  # the resolved target rank (the sketch's info column)
P_COL = "sketch.P"  # sketching matrix of nystrom_rr
BETA_COL = "kernel.beta"  # Wang eq. (5) bandwidth factor
FAIL_COL = "spectral_failed"  # spectral_nystrom: True when a degree was ≤ 0 (the trial is discarded)
SHARE_MOST = 2 / 3  # "in most cases"
SHARE_CONSISTENT = 0.8  # "consistently"
TRACE_EPS = 0.1  # ε of Wang Thm 1 (Table 2's c is computed for it)


def _s_of(d: pd.DataFrame) -> pd.Series:
    """The resolved target rank s of each row."""
    return d[S_COL]


# -- Fig. 2 ------------------------------------------------------------------------------
def _fig2_parts(d: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, float]:
    """(rows with varying c for fixed s, rows at the fixed c with varying s, that c)."""
    d = d.assign(s=_s_of(d).astype(float))
    c_fixed = float(d["m"].max())
    by_s = d[d["m"] == c_fixed]
    counts = d.groupby("s")["m"].nunique()
    by_c = d[d["s"].isin(counts[counts >= 2].index)]
    return by_c, by_s, c_fixed


def draw_fig2(df: pd.DataFrame, out_dir: Path) -> list[Path]:
    """NMI vs c for fixed s, and NMI vs s at the largest c (mean ± sd over runs)."""
    plt = pyplot()
    d = ok_rows(df)
    by_c, by_s, c_fixed = _fig2_parts(d)
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    for i, (s, sub) in enumerate(by_c.groupby("s")):
        st = mean_ci(sub, "m", "train_nmi")
        st["lo"], st["hi"] = st["mean"] - st["sd"], st["mean"] + st["sd"]
        band(axes[0], st["m"].to_numpy(), st, f"s = {int(s)}", f"s{int(s)}", i, errorbars=True)
    axes[0].set_xscale("log")
    grid_ticks(axes[0], by_c["m"].unique())
    axes[0].set_xlabel("sketch size c (log scale)")
    axes[0].set_ylabel("NMI")
    axes[0].set_title("(a) NMI vs c, s fixed")
    axes[0].legend()
    st = mean_ci(by_s, "s", "train_nmi")
    st["lo"], st["hi"] = st["mean"] - st["sd"], st["mean"] + st["sd"]
    band(axes[1], st["s"].to_numpy(), st, f"c = {int(c_fixed)}", "nystrom_rr", errorbars=True)
    axes[1].set_xscale("log", base=2)
    grid_ticks(axes[1], by_s["s"].unique())
    axes[1].set_xlabel("target rank s (log scale)")
    axes[1].set_ylabel("NMI")
    axes[1].set_title(f"(b) NMI vs s, c = {int(c_fixed)}")
    k = int(d["k"].iloc[0])
    axes[1].axvline(math.sqrt(k * c_fixed), color="0.4", ls=":", label=f"√(kc) = {math.sqrt(k * c_fixed):.0f}")
    axes[1].legend()
    fig.suptitle(f"Wang et al. Fig. 2 — {d[DATASET_COL].iloc[0]}, n = {int(d['n'].iloc[0])}, "
                 f"k = {k}, rank-restricted Nyström (uniform), mean ± sd over "
                 f"{d['seed'].nunique()} runs", fontsize=10)
    fig.tight_layout()
    return save_figure(fig, out_dir, "wang_fig2")


#: Wang et al. Table 5 (MNIST8M, 10 runs, uniform sampling): NMI mean and sd per (s, c)
TABLE5 = {(20, 100): (0.3833, 0.0117), (20, 400): (0.3975, 0.0112), (20, 1600): (0.4069, 0.0001),
          (80, 400): (0.4101, 0.0101), (80, 1600): (0.4233, 0.0131)}
#: Wang et al. Table 6 (MNIST8M, c = 1600, 10 runs): NMI mean and sd per target rank s
TABLE6 = {10: (0.3852, 0.0003), 20: (0.4069, 0.0001), 40: (0.4130, 0.0062),
          80: (0.4233, 0.0131), 160: (0.4086, 0.0125), 320: (0.4099, 0.0098)}
TABLE6_C = 1600


def _reading_if_failed(dec: Decision, detail: str) -> tuple[str, str]:
    """(cause, detail) of a check whose failure depends on how the paper is read; an
    undecided one stays *inconclusive*."""
    return (CAUSE_READING, detail) if dec.status == FAIL else ("", "")


def _nmi_runs(d: pd.DataFrame) -> np.ndarray:
    return d["train_nmi"].dropna().to_numpy(float)


def judge_fig2(df: pd.DataFrame) -> Verdict:
    """Wang Fig. 2 / Tables 5–6 claim rule, as 95 % confidence-interval tests over runs.

    1. NMI rises with c (s fixed) — §6.3: "for fixed k and s, larger c always leads to
       better performance": for each s with ≥ 2 values of c, each step to the next larger c
       has a Welch difference of mean NMI ≥ 0 (one-sided; margin 0, the paper claims no size).
       On the paper's Table 5 (10 runs) every step passes: s = 20, 100 → 400: +0.0142
       (t ≈ 2.8), 400 → 1600: +0.0094 (t ≈ 2.7); s = 80, 400 → 1600: +0.0132 (t ≈ 2.5).
    2. Not monotone in s (c fixed at the largest c) — §4.4 and §6.4: "Setting s as small as
       k results in poor performance. Setting s over-large ... negatively affects clustering
       performance": the interior s with the highest mean NMI beats the smallest and the
       largest s, each a Welch difference ≥ 0. On Table 6: s = 80 (0.4233) vs s = 10
       (0.3852): +0.038 (t ≈ 9); vs s = 320 (0.4099): +0.0134 (t ≈ 2.6).
    """
    d = ok_rows(df)
    if d.empty:
        return not_run("no row")
    if (why := require_columns(d, ["train_nmi", S_COL])) is not None:
        return not_run(why)
    by_c, by_s, c_fixed = _fig2_parts(d)
    checks = []
    for s, sub in by_c.groupby("s"):
        cs = sorted(sub["m"].unique())
        for lo, hi in zip(cs, cs[1:]):
            a, b = _nmi_runs(sub[sub["m"] == hi]), _nmi_runs(sub[sub["m"] == lo])
            checks.append(Check.of(
                f"NMI rises with c (s = {int(s)}, c = {int(lo)} → {int(hi)})",
                at_least(Estimate.difference(a, b), 0.0),
                f"NMI {fmt(b.mean())} → {fmt(a.mean())}"))
    st = by_s.groupby("s")["train_nmi"].mean().sort_index()
    if len(st) >= 3:
        best = float(st.iloc[1:-1].idxmax())
        top = _nmi_runs(by_s[by_s["s"] == best])
        for end in (float(st.index[0]), float(st.index[-1])):
            other = _nmi_runs(by_s[by_s["s"] == end])
            checks.append(Check.of(
                f"an interior s beats s = {int(end)} (c = {int(c_fixed)})",
                at_least(Estimate.difference(top, other), 0.0),
                f"best interior s = {int(best)}: NMI {fmt(top.mean())}; s = {int(end)}: {fmt(other.mean())}"))
    else:
        checks.append(Check("NMI not monotone in s", None, f"only {len(st)} value(s) of s at c = {int(c_fixed)}",
                            cause_detail="needs ≥ 3 values of s"))
    return judge_checks(checks, f"{d[DATASET_COL].iloc[0]}, n = {int(d['n'].iloc[0])}, "
                                f"{d['seed'].nunique()} runs per point")


def observe_fig2(df: pd.DataFrame) -> dict[str, Estimate]:
    """Mean NMI per (s, c) (keys ``s<s>/c<c>``), for Tables 5 and 6."""
    d = ok_rows(df)
    d = d.assign(s=_s_of(d).astype(float))
    return {f"s{int(s)}/c{int(c)}": Estimate.mean_of(_nmi_runs(g)) for (s, c), g in d.groupby(["s", "m"])}


FIG2 = Entry(
    name="wang_fig2",
    title="Wang, Gittens & Mahoney 2019, Fig. 2 and Tables 5–6",
    claim=("with rank-restricted Nyström, NMI rises with the sketch size c (s fixed) but is not "
           "monotone in the target rank s (c fixed): too small and too large s are both worse"),
    rule=("95% confidence intervals of Welch differences over runs: for each fixed s, every step to a "
          "larger c raises the mean NMI (≥ 0; §6.3 \"larger c always leads to better performance\"); at "
          "the largest c the best interior s beats both the smallest and the largest s (≥ 0; §6.4). "
          "Accepts the paper's Tables 5–6 at their 10 runs (kktheory/report/wang.py, judge_fig2)"),
    draw=draw_fig2,
    judge=judge_fig2,
    paper_numbers=(
        *(PaperNumber(f"NMI, s = {s}, c = {c}", mu, "Table 5", key=f"s{s}/c{c}") for (s, c), (mu, _) in TABLE5.items()
          if c != TABLE6_C),
        *(PaperNumber(f"NMI, s = {s}, c = {TABLE6_C}", mu, "Table 6 (= Table 5 at c = 1600)",
                      key=f"s{s}/c{TABLE6_C}") for s, (mu, _) in TABLE6.items()),
    ),
    observe=observe_fig2,
    shortfall={"small": CAUSE_SCALE, "paper": CAUSE_STAND_IN},
    changes={
        "small": "MNIST n = 3000 (3 runs) instead of MNIST8M, the paper's c and s",
        "paper": "MNIST 60,000 in place of MNIST8M (8.1M points on a 32-node Spark cluster); the paper's "
                 "c ∈ {100, 400, 1600} (s = 20, 80) and s ∈ {10, …, 320} at c = 1600, 10 runs as the paper; ℓ = c",
    },
)


# -- Fig. 3 ------------------------------------------------------------------------------
KK, SC = "nystrom_rr", "spectral_nystrom"
FIG3_LABELS = {KK: "KK (kernel k-means)", SC: "SC (spectral clustering)"}


def _fig3_frame(df: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(trials kept, SC trials discarded because a degree was ≤ 0)."""
    d = ok_rows(df)
    d = d[d[SKETCH_COL].isin([KK, SC])]
    failed = d[FAIL_COL].fillna(False).astype(bool) if FAIL_COL in d else pd.Series(False, index=d.index)
    return d[~failed], d[failed]


def draw_fig3(df: pd.DataFrame, out_dir: Path) -> list[Path]:
    """Per data set: NMI vs c and NMI vs time, KK solid and SC dashed, one colour per β."""
    from matplotlib.ticker import NullFormatter

    plt = pyplot()
    d, failed = _fig3_frame(df)
    datasets = list(dict.fromkeys(d[DATASET_COL]))
    fig, axes = plt.subplots(len(datasets), 2, figsize=(10, 3.2 * len(datasets)), squeeze=False)
    betas = sorted(d[BETA_COL].unique())
    for r, ds in enumerate(datasets):
        sub = d[d[DATASET_COL] == ds]
        for j, beta in enumerate(betas):
            for meth, ls in ((KK, "-"), (SC, "--")):
                cur = sub[(sub[BETA_COL] == beta) & (sub[SKETCH_COL] == meth)]
                if cur.empty:
                    continue
                nmi = mean_ci(cur, "m", "train_nmi")
                tim = mean_ci(cur, "m", "time_embed")
                color = f"C{j}"
                label = f"{meth == KK and 'KK' or 'SC'}, β = {beta:g}"
                axes[r, 0].plot(nmi["m"], nmi["mean"], ls=ls, marker="o" if meth == KK else "v",
                                color=color, ms=4, label=label)
                axes[r, 1].plot(tim["mean"], nmi["mean"], ls=ls, marker="o" if meth == KK else "v",
                                color=color, ms=4, label=label)
        nfail = int((failed[DATASET_COL] == ds).sum())
        ntot = nfail + int(((sub[SKETCH_COL] == SC)).sum())
        axes[r, 0].set_title(f"{ds} (n = {int(sub['n'].iloc[0])}, k = {int(sub['k'].iloc[0])}): NMI vs c"
                             + (f"; SC failed in {nfail}/{ntot} trials" if nfail else ""))
        axes[r, 1].set_title(f"{ds}: NMI vs time")
        axes[r, 0].set_xlabel("sketch size c (log scale)")
        axes[r, 0].set_xscale("log")
        grid_ticks(axes[r, 0], sub["m"].unique())
        axes[r, 1].set_xlabel("time of the embedding (s, excluding k-means; log scale)")
        axes[r, 1].set_xscale("log")
        axes[r, 1].xaxis.set_minor_formatter(NullFormatter())  # minor labels collide on short ranges
        for ax in axes[r]:
            ax.set_ylabel("NMI")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(6, len(labels)), frameon=False,
               bbox_to_anchor=(0.5, -0.03))
    fig.suptitle(f"Wang et al. Fig. 3 — kernel k-means (KK) vs spectral clustering (SC), rank-restricted "
                 f"Nyström with s = k, mean over {d['seed'].nunique()} runs", fontsize=10)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return save_figure(fig, out_dir, "wang_fig3")


SC_OFTEN = 0.10  # "exceptions often arise" (§4.3), read as at least one trial in ten
SC_SMALL_C = 2  # "at small sketch sizes c": the two smallest c of each data set (5s and 10s)


def judge_fig3(df: pd.DataFrame) -> Verdict:
    """Wang Fig. 3 claim rule, as 95 % confidence-interval tests over runs.

    §4.3: "the plots all show that KK is more accurate as a function of the sketch size or
    elapsed time than SC" (s = k, c from 5s to 50s, β ∈ {0.2, 1, 5}, 100 runs):

    1. for each (data set, β): the average over the c grid of the Welch differences of mean
       NMI, KK − SC, is ≥ 0 (one-sided; margin 0: the paper gives no size). SC trials with
       a non-positive degree are discarded, as the paper did. "As a function of elapsed
       time" is drawn, not judged (the rows' times come from the sweep, not a timing pass).
    2. "at small sketch sizes c, exceptions often arise ... due to negative entries in the
       degree matrix": the share of SC trials with a degree ≤ 0 at the two smallest c of
       each data set (5s, 10s), pooled over data sets and β, is ≥ SC_OFTEN (0.1; Clopper–
       Pearson interval). The degrees are those of the rank-s approximation K̃ = (CW⁺Cᵀ)_s
       that the paper says both methods use (``kktheory/sketches/spectral_nystrom.py``);
       Fowlkes et al.'s degrees of the rank-c approximation, CW⁺Cᵀ·1 with a
       pseudo-inverse, were never ≤ 0 in 20 trials at any β and c on PenDigits and
       Mushrooms (measured here), so a failure of this check is a reading of how the
       degrees are formed (cause *reading*), not of the comparison.
    """
    d, failed = _fig3_frame(df)
    if d.empty:
        return not_run("no KK or SC row")
    if (why := require_columns(d, ["train_nmi", BETA_COL])) is not None:
        return not_run(why)
    if not {KK, SC} <= set(d[SKETCH_COL]):
        return not_run("KK and SC rows are both needed")
    checks = []
    for (ds, beta), sub in d.groupby([DATASET_COL, BETA_COL], sort=False):
        parts, worst = [], None
        for c, cell in sub.groupby("m"):
            kk = _nmi_runs(cell[cell[SKETCH_COL] == KK])
            sc = _nmi_runs(cell[cell[SKETCH_COL] == SC])
            if len(kk) and len(sc):
                est = Estimate.difference(kk, sc)
                parts.append(est)
                if worst is None or est.value < worst[1]:
                    worst = (int(c), est.value)
        if not parts:
            continue
        checks.append(Check.of(
            f"KK ≥ SC on {ds}, β = {beta:g} (average over c)", at_least(Estimate.average(parts), 0.0),
            f"{len(parts)} values of c; smallest difference {fmt(worst[1])} at c = {worst[0]}"))
    all_sc = pd.concat([d[d[SKETCH_COL] == SC], failed])
    small = all_sc[all_sc.groupby(DATASET_COL)["m"].rank(method="dense") <= SC_SMALL_C]
    flags = small[FAIL_COL].fillna(False).astype(bool) if FAIL_COL in small else pd.Series(False, index=small.index)
    dec = at_least(Estimate.proportion(int(flags.sum()), len(flags)), SC_OFTEN)
    checks.append(Check.of(
        f"SC fails often at small c (≥ {SC_OFTEN:.0%} of trials)", dec,
        "; ".join(f"{ds}: {int(g.sum())}/{len(g)}" for ds, g in flags.groupby(small[DATASET_COL])),
        *_reading_if_failed(dec, "degrees of the rank-s approximation, as the paper describes both methods; the "
                                 "rank-c degrees of Fowlkes et al. fail even less")))
    return judge_checks(checks, f"SC failed (a degree ≤ 0, trial discarded) in {len(failed)}/{len(all_sc)} trials")


FIG3 = Entry(
    name="wang_fig3",
    title="Wang, Gittens & Mahoney 2019, Fig. 3",
    claim=("approximate kernel k-means (KK) is more accurate than approximate spectral "
           "clustering (SC) at the same sketch size, both with rank-restricted Nyström (s = k); "
           "SC often fails at small c (a degree ≤ 0)"),
    rule=("95% confidence intervals over runs: per (data set, β), the average over c ∈ {5s, …, 50s} of the "
          "Welch difference of mean NMI KK − SC ≥ 0 (failed SC trials discarded, as the paper did); the share "
          f"of failed SC trials at the two smallest c ≥ {SC_OFTEN:.0%} (\"often\", Clopper–Pearson) "
          "(kktheory/report/wang.py, judge_fig3)"),
    draw=draw_fig3,
    judge=judge_fig3,
    changes={
        "small": "n = 1000 per data set, 2 runs, instead of the full data sets and 100 runs",
        "paper": "MNIST 60,000, Mushrooms and PenDigits at full size, 10 runs (paper: 100); c ∈ {5s, 10s, "
                 "20s, 50s} (paper: 5s to 50s)",
    },
)


# -- Figs. 4 and 5 -----------------------------------------------------------------------
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
    """Fig. 4 (NMI) and Fig. 5 (objective): boxes over runs per c, per s choice and data set;
    the two-step method (no s) as its median per c with its quartiles as a band."""
    d = _fig45_frame(df)
    return [
        *_draw45(d, "train_nmi", "NMI", out_dir, "wang_fig4_nmi",
                 "Wang et al. Fig. 4 — NMI of Nyström, random features (RFM) and two-step"),
        *_draw45(d, "objective", "objective f/n (lower is better)", out_dir, "wang_fig5_objective",
                 "Wang et al. Fig. 5 — kernel k-means objective of Nyström, RFM and two-step"),
    ]


def share_check(name: str, cells: dict[str, Decision], share: float) -> Check:
    """"In ``share`` of the cases": passed when at least ``share`` of the cells' tests pass,
    failed when more than 1 − ``share`` fail (the share can no longer be reached), else
    inconclusive (with the most runs that an undecided cell needs)."""
    status = pd.Series({key: dec.status for key, dec in cells.items()}, dtype=object)
    total, good, bad = len(status), int((status == PASS).sum()), int((status == FAIL).sum())
    undecided = [dec.runs_needed for dec in cells.values() if dec.status == INCONCLUSIVE and dec.runs_needed]
    need = math.ceil(share * total - 1e-9)  # cells that must hold (whole cells: no rounding of 0.8·5)
    passed = True if total and good >= need else False if total - bad < need or not total else None
    worst = [key for key, dec in cells.items() if dec.status == FAIL][:3]
    detail = (f"{good}/{total} cells hold, {bad} fail, {total - good - bad} undecided (need ≥ {share:.0%} holding)"
              + (f"; failing: {', '.join(worst)}" + (" …" if bad > len(worst) else "") if worst else ""))
    return Check(name, passed, detail, runs_needed=max(undecided) if passed is None and undecided else None)


def _cells(d: pd.DataFrame, col: str, a: str, b: pd.DataFrame, sign: float) -> dict[str, Decision]:
    """Per (data set, s choice, c) of method ``a``: the Welch test of a − b in ``col`` (≥ 0 for
    sign = 1, ≤ 0 for sign = −1); ``b`` holds the comparator's rows, matched on data set and c
    (and s choice when it has one)."""
    out: dict[str, Decision] = {}
    cols = [DATASET_COL, S_CHOICE, "m", col]
    b = b[cols]
    comparators = dict(list(b.groupby([DATASET_COL, "m"])))
    for (ds, sc, c), cell in d.loc[d[SKETCH_COL] == a, cols].groupby([DATASET_COL, S_CHOICE, "m"]):
        other = comparators.get((ds, c), b.iloc[:0])
        if (other[S_CHOICE] != "—").any():
            other = other[other[S_CHOICE] == sc]
        x, y = cell[col].dropna().to_numpy(float), other[col].dropna().to_numpy(float)
        if len(x) and len(y):
            est = Estimate.difference(x, y)
            out[f"{ds} {_s_label(sc)} c = {int(c)}"] = at_least(est, 0.0) if sign > 0 else at_most(est, 0.0)
    return out


def judge_fig45(df: pd.DataFrame) -> Verdict:
    """Wang Figs. 4–5 claim rule, as 95 % confidence-interval tests per cell.

    §5.2: "as measured by both NMIs and objective values, the Nyström method outperforms RFM
    in most cases. Both the Nyström method and RFM are consistently superior to the two-step
    method". Per (data set, s choice, c) cell a Welch difference of means over runs is tested
    (NMI: ≥ 0; objective, lower is better: ≤ 0), and the cells are counted
    (:func:`share_check`): Nyström vs RFM must hold in SHARE_MOST (⅔, "most cases") of the
    cells, Nyström and RFM vs two-step (no s; matched on data set and c) in SHARE_CONSISTENT
    (80 %, "consistently"). The objective is the RKHS kernel k-means cost f/n that the
    methods minimise; the paper's Fig. 5 prints the cost over the kernel columns k_i (its
    §5.2 formula), whose values (e.g. a random partition of Mushrooms: 119.5) are not on
    this scale — the comparison between methods is what is judged.
    """
    d = _fig45_frame(df)
    if d.empty:
        return not_run("no Nyström, RFM or two-step row")
    if (why := require_columns(d, ["train_nmi", "objective"])) is not None:
        return not_run(why)
    checks = []
    for col, label, sign in (("train_nmi", "NMI", 1.0), ("objective", "objective", -1.0)):
        rel = "≥" if sign > 0 else "≤"
        if not {NYS, RFM} <= set(d[SKETCH_COL]):
            checks.append(Check(f"{label}: Nyström {rel} RFM", None, "rows missing for one of the two methods"))
        else:
            checks.append(share_check(f"{label}: Nyström {rel} RFM", _cells(d, col, NYS, d[d[SKETCH_COL] == RFM], sign),
                                      SHARE_MOST))
        two = d[d[SKETCH_COL] == TWO]
        if two.empty:
            checks.append(Check(f"{label}: Nyström and RFM {rel} two-step", None, "no two-step row"))
        else:
            cells = {**_cells(d, col, NYS, two, sign), **{f"RFM {k}": v for k, v in _cells(d, col, RFM, two, sign).items()}}
            checks.append(share_check(f"{label}: Nyström and RFM {rel} two-step", cells, SHARE_CONSISTENT))
    return judge_checks(checks, f"data sets {', '.join(dict.fromkeys(d[DATASET_COL]))}; "
                                f"{d['seed'].nunique()} runs per cell")


#: Wang et al. Fig. 4 captions: median NMI of the two-step method at c = 3k, 9k, 27k, 81k
TWO_STEP_NMI = {"mnist": (0.072, 0.012, 0.017, 0.032), "mushrooms": (0.123, 0.224, 0.263, 0.494),
                "pendigits": (0.399, 0.413, 0.422, 0.421)}
C_FACTORS = (3, 9, 27, 81)


def observe_fig45(df: pd.DataFrame) -> dict[str, Estimate]:
    """Median NMI of two-step per data set and c (keys ``two_step/<data set>/c<f>k``)."""
    d = _fig45_frame(df)
    out = {}
    for (ds, c), g in d[d[SKETCH_COL] == TWO].groupby([DATASET_COL, "m"]):
        k = int(g["k"].iloc[0])
        if c % k == 0:
            out[f"two_step/{ds}/c{int(c) // k}k"] = Estimate.median_of(g["train_nmi"].dropna().to_numpy(float))
    return out


FIG4_5 = Entry(
    name="wang_fig4_5",
    title="Wang, Gittens & Mahoney 2019, Figs. 4–5",
    claim=("Nyström beats random feature maps in most cases and both consistently beat the "
           "two-step method, in NMI and in the kernel k-means objective"),
    rule=(f"per (data set, s, c) cell a 95% confidence interval of the Welch difference of means (NMI ≥ 0, "
          f"objective ≤ 0); Nyström vs RFM must hold in ≥ {SHARE_MOST:.0%} of the cells (\"most cases\"), "
          f"Nyström and RFM vs two-step in ≥ {SHARE_CONSISTENT:.0%} (\"consistently\"); failed when the share "
          f"can no longer be reached, else inconclusive (kktheory/report/wang.py, judge_fig45)"),
    draw=draw_fig45,
    judge=judge_fig45,
    paper_numbers=tuple(
        PaperNumber(f"two-step median NMI, {ds}, c = {f}k", v, f"Fig. 4 caption ({ds})", key=f"two_step/{ds}/c{f}k")
        for ds, vals in TWO_STEP_NMI.items() for f, v in zip(C_FACTORS, vals)
    ),
    observe=observe_fig45,
    changes={
        "small": "Mushrooms and PenDigits (the data of Fig. 5; MNIST at paper scale only), n = 1500 "
                 "each, 3 runs, instead of the full data sets and 500 runs; Nyström keeps all of W "
                 "(ℓ = c, see the config)",
        "paper": "full MNIST / Mushrooms / PenDigits training sets, 20 runs planned (paper: 500; a run of all "
                 "63 cells takes about 15 minutes here, the runs column says how many are committed); Nyström keeps "
                 "all of W (ℓ = c) so that s = √(kc) ≤ ℓ at c = 3k",
    },
)


# -- Table 2 -----------------------------------------------------------------------------
def draw_table2(df: pd.DataFrame, out_dir: Path) -> list[Path]:
    """Trace-norm ratio ‖K − (CW⁺Cᵀ)_s‖_* / ‖K − K_s‖_* vs c per sketching matrix."""
    plt = pyplot()
    d = ok_rows(df).dropna(subset=["trace_ratio"])
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for i, (p, sub) in enumerate(d.groupby(P_COL)):
        st = mean_ci(sub, "m", "trace_ratio")
        band(ax, st["m"].to_numpy(), st, f"{p} ({sub['seed'].nunique()} runs)", str(p), i)
        at = st[st["m"] >= _table2_c(sub, p)]
        if len(at):
            ax.plot(at["m"].iloc[:1], at["mean"].iloc[:1], marker="o", ms=14, mfc="none", mew=2,
                    mec=color_marker(str(p), i)[0], ls="none",
                    label="Table 2's c (constants 1; first grid c at or above it)" if i == 0 else None)
    ax.axhline(1.0, color="black", lw=1)
    ax.axhline(1 + TRACE_EPS, color="0.4", ls="--", lw=1, label=f"1 + ε (ε = {TRACE_EPS})")
    ax.set_xscale("log")
    grid_ticks(ax, d["m"].unique())
    ax.set_xlabel("sketch size c (log scale)")
    ax.set_ylabel(r"$\|K-(CW^+C^T)_s\|_* \,/\, \|K-K_s\|_*$")
    s = _s_of(d).dropna()
    ax.set_title(f"Wang et al. Thm 1 / Table 2 — {d[DATASET_COL].iloc[0]}, n = {int(d['n'].iloc[0])}, "
                 f"s = {int(s.iloc[0]) if len(s) else '?'}; mean and 95% CI over runs",
                 fontsize=9.5)
    ax.legend(title="sketching matrix P")
    fig.tight_layout()
    paths = save_figure(fig, out_dir, "wang_table2")
    st = d.groupby([P_COL, "m"])["trace_ratio"].mean().unstack("m")
    md = out_dir / "wang_table2.md"
    md.write_text(
        "# Wang et al. Thm 1 / Table 2: mean trace-norm ratio per sketching matrix and c\n\n"
        "| sketching matrix | " + " | ".join(f"c = {int(c)}" for c in st.columns) + " |\n"
        "|---|" + "---|" * len(st.columns) + "\n"
        + "".join(f"| {p} | " + " | ".join(f"{v:.4f}" for v in row) + " |\n" for p, row in st.iterrows())
    )
    return [*paths, md]


THM1_PROB = 0.9  # Wang Thm 1 holds "with probability at least 0.9"


def _table2_c(sub: pd.DataFrame, P: str) -> float:
    """Table 2's c for the rows of one sketching matrix (constants 1, ε = TRACE_EPS)."""
    mu = float(sub["trace_coherence"].median()) if "trace_coherence" in sub else math.nan
    return wang_table2_c(str(P), int(_s_of(sub).iloc[0]), int(sub["n"].iloc[0]), TRACE_EPS, mu)


def judge_table2(df: pd.DataFrame) -> Verdict:
    """Wang Thm 1 / Table 2 claim rule, per sketching matrix P, at the c Table 2 asks for.

    Thm 1: with c as in Table 2, ‖K − (CW⁺Cᵀ)_s‖_* ≤ (1 + ε)‖K − K_s‖_* with probability
    ≥ 0.9. Table 2 gives c only up to constants; here every constant is 1 and ε = TRACE_EPS
    (0.1) (:func:`kktheory.bounds.theory.wang_table2_c`; uniform sampling needs the
    coherence μ of K's top-s eigenvectors, the rows' ``trace_coherence``). Checks:

    1. the ratio is ≥ 1 on every row (up to 1e-9: a best rank-s approximation cannot be
       beaten; a failure here is a bug, not a finding);
    2. at c* = the smallest c of the grid ≥ Table 2's c: the share of runs with ratio ≤ 1 + ε
       is ≥ 0.9 (Clopper–Pearson interval; decidable from 36 runs on). A failure is the
       constant-1 reading of Table 2's O(·) (cause *reading*): a larger constant asks for a
       larger c;
    3. the mean ratio falls from the smallest to the largest c (Welch difference ≤ 0).
    """
    d = ok_rows(df)
    if d.empty:
        return not_run("no row")
    if (why := require_columns(d, ["trace_ratio", P_COL], "needs bounds=[trace]")) is not None:
        return not_run(why)
    d = d.dropna(subset=["trace_ratio"])
    checks = []
    for p, sub in d.groupby(P_COL):
        below = int((sub["trace_ratio"] < 1 - 1e-9).sum())
        checks.append(Check(f"{p}: ratio ≥ 1 on every row", below == 0,
                            f"{below} of {len(sub)} row(s) below 1" if below else f"{len(sub)} rows"))
        c_need = _table2_c(sub, p)
        grid = sorted(sub["m"].unique())
        at = [c for c in grid if c >= c_need]
        if not math.isfinite(c_need) or not at:
            checks.append(Check(f"{p}: ratio ≤ 1 + {TRACE_EPS:g} at Table 2's c", None,
                                f"Table 2's c = {fmt(c_need)} is not in the grid (largest c = {int(grid[-1])})"
                                if math.isfinite(c_need) else "no coherence column (trace_coherence) for uniform sampling",
                                cause_detail="the grid does not reach Table 2's c" if math.isfinite(c_need)
                                else "uniform sampling's c needs the coherence of K's top-s eigenvectors"))
        else:
            cell = sub.loc[sub["m"] == at[0], "trace_ratio"]
            hits = int((cell <= 1 + TRACE_EPS).sum())
            dec = at_least(Estimate.proportion(hits, len(cell)), THM1_PROB)
            checks.append(Check.of(
                f"{p}: ratio ≤ 1 + {TRACE_EPS:g} with probability ≥ {THM1_PROB:g} at Table 2's c", dec,
                f"Table 2's c = {fmt(c_need)} → c* = {int(at[0])}: {hits}/{len(cell)} runs within, mean ratio "
                f"{fmt(float(cell.mean()), 4)}", *_reading_if_failed(dec, "Table 2's O(·) constants read as 1")))
        first = sub.loc[sub["m"] == grid[0], "trace_ratio"].to_numpy(float)
        last = sub.loc[sub["m"] == grid[-1], "trace_ratio"].to_numpy(float)
        checks.append(Check.of(f"{p}: ratio falls with c", at_most(Estimate.difference(last, first), 0.0),
                               f"mean {fmt(first.mean(), 4)} at c = {int(grid[0])} → {fmt(last.mean(), 4)} at "
                               f"c = {int(grid[-1])}"))
    absent = [p for p in TABLE2_SKETCHES if p not in set(d[P_COL].astype(str))]
    if absent:
        checks.append(Check(f"{', '.join(absent)}: not run", None, "no rows for these sketching matrices of Table 2",
                            cause_detail="not run here"))
    return judge_checks(checks, f"{d[DATASET_COL].iloc[0]}, n = {int(d['n'].iloc[0])}, s = {int(_s_of(d).iloc[0])}, "
                                f"ε = {TRACE_EPS:g}, {d['seed'].nunique()} runs per c")


TABLE2 = Entry(
    name="wang_table2",
    title="Wang, Gittens & Mahoney 2019, Thm 1 / Table 2",
    claim=("for each sketching matrix of Table 2, the sketch size c it lists makes the rank-restricted "
           "Nyström trace-norm error within 1 + ε of the best rank-s error with probability ≥ 0.9"),
    rule=(f"per sketching matrix: ratio ≥ 1 on every row; at the smallest grid c ≥ Table 2's c (constants 1, "
          f"ε = {TRACE_EPS}; uniform sampling with the measured coherence μ) the share of runs with ratio ≤ "
          f"1 + ε is ≥ {THM1_PROB} (95% Clopper–Pearson); the mean ratio falls from the smallest to the largest c "
          f"(Welch, 95%) (kktheory/report/wang.py, judge_table2)"),
    draw=draw_table2,
    judge=judge_table2,
    changes={
        "small": "PenDigits n = 2000, 3 runs (too few to decide a probability of 0.9)",
        "paper": "PenDigits full training set (7494), s = k = 10, 50 runs planned per sketching matrix (about a "
                 "minute each here; the runs column says how many are committed); Table 2 is a theory table (sufficient "
                 "sketch sizes), not an experiment of the paper",
    },
)

ENTRIES = [FIG2, FIG3, FIG4_5, TABLE2]
