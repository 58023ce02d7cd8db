"""Every row of a fixed small sweep (every sketch, both backends, each clusterer, centroid rule,
kernel, bound engine and the population) equals the row kept in tests/data/golden_rows.json,
value by value: a restructuring that should change no number is checked against it.

Floats agree within RTOL relative + ATOL (float64 runs at n = 120; what is left is BLAS
round-off between machines); integers, strings, flags and run ids exactly.
"""

from __future__ import annotations

import json
import math

import pytest

from tests.golden_rows import GOLDEN, compute, sweep

RTOL, ATOL = 1e-7, 1e-10

GOLDEN_ROWS = json.loads(GOLDEN.read_text())


def equal(a, b) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            return a is b
        return math.isclose(a, b, rel_tol=RTOL, abs_tol=ATOL) or (math.isinf(a) and a == b)
    return a == b


def test_the_golden_sweep_covers_every_sketch_and_backend():
    assert set(GOLDEN_ROWS) == set(sweep())


@pytest.mark.parametrize("name", sorted(sweep()))
def test_rows_equal_the_golden_rows(name):
    if name.startswith("dask/"):
        pytest.importorskip("dask_ml")
    expected, got = GOLDEN_ROWS[name], compute([name])[name]
    assert len(got) == len(expected)
    for want, row in zip(expected, got):
        assert set(row) == set(want), f"columns added {set(row) - set(want)}, gone {set(want) - set(row)}"
        differ = {key: (want[key], row[key]) for key in want if not equal(want[key], row[key])}
        assert not differ, f"{name}, m = {want.get('m')}: {differ}"


def test_a_changed_number_is_caught():
    row = GOLDEN_ROWS["numpy/nystrom"][0]
    assert not equal(row["test_risk"], row["test_risk"] * (1 + 1e-6))
    assert not equal(row["run_id"], row["run_id"][::-1])
