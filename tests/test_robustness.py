"""Degenerate data across the main sketches: clear behaviour, no unexplained NaN.

Cases on tiny data (40 points): duplicated points (so duplicated landmarks and a singular
K_mm), k larger than the number of distinct points, a constant feature, all points
identical, tiny and huge Gaussian bandwidths. Every run must finish, and every empty value
of its row must be explained by ``nan_reason`` (never "unexplained"). Where the answer is
known in closed form it is checked against an independent computation:

- K = I (tiny σ): any partition with N_j points in cluster j has lifted objective
  (1/n) Σ_j N_j (1 − 1/N_j) = 1 − k'/n (k' non-empty clusters), and the same train risk
  (the own centroid is the nearest: 1 − 1/N_j < 1 + 1/N_l); the test points here are
  copies of the training points, so the test risk is the same too. Before the kernel's
  round-off guard, σ = 1e-6 gave κ(x, x) ≈ 1 − 1e-4 in kernel blocks and missed these by
  6e-6;
- K = 1 (huge σ, or all points identical): every risk is 0;
- k ≥ number of distinct points: the optimum puts each distinct point in its own
  cluster, risk 0;
- a constant feature does not change a Gaussian kernel (it depends on x − y only).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from kktheory.evaluation.bounds.engine import COLUMNS
from kktheory.datasets import DATASETS, Dataset
from kktheory.run.experiment import run
from kktheory.evaluation.nan_reason import is_empty
from kktheory.run.store import Store
from tests.hydra_cfg import make_cfg

SKETCHES = ("nystrom", "nystrom_rr", "kpca", "ros", "subgaussian", "onepass", "exact", "rff")
N = 40
RNG = np.random.default_rng(0)
DISTINCT = RNG.standard_normal((5, 3))
DATA = {
    "duplicates": (np.repeat(DISTINCT, 8, axis=0), np.repeat(np.arange(5) % 2, 8)),
    "normal": (RNG.standard_normal((N, 3)), np.arange(N) % 2),
    "identical": (np.ones((N, 3)), np.arange(N) % 2),
}
X_const = np.hstack([DATA["normal"][0], np.full((N, 1), 7.0)])
DATA["constant_feature"] = (X_const, DATA["normal"][1])


@pytest.fixture
def use_data(monkeypatch, tmp_path):
    """use_data(case, *overrides) → [(row, arrays)] of a run on DATA[case] (train = test)."""
    entry = DATASETS.get("yin_hypercube")
    calls = iter(range(1000))

    def go(case: str, *overrides: str) -> list[tuple[dict, dict]]:
        X, y = DATA[case]

        def loader(params, n, n_test, k, rng):
            return Dataset(case, X.copy(), y.copy(), X.copy(), y.copy(), np.arange(n), np.arange(n_test))

        monkeypatch.setitem(DATASETS._entries, "yin_hypercube", type(entry)(entry.name, loader, entry.config_cls))
        results = tmp_path / f"r{next(calls)}"  # own results (and reference cache) per data set
        cfg = make_cfg(f"n={N}", f"n_test={N}", f"results_dir={results}", *overrides)
        rows = run(cfg).rows
        assert rows and len(Store(results).load()) == len(rows)
        return [(row, Store(results).arrays(row["run_id"])) for row in rows]

    return go


def check_explained(row: dict) -> None:
    """Every empty result column is named in nan_reason, and nothing is unexplained."""
    reason = row["nan_reason"]
    assert "unexplained" not in reason, reason
    groups = {f"bounds.{name}": cols for name, cols in COLUMNS.items()}
    named = set(c.strip() for part in reason.split(";") if "[" in part
                for c in part[part.index("[") + 1: part.rindex("]")].split(","))
    covered = named | {c for g in named if g in groups for c in groups[g]}
    ident = ("dataset.", "kernel.", "sketch.", "clustering.")
    for col, value in row.items():
        if isinstance(value, float) and not col.startswith(ident) and is_empty(value):
            assert col in covered, (col, reason)
    for col in ("train_risk", "test_risk", "objective", "train_nmi", "test_ari"):
        assert math.isfinite(row[col]), col


@pytest.mark.parametrize("sketch", SKETCHES)
def test_duplicated_points_and_landmarks(use_data, sketch):
    """5 distinct points, 8 copies each: K (and K_mm for m ≥ 6) singular, rank ≤ 5."""
    extra = ("sketch.replace=true",) if sketch == "nystrom" else ()
    ((row, arrays),) = use_data("duplicates", f"sketch={sketch}", "k=3", "m=16", "bounds=all", *extra)
    check_explained(row)
    assert row["train_risk"] >= 0 and row["objective"] >= row["ref_objective"] - 1e-9
    if sketch == "nystrom":
        assert row["rank_Kmm"] <= 5  # 16 landmarks (with repeats) span 5 distinct points


@pytest.mark.parametrize("sketch", SKETCHES)
def test_more_clusters_than_distinct_points(use_data, sketch):
    """k = 8 > 5 distinct points: every distinct point alone, risk 0; empty clusters counted."""
    ((row, arrays),) = use_data("duplicates", f"sketch={sketch}", "k=8", "m=16")
    check_explained(row)
    assert row["train_risk"] < 1e-9 and row["objective"] < 1e-9 and row["test_risk"] < 1e-9
    assert row["n_empty_clusters"] >= 0


@pytest.mark.parametrize("sketch", SKETCHES)
def test_constant_feature_changes_nothing(use_data, sketch):
    """Same K, so the same numbers — except RFF, whose frequencies Ω (m × d) are drawn for
    the new d: the same kernel in distribution, not draw for draw (its reference agrees)."""
    ((base, _),) = use_data("normal", f"sketch={sketch}", "k=3", "m=16")
    ((const, _),) = use_data("constant_feature", f"sketch={sketch}", "k=3", "m=16")
    check_explained(const)
    assert base["nan_reason"] == const["nan_reason"] == ""  # nothing empty on ordinary data
    cols = ("ref_train_risk", "ref_test_risk") if sketch == "rff" else (
        "train_risk", "objective", "test_risk", "ref_test_risk")
    for col in cols:
        assert const[col] == pytest.approx(base[col], rel=1e-9, abs=1e-12), col


@pytest.mark.parametrize("sketch", SKETCHES)
def test_identical_points(use_data, sketch):
    """All points equal: K = 1, every risk 0 (fixed σ); a bandwidth rule gives σ = 0 and is refused."""
    ((row, arrays),) = use_data("identical", f"sketch={sketch}", "k=3", "m=8", "bounds=all")
    check_explained(row)
    assert abs(row["train_risk"]) < 1e-12 and abs(row["test_risk"]) < 1e-12


def test_identical_points_with_a_bandwidth_rule(use_data):
    from kktheory.errors import ConfigError

    with pytest.raises(ConfigError) as exc:
        use_data("identical", "kernel.bandwidth=wang", "k=3", "m=8")
    assert exc.value.field == "kernel.bandwidth" and "all training points identical" in str(exc.value)


@pytest.mark.parametrize("sketch", SKETCHES)
def test_tiny_bandwidth(use_data, sketch):
    """σ = 1e-6: K = I exactly; closed-form lifted risks of the returned partition."""
    ((row, arrays),) = use_data("normal", f"sketch={sketch}", "kernel.sigma=1e-6", "k=3", "m=16", "bounds=all")
    check_explained(row)
    sizes = np.bincount(arrays["train_labels"], minlength=3)
    nonempty = int((sizes > 0).sum())
    assert row["objective"] == pytest.approx(1.0 - nonempty / N, abs=1e-9)
    assert row["train_risk"] == pytest.approx(1.0 - nonempty / N, abs=1e-9)
    assert row["test_risk"] == pytest.approx(1.0 - nonempty / N, abs=1e-9)


@pytest.mark.parametrize("sketch", SKETCHES)
def test_huge_bandwidth(use_data, sketch):
    """σ = 1e6: K = 1 up to ‖x − y‖²/(2σ²) ≈ 1e-11, so every risk is ≈ 0."""
    ((row, arrays),) = use_data("normal", f"sketch={sketch}", "kernel.sigma=1e6", "k=3", "m=16", "bounds=all")
    check_explained(row)
    assert 0 <= row["train_risk"] < 1e-9 and 0 <= row["test_risk"] < 1e-9


def test_kernel_roundoff_guard():
    """Tiny σ: κ(x, x) = 1 exactly in blocks and pairs (consistent with diag); ordinary σ:
    the guard is off and blocks match the dense formula."""
    from kktheory.kernels.functions import Kernel
    from kktheory.kernels.gaussian import roundoff_shows

    X = np.random.default_rng(3).standard_normal((30, 4)) * 10.0
    tiny = Kernel("gaussian", sigma=1e-7)
    K = tiny(X, X)
    assert np.array_equal(np.diag(K), np.ones(30))
    assert np.array_equal(tiny.paired(X, X), np.ones(30))
    assert np.all(K[~np.eye(30, dtype=bool)] == 0.0)
    # pairs closer than the identity's round-off (d² ≈ 4e-14 < 8·eps·800 ≈ 1.4e-12) cannot be
    # resolved by it and count as duplicates; pairs well above it keep κ = 0 at this σ
    Y = X + 1e-7 * np.random.default_rng(4).standard_normal(X.shape)
    assert np.array_equal(tiny.paired(X, Y), np.ones(30))
    assert np.array_equal(tiny.paired(X, X + 1e-3), np.zeros(30))
    ordinary = Kernel("gaussian", sigma=2.0)
    assert not roundoff_shows(ordinary, np.dtype("float64"), 2 * float((X**2).sum(axis=1).max()))
    D2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
    assert np.allclose(ordinary(X, X), np.exp(-D2 / 8.0), rtol=1e-12, atol=1e-15)
