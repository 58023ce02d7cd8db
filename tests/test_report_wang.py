"""Claim rules of Wang, Gittens & Mahoney (Figs. 2–5, Table 2) on synthetic tables."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from kktheory.report import wang
from kktheory.report.common import NOT_REPRODUCED, NOT_RUN, REPRODUCED
from tests.report_tables import rows

BASE = {"n": 60000, "k": 10, "dataset.name": "mnist", "sketch.name": "nystrom_rr"}


def exact_runs(mean: float, sd: float, runs: int, rng: np.random.Generator) -> np.ndarray:
    """``runs`` values whose sample mean and sd are exactly ``mean`` and ``sd``."""
    z = rng.standard_normal(runs)
    return mean + sd * (z - z.mean()) / z.std(ddof=1)


def fig2_table(cells, runs=10):
    """Rows of Fig. 2 / Tables 5–6 from {(s, c): (mean, sd)}, ``runs`` runs per cell."""
    rng = np.random.default_rng(0)
    out = []
    for (s, c), (mu, sd) in cells.items():
        for seed, x in enumerate(exact_runs(mu, sd, runs, rng)):
            out.append({**BASE, "m": c, "s": s, "sketch.s": s, "seed": seed, "train_nmi": x})
    return pd.DataFrame(out)


#: the paper's Tables 5 and 6 as one set of cells (the c = 1600 cells of Table 5 are Table 6's)
PAPER = {**wang.TABLE5, **{(s, wang.TABLE6_C): v for s, v in wang.TABLE6.items()}}


def test_fig2_reproduced_on_the_papers_tables_5_and_6():
    """Tables 5–6 (MNIST8M, 10 runs, mean ± sd): every check must pass."""
    v = wang.judge_fig2(fig2_table(PAPER))
    assert v.status == REPRODUCED, v.text
    assert [c.name for c in v.checks] == [
        "NMI rises with c (s = 20, c = 100 → 400)", "NMI rises with c (s = 20, c = 400 → 1600)",
        "NMI rises with c (s = 80, c = 400 → 1600)",
        "an interior s beats s = 10 (c = 1600)", "an interior s beats s = 320 (c = 1600)"]
    assert "best interior s = 80" in v.checks[-1].detail


def test_fig2_observes_the_tables_cells():
    obs = wang.observe_fig2(fig2_table(PAPER))
    for p in wang.FIG2.paper_numbers:
        assert abs(obs[p.key].value - p.value) < 1e-9


def test_fig2_not_reproduced_when_nmi_is_monotone_in_s():
    monotone = {**PAPER, **{(s, 1600): (0.38 + 0.01 * math.log2(s), 0.005) for s in wang.TABLE6}}
    v = wang.judge_fig2(fig2_table(monotone))
    assert v.status == NOT_REPRODUCED
    assert v.checks[-1].passed is False and v.checks[-2].passed is True


def test_fig2_not_reproduced_when_nmi_falls_with_c():
    falling = {**PAPER, (20, 100): (0.43, 0.005), (80, 400): (0.44, 0.005)}
    v = wang.judge_fig2(fig2_table(falling))
    assert v.status == NOT_REPRODUCED
    assert v.checks[0].passed is False and v.checks[2].passed is False


def test_fig2_inconclusive_at_three_runs():
    """The paper's means with its sds at 3 runs cannot decide the s = 320 end."""
    v = wang.judge_fig2(fig2_table(PAPER, runs=3))
    assert v.checks[-1].passed is None and v.checks[-1].runs_needed > 3
    assert not any(c.passed is False for c in v.checks)


def fig3_table(sc_shift, failures=0, sd=0.005, seeds=10):
    """KK and SC rows over c = 5k … 50k; ``failures`` SC trials at each of the two smallest c
    fail (NaN NMI, ``spectral_failed``)."""
    grid = [{"dataset.name": ds, "k": k, "kernel.beta": b, "m": f * k, "sketch.name": meth}
            for ds, k in (("mushrooms", 2), ("pendigits", 10)) for b in (0.2, 1.0, 5.0) for f in (5, 10, 20, 50)
            for meth in (wang.KK, wang.SC)]

    def values(r, rng):
        nmi = 0.4 + 0.05 * math.log(r["m"] / r["k"]) + (sc_shift if r["sketch.name"] == wang.SC else 0.0)
        return {"train_nmi": nmi + rng.normal(0, sd), "time_embed": 0.001 * r["m"], wang.FAIL_COL: False}

    df = rows(grid, values, seeds=seeds, base={"n": 2000})
    if failures:
        for (ds, b, c), cell in df[df["sketch.name"] == wang.SC].groupby(["dataset.name", "kernel.beta", "m"]):
            if c <= 10 * cell["k"].iloc[0]:
                df.loc[cell.index[:failures], [wang.FAIL_COL, "train_nmi"]] = [True, 0.0]
    return df


def test_fig3_reproduced_when_kk_beats_sc_and_sc_often_fails():
    """The paper's shape (no numbers are printed): KK above SC at every c, SC failing in
    3 of 10 trials at the small c."""
    v = wang.judge_fig3(fig3_table(-0.05, failures=3))
    assert v.status == REPRODUCED, v.text
    assert len(v.checks) == 7 and "in 36/240 trials" in v.text
    assert "mushrooms: 18/60" in v.checks[-1].detail


def test_fig3_discards_failed_sc_trials():
    """A failed trial's all-in-one-cluster partition (NMI 0) must not lower SC's mean."""
    v = wang.judge_fig3(fig3_table(+0.02, failures=3))
    assert all(c.passed is False for c in v.checks[:-1]), v.text


def test_fig3_not_reproduced_when_sc_beats_kk():
    v = wang.judge_fig3(fig3_table(+0.05, failures=3))
    assert v.status == NOT_REPRODUCED
    assert v.checks[0].passed is False and v.checks[0].why == "claim fails"


def test_fig3_sc_failures_rare_is_a_reading():
    v = wang.judge_fig3(fig3_table(-0.05))
    assert v.checks[-1].passed is False and v.checks[-1].cause == "reading"
    assert all(c.passed for c in v.checks[:-1])


def test_fig3_inconclusive_when_too_noisy():
    v = wang.judge_fig3(fig3_table(-0.01, failures=3, sd=0.1, seeds=3))
    assert v.checks[0].passed is None and v.checks[0].runs_needed > 3


def fig45_table(nys, rfm, two, sd=0.01, seeds=20):
    level = {wang.NYS: nys, wang.RFM: rfm, wang.TWO: two}
    grid = [{"dataset.name": "pendigits", "sketch.name": meth, "sketch.s": s, "m": c}
            for c in (30, 90, 270, 810) for meth, ss in ((wang.NYS, ("k", "sqrt_kc", "half_c")),
                                                          (wang.RFM, ("k", "sqrt_kc", None)),
                                                          (wang.TWO, ("k",))) for s in ss]

    def values(r, rng):
        q = level[r["sketch.name"]] + 0.01 * math.log(r["m"])
        return {"train_nmi": q + rng.normal(0, sd), "objective": 1.0 - q + rng.normal(0, sd)}

    return rows(grid, values, seeds=seeds, base={"n": 7494, "k": 10})


def test_fig45_reproduced_for_nystrom_over_rfm_over_two_step():
    """The paper's shape at 20 runs (it prints only two-step medians): Nyström above RFM
    above two-step, as on PenDigits in Fig. 4 (medians ≈ 0.7 / 0.6 / 0.4)."""
    v = wang.judge_fig45(fig45_table(0.7, 0.6, 0.4))
    assert v.status == REPRODUCED, v.text
    assert [c.name for c in v.checks] == ["NMI: Nyström ≥ RFM", "NMI: Nyström and RFM ≥ two-step",
                                          "objective: Nyström ≤ RFM", "objective: Nyström and RFM ≤ two-step"]
    assert "12/12 cells hold" in v.checks[0].detail and "24/24 cells hold" in v.checks[1].detail


def test_fig45_not_reproduced_when_rfm_beats_nystrom():
    v = wang.judge_fig45(fig45_table(0.6, 0.7, 0.4))
    assert v.status == NOT_REPRODUCED
    names = {c.name: c.passed for c in v.checks}
    assert names == {"NMI: Nyström ≥ RFM": False, "NMI: Nyström and RFM ≥ two-step": True,
                     "objective: Nyström ≤ RFM": False, "objective: Nyström and RFM ≤ two-step": True}


def test_fig45_inconclusive_when_nystrom_and_rfm_are_too_close_to_tell():
    v = wang.judge_fig45(fig45_table(0.601, 0.6, 0.4, sd=0.05, seeds=3))
    assert v.checks[0].passed is None and v.checks[0].runs_needed > 3


def test_fig45_two_step_medians_beside_the_papers():
    df = fig45_table(0.7, 0.6, 0.4).assign(m=lambda d: d["m"] // 3)  # c = 10, 30, 90, 270 = k·(1, 3, 9, 27)
    obs = wang.observe_fig45(df)
    assert set(obs) == {f"two_step/pendigits/c{f}k" for f in (1, 3, 9, 27)}
    keys = {p.key for p in wang.FIG4_5.paper_numbers}
    assert "two_step/pendigits/c3k" in keys and "two_step/mnist/c81k" in keys


GRID = (20, 40, 80, 100, 125, 160, 200, 240, 320)


def table2_table(ratio, seeds=50, coherence=2.37, sd=0.002, matrices=("uniform", "gaussian", "srht")):
    grid = [{"sketch.P": p, "m": c} for p in matrices for c in GRID]
    return rows(grid, lambda r, rng: {"trace_ratio": ratio(r["m"]) * (1 + abs(rng.normal(0, sd))),
                                      "trace_coherence": coherence},
                seeds=seeds, base={"dataset.name": "pendigits", "n": 7494, "s": 10, "sketch.s": "k"})


def test_table2_reproduced_when_the_ratio_is_within_at_tables_c():
    """Thm 1's shape: ratio 1 + s/(2c) is below 1.1 once c ≥ 50 (every Table 2 c here)."""
    v = wang.judge_table2(table2_table(lambda c: 1 + 5 / c, matrices=("uniform", "leverage", "gaussian", "srht",
                                                                        "countsketch")))
    assert v.status == REPRODUCED, v.text
    detail = {c.name: c.detail for c in v.checks}
    # uniform: μ s/ε + μ s ln s = 2.37·(100 + 23.0) = 291.6 → c* = 320; Gaussian: 100; SRHT 232.8 → 240
    assert "c* = 320" in detail["uniform: ratio ≤ 1 + 0.1 with probability ≥ 0.9 at Table 2's c"]
    assert "c* = 100" in detail["gaussian: ratio ≤ 1 + 0.1 with probability ≥ 0.9 at Table 2's c"]
    assert "c* = 240" in detail["srht: ratio ≤ 1 + 0.1 with probability ≥ 0.9 at Table 2's c"]


def test_table2_not_reproduced_when_the_ratio_stays_high_is_a_reading():
    v = wang.judge_table2(table2_table(lambda c: 1.5 + 1 / c))
    assert v.status == NOT_REPRODUCED
    bad = [c for c in v.checks if "Table 2's c" in c.name]
    assert all(c.passed is False and c.cause == "reading" for c in bad)


def test_table2_inconclusive_with_few_runs():
    """All of 10 runs within 1 + ε cannot show a probability ≥ 0.9 (Clopper–Pearson)."""
    v = wang.judge_table2(table2_table(lambda c: 1 + 5 / c, seeds=10))
    bad = [c for c in v.checks if "Table 2's c" in c.name]
    assert all(c.passed is None and c.cause == "inconclusive" for c in bad)


def test_table2_uniform_undecided_when_its_c_is_beyond_the_grid():
    v = wang.judge_table2(table2_table(lambda c: 1 + 10 / c, coherence=5.0))  # c = 615 > 320
    check = next(c for c in v.checks if c.name.startswith("uniform") and "Table 2" in c.name)
    assert check.passed is None and "not in the grid" in check.detail


def test_table2_flags_a_ratio_below_one():
    df = table2_table(lambda c: 1 + 5 / c)
    df.loc[0, "trace_ratio"] = 0.9  # a uniform row
    v = wang.judge_table2(df)
    check = next(c for c in v.checks if c.name == "uniform: ratio ≥ 1 on every row")
    assert v.status == NOT_REPRODUCED and check.passed is False and "1 of 450" in check.detail


def test_table2_not_run_without_the_bound_column():
    assert wang.judge_table2(table2_table(lambda c: 1.0).drop(columns="trace_ratio")).status == NOT_RUN


def test_table2_sketch_sizes_match_the_table():
    from kktheory.bounds.theory import wang_table2_c

    s, n, eps = 10, 7494, 0.1
    assert wang_table2_c("gaussian", s, n, eps) == 100
    assert wang_table2_c("countsketch", s, n, eps) == 200
    assert abs(wang_table2_c("leverage", s, n, eps) - (100 + 10 * math.log(10))) < 1e-12
    assert abs(wang_table2_c("srht", s, n, eps) - (10 + math.log(n)) * (10 + math.log(10))) < 1e-12
    assert abs(wang_table2_c("uniform", s, n, eps, 2.0) - 2 * (100 + 10 * math.log(10))) < 1e-12


def test_share_check_counts_whole_cells():
    """8 of 10 cells can still hold with 7 holding, 2 failing and 1 undecided: inconclusive,
    not failed (0.2·10 is 1.999… in floating point)."""
    from kktheory.report.decide import Estimate, at_least

    ok, bad, open_ = (at_least(Estimate.known(v, 0.01), 0.0) for v in (1.0, -1.0, 0.0))
    cells = {**{f"h{i}": ok for i in range(7)}, "f1": bad, "f2": bad, "u": open_}
    assert wang.share_check("x", cells, wang.SHARE_CONSISTENT).passed is None
    assert wang.share_check("x", {**cells, "u": bad}, wang.SHARE_CONSISTENT).passed is False
    assert wang.share_check("x", {**cells, "u": ok, "f1": ok}, wang.SHARE_CONSISTENT).passed is True


def test_table2_names_the_matrices_not_run():
    v = wang.judge_table2(table2_table(lambda c: 1 + 5 / c))
    assert v.checks[-1].name == "leverage, countsketch: not run" and v.checks[-1].passed is None
