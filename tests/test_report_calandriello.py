"""Claim rule of Calandriello & Rosasco Figs. 1–2 on synthetic tables (holds / fails)."""

from __future__ import annotations

import math

import pytest

from kktheory.report import calandriello
from kktheory.report.common import NOT_REPRODUCED, NOT_RUN, REPRODUCED
from tests.report_tables import rows

N = 4900  # √n = 70
GRID = [{"m": math.ceil(f * 70)} for f in (0.0625, 0.125, 0.25, 0.5, 1, 2, 4)]


def table(risk, nmi, noise=0.002):
    def values(row, rng):
        return {"test_risk": risk(row["m"]) + rng.normal(0, noise),
                "train_nmi": nmi(row["m"]) + rng.normal(0, noise)}

    return rows(GRID, values, seeds=10, base={"n": N, "sketch.name": "nystrom"})


def plateau_risk(m):  # the excess k/m of Thm 1 saturates at the statistical error k/√n
    return 0.60 + 0.5 * max(1 / m, 1 / 70)


def plateau_nmi(m):
    return 0.50 - 0.3 * max(0.0, 1 - m / 70) ** 2


def theorem_shape(m):  # Calandriello Thm 1 with γ = n/m: k/√n + k/m (up to constants)
    return 0.60 + 0.5 * (1 / 70 + 1 / m)


@pytest.mark.parametrize("risk", [plateau_risk, theorem_shape])
def test_holds_when_risk_and_nmi_flatten_at_sqrt_n(risk):
    v = calandriello.judge(table(risk, plateau_nmi))
    assert v.status == REPRODUCED, v.text
    assert [c.name for c in v.checks] == ["test risk plateau once m ≥ √n", "NMI plateau once m ≥ √n"]


def test_fails_when_risk_keeps_decreasing_past_sqrt_n():
    v = calandriello.judge(table(lambda m: 0.6 + 0.5 / m ** 0.5, plateau_nmi))
    assert v.status == NOT_REPRODUCED
    assert not v.checks[0].passed and v.checks[1].passed


def test_fails_when_nothing_improves():
    v = calandriello.judge(table(lambda m: 0.6, lambda m: 0.5))
    assert v.status == NOT_REPRODUCED
    assert "not significant" in v.checks[0].detail


def test_noise_within_standard_errors_does_not_break_a_plateau():
    # past √n the curve moves by less than the noise: G is within 2 se of 0
    risk = lambda m: 0.60 + 0.5 * max(1 / m, 1 / 70) - (0.004 if m > 200 else 0.0)  # noqa: E731
    v = calandriello.judge(table(risk, plateau_nmi, noise=0.01))
    assert v.checks[0].passed, v.checks[0].detail


def test_not_run_without_rows_or_columns():
    assert calandriello.judge(table(plateau_risk, plateau_nmi).iloc[0:0]).status == NOT_RUN
    assert calandriello.judge(table(plateau_risk, plateau_nmi).drop(columns="train_nmi")).status == NOT_RUN
