"""Theory vs observation: Calandriello & Rosasco 2018.

The catalogue entry ``theory_rates_calandriello``: its checks declared before the data, its drawing, its
setting check and its judgement. What it shares with the theory rates's other entries is in
:mod:`kktheory.report.theory`.
"""

from __future__ import annotations

import math
import pandas as pd
from kktheory.report.claims import AT_MOST, SHARE, Design, Margin, Rule
from kktheory.report.verdicts import Check, Verdict, judge_checks, not_run
from kktheory.report.stats import fmt, mean_ci
from kktheory.report.decide import LEVEL, Estimate
from kktheory.report.entry import Entry
from kktheory.report.theory import (
    DELTA, K, LEMMA_N, RATE_MARGIN, RATE_MARGIN_WHY, RATE_NS, _SHARED, _rate_rule, _setting, _share, _share_design, draw, parts, rate_checks, thm1_slope,
)


#: the sketches each statement is about, among those the sweep runs
THM1_SKETCHES = ("nystrom", "nystrom_rls")  # uniform and RLS Nyström (Calandriello Lemma 1's dictionaries)


# -- Calandriello's rules -----------------------------------------------------------------------
THM1_SE5 = 0.102  # bootstrap se of b at 5 runs per n (nystrom_rls, the wider of the two; committed rows)


THM1_RUNS = 46


THM1_RULES = tuple(
    _rate_rule(f"Calandriello Thm 1 rate of {s} (excess over C_n)", "excess over the empirical minimiser, "
               "W(C_{n,m}, μ) − W(C_n, μ) on a 100,000-point population sample,", s, thm1_slope(),
               "Calandriello & Rosasco Thm 1, O(k/√n + kγ/n) with γ = √n (§5: 'm = √n is sufficient to recover the "
               "optimal rate')", THM1_SE5, THM1_RUNS)
    for s in THM1_SKETCHES)


LEMMA2_RUNS = 54  # seeds (each with every (γ, m) cell)
LEMMA2_CELLS = 16  # 4 γ × 4 m per seed
LEMMA2_RHO = 0.26  # within-seed correlation of log(gap/bound) across the cells (committed rows)


LEMMA2_RULE = Rule(
    "Calandriello Lemma 2: gap ≤ min(k, d_eff)/(1−ε)·γ/n",
    "share of seeds in which W(C_{n,m}, μ_n) − W(C_n, μ_n) ≤ min(k, d_eff(γ))/(1 − ε)·γ/n at every (γ, m) of the "
    "grid (the seed is the unit: its cells share one data draw; exact Clopper–Pearson interval over seeds)", SHARE,
    Margin(1 - DELTA, f"the lemma holds with probability at least 1 − δ, δ = {DELTA:g} (the rows' bound_delta), at "
           "each (γ, m); holding at every cell of a seed is at most as likely, so its share shown above 1 − δ shows "
           "each cell's", "Calandriello & Rosasco Lemma 2"),
    _share_design(LEMMA2_RUNS, "lemma", LEMMA2_CELLS, LEMMA2_RHO,
                  "the mean pairwise correlation over seeds of log(gap/bound), cell means removed, on the committed "
                  "rows paper_figs/rows/theory_rates.parquet"),
    selection=f"uniform Nyström, projected centroids (eq. 2), m = 1, 2, 4, 8 × n/γ for γ = 0.25, 1, 4, 16 × √n, "
              f"n = {LEMMA_N} (theory_rates/part/lemma2_*)")


SEEDING_BOUND = 8 * (math.log(K) + 2)


SEEDING_SD = 1.4  # per-run sd of seeding / spectral lower bound (committed rows)


SEEDING_RULE = Rule(
    f"Calandriello Prop. 3: k-means++ seeding ≤ 8(ln k + 2) = {SEEDING_BOUND:.1f} × OPT",
    "mean over runs of (k-means++ seeding cost) / (spectral lower bound of the features' k-means optimum), an "
    "over-estimate of seeding / OPT", AT_MOST,
    Margin(round(SEEDING_BOUND, 3), "the expectation bound 8(log k + 2) as printed, k = 10",
           "Calandriello & Rosasco Prop. 3 (Arthur & Vassilvitskii 2007, Thm 3.1)"),
    Design("paired", round(SEEDING_BOUND / 2, 3), round(SEEDING_BOUND, 3), (SEEDING_SD,), 5,
           f"effect: a ratio half the bound (planning value); per-run sd {SEEDING_SD:g} of the over-estimate measured "
           f"on the committed rows; 5 runs (one n) reach power 0.8"),
    selection="every rate row (all sketches and n at m = √n) with a seeding cost and a positive lower bound")


CALANDRIELLO_RULES = (*THM1_RULES, LEMMA2_RULE, SEEDING_RULE)


def lemma2_check(lemma2: pd.DataFrame, level: float = LEVEL) -> list[Check]:
    """Calandriello Lemma 2: share of seeds where the gap is within the bound at every (γ, m), ≥ 1 − δ."""
    if lemma2.empty or "lemma2_holds" not in lemma2 or lemma2["lemma2_holds"].isna().all():
        return []
    ratio = (lemma2["lemma2_gap"] / lemma2["lemma2_bound"]).median()
    cent = ", ".join(sorted(lemma2["centroids"].astype(str).unique())) if "centroids" in lemma2 else "?"
    return [_share(LEMMA2_RULE, lemma2, lemma2["lemma2_holds"], ["gamma_value", "m_rule"],
                   f"{cent} centroids; observed/bound median {fmt(ratio, 2)}", level)]


def seeding_check(rates: pd.DataFrame, level: float = LEVEL) -> list[Check]:
    """Calandriello Prop. 3 (Arthur & Vassilvitskii Thm 3.1): the mean over runs of the
    seeding / spectral-lower-bound over-estimate, at most 8(ln k + 2)."""
    if "seeding_cost_mean" not in rates or rates["seeding_cost_mean"].isna().all():
        return []
    d = rates.dropna(subset=["seeding_cost_mean", "feature_lower_bound"])
    d = d[d["feature_lower_bound"] > 0]
    if d.empty:
        return []
    over = d["seeding_cost_mean"] / d["feature_lower_bound"]
    under = d["seeding_cost_mean"] / d["feature_objective"]
    return [SEEDING_RULE.check(Estimate.mean_of(over),
                               f"seeding / spectral lower bound: median {fmt(over.median(), 3)}, max {fmt(over.max(), 3)}; "
                               f"seeding / final objective (an under-estimate): median {fmt(under.median(), 3)}; "
                               f"{len(d)} runs", level=level)]


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
            f"(n = {int(sub['n'].iloc[0])}); the observed ε reaches {eps:g} at {m_obs} (drawn, not judged)")


def setting_calandriello(rows: pd.DataFrame) -> str:
    return _setting(rows, "Calandriello & Rosasco", "‖φ(x)‖ ≤ 1 for Thm 1 and Lemma 2")


def judge_calandriello(df: pd.DataFrame, level: float = LEVEL) -> Verdict:
    """Calandriello & Rosasco: Thm 1's rate, Lemma 2, Prop. 3 (module docstring)."""
    rates, lemma2, bvm = parts(df)
    if rates.empty and lemma2.empty:
        return not_run("no row")
    checks = (rate_checks(rates, "excess_erm_risk", THM1_RULES, THM1_SKETCHES, "k/√n + kγ/n, γ = √n", level)
              + lemma2_check(lemma2, level) + seeding_check(rates, level))
    return judge_checks(checks, looseness(bvm), level)


#: the paper's figure or table this entry reproduces
TITLE = "Theory vs observation: Calandriello & Rosasco 2018"

#: what the paper claims
CLAIM = ("with m = √n (γ = √n) the excess risk of uniform and RLS Nyström over the empirical minimiser, "
         "W(C_{n,m}, μ) − W(C_n, μ), decays at least like Thm 1's O(k/√n + kγ/n); Lemma 2's gap bound "
         "and Prop. 3's k-means++ bound hold as stated")

#: how the rows judge it
RULE = (f"Thm 1 read at m = √n as §5 does (Lemma 1's constants would need m = 21,259 at n = 2000): bootstrap "
        f"interval of the fitted decay exponent b (all runs, negative excesses included) ≤ the shape's slope over "
        f"the declared grid n = {RATE_NS[0]} … {RATE_NS[-1]} (−0.5) + {RATE_MARGIN} ({RATE_MARGIN_WHY}); Lemma 2: "
        f"share of seeds where it holds at every (γ, m) ≥ 1 − δ = {1 - DELTA:g} (exact 95% interval over seeds); "
        f"Prop. 3: mean over runs of "
        f"seeding / spectral lower bound (an over-estimate of seeding / OPT) ≤ 8(ln k + 2); one family (Holm); "
        f"{_SHARED}")

#: what each scale changes against the paper
CHANGES = {
    "small": "n ∈ {500, …, 4000} with 3 seeds for the rates and smaller candidates for W*(μ); the lemma "
             "parts as at paper scale with 3 seeds",
    "paper": "synthetic (Yin's mixture; the statements are about any distribution); n ∈ {1000, …, 32000} with "
             "5 runs per n for the rates (46 per n reach power 0.8 at the theorem's own slope); n = 2000 for "
             "Lemma 2, 5 seeds, each with all 16 (γ, m) cells (54 seeds reach power 0.8)",
}


CALANDRIELLO = Entry(
    name="theory_rates_calandriello", place=(5, 1),
    label={"paper": "Yin's mixture, n = 1,000–32,000 (beyond the papers)"}, title=TITLE, claim=CLAIM,
    rule=RULE, draw=draw, judge=judge_calandriello, changes=CHANGES, rules=CALANDRIELLO_RULES,
    setting=setting_calandriello, sweep="theory_rates",
)
