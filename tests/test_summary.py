"""The summary printed after a run: resolved bandwidth, why a cell is empty, what the
reference cost; and the parse of ``nan_reason`` it relies on."""

from __future__ import annotations

import math

import pytest

from kktheory.evaluation.bounds.engine import COLUMNS as BOUND_CHECKS
from kktheory.evaluation.nan_reason import is_empty, nan_reason, reasons_by_name
from kktheory.run.store import load
from tests.inprocess import run_inprocess

SMALL = ("n=60", "n_test=30", "k=3", "m=8")


def printed(tmp_path, *args: str) -> tuple[list[str], dict]:
    res = run_inprocess(*SMALL, *args, results_dir=tmp_path)
    assert res.returncode == 0, res.stderr
    rows = load(tmp_path)
    return res.stdout.splitlines(), rows.iloc[-1].to_dict()


def test_empty_excess_names_its_reason_and_no_reference_line(tmp_path):
    """K of 60 points (60²·4 B = 14.1 KiB in the default float32) above a 1e-5 GiB (10.5 KiB)
    budget: auto gives no reference."""
    lines, row = printed(tmp_path, "memory_budget_gb=0.00001")
    assert 60 * 60 * 4 / 1024 == pytest.approx(14.1, abs=0.05) and 1e-5 * 2**30 / 1024 == pytest.approx(10.5, abs=0.05)
    assert "— excess test: no reference (none [auto: K needs 14.1 KiB > budget 10.5 KiB])" in lines
    assert math.isnan(row["excess_test_risk"])
    assert not [line for line in lines if line.startswith("reference ")]


def test_header_shows_the_resolved_bandwidth(tmp_path):
    lines, row = printed(tmp_path, "kernel.bandwidth=wang", "reference=none")
    assert row["kernel_sigma"] != 2.0  # resolved from the data, not the fixed default
    assert f"kernel=gaussian σ={row['kernel_sigma']:.4g} (bandwidth=wang) " in lines[0]
    assert "— excess test: no reference (none)" in lines
    lines, _ = printed(tmp_path, "kernel=polynomial", "reference=none")
    assert " kernel=polynomial sketch=" in lines[0] and "σ" not in lines[0]


def test_reference_cost_and_how_to_skip_it(tmp_path):
    lines, row = printed(tmp_path)
    assert not row["ref_cached"]
    expect = (f"reference exact(n_init=10) [auto]: {row['time_reference']:.2f} s, cached in "
              f"{tmp_path}/cache for runs on the same data draw; reference=none skips it")
    assert expect in lines
    lines, row = printed(tmp_path, "force=true")
    assert bool(row["ref_cached"])
    assert f"reference exact(n_init=10) [auto]: read from {tmp_path}/cache ({row['time_reference']:.2f} s)" in lines
    assert not [line for line in lines if line.startswith("— ")]  # nothing empty


def test_reasons_by_name_inverts_nan_reason(tmp_path):
    """A comparator without an embedding, every bound asked, no reference: every empty result
    column of its row is named, alone or through its whole check, with its reason."""
    _, row = printed(tmp_path, "sketch=two_step", "bounds=all", "reference=none")
    reasons = reasons_by_name(row["nan_reason"])
    assert reasons["excess_test_risk"] == "no reference (none)"
    named_checks = {name.split(".", 1)[1] for name in reasons if name.startswith("bounds.")}
    assert named_checks and all(reasons[f"bounds.{c}"] == "no bound check applies to a sketch without an embedding"
                                for c in named_checks)
    covered = set(reasons) | {col for c in named_checks for col in BOUND_CHECKS[c]}
    bound_cols = {col for cols in BOUND_CHECKS.values() for col in cols}
    result_cols = bound_cols | {c for c in row if c.startswith(("ref_", "excess_"))}
    empty = {c for c in result_cols if c in row and is_empty(row[c])}
    assert empty and empty <= covered
    rebuilt = "; ".join(f"{r} [{', '.join(n for n in reasons if reasons[n] == r)}]" for r in dict.fromkeys(reasons.values()))
    assert rebuilt == row["nan_reason"]


def test_reasons_by_name_reads_reasons_holding_brackets():
    nan = float("nan")
    cols = {"ref_description": "none [auto: K needs 26.8 GiB > budget 11.8 GiB]", "ref_test_risk": nan,
            "excess_test_risk": nan, "trace_ratio": nan, "test_risk": 0.5}
    text = nan_reason(cols, "projection", True)
    assert reasons_by_name(text) == {
        "ref_test_risk": "no reference (none [auto: K needs 26.8 GiB > budget 11.8 GiB])",
        "excess_test_risk": "no reference (none [auto: K needs 26.8 GiB > budget 11.8 GiB])",
        "trace_ratio": "rank K ≤ s: ‖K − K_s‖_* = 0, the trace ratio is 0/0",
    }
    assert reasons_by_name("") == {}
