"""Theory against observation, beyond the papers' own figures.

One sweep on Yin's synthetic mixture with one distribution μ for every seed
(``dataset.centres_seed``), three kinds of rows (told apart by their config):

- rates: at m = √n for n over a grid, each sketch's two excess risks scored on one large
  population test sample (:mod:`kktheory.population`, common random numbers):
  ``excess_erm_risk`` = W(C_{n,m}, μ) − W(C_n, μ), the quantity of Calandriello & Rosasco's
  Thm 1 (≤ O(k/√n + kγ/n), γ = √n: rate n^(−1/2)), and ``excess_pop_risk`` =
  W(C_{n,m}, μ) − W*(μ), the quantity of Yin et al.'s Thm 2 (Õ(√(k/n)); over a finite range
  of n the shape √(k/n)·log²√n decays with the slope :func:`kktheory.bounds.theory.shape_slope`
  gives, about −0.27 over n = 10³…3·10⁴). The decay of each mean is fitted with every run
  kept (:func:`kktheory.bounds.theory.fit_rate`: a·n^b, see :func:`rate_fits` for why
  without an offset); a theorem is judged
  on its own quantity and its own sketches. An upper bound is not violated by a faster
  decay, so the claim is b ≤ (the theorem's slope) + RATE_MARGIN.
- Lemma 2 (Calandriello): uniform Nyström with m a multiple of n/γ and projected centroids
  (the paper's C_{n,m} ⊂ H_m, eq. 2): the train-risk gap to exact kernel k-means against
  min(k, d_eff)/(1−ε)·γ/n; it holds with probability ≥ 1 − δ, so the share of runs where
  it holds must be ≥ 1 − δ.
- bounds vs m (fixed n): Yin's Lemma 5 as stated — with probability ≥ 1 − δ every pair's
  distortion is within ε(m) (``jl_eps`` ≤ ``jl_eps_implied``); Lemma 6 — the gap of the
  k-means objective on the kernel columns to its own reference (k-means on the k_i,
  ``kc_ref_objective``) ≤ 2ε/(1−ε) with the run's ε (void for ε ≥ 1); and, drawn only,
  γ-preservation ε (Calandriello Def. 2, with Lemma 1's required m) and Wang's trace-norm
  ratio.

Every explicit bound's looseness (observed / bound, median over runs) is stated in the
verdict.
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from kktheory.bounds.theory import RateFit, calandriello_thm1_shape, fit_rate, shape_slope, yin_thm2_shape
from kktheory.report.common import (
    DATASET_COL,
    SKETCH_COL,
    CAUSE_CLAIM, Check, Verdict, band, color_marker, fmt, grid_ticks, judge_checks, mean_ci, not_run,
    ok_rows, pyplot, save_figure,
)
from kktheory.report.decide import Estimate, at_least, at_most
from kktheory.report.entry import Entry

RATE_MARGIN = 0.1  # a slope slower by 0.1 changes the excess by 32^0.1 ≈ 1.4× over n = 10³…3.2·10⁴
DELTA = 0.1  # failure probability δ of the lemmas (the rows' bound_delta)
#: theorem → (excess column, sketches it is about, rate shape name)
THEOREMS = {
    "Calandriello Thm 1": ("excess_erm_risk", ("nystrom", "nystrom_rls"), "k/√n + kγ/n, γ = √n"),
    "Yin Thm 2": ("excess_pop_risk", ("yin_nystrom", "subgaussian", "ros", "exact"), "√(k/n)·log²√n"),
}
#: the columns whose decay in n is fitted
NOTIONS = ("excess_erm_risk", "excess_pop_risk")
NOTION_LABEL = {"excess_erm_risk": "W(C_{n,m}) − W(C_n)  [Calandriello Thm 1]",
                "excess_pop_risk": "W(C_{n,m}) − W*(μ)  [Yin Thm 2]"}


def _factor(rule: str) -> float:
    """The factor c of an m rule ``c*n_over_gamma`` (1 without a factor)."""
    head, star, _ = str(rule).partition("*")
    return float(head) if star else 1.0


def parts(df: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(rate rows, Lemma 2 rows, bounds-vs-m rows) of the sweep."""
    d = ok_rows(df)
    if d.empty:
        return d, d, d
    bounds = d["bounds"] if "bounds" in d else pd.Series(None, index=d.index, dtype=object)
    no_bounds = bounds.isna() | bounds.astype(str).isin(["[]", "None", ""])  # [] is stored as missing
    lemma2 = d["m_rule"].astype(str).str.contains("n_over_gamma")
    rates = no_bounds & ~lemma2
    return d[rates], d[lemma2], d[~rates & ~lemma2]


def theorem_slope(theorem: str, n: np.ndarray, k: int) -> float:
    """The slope of the theorem's rate shape over the grid of n (γ = √n for Thm 1)."""
    n = np.unique(np.asarray(n, dtype=float))
    shape = calandriello_thm1_shape(n, k, np.sqrt(n)) if theorem.startswith("Calandriello") else yin_thm2_shape(n, k)
    return shape_slope(shape, n)


def rate_fits(rates: pd.DataFrame) -> dict[tuple[str, str], object]:
    """(sketch, excess column) → RateFit of a·n^b (None when it cannot be fitted).

    No offset: both excesses tend to 0 for a consistent method, and a free constant c in
    a·n^b + c is not identified over 1.5 decades of n (with it the fits of the sketches'
    population excess went flat, b ≈ 0 ± 0.9, on curves that halve over the grid). The
    population excess is measured against ŵ*, an upper bound of W*(μ): every measured
    excess is the true one minus the same δ = ŵ* − W* ≥ 0, which steepens the fitted decay
    and so makes the rate check lenient by that much. δ is at most ŵ*'s own excess, which
    the exact method's measured excess bounds from below at every n (drawn in the figure;
    it is ~10⁻⁵ at n = 8000 against 10⁻² for the sketches), so the bias matters only where
    a sketch's excess comes near the exact method's. The figure and the claim rule read the
    same fits: each curve is fitted once per process (:func:`_fit`)."""
    out = {}
    for col in NOTIONS:
        if col not in rates:
            continue
        for name, sub in rates.dropna(subset=[col]).groupby(SKETCH_COL):
            out[(str(name), col)] = _fit(tuple(sub["n"].to_numpy(float)), tuple(sub[col].to_numpy(float)))
    return out


@lru_cache(maxsize=64)
def _fit(n: tuple[float, ...], y: tuple[float, ...]) -> RateFit | None:
    """:func:`fit_rate` of one curve (deterministic: its bootstrap has a fixed stream), kept
    for the next call with the same values (400 bootstrap fits each)."""
    return fit_rate(np.asarray(n), np.asarray(y))


def rate_checks(rates: pd.DataFrame) -> list[Check]:
    """Each theorem on its own quantity and sketches: slope ≤ theorem's slope + RATE_MARGIN."""
    checks: list[Check] = []
    fits = rate_fits(rates)
    if rates.empty:
        return checks
    k = int(rates["k"].iloc[0])
    for theorem, (col, sketches, shape) in THEOREMS.items():
        if col not in rates or rates[col].isna().all():
            checks.append(Check(f"{theorem} rate", False, f"no {col} in the rows (population evaluation off)"))
            continue
        bound = theorem_slope(theorem, rates["n"].to_numpy(), k) + RATE_MARGIN
        for name in sketches:
            if (name, col) not in fits:
                continue
            fit = fits[(name, col)]
            label = f"{theorem} rate of {name} ({col})"
            if fit is None:
                checks.append(Check(label, None, "the decay could not be fitted (too few values of n)"))
                continue
            ns = rates.loc[rates[SKETCH_COL] == name, "n"]
            per_n = int(ns.value_counts().median())
            detail = (f"fitted exponent b with its bootstrap interval, over n = {int(ns.min())}–{int(ns.max())}, all "
                      f"{fit.runs} runs ({per_n} per n); the shape {shape} has slope {fmt(bound - RATE_MARGIN, 2)} "
                      f"over this range, margin {RATE_MARGIN}")
            est = Estimate.bootstrap(fit.slope, fit.ci_low, fit.ci_high, per_n)
            checks.append(Check.of(label, at_most(est, bound), detail))
    return checks


def _share_check(name: str, holds: pd.Series, detail: str) -> Check:
    """The lemma holds with probability ≥ 1 − δ: the share of runs where it holds."""
    h = holds.dropna().astype(bool)
    share = Estimate.proportion(int(h.sum()), len(h))
    return Check.of(name, at_least(share, 1 - DELTA), f"holds in {int(h.sum())}/{len(h)} runs; {detail}")


def lemma_checks(lemma2: pd.DataFrame, bvm: pd.DataFrame) -> list[Check]:
    """Calandriello Lemma 2, Yin Lemma 5 (as stated) and Lemma 6, with their looseness."""
    checks = []
    if not lemma2.empty and "lemma2_holds" in lemma2 and lemma2["lemma2_holds"].notna().any():
        ratio = (lemma2["lemma2_gap"] / lemma2["lemma2_bound"]).median()
        cent = ", ".join(sorted(lemma2["centroids"].astype(str).unique())) if "centroids" in lemma2 else "?"
        checks.append(_share_check("Calandriello Lemma 2: gap ≤ min(k, d_eff)/(1−ε)·γ/n", lemma2["lemma2_holds"],
                                   f"{cent} centroids; observed/bound median {fmt(ratio, 2)}"))
    if "jl_eps" in bvm and bvm["jl_eps"].notna().any():
        for name, sub in bvm.dropna(subset=["jl_eps"]).groupby(SKETCH_COL):
            holds = sub["jl_eps"] <= sub["jl_eps_implied"]
            ratio = (sub["jl_eps"] / sub["jl_eps_implied"]).median()
            checks.append(_share_check(f"Yin Lemma 5 for {name}: ε ≤ ε(m)", holds,
                                       f"observed ε / ε(m) median {fmt(ratio, 3)} (m = {int(sub['m'].min())}–"
                                       f"{int(sub['m'].max())}, n = {int(sub['n'].iloc[0])})"))
            if "lemma6_holds_kc" in sub and sub["lemma6_gap_kc"].notna().any():
                finite = sub[np.isfinite(sub["lemma6_bound"])]
                if finite.empty:
                    checks.append(Check(f"Yin Lemma 6 for {name}", None,
                                        f"vacuous in all {len(sub)} runs: the observed ε ≥ 1 makes 2ε/(1−ε) infinite "
                                        "(Lemma 5's distortion is too large for Lemma 6 to say anything)",
                                        cause=CAUSE_CLAIM, cause_detail="Lemma 6 needs ε < 1, which Lemma 5 does not deliver"))
                else:
                    ratio = (finite["lemma6_gap_kc"] / finite["lemma6_bound"]).median()
                    checks.append(_share_check(f"Yin Lemma 6 for {name}: kernel-column gap ≤ 2ε/(1−ε)",
                                               finite["lemma6_holds_kc"],
                                               f"finite bound in {len(finite)}/{len(sub)} runs; observed/bound median "
                                               f"{fmt(ratio, 2)}"))
    return checks


def seeding_check(rates: pd.DataFrame) -> list[Check]:
    """Arthur & Vassilvitskii Thm 3.1 (what Calandriello Thm 2 and Yin Thm 3 build on): the
    k-means++ seeding's expected cost ≤ 8(ln k + 2)·OPT. OPT of the features' objective is
    unknown; the spectral lower bound ≤ OPT makes seeding/bound an over-estimate of the
    ratio (and seeding/final-objective an under-estimate), so the check is the mean of the
    over-estimate against the bound."""
    if "seeding_cost_mean" not in rates or rates["seeding_cost_mean"].isna().all():
        return []
    d = rates.dropna(subset=["seeding_cost_mean", "feature_lower_bound"])
    d = d[d["feature_lower_bound"] > 0]
    if d.empty:
        return []
    k = int(d["k"].iloc[0])
    bound = 8 * (math.log(k) + 2)
    over = d["seeding_cost_mean"] / d["feature_lower_bound"]
    under = d["seeding_cost_mean"] / d["feature_objective"]
    return [Check.of(f"k-means++ seeding ≤ 8(ln k + 2) = {bound:.1f} × OPT (mean over runs)",
                     at_most(Estimate.mean_of(over), bound),
                     f"seeding / spectral lower bound: median {fmt(over.median(), 3)}, max {fmt(over.max(), 3)}; "
                     f"seeding / final objective (an under-estimate): median {fmt(under.median(), 3)}; {len(d)} runs")]


def looseness(bvm: pd.DataFrame) -> str:
    """Lemma 1: the m at which the observed γ-preservation ε reaches bound_eps, against the
    m the lemma requires."""
    if "gamma_eps" not in bvm or bvm["gamma_eps"].isna().all() or "lemma1_m" not in bvm:
        return ""
    sub = bvm.dropna(subset=["gamma_eps"])
    st = mean_ci(sub, "m", "gamma_eps")
    eps = float(sub["bound_eps"].iloc[0]) if "bound_eps" in sub else 0.5
    reached = st[st["mean"] <= eps]
    m_obs = f"m = {int(reached['m'].iloc[0])}" if len(reached) else f"not within the grid (m ≤ {int(st['m'].max())})"
    return (f"Calandriello Lemma 1 (ε = {eps:g}, δ = {DELTA:g}): required m = {sub['lemma1_m'].median():,.0f} "
            f"(n = {int(sub['n'].iloc[0])}); the observed ε reaches {eps:g} at {m_obs}")


def judge(df: pd.DataFrame) -> Verdict:
    """The theorems' rates on their own quantities, and the lemmas as stated (module docstring)."""
    rates, lemma2, bvm = parts(df)
    if rates.empty and lemma2.empty and bvm.empty:
        return not_run("no row")
    checks = rate_checks(rates) + lemma_checks(lemma2, bvm) + seeding_check(rates)
    return judge_checks(checks, looseness(bvm))


# -- the figure ---------------------------------------------------------------------------------
def _draw_rates(ax, rates: pd.DataFrame, col: str, fits: dict) -> None:
    """Mean excess vs n per sketch (95% CI) with the fitted decay, on log–log axes; a mean
    ≤ 0 is drawn as a hollow marker on the bottom edge (it cannot sit on a log axis)."""
    if col not in rates or rates[col].isna().all():
        ax.text(0.5, 0.5, f"no {col}", transform=ax.transAxes, ha="center")
        return
    k = int(rates["k"].iloc[0])
    d = rates.dropna(subset=[col])
    if col == "excess_erm_risk":  # exact kernel k-means is the empirical minimiser itself
        d = d[d[SKETCH_COL] != "exact"]
    means = d.groupby([SKETCH_COL, "n"])[col].mean()
    floor = float(means[means > 0].min()) / 3 if (means > 0).any() else 1e-6
    ns = np.geomspace(d["n"].min(), d["n"].max(), 60)
    for i, (name, sub) in enumerate(d.groupby(SKETCH_COL)):
        st = mean_ci(sub, "n", col)
        fit = fits.get((str(name), col))
        color, marker = color_marker(str(name), i)
        label = str(name) + (f": b = {fit.slope:.2f} [{fit.ci_low:.2f}, {fit.ci_high:.2f}]" if fit else "")
        pos = st["mean"] > 0
        lo = np.maximum(st["lo"], floor)
        ax.errorbar(st["n"][pos], st["mean"][pos], yerr=[st["mean"][pos] - lo[pos], st["hi"][pos] - st["mean"][pos]],
                    color=color, marker=marker, ms=5, capsize=3, lw=1.2, label=label)
        ax.plot(st["n"][~pos], np.full((~pos).sum(), floor), ls="none", marker=marker, mfc="none", color=color, ms=7)
        if fit is not None:
            curve = fit.scale * ns**fit.slope
            ax.plot(ns[curve > 0], curve[curve > 0], color=color, lw=0.8, alpha=0.6)
    theorem = "Calandriello Thm 1" if col == "excess_erm_risk" else "Yin Thm 2"
    shape = calandriello_thm1_shape(ns, k, np.sqrt(ns)) if col == "excess_erm_risk" else yin_thm2_shape(ns, k)
    top = float(means.max()) if (means > 0).any() else 1.0
    ax.plot(ns, top * shape / shape[0], color="0.3", ls="--", lw=1, label=f"{theorem} rate (scaled)")
    ax.plot([], [], ls="none", marker="o", mfc="none", color="0.4", label="hollow: mean ≤ 0")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(bottom=floor * 0.8)
    grid_ticks(ax, d["n"].unique())
    ax.set_xlabel("training points n (log scale), m = √n")
    ax.set_ylabel("excess risk (log scale)")
    ax.legend(fontsize=7, loc="lower left", framealpha=0.85)


def draw(df: pd.DataFrame, out_dir: Path) -> list[Path]:
    """(a, b) both excess risks vs n; (c) Lemma 2; (d) Lemma 5's ε vs ε(m); (e) Lemma 6; (f) γ-ε and trace ratio."""
    plt = pyplot()
    rates, lemma2, bvm = parts(df)
    fits = rate_fits(rates)
    fig, axes = plt.subplots(2, 3, figsize=(16, 9))
    for ax, col, title in ((axes[0, 0], "excess_erm_risk", "(a) excess over the empirical minimiser C_n"),
                           (axes[0, 1], "excess_pop_risk", "(b) excess over the population optimum W*(μ) (a lower bound)")):
        _draw_rates(ax, rates, col, fits)
        ax.set_title(title + "\n" + NOTION_LABEL[col] + "\nmean ± 95% CI over runs; thin lines: fitted a·n^b",
                     fontsize=9)

    ax = axes[0, 2]
    if not lemma2.empty and "lemma2_gap" in lemma2:
        l2 = lemma2.assign(ratio=lemma2["lemma2_gap"] / lemma2["lemma2_bound"])
        for i, (rule, sub) in enumerate(sorted(l2.groupby("m_rule"), key=lambda g: _factor(g[0]))):
            st = mean_ci(sub, "gamma_value", "ratio")
            band(ax, st["gamma_value"].to_numpy(), st, f"m = {_factor(rule):g}·n/γ", str(rule), i, errorbars=True)
        ax.axhline(1.0, color="black", lw=1, label="gap = bound")
        ax.set_xscale("log")
        ax.set_yscale("symlog", linthresh=0.01)  # ratios span decades below the bound, and can be ≤ 0
        ax.set_ylim(top=3.0)
        ax.legend(fontsize=8)
    ax.set_xlabel("γ (log scale)")
    ax.set_ylabel("train-risk gap / bound (symmetric log scale)")
    ax.set_title("(c) Calandriello Lemma 2 (projected centroids):\ngap ≤ min(k, d_eff)/(1−ε)·γ/n", fontsize=9)

    ax = axes[1, 0]
    if "jl_eps" in bvm and bvm["jl_eps"].notna().any():
        sub_all = bvm.dropna(subset=["jl_eps"])
        for i, (name, sub) in enumerate(sub_all.groupby(SKETCH_COL)):
            st = mean_ci(sub, "m", "jl_eps", log=True)
            band(ax, st["m"].to_numpy(), st, f"observed ε, {name} (geometric mean)", str(name), i, errorbars=True)
        st = sub_all.groupby("m")["jl_eps_implied"].median()
        ax.plot(st.index, st.to_numpy(), color="black", lw=1.5, label="ε(m) of Lemma 5 (δ = 0.1)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        grid_ticks(ax, sub_all["m"].unique())
        ax.legend(fontsize=7.5)
    ax.set_xlabel("m (log scale)")
    ax.set_ylabel("JL distortion ε (log)")
    ax.set_title("(d) Yin Lemma 5 as stated: observed ε ≤ ε(m)?", fontsize=9)

    ax = axes[1, 1]
    if "lemma6_gap_kc" in bvm and bvm["lemma6_gap_kc"].notna().any():
        sub_all = bvm.dropna(subset=["lemma6_gap_kc"])
        for i, (name, sub) in enumerate(sub_all.groupby(SKETCH_COL)):
            st = mean_ci(sub, "m", "lemma6_gap_kc")
            band(ax, st["m"].to_numpy(), st, f"gap, {name}", str(name), i, errorbars=True)
            b = sub.groupby("m")["lemma6_bound"].median()
            finite = np.isfinite(b.to_numpy())
            color, _ = color_marker(str(name), i)
            if finite.any():
                ax.plot(b.index[finite], b.to_numpy()[finite], color=color, ls="--", lw=1, label=f"2ε/(1−ε), {name}")
        ax.axhline(0.0, color="0.6", lw=0.8)
        ax.set_xscale("log")
        grid_ticks(ax, sub_all["m"].unique())
        ax.legend(fontsize=7.5)
    ax.set_xlabel("m (log scale)")
    ax.set_ylabel("kernel-column objective gap")
    ax.set_title("(e) Yin Lemma 6 on its own objective (k-means on k_i);\nbound drawn where finite (ε < 1)", fontsize=9)

    ax = axes[1, 2]
    for col, ylabel in (("gamma_eps", "γ-preservation ε"), ("trace_ratio", "trace-norm ratio")):
        if col not in bvm or bvm[col].isna().all():
            continue
        for i, (name, sub) in enumerate(bvm.dropna(subset=[col]).groupby(SKETCH_COL)):
            st = mean_ci(sub, "m", col)
            c, mk = color_marker(str(name), i)
            ax.plot(st["m"], st["mean"], color=c, marker=mk, ms=4, ls="-" if col == "gamma_eps" else ":",
                    label=f"{ylabel}, {name}")
    if len(bvm):
        ax.axvline(math.sqrt(bvm["n"].iloc[0]), color="0.35", ls="--", lw=1, label="m = √n")
        ax.set_xscale("log")
        grid_ticks(ax, bvm["m"].unique())
        ax.legend(fontsize=7)
    ax.set_xlabel("m (log scale)")
    ax.set_title("(f) γ-preservation ε (Calandriello Def. 2) and\nWang's trace-norm ratio, drawn only", fontsize=9)
    d = ok_rows(df)
    per = d.groupby([SKETCH_COL, "n", "m_rule"])["seed"].nunique()
    runs = f"{per.min()}–{per.max()}" if per.min() != per.max() else f"{per.max()}"
    fig.suptitle(f"Theory vs observation — {d[DATASET_COL].iloc[0]}, k = {int(d['k'].iloc[0])}; "
                 f"{runs} runs per point", fontsize=10.5)
    fig.tight_layout()
    return save_figure(fig, out_dir, "theory_rates")


RATES = Entry(
    name="theory_rates",
    title="Theory vs observation",
    claim=("with m = √n each theorem's excess risk decays at least as fast as its rate (Calandriello Thm 1: "
           "W(C_{n,m}) − W(C_n) = O(n^(−1/2)); Yin Thm 2: W(C_{n,m}) − W*(μ) = Õ(√(k/n))); Calandriello's "
           "Lemma 2 and Yin's Lemmas 5 and 6 hold as stated"),
    rule=(f"per theorem, on its own excess and sketches: bootstrap interval of the fitted decay exponent b (all runs, "
          f"negative excesses included) ≤ the rate shape's slope over the grid + {RATE_MARGIN} (pass when the whole "
          f"interval is below, fail when above, else inconclusive); each lemma: share of runs where it holds ≥ "
          f"1 − δ = {1 - DELTA:g} (95% interval); observed/bound medians reported"),
    draw=draw,
    judge=judge,
    changes={
        "small": "n ∈ {500, …, 4000} with 3 seeds for the rates and smaller candidates for W*(μ); the lemma "
                 "parts as at paper scale with 3 seeds",
        "paper": "n ∈ {1000, …, 32000} with 5 seeds for the rates; n = 2000 for the lemma parts, 5 seeds",
    },
)

ENTRIES = [RATES]
