"""Theory vs observation: Yin et al. 2022.

The catalogue entry ``theory_rates_yin``: its checks declared before the data, its drawing, its
setting check and its judgement. What it shares with the theory rates's other entries is in
:mod:`kktheory.report.theory`.
"""

from __future__ import annotations

import math
from dataclasses import replace
import numpy as np
import pandas as pd
from kktheory.evaluation.bounds.theory import fit_rate, yin_implied_eps
from kktheory.report.claims import AT_MOST, SHARE, Design, Margin, Rule
from kktheory.report.verdicts import CAUSE_READING, CAUSE_SETTING, Check, Verdict, judge_checks, not_run
from kktheory.report.rows import SKETCH_COL, by_seed
from kktheory.report.stats import fmt
from kktheory.report.decide import LEVEL, Estimate
from kktheory.report.entry import Entry
from kktheory.report.theory import (
    DELTA, LEMMA5_M_MIN, LEMMA5_SWEEP, LEMMA_N, PREMISE_SWEEP, PART_AXIS, RATE_MARGIN, RATE_NS, EXTRA_SWEEPS, _SHARED, _rate_rule, _setting, share_check, covering, _share_design, draw, margin_why, parts, rate_checks, rate_fits, remark1_slope, seed_slopes,
)


REMARK1_SKETCHES = ("yin_nystrom", "subgaussian")  # Yin's sketches in the sweep (ROS is not run here)


LEMMA5_SKETCHES = ("gaussian", "subgaussian", "yin_nystrom")  # bounds_* parts with a JL distortion
PREMISE_SKETCH = "gaussian"  # the one whose observed ε < 1 over a range of m ≪ n at n = 2000 (PREMISE_RULE)
#: why the Gaussian sketch's Lemma 5 and 6 checks are shown, not counted: it is the map the proof's step
#: covers, not one the lemmas name
GAUSSIAN_NOT_NAMED = ("shown, not counted since 2026-12-07: the dense Gaussian map is the case the proof's step "
                      "(eq. 33, each row of R with N(0, 1/m) entries) covers, not one of the three cases the lemma "
                      "names — R = SQ with Q sampling m of the n points (§3.2: sub-Gaussian, ROS, Nyström); those "
                      "cases' checks count")


# -- Yin's rules --------------------------------------------------------------------------------
#: planning: the standard error of b that the studentised bootstrap interval of the committed rows implies
#: (half-width / z at its level, 10 runs per n, scaled to 5 by √2): yin_nystrom, the wider of the two,
#: [−0.549, −0.068] at 99.99 % (subgaussian's [−0.564, −0.222] at 99.98 % gives 0.065); the percentile
#: bootstrap's, before 2026-12-07, was 0.056
REMARK1_SE5 = 0.087
REMARK1_SE_FROM = ("implied by the studentised bootstrap interval of the committed rows (half-width / z, 10 runs "
                   "per n, scaled to 5)")
REMARK1_RUNS = 30  # runs per n reaching power 0.8 at 95 %: 5·(0.087·(1.96 + 0.84)/0.1)² ≈ 30


REMARK1_RULES = tuple(
    _rate_rule(f"Yin Remark 1 rate of {s} (excess over ŵ*)", "excess over the population optimum, "
               "W(C_{n,m}, μ) − ŵ*(μ) on a 100,000-point population sample,", s, remark1_slope(),
               "Yin et al. Remark 1 (Thm 2 with ε = 1/√n read at m = √n; Thm 2 as stated would need m = Ω(n log n)): "
               "Õ(√(k/n)), shape √(k/n)·log²√n", REMARK1_SE5, REMARK1_RUNS, se_from=REMARK1_SE_FROM,
               part=(f"{PART_AXIS}=rate_{s}",))
    for s in REMARK1_SKETCHES)


LEMMA_RUNS = 54  # seeds (each at both m with ε(m) < 1)
LEMMA_CELLS = 2  # m = 4√n, 8√n: the declared m with ε(m) < 1
LEMMA_RHO = 0.64  # within-seed correlation across the two m (committed rows; the largest, see the design)
LEMMA_RHO_SOURCE = ("the mean pairwise correlation over seeds of log(observed/bound), cell means removed, on the "
                    "committed rows paper_figs/rows/theory_rates.parquet: the largest over the three sketches of "
                    "Lemma 5 (0.40–0.64) and Lemma 6 (−0.03–0.62)")


LEMMA5_RULES = tuple(Rule(
    f"Yin Lemma 5 for {s}, the Ω's constant read as 1: ε ≤ ε(m)",
    "share of seeds in which the largest pairwise distortion of the kernel columns, ε, is at most ε(m), the ε that "
    "m buys in (4 log n − 2 log δ)/(ε − log(1+ε)) (constant 1), at every judged m (the seed is the unit: its m "
    "share one data draw); exact Clopper–Pearson interval over seeds", SHARE,
    Margin(1 - DELTA, f"with probability at least 1 − δ, δ = {DELTA:g}, at each m; holding at every m of a seed is at "
           "most as likely, so its share shown above 1 − δ shows each m's", "Yin et al. Lemma 5 (appendix)"),
    _share_design(LEMMA_RUNS, "lemma", LEMMA_CELLS, LEMMA_RHO, LEMMA_RHO_SOURCE),
    selection=f"sketch {s}, n = {LEMMA_N}, the runs whose ε(m) < 1 (the lemma's premise ε ∈ (0, 1)): m ≥ "
              f"{LEMMA5_M_MIN}, i.e. the declared points 4√n, 8√n of m = 0.25 … 8√n (theory_rates/part/bounds_{s}); "
              f"shown, not counted: the lemma's m = Ω(·) leaves its constant free (its scaling is judged instead)",
    control=True, part=(f"{PART_AXIS}=bounds_{s}",))
    for s in LEMMA5_SKETCHES)


# -- Lemma 5 by its scaling: the Ω's constant left free (declared after the rows were seen) ------
LEMMA5_DECLARED = "2026-11-27"
LEMMA5_FRESH_FROM = 40  # the committed bounds seeds at n = 2000 are 0–39
LEMMA5_MS = (12, 23, 45, 90, 179, 358)  # m = 0.25, 0.5, 1, 2, 4, 8 × √2000 as the runs round them
LEMMA5_SLOPE = -0.5  # ε(m) ∝ m^(−1/2) as ε → 0: ε − log(1 + ε) ≈ ε²/2
LEMMA5_SEEDS = 80  # fresh seeds (40–119, experiments/theory_rates_lemma5.yaml): 0.8 for subgaussian at the next look (99.91 %)
#: per sketch, on the committed rows (seeds 0–39, n = 2000): the sd over seeds of log ε at each m of
#: LEMMA5_MS, their mean pairwise correlation within the seed, and the sd over seeds of a seed's slope
LEMMA5_SPREAD = {
    "gaussian": ((0.098, 0.117, 0.118, 0.106, 0.112, 0.093), 0.23, 0.032),
    "subgaussian": ((0.633, 0.458, 0.336, 0.284, 0.242, 0.199), 0.17, 0.195),
    "yin_nystrom": ((0.293, 0.307, 0.230, 0.193, 0.166, 0.128), 0.25, 0.103),
}


def _decay_design(runs: int, spread: tuple[tuple[float, ...], float, float], ms: tuple[int, ...] = LEMMA5_MS,
                  source: str = "seeds 0–39") -> Design:
    """Seeds of the m of ``ms``, judged by the judge's own estimate
    (:func:`~kktheory.report.theory.seed_slopes`, then the t interval over seeds): log ε of a
    seed = slope·log m + cell noise with the sd at each m of ``spread``, correlated ρ within
    the seed, + a slope of its own, whose sd brings the per-seed slope's sd to ``spread``'s
    (0: none of its own; :data:`LEMMA5_SPREAD`, from ``source``)."""
    sd, rho, slope_sd = spread
    x = np.log(np.asarray(ms, float))
    xc = x - x.mean()
    c = xc / float(xc @ xc)
    cov = np.outer(sd, sd) * ((1 - rho) * np.eye(len(sd)) + rho)
    own = math.sqrt(max(slope_sd**2 - float(c @ cov @ c), 0.0))
    chol = np.linalg.cholesky(cov)

    def sample(rng: np.random.Generator, value: float, r: int) -> Estimate:
        z = rng.standard_normal((r, len(sd))) @ chol.T + own * rng.standard_normal((r, 1)) * xc
        return Estimate.mean_of(seed_slopes(ms, np.exp(value * x + z)))

    slope_sd = max(slope_sd, math.sqrt(float(c @ cov @ c)))
    return Design("paired", LEMMA5_SLOPE, LEMMA5_SLOPE + RATE_MARGIN, (round(slope_sd, 4),), runs,
                  f"runs are seeds: effect, the lemma's slope itself (an upper bound met exactly); a seed's {len(ms)} m "
                  f"drawn with the committed rows' spread of log ε at each m (sd {min(sd):.2g}–{max(sd):.2g}), "
                  f"correlated {rho:g} within the seed, and a per-seed slope sd of {slope_sd:.2g} ({source}); "
                  f"{runs} fresh seeds", sample)


LEMMA5_DECAY_RULES = tuple(Rule(
    f"Yin Lemma 5 for {s}: ε falls at least like m^(−1/2)",
    f"mean over seeds of each seed's least-squares slope of log ε (the largest pairwise distortion of the kernel "
    f"columns) on log m over m = {', '.join(map(str, LEMMA5_MS))}; Student-t interval over seeds", AT_MOST,
    Margin(LEMMA5_SLOPE + RATE_MARGIN,
           f"the lemma's slope with its Ω's constant C free: m(ε − log(1+ε)) = C(4 log n − 2 log δ) gives ε(m) a "
           f"local slope −(1+ε)(ε − log(1+ε))/ε² in log m, between −1 (large ε) and −1/2 (ε → 0), whatever C, so "
           f"−1/2 is the reading most lenient to the paper; + {RATE_MARGIN:g}: "
           f"{margin_why(LEMMA5_MS[0], LEMMA5_MS[-1], 'm', 'distortion')}",
           "Yin et al. Lemma 5 (appendix, eq. 30; the tail bound of eq. 34)"),
    _decay_design(LEMMA5_SEEDS, LEMMA5_SPREAD[s]),
    selection=f"sketch {s}, n = {LEMMA_N}, every m of the bounds part's grid 0.25 … 8√n (theory_rates/part/bounds_"
              f"{s}): with C free the premise ε(m) < 1 selects no m (it moves with C), and selecting runs by their "
              f"observed ε would select on the outcome; seeds with all six m"
              + ("; shown, not counted since 2026-12-07: at m ≤ √n its observed ε is ≥ 1, outside the lemma's premise; "
                 "the check inside it is shown too (PREMISE_RULE)" if s == PREMISE_SKETCH else ""),
    fresh_from=LEMMA5_FRESH_FROM, declared=LEMMA5_DECLARED, sweep=LEMMA5_SWEEP,
    part=(f"{PART_AXIS}=bounds_{s}",), control=s == PREMISE_SKETCH)
    for s in LEMMA5_SKETCHES)


# -- Lemma 5 inside its premise ε ∈ (0, 1) (declared 2026-12-07, after seeds 0–79 were seen) ----------
PREMISE_DECLARED = "2026-12-07"
PREMISE_MS = (179, 358, 716, 1432)  # m = 4, 8, 16, 32 × √2000 as the runs round them
#: experiments/theory_rates_lemma5_premise.yaml: seeds 1000–1019, beyond the seeds the lemma sweep's looks add
#: (40, 41, …): its rows are told from the bounds sweeps' by their seeds alone. (Its first run, at seeds 200–219,
#: was moved here before it was judged or committed, the rule unchanged: a lemma sweep of 160 seeds reaches 199.)
PREMISE_FRESH_FROM = 1000
PREMISE_SEEDS = 20
#: planning spread of log ε over PREMISE_MS: the committed Gaussian seeds 0–79's sd at m = 179 and 358 (0.110,
#: 0.088), the one at 358 taken for 716 and 1432 (the sd falls with m over the grid: 0.145 at m = 12); their
#: correlation 0.29; no per-seed slope of its own beyond what that noise gives (0 here)
PREMISE_SPREAD = ((0.110, 0.088, 0.088, 0.088), 0.29, 0.0)

PREMISE_RULE = Rule(
    f"Yin Lemma 5 for {PREMISE_SKETCH} inside its premise: ε falls at least like m^(−1/2)",
    f"mean over seeds of each seed's least-squares slope of log ε (the largest pairwise distortion of the kernel "
    f"columns) on log m over m = {', '.join(map(str, PREMISE_MS))}; Student-t interval over seeds", AT_MOST,
    Margin(LEMMA5_SLOPE + RATE_MARGIN,
           f"the lemma's slope as ε → 0 with its Ω's constant C free: m(ε − log(1+ε)) = C(4 log n − 2 log δ), "
           f"ε − log(1+ε) ≈ ε²/2, gives ε ∝ m^(−1/2) whatever C; + {RATE_MARGIN:g}: "
           f"{margin_why(PREMISE_MS[0], PREMISE_MS[-1], 'm', 'distortion')}",
           "Yin et al. Lemma 5 (appendix, eq. 30: 'Given ε, δ ∈ (0, 1)')"),
    _decay_design(PREMISE_SEEDS, PREMISE_SPREAD, PREMISE_MS, "the committed Gaussian seeds 0–79 at m = 179, 358"),
    selection=f"sketch {PREMISE_SKETCH}, n = {LEMMA_N}, m = 4, 8, 16, 32√n: inside the premise ε < 1 (every run of "
              f"seeds 0–79 had ε < 1 from m = 4√n on, the largest 0.70), the grid fixed before these seeds ran; "
              f"seeds with all four m. The sub-Gaussian sketch and Yin's Nyström have no such range of m ≪ n at n = "
              f"{LEMMA_N} (their premise is drawn at m = 16, 24, 32√n; their scaling check stays outside it); "
              f"{GAUSSIAN_NOT_NAMED}",
    fresh_from=PREMISE_FRESH_FROM, declared=PREMISE_DECLARED, sweep=PREMISE_SWEEP,
    part=(f"{PART_AXIS}=bounds_{PREMISE_SKETCH}_premise",), control=True)


LEMMA6_RULES = tuple(Rule(
    f"Yin Lemma 6 for {s}: kernel-column gap ≤ 2ε(m)/(1−ε(m))",
    "share of seeds in which the k-means objective on the sketched kernel columns minus its own reference (k-means "
    "on the k_i) is at most 2ε(m)/(1 − ε(m)), the bound read as absolute, at every judged m; exact Clopper–Pearson "
    "interval over seeds", SHARE,
    Margin(1 - DELTA, f"with probability at least 1 − δ, δ = {DELTA:g}, at each m; holding at every m of a seed is at "
           "most as likely, so its share shown above 1 − δ shows each m's", "Yin et al. Lemma 6 (appendix, eq. 42)"),
    _share_design(LEMMA_RUNS, "lemma", LEMMA_CELLS, LEMMA_RHO, LEMMA_RHO_SOURCE),
    selection=f"sketch {s}, n = {LEMMA_N}, the runs whose ε(m) < 1 (m ≥ {LEMMA5_M_MIN}), as for Lemma 5"
              + (f"; {GAUSSIAN_NOT_NAMED}" if s == PREMISE_SKETCH else ""),
    part=(f"{PART_AXIS}=bounds_{s}",), control=s == PREMISE_SKETCH)
    for s in LEMMA5_SKETCHES)


YIN_RULES = (*REMARK1_RULES, PREMISE_RULE,
             *(r for rules in zip(LEMMA5_DECAY_RULES, LEMMA5_RULES, LEMMA6_RULES) for r in rules))


def decay_check(rule: Rule, sub: pd.DataFrame, level: float = LEVEL, ms: tuple[int, ...] = LEMMA5_MS,
                begins: str = "") -> Check:
    """Lemma 5 by its scaling (:data:`LEMMA5_DECAY_RULES` over :data:`LEMMA5_MS`,
    :data:`PREMISE_RULE` over :data:`PREMISE_MS`): the mean over the fresh seeds
    (:meth:`Rule.fresh`) of each seed's slope of log ε on log m over ``ms``
    (:func:`~kktheory.report.theory.seed_slopes`), t interval over seeds; the seeds seen
    before the declaration are shown, never judged; ``begins``: where the premise begins in
    the sketch's rows (:func:`premise_begins`, said when the check is judged outside it)."""
    table = by_seed(sub[sub["m"].isin(ms)], "jl_eps", "m")
    if isinstance(table, str):
        return Check(rule.name, None, table, cause_detail="rows not one per seed and m", rule=rule)
    table = table.reindex(columns=list(ms))
    fresh = table.index >= rule.fresh_from
    notes = [f"the bound ε(m) with the constant 1 has slope {fmt(_bound_slope(ms), 3)} over these m"]
    seen_slopes = seed_slopes(ms, table[~fresh].to_numpy(float))
    if len(seen_slopes):
        seen_seeds = table.index[~fresh]
        notes.insert(0, f"seen before the declaration, not judged: {len(seen_slopes)} seeds in {seen_seeds.min()}–"
                        f"{seen_seeds.max()}, mean slope {Estimate.mean_of(seen_slopes).text()} (95% CI)")
    judged = table[fresh]
    if judged.empty:
        return rule.awaiting(level, notes="; ".join(notes))
    slopes = seed_slopes(ms, judged.to_numpy(float))
    left = len(judged) - len(slopes)
    head = (f"slope of log ε on log m over m = {ms[0]}–{ms[-1]}, n = {LEMMA_N}, per seed, over "
            f"{len(slopes)} seeds ≥ {rule.fresh_from}{f' ({left} lacking an m left out)' if left else ''}")
    return outside_premise(rule.check(Estimate.mean_of(slopes), "; ".join([head, *notes]), level=level),
                           judged.to_numpy(float), begins)


def outside_premise(check: Check, eps: np.ndarray, begins: str = "") -> Check:
    """Lemma 5 speaks of ε ∈ (0, 1) only: a scaling judged on runs whose observed ε is ≥ 1 in
    more than a δ share of them (the premise holds with probability 1 − δ) is judged outside
    the lemma — its pass holds in our reading only (``Check.qualified``: the local slope
    −(1+ε)(ε − log(1+ε))/ε² continued beyond ε = 1), its failure is not the lemma's. Declared
    2026-12-07, after the rows were seen (the referee: every observed ε of Sub-Gaussian and
    Yin's Nyström at n = 2000 is ≥ 1.57): it moves a decision toward inconclusive only."""
    eps = eps[np.isfinite(eps)]
    out = float(np.mean(eps >= 1.0)) if eps.size else 0.0
    if check.passed is None or out <= DELTA:
        return check
    return replace(check, cause=CAUSE_READING, cause_detail=(
        f"outside the lemma's premise ε ∈ (0, 1): the observed ε is ≥ 1 in {out:.0%} of the judged runs (median "
        f"{fmt(float(np.median(eps)), 3)}), more than δ = {DELTA:g}; the slope there continues the lemma's formula "
        "beyond its statement. What would judge it: the same slope over m large enough that ε < 1"
        + (f" — {begins}" if begins else "")))


def premise_begins(rows: pd.DataFrame) -> str:
    """Where Lemma 5's premise ε < 1 begins in a sketch's rows at n = :data:`LEMMA_N`: the
    smallest m run at which the observed ε < 1 in every run (of every m run, the premise
    sweep's m = 16, 24, 32√n included), in words; from m ≥ n/4 on there is no range of m ≪ n
    inside the premise to judge a scaling over."""
    runs = rows.groupby("m")["jl_eps"]
    inside = [int(m) for m, e in runs if len(e) and bool((e < 1).all())]
    if not inside:
        return f"no m run has ε < 1 in every run (m ≤ {int(rows['m'].max())} of n = {LEMMA_N})"
    m = min(inside)
    return (f"ε < 1 in every run from m = {m} of n = {LEMMA_N} ({runs.size()[m]} runs there)"
            + (": no range of m ≪ n lies inside the premise at this n" if 4 * m >= LEMMA_N else ""))


def _bound_slope(ms: tuple[int, ...]) -> float:
    """The least-squares slope of log ε(m) (constant 1) on log m over ``ms``."""
    eps = [[yin_implied_eps(LEMMA_N, DELTA, m) for m in ms]]
    return float(seed_slopes(ms, np.asarray(eps))[0])


def lemma56_checks(bvm: pd.DataFrame, level: float = LEVEL) -> list[Check]:
    """Yin Lemma 5 by its scaling over every m (:func:`decay_check`, counted), then Lemmas 5
    (the Ω's constant read as 1: shown, not counted) and 6 as stated, per sketch, on the runs
    whose ε(m) < 1: the share of seeds holding at every such m (:func:`kktheory.report.theory.share_check`)."""
    checks: list[Check] = []
    if "jl_eps" not in bvm or bvm["jl_eps"].isna().all():
        return checks
    d = bvm.dropna(subset=["jl_eps"])
    for name, decay, r5, r6 in zip(LEMMA5_SKETCHES, LEMMA5_DECAY_RULES, LEMMA5_RULES, LEMMA6_RULES):
        every = d[d[SKETCH_COL] == name]
        if every.empty:
            continue
        premise = every["seed"] >= PREMISE_FRESH_FROM  # the premise sweep's seeds: its checks only
        if name == PREMISE_SKETCH:
            checks.append(decay_check(PREMISE_RULE, every[premise], level, PREMISE_MS))
        sub = every[~premise]
        checks.append(decay_check(decay, sub, level, begins=premise_begins(every)))
        inside = sub[sub["jl_eps_implied"] < 1]
        span = (f"m = {', '.join(str(int(m)) for m in sorted(inside['m'].unique()))} (ε(m) < 1; "
                f"{len(sub) - len(inside)} runs at m with ε(m) ≥ 1 left out), n = {int(sub['n'].iloc[0])}")
        if inside.empty:
            checks += [Check(r.name, None, f"no run with ε(m) < 1 ({len(sub)} runs, m ≤ {int(sub['m'].max())})",
                             rule=r) for r in (r5, r6)]
            continue
        ratio = (inside["jl_eps"] / inside["jl_eps_implied"]).median()
        c5 = share_check(r5, inside, inside["jl_eps"] <= inside["jl_eps_implied"], "m",
                    f"observed ε / ε(m) median {fmt(ratio, 3)}; {span}", level)
        if c5.passed is False:  # the lemma's m = Ω(·) hides a constant, read here as 1
            c5 = replace(c5, cause=CAUSE_READING, cause_detail=(
                f"Lemma 5 states m = Ω((4 log n − 2 log δ)/(ε − log(1 + ε))); with the Ω's constant read as 1 the "
                f"observed ε is {fmt(ratio, 3)}× ε(m); as ε − log(1 + ε) ≈ ε²/2 for small ε, ε(m) grows like √C "
                f"with the constant C, so C ≈ {fmt(ratio ** 2, 2)} would meet it — the lemma does not exclude that; "
                f"its scaling, with C free, is the counted check"))
        checks.append(c5)
        if "lemma6_gap_kc" not in inside or inside["lemma6_gap_kc"].isna().all():
            continue
        eps = inside["jl_eps_implied"]
        bound = 2 * eps / (1 - eps)
        gap = inside["lemma6_gap_kc"]
        step = inside["lemma6_holds_kc"][np.isfinite(inside["lemma6_bound"])] if "lemma6_holds_kc" in inside else []
        proof = (f"the proof's step with the run's observed ε (2ε/(1−ε), finite only for ε < 1): holds in "
                 f"{int(np.sum(step))}/{len(step)} runs with a finite bound, vacuous in {len(inside) - len(step)}")
        c6 = share_check(r6, inside, gap <= bound, "m",
                         f"gap / bound median {fmt((gap / bound).median(), 2)}; {span}; {proof}", level)
        if c6.passed and c5.passed is False:  # its premise, S an ε(m)-embedding, shown false on these runs
            c6 = replace(c6, cause=CAUSE_READING, cause_detail=(
                "its premise, S an ε(m)-embedding with ε(m) Lemma 5's (the Ω's constant read as 1), fails on these "
                f"runs (the observed ε is {fmt(ratio, 3)}× ε(m): Lemma 5's control ✗): a pass with its premise unmet "
                "holds in our reading only (declared 2026-12-07, after the rows: it moves a decision toward "
                "inconclusive only)"))
        checks.append(c6)
    return checks


def wstar_overshoot(rates: pd.DataFrame) -> float:
    """How far ŵ* lies above the exact minimiser's risk at least: minus exact kernel k-means'
    most negative mean population excess over n (0 where none is negative)."""
    if "excess_pop_risk" not in rates:
        return 0.0
    ex = rates[rates[SKETCH_COL] == "exact"].dropna(subset=["excess_pop_risk"])
    means = ex.groupby("n")["excess_pop_risk"].mean()
    return float(max(0.0, -means.min())) if len(means) else 0.0


def on_both_references(checks: list[Check], rates: pd.DataFrame, level: float) -> list[Check]:
    """Remark 1's checks judged on the excess over ŵ* and again over ŵ* lowered by
    :func:`wstar_overshoot` (W*(μ) at least that far below ŵ*, where exact kernel k-means'
    mean excess is negative): a pass or a failure stands only where both references give it;
    where one decides and the other is undecided the check is undecided, with the runs the
    undecided one names (more seeds can decide it: a waiting check); where they decide
    opposite ways it holds in our setting only (the reference is our estimate, not the
    population optimum) — a pass only in our setting (``Check.qualified``), a failure not the
    claim's. The lowered interval treats the shift as known. Declared 2026-12-07, after the rows
    were seen (the referee: Yin's Nyström passed by 0.002 on ŵ*): it can take a decision away,
    never make one."""
    shift = wstar_overshoot(rates)
    if not shift:
        return checks
    lowered = rates.assign(excess_pop_risk=rates["excess_pop_risk"] + shift)
    other = {c.name: c for c in rate_checks(lowered, "excess_pop_risk", REMARK1_RULES, REMARK1_SKETCHES,
                                            "√(k/n)·log²√n", level)}
    out = []
    for c in checks:
        o = other.get(c.name)
        if o is None or c.passed is None or o.passed == c.passed:
            out.append(c)
            continue
        other_text = o.decision.text if o.decision is not None else o.detail
        lowered_by = f"over ŵ* − {fmt(shift, 2)} (the exact minimiser's most negative mean excess; the shift taken as known)"
        if o.passed is None:  # one reference decides, the other not yet: undecided, more seeds can decide it
            out.append(replace(c, passed=None, runs_needed=o.runs_needed, detail=(
                f"{c.detail}; over ŵ* it {'passes' if c.passed else 'fails'}, {lowered_by} it is undecided "
                f"({other_text}): ŵ* is not tight, the decision waits for both")))
            continue
        said = "passes" if o.passed else "fails"
        out.append(replace(c, cause=CAUSE_SETTING, cause_detail=(
            f"ŵ* is not tight: {lowered_by} it {said} ({other_text}): the two references of W*(μ) disagree, so "
            "the decision holds in our setting only")))
    return out


def exact_note(rates: pd.DataFrame) -> str:
    """Exact kernel k-means' population excess, reported and not judged (ŵ* not tight enough)."""
    if "excess_pop_risk" not in rates:
        return ""
    ex = rates[rates[SKETCH_COL] == "exact"].dropna(subset=["excess_pop_risk"])
    if ex.empty:
        return ""
    means = ex.groupby("n")["excess_pop_risk"].mean()
    neg = means[means < 0]
    fit = rate_fits(rates).get(("exact", "excess_pop_risk"))
    text = ("exact kernel k-means' population excess (Remark 1's comparison point) is not judged — unreliable: "
            "ŵ*, the estimate of W*(μ), is not tight enough")
    if len(neg):
        text += (f": the mean excess is negative at n = {', '.join(f'{int(n):,}' for n in neg.index)} "
                 f"({', '.join(fmt(v, 2) for v in neg)}), so ŵ* lies above the exact minimiser's risk by more than "
                 f"the excess the check would have to resolve")
    if fit is not None:
        text += f"; fitted b = {fmt(fit.slope, 3)} [{fmt(fit.ci_low, 3)}, {fmt(fit.ci_high, 3)}] (shown only)"
    if len(neg):
        text += wstar_sensitivity(rates, wstar_overshoot(rates))  # the shift the judged checks use too
    return text


def wstar_sensitivity(rates: pd.DataFrame, shift: float) -> str:
    """How far the judged rates move if W*(μ) lies ``shift`` below ŵ* (the exact minimiser's
    most negative mean excess: how much ŵ* overshoots at least): each judged sketch's fitted b
    of its excess + ``shift`` (every excess grows by it), beside its rule's bound; shown, not judged."""
    parts_ = []
    for rule, sketch in zip(REMARK1_RULES, REMARK1_SKETCHES):
        sub = rates[rates[SKETCH_COL] == sketch].dropna(subset=["excess_pop_risk"])
        sub = covering(sub, sorted(set(rates["n"].astype(float))))[0] if len(sub) else sub  # the judged seeds
        fit = fit_rate(sub["n"].to_numpy(float), sub["excess_pop_risk"].to_numpy(float) + shift, boot=0) \
            if len(sub) else None
        if fit is not None:
            parts_.append(f"{sketch} b = {fmt(fit.slope, 3)} (its bound {fmt(rule.margin.value, 3)})")
    return (f"; were W*(μ) {fmt(shift, 2)} below ŵ* (the exact minimiser's most negative mean excess), the judged "
            f"rates would read {', '.join(parts_)} (point fits, shown only)" if parts_ else "")


def setting_yin(rows: pd.DataFrame) -> str:
    return _setting(rows, "Yin et al.", "‖Φ_x‖ ≤ 1 (Thm 2, Remark 1)")


def judge_yin(df: pd.DataFrame, level: float = LEVEL) -> Verdict:
    """Yin et al.: Remark 1's rate, Lemmas 5 and 6 as stated (module docstring)."""
    rates, _, bvm = parts(df)
    if rates.empty and bvm.empty:
        return not_run("no row")
    remark1 = rate_checks(rates, "excess_pop_risk", REMARK1_RULES, REMARK1_SKETCHES, "√(k/n)·log²√n", level)
    checks = on_both_references(remark1, rates, level) + lemma56_checks(bvm, level)
    return judge_checks(checks, exact_note(rates), level)


#: the paper's figure or table this entry reproduces
TITLE = "Theory vs observation: Yin et al. 2022"

#: what the paper claims
CLAIM = ("with m = √n the excess risk of Yin's Nyström and the sub-Gaussian sketch over the population optimum, "
         "W(C_{n,m}, μ) − W*(μ), decays at least like Õ(√(k/n)) (Remark 1); Lemma 5's distortion falls with m as "
         "its m = Ω((4 log n − 2 log δ)/(ε − log(1+ε))) implies; Lemma 6 holds as stated")

#: how the rows judge it
RULE = (f"Remark 1, not Thm 2 as stated (Thm 2 needs m = Ω((4 log n − 2 log δ)/(ε − log(1+ε))), i.e. "
        f"Ω(n log n) at ε = 1/√n): studentised bootstrap interval of the fitted decay exponent b of the excess over ŵ* (all "
        f"runs) ≤ the slope of √(k/n)·log²√n over the declared grid n = {RATE_NS[0]} … {RATE_NS[-1]} (−0.27) + "
        f"{RATE_MARGIN}, a decision standing only where the excess over ŵ* lowered by the exact minimiser's most "
        f"negative mean excess gives it too (declared 2026-12-07; else it holds in our setting only); Lemma 5 by its scaling, the Ω's constant left free: the mean over seeds of each seed's slope "
        f"of log ε on log m over m = {LEMMA5_MS[0]} … {LEMMA5_MS[-1]} ≤ −1/2 + {RATE_MARGIN} (t interval over seeds; "
        f"declared {LEMMA5_DECLARED} after seeds 0–39 were seen: judged on seeds ≥ {LEMMA5_FRESH_FROM}; where the "
        f"observed ε ≥ 1 in more than δ of its runs, outside the lemma's premise, it holds in our reading only), and "
        f"for the Gaussian sketch inside the premise over m = {', '.join(map(str, PREMISE_MS))} (declared "
        f"{PREMISE_DECLARED} after seeds 0–79 were seen: judged on seeds ≥ {PREMISE_FRESH_FROM}; its check over m = "
        f"{LEMMA5_MS[0]} … {LEMMA5_MS[-1]} then shown, not counted; the Gaussian sketch's Lemma 5 and 6 checks shown, "
        f"not counted since 2026-12-07: a dense Gaussian map is not one of the three R = SQ the lemmas name), with the "
        f"constant read as 1 shown, not counted; Lemma 6 as stated with the Ω's constant 1, on the runs whose "
        f"ε(m) < 1 (the premise ε ∈ (0, 1): m ≥ {LEMMA5_M_MIN} at n = {LEMMA_N}): share of seeds where the "
        f"kernel-column gap ≤ 2ε(m)/(1 − ε(m)) at every such m ≥ 1 − δ = {1 - DELTA:g} (exact Clopper–"
        f"Pearson interval over seeds at the look's level); exact kernel k-means' population excess shown, not judged (ŵ* not tight enough: negative excess at "
        f"n ≥ 16,000); one family (Holm); {_SHARED}")

#: what each scale changes against the paper
CHANGES = {
    "small": "n ∈ {500, …, 4000} with 3 seeds for the rates and smaller candidates for W*(μ); the lemma "
             "parts as at paper scale with 3 seeds",
    "paper": "Yin's synthetic mixture (the paper's own Fig. 1 data family); n ∈ {1000, …, 32000}, 5 seeds per n "
             "declared for the rates; ROS not run; n = 2000 for the lemmas, 5 seeds declared, each at the two m with "
             "ε(m) < 1; Lemma 5's scaling on fresh seeds from 40 (experiments/theory_rates_lemma5.yaml), each at all "
             "six m; inside its premise 20 fresh Gaussian seeds (1000–1019) at m = 4, 8, 16, 32√n, and the other two "
             "sketches at m = 16, 24, 32√n, where their premise begins "
             "(experiments/theory_rates_lemma5_premise.yaml); the sequential looks add seeds (the runs judged: each "
             "check's line)",
}


YIN = Entry(
    name="theory_rates_yin", place=(5, 2),
    label={"paper": "Yin's mixture, n = 1,000–32,000 (beyond the papers)"}, title=TITLE, claim=CLAIM,
    rule=RULE, draw=draw, judge=judge_yin, changes=CHANGES, rules=YIN_RULES, setting=setting_yin,
    sweep="theory_rates", extra_sweeps=EXTRA_SWEEPS,
    attribution=("2026-12-07: a Remark 1 decision stands only where both references of W*(μ) give it "
                 "(on_both_references)",
                 "2026-12-07: a Lemma 5 scaling judged where the observed ε ≥ 1 in more than δ of the runs holds in our "
                 "reading only (outside_premise); a Lemma 6 pass whose premise Lemma 5's control shows false too"),
)
