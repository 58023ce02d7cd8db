"""A list of m is evaluated in one pass (kktheory.run.experiment.RowWriter): every row equals
the row of its m run alone, for exact and subsampled lifted risks, in float64 and float32."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from kktheory.run.experiment import run
from kktheory.embeddings.nystrom import Nystrom
from kktheory.run.store import Store
from tests.hydra_cfg import make_cfg

BASE = ("n=500", "n_test=150", "k=4", "sketch=nystrom")
RISK_COLS = ["train_risk", "objective", "test_risk", "train_risk_se", "objective_se", "test_risk_se",
             "risk_bias_bound", "test_nmi", "train_reassigned"]
ARRAYS = ["train_labels", "test_labels", "train_nearest", "train_eval_idx", "test_eval_idx"]


def rows(results, *args: str) -> pd.DataFrame:
    return pd.DataFrame(run(make_cfg(*BASE, *args, f"results_dir={results}")).rows).set_index("m")


@pytest.mark.parametrize("risk, dtype, rtol", [
    ((), "float64", 1e-10),
    (("risk_exact_limit=100", "risk_points=120", "risk_pairs=400"), "float64", 1e-10),
    (("risk_exact_limit=100", "risk_points=120", "risk_pairs=400"), "float32", 1e-5),
], ids=["exact", "subsampled", "subsampled-float32"])
def test_rows_of_a_list_equal_rows_alone(tmp_path, risk, dtype, rtol):
    args = (*risk, f"dtype={dtype}")
    listed = rows(tmp_path / "list", *args, "m=[10,20,40]")
    assert set(listed.evaluated_together) == {3}
    for m in (10, 20, 40):
        alone = rows(tmp_path / f"alone{m}", *args, f"m={m}")
        assert alone.evaluated_together.iloc[0] == 1
        assert listed.run_id[m] == alone.run_id[m]
        np.testing.assert_allclose(listed.loc[m, RISK_COLS].astype(float),
                                   alone.loc[m, RISK_COLS].astype(float), rtol=rtol, atol=1e-12)
        a = Store(tmp_path / "list").arrays(listed.run_id[m])
        b = Store(tmp_path / f"alone{m}").arrays(alone.run_id[m])
        for name in ARRAYS:
            assert (name in a) == (name in b)
            if name in a:
                np.testing.assert_array_equal(a[name], b[name])


def test_bound_checks_evaluate_each_m_as_it_comes(tmp_path):
    listed = rows(tmp_path, "m=[10,20]", "bounds=[trace]")
    assert set(listed.evaluated_together) == {1}
    assert listed.trace_ratio.notna().all()


def test_a_failing_m_keeps_the_rows_fitted_before_it(tmp_path, monkeypatch):
    partition = Nystrom.partition

    def fail_at_20(self, X, k, clusterer, rng):
        if len(self.landmarks_) == 20:
            raise RuntimeError("boom")
        return partition(self, X, k, clusterer, rng)

    monkeypatch.setattr(Nystrom, "partition", fail_at_20)
    with pytest.raises(RuntimeError, match="boom"):
        run(make_cfg(*BASE, "m=[10,20]", f"results_dir={tmp_path}"))
    done = Store(tmp_path).load()
    assert list(done.m) == [10]


def test_groups_within_the_budget(tmp_path, monkeypatch):
    from kktheory.run.experiment import RowWriter

    monkeypatch.setattr(RowWriter, "group_size", lambda self: 2)
    listed = rows(tmp_path, "m=[10,20,40]")
    assert sorted(listed.evaluated_together) == [1, 2, 2]


def test_a_failing_evaluation_is_reported_once(tmp_path, monkeypatch):
    from kktheory.run.method import Method

    calls = []

    def failing(self, *args, **kwargs):
        calls.append(1)
        raise RuntimeError("evaluation failed")

    monkeypatch.setattr(Method, "risks", failing)
    with pytest.raises(RuntimeError, match="evaluation failed") as info:
        run(make_cfg(*BASE, "m=[10,20]", "centroids=projected", f"results_dir={tmp_path}"))
    assert len(calls) == 1 and info.value.__context__ is None
