"""Claim rules of Wang, Gittens & Mahoney (Figs. 2–5, Table 2) on synthetic tables."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from kktheory.report import wang
from kktheory.report.common import NOT_REPRODUCED, NOT_RUN, REPRODUCED
from tests.report_tables import rows

BASE = {"n": 5000, "k": 10, "dataset.name": "mnist", "sketch.name": "nystrom_rr"}
C_GRID = [89, 177, 354, 708]
#: Wang et al. Table 6 (MNIST8M, c = 1600, 10 runs): NMI mean and sd per target rank s
TABLE6 = {10: (0.3852, 0.0003), 20: (0.4069, 0.0001), 40: (0.4130, 0.0062),
          80: (0.4233, 0.0131), 160: (0.4086, 0.0125), 320: (0.4099, 0.0098)}


def fig2_table(nmi_c, nmi_s):
    """Part (a): s ∈ {20, 80} for c below the largest; part (b): every s at the largest c."""
    by_c = rows([{"m": c, "s": s, "sketch.s": s} for s in (20, 80) for c in C_GRID[:-1]],
                lambda r, rng: {"train_nmi": nmi_c(r["m"], r["s"]) + rng.normal(0, 0.003)},
                seeds=10, base=BASE)

    def at_s(r, rng):
        mu, sd = nmi_s(r["s"])
        return {"train_nmi": mu + sd * rng.standard_normal()}

    by_s = rows([{"m": C_GRID[-1], "s": s, "sketch.s": s} for s in TABLE6], at_s, seeds=10, base=BASE,
                noise_seed=1)
    return pd.concat([by_c, by_s], ignore_index=True)


def rising(c, s):
    return TABLE6[s][0] - 0.02 * math.log2(C_GRID[-1] / c)


def flat(c, s):
    return TABLE6[s][0]


def test_fig2_holds_with_the_papers_table6_and_rising_c():
    v = wang.judge_fig2(fig2_table(rising, TABLE6.get))
    assert v.status == REPRODUCED, v.text
    assert "best s = 80" in v.checks[-1].detail


def test_fig2_fails_when_nmi_is_monotone_in_s():
    monotone = {s: (0.38 + 0.01 * math.log2(s), 0.002) for s in TABLE6}
    v = wang.judge_fig2(fig2_table(lambda c, s: monotone[s][0] - 0.02 * math.log2(C_GRID[-1] / c),
                                   monotone.get))
    assert v.status == NOT_REPRODUCED
    assert not v.checks[-1].passed and all(c.passed for c in v.checks[:-1])


def test_fig2_fails_when_nmi_does_not_rise_with_c():
    v = wang.judge_fig2(fig2_table(flat, TABLE6.get))
    assert v.status == NOT_REPRODUCED
    assert not any(c.passed for c in v.checks[:-1])


def fig3_table(sc_shift, failures=0):
    grid = [{"dataset.name": ds, "kernel.beta": b, "m": c, "sketch.name": meth}
            for ds in ("mushrooms", "pendigits") for b in (0.2, 1.0, 5.0) for c in (20, 50, 100)
            for meth in (wang.KK, wang.SC)]

    def values(r, rng):
        nmi = 0.4 + 0.05 * math.log(r["m"] / 20) + (sc_shift if r["sketch.name"] == wang.SC else 0.0)
        return {"train_nmi": nmi + rng.normal(0, 0.005), "time_embed": 0.001 * r["m"],
                "sc_failed": False}

    df = rows(grid, values, seeds=3, base={"n": 2000, "k": 10})
    if failures:
        sc = df.index[df["sketch.name"] == wang.SC][:failures]
        df.loc[sc, "sc_failed"] = True
        df.loc[sc, "train_nmi"] = np.nan
    return df


def test_fig3_holds_when_kk_beats_sc_and_counts_failures():
    v = wang.judge_fig3(fig3_table(-0.05, failures=4))
    assert v.status == REPRODUCED, v.text
    assert "in 4/54 trials" in v.text


def test_fig3_fails_when_sc_beats_kk():
    v = wang.judge_fig3(fig3_table(+0.05))
    assert v.status == NOT_REPRODUCED


def fig45_table(nys, rfm, two):
    level = {wang.NYS: nys, wang.RFM: rfm, wang.TWO: two}
    grid = [{"dataset.name": "pendigits", "sketch.name": meth, "sketch.s": s, "m": c}
            for c in (30, 90, 270, 810) for meth, ss in ((wang.NYS, ("k", "sqrt_kc", "half_c")),
                                                          (wang.RFM, ("k", "sqrt_kc", None)),
                                                          (wang.TWO, ("k",))) for s in ss]

    def values(r, rng):
        q = level[r["sketch.name"]] + 0.01 * math.log(r["m"])
        return {"train_nmi": q + rng.normal(0, 0.01), "objective": 1.0 - q + rng.normal(0, 0.01)}

    return rows(grid, values, seeds=7, base={"n": 2000, "k": 10})


def test_fig45_holds_for_nystrom_over_rfm_over_two_step():
    v = wang.judge_fig45(fig45_table(0.7, 0.6, 0.4))
    assert v.status == REPRODUCED, v.text
    assert len(v.checks) == 4


def test_fig45_fails_when_rfm_beats_nystrom():
    v = wang.judge_fig45(fig45_table(0.6, 0.7, 0.4))
    assert v.status == NOT_REPRODUCED
    names = {c.name: c.passed for c in v.checks}
    assert names == {"NMI: Nyström ≥ RFM": False, "NMI: RFM ≥ two-step": True,
                     "objective: Nyström ≤ RFM": False, "objective: RFM ≤ two-step": True}


def table2_table(ratio):
    grid = [{"sketch.P": p, "m": c} for p in ("uniform", "gaussian") for c in (20, 40, 80, 160, 320)]
    return rows(grid, lambda r, rng: {"trace_ratio": ratio(r["m"]) * (1 + abs(rng.normal(0, 0.002)))},
                seeds=3, base={"dataset.name": "pendigits", "s": 10, "sketch.s": "k"})


def test_table2_holds_when_the_ratio_falls_to_one():
    assert wang.judge_table2(table2_table(lambda c: 1 + 2 * 10 / c)).status == REPRODUCED


def test_table2_fails_when_the_ratio_stays_high():
    v = wang.judge_table2(table2_table(lambda c: 1.5 + 1 / c))
    assert v.status == NOT_REPRODUCED
    assert "(≤ 1.1?)" in v.checks[0].detail


def test_table2_flags_a_ratio_below_one():
    df = table2_table(lambda c: 1 + 2 * 10 / c)
    df.loc[0, "trace_ratio"] = 0.9
    v = wang.judge_table2(df)
    assert v.status == NOT_REPRODUCED and "1 row(s) below 1" in v.text


def test_table2_not_run_without_the_bound_column():
    assert wang.judge_table2(table2_table(lambda c: 1.0).drop(columns="trace_ratio")).status == NOT_RUN
