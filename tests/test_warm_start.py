"""Warm-started m-lists (``clustering.warm_start=true``): each smaller m's partition is
Lloyd's fixed point reached from the next larger m's partition, recomputed here from the
stored landmarks with dense NumPy (Nyström features and Lloyd written in this file)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from kktheory.cluster.clusterers import warm_centers
from kktheory.run.experiment import run
from kktheory.run.store import Store
from tests.hydra_cfg import make_cfg

BASE = ("n=400", "n_test=100", "k=4", "sketch=nystrom")


def gaussian(A: np.ndarray, B: np.ndarray, sigma: float) -> np.ndarray:
    d2 = ((A[:, None, :] - B[None, :, :]) ** 2).sum(-1)
    return np.exp(-d2 / (2 * sigma**2))


def nystrom_features(X: np.ndarray, L: np.ndarray, sigma: float) -> np.ndarray:
    """K_nm W^{-1/2} (eigenvalues above 1e-12 of the largest), dense."""
    lam, U = np.linalg.eigh(gaussian(L, L, sigma))
    keep = lam > 1e-12 * lam.max()
    return gaussian(X, L, sigma) @ (U[:, keep] / np.sqrt(lam[keep]))


def lloyd(F: np.ndarray, labels: np.ndarray, k: int, iters: int = 300) -> np.ndarray:
    """Plain Lloyd from the means of ``labels`` (no empty cluster in these tests)."""
    for _ in range(iters):
        C = np.stack([F[labels == j].mean(axis=0) for j in range(k)])
        new = ((F[:, None, :] - C[None]) ** 2).sum(-1).argmin(axis=1)
        if np.array_equal(new, labels):
            break
        labels = new
    return labels


def rows(results, *args: str) -> pd.DataFrame:
    out = run(make_cfg(*BASE, *args, f"results_dir={results}"))
    return pd.DataFrame(out.rows)


@pytest.fixture
def grid(tmp_path):
    results = tmp_path / "results"
    df = rows(results, "m=[10,20,40]", "clustering.warm_start=true")
    return results, df


def test_warm_partitions_are_lloyd_from_the_larger_m(grid):
    results, df = grid
    store = Store(results)
    assert list(df.m) == [40, 20, 10]  # from the largest down
    cfg = make_cfg(*BASE, "m=10", f"results_dir={results}")
    from kktheory.run.config import build_spec
    from kktheory.run.experiment import load_data

    spec = build_spec(cfg)
    data = load_data(spec)
    sigma = float(df.kernel_sigma.iloc[0])
    arrays = {int(r.m): store.arrays(r.run_id) for r in df.itertuples()}
    assert not df.set_index("m").loc[40, "warm_started"]
    for small, large in ((20, 40), (10, 20)):
        row = df.set_index("m").loc[small]
        assert row.warm_started and row.warm_start_from == str([m for m in (20, 40) if m > small])
        L = data.X_train[arrays[small]["landmarks"]]
        F = nystrom_features(data.X_train, L, sigma)
        expect = lloyd(F, arrays[large]["train_labels"], 4)
        np.testing.assert_array_equal(arrays[small]["train_labels"], expect)


def test_largest_m_is_the_run_alone_and_single_m_ignores_warm_start(grid, tmp_path):
    results, df = grid
    alone = run(make_cfg(*BASE, "m=40", f"results_dir={results}"))
    assert alone.rows == [] and alone.skipped == [df.set_index("m").loc[40, "run_id"]]
    other = tmp_path / "other"
    cold = rows(other, "m=10")
    warm_single = run(make_cfg(*BASE, "m=10", "clustering.warm_start=true", f"results_dir={other}"))
    assert warm_single.skipped == [cold.run_id.iloc[0]]
    assert cold.run_id.iloc[0] != df.set_index("m").loc[10, "run_id"]  # a warm row is another run


def test_a_missing_row_is_recomputed_from_the_stored_larger_one(grid):
    results, df = grid
    store = Store(results)
    rid = df.set_index("m").loc[20, "run_id"]
    before = store.arrays(rid)["train_labels"]
    store.row_path(rid).unlink()
    again = rows(results, "m=[10,20,40]", "clustering.warm_start=true")
    assert list(again.m) == [20]
    np.testing.assert_array_equal(store.arrays(rid)["train_labels"], before)


def test_warm_centers_fill_an_empty_cluster_with_the_farthest_point():
    F = np.array([[0.0], [1.0], [10.0], [11.0], [30.0]])
    labels = np.array([0, 0, 1, 1, 1])
    C = warm_centers(F, labels, 3)
    np.testing.assert_allclose(C[:2, 0], [0.5, 17.0])
    assert C[2, 0] == 30.0  # 13 from its own mean 17, the farthest point


def test_a_warm_row_depends_on_every_larger_m_of_its_list(grid, tmp_path):
    _, df = grid
    shorter = rows(tmp_path / "shorter", "m=[10,20]", "clustering.warm_start=true").set_index("m")
    longer = df.set_index("m")
    assert shorter.loc[20, "run_id"] == rows(tmp_path / "alone", "m=20").run_id.iloc[0]
    assert shorter.loc[10, "run_id"] != longer.loc[10, "run_id"]
    assert shorter.loc[10, "warm_start_from"] == "[20]"


def test_stored_middle_row_starts_the_smaller_m(grid):
    results, df = grid
    store = Store(results)
    ids = df.set_index("m").run_id
    before = {m: store.arrays(ids[m])["train_labels"] for m in (10, 40)}
    for m in (10, 40):
        store.row_path(ids[m]).unlink()
    again = rows(results, "m=[10,20,40]", "clustering.warm_start=true")
    assert sorted(again.m) == [10, 40]  # 20 is read from the store, not recomputed
    for m in (10, 40):
        np.testing.assert_array_equal(store.arrays(ids[m])["train_labels"], before[m])


@pytest.mark.parametrize("sketch", ["exact", "two_step", "approx_kkm"])
def test_sketches_that_do_not_run_the_clusterer_refuse_warm_start(tmp_path, sketch):
    from tests.inprocess import run_inprocess

    res = run_inprocess("n=60", "n_test=30", "k=3", "m=[8,16]", f"sketch={sketch}",
                        "clustering.warm_start=true", results_dir=tmp_path / "results")
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "clustering.warm_start" in lines[0] and sketch in lines[0]
    assert not (tmp_path / "results" / "runs").exists() or not list((tmp_path / "results" / "runs").iterdir())
