"""Claim rules of Yin et al. (Fig. 1, Table 2) on synthetic tables where they hold and fail."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from kktheory.report import yin
from kktheory.report.common import NOT_REPRODUCED, NOT_RUN, REPRODUCED
from tests.report_tables import failure, rows

N = 2000
GRID = [f * math.sqrt(N) for f in (0.125, 0.25, 0.5, 1, 2, 4)]


def fig1_table(acc, time, exact_acc=0.8, exact_time=5.0) -> pd.DataFrame:
    """Rows for the six methods; acc(method, m) and time(method, m) give the means."""
    grid = [{"sketch.name": s, "m": math.ceil(m)} for s in ("gaussian", *yin.PROPOSED) for m in GRID]
    grid += [{"sketch.name": "exact", "m": 45}, {"sketch.name": "nystrom_liu", "m": 142}]

    def values(row, rng):
        s, m = row["sketch.name"], row["m"]
        a = exact_acc if s == "exact" else acc(s, m)
        t = exact_time if s == "exact" else time(s, m)
        return {"test_accuracy": a + rng.normal(0, 0.004), "time_embed": t, "time_cluster": 0.01}

    return rows(grid, values)


def plateau(s, m):
    return 0.8 - 0.3 * max(0.0, 1 - m / math.sqrt(N))


def fast(s, m):
    return {"gaussian": 1.0, "nystrom_liu": 0.6}.get(s, 0.02 * m / math.sqrt(N))


def test_fig1_holds_on_a_plateau_from_sqrt_n():
    v = yin.judge_fig1(fig1_table(plateau, fast))
    assert v.status == REPRODUCED, v.text
    assert len(v.checks) == 3 * len(yin.PROPOSED)


def test_fig1_fails_when_accuracy_keeps_rising_past_sqrt_n():
    rising = lambda s, m: 0.55 + 0.06 * math.log2(m / math.sqrt(N) * 8)  # noqa: E731
    v = yin.judge_fig1(fig1_table(rising, fast))
    assert v.status == NOT_REPRODUCED
    assert any(c.name.endswith("stable for m ≥ √n") and not c.passed for c in v.checks)


def test_fig1_fails_when_far_from_exact():
    v = yin.judge_fig1(fig1_table(plateau, fast, exact_acc=0.9))
    assert v.status == NOT_REPRODUCED
    assert all(not c.passed for c in v.checks if c.name.endswith("close to exact"))


def test_fig1_fails_when_sketches_are_not_faster():
    slow = lambda s, m: 10.0  # noqa: E731
    v = yin.judge_fig1(fig1_table(plateau, slow))
    assert v.status == NOT_REPRODUCED
    assert all(not c.passed for c in v.checks if c.name.endswith("faster"))


def test_fig1_not_run_without_exact_rows():
    df = fig1_table(plateau, fast)
    v = yin.judge_fig1(df[df["sketch.name"] != "exact"])
    assert v.status == NOT_RUN


# -- Table 2 -----------------------------------------------------------------------------
#: Yin et al. 2022, Table 2 as printed: (time, accuracy, sd) per data set and method
PAPER = {
    "dna": [(0.16, .50, .01), (0.12, .49, .02), (0.09, .50, .02), (0.06, .49, .01), (0.07, .50, .01), (0.04, .50, .01)],
    "segment": [(0.13, .50, .02), (0.09, .45, .03), (0.05, .43, .01), (0.03, .47, .03), (0.03, .49, .01), (0.02, .42, .01)],
    "mushrooms": [(0.56, .64, .01), (0.32, .63, .02), (0.11, .61, .01), (0.04, .63, .01), (0.04, .62, .02), (0.03, .60, .01)],
    "pendigits": [(0.61, .11, .01), (0.34, .11, .01), (0.21, .10, .02), (0.14, .11, .01), (0.16, .11, .01), (0.03, .11, .02)],
    "protein": [(5.07, .46, .01), (3.16, .44, .03), (1.09, .45, .02), (0.16, .45, .01), (0.21, .46, .01), (0.03, .44, .02)],
    "a8a": [(6.47, .75, .01), (3.21, .73, .03), (1.12, .73, .02), (0.11, .74, .01), (0.12, .74, .02), (0.03, .73, .02)],
    "w7a": [(29.7, .97, .02), (15.3, .95, .02), (1.36, .96, .01), (0.30, .94, .02), (0.36, .95, .01), (0.03, .97, .01)],
    "connect4": [(0.28, .61, .01), (0.22, .60, .03), (0.11, .59, .02), (0.05, .59, .01), (0.06, .60, .02), (0.03, .58, .02)],
}


def table_from(numbers: dict) -> pd.DataFrame:
    """Two runs per cell whose mean and sd are the given ones."""
    out = []
    for ds, cells in numbers.items():
        for meth, (t, acc, sd) in zip(yin.ORDER, cells):
            for sign in (-1, 1):
                out.append({"dataset.name": ds, "sketch.name": meth, "n": 1400, "n_test": 600,
                            "k": yin.DATASETS[ds][1], "seed": (sign + 1) // 2, "time_embed": t,
                            "time_cluster": 0.0, "test_accuracy": acc + sign * sd / math.sqrt(2)})
    return pd.DataFrame(out)


def test_table2_rule_holds_on_the_papers_own_table():
    v = yin.judge_table2(table_from(PAPER))
    assert v.status == REPRODUCED, v.text
    assert "23/24 pairs within 0.05" in v.text and "24/24 pairs faster" in v.text


def test_table2_fails_when_accuracy_drops():
    worse = {ds: [c if i in (0, 1, 2) else (c[0], c[1] - 0.1, c[2]) for i, c in enumerate(cells)]
             for ds, cells in PAPER.items()}
    v = yin.judge_table2(table_from(worse))
    assert v.status == NOT_REPRODUCED
    assert not v.checks[0].passed and v.checks[1].passed


def test_table2_fails_when_slower_than_baselines():
    slower = {ds: [c if i in (0, 1, 2) else (c[0] * 100, c[1], c[2]) for i, c in enumerate(cells)]
              for ds, cells in PAPER.items()}
    v = yin.judge_table2(table_from(slower))
    assert v.status == NOT_REPRODUCED
    assert v.checks[0].passed and not v.checks[1].passed


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
    cells = yin.table2_cells(df)
    status = dict(zip(zip(cells["dataset"], cells["method"]), cells["status"]))
    assert status[("dna", "exact")] == "cutoff"
    assert status[("dna", "gaussian")] == "memory"
    assert status[("covtype", "ros")] == "missing"
    md, tex = yin.draw_table2(df, tmp_path)
    text = md.read_text()
    dna_line = next(line for line in text.splitlines() if line.startswith("| dna"))
    assert dna_line.count("—") == 4  # exact and Gaussian: time and accuracy
    assert "covtype: data error: covtype: expected" in text
    assert r"\begin{tabular}" in tex.read_text() and "—" in tex.read_text()
    v = yin.judge_table2(df)
    # exact is cut off: no accuracy pair; the baselines shown "—" count as slower
    assert [c.name for c in v.checks] == ["faster than Gaussian and Nyström (Liu)"]
    assert v.checks[0].passed
    assert "not run (data not on this machine): covtype" in v.text


@pytest.mark.parametrize("drop", ["time_embed", "test_accuracy"])
def test_fig1_not_run_when_a_column_is_missing(drop):
    df = fig1_table(plateau, fast).drop(columns=[drop])
    assert yin.judge_fig1(df).status == NOT_RUN
