"""Wang, Gittens & Mahoney (2019), Fig. 2 with Tables 5–6: NMI against c and s (MNIST8M).

Rank-restricted Nyström (Alg. 2, uniform sampling, ℓ = ⌈c/2⌉ as §5.1 sets it), k = 10,
k-means as the paper's Spark MLlib run (one k-means|| start, MaxIter = 100). Every check
below is declared before the data (:data:`RULES`): the c steps and the s values are the
paper's grid (Tables 5–6), s = ⌈√(kc)⌉ = 127 at c = 1600 is Remark 3's suggestion, s = 80 the
grid's s around √(kc/μ) with μ > 1 (§3.2), and the margins come from the paper's own tables.

Claims (the paper's words) and the checks that judge them:

- §6.3: "for fixed k and s, larger c always leads to better performance"; §3.2: "larger
  values of c lead to better and more stable clusterings: the mean of the NMI increases and
  its standard deviation decreases". Three rises of the mean, one per step of Table 5
  (s = 20: c = 100 → 400, +0.0142; 400 → 1600, +0.0094; s = 80: 400 → 1600, +0.0132), each
  the mean of the per-seed differences of NMI (a seed's runs share one permutation of the
  landmarks, so c = 100 ⊂ 400 ⊂ 1600, and its s are prefixes of one fit: the runs are paired)
  tested with *exceeds* (pass: the interval above 0; fail: the interval below
  :data:`NMI_DELTA`, the smallest rise that counts); and one fall of the
  standard deviation, s = 20 from c = 100 to 1600 (Table 5: 0.0117 → 0.0001), on
  the log ratio of the spreads at c = 1600 and 100 (mean absolute deviations from the median,
  robust to the runs' tails), smallest fall that counts
  a factor 1.5. The sd claim is judged at s = 20 only: the paper's own s = 80
  row rises (0.0101 → 0.0131), so a check there would reject the paper's numbers.
- §3.2 / §6.4: "for fixed k and c, the clustering performance is not monotonic in s ...
  Setting s as small as k results in poor performance. Setting s over-large not only incurs
  more computations, but also negatively affects clustering performance ... √(kc) = 126.5,
  which corroborates the suggestion made in Remark 3 that setting s around √(kc/μ) (where μ
  is unknown but can be treated as a constant larger than 1) can be a good choice" (§3.2);
  "as s grows from 80 to 160, the NMI deteriorates" and "a proper s leads to better NMI than
  an over-large or over-small s" (§6.4). Two counted checks at c = 1600, per seed, each
  *exceeds* :data:`NMI_DELTA`:

  - *too small*: NMI(s = 127) − NMI(s = 10), s = ⌈√(kc)⌉ (Remark 3) against s = k. Table 6
    has no s = 127; its design takes the effect of its best cell s = 80 (+0.0381 over s = 10,
    an upper value); Table 6 interpolated in log s between s = 80 and 160 puts s = 127 at
    ≈ 0.4135, +0.0283 over s = 10, which passes too;
  - *over-large* (:data:`OVER_LARGE_RULE`, declared 2026-11-27 after the committed seeds 0–9
    were seen, judged only on seeds ≥ :data:`FRESH_FROM`): NMI(s = 80) − NMI(s = 320).
    s = 80 = √(kc/2.5) is the s of Table 6's grid "around √(kc/μ)" with μ > 1 (the largest
    grid s below √(kc) = 126.5; Table 6's best cell, whose place below √(kc) is what §3.2 reads
    as corroborating Remark 3) and s = 320 = c/5 Table 6's largest, the over-large s; the
    paper's effect +0.0134.

  It replaces "s = ⌈√(kc)⌉ = 127 beats s = 320" in the count: the paper's own Table 6
  interpolated at s = 127 gives +0.0036 over s = 320, below the margin 0.005 — a check the
  paper's numbers would not pass judges Remark 3 at μ = 1, which the paper excludes (μ > 1).
  That check is kept as a control (shown, not counted: its rows exist and it says where
  s = √(kc) itself stands), beside the control s = 80 vs 160 (§6.4's sentence).

Power designs take the effect from Tables 5–6 and the spread of the paired differences from
the committed 8.1M rows (:data:`PAIRED_SD`: the tables print no paired spread, and two of their
sds, 0.0001 and 0.0003, are no spread of runs over random landmarks); where 10 runs give power
below 0.8 the design's run count is the one that reaches it (:func:`_paired_rule`).
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np
import pandas as pd

from kktheory.report.claims import EXCEEDS, Design, Margin, Rule
from kktheory.report.verdicts import CAUSE_INCONCLUSIVE, CAUSE_STAND_IN, Check, Verdict, judge_checks, not_run
from kktheory.report.paper_numbers import PaperNumber
from kktheory.report.rows import DATASET_COL, by_seed, ok_rows, require_columns
from kktheory.report.stats import fmt, mean_ci
from kktheory.report.style import band, grid_ticks, pyplot, save_figure
from kktheory.report.decide import LEVEL, Estimate, deviations
from kktheory.report.entry import Entry
from kktheory.report.wang import S_COL, nmi_runs

#: Wang et al. Table 5 (MNIST8M, 10 runs, uniform sampling): NMI mean and sd per (s, c)
TABLE5 = {(20, 100): (0.3833, 0.0117), (20, 400): (0.3975, 0.0112), (20, 1600): (0.4069, 0.0001),
          (80, 400): (0.4101, 0.0101), (80, 1600): (0.4233, 0.0131)}
#: Wang et al. Table 6 (MNIST8M, c = 1600, 10 runs): NMI mean and sd per target rank s
TABLE6 = {10: (0.3852, 0.0003), 20: (0.4069, 0.0001), 40: (0.4130, 0.0062),
          80: (0.4233, 0.0131), 160: (0.4086, 0.0125), 320: (0.4099, 0.0098)}
TABLE6_C = 1600
#: Wang et al. Table 4's caption (c = 400, the runs timed by node count): "the NMI is 0.400 ± 0.009"
#: (s = 20) and "0.410 ± 0.010" (s = 80), beside Table 5's 0.3975 and 0.4101 for the same setting
TABLE4_NMI = {(20, 400): (0.400, 0.009), (80, 400): (0.410, 0.010)}
MNIST8M_N = 8_100_000  # §6.1: "n = 8.1 × 10^6 instances"
PAPER_RUNS = 10  # "we repeated the experiments 10 times" (§6.1)
K_MNIST = 10
#: Remark 3 / §3.2: s = √(kc) (126.5 at k = 10, c = 1600), rounded up: the s the
#: non-monotonicity checks select in advance (experiments/wang_fig2/point/s_sqrt_kc.yaml)
S_SQRT_KC = math.ceil(math.sqrt(K_MNIST * TABLE6_C))
S_SMALL, S_LARGE = 10, 320  # Table 6's smallest s (= k) and largest (= c/5, the over-large s)
#: s = √(kc/2.5): Table 6's best cell, and the largest s of its grid below √(kc) = 126.5, i.e. the
#: grid's s "around √(kc/μ)" with μ > 1 (§3.2)
PAPER_BEST_S = 80
#: the over-large check was re-declared on this date, after the committed seeds 0–9 were seen:
#: it judges only the seeds from FRESH_FROM on (Rule.fresh_from), the first above them
DECLARED = "2026-11-27"
FRESH_FROM = 10
#: the sd check's estimator changed on this date (a spread robust to the runs' tails), after
#: seeds 0–9 were seen: it too judges only the seeds from FRESH_FROM on
SD_DECLARED = "2026-11-28"

NMI_DELTA = Margin(
    0.005, "a change in mean NMI below it is under half the per-run sd of Tables 5–6 (≈ 0.01) and about half "
    "the smallest rise Table 5 prints (+0.0094): smaller than anything the paper's 10-run tables resolve",
    "Wang et al. Tables 5–6")
SD_FACTOR = 1.5
SD_DELTA = Margin(
    math.log(SD_FACTOR), "a fall of the sd by less than a factor 1.5 is within twice the relative error of a "
    "10-run sd (1/√18 ≈ 24 %), so not what 'more stable' can mean in a 10-run table",
    "§3.2 'its standard deviation decreases'; normal theory of a sample sd")
TOLERANCE = 2 * max(sd for _, sd in [*TABLE5.values(), *TABLE6.values()])  # 0.0262: twice the largest stated sd


#: the three steps of Table 5 (s, c_lo, c_hi)
C_STEPS = ((20, 100, 400), (20, 400, 1600), (80, 400, 1600))

#: planning spreads: the per-run sd of each check's paired difference (NMI of one seed's
#: run in one cell minus the same seed's in the other), measured on the committed 8.1M rows
#: (10 runs; :func:`paired_spreads`, re-checked by tests/test_report_wang.py). Tables 5–6
#: print no paired spread, and two of their sds (0.0001 at s = 20, c = 1600; 0.0003 at
#: s = 10) are a hundredth of their other cells': no spread of runs over random landmarks.
#: Keys: a step (s, c_lo, c_hi) of :data:`C_STEPS`, or two target ranks (s_top, s_other) at c = 1600.
PAIRED_SD = {(20, 100, 400): 0.0118, (20, 400, 1600): 0.0103, (80, 400, 1600): 0.0149, (127, 10): 0.00966,
             (127, 320): 0.0125, (80, 160): 0.0124, (80, 320): 0.0152}
#: runs per arm at which each paired design reaches power 0.8 (Rule.runs_for_power; fixed
#: here, re-checked by tests/test_report_wang.py)
DESIGN_RUNS = {(20, 100, 400): 8, (20, 400, 1600): 12, (80, 400, 1600): 13, (127, 10): 3, (127, 320): 9,
               (80, 160): 8, (80, 320): 13}
PLANNING = "the committed 8.1M rows (10 runs)"


def _cells(key: tuple[int, ...]) -> tuple[tuple[int, int], tuple[int, int]]:
    """The (s, c) cells a check compares, the claimed larger first."""
    if len(key) == 3:
        s, lo, hi = key
        return (s, hi), (s, lo)
    top, other = key
    return (top, TABLE6_C), (other, TABLE6_C)


def paired_spreads(df: pd.DataFrame) -> dict[object, float]:
    """The per-run sd of each check's paired NMI difference in ``df`` (the planning spreads of
    :data:`PAIRED_SD`), over the seeds both cells hold."""
    table = _seed_table(ok_rows(df))
    out = {}
    for key in PAIRED_SD:
        hi, lo = _cells(key)
        out[key] = float((table[hi] - table[lo]).dropna().std(ddof=1))
    return out


#: the sweep axis of the passes (experiments/wang_fig2.yaml): a check reads the jobs of its values of c
PASS_AXIS = "+wang_fig2/pass"


def passes(*c: int) -> tuple[str, ...]:
    """The part of the sweep holding the passes at these c (:attr:`Rule.part`)."""
    return (f"{PASS_AXIS}={','.join(f'c{x}' for x in c)}",)


def _paired_rule(key: tuple[int, ...], name: str, quantity: str, effect: float, selection: str, source: str,
                 control: bool = False, fresh: bool = False, part: tuple[str, ...] = passes(TABLE6_C)) -> Rule:
    """An *exceeds* rule on the mean of the per-seed NMI differences, designed at the paper's
    effect and the paired spread of :data:`PAIRED_SD`; its run count is the paper's 10 or, when
    10 runs give power below 0.8, the count that reaches it (:data:`DESIGN_RUNS`). ``fresh``: a
    rule declared after the rows were seen, judged on seeds ≥ :data:`FRESH_FROM` only. ``part``:
    the passes its rows come from (Table 6's c = 1600 unless said)."""
    runs = max(DESIGN_RUNS[key], PAPER_RUNS)
    source += f"; per-run sd of the paired difference {PAIRED_SD[key]:g} measured on {PLANNING}"
    if runs != PAPER_RUNS:
        source += f"; {runs} runs reach power 0.8"
    return Rule(name, quantity, EXCEEDS, NMI_DELTA, Design("paired", effect, 0.0, (PAIRED_SD[key],), runs, source),
                selection, control=control, fresh_from=FRESH_FROM if fresh else None,
                declared=DECLARED if fresh else "", part=part)


PAIRING = ("per seed (a seed's runs share one permutation of the landmarks, c = 100 ⊂ 400 ⊂ 1600, and its s are "
           "prefixes of one fit: paired)")


def _rise_rule(s: int, lo: int, hi: int) -> Rule:
    (m_lo, sd_lo), (m_hi, sd_hi) = TABLE5[(s, lo)], TABLE5[(s, hi)]
    return _paired_rule(
        (s, lo, hi), f"NMI rises with c (s = {s}, c = {lo} → {hi})",
        f"mean over seeds of NMI(c = {hi}) − NMI(c = {lo}) at s = {s}, {PAIRING}; t interval",
        round(m_hi - m_lo, 4), f"s = {s}, c = {lo} and {hi}: Table 5's grid",
        f"effect: Table 5, {m_lo} ± {sd_lo} → {m_hi} ± {sd_hi}, 10 runs", part=passes(lo, hi))


RISE_RULES = {step: _rise_rule(*step) for step in C_STEPS}

SD_S, SD_C = 20, (100, 1600)


def _sd_sample(rng: np.random.Generator, value: float, runs: int) -> Estimate:
    """Two arms of ``runs`` NMI values whose log sd ratio is ``value`` (the judge's estimate)."""
    return Estimate.scale_ratio(rng.normal(0.0, math.exp(value), runs), rng.normal(0.0, 1.0, runs))


SD_RULE = Rule(
    f"NMI's sd falls with c (s = {SD_S}, c = {SD_C[0]} → {SD_C[1]})",
    f"log(spread of NMI at c = {SD_C[1]} / spread at c = {SD_C[0]}), s = {SD_S}, the spread the mean absolute "
    "deviation from the median (Estimate.scale_ratio: the sd ratio where both arms have one shape; robust to the runs' tails, where "
    "the F interval of a variance ratio is not); delta-method Welch interval of two independent arms (a seed's runs "
    "share landmarks, so the arms may correlate; the absolute deviations of two normal samples with correlation ρ "
    "correlate ≥ 0 whatever ρ's sign, which narrows the true interval: this one is conservative)",
    EXCEEDS, SD_DELTA,
    Design("known", round(math.log(TABLE5[(SD_S, SD_C[1])][1] / TABLE5[(SD_S, SD_C[0])][1]), 2), 0.0,
           (math.sqrt(2 * (math.pi / 2 - 1) / PAPER_RUNS),), PAPER_RUNS,  # asymptotic se for normal runs (0.37 simulated)
           f"effect: Table 5, s = 20, sd {TABLE5[(SD_S, SD_C[0])][1]} at c = 100 → {TABLE5[(SD_S, SD_C[1])][1]} at "
           "c = 1600, 10 runs: the paper's claim at its word (its 0.0001 is a hundredth of every other cell's sd); "
           "simulated with the judge's own estimate. At 10 runs per arm the check passes with probability ≈ 0.15 "
           "when the sd falls by exactly the margin's factor 1.5 (≈ 0.8 at a factor 3; tests/test_report_wang.py). "
           f"Re-declared {SD_DECLARED} (from the F interval, after seeds 0–{FRESH_FROM - 1} were seen): judged on "
           f"seeds ≥ {FRESH_FROM}", _sd_sample),
    selection=f"s = {SD_S}, c = {SD_C[0]} and {SD_C[1]}: Table 5's widest span. The paper's own s = 80 row rises "
              "(0.0101 → 0.0131, a factor 1.3), against its claim, so the claim is read where the paper shows it, "
              "on s = 20",
    sign=-1.0, part=passes(*SD_C), fresh_from=FRESH_FROM, declared=SD_DECLARED)


OVER_LARGE_RULE_NAME = f"s = {PAPER_BEST_S} ≈ √(kc/μ), μ > 1, beats over-large s = {S_LARGE} (c = {TABLE6_C})"


def _beats_rule(end: int, control: bool = False) -> Rule:
    """s = ⌈√(kc)⌉ against Table 6's end ``end`` (``control``: shown, not counted)."""
    (m_best, sd_best), (m_end, sd_end) = TABLE6[PAPER_BEST_S], TABLE6[end]
    gap = TABLE6_AT_SQRT_KC - m_end
    expect = (f"{gap:+.4f} over s = {end}, below the margin: were Table 6 right at s = {S_SQRT_KC}, this check would "
              "be expected to fail, not pass" if gap < NMI_DELTA.value else f"{gap:+.4f} over s = {end}")
    selection = f"s = ⌈√(kc)⌉ = {S_SQRT_KC} (Remark 3, fixed before the data) against Table 6's end s = {end}"
    if control:
        selection += (f"; counted until {DECLARED}, now shown and not counted: Table 6 interpolated at s = {S_SQRT_KC} "
                      f"is {gap:+.4f} above s = {end}, below the margin, so the paper's own numbers would not pass it; "
                      f"it reads Remark 3 at μ = 1, where §3.2 says μ > 1 ('{OVER_LARGE_RULE_NAME}' replaces it)")
    return _paired_rule(
        (S_SQRT_KC, end), f"s = ⌈√(kc)⌉ = {S_SQRT_KC} beats s = {end} (c = {TABLE6_C})",
        f"mean over seeds of NMI(s = {S_SQRT_KC}) − NMI(s = {end}) at c = {TABLE6_C}, {PAIRING}; t interval",
        round(m_best - m_end, 4), selection,
        f"effect: Table 6 has no s = {S_SQRT_KC}; its best cell s = {PAPER_BEST_S} = √(kc/2.5), {m_best} ± "
        f"{sd_best}, vs s = {end}, {m_end} ± {sd_end} (an upper value: Table 6 interpolated in log s puts "
        f"s = {S_SQRT_KC} at {TABLE6_AT_SQRT_KC:.4f}, {expect})", control=control)


def _over_large_rule() -> Rule:
    """§3.2's "setting s over-large ... negatively affects clustering performance" with its
    "s around √(kc/μ) (μ ... a constant larger than 1) can be a good choice" and §6.4's "a
    proper s leads to better NMI than an over-large or over-small s": s = 80, the grid's s
    around √(kc/μ) with μ > 1, against s = 320. Declared after the committed rows were seen
    (it replaces s = ⌈√(kc)⌉ vs 320 in the count, which Table 6 itself does not pass): judged
    on seeds ≥ :data:`FRESH_FROM` only."""
    (m_best, sd_best), (m_end, sd_end) = TABLE6[PAPER_BEST_S], TABLE6[S_LARGE]
    return _paired_rule(
        (PAPER_BEST_S, S_LARGE), OVER_LARGE_RULE_NAME,
        f"mean over seeds of NMI(s = {PAPER_BEST_S}) − NMI(s = {S_LARGE}) at c = {TABLE6_C}, {PAIRING}; t interval",
        round(m_best - m_end, 4),
        f"s = {PAPER_BEST_S} = √(kc/2.5): the largest s of Table 6's grid below √(kc) = 126.5, i.e. 'around √(kc/μ)' "
        "with μ > 1 (§3.2: 'setting s around √(kc/μ) (where μ is unknown but can be treated as a constant larger "
        "than 1) can be a good choice'; Table 6's best cell), against Table 6's largest "
        f"s = {S_LARGE} = c/5 (§3.2: 'Setting s over-large not only incurs more computations, but also negatively "
        "affects clustering performance'; §6.4: 'a proper s leads to better NMI than an over-large or over-small s')",
        f"effect: Table 6, {m_best} ± {sd_best} vs {m_end} ± {sd_end}, 10 runs", fresh=True)


def _paper_cells_rule(other: int) -> Rule:
    """A control (shown, not counted; declared after the 8.1M rows, at a referee's request): the
    paper's own evidence for "over-large s hurts", §6.4's "as s grows from 80 to 160, the NMI
    deteriorates", on Table 6's cells."""
    (m_best, sd_best), (m_other, sd_other) = TABLE6[PAPER_BEST_S], TABLE6[other]
    return _paired_rule(
        (PAPER_BEST_S, other), f"s = {PAPER_BEST_S} beats s = {other} (c = {TABLE6_C}; Table 6's own cells)",
        f"mean over seeds of NMI(s = {PAPER_BEST_S}) − NMI(s = {other}) at c = {TABLE6_C}, {PAIRING}; t interval",
        round(m_best - m_other, 4),
        f"Table 6's best cell s = {PAPER_BEST_S} against s = {other} (§6.4: 'as s grows from 80 to 160, the NMI "
        "deteriorates'); added after the 8.1M rows, so shown and not counted",
        f"effect: Table 6, {m_best} ± {sd_best} vs {m_other} ± {sd_other}", control=True)


#: Table 6 interpolated linearly in log s between s = 80 and 160 at s = ⌈√(kc)⌉ (no such cell)
TABLE6_AT_SQRT_KC = float(np.interp(math.log(S_SQRT_KC), [math.log(80), math.log(160)],
                                    [TABLE6[80][0], TABLE6[160][0]]))
#: counted: s = ⌈√(kc)⌉ against s = k ("too small")
BEATS_RULES = {(S_SQRT_KC, S_SMALL): _beats_rule(S_SMALL)}
#: counted, declared 2026-11-27 (seeds ≥ 10): s around √(kc/μ), μ > 1, against the over-large s
OVER_LARGE = (PAPER_BEST_S, S_LARGE)
OVER_LARGE_RULE = _over_large_rule()
#: shown, not counted: s = ⌈√(kc)⌉ vs s = 320 (counted before 2026-11-27) and §6.4's s = 80 vs 160
CONTROL_RULES = {(S_SQRT_KC, S_LARGE): _beats_rule(S_LARGE, control=True),
                 (PAPER_BEST_S, 160): _paper_cells_rule(160)}
#: every check at c = 1600 by its (s_top, s_other)
S_RULES = {**BEATS_RULES, OVER_LARGE: OVER_LARGE_RULE, **CONTROL_RULES}

RULES = (*RISE_RULES.values(), SD_RULE, *S_RULES.values())


# -- figure ------------------------------------------------------------------------------
def _resolved(d: pd.DataFrame) -> pd.DataFrame:
    return d.assign(s=d[S_COL].astype(float))


def runs_per_point(d: pd.DataFrame) -> str:
    """The runs behind each (s, c) point: "10 runs per point", or "3–4 runs per point" while a
    sweep is under way."""
    counts = d.groupby(["s", "m"])["seed"].nunique() if len(d) else pd.Series([0])
    lo, hi = int(counts.min()), int(counts.max())
    return f"{lo} runs per point" if lo == hi else f"{lo}–{hi} runs per point"


def draw_fig2(df: pd.DataFrame, out_dir: Path) -> list[Path]:
    """NMI vs c for s = 20 and 80 (Table 5's grid), and NMI vs s at c = 1600 (Table 6's grid
    and s = ⌈√(kc)⌉), mean ± sd over runs, the paper's means ± its sds beside them (each series
    shifted a few per cent along the log axis so that the error bars stay apart)."""
    plt = pyplot()
    d = _resolved(ok_rows(df))
    by_c = d[d["s"].isin({s for s, _ in TABLE5})]
    by_c = by_c[[(int(s), int(c)) in TABLE5 for s, c in zip(by_c["s"], by_c["m"])]]
    by_s = d[d["m"] == TABLE6_C]
    fig, axes = plt.subplots(1, 2, figsize=(10.5, 4.2))

    def paper(ax, cells: list[tuple[int, float, float]], shift: float, label: str, color: str) -> None:
        x = np.array([x for x, _, _ in cells], float) * shift
        ax.errorbar(x, [mu for _, mu, _ in cells], yerr=[sd for _, _, sd in cells], ls=":", marker="x",
                    color=color, capsize=2, lw=1, label=label)

    for i, (s, sub) in enumerate(by_c.groupby("s")):
        st = mean_ci(sub, "m", "train_nmi")
        st["lo"], st["hi"] = st["mean"] - st["sd"], st["mean"] + st["sd"]
        shift = (0.94, 1.06)[i % 2]
        band(axes[0], st["m"].to_numpy() * shift, st, f"s = {int(s)} (here)", f"s{int(s)}", i, errorbars=True)
        paper(axes[0], sorted((c, mu, sd) for (ps, c), (mu, sd) in TABLE5.items() if ps == int(s)),
              shift * 1.03, f"s = {int(s)}, paper (MNIST8M, Table 5)", f"C{i}")
    axes[0].set_xscale("log")
    grid_ticks(axes[0], [c for _, c in TABLE5])
    axes[0].set_xlabel("sketch size c (log scale)")
    axes[0].set_ylabel("NMI of the training partition")
    axes[0].set_title("(a) NMI vs c, s fixed (mean ± sd)")
    axes[0].legend(fontsize=7.5)
    if not by_s.empty:
        st = mean_ci(by_s, "s", "train_nmi")
        st["lo"], st["hi"] = st["mean"] - st["sd"], st["mean"] + st["sd"]
        band(axes[1], st["s"].to_numpy(), st, f"here, c = {TABLE6_C}", "nystrom_rr", errorbars=True)
    paper(axes[1], [(s, mu, sd) for s, (mu, sd) in TABLE6.items()], 1.06, "paper, Table 6 (MNIST8M)", "0.3")
    axes[1].set_xscale("log", base=2)
    grid_ticks(axes[1], [*TABLE6, S_SQRT_KC])
    axes[1].set_xlabel("target rank s (log scale)")
    axes[1].set_ylabel("NMI of the training partition")
    axes[1].set_title(f"(b) NMI vs s, c = {TABLE6_C} (mean ± sd)")
    axes[1].axvline(S_SQRT_KC, color="0.4", ls="--", lw=1, label=f"s = ⌈√(kc)⌉ = {S_SQRT_KC} (checked vs s = 10; s = 80 vs 320)")
    axes[1].legend(fontsize=7.5)
    n = int(d["n"].iloc[0]) if len(d) else 0
    fig.suptitle(f"Wang et al. Fig. 2 — {d[DATASET_COL].iloc[0] if len(d) else '?'}, n = {n:,}, k = {K_MNIST}, "
                 f"rank-restricted Nyström (uniform, ℓ = ⌈c/2⌉), {runs_per_point(d)}\nNMI of all n clustered "
                 "points; the paper's MNIST8M means ± sd dotted, each series shifted slightly along x", fontsize=9.5)
    fig.tight_layout()
    return save_figure(fig, out_dir, "wang_fig2")


# -- judge -------------------------------------------------------------------------------
def _cell(d: pd.DataFrame, s: int, c: int) -> np.ndarray:
    return nmi_runs(d[(d["s"] == s) & (d["m"] == c)])


def _spread(x: np.ndarray) -> float:
    """The mean absolute deviation from the median (the spread :meth:`Estimate.scale_ratio` compares)."""
    return float(deviations(x).mean()) if len(x) > 1 else math.nan


def _sd_check(d: pd.DataFrame, level: float) -> Check:
    """:data:`SD_RULE` on the seeds it may judge (:meth:`Rule.fresh`): the spread at s = 20,
    c = 1600 against c = 100; the sd ratios beside it, and s = 80's (not judged)."""
    sd = (lambda x: float(x.std(ddof=1)) if len(x) > 1 else math.nan)
    ratio80 = sd(_cell(d, 80, 1600)) / sd(_cell(d, 80, 400))
    beside = (f"s = 80, not judged: sd ratio {fmt(ratio80, 3)} from c = 400 to 1600 (the paper's "
              f"{TABLE5[(80, 1600)][1] / TABLE5[(80, 400)][1]:.2f})")
    seen = d.drop(SD_RULE.fresh(d).index)
    if not seen.empty:
        a, b = _cell(seen, SD_S, SD_C[1]), _cell(seen, SD_S, SD_C[0])
        beside += (f"; seen before the declaration ({SD_RULE.declared}), not judged: seeds {int(seen['seed'].min())}–"
                   f"{int(seen['seed'].max())}, sd {fmt(sd(b), 2)} at c = {SD_C[0]} → {fmt(sd(a), 2)} at c = "
                   f"{SD_C[1]} (ratio {fmt(sd(a) / sd(b), 3)})")
    judged = SD_RULE.fresh(d)
    a, b = _cell(judged, SD_S, SD_C[1]), _cell(judged, SD_S, SD_C[0])
    if len(a) == 0 and len(b) == 0:
        return Check(SD_RULE.name, None, f"no runs after the declaration ({SD_RULE.declared}; seeds ≥ "
                     f"{SD_RULE.fresh_from}): {SD_RULE.design.runs} fresh seeds per arm (the design); {beside}",
                     cause=CAUSE_INCONCLUSIVE, cause_detail="no runs after the declaration",
                     runs_needed=SD_RULE.design.runs, rule=SD_RULE)
    est = Estimate.scale_ratio(a, b)
    return SD_RULE.check(est, f"spread (mean absolute deviation from the median) {fmt(_spread(b), 2)} at c = "
                         f"{SD_C[0]} → {fmt(_spread(a), 2)} at c = {SD_C[1]}, sd {fmt(sd(b), 2)} → {fmt(sd(a), 2)} "
                         f"(paper 0.0117 → 0.0001){_outside(SD_RULE, est, level)}; {beside}", level=level)


def _seed_table(d: pd.DataFrame) -> pd.DataFrame | str:
    """Seed × (s, c) table of the training NMI (the runs paired by seed), or why the rows
    are not one run per seed and cell."""
    return by_seed(d.assign(s=d[S_COL].astype(int)), "train_nmi", ["s", "m"])


def _paired_check(rule: Rule, table: pd.DataFrame, key: object, level: float) -> Check:
    """``rule`` on the per-seed differences of its two cells (the seeds both hold that the rule
    may judge, :meth:`Rule.fresh`: the seeds seen before a re-declaration are shown, not judged;
    with none after it the check waits for them, undecided, with the design's seed count)."""
    hi, lo = _cells(key)
    both = table[[hi, lo]].dropna() if {hi, lo} <= set(table.columns) else pd.DataFrame(columns=[hi, lo])
    judged = both[both.index.isin(rule.fresh(pd.DataFrame({"seed": both.index}))["seed"])]
    seen = both.drop(judged.index)
    note = (f"; seen before the declaration ({rule.declared}), not judged: {len(seen)} seeds "
            f"{int(seen.index.min())}–{int(seen.index.max())}, mean difference {fmt((seen[hi] - seen[lo]).mean())}"
            if len(seen) else "")
    if judged.empty and rule.fresh_from is not None:
        return Check(rule.name, None, f"no runs after the declaration ({rule.declared}; seeds ≥ {rule.fresh_from}): "
                                      f"{rule.design.runs} fresh seeds reach power 0.8 (the design){note}",
                     cause=CAUSE_INCONCLUSIVE, cause_detail="no runs after the declaration",
                     runs_needed=rule.design.runs, rule=rule)
    a, b = judged[hi].to_numpy(float), judged[lo].to_numpy(float)
    detail = (f"NMI {fmt(b.mean())} → {fmt(a.mean())}" if hi[0] == lo[0] else
              f"NMI {fmt(a.mean())} at s = {hi[0]}, {fmt(b.mean())} at s = {lo[0]}")
    est = Estimate.paired(a, b)
    whose = (f"the design's effect (s = {PAPER_BEST_S}'s, an upper value)" if hi[0] == S_SQRT_KC else
             "the paper's effect")
    return rule.check(est, f"{detail} ({len(a)} paired runs){_outside(rule, est, level, whose)}{note}", level=level)


OUTSIDE = "lies outside the interval"


def _outside(rule: Rule, est: Estimate, level: float, whose: str = "the paper's effect") -> str:
    """"; the paper's effect … lies outside the interval" when the rows' interval excludes the
    effect the check was designed at (``whose``: Tables 5–6's own number, or for s = 127 the
    upper value of s = 80's), else ""."""
    lo, hi = est.interval(level)
    if not est.decidable or lo <= rule.design.effect <= hi:
        return ""
    return f"; {whose} {rule.design.effect:+.4g} {OUTSIDE}"


def judge_fig2(df: pd.DataFrame, level: float = LEVEL) -> Verdict:
    """Wang Fig. 2 / Tables 5–6: the declared checks of :data:`RULES` on the rows (see the
    module docstring); the cells are selected by the rules' (s, c), never from the rows, and
    the mean checks pair the runs by seed."""
    d = ok_rows(df)
    if d.empty:
        return not_run("no row")
    if (why := require_columns(d, ["train_nmi", S_COL, "seed"])) is not None:
        return not_run(why)
    table = _seed_table(d)
    if isinstance(table, str):
        return not_run(table)
    d = _resolved(d)
    checks = [_paired_check(rule, table, step, level) for step, rule in RISE_RULES.items()]
    checks.append(_sd_check(d, level))
    checks += [_paired_check(rule, table, key, level) for key, rule in S_RULES.items()]
    runs = int(d.groupby(["s", "m"])["seed"].nunique().min())
    fresh = int(OVER_LARGE_RULE.fresh(d[d["m"] == TABLE6_C])["seed"].nunique())
    passed = [c.name for c in checks if c.passed is True]
    excluded = [c.name for c in checks if OUTSIDE in c.detail]
    summary = (f"; in one sentence: {'passes: ' + '; '.join(passed) if passed else 'no check passes'}"
               f"{'; the rows exclude the effect the paper prints for: ' + '; '.join(excluded) if excluded else ''}")
    return judge_checks(checks, f"{d[DATASET_COL].iloc[0]}, n = {int(d['n'].iloc[0])}, {runs_per_point(d)}; were the "
                                f"paper's effects true as printed, the {sum(r.counted for r in RULES)} counted checks would "
                                f"all pass at {runs} runs ({fresh} after the declaration for the over-large check"
                                f"{', which waits for them' if fresh < 2 else ''}) with probability ≈ "
                                f"{joint_power(runs, fresh, level):.2f} (their simulated powers multiplied); with the sd "
                                f"falling by only the margin's factor {SD_FACTOR:g} and s = {S_SQRT_KC} at Table 6's "
                                f"interpolated value, ≈ {joint_power(runs, fresh, level, True):.2f}"
                                f"{summary}", level)


@functools.cache
def joint_power(runs: int, fresh: int, level: float = LEVEL, cautious: bool = False) -> float:
    """The product of the counted checks' simulated pass rates at ``runs`` runs per arm (``fresh``
    for a check declared after the rows were seen: the seeds after its declaration; below 2 it
    cannot pass): the chance that every one passes were the paper's effects true (the checks
    taken as independent). ``cautious``: the sd check at its margin (a fall by exactly 1.5, not
    Table 5's 117-fold fall from an sd of 0.0001) and s = ⌈√(kc)⌉ vs s = 10 at Table 6
    interpolated in log s (+0.0283, not s = 80's +0.0381), the other checks at their design
    effects."""
    at = ({SD_RULE.name: -SD_DELTA.value,
           BEATS_RULES[(S_SQRT_KC, S_SMALL)].name: TABLE6_AT_SQRT_KC - TABLE6[S_SMALL][0]} if cautious else {})

    def rate(rule: Rule) -> float:
        r = runs if rule.fresh_from is None else fresh
        return rule.pass_rate(at.get(rule.name, rule.design.effect), r, reps=500, level=level) if r >= 2 else 0.0

    return math.prod(rate(rule) for rule in RULES if rule.counted)


def observe_fig2(df: pd.DataFrame) -> dict[str, Estimate]:
    """Mean NMI per (s, c) (keys ``s<s>/c<c>``), for Tables 5 and 6."""
    d = _resolved(ok_rows(df))
    return {f"s{int(s)}/c{int(c)}": Estimate.mean_of(nmi_runs(g)) for (s, c), g in d.groupby(["s", "m"])}


def setting_fig2(df: pd.DataFrame) -> str:
    """The absolute NMI of every cell of Tables 5–6 here against the paper's, with the
    tolerance of twice the largest per-run sd the tables state (:data:`TOLERANCE`: is this the
    paper's regime, not are the means equal), and the offset beside it: the mean gap, the
    cells below the paper and the cells whose 95 % interval excludes the paper's value. It
    says "matches" only when every cell is within the tolerance and at most half of the
    cells' intervals exclude the paper's value; within the tolerance but most intervals
    excluding it, it names the offset."""
    d = _resolved(ok_rows(df))
    paper = {**TABLE5, **{(s, TABLE6_C): v for s, v in TABLE6.items()}}
    gaps = []
    for (s, c), (mu, _) in paper.items():
        x = _cell(d, s, c)
        if len(x):
            gaps.append((mu, Estimate.mean_of(x), (s, c)))
    if not gaps:
        return "setting differs: no cell of Tables 5–6 in the rows"
    ours = [e.value for _, e, _ in gaps]
    diff = [e.value - mu for mu, e, _ in gaps]
    worst = gaps[int(np.argmax(np.abs(diff)))][2]
    peak = (" (the paper's best cell: the offset flattens the contrasts the checks test)"
            if worst == (PAPER_BEST_S, TABLE6_C) else "")
    inside = sum(abs(x) <= TOLERANCE for x in diff)
    below = sum(x < 0 for x in diff)
    excluded = sum(not (lo <= mu <= hi) for mu, e, _ in gaps for lo, hi in [e.interval()])
    if inside < len(gaps):
        head = "setting differs"
    elif 2 * excluded > len(gaps):  # in the regime, but most cells' intervals exclude the paper's value
        head = f"setting offset (here − paper {np.mean(diff):+.4f} on average, the size of the effects tested)"
    else:
        head = "setting matches"
    return (f"{head}: mean NMI here {min(ours):.3f}–{max(ours):.3f} over the {len(gaps)} cells of Tables 5–6, the "
            f"paper's {min(g[0] for g in gaps):.3f}–{max(g[0] for g in gaps):.3f}; here − paper {min(diff):+.3f} "
            f"to {max(diff):+.3f}, {inside} of {len(gaps)} cells within the tolerance ±{TOLERANCE:.4f} (twice the "
            f"largest per-run sd the tables state, 0.0131, declared with the checks before the 8.1M rows: a regime check, "
            f"not a test of equal means). Level offset: here − paper {np.mean(diff):+.4f} on average, {below} of "
            f"{len(gaps)} cells below the paper, {excluded} of {len(gaps)} with a 95 % interval that excludes the "
            f"paper's value, the largest gap at s = {worst[0]}, c = {worst[1]}"
            f"{peak}. {_stand_in(d)}")


def _stand_in(d: pd.DataFrame) -> str:
    """What stands in for MNIST8M in the rows, and what that does to the absolute NMI."""
    if (d[DATASET_COL] == "augmented_mnist").all() and (d["n"] == MNIST8M_N).all():
        return ("Augmented MNIST at MNIST8M's n (8.1M deformed MNIST training digits: infimnist's tangent-plane "
                "deformation and one-pixel translations, reimplemented with its own random fields, so not MNIST8M's "
                "images) stands in "
                "for MNIST8M (100,000 deformed test digits held out); the NMI judged is the training partition's over "
                "all 8.1M clustered points, as the paper's; Wang's bandwidth (eq. 5, β = 1). In Calandriello & "
                "Rosasco's setting the same data gave NMI 0.400 at m = 400, where their paper reports 0.405 on "
                "MNIST8M")
    return ("MNIST's 60,000 original digits stand in for MNIST8M's 8.1M (mostly deformed) digits, which cluster less "
            "well: the rises, the sd and the s comparisons are relative claims judged in this regime (NMI ≈ 0.5, not "
            "≈ 0.4); the paper's size is the paper scale")


#: Wang et al. Table 4 (MNIST8M, c = 400, s = 20, 10 runs): mean seconds per stage by nodes
TABLE4 = {"Nyström": {32: 665.2, 64: 369.7}, "DR": {32: 38.9, 64: 87.3}, "k-means": {32: 119.9, 64: 223.2},
          "total": {8: 3201.5, 16: 1532.0, 32: 867.9, 64: 734.7, 128: 828.2}}
#: Wang et al. Table 6 (MNIST8M, c = 1600, 32 nodes, 10 runs): mean seconds per stage, each s a run
TABLE6_SECONDS = {"Nyström": {10: 2702.2, 20: 2634.5, 40: 2815.3, 80: 2728.1, 160: 2849.9, 320: 2757.1},
                  "DR": {10: 21.1, 20: 31.3, 40: 57.5, 80: 97.9, 160: 168.2, 320: 570.5},
                  "k-means": {10: 84.0, 20: 86.9, 40: 90.6, 80: 88.0, 160: 99.8, 320: 169.3},
                  "total": {10: 2840.9, 20: 2785.4, 40: 3003.4, 80: 2952.2, 160: 3157.5, 320: 3537.5}}
CORI_CORES = 32  # §6.1: "each of which has two 2.3GHz 16-core Haswell processors"
#: the stages of a pass as the record holds them (benchmarks/wang_mnist8m.py)
STAGES = (("Nyström", "nystrom_s"), ("DR", "dr_s"), ("k-means", "kmeans_s"), ("evaluation", "evaluation_s"),
          ("total", "total_s"))


def time_against_tables_4_6(record: pd.DataFrame) -> str:
    """The benchmark passes of ``benchmarks/wang_mnist8m.py`` (:mod:`kktheory.report.benchmark`)
    beside the paper's Table 4 (c = 400, s = 20, by nodes) and Table 6 (c = 1600, each s a
    separate run on 32 nodes): seconds per stage, the kernel passes' GFLOP/s against this
    machine's GEMM rate, peak memory and core-seconds (the paper's: nodes × 32 cores × seconds)."""
    out = ["Time against Tables 4 and 6 (a benchmark pass on this machine, not sweep rows; shown, not judged: "
           "the paper's times are a Spark cluster's):"]
    for r in record.sort_values("c").to_dict("records"):
        six = r["c"] == TABLE6_C
        paper = ({st: f"{min(v.values()):.1f}–{max(v.values()):.1f} each" for st, v in TABLE6_SECONDS.items()}
                 if six else {st: " / ".join(f"{v[nodes]:.1f}" for nodes in (32, 64)) for st, v in TABLE4.items()
                              if 32 in v})
        rate = {"Nyström": r["pass1_gflops"], "DR": r["pass2_gflops"]}
        head = "paper, 32 nodes (Table 6)" if six else "paper, 32 / 64 nodes (Table 4)"
        out += ["", f"`{r['command']}` — n = {r['n']:,}, c = {r['c']}, ℓ = {r['ell']}, s ∈ {r['s']}; {r['cpu']}, "
                f"{r['cpus']} CPUs, {r['ram_gib']:.1f} GiB; load average {r['load_before']:.2f} before, "
                f"{r['load_after']:.2f} after; commit {r['commit'][:7]}, {r['date']}", "",
                f"| stage | here, s | GFLOP/s (share of the {r['gemm_gflops']:.1f} GFLOP/s GEMM) | {head} |",
                "|---|---:|---:|---:|"]
        rest = r["nystrom_s"] - r["load_s"] - r["pass1_s"]
        label = {"Nyström": f"Nyström (load {r['load_s']:.1f} s, pass 1 {r['pass1_s']:.1f} s, the landmarks, W and its SVD "
                            f"{rest:.1f} s)",
                 "DR": "DR (pass 2, the largest s)",
                 "k-means": (f"k-means ({r['n_s']} values of s)" if r["n_s"] > 1
                             else f"k-means (s = {str(r['s']).strip('[]')})")}
        for stage, col in STAGES:
            g = rate.get(stage, math.nan)
            share = "" if math.isnan(g) else f"{g:.1f} ({g / r['gemm_gflops']:.2f})"
            out.append(f"| {label.get(stage, stage)} | {r[col]:.1f} | {share} | {paper.get(stage, '—')} |")
        here = r["cpus"] * r["total_s"]
        if r["n"] != MNIST8M_N:
            cmp = f"n below the paper's {MNIST8M_N:,}: not compared"
        elif six:
            total = sum(TABLE6_SECONDS["total"].values())
            cmp = (f"one run of each of Table 6's six settings (its mean seconds; 10 repeats each) took {total:,.1f} s "
                   f"in sum on 32 nodes ({32 * CORI_CORES * total:,.0f} core-seconds): {total / r['total_s']:.1f}× the "
                   f"wall time of this one run of {r['n_s']} values of s")
        else:
            best = TABLE4["total"][64]
            cmp = (f"the paper's best, 64 nodes: {best} s ({64 * CORI_CORES * best:,.0f} core-seconds), "
                   f"{best / r['total_s']:.1f}× this run's time and {64 * CORI_CORES * best / here:,.0f}× its core-seconds")
        out += ["", f"Peak RSS {r['peak_rss_gib']:.1f} GiB; core-seconds here {here:,.0f}; {cmp}. Training NMI: "
                f"{r['train_nmi']}."]
    return "\n".join(out)


#: the paper's figure or table this entry reproduces
TITLE = "Wang, Gittens & Mahoney 2019, Fig. 2 and Tables 5–6"

#: what the paper claims
CLAIM = ("with rank-restricted Nyström, larger c gives better and more stable clusterings (mean NMI rises, "
         "its sd falls; s fixed), and NMI is not monotone in s (c fixed): s = ⌈√(kc)⌉ beats too small an s, "
         "and s around √(kc/μ) (μ > 1) beats an over-large one")

#: how the rows judge it
RULE = ("declared checks (INDEX table above): each step of Table 5 a mean of per-seed NMI differences (the runs "
        "of a seed share nested landmarks: paired) that must "
        f"exceed 0 (fails below {NMI_DELTA.value:g}); the sd at s = 20 falls from c = 100 to 1600 (log sd ratio, "
        f"fails when the fall is under a factor {SD_FACTOR:g}); at c = 1600, s = ⌈√(kc)⌉ = {S_SQRT_KC} beats "
        f"s = {S_SMALL}, and s = {PAPER_BEST_S} (around √(kc/μ), μ > 1) beats s = {S_LARGE} (declared {DECLARED} after "
        f"the rows were seen: judged on seeds ≥ {FRESH_FROM}) (per seed; each exceeds 0, fails below "
        f"{NMI_DELTA.value:g}); Holm over the six; s = {S_SQRT_KC} vs {S_LARGE} (counted before {DECLARED}) and "
        f"s = {PAPER_BEST_S} vs 160 shown, not counted; the NMI "
        "is the training partition's, over all n clustered points, as the paper's "
        "(kktheory/report/entries/wang_fig2.py)")

#: what each scale changes against the paper
CHANGES = {
    "small": "MNIST 60k for MNIST8M; 10 of 10 runs; the paper's c ∈ {100, 400, 1600} (s = 20, 80) and "
             f"s ∈ {{10, …, 320}} at c = 1600 plus s = ⌈√(kc)⌉ = {S_SQRT_KC}; ℓ = ⌈c/2⌉ (§5.1; §6.2: ℓ = 200 at c = 400), k-means "
             "one start, at most 100 iterations (MLlib's MaxIter)",
    "paper": "augmented MNIST 8.1M (infimnist's deformation, reimplemented) for MNIST8M, 100,000 augmented test digits; the paper's "
             "10 runs, more added by the sequential looks (the runs judged: each check's line); the paper's c ∈ {100, 400, 1600} (s = 20, 80) and s ∈ {10, …, 320} at c = 1600 plus "
             f"s = ⌈√(kc)⌉ = {S_SQRT_KC}, each c's fit once and its s as prefixes; ℓ = ⌈c/2⌉ (§5.1; §6.2: ℓ = 200 at c = 400), "
             "k-means one start, at most 100 iterations (MLlib's MaxIter); float32",
}


FIG2 = Entry(
    name="wang_fig2", place=(3, 1),
    label={"paper": "augmented MNIST 8.1M for MNIST8M", "small": "MNIST 60k for MNIST8M"}, paper_runs=10,
    title=TITLE, claim=CLAIM, rule=RULE, draw=draw_fig2, judge=judge_fig2,
    paper_numbers=(
        *(PaperNumber(f"NMI, s = {s}, c = {c}", mu, f"Table 5 (sd {sd}, 10 runs)", key=f"s{s}/c{c}")
          for (s, c), (mu, sd) in TABLE5.items() if c != TABLE6_C),
        *(PaperNumber(f"NMI, s = {s}, c = {c}", mu, f"Table 4's caption (sd {sd}; the same runs as Table 5's, by their timings)",
                      key=f"s{s}/c{c}") for (s, c), (mu, sd) in TABLE4_NMI.items()),
        *(PaperNumber(f"NMI, s = {s}, c = {TABLE6_C}", mu,
                      f"Table 6{' and Table 5' if (s, TABLE6_C) in TABLE5 else ''} (sd {sd}, 10 runs)",
                      key=f"s{s}/c{TABLE6_C}") for s, (mu, sd) in TABLE6.items()),
    ),
    observe=observe_fig2, shortfall={"small": CAUSE_STAND_IN, "paper": CAUSE_STAND_IN}, changes=CHANGES,
    attribution=("2026-12-07: a pass on stand-in data holds on it only, as a failure there is not the claim's "
                 "(attribute_shortfall)",),
    rules=RULES, setting=setting_fig2, benchmark=time_against_tables_4_6,
)
