"""Yin, Liu, Wang & Meng (NeurIPS 2022): Fig. 1 and Table 2.

Methods, as the paper names them (row → method by :func:`method_of`):

==========================  ==================================================================
kernel k-means              exact kernel k-means (Lloyd on K), ``sketch=exact``
k-means on kernel columns   k-means on the columns k_i of K, ``sketch=kernel_columns``: the
                            target of Yin's Prop. 1 (not in the paper's figures, see below)
Gaussian                    Biau et al. 2008, G·k_i/√m, ``sketch=gaussian``
Nyström (Liu)               Nyström with m = √(nk), ``sketch=nystrom_liu``
Sub-Gaussian                Yin Alg. 1, sparse ±1/√m S, ``sketch=subgaussian``
ROS                         Yin Alg. 1, S = D·A (DCT), ``sketch=ros``
Nyström (Ours)              Yin Alg. 1, S = I, ``sketch=yin_nystrom``
==========================  ==================================================================

**The paper's quantity.** Yin's sketches run k-means on R·k_i, an approximation of the
kernel columns k_i; Prop. 1 states that k-means on the k_i is kernel k-means (eq. 6). It is
not: ‖k_i − k_j‖² = (e_i − e_j)ᵀK²(e_i − e_j), a K² geometry, where kernel k-means uses
(e_i − e_j)ᵀK(e_i − e_j); eq. (6) holds for the columns of K^½ (tests/test_prop1.py scores every
partition of 12 points both ways: another minimum, another minimising partition). So the paper's claim "the sketches keep the accuracy of kernel
k-means" (§5.1 (2), §5.2) is judged as three separate checks, each a declared
:class:`~kktheory.report.claims.Rule`:

1. *close to kernel k-means* (the paper's words): accuracy of each proposed sketch − exact
   kernel k-means, equivalent within ±0.08;
2. *tracks its target* (Thm 2's argument through Lemma 5: R·k_i preserves the k_i): the
   sketch − k-means on the kernel columns, equivalent within ±0.08;
3. *target matches kernel k-means* (Prop. 1): k-means on the kernel columns − exact kernel
   k-means, equivalent within ±0.08; a failure is the paper's Prop. 1 failing, not the
   sketches.

**Which statement each check judges.** Thm 2 needs m = Ω((4 log n − 2 log δ)/(ε − log(1+ε))),
and ε − log(1+ε) ≈ ε²/2, so at ε = 1/√n it asks m = Ω(n log n) — more than n. The rate
m = Ω(√n) is Remark 1's (it sets ε = 1/√n and states m = Ω(√n)), and "stable from
m = √n" is §5.1 (1) citing it. Every check at m = √n (Fig. 1) or m = 150 ≈ √n (Table 2)
therefore judges Remark 1 and §5's words, not Thm 2 itself, whose condition no run here
meets.

**Margins.** *Similar* (checks 1–3): ±``SIMILAR`` = 0.08 accuracy, the largest difference to
kernel k-means that the paper's Table 2 prints and calls "a similar accuracy" (§5.2) —
segment, Nyström (Ours) 0.42 ± 0.01 against kernel k-means 0.50 ± 0.02 — for Fig. 1 and
Table 2's Prop. 1 check; Table 2's per-data-set checks 1–2, re-declared per data set, use
±0.10, the far end of the paper's own 95 % interval around that −0.08 cell, so that the
paper's own numbers pass (:mod:`kktheory.report.entries.yin_table2`). The two sentences are
one ("similar accuracy") and the two margins differ: Fig. 1's 0.08, declared first, is the
stricter, and it is kept — its checks at k = 5 lie at it (INDEX), so widening it now, after
those rows were seen, would be a margin moved to make a pass; it could count only on runs
made after the change. A Fig. 1 failure by less than 0.10
is therefore one Table 2's margin would not call a failure, and INDEX prints the estimate
beside the margin for that reading. *Stable from
m = √n* (Fig. 1) has its own two-sided margin ±``PLATEAU`` = 0.04: the largest per-repeat
standard deviation Table 2 prints for a proposed sketch at a fixed m (covtype, ROS
0.33 ± 0.04); a change from m = √n to m = 4√n within one such spread is not visible against
the paper's own repeats. Selections are fixed in advance from the experiment configs'
declared grids: Fig. 1 judges m = ⌈√n⌉ (x1 of ``m_sqrt_n``) and m = ⌈4√n⌉ (x4, the grid's
largest); Table 2 judges the paper's m = 150.

**Power.** Each rule's :class:`~kktheory.report.claims.Design` draws runs with the paper's
effect (0 for "similar", Table 2's own differences for Table 2) and a per-run spread of
0.02 — Table 2's typical stated sd of a method (mean of the proposed sketches' 0.016,
rounded up) — at the paper's 5 repeats, or at the run count that reaches power 0.8 where 5
do not (said in the design's source). Fig. 1's arms share their seeds (the data draw is
fixed; a seed's sketch and k-means streams are common to its runs), so its differences are
paired by seed and its designs draw per-seed differences with the paired spread measured on
the committed rows (:mod:`kktheory.report.entries.yin_fig1`).

**Speed** is judged only on a timing pass (:mod:`kktheory.timing`): the training times of
the sweep rows are never judged. The claims are §5.1 (3), "Our methods (ROS, Sub-Gaussian,
Nyström) have obvious advantages over other methods in running time", and §5.2, "The
proposed methods outperform Nytröm (Liu) and Gaussian in time cost, which matches our
theoretical analysis". Neither states a factor, so each is "faster": the median over the
pass's paired rounds of (time of the sketch)/(time of the rival) at most 1, one check per
(proposed sketch, rival) pair — "both A and B beat C" is two checks. Table 2 runs
Nyström (Liu) at its own m = √(nk) (65 / 107 / 107 / 278 on dna / segment / mushrooms /
pendigits, below the proposed sketches' 150 on the first three): that is the comparison
the paper's words support (its "theoretical analysis", Table 1, gives Nyström (Liu) the
dimension √(nk)); the control at equal m (Nyström (Liu) with m = 150, ``yin/method=
nystrom_liu_m150``) is timed and shown beside it, not counted. Training time is
``time_embed + time_cluster`` (the sketch and the clustering), in seconds.
"""

from __future__ import annotations


import pandas as pd

from kktheory.report.claims import EQUIVALENT, Design, Margin, Rule
from kktheory.report.verdicts import CAUSE_INCONCLUSIVE, Check
from kktheory.report.rows import SKETCH_COL, ok_rows
from kktheory.report.decide import Estimate

LABELS = {
    "exact": "kernel k-means",
    "kernel_columns": "k-means on kernel columns",
    "gaussian": "Gaussian",
    "nystrom_liu": "Nyström (Liu)",
    "nystrom_liu_m150": "Nyström (Liu), m = 150",
    "subgaussian": "Sub-Gaussian",
    "ros": "ROS",
    "yin_nystrom": "Nyström (Ours)",
}
#: the sketches the paper proposes (its claims are about these)
PROPOSED = ("subgaussian", "ros", "yin_nystrom")
#: the target of the proposed sketches (Yin Prop. 1: k-means on the kernel columns k_i)
TARGET = "kernel_columns"
ORDER = ("exact", TARGET, "gaussian", "nystrom_liu", "subgaussian", "ros", "yin_nystrom")
#: ROS (S = D·A, orthogonal) and Nyström (Ours) (S = I) on the same sampled rows: equal rows, one arm
ISOMETRIC = ("ros", "yin_nystrom")
ISOMETRIC_LABEL = f"{LABELS['ros']} ≡ {LABELS['yin_nystrom']}"
IDENTITY = (f"{LABELS['ros']}'s S = D·A is orthogonal and acts on the rows {LABELS['yin_nystrom']} samples (S = I) "
            "from the same seed: its features are those rotated, every distance and the seed's k-means partition "
            "the same, so the two rows are equal run by run")
#: why the identity is the paper's, not a reading of ours (Yin et al. 2022, Algorithm 1 and eq. 12)
AS_PRINTED = ("ROS ≡ Nyström (Ours) is the paper's Algorithm 1 as printed (steps 1–4: Q samples m points, then "
              "K̃ = S·Q·K with S ∈ ℝ^{m×m}, eq. 12), not a reading of ours; Table 2's different cells for the two "
              "(segment 0.49 ± 0.01 against 0.42 ± 0.01) cannot come from that algorithm with any seeds, so they "
              "come from a computation the paper does not describe (an SRHT mixing all n coordinates before it "
              "samples is one; kktheory runs it as sketch.order=mix_first, not judged)")

# -- margins, spreads and selections, declared before the data -------------------------------
SIMILAR_MARGIN = Margin(
    0.08, "the largest difference to exact kernel k-means that the paper prints and calls "
          "'a similar accuracy' (§5.2)",
    "Yin Table 2, segment: Nyström (Ours) 0.42 ± 0.01 against kernel k-means 0.50 ± 0.02")
SIMILAR = SIMILAR_MARGIN.value
#: per-run accuracy sd used to plan every accuracy check (Fig. 1 prints none)
PLAN_SD = 0.02
PLAN_SD_SOURCE = ("sd 0.02 per run: Yin Table 2's typical stated sd (the proposed sketches' mean 0.016, "
                  "rounded up)")
PAPER_RUNS = 5  # "Each experiment is repeated 5 times" (§5)
#: Fig. 1's m grid as declared in experiments/yin_fig1.yaml (m_sqrt_n: m = ⌈f·√n⌉)
FIG1_GRID = (0.125, 0.25, 0.5, 1, 2, 4)


def _similar_design(effect: float = 0.0, sd: float = PLAN_SD, source: str = PLAN_SD_SOURCE,
                    runs: int = PAPER_RUNS) -> Design:
    """Welch difference of two arms of ``runs`` runs, true difference ``effect`` (the claim)
    or on the margin's edge (the null)."""
    null = -SIMILAR if effect <= 0 else SIMILAR
    return Design("welch", effect, null, (sd, sd), runs, source)


#: Prop. 1 is shown beside both Yin entries, not counted (declared on this date, after its rows
#: were seen; the referee: neither Fig. 1 nor Table 2 claims it, and eq. 6 is settled by algebra)
PROP1_CONTROL_DECLARED = "2026-11-28"
PROP1_SHOWN = (f"shown, not counted (declared {PROP1_CONTROL_DECLARED}, after its rows were seen): Prop. 1 (eq. 6) "
               "is a proposition of §2.2, and neither Fig. 1 nor Table 2 runs k-means on the kernel columns or claims "
               "it; as printed (the columns of K, not of K^½) it holds only where K is a projection, which algebra "
               "settles, not accuracies; shown to explain the sketches' distance to kernel k-means")

PROP1_RULE = Rule(
    f"target matches kernel k-means: {LABELS[TARGET]} − {LABELS['exact']}",
    "test accuracy of k-means on the kernel columns − that of exact kernel k-means, Welch over seeds",
    EQUIVALENT, SIMILAR_MARGIN,
    _similar_design(source=f"the paper's Prop. 1 (eq. 6): they are the same, effect 0; {PLAN_SD_SOURCE}; 5 repeats"),
    selection=f"both ignore m (one row per seed); {PROP1_SHOWN}", value_range=(-1.0, 1.0), control=True)

PROP1_FAILS = ("Yin Prop. 1: k-means on the kernel columns optimises the K² geometry ‖k_i − k_j‖², "
               "not kernel k-means — eq. (6) holds for the columns of K^½, not for those of K: scored on every "
               "partition of 12 points of the mixture into 3 clusters, the K columns' objective is another "
               "function, its minimum 13 % lower and its minimising partition not kernel k-means' "
               "(tests/test_prop1.py)")


def method_of(df: pd.DataFrame) -> pd.Series:
    """The paper's method of each row (the sketch name)."""
    return df[SKETCH_COL].astype(str)


def train_time(df: pd.DataFrame) -> pd.Series:
    """Training time in seconds: sketch + clustering."""
    return df["time_embed"].astype(float) + df["time_cluster"].astype(float)


def _with_method(df: pd.DataFrame) -> pd.DataFrame:
    out = ok_rows(df).copy()
    if out.empty:
        return out
    out["method"] = method_of(out)
    if {"time_embed", "time_cluster"} <= set(out.columns):
        out["train_time"] = train_time(out)
    return out


def _check(rule: Rule, est: Estimate, detail: str, level: float, name: str = "", fails: str = "",
           cause: str = "") -> Check:
    """``rule`` judged on ``est``; ``fails`` explains a failure (the cause's detail), ``cause``
    names it when it is not *claim fails*."""
    c = rule.check(est, detail, level=level, name=name)
    return c if c.passed is not False or not fails else rule.check(est, detail, cause=cause, cause_detail=fails,
                                                                   level=level, name=name)


# -- speed claims --------------------------------------------------------------------------
FASTER_WHY = "the paper states no factor: faster is a median ratio of times below 1"
TIMING_SD = 0.2
TIMING_SD_SOURCE = ("log-spread 0.2 of a per-round ratio: planning value for sub-second timings alternated in one "
                    "process on a shared 2-CPU machine")
TIMING_ROUNDS = 10  # the timing pass's rounds (python -m kktheory.timing, default)
#: a speed claim against Nyström (Liu) fails on our reading of the baseline, not on the claim:
#: Yin's Table 1 and Remark 3 give the method they timed O(nkt√(nk) + n²k) time, and ours —
#: uniform Nyström at m = √(nk), k-means on its features — has no n²k term (declared
#: 2026-11-28, after the failures were seen: the decisions are as they were, only their cause)
LIU_READING = ("our Nyström (Liu) is uniform Nyström at m = √(nk) without the n²k term of the time Yin's Table 1 "
               "and Remark 3 state for the method the paper timed, O(nkt√(nk) + n²k): the claim is against a "
               "costlier baseline than ours")


def _no_target(rule: Rule, name: str = "") -> Check:
    return Check(name or rule.name, None, "no row of k-means on the kernel columns (the Prop. 1 target): "
                                          "the sweep needs yin/method=kernel_columns",
                 cause=CAUSE_INCONCLUSIVE, cause_detail="target not run", rule=rule)


def _absent(rule: Rule, why: str) -> Check:
    return Check(rule.name, None, why, cause=CAUSE_INCONCLUSIVE, cause_detail="rows absent", rule=rule)
