"""Claim rules of Yin et al. (Fig. 1, Table 2): reproduced on the paper's own numbers (or its
stated shape), not reproduced where the claim clearly fails, inconclusive on noisy rows; the
two groups of checks (the sketch tracks its target; the target matches kernel k-means)."""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from kktheory.report import yin

from kktheory.report.entries import yin_fig1

from kktheory.report.entries import yin_table2
from kktheory.report.claims import PLATEAU
from kktheory.report.verdicts import (
    CAUSE_CLAIM, CAUSE_INCONCLUSIVE, CAUSE_READING, CAUSE_SETTING, CAUSE_STAND_IN, INCONCLUSIVE, NOT_REPRODUCED, NOT_RUN, REPRODUCED,
)
from kktheory.report.paper_numbers import PaperNumber, paper_table
from kktheory.reproduce import plan as reproduce_plan
from kktheory.reproduce import sweep as reproduce_sweep
from kktheory.run.config import build_spec
from kktheory.reproduce.committed import COMMITTED_ROWS
from tests.report_tables import failure

N = 2000
GRID = [math.ceil(f * math.sqrt(N)) for f in (0.125, 0.25, 0.5, 1, 2, 4)]  # 6 … 179; √n ≈ 44.7
#: Yin Table 2's accuracy sds are 0.01–0.04 (median 0.02); Fig. 1 prints none, so its rows use 0.02
FIG1_SD = 0.02
#: within-seed correlation of two methods' accuracies (+0.17 … +0.87 on the committed rows)
FIG1_RHO = 0.5


def pattern(runs: int, shift: int = 0) -> np.ndarray:
    """`runs` values with mean 0 and sample sd exactly 1 (a run's deviation, in sds)."""
    z = np.linspace(-1.0, 1.0, runs)
    z = np.roll(z / z.std(ddof=1), shift)
    return z


def seed_pattern(runs: int, cell: int, rho: float = FIG1_RHO) -> np.ndarray:
    """`runs` values with mean 0 and sample sd exactly 1 whose correlation with another cell's
    is about ``rho``: a seed's part shared by every cell plus the cell's own, both fixed draws."""
    def unit(x):
        return (x - x.mean()) / x.std(ddof=1)
    shared = unit(np.random.default_rng(0).standard_normal(runs))
    own = unit(np.random.default_rng(cell + 1).standard_normal(runs))
    return unit(math.sqrt(rho) * shared + math.sqrt(1 - rho) * own)


def fig1_table(acc, seeds=5, sd=FIG1_SD, exact_acc=0.80, target_acc=None,
               first_seed=yin_fig1.FRESH_FROM, k_acc=None) -> pd.DataFrame:
    """Rows of every Fig. 1 method: mean accuracy acc(method, m), per-run sd ``sd`` exactly, the
    runs of one seed correlated across methods and m (:func:`seed_pattern`: they share the
    seed's data, sketch and k-means streams), seeds from ``first_seed`` (by default the first
    the checks judge); kernel k-means and k-means on kernel columns (which ignore m) at m = √n;
    Nyström (Ours)'s rows are ROS's (the identity :data:`yin_fig1.IDENTITY`). The sweep at the
    other declared k (:data:`yin_fig1.OTHER_K`; kernel k-means and the proposed sketches at
    m = √n, at least the design's 6 seeds): accuracies ``k_acc(method, k)``, by default those
    at k = 10."""
    target_acc = exact_acc if target_acc is None else target_acc  # Prop. 1: the target is kernel k-means
    k_acc = k_acc or (lambda s, k: exact_acc if s == "exact" else acc(s, GRID[3]))
    cells = [("exact", 45, exact_acc, 10), ("kernel_columns", 45, target_acc, 10), ("nystrom_liu", 142, exact_acc, 10)]
    cells += [(s, m, acc(s, m), 10) for s in ("gaussian", "subgaussian", "ros") for m in GRID]
    cells += [(s, GRID[3], k_acc(s, k), k) for k in yin_fig1.OTHER_K for s in ("exact", "subgaussian", "ros")]
    out = []
    for i, (s, m, mean, k) in enumerate(cells):
        runs = seeds if k == 10 else max(seeds, 6)
        for seed, z in enumerate(seed_pattern(runs, i), start=first_seed):
            out += [{"sketch.name": name, "m": m, "seed": seed, "n": N, "n_test": N, "k": k,
                     "dataset.name": "yin_hypercube", "test_accuracy": mean + sd * z, "time_embed": 0.1,
                     "time_cluster": 0.1} for name in ((s, "yin_nystrom") if s == "ros" else (s,))]
    return pd.DataFrame(out)


def plateau(s, m, top=0.80):
    """The paper's shape: rising below √n, flat at the exact accuracy from √n on."""
    return top - 0.3 * max(0.0, 1 - m / math.sqrt(N))


def named(v, prefix):
    return [c for c in v.checks if c.name.startswith(prefix)]


def test_fig1_reproduced_on_the_papers_shape_with_its_repeats():
    v = yin_fig1.judge_fig1(fig1_table(plateau))
    assert v.status == REPRODUCED, v.text
    assert len(named(v, "close to kernel k-means:")) == 2  # Sub-Gaussian, and ROS ≡ Nyström (Ours) once
    assert len(named(v, "close to kernel k-means at k = ")) == 4 and all(c.passed for c in v.checks if c.counted)
    assert len(named(v, "tracks its target")) == 2 and len(named(v, "stable from √n")) == 2
    assert len(named(v, "target matches kernel k-means")) == 1
    (identity,) = named(v, "ROS = Nyström (Ours), run by run")
    assert identity.sanity and identity.passed and "over the 30 (m, seed) both ran" in identity.detail
    assert all(c.rule is not None and c.rule in yin_fig1.FIG1.rules for c in v.checks)


def test_fig1_declared_rules_have_power_and_size():
    for rule in yin_fig1.FIG1.rules:
        if rule.sanity:
            continue
        assert rule.design is not None
        assert rule.power(reps=200) >= 0.8, rule.name
        assert rule.design.kind == "median" or rule.size(reps=200) <= 0.05, rule.name


def test_fig1_stable_has_its_own_two_sided_margin():
    (_, _, stable) = yin_fig1.FIG1_RULES["subgaussian"]
    assert stable.shape == PLATEAU and stable.margin.value == 0.04 and "Table 2" in stable.margin.source
    assert stable.margin is not yin.SIMILAR_MARGIN


def test_fig1_selection_is_the_declared_grid_not_the_rows():
    """m₀ = ⌈√n⌉ and m₁ = ⌈4√n⌉ from the config's grid; a row at another m is ignored."""
    df = fig1_table(plateau)
    extra = df[df["sketch.name"].isin(yin_fig1.ISOMETRIC) & (df["m"] == GRID[-1])].assign(m=1000, test_accuracy=0.1)
    v = yin_fig1.judge_fig1(pd.concat([df, extra], ignore_index=True))
    assert v.status == REPRODUCED and "m = 179" in named(v, "stable from √n: ROS")[0].detail


def test_fig1_target_far_from_kernel_kmeans_fails_prop1_and_closeness_not_tracking():
    """What kktheory measures at n = 10,000: the sketches track k-means on the kernel
    columns (≈ 0.53) while that target is well below exact kernel k-means (0.56 vs 0.71)."""
    v = yin_fig1.judge_fig1(fig1_table(lambda s, m: plateau(s, m, top=0.55), exact_acc=0.71, target_acc=0.55))
    assert v.status == NOT_REPRODUCED
    assert all(c.passed for c in named(v, "tracks its target"))
    assert all(c.passed is False for c in named(v, "close to kernel k-means"))
    (match,) = named(v, "target matches kernel k-means")
    assert match.passed is False and match.cause == CAUSE_CLAIM and "Prop. 1" in match.cause_detail
    # shown, not counted: Fig. 1 plots neither the kernel columns nor Prop. 1 (counted once, in yin_table2)
    assert not match.counted and "neither Fig. 1 nor Table 2 runs k-means on the kernel columns" in match.rule.selection
    assert match.name not in v.why


def test_fig1_a_closeness_failure_only_at_our_k_is_the_settings():
    """§5.1 does not state k: "close to kernel k-means" failing at k = 10 while the same check
    passes at k = 2 (declared before its rows) is our choice of k (*reading*: k unstated), never the paper's;
    failing at every declared k it is the claim's."""
    low = lambda s, m: plateau(s, m, top=0.64)  # noqa: E731 — the committed rows' gap at k = 10
    only_ours = yin_fig1.judge_fig1(fig1_table(low, k_acc=lambda s, k: 0.80 if (s == "exact" or k == 2) else 0.64))
    close = named(only_ours, "close to kernel k-means:")
    assert all(c.passed is False and c.cause == CAUSE_READING and "at k = 2 the same check passes" in c.cause_detail
               and c.cause_detail.startswith("k unstated") for c in close)
    assert [c.passed for c in named(only_ours, "close to kernel k-means at k = 2")] == [True, True]
    assert all(c.passed is False and c.cause == CAUSE_READING and "k = 5 is our reading" in c.cause_detail
               for c in named(only_ours, "close to kernel k-means at k = 5"))  # fails too, but passes at k = 2
    assert not any("grows with k" in c.cause_detail for c in close)  # the same gap at k = 5 and 10
    widening = yin_fig1.judge_fig1(fig1_table(low, k_acc=lambda s, k: 0.80 if (s == "exact" or k == 2) else 0.72))
    assert all("the gap grows with k" in c.cause_detail and "holds at k = 2, not at k = 10" in c.cause_detail
               for c in named(widening, "close to kernel k-means:"))  # the cause says how the gap moves with k
    everywhere = yin_fig1.judge_fig1(fig1_table(low))
    assert all(c.passed is False and c.cause == CAUSE_CLAIM for c in named(everywhere, "close to kernel k-means"))
    no_k = yin_fig1.judge_fig1(fig1_table(low).query("k == 10"))  # the k sweep not run: the failure stands
    assert all(c.cause == CAUSE_CLAIM for c in named(no_k, "close to kernel k-means:"))
    assert all(c.passed is None and "no rows at k = " in c.detail for c in named(no_k, "close to kernel k-means at"))


def test_fig1_sketch_off_its_target_fails_tracking():
    v = yin_fig1.judge_fig1(fig1_table(lambda s, m: plateau(s, m, top=0.62)))
    assert v.status == NOT_REPRODUCED
    assert all(c.passed is False for c in named(v, "tracks its target"))
    assert named(v, "target matches kernel k-means")[0].passed


def test_fig1_fails_when_accuracy_keeps_rising_past_sqrt_n():
    def rising(s, m):
        return 0.55 + 0.1 * math.log2(m / math.sqrt(N) * 8)  # +0.2 from √n to 4√n

    v = yin_fig1.judge_fig1(fig1_table(rising, exact_acc=0.85, target_acc=0.85))
    assert v.status == NOT_REPRODUCED
    assert all(c.passed is False for c in named(v, "stable from √n"))


def test_fig1_a_fall_is_not_stable():
    def falling(s, m):
        return plateau(s, m) - (0.2 if m >= GRID[-1] else 0.0)

    v = yin_fig1.judge_fig1(fig1_table(falling))
    assert all(c.passed is False for c in named(v, "stable from √n"))


def test_fig1_too_noisy_is_inconclusive_with_the_runs_that_would_decide():
    v = yin_fig1.judge_fig1(fig1_table(plateau, seeds=3, sd=0.1))
    assert v.status == INCONCLUSIVE, v.text
    undecided = [c for c in v.checks if c.passed is None]
    assert undecided and all(c.cause == CAUSE_INCONCLUSIVE for c in undecided)
    assert all(c.runs_needed and c.runs_needed > 3 for c in undecided)


def test_fig1_without_target_rows_leaves_both_groups_undecided():
    """Without the target's rows the checks against it are undecided; they are controls (Fig. 1
    claims neither "tracks its target" nor Prop. 1), so the verdict rests on the others."""
    df = fig1_table(plateau)
    v = yin_fig1.judge_fig1(df[df["sketch.name"] != "kernel_columns"])
    assert v.status == yin_fig1.judge_fig1(df).status
    for c in named(v, "tracks its target") + named(v, "target matches"):
        assert c.passed is None and "kernel_columns" in c.detail and not c.counted


def test_fig1_ros_and_nystrom_ours_are_one_arm_and_their_identity_a_sanity_check():
    """One check per claim for ROS ≡ Nyström (Ours), its text stating the identity; judged on
    Nyström (Ours)'s rows when ROS did not run; rows that break the identity fail the sanity
    check (shown with a warning, not counted)."""
    close = yin_fig1.FIG1_RULES["ros"][0]
    assert close.name == "close to kernel k-means: ROS ≡ Nyström (Ours) (m = √n) − kernel k-means"
    assert "orthogonal" in close.quantity and "equal run by run" in close.quantity
    assert set(yin_fig1.FIG1_RULES) == {"subgaussian", "ros"} and yin_fig1.IDENTITY_RULE.sanity
    df = fig1_table(plateau)
    alone = yin_fig1.judge_fig1(df[df["sketch.name"] != "ros"])
    (c,) = named(alone, "close to kernel k-means: ROS ≡ Nyström (Ours)")
    assert c.passed and "rows of Nyström (Ours)" in c.detail and not named(alone, "ROS = Nyström (Ours)")
    broken = df.copy()
    broken.loc[broken["sketch.name"] == "yin_nystrom", "test_accuracy"] -= 0.01
    v = yin_fig1.judge_fig1(broken)
    (identity,) = named(v, "ROS = Nyström (Ours), run by run")
    assert identity.passed is False and not identity.counted and "sanity check(s) failed" in v.observed
    assert v.status == REPRODUCED  # judged on ROS's rows; the sanity failure is shown, not counted


def test_fig1_ros_and_nystrom_ours_rows_are_equal_through_the_pipeline(tmp_path):
    """The identity behind the one arm, on a tiny run of the entry's own sweep (yin_fig1_small,
    n = 200): ROS and Nyström (Ours) give the same partition run by run, so every score is
    equal; each seed's rows record its own data draw (data_seed = seed)."""
    job = ["n=200", "n_test=200", "yin/method=exact,ros,yin_nystrom", "m_sqrt_n=x1,x2", "seed=10,11"]
    rows = reproduce_sweep.run_sweep("yin_fig1_small", tmp_path, job, log=lambda _: None).rows
    assert len(rows) == 10 and (rows["data_seed"] == rows["seed"]).all()  # exact once per seed (no m)
    ros, ours = (rows[rows["sketch.name"] == s].set_index(["m", "seed"]).sort_index() for s in yin_fig1.ISOMETRIC)
    assert list(ros.index) == list(ours.index) and len(ros) == 4
    for col in ("test_accuracy", "train_accuracy", "train_nmi", "test_nmi", "objective", "train_risk", "test_risk"):
        assert np.allclose(ros[col], ours[col], rtol=1e-9, atol=1e-12), col
    (identity,) = named(yin_fig1.judge_fig1(rows), "ROS = Nyström (Ours), run by run")
    assert identity.passed and "over the 4 (m, seed) both ran" in identity.detail


def test_fig1_sweep_draws_the_data_of_each_repeat():
    """Yin §5.1 generates its samples for each repeat: the paper-scale sweep's seeds 10–14 (the
    first the checks judge) each draw their own data."""
    plan = reproduce_plan.plan_sweep("yin_fig1", Path(tempfile.mkdtemp()), ["yin/method=exact", "m_sqrt_n=x1"])
    specs = [build_spec(cfg) for cfg in plan.composed]
    assert [(s.seed, s.data_seed) for s in specs] == [(seed, seed) for seed in range(10, 15)]


def test_fig1_accuracy_checks_read_only_the_seeds_after_their_declaration():
    """Declared 2026-11-27 (one data draw per seed, one ROS ≡ Nyström (Ours) arm): seeds 0–9 of
    one draw are shown, never judged — here they break every claim — and alone they leave every
    accuracy check waiting for the seeds its design asks."""
    paired = [r for r in yin_fig1.FIG1.rules if r.counted and r.design.kind == "paired"]
    accuracy = [r for r in paired if not r.sweep]
    assert len(accuracy) == 4 and all(r.fresh_from == 10 and r.declared == "2026-11-27" for r in paired)
    assert all("draws its own data" in r.selection for r in accuracy)
    assert {r.sweep for r in paired if r not in accuracy} == {yin_fig1.K_SWEEP} and len(paired) == 8
    seen = fig1_table(lambda s, m: 0.3 + 0.001 * m, exact_acc=0.9, target_acc=0.5, first_seed=0)
    alone = yin_fig1.judge_fig1(seen)
    assert alone.status == INCONCLUSIVE
    waiting = [c for c in alone.checks if c.counted and c.rule in accuracy]
    assert len(waiting) == 4 and all(c.passed is None and "no runs after the declaration" in c.detail for c in waiting)
    assert sorted(c.runs_needed for c in waiting) == [5, 5, 6, 20]
    assert all(c.passed is None and "no rows at k = " in c.detail for c in alone.checks if c.rule and c.rule.sweep)
    v = yin_fig1.judge_fig1(pd.concat([seen, fig1_table(plateau)], ignore_index=True))
    assert v.status == REPRODUCED, v.text
    assert all("seen before the declaration (2026-11-27), not judged: 5 seeds 0–4" in c.detail
               for c in v.checks if c.counted and c.rule in accuracy)


def test_fig1_not_run_without_exact_rows():
    df = fig1_table(plateau)
    assert yin_fig1.judge_fig1(df[df["sketch.name"] != "exact"]).status == NOT_RUN


def test_fig1_not_run_when_accuracy_is_missing():
    assert yin_fig1.judge_fig1(fig1_table(plateau).drop(columns=["test_accuracy"])).status == NOT_RUN


# -- Table 2 -----------------------------------------------------------------------------
#: Yin et al. 2022, Table 2 as printed: (time, accuracy, sd) per data set for kernel k-means,
#: Gaussian, Nyström (Liu), Sub-Gaussian, ROS, Nyström (Ours); None for "/"
PAPER = {
    "dna": [(0.16, .50, .01), (0.12, .49, .02), (0.09, .50, .02), (0.06, .49, .01), (0.07, .50, .01), (0.04, .50, .01)],
    "segment": [(0.13, .50, .02), (0.09, .45, .03), (0.05, .43, .01), (0.03, .47, .03), (0.03, .49, .01), (0.02, .42, .01)],
    "mushrooms": [(0.56, .64, .01), (0.32, .63, .02), (0.11, .61, .01), (0.04, .63, .01), (0.04, .62, .02), (0.03, .60, .01)],
    "pendigits": [(0.61, .11, .01), (0.34, .11, .01), (0.21, .10, .02), (0.14, .11, .01), (0.16, .11, .01), (0.03, .11, .02)],
    "protein": [(5.07, .46, .01), (3.16, .44, .03), (1.09, .45, .02), (0.16, .45, .01), (0.21, .46, .01), (0.03, .44, .02)],
    "a8a": [(6.47, .75, .01), (3.21, .73, .03), (1.12, .73, .02), (0.11, .74, .01), (0.12, .74, .02), (0.03, .73, .02)],
    "w7a": [(29.7, .97, .02), (15.3, .95, .02), (1.36, .96, .01), (0.30, .94, .02), (0.36, .95, .01), (0.03, .97, .01)],
    "connect4": [(0.28, .61, .01), (0.22, .60, .03), (0.11, .59, .02), (0.05, .59, .01), (0.06, .60, .02), (0.03, .58, .02)],
    "covtype": [None, None, None, (1.02, .32, .02), (1.36, .33, .04), (0.66, .32, .03)],
}
METHODS = ("exact", "gaussian", "nystrom_liu", "subgaussian", "ros", "yin_nystrom")


#: seeds per cell of the rows built from Table 2: the most a counted design asks for
TABLE2_RUNS = max(r.design.runs for r in yin_table2.TABLE2.rules if r.counted and r.design is not None)


def orthogonal_patterns(runs: int, cells: int) -> list[np.ndarray]:
    """``cells`` deviations of ``runs`` values, each with mean 0 and sample sd exactly 1 and,
    when runs − 1 ≥ cells, orthogonal to each other: the cells of one seed uncorrelated
    (Table 2 prints sds per method, no pairing), so a per-seed difference has the sd of
    independent arms exactly; with fewer runs, fixed independent draws (distinct from 3 runs)."""
    if runs < 2:
        return [np.zeros(runs)] * cells
    rng = np.random.default_rng(0)
    if runs - 1 < cells:
        draws = [rng.standard_normal(runs) for _ in range(cells)]
        return [(x - x.mean()) / x.std(ddof=1) for x in draws]
    q, _ = np.linalg.qr(np.column_stack([np.ones(runs), rng.standard_normal((runs, runs - 1))]))
    basis = q[:, 1:] * math.sqrt(runs - 1)  # zero mean (orthogonal to the ones), sample sd 1
    return [basis[:, i] for i in range(cells)]


def table_from(numbers: dict, runs: int | None = None, target: dict | None = None,
               first_seed: int = yin_table2.FRESH_FROM) -> pd.DataFrame:
    """``runs`` runs per cell (default :data:`TABLE2_RUNS`) whose mean and sample sd are exactly
    the given ones, seeds from ``first_seed`` (default: the first seed the re-declared checks
    judge), the cells of a seed uncorrelated (:func:`orthogonal_patterns`); a "/" cell is a job
    refused by the memory budget. The target (k-means on kernel columns) gets ``target[ds]`` =
    (accuracy, sd), by default kernel k-means' own numbers — what the paper's Prop. 1 asserts
    (the paper has no column for it)."""
    runs = TABLE2_RUNS if runs is None else runs
    out = []
    for ds, cells in numbers.items():
        cells = dict(zip(METHODS, cells))
        t = (target or {}).get(ds) or (cells["exact"] and cells["exact"][1:])
        if t:
            cells["kernel_columns"] = (1.0, *t)
        patterns = orthogonal_patterns(runs, len(cells))
        for i, (meth, cell) in enumerate(cells.items()):
            base = {"dataset.name": ds, "sketch.name": meth, "n": 1400, "n_test": 600, "k": yin_table2.DATASETS[ds][1]}
            if cell is None:
                out.append(failure(**base, seed=first_seed, error_kind="MemoryBudgetError",
                                   error="memory: K needs 1 TiB"))
                continue
            time_s, acc, sd = cell
            for seed, z in zip(range(first_seed, first_seed + runs), patterns[i]):
                out.append({**base, "seed": seed, "time_embed": time_s, "time_cluster": 0.0,
                            "test_accuracy": acc + sd * z})
    return pd.DataFrame(out)


def test_module_holds_the_papers_table_as_printed():
    assert {ds: [None if c is None else tuple(c) for c in cells] for ds, cells in PAPER.items()} == \
        {ds: list(cells) for ds, cells in yin_table2.PAPER_TABLE2.items()}
    nums = {p.key: p for p in yin_table2.TABLE2.paper_numbers}
    assert len([k for k in nums if k.endswith("/accuracy")]) == 8 * 6 + 3
    assert nums["segment/yin_nystrom/accuracy"].value == 0.42 and nums["dna/exact/time"].value == 0.16
    assert nums["dna/exact/accuracy"].beside == ("dna/majority", "dna/chance")
    assert all(p.source == "Table 2" for p in nums.values())


def test_table2_reproduced_on_the_papers_own_table_with_its_repeats():
    """Runs per cell with the printed mean and sd, at the seeds the re-declared checks judge;
    the largest difference, segment / Nyström (Ours) 0.42 vs 0.50, passes inside ±0.10."""
    v = yin_table2.judge_table2(table_from(PAPER))
    assert v.status == REPRODUCED, v.text
    assert len(named(v, "tracks its target")) == 3 * 4 and len(named(v, "target matches")) == 8  # covtype has none
    assert len(named(v, "close to kernel k-means")) == 3 * 8  # every data set with a kernel k-means value
    (ours,) = named(v, "close to kernel k-means: Nyström (Ours) − kernel k-means [segment]")
    assert ours.passed and ours.detail.startswith("-0.08 [") and f"paired over {TABLE2_RUNS} seed(s)" in ours.detail
    assert all(c.rule is not None and c.rule in yin_table2.TABLE2.rules for c in v.checks)


def test_table2_declared_rules_have_power_and_size():
    for rule in yin_table2.TABLE2.rules:
        if rule.design is not None and not rule.sanity:
            assert rule.power(reps=200) >= 0.8, rule.name
            # the median designs' size waits on decide.Estimate.tail (it takes the interval's lower
            # half for an "at most" test: size 0.06–0.1 where the order statistics give 0.02)
            assert rule.design.kind == "median" or rule.size(reps=200) <= 0.05, rule.name


def test_table2_sketches_far_from_kernel_kmeans_fail_closeness():
    """kktheory's table: kernel k-means 0.78 on dna, 0.67 on segment, the sketches 0.57 / 0.55."""
    numbers = {ds: [PAPER[ds][0]] + list(PAPER[ds][1:]) for ds in ("dna", "segment")}
    numbers["dna"][0] = (0.07, 0.78, 0.02)
    numbers["segment"][0] = (0.09, 0.67, 0.01)
    target = {"dna": (0.57, 0.01), "segment": (0.50, 0.01)}
    v = yin_table2.judge_table2(table_from(numbers, target=target))
    assert all(c.passed is False for c in named(v, "close to kernel k-means")), v.text


def test_table2_setting_check_compares_the_baselines_with_the_paper():
    assert yin_table2.setting_table2(table_from(PAPER)).startswith("setting matches:")
    numbers = {"dna": list(PAPER["dna"])}
    numbers["dna"][0] = (0.07, 0.775, 0.02)
    text = yin_table2.setting_table2(table_from(numbers))
    assert text.startswith("setting differs:") and "dna differs" in text and "0.775 vs 0.50 ± 0.02" in text
    assert "no reading reproduces" in text


def test_table2_speed_claims_are_one_per_pair_with_the_control_apart():
    claims = yin_table2.TABLE2_TIMING.claims
    counted = [c for c in claims if c.rule.counted]
    assert len(counted) == 6 and all(len(c.fast) == 1 and len(c.slow) == 1 for c in counted)
    controls = [c for c in claims if c.rule.control and not c.rule.sanity]
    assert {c.slow for c in controls} == {("nystrom_liu_m150",)} and "nystrom_liu_m150" in yin_table2.TABLE2_TIMING.methods


def test_table2_target_off_kernel_kmeans_fails_the_second_group_only():
    """kktheory's dna at n = 1400: kernel k-means 0.78, the target and the sketches 0.56–0.60."""
    drop = {ds: (cells[0][1] - 0.2, 0.02) for ds, cells in PAPER.items() if cells[0]}
    sketches = {ds: [c if i < 3 or c is None else (c[0], drop.get(ds, (c[1],))[0], c[2]) for i, c in enumerate(cells)]
                for ds, cells in PAPER.items()}
    v = yin_table2.judge_table2(table_from(sketches, target=drop))
    assert v.status == NOT_REPRODUCED
    assert all(c.passed for c in named(v, "tracks its target"))
    match = named(v, "target matches kernel k-means")
    assert len(match) == 8 and all(c.passed is False and "Prop. 1" in c.cause_detail for c in match)


def test_table2_target_is_checked_on_every_data_set():
    """One data set whose target is far from kernel k-means fails, whatever the others."""
    v = yin_table2.judge_table2(table_from(PAPER, target={"dna": (0.30, 0.01)}))
    assert v.status == NOT_REPRODUCED
    assert [c.name.split("[")[1] for c in named(v, "target matches") if c.passed is False] == ["dna]"]
    assert not any(c.counted for c in named(v, "target matches"))  # shown: neither Fig. 1 nor Table 2 claims it


def test_table2_sketches_off_their_target_fail_the_first_group():
    worse = {ds: [c if i < 3 or c is None else (c[0], c[1] - 0.15, c[2]) for i, c in enumerate(cells)]
             for ds, cells in PAPER.items()}
    v = yin_table2.judge_table2(table_from(worse))
    assert v.status == NOT_REPRODUCED
    assert all(c.passed is False for c in named(v, "tracks its target"))
    assert all(c.passed for c in named(v, "target matches"))


def test_table2_too_noisy_is_inconclusive():
    noisy = {ds: [None if c is None else (c[0], c[1] + (0.05 if i >= 3 else 0), 0.2) for i, c in enumerate(cells)]
             for ds, cells in list(PAPER.items())[:3]}
    v = yin_table2.judge_table2(table_from(noisy, runs=3))  # 2 runs: a cell's deviations are ±1 alike
    assert v.status == INCONCLUSIVE, v.text
    assert all(c.passed is None for c in v.checks)


def test_table2_missing_data_sets_are_a_stated_limitation_not_a_check():
    """The paper's sets whose files are not on this machine leave no check (no "?" line): the
    observed text says how many of the 9 sets the verdict covers, the Scale text names the four
    and the command that runs them where their files are."""
    df = table_from({ds: PAPER[ds] for ds in yin_table2.SEEN})
    extra = [failure(**{"dataset.name": ds, "sketch.name": s, "seed": 0},
                     error=f"data error: {ds}: expected ../shared/datasets/libsvm/{ds}")
             for ds in ("protein", "covtype") for s in METHODS]  # w7a, connect4: no row at all
    v = yin_table2.judge_table2(pd.concat([df, pd.DataFrame(extra)], ignore_index=True))
    assert v.status == REPRODUCED, v.text
    assert all(c.passed is not None for c in v.checks), v.text  # no "?" line
    assert not named(v, "data sets of the paper run")
    assert v.observed.startswith("covers 5 of the paper's 9 sets (dna, segment, mushrooms, pendigits, a8a); not run "
                                 "here: protein, w7a, connect4, covtype: files not on this machine, a stated "
                                 "limitation, not a check")
    assert not any(r.name.startswith("data sets of the paper") for r in yin_table2.TABLE2.rules)
    scale = yin_table2.TABLE2.changes["paper"]
    assert "covers 5 of the paper's 9 sets" in scale and yin_table2.TABLE2.label["paper"].startswith("covers 5 of")
    for ds, files in (("protein", "protein and protein.t"), ("w7a", "w7a and w7a.t"), ("connect4", "connect-4"),
                      ("covtype", "covtype.scale")):
        assert ds in scale and files in scale
    assert ("KKTHEORY_DATA=<folder> python -m kktheory.reproduce yin_table2 --scale paper "
            "yin_table2/data=protein,w7a,connect4,covtype") in scale


def test_table2_cutoff_memory_and_missing_data_in_the_table(tmp_path):
    df = table_from({"dna": PAPER["dna"]})
    df.loc[df["sketch.name"] == "exact", "time_cluster"] = 120.0  # above the 90 s cut-off
    df = df[df["sketch.name"] != "gaussian"]  # refused by the memory budget instead
    extra = [failure(**{"dataset.name": "dna", "sketch.name": "gaussian", "seed": 0},
                     error_kind="MemoryBudgetError", error="memory: K needs 40 GiB")]
    extra += [failure(**{"dataset.name": "covtype", "sketch.name": s, "seed": 0},
                      error="data error: covtype: expected ../shared/datasets/libsvm/covtype")
              for s in yin.ORDER]
    df = pd.concat([df, pd.DataFrame(extra)], ignore_index=True)
    cells = yin_table2.table2_cells(df)
    status = dict(zip(zip(cells["dataset"], cells["method"]), cells["status"]))
    assert status[("dna", "exact")] == "cutoff"
    assert status[("dna", "gaussian")] == "memory"
    assert status[("covtype", "ros")] == "missing"
    md, tex = yin_table2.draw_table2(df, tmp_path)
    text = md.read_text()
    dna_line = next(line for line in text.splitlines() if line.startswith("| dna"))
    assert dna_line.count("—") == 4 + 1  # exact and Gaussian: time and accuracy; rows without test_majority
    assert "| 0.333 |" in dna_line  # 1/k from the rows' k (k = 3)
    assert "covtype: data error: covtype: expected" in text
    assert r"\begin{tabular}" in tex.read_text() and "—" in tex.read_text()


def test_majority_and_chance_rates_come_from_each_draws_test_labels(tmp_path):
    """Each run stores the share of the largest class of its test labels and their number;
    label_rates reads them once per data draw (nothing is reloaded). The rate is recomputed
    here from the test labels of a draw made directly."""
    from kktheory.run.config import build_spec
    from kktheory.run.experiment import load_data, run
    from kktheory.run.store import load
    from tests.hydra_cfg import make_cfg

    expected = []
    for seed in (0, 1):  # data_seed follows seed: two draws
        for s in ("exact", "yin_nystrom"):  # two methods on one draw: counted once
            cfg = make_cfg("dataset=digits", "n=300", "n_test=200", "k=10", f"seed={seed}", f"sketch={s}", "m=16",
                           "reference=none", f"results_dir={tmp_path}")
            run(cfg)
        y = np.asarray(load_data(build_spec(cfg)).y_test)
        expected.append(np.bincount(y).max() / len(y))
    rows = load(tmp_path)
    assert len(rows) == 4 and (rows["test_classes"] == 10).all()
    rates = yin_table2.label_rates(rows)
    assert len(rates) == 2 and sorted(rates["majority"]) == pytest.approx(sorted(expected))
    obs = yin_table2.observe_table2(rows)
    assert obs["digits/majority"].value == pytest.approx(np.mean(expected))
    assert obs["digits/chance"].value == pytest.approx(0.1) and obs["digits/classes"].value == 10
    old = yin_table2.observe_table2(rows.drop(columns=["test_majority", "test_classes"]))  # rows of before: chance only
    assert "digits/majority" not in old and old["digits/chance"].value == pytest.approx(0.1)
    table = paper_table([PaperNumber("digits accuracy", 0.11, "Table 2", "digits/ros/accuracy",
                                         ("digits/majority", "digits/chance"))], obs)
    assert f"majority {np.mean(expected):.3g}, chance 0.1 |" in table


# -- Table 2: per data set, re-declared 2026-11-27 (judged on fresh seeds) ----------------
def _counted_accuracy(v):
    return [c for c in v.checks if c.counted and c.rule is not None and c.rule.design is not None
            and c.rule.design.kind != "median"]  # every counted check but the speed claims


def test_table2_papers_own_numbers_pass_every_counted_accuracy_check():
    """Rows built from Table 2's printed means and sds (the module's PAPER_TABLE2), the cells of
    a seed uncorrelated, at the most seeds a counted design asks for: every counted accuracy
    check passes — close to kernel k-means on each (sketch, data set) with a kernel k-means
    value and tracks its target; Prop. 1, shown, passes too (the target taken as kernel k-means,
    as Prop. 1 says)."""
    numbers = {ds: list(cells) for ds, cells in yin_table2.PAPER_TABLE2.items()}
    v = yin_table2.judge_table2(table_from(numbers))
    counted = _counted_accuracy(v)
    assert len(counted) == 3 * 6 + 3 * 3  # close: 6 counted sets; tracks: dna, segment, pendigits (Prop. 1 shown)
    assert all(c.passed and not c.counted for c in named(v, "target matches"))
    assert all(c.passed for c in counted), "\n".join(f"{c.name}: {c.detail}" for c in counted if not c.passed)
    assert v.status == REPRODUCED


def test_table2_a_sketch_clearly_below_kernel_kmeans_fails_on_its_data_set():
    """A method 0.2 below kernel k-means on one data set fails that data set's check — which
    the average over the data sets (the check before the re-declaration) did not: −0.2 among
    eight gaps near 0 averages inside ±0.08."""
    numbers = {ds: list(cells) for ds, cells in yin_table2.PAPER_TABLE2.items()}
    t, acc, sd = numbers["dna"][3]
    numbers["dna"][3] = (t, numbers["dna"][0][1] - 0.2, sd)  # Sub-Gaussian 0.30 against kernel k-means 0.50
    v = yin_table2.judge_table2(table_from(numbers))
    assert v.status == NOT_REPRODUCED
    (c,) = named(v, "close to kernel k-means: Sub-Gaussian − kernel k-means [dna]")
    assert c.passed is False and c.cause == CAUSE_CLAIM and "similar accuracy" in c.cause_detail
    assert [x.name for x in _counted_accuracy(v) if x.passed is False] == [c.name, named(
        v, "tracks its target: Sub-Gaussian − k-means on kernel columns [dna]")[0].name]
    gaps = [numbers[ds][3][1] - numbers[ds][0][1] for ds in yin_table2.CLOSE_DATASETS]
    assert abs(np.mean(gaps)) < yin.SIMILAR  # what the average would have passed


def test_table2_closeness_failing_against_a_kernel_kmeans_the_paper_does_not_reach_is_the_settings():
    """"Close to kernel k-means" is relative to kernel k-means: where kernel k-means' accuracy
    here lies outside the setting check's tolerance of Table 2's (twice its printed sd), a
    failure is attributed to the setting, not the paper — the entry is inconclusive on it,
    the failure shown with both accuracies. Where kernel k-means is the paper's, the same
    failure is the claim's."""
    numbers = {ds: list(cells) for ds, cells in yin_table2.PAPER_TABLE2.items()}
    t, acc, sd = numbers["dna"][0]
    numbers["dna"][0] = (t, acc + 0.25, sd)  # kernel k-means 0.75 against Table 2's 0.50 ± 0.01
    v = yin_table2.judge_table2(table_from(numbers))
    (c,) = named(v, "close to kernel k-means: Sub-Gaussian − kernel k-means [dna]")
    assert c.passed is False and c.cause == CAUSE_SETTING and "kernel k-means 0.750 here vs 0.50 ± 0.02" in c.cause_detail
    assert yin_table2.setting_table2(table_from(numbers)).startswith("setting differs")
    assert v.status != NOT_REPRODUCED or any(x.cause == CAUSE_CLAIM for x in v.checks if x.counted and x.passed is False)
    assert not any(x.cause == CAUSE_CLAIM for x in named(v, "close to kernel k-means") if x.passed is False)
    # a sketch as far above the paper's kernel k-means: close to ours, and the pass is in our setting only
    numbers["dna"][3] = (numbers["dna"][3][0], acc + 0.25, numbers["dna"][3][2])
    (c,) = named(yin_table2.judge_table2(table_from(numbers)), "close to kernel k-means: Sub-Gaussian − kernel k-means [dna]")
    assert c.passed and c.qualified and c.cause == CAUSE_SETTING and "a pass holds in our setting only" in c.why


def test_table2_uninformative_data_sets_are_controls_shown_not_counted():
    """a8a (kernel k-means below its majority rate) and mushrooms (every method tied) cannot tell
    close from uninformative: their checks are shown, and a failure there does not count."""
    for (ds, _), rule in {**yin_table2.CLOSE_RULES, **yin_table2.TRACKS_RULES}.items():
        assert rule.control is (ds in ("a8a", "mushrooms")) and (rule.design is None) is rule.control, rule.name
    numbers = {ds: list(PAPER[ds]) for ds in yin_table2.SEEN}
    t, acc, sd = numbers["mushrooms"][5]
    numbers["mushrooms"][5] = (t, acc - 0.3, sd)
    v = yin_table2.judge_table2(table_from(numbers))
    (c,) = named(v, "close to kernel k-means: Nyström (Ours) − kernel k-means [mushrooms]")
    assert c.passed is False and not c.counted and c.mark == "control ✗" and "every method ties" in c.detail
    assert v.status == REPRODUCED


def test_table2_redeclared_checks_judge_only_seeds_after_the_declaration():
    """The re-declared checks read only seeds ≥ FRESH_FROM (Rule.fresh): the seeds seen before
    are shown, not judged; with none after, the check waits, naming the design's seed count.
    Checks declared before any row of their data set, and the controls, read every seed."""
    assert yin_table2.FRESH_FROM == 10 and yin_table2.DECLARED == "2026-11-27"
    rule = yin_table2.CLOSE_RULES[("dna", "ros")]
    assert rule.fresh_from == 10 and rule.declared == "2026-11-27" and "seeds ≥ 10" in rule.table_row(None, power=False)
    assert yin_table2.CLOSE_RULES[("protein", "ros")].fresh_from is None
    assert yin_table2.CLOSE_RULES[("a8a", "ros")].fresh_from is None
    assert {ds for (ds, _), r in yin_table2.CLOSE_RULES.items() if r.fresh_from == 10} == {"dna", "segment", "pendigits"}
    bad = {ds: list(PAPER[ds]) for ds in ("dna", "protein")}
    for ds in bad:  # every sketch 0.2 below kernel k-means on the seeds seen before the declaration
        bad[ds] = [c if i < 3 else (c[0], c[1] - 0.2, c[2]) for i, c in enumerate(bad[ds])]
    seen = table_from(bad, runs=5, first_seed=0)
    v = yin_table2.judge_table2(seen)
    (dna,) = named(v, "close to kernel k-means: ROS − kernel k-means [dna]")
    assert dna.passed is None and dna.runs_needed == rule.design.runs and "no runs after the declaration" in dna.detail
    assert "seen before it, not judged: seeds 0–4, mean -0.200" in dna.detail
    (protein,) = named(v, "close to kernel k-means: ROS − kernel k-means [protein]")  # never seen: every seed counts
    assert protein.passed is False
    fresh = table_from({ds: PAPER[ds] for ds in ("dna", "protein")})
    v = yin_table2.judge_table2(pd.concat([seen[seen["dataset.name"] == "dna"], fresh], ignore_index=True))
    (dna,) = named(v, "close to kernel k-means: ROS − kernel k-means [dna]")
    assert dna.passed and f"paired over {TABLE2_RUNS} seed(s) 10–{9 + TABLE2_RUNS}" in dna.detail
    assert "seen before it, not judged: seeds 0–4, mean -0.200" in dna.detail
    assert len(rule.fresh(seen)) == 0 and set(rule.fresh(fresh)["seed"]) == set(range(10, 10 + TABLE2_RUNS))
    assert v.observed.count(f"judge seeds ≥ 10 only: {TABLE2_RUNS} so far (10–{9 + TABLE2_RUNS})") == 1


def test_table2_ros_and_nystrom_ours_are_one_check_where_their_rows_are_equal():
    """ROS ≡ Nyström (Ours) (:data:`kktheory.report.yin.IDENTITY`): where their rows on a data
    set are equal seed by seed, each group has one check for both, standing for both declared
    rules (Holm counts each), as decided as either alone; rows that differ keep two checks. The
    committed rows are equal on every (data set, seed) both ran."""
    def equal_rows(rows: pd.DataFrame, shift: float = 0.0) -> pd.DataFrame:
        """Nyström (Ours)'s accuracies made ROS's, seed by seed (+ ``shift`` on dna)."""
        rows = rows.copy()
        ros, ours = (rows["sketch.name"] == s for s in yin.ISOMETRIC)
        rows.loc[ours, "test_accuracy"] = (rows[ros].set_index(["dataset.name", "seed"])["test_accuracy"]
                                           .reindex(pd.MultiIndex.from_frame(rows.loc[ours, ["dataset.name", "seed"]]))
                                           .to_numpy() + shift * (rows.loc[ours, "dataset.name"] == "dna").to_numpy())
        return rows

    rows = equal_rows(table_from({ds: PAPER[ds] for ds in ("dna", "segment")}))
    d = yin_table2._with_method(rows)
    assert yin_table2.isometric_gap(d, "dna") == (0.0, TABLE2_RUNS)
    v = yin_table2.judge_table2(rows)
    (one,) = named(v, "close to kernel k-means: ROS ≡ Nyström (Ours) − kernel k-means [dna]")
    assert [r.name for r in one.rules] == [yin_table2.CLOSE_RULES[("dna", p)].name for p in ("ros", "yin_nystrom")]
    assert "one check for both" in one.detail and one.passed
    assert not named(v, "close to kernel k-means: ROS − kernel k-means [dna]")
    assert not named(v, "close to kernel k-means: Nyström (Ours) − kernel k-means [dna]")
    assert len(named(v, "tracks its target: ROS ≡ Nyström (Ours)")) == 2
    v = yin_table2.judge_table2(equal_rows(table_from({ds: PAPER[ds] for ds in ("dna", "segment")}), shift=-0.01))
    assert named(v, "close to kernel k-means: Nyström (Ours) − kernel k-means [dna]")
    assert not named(v, "close to kernel k-means: ROS ≡ Nyström (Ours) − kernel k-means [dna]")
    assert named(v, "close to kernel k-means: ROS ≡ Nyström (Ours) − kernel k-means [segment]")
    committed = yin_table2._with_method(pd.read_parquet(COMMITTED_ROWS / "yin_table2.parquet"))
    for ds in committed["dataset.name"].unique():
        gap, shared = yin_table2.isometric_gap(committed, ds)
        assert shared >= 5 and gap == 0.0, ds


def test_table2_design_run_counts_are_the_first_to_reach_power():
    """Each counted accuracy design's seed count: the paper's 5 repeats, or the first count at
    which the exact power reaches 0.8 (Rule.runs_for_power) where 5 do not."""
    for rule in [*yin_table2.CLOSE_RULES.values(), *yin_table2.TRACKS_RULES.values()]:
        if rule.design is None:
            continue
        runs = rule.design.runs
        assert rule.exact and rule.power(runs) >= 0.8, rule.name
        assert runs == yin.PAPER_RUNS or rule.power(runs - 1) < 0.8, rule.name
    assert yin_table2.CLOSE_RULES[("segment", "yin_nystrom")].design.runs == 13  # the paper's own gap, −0.08


def test_table2_the_methods_of_a_seed_share_its_split_in_the_committed_rows():
    """Why the differences are paired: within a (data set, seed) every method drew the same
    data (data_seed, n, n_test and the test labels' majority rate agree)."""
    from kktheory.reproduce.committed import committed_rows_path

    rows = pd.read_parquet(committed_rows_path("yin_table2"))
    per = rows.groupby(["dataset.name", "seed"])[["data_seed", "n", "n_test", "test_majority"]].nunique()
    assert (per == 1).all().all()


def test_each_fig1_check_names_the_jobs_it_reads():
    """Each accuracy check of Fig. 1 names its jobs (Rule.part): a look adds seeds to those
    alone and a check is priced at them — the stable check, which reads one method at two m,
    was priced at all 7 methods × 6 m (3.6 h where its jobs take 12 min) and a look of it
    planned 540 jobs where 40 decide it."""
    from kktheory.report.entries import yin_fig1
    from kktheory.reproduce.entry import picks
    from kktheory.run.sweeps import expand_jobs

    def read(rule, cfg):
        return {tuple(o for o in job if not o.startswith("seed=")) for job in expand_jobs(cfg) if picks(rule.part, job)}

    close, tracks, stable = yin_fig1.FIG1_RULES["subgaussian"]
    assert read(stable, "yin_fig1") == {("yin/method=subgaussian", "m_sqrt_n=x1"), ("yin/method=subgaussian", "m_sqrt_n=x4")}
    assert read(close, "yin_fig1") == {(f"yin/method={m}", "m_sqrt_n=x1") for m in ("subgaussian", "exact")}
    assert read(yin_fig1.FIG1_RULES["ros"][1], "yin_fig1") == \
        {(f"yin/method={m}", "m_sqrt_n=x1") for m in ("ros", "yin_nystrom", "kernel_columns")}
    k5 = yin_fig1.K_RULES[("subgaussian", 5)]
    assert read(k5, k5.sweep) == {(f"yin/method={m}", "m_sqrt_n=x1", "k=5") for m in ("subgaussian", "exact")}
