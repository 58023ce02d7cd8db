"""python -m kktheory.plot: any numeric column of a store against any axis, with intervals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from kktheory import plot
from kktheory.run.store import Store


@pytest.fixture()
def store(tmp_path):
    rng = np.random.default_rng(0)
    rows = pd.DataFrame([{"run_id": f"r{g}{n}{s}", "sketch.name": g, "n": n, "seed": s,
                          "test_risk": 0.5 + 1 / n + rng.normal(0, 0.01)}
                         for g in ("nystrom", "ros") for n in (100, 200, 400) for s in range(3 if g == "ros" else 2)])
    Store(tmp_path).import_rows(rows)
    return tmp_path


def test_aggregation_is_mean_and_t_interval_over_runs(store):
    from kktheory.run.store import load

    agg = plot.aggregate(load(store), "n", "test_risk", "sketch.name")
    assert len(agg) == 6 and set(agg["runs"]) == {2, 3}
    row = agg[(agg["sketch.name"] == "ros") & (agg["n"] == 100)].iloc[0]
    vals = load(store).query("`sketch.name` == 'ros' and n == 100")["test_risk"]
    half = 4.302652729911275 * vals.std(ddof=1) / np.sqrt(3)  # t_{2, 0.975}
    assert row["mean"] == pytest.approx(vals.mean()) and row["hi"] - row["mean"] == pytest.approx(half)


def test_plot_draws_and_prints_the_table(store, tmp_path, capsys):
    out = tmp_path / "fig" / "risk.png"
    assert plot.main([str(store), "x=n", "y=test_risk", "by=sketch.name", "logx", "--out", str(out), "--table"]) == 0
    text = capsys.readouterr().out
    assert "runs" in text and "nystrom" in text and "ros" in text
    assert out.stat().st_size > 0 and out.with_suffix(".pdf").exists()


def test_an_unknown_column_is_one_line_with_near_matches(store, capsys):
    assert plot.main([str(store), "x=n", "y=test_rsik"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "y='test_rsik'" in err and "test_risk" in err
    assert not (store / "plots").exists()


def test_a_missing_store_and_a_bad_token_are_one_line(tmp_path, capsys):
    assert plot.main([str(tmp_path / "nowhere"), "x=n", "y=test_risk"]) == 2
    assert plot.main([str(tmp_path), "x=n", "y=test_risk", "colour=red"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "RESULTS" in err[0] and "colour=red" in err[1]
