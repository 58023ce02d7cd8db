"""Claim rules of Pourkamali-Anaraki & Becker (Table 1, Fig. 3) and the Frobenius error."""

from __future__ import annotations

import numpy as np
import pandas as pd

from kktheory import reproduce
from kktheory.kernels import Kernel
from kktheory.report import pourkamali
from kktheory.report.common import NOT_REPRODUCED, NOT_RUN, REPRODUCED
from kktheory.store import load_arrays
from tests.report_tables import rows

#: Pourkamali-Anaraki & Becker Table 1: (sketch, m) → (kernel approximation error, accuracy)
TABLE1 = {("kpca", 2): (0.40, 0.99), ("onepass", 12): (0.40, 0.99),
          ("nystrom_rr", 20): (0.56, 0.74), ("nystrom_rr", 100): (0.44, 0.75)}


def table1(numbers, sd=(0.002, 0.002), seeds=10):
    grid = [{"sketch.name": s, "m": m} for s, m in numbers]

    def values(r, rng):
        err, acc = numbers[(r["sketch.name"], r["m"])]
        return {pourkamali.ERR: err + rng.normal(0, sd[0]), "train_accuracy": acc + rng.normal(0, sd[1])}

    return rows(grid, values, seeds=seeds, base={"n": 4000, "k": 2, "dataset.name": "pourkamali_rings"})


def test_table1_reproduced_on_the_papers_numbers():
    """Table 1's own values at the paper's 100 runs; the paper gives no spread: sd 0.01 for
    the errors and 0.02 for the accuracies (our measured sds at n = 4000 are 0.004–0.03)."""
    v = pourkamali.judge_table1_fig2(table1(TABLE1, sd=(0.01, 0.02), seeds=100))
    assert v.status == REPRODUCED, v.text
    assert [c.name for c in v.checks] == [
        "one-pass error ≈ exact decomposition's", "one-pass accuracy ≥ exact decomposition's − 0.02",
        "one-pass error below Nyström, m = 20", "one-pass accuracy above Nyström, m = 20",
        "one-pass error below Nyström, m = 100", "one-pass accuracy above Nyström, m = 100"]


def test_table1_not_reproduced_when_nystrom_is_as_good():
    better = {**TABLE1, ("nystrom_rr", 100): (0.38, 0.995)}
    v = pourkamali.judge_table1_fig2(table1(better))
    assert v.status == NOT_REPRODUCED and v.checks[-2].passed is False


def test_table1_not_reproduced_with_the_rank_first_reading():
    """The reading that keeps r columns first: error 0.447 against 0.396 (measured, 10 seeds)."""
    worse = {**TABLE1, ("onepass", 12): (0.447, 0.81)}
    v = pourkamali.judge_table1_fig2(table1(worse, sd=(0.01, 0.05)))
    assert v.status == NOT_REPRODUCED and v.checks[0].passed is False


def test_table1_inconclusive_when_too_noisy():
    v = pourkamali.judge_table1_fig2(table1(TABLE1, sd=(0.03, 0.05), seeds=3))
    assert v.checks[0].passed is None and v.checks[0].runs_needed


def test_table1_not_run_without_the_recomputed_error():
    assert pourkamali.judge_table1_fig2(table1(TABLE1).drop(columns=pourkamali.ERR)).status == NOT_RUN


def fig3(nys_err, nys_acc, op=(0.18, 0.55), ex=(0.175, 0.56), full_acc=pourkamali.FULL_KKM_ACCURACY,
         sd=(0.002, 0.002), seeds=10):
    numbers = {("onepass", 7): op, ("kpca", 2): ex, ("exact", 2): (0.0, full_acc)}
    numbers.update({("nystrom_rr", m): (nys_err(m), nys_acc(m)) for m in (5, 10, 20, 50, 100)})
    df = table1(numbers, sd=sd, seeds=seeds)
    df["m_used"] = df["m"]
    return df


def test_fig3_reproduced_in_the_papers_shape():
    """§4 states only the full kernel k-means accuracy (0.46) and the shape: one-pass below
    Nyström up to m = 50, close to exact, more accurate than Nyström and full kernel k-means.
    Rows in that shape at the paper's 100 runs, with the spreads measured here at n = 2310
    (sd 0.01 for the errors, 0.05 for the accuracies)."""
    v = pourkamali.judge_fig3(fig3(lambda m: 0.19 + 0.5 / m, lambda m: 0.45, sd=(0.01, 0.05), seeds=100))
    assert v.status == REPRODUCED, v.text
    names = [c.name for c in v.checks]
    assert names[:4] == [f"one-pass error below Nyström, m = {m}" for m in (5, 10, 20, 50)]
    assert "one-pass error below Nyström, m = 100" not in names  # beyond 7r' the paper claims nothing
    assert names[-2:] == ["one-pass (Alg. 1) accuracy above full kernel k-means",
                          "exact decomposition accuracy above full kernel k-means"]


def test_fig3_not_reproduced_when_nystrom_reaches_onepass_before_7r():
    v = pourkamali.judge_fig3(fig3(lambda m: 0.14 + 0.5 / m, lambda m: 0.45))
    assert v.status == NOT_REPRODUCED
    assert v.checks[3].passed is False and v.checks[0].passed is True  # m = 50 fails, m = 5 holds


def test_fig3_not_reproduced_when_full_kernel_kmeans_is_better():
    v = pourkamali.judge_fig3(fig3(lambda m: 0.19 + 0.5 / m, lambda m: 0.45, full_acc=0.6))
    assert v.status == NOT_REPRODUCED and v.checks[-1].passed is False


def test_fig3_inconclusive_when_too_noisy():
    v = pourkamali.judge_fig3(fig3(lambda m: 0.19 + 0.5 / m, lambda m: 0.53, sd=(0.01, 0.1), seeds=5))
    undecided = [c for c in v.checks if c.passed is None]
    assert undecided and all(c.runs_needed for c in undecided)
    assert not any(c.passed is False for c in v.checks)


def test_fig3_shows_the_full_kernel_kmeans_accuracy_beside_the_papers():
    obs = pourkamali.observe_fig3(fig3(lambda m: 0.19 + 0.5 / m, lambda m: 0.45, full_acc=0.5))
    assert abs(obs["exact/accuracy"].value - 0.5) < 0.01
    assert [n.key for n in pourkamali.FIG3.paper_numbers] == ["exact/accuracy"]


def test_frobenius_error_matches_dense_numpy():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 3))
    F = rng.normal(size=(150, 4))
    kernel = Kernel("gaussian", sigma=1.5)
    D = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    K = np.exp(-D / (2 * 1.5**2))
    want = np.linalg.norm(K - F @ F.T) / np.linalg.norm(K)
    got = pourkamali.frobenius_error(kernel, X, F, budget=2**20)  # several row blocks
    assert abs(got - want) < 1e-10
    # the exact rank-r eigen-approximation of K gives the tail of its spectrum
    lam, V = np.linalg.eigh(K)
    Fr = V[:, -2:] * np.sqrt(lam[-2:])
    tail = np.sqrt((lam[:-2] ** 2).sum() / (lam**2).sum())
    assert abs(pourkamali.frobenius_error(kernel, X, Fr, budget=2**30) - tail) < 1e-9


def test_method_labels_carry_nystrom_m():
    df = pd.DataFrame({"sketch.name": ["kpca", "nystrom_rr", "onepass"], "m": [2, 20, 12]})
    assert list(pourkamali.method_of(df)) == ["kpca", "nystrom_rr:20", "onepass"]
    assert pourkamali.label("nystrom_rr:20") == "Nyström, m = 20"


def test_augment_rebuilds_each_run_exactly(tmp_path):
    """The refit sketch has the run's landmarks; KPCA's error is the spectral tail of K."""
    sweep = reproduce.run_sweep(
        "pourkamali_table1_fig2_small", tmp_path / "results",
        ["n=300", "n_test=20", "seed=0", "pourkamali/method=nystrom,exact_eig", "m=[20]"], log=lambda _: None)
    assert sweep.ran == 2 and sweep.failed == 0
    rows = sweep.rows
    ny = rows[rows["sketch.name"] == "nystrom_rr"].iloc[0]
    F, X, kernel, _ = pourkamali.embed(ny[pourkamali.CONFIG_COL], int(ny["m"]))
    assert F.shape == (300, 2)
    landmarks = load_arrays(ny["run_id"], tmp_path / "results")["landmarks"]
    assert len(landmarks) == 20
    # the rebuilt features equal the rank-2 Nyström built by hand on the stored landmarks
    K = kernel(X, X)
    C, W = K[:, landmarks], K[np.ix_(landmarks, landmarks)]
    lam, U = np.linalg.eigh(W)
    R = C @ U[:, -2:] / np.sqrt(lam[-2:])  # C W_2^+ C^T = R R^T
    assert np.allclose(F @ F.T, R @ R.T, atol=1e-8)
    out = pourkamali.augment(rows, keep_features=True)
    kp = out[out["sketch.name"] == "kpca"].iloc[0]
    ev = np.linalg.eigvalsh(K)
    assert abs(kp[pourkamali.ERR] - np.sqrt((ev[:-2] ** 2).sum() / (ev**2).sum())) < 1e-8
    assert set(out.attrs["features"]) == {"kpca", "nystrom_rr:20"}
    # rows that carry the error (read back from the committed file) are not refitted
    known = out.assign(**{pourkamali.CONFIG_COL: "not a config"})
    again = pourkamali.augment(known)
    assert np.array_equal(again[pourkamali.ERR].to_numpy(), out[pourkamali.ERR].to_numpy())
    assert again.attrs["features"] == {}


def test_augment_refits_onepass_with_the_rows_reading(tmp_path):
    """The entry states reading=full_core; the refit follows the row's reading: with
    rank K = 3 ≤ r' = 12 (⟨x, y⟩² on 2-D points) full_core is the exact rank-2
    decomposition, rank_first (asked on the command line) is not."""
    def augmented(*overrides):
        sweep = reproduce.run_sweep("pourkamali_table1_fig2_small", tmp_path / "results",
                                    ["n=300", "n_test=20", "seed=0", *overrides], log=lambda _: None)
        assert sweep.failed == 0 and len(sweep.rows) == 1
        return pourkamali.augment(sweep.rows).iloc[0]

    exact = augmented("pourkamali/method=exact_eig")[pourkamali.ERR]
    full = augmented("pourkamali/method=onepass_l10")
    first = augmented("pourkamali/method=onepass_l10", "sketch.reading=rank_first")
    assert full["sketch.reading"] == "full_core" and abs(full[pourkamali.ERR] - exact) < 1e-8
    assert first["sketch.reading"] == "rank_first" and first[pourkamali.ERR] > exact + 1e-3
