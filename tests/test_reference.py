"""Reference solution, its disk cache, excess risk, and the risk options of a run."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from kktheory.run.config import build_spec
from kktheory.evaluation.reference import parse_reference
from kktheory.errors import ConfigError
from kktheory.run.experiment import load_data, run
from kktheory.evaluation.reference import ReferenceSpec, resolve
from kktheory.embeddings.nystrom import Nystrom
from kktheory.run.store import Store

from tests.hydra_cfg import make_cfg

SMALL = ("n=400", "n_test=200", "k=4")


def one_row(tmp_path, *overrides):
    (row,) = run(make_cfg(*SMALL, f"results_dir={tmp_path}", *overrides)).rows
    return row


@pytest.mark.parametrize("value,expect", [
    ("auto", ReferenceSpec("auto", 10)),
    ("exact", ReferenceSpec("exact", 10)),
    ("none", ReferenceSpec("none", 10)),
    ("nystrom:50", ReferenceSpec("nystrom", 10, 50, "50")),
    ("nystrom:2*sqrt_n", ReferenceSpec("nystrom", 10, 40, "2*sqrt_n")),
])
def test_parse_reference(value, expect):
    assert parse_reference(value, 10, 400, 4, 20.0) == expect


@pytest.mark.parametrize("value", ["exactly", "nystrom:", "nystrom:0", "nystrom:401", "nystrom:abc", 5])
def test_bad_reference_is_a_config_error(value):
    with pytest.raises(ConfigError) as exc:
        parse_reference(value, 10, 400, 4, 20.0)
    assert exc.value.field == "reference"


def test_auto_is_exact_only_when_K_fits_the_budget():
    ref = ReferenceSpec("auto", 10)
    assert resolve(ref, 1000, "float64", 8 * 10**6)[0].kind == "exact"
    none, note = resolve(ref, 60000, "float64", 12 * 2**30)
    assert none.kind == "none" and "26.8 GiB" in note


def dense_objective(X, labels, sigma):
    K = np.exp(-((X[:, None] - X[None]) ** 2).sum(axis=2) / (2 * sigma**2))
    B = np.eye(labels.max() + 1)[labels]
    N = B.sum(axis=0)
    return float(np.mean(1.0 - 2.0 * (K @ B / N)[np.arange(len(X)), labels]
                         + (np.einsum("lj,lm,mj->j", B, K, B) / N**2)[labels]))


def test_reference_computed_once_for_a_sweep(tmp_path):
    first = one_row(tmp_path, "sketch=nystrom", "seed=0", "reference=exact")
    assert first["ref_cached"] is False and first["ref_description"] == "exact(n_init=10)"
    # other sketches, clusterers and seeds on the same data draw reuse it
    for extra in (("sketch=exact", "reference=exact"), ("clustering=localsearch", "reference=exact"),
                  ("clustering=minibatch", "reference=exact"), ("seed=3", "data_seed=0", "reference=exact"),
                  ("reference=auto",)):
        row = one_row(tmp_path, "seed=0", *extra)
        assert row["ref_cached"] is True, extra
        for col in ("ref_train_risk", "ref_test_risk", "ref_objective"):
            assert row[col] == first[col]
        assert row["excess_test_risk"] == pytest.approx(row["test_risk"] - row["ref_test_risk"], abs=1e-15)
        assert row["excess_train_risk"] == pytest.approx(row["train_risk"] - row["ref_train_risk"], abs=1e-15)
    # a different data draw, n or k is a different reference
    for extra in (("data_seed=1",), ("k=5",), ("n=300",)):
        assert one_row(tmp_path, "seed=0", "reference=exact", *extra)["ref_cached"] is False, extra
    # the stored reference partition has the stored reference objective
    spec = build_spec(make_cfg(*SMALL, "seed=0"))
    data = load_data(spec)
    labels = Store(tmp_path).arrays(first["run_id"])["ref_train_labels"]
    assert first["ref_objective"] == pytest.approx(dense_objective(data.X_train, labels, 2.0), rel=1e-10)
    assert first["ref_objective"] <= first["objective"]


def test_reference_none_and_nystrom(tmp_path):
    row = one_row(tmp_path, "reference=none")
    assert row["ref_description"] == "none"
    assert all(math.isnan(row[c]) for c in ("ref_test_risk", "excess_test_risk", "excess_train_risk"))
    row = one_row(tmp_path, "reference=nystrom:sqrt_n", "reference_n_init=2")
    assert row["ref_description"] == "nystrom(m=20,n_init=2)" and not math.isnan(row["excess_test_risk"])
    row = one_row(tmp_path, "memory_budget_gb=0.0005")  # auto: K (1.2 MiB) above the budget (0.5 MiB)
    assert row["ref_description"].startswith("none [auto: K needs 1.2 MiB")


def test_subsampled_run_reports_estimator_and_se(tmp_path):
    row = one_row(tmp_path, "risk_exact_limit=100", "risk_points=50", "risk_pairs=500", "reference=exact")
    assert row["risk_estimator"] == "subsample(b=50,pairs=500)"
    assert row["train_risk_se"] > 0 and row["test_risk_se"] > 0 and row["objective_se"] > 0
    assert row["ref_risk_estimator"] == "subsample(b=50,pairs=500)" and row["ref_test_risk_se"] > 0
    assert row["excess_test_risk_se"] == pytest.approx(math.hypot(row["test_risk_se"], row["ref_test_risk_se"]))
    arrays = Store(tmp_path).arrays(row["run_id"])
    assert len(arrays["train_eval_idx"]) == 50 and len(arrays["test_labels"]) == 50


def test_projected_centroids_run(tmp_path):
    lifted = one_row(tmp_path, "reference=none")
    projected = one_row(tmp_path, "reference=none", "centroids=projected")
    assert projected["centroids"] == "projected" and projected["risk_estimator"] == "exact"
    assert projected["objective"] >= lifted["objective"] - 1e-12  # same partition, centroids in H_m
    assert projected["train_nmi"] == lifted["train_nmi"]


def test_projected_needs_a_projection_sketch(monkeypatch):
    monkeypatch.setattr(Nystrom, "capabilities", replace(Nystrom.capabilities, projection=False))
    with pytest.raises(ConfigError) as exc:
        build_spec(make_cfg(*SMALL, "centroids=projected"))
    assert exc.value.field == "centroids" and "not a projection embedding" in str(exc.value)


@pytest.mark.parametrize("override,field", [
    ("centroids=nearest", "centroids"), ("risk_points=1", "risk_points"),
    ("risk_pairs=0", "risk_pairs"), ("reference_n_init=0", "reference_n_init"),
    ("risk_exact_limit=-1", "risk_exact_limit"),
])
def test_bad_risk_fields(override, field):
    with pytest.raises(ConfigError) as exc:
        build_spec(make_cfg(*SMALL, override))
    assert exc.value.field == field
