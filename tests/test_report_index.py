"""The INDEX writer, verdict assembly and the confidence intervals of the report."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from kktheory.report.verdicts import NOT_REPRODUCED, NOT_RUN, REPRODUCED, Check, Verdict, judge_checks
from kktheory.report.rows import failed_rows, ok_rows
from kktheory.report.stats import mean_ci
from kktheory.report.index import IndexRecord, read_index, update_index

ORDER = ["alpha", "beta", "gamma"]


def record(name: str, status: str = REPRODUCED, **kw) -> IndexRecord:
    fields = dict(name=name, title=f"Paper, Fig. {name}", claim=f"claim of {name}", status=status,
                  observed=f"numbers of {name}\nsecond line", rule=f"rule of {name}", scale="small: n = 10",
                  setup="data x; n = 10", config=f"experiments/{name}_small.yaml",
                  command=f"python -m kktheory.reproduce {name} --scale small",
                  sweep_command=f"python run.py --config-dir experiments --config-name {name}_small -m",
                  files=[f"{name}.png", f"{name}.pdf"], rows="3 rows", when="today")
    fields.update(kw)
    return IndexRecord(**fields)


def pending(name: str) -> str:
    return f"Not run yet: {name}."


def test_index_keeps_other_entries_and_catalogue_order(tmp_path):
    update_index(tmp_path, record("beta", NOT_REPRODUCED), ORDER, pending)
    update_index(tmp_path, record("alpha"), ORDER, pending)
    update_index(tmp_path, record("alpha", observed="new numbers", tables="| a | b |\n|---|---|"),
                 ORDER, pending)  # rewritten
    md = (tmp_path / "INDEX.md").read_text()
    sections = [line for line in md.splitlines() if line.startswith("## ")]
    assert sections == ["## alpha", "## beta", "## gamma"]
    alpha = md.split("## alpha")[1].split("## beta")[0]
    assert "new numbers" in alpha and "numbers of alpha" not in alpha
    assert "| a | b |" in alpha
    assert "**Verdict: reproduced.**" in alpha
    assert "`python -m kktheory.reproduce alpha --scale small`" in alpha
    assert "`python run.py --config-dir experiments --config-name alpha_small -m`" in alpha
    assert "![alpha](alpha.png)" in alpha and "[alpha.pdf](alpha.pdf)" in alpha
    assert "**Verdict: not reproduced.**" in md.split("## beta")[1]
    assert "Not run yet: gamma." in md.split("## gamma")[1]
    assert "| [gamma](#gamma) | | not run yet | |" in md
    data = json.loads((tmp_path / "index.json").read_text())
    assert list(data) == ["alpha", "beta"]
    assert read_index(tmp_path)["beta"] == record("beta", NOT_REPRODUCED)


def test_verdict_status_follows_the_checks():
    ok, bad = Check("a", True, "1"), Check("b", False, "2")
    assert judge_checks([ok]).status == REPRODUCED
    v = judge_checks([ok, bad], "head")
    assert v.status == NOT_REPRODUCED
    assert v.text.splitlines() == ["head", "✓ a: 1", "✗ b: 2 — why: claim fails"]
    assert judge_checks([]).status == NOT_RUN
    with pytest.raises(ValueError):
        Verdict("maybe", "")


def test_mean_ci_is_the_student_t_interval():
    rng = np.random.default_rng(3)
    df = pd.DataFrame({"m": np.repeat([10, 20], 7), "v": rng.normal(size=14)})
    ci = mean_ci(df, "m", "v")
    for m, row in ci.set_index("m").iterrows():
        x = df.loc[df["m"] == m, "v"].to_numpy()
        lo, hi = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=x.std(ddof=1) / math.sqrt(len(x)))
        assert row["count"] == 7
        assert row["lo"] == pytest.approx(lo) and row["hi"] == pytest.approx(hi)
    one = mean_ci(pd.DataFrame({"m": [1], "v": [2.0]}), "m", "v").iloc[0]
    assert one["lo"] == one["hi"] == 2.0


def test_failure_pseudo_rows_are_kept_apart():
    df = pd.DataFrame([{"v": 1.0}, {"v": np.nan, "error_kind": "DataError", "error": "missing"}])
    assert len(ok_rows(df)) == 1 and len(failed_rows(df)) == 1
    assert len(failed_rows(df.iloc[:1].drop(columns=["error_kind", "error"]))) == 0


def test_overview_shows_the_compute_its_looks_added(tmp_path):
    """The overview's compute column: the rows' compute, and of it what the looks paid for."""
    update_index(tmp_path, record("alpha", compute_s=7200.0, looks_compute_s=1800.0), ORDER, pending)
    update_index(tmp_path, record("beta", compute_s=600.0), ORDER, pending)
    md = (tmp_path / "INDEX.md").read_text()
    assert "| compute time (of which looks) |" in md
    alpha, beta = (next(ln for ln in md.splitlines() if ln.startswith(f"| [{n}]")) for n in ("alpha", "beta"))
    assert "| 2.0 h (looks 30 min) |" in alpha and "| 10 min |" in beta and "looks" not in beta
