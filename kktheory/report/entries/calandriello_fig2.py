"""Calandriello & Rosasco 2018, Fig. 2.

The catalogue entry ``calandriello_fig2``: its checks declared before the data, its drawing, its
setting check and its judgement. What it shares with Calandriello & Rosasco's other entries is in
:mod:`kktheory.report.calandriello`.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pandas as pd
from kktheory.report.claims import PLATEAU, EXCEEDS, Design, Rule
from kktheory.report.verdicts import CAUSE_SCALE, CAUSE_STAND_IN, Verdict
from kktheory.report.paper_numbers import PaperNumber
from kktheory.report.rows import DATASET_COL, ok_rows
from kktheory.report.stats import fmt
from kktheory.report.decide import LEVEL, Estimate
from kktheory.report.entry import Entry
from kktheory.report.calandriello import (
    HELDOUT_CONFIG, HELDOUT_DECLARED, HELDOUT_FRESH_FROM, JUDGED, NMI_DELTA, NMI_M, NMI_TOLERANCE, PAPER_NMI_M400,
    SPREAD_EFFECT, SPREAD_MARGIN, SPREAD_RULE, _centroids, _grid_text, _nmi_at, _rule_text, band_ratio, draw,
    figure_rules, judge_fig2 as judge_rows, own_rows, paper_size_rows, plateau_margin, plateau_share,
    risk_plateau_margin,
)


FIG2_GRID = (0.0625, 0.125, 0.25, 0.5, 1.0, 2.0)  # experiments/calandriello_fig2.yaml, points m0.0625 … m2


FIG2_SD = {"risk_rel": 0.0118, "risk_share_se": 0.0409, "nmi_rise": 0.0246, "nmi_beyond": 0.0218,
           "runs_risk_rel": 14, "runs_risk_share": 170, "runs_nmi_rise": 18, "runs_nmi_beyond": 18}


FIG2_GRID_RULES = figure_rules(FIG2_GRID, "experiments/calandriello_fig2.yaml", FIG2_SD,
                               "Fig. 2's committed grid rows (augmented MNIST 1M, 10 runs)")

# -- re-planned before more runs (issue 43) -------------------------------------------------
#: Why: on the grid's test set (the 10,000 original MNIST test digits, another distribution
#: than the deformed training digits) the seeds' test risks vary far more than their risks on
#: the training digits: the per-seed sd of the plateau share G/D is 0.129 on the test digits
#: against 0.051 on the training risk (the committed rows): 85 % of its variance comes with
#: the test set. A pilot (n = 20,000 augmented digits, 10 seeds, per-point losses) finds it
#: is the distribution, not the sample size: held-out *augmented* digits give the training
#: risk's spread (ratios below), the 10,000 MNIST digits 2.5 times it, and the test points'
#: own sampling (seed × point interaction, /N) adds sd 0.00026 at N = 10,000, nothing that
#: 100,000 points would need to remove. The paper's test points are 100,000 unseen images of
#: mnist8m, its training distribution (§5): the re-planned checks score the test risk on the
#: first 100,000 held-out augmented digits, as the paper.
#:
#: Planning spread: the per-seed covariance of the training risk at m = √n/16, √n, 2√n
#: (R(m_lo), R(m*), R(m_hi)) over the committed grid's 10 runs (the rows hold no held-out
#: risk), each point scaled by the pilot's ratio of the held-out test risk's per-seed sd to the
#: training risk's; the mean decrease D of the training risk over those runs.
HELDOUT_COV = ((1.811e-06, 2.541e-07, -5.46e-08), (2.541e-07, 2.224e-07, -3.45e-08), (-5.46e-08, -3.45e-08, 2.26e-07))
HELDOUT_D = 0.01404
PILOT_RATIO = (0.97, 1.04, 1.26)
HELDOUT_RUNS = 35  # simulated power ≈ 0.82 (33 runs ≈ 0.80: a margin over Monte-Carlo error)
#: the Fig. 1 setting's test risk at m = √n, 2√n over its committed 10 runs: mean and per-seed covariance
FIG1_TOP_MEAN = (0.30915, 0.30747)
FIG1_TOP_COV = ((1.541e-06, -3.084e-07), (-3.084e-07, 1.715e-06))


def band_sd(cov: tuple[tuple[float, ...], ...], mean: tuple[float, ...]) -> float:
    """The per-seed sd of the mean relative test risk over the points (planning spread)."""
    return float(math.sqrt((np.asarray(cov) / np.outer(mean, mean)).sum()) / len(mean))


def _factor(cov: np.ndarray, scale: np.ndarray | float = 1.0) -> np.ndarray:
    """Cholesky factor of the covariance ``cov`` scaled by ``scale`` per point (outer product)."""
    s = np.broadcast_to(np.asarray(scale, float), (len(cov),))
    return np.linalg.cholesky(np.asarray(cov) * np.outer(s, s))


_HELDOUT_L = _factor(np.asarray(HELDOUT_COV), np.asarray(PILOT_RATIO))
_FIG1_TOP_L = _factor(np.asarray(FIG1_TOP_COV))
#: the planning sd of a seed's G/D: sd(R(m*) − R(m_hi))/D
HELDOUT_SHARE_SD = float(np.linalg.norm(np.array([0.0, 1.0, -1.0]) @ _HELDOUT_L) / HELDOUT_D)


def heldout_risks(rng: np.random.Generator, share: float, runs: int) -> np.ndarray:
    """``runs`` seeds' held-out test risks at (m_lo, m*, m_hi) whose share of the decrease
    left beyond √n is ``share``: one draw per seed of the three nested points (the planning
    covariance above), so the seed is the unit."""
    mean = 0.32 + HELDOUT_D * np.array([1.0, share, 0.0])
    return mean + rng.standard_normal((runs, 3)) @ _HELDOUT_L.T


def top_risks(rng: np.random.Generator, log_ratio: float, runs: int) -> tuple[np.ndarray, np.ndarray]:
    """``runs`` seeds of the held-out setting and of the Fig. 1 setting at m = √n, 2√n (one
    draw of both points per seed), the held-out relative spread e^``log_ratio`` times the
    Fig. 1 setting's."""
    mean = np.asarray(FIG1_TOP_MEAN)
    big = mean + math.exp(log_ratio) * rng.standard_normal((runs, 2)) @ _FIG1_TOP_L.T
    return big, mean + rng.standard_normal((runs, 2)) @ _FIG1_TOP_L.T


def _plateau_draw(rng: np.random.Generator, share: float, runs: int) -> Estimate:
    return plateau_share(heldout_risks(rng, share, runs))


def _band_draw(rng: np.random.Generator, log_ratio: float, runs: int) -> Estimate:
    return band_ratio(*top_risks(rng, log_ratio, runs))


_F2, _S_THM, _ = plateau_margin(FIG2_GRID[0], 1.0, FIG2_GRID[-1])
SPREAD_DECLARED = "2026-11-28"
HELDOUT_SWEEP = "calandriello_fig2_heldout"  # the further sweep the re-planned checks read (their seeds go there)
HELDOUT_WHERE = (f"the declared grid points {_grid_text(FIG2_GRID)} of {HELDOUT_CONFIG} (Fig. 2's grid with "
                 f"dataset.test_set = augmented, n_test = 100,000: the first 100,000 digits of the augmented test "
                 f"stream, deformations of the MNIST test digits), projected centroids")
HELDOUT_PLATEAU = Rule(
    "test risk plateau once m ≥ √n (100,000 held-out digits)",
    "G/D as the grid's rule (plateau_share), the test risk on the 100,000 held-out augmented digits; paired runs, "
    "delta-method t interval", PLATEAU, risk_plateau_margin(FIG2_GRID, "experiments/calandriello_fig2.yaml"),
    Design("paired", round(_S_THM, 4), _F2, (round(HELDOUT_SHARE_SD, 4),), HELDOUT_RUNS,
           f"effect: the share Thm 1's shape leaves ({100 * _S_THM:.2f} %); per seed the three nested points drawn "
           f"with the training risk's covariance on the committed grid rows (10 runs, D = {HELDOUT_D}) scaled per "
           f"point by the pilot's held-out/training sd ratios {PILOT_RATIO} (sd of G/D {HELDOUT_SHARE_SD:.3f}), "
           f"through the judge's estimator; power ≈ 0.82 at {HELDOUT_RUNS} runs", sample=_plateau_draw),
    selection=HELDOUT_WHERE, fresh_from=HELDOUT_FRESH_FROM, declared=HELDOUT_DECLARED, sweep=HELDOUT_SWEEP)
HELDOUT_SPREAD = Rule(
    "tighter confidence intervals than Fig. 1 (100,000 held-out digits)",
    "log(sd Fig. 2 held-out / sd Fig. 1) of the per-seed mean relative test risk over m ∈ {√n, 2√n} "
    "(band_ratio: the spread is the mean absolute deviation from the median, robust to the runs' tails where an F "
    "interval is not), delta-method Welch interval", EXCEEDS, SPREAD_MARGIN,
    Design("welch", round(SPREAD_EFFECT, 3), 0.0, (band_sd(FIG1_TOP_COV, FIG1_TOP_MEAN) * math.exp(SPREAD_EFFECT),
                                                    band_sd(FIG1_TOP_COV, FIG1_TOP_MEAN)), 10,
           f"effect: the 1/√n concentration the paper invokes, log(√(60,000/1,000,000)) = {SPREAD_EFFECT:.2f}; per "
           f"seed both points drawn with the Fig. 1 setting's covariance on its committed rows (10 runs), the held-out "
           f"setting's scaled to the effect, through the judge's estimator; power ≈ 0.93 at 10 runs (0.8 at 8), "
           f"false pass ≈ 0.02 at equal spreads; the rule's estimator changed {SPREAD_DECLARED} (from the F interval, "
           f"before any of its rows ran)",
           sample=_band_draw),
    selection=f"{HELDOUT_WHERE}; Fig. 1's setting = the sweep's MNIST 60k rows of the same seeds", sign=-1.0,
    fresh_from=HELDOUT_FRESH_FROM, declared=HELDOUT_DECLARED, sweep=HELDOUT_SWEEP)


def _superseded(rule: Rule, by: Rule, why: str) -> Rule:
    """A grid rule re-planned: shown beside its replacement ``by``, not counted, saying ``why``."""
    return replace(rule, control=True, selection=(
        f"{rule.selection}; shown, not counted: re-planned {HELDOUT_DECLARED} as '{by.name}' ({why}; shown to "
        f"locate it)"))


ON_MNIST_TEST = "on the 10,000 MNIST test digits, another distribution than the deformed training digits"
FIG2_RULES = (
    *FIG2_GRID_RULES[:1],
    _superseded(FIG2_GRID_RULES[1], HELDOUT_PLATEAU,
                f"{ON_MNIST_TEST}, 85 % of the per-seed variance of G/D comes with the test set"),
    *FIG2_GRID_RULES[2:],
    _superseded(SPREAD_RULE, HELDOUT_SPREAD,
                f"{ON_MNIST_TEST}, the seeds' test risks vary 2.5 times as much as on held-out augmented digits "
                f"(pilot, n = 20,000)"),
    HELDOUT_PLATEAU, HELDOUT_SPREAD,
)


def judge_fig2(df: pd.DataFrame, level: float = LEVEL) -> Verdict:
    return judge_rows(df, FIG2_RULES, FIG2_GRID, FIG2_STAND_IN, level)


def setting_fig2(rows: pd.DataFrame) -> str:
    """The NMI at m = 400 against the paper's 0.405 on mnist8m (§5), within
    :data:`NMI_DELTA`: on the judged grid (the stand-in at n = 1M, all runs) and on the one
    run at mnist8m's size; the Fig. 1 setting held by the sweep as in :func:`setting_fig1`."""
    ok = ok_rows(rows)
    grid = own_rows(_centroids(ok, JUDGED))
    big = _centroids(paper_size_rows(ok), JUDGED)
    at_grid = _nmi_at(grid, str(NMI_M)) if not grid.empty else Estimate.mean_of([])
    at_big = Estimate.mean_of(big[big["m"] == NMI_M]["train_nmi"]) if not big.empty else Estimate.mean_of([])
    if not at_grid.runs:
        return f"setting differs: no NMI at m = {NMI_M} on the grid"
    n_grid = int(grid["n"].iloc[0])
    gap = at_grid.value - PAPER_NMI_M400
    matches = abs(gap) <= NMI_DELTA
    text = (f"setting {'matches' if matches else 'differs'}: NMI at m = {NMI_M}, the paper's 0.405 on mnist8m "
            f"(n = 8,000,000; §5); {NMI_TOLERANCE}. The judged grid ({grid[DATASET_COL].iloc[0]}, n = {n_grid:,}): "
            f"{at_grid.text(3)} over {at_grid.runs} runs, {fmt(gap, 2)} from the paper "
            f"({'within' if matches else 'beyond'} the tolerance)")
    if at_big.runs:
        gb = at_big.value - PAPER_NMI_M400
        sd = at_grid.unit_sd
        text += (f". At mnist8m's size (n = {int(big['n'].iloc[0]):,}, one run, seed {int(big['seed'].iloc[0])}): "
                 f"{fmt(at_big.value, 3)}, {fmt(gb, 2)} from the paper ({'within' if abs(gb) <= NMI_DELTA else 'beyond'} "
                 f"the tolerance)")
        if math.isfinite(sd) and sd > 0:
            text += (f"; one run cannot tell whether n closes the gap: it lies {fmt((at_big.value - at_grid.value) / sd, 2)} "
                     f"run-to-run sd ({fmt(sd, 2)}) above the grid's mean")
    if not matches:
        text += (". Tried: the stand-in at n = 1M (the grid) and at the paper's size (the one run); no other reading "
                 "of the setting (bandwidth β = 1 of Wang et al.'s rule, pixels / 255, MiniBatchKMeans as the paper "
                 "says) was run at this scale")
    return text


def observe_fig2(rows: pd.DataFrame) -> dict[str, Estimate]:
    """NMI of the training partition at m = 400 over the grid's runs, and at mnist8m's size
    (one run) with that run's time to compute C_{n,m} at m = 400: embedding and clustering
    (``time_embed + time_cluster``; the paper's "computing C_(n,m)^(++)", without reading
    the data, the bandwidth rule and the evaluation)."""
    out: dict[str, Estimate] = {}
    d = own_rows(rows)
    d = d[d["m"] == NMI_M]
    if not d.empty:
        out["nmi_m400"] = Estimate.mean_of(d.drop_duplicates(["seed", "m"])["train_nmi"])
    big = paper_size_rows(rows)
    big = big[big["m"] == NMI_M]
    if not big.empty:
        out["nmi_m400_8m"] = Estimate.mean_of(big["train_nmi"])
        out["time_m400_8m"] = Estimate.mean_of(big["time_embed"] + big["time_cluster"])
    return out


SPREAD_TEXT = (
    "; tighter intervals (§5: 'stronger concentration and smaller confidence intervals'): the sweep also runs "
    "Fig. 1's setting with the same seeds; log(Fig. 2 / Fig. 1) of the mean per-run relative absolute deviation "
    "of the test risk at m ∈ {√n, 2√n} is < 0, smallest effect that counts log(3/4) (a band a quarter narrower) "
    "(spread_check)"
)
HELDOUT_TEXT = (
    f"; re-planned before more runs (issue 43; declared {HELDOUT_DECLARED}, judged only on seeds ≥ "
    f"{HELDOUT_FRESH_FROM}): the risk plateau and the tighter intervals on the test risk over the first 100,000 "
    f"held-out augmented digits, as the paper's 100,000 unseen images ({HELDOUT_CONFIG}): the same share G/D and "
    f"margin; the log ratio of the run-to-run sd of the per-seed mean relative risk at m ∈ {{√n, 2√n}} "
    f"(mean absolute deviations from the median, robust to the runs' tails), the same smallest effect; the grid's two (on the 10,000 MNIST test digits, another distribution than the "
    f"training digits) shown, not counted; the NMI checks read the runs of both settings (the training partition "
    f"does not depend on the test set)"
)


FIG2_STAND_IN = ("augmented MNIST (mnist8m's deformation: small first-order elastic distortions and one-pixel "
                 "moves of MNIST) in place of mnist8m")


#: the paper's figure or table this entry reproduces
TITLE = "Calandriello & Rosasco 2018, Fig. 2"

#: what the paper claims
CLAIM = ("at a much larger n (mnist8m in the paper, augmented MNIST here) the same plateau at m ≈ √n, "
         "with tighter confidence intervals")

#: how the rows judge it
RULE = _rule_text(FIG2_GRID, "experiments/calandriello_fig2.yaml") + SPREAD_TEXT + HELDOUT_TEXT

#: what each scale changes against the paper
CHANGES = {
    "small": "augmented MNIST with n = 20,000 (test: 2000 original MNIST test digits) and 3 runs instead of "
             "mnist8m (8M) / 100,000 test; Fig. 1 setting at n = 5000",
    "paper": f"augmented MNIST 1,000,000 (stand-in) for mnist8m's 8,000,000 training images; test: the 10,000 "
             f"MNIST test digits for 100,000 unseen mnist8m images; 10 runs declared (the paper does not state "
             f"Fig. 2's run count), more added by the sequential looks (the runs judged: each check's line); m = √n/16 … 2√n instead of … 4√n (the features at 4√n would take 16 GB); projected "
             f"centroids only. Beside the grid, 1 run at mnist8m's size (8,100,000 augmented digits, m = √n/16, "
             f"√n/8 and 400, 100,000 held-out augmented test digits; experiments/calandriello_fig2_mnist8m.yaml), "
             f"drawn on its own axes and reported, not judged. The re-planned checks' setting: the grid's n and "
             f"points √n/16, √n, 2√n with 100,000 held-out augmented test digits, seeds from 10 on "
             f"(10–44 in {HELDOUT_CONFIG}, more added by the sequential looks: each check's line gives the runs it "
             f"judged). {FIG2_STAND_IN}; sample digits: "
             f"[augmented_mnist_samples.png](augmented_mnist_samples.png) (python -m kktheory.datasets --grid)",
}


FIG2 = Entry(
    name="calandriello_fig2", place=(1, 2),
    label={"paper": "augmented MNIST 1M for mnist8m's 8M, plus one 8.1M run"}, title=TITLE, claim=CLAIM,
    rule=RULE,
    draw=lambda df, out: draw(df, out, "calandriello_fig2", "Calandriello & Rosasco Fig. 2", spread=True),
    judge=judge_fig2, changes=CHANGES, extra_sweeps=("calandriello_fig2_mnist8m", HELDOUT_SWEEP),
    shortfall={"small": CAUSE_SCALE, "paper": CAUSE_STAND_IN},
    attribution=("2026-12-07: a pass on stand-in data holds on it only, as a failure there is not the claim's "
                 "(attribute_shortfall)",),
    paper_numbers=(
        PaperNumber(f"NMI at m = {NMI_M} (mnist8m, n = 8M; here the stand-in at n = 1M, mean of the runs)", 0.405,
                    "§5, mnist8m paragraph", key="nmi_m400"),
        PaperNumber(f"NMI at m = {NMI_M} (mnist8m, n = 8M; here the stand-in at n = 8.1M, one run)", 0.405,
                    "§5, mnist8m paragraph", key="nmi_m400_8m"),
        PaperNumber("NMI of Wang et al. at m = 1600 on mnist8m (cited)", 0.406, "§5, mnist8m paragraph"),
        PaperNumber("NMI of Wang et al. at m = 1600, PCA embedding + RLS sampling (cited)", 0.423,
                    "§5, mnist8m paragraph"),
        PaperNumber("computing C_(n,m)^(++) on mnist8m, s (less than; 36 cores, 128 GB; here embedding and "
                    "clustering at m = 400, n = 8.1M on 2 cores, 24 GB)", 360, "§5, mnist8m paragraph",
                    key="time_m400_8m"),
        PaperNumber("Wang et al.'s best solution, s (more than; cluster of 32 machines, cited)", 5400,
                    "§5, mnist8m paragraph"),
    ),
    observe=observe_fig2, rules=FIG2_RULES, setting=setting_fig2,
)
