"""Claim rule of theory_rates on synthetic tables (holds / fails)."""

from __future__ import annotations

import math

import pandas as pd

from kktheory.report import theory
from kktheory.report.common import NOT_REPRODUCED, NOT_RUN, REPRODUCED
from tests.report_tables import rows

NS = (500, 1000, 2000, 4000, 8000)


def table(rate, lemma2_ratio=0.3, eps_slope=-0.5, noise=0.05):
    """Rate rows (excess ∝ n^rate), Lemma 2 rows (gap = ratio·bound), bound-vs-m rows."""
    rates = rows([{"n": n, "sketch.name": s, "m_rule": "sqrt_n", "m": math.ceil(math.sqrt(n)), "bounds": "[]"}
                  for n in NS for s in ("nystrom", "subgaussian")],
                 lambda r, rng: {"excess_test_risk": 0.5 * r["n"] ** rate * math.exp(rng.normal(0, noise))},
                 seeds=5)
    lemma2 = rows([{"n": 2000, "sketch.name": "nystrom", "m_rule": f"{f}*n_over_gamma", "gamma_value": g,
                    "m": math.ceil(f * 2000 / g), "bounds": "['gamma']"} for g in (11.2, 44.7, 179) for f in (1, 2)],
                  lambda r, rng: {"lemma2_bound": r["gamma_value"] / 200,
                                  "lemma2_gap": lemma2_ratio * r["gamma_value"] / 200,
                                  "lemma2_holds": lemma2_ratio <= 1},
                  seeds=3)
    bvm = rows([{"n": 2000, "sketch.name": s, "m_rule": "x", "m": m, "bounds": "['gamma', 'trace', 'jl']"}
                for s in ("nystrom", "ros") for m in (11, 23, 45, 90, 179)],
               lambda r, rng: {("gamma_eps" if r["sketch.name"] == "nystrom" else "jl_eps"):
                               0.5 * (r["m"] / 11) ** eps_slope + rng.normal(0, 0.005)},
               seeds=3)
    return pd.concat([rates, lemma2, bvm], ignore_index=True)


def test_holds_with_the_theorems_rate():
    v = theory.judge(table(-0.55))
    assert v.status == REPRODUCED, v.text
    names = [c.name for c in v.checks]
    assert names == ["rate of nystrom", "rate of subgaussian", "Calandriello Lemma 2 gap ≤ bound",
                     "γ-preservation ε of nystrom decreases with m", "JL ε of ros decreases with m"]


def test_a_faster_decay_is_consistent_with_the_bound():
    assert theory.judge(table(-0.9)).status == REPRODUCED


def test_fails_when_the_excess_risk_decays_too_slowly():
    v = theory.judge(table(-0.1, noise=0.02))
    assert v.status == NOT_REPRODUCED
    assert not v.checks[0].passed and v.checks[0].detail.startswith("slope -0.")


def test_fails_when_lemma2_is_violated_or_eps_grows():
    v = theory.judge(table(-0.55, lemma2_ratio=1.5, eps_slope=0.3))
    failed = {c.name for c in v.checks if not c.passed}
    assert failed == {"Calandriello Lemma 2 gap ≤ bound", "γ-preservation ε of nystrom decreases with m",
                      "JL ε of ros decreases with m"}


def test_rates_need_positive_excess():
    df = table(-0.55)
    df.loc[df["m_rule"] == "sqrt_n", "excess_test_risk"] *= -1
    v = theory.judge(df)
    assert v.status == NOT_REPRODUCED and "positive excess" in v.checks[0].detail


def test_not_run_without_rows():
    assert theory.judge(table(-0.55).iloc[0:0]).status == NOT_RUN
