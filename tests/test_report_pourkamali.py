"""Claim rules of Pourkamali-Anaraki & Becker (Table 1, Fig. 3) and the Frobenius error."""

from __future__ import annotations

import numpy as np
import pandas as pd

from omegaconf import OmegaConf

from kktheory.reproduce import sweep as reproduce_sweep
from kktheory.report import pourkamali
from kktheory.report.entries import pourkamali_fig3
from kktheory.report.entries import pourkamali_table1_fig2
from kktheory.report.verdicts import NOT_REPRODUCED, NOT_RUN, REPRODUCED
from kktheory.report.rows import CONFIG_COL
from kktheory.reproduce.committed import COMMITTED_ROWS
from kktheory.run.store import load_arrays
from tests.report_tables import rows

T1 = pourkamali_table1_fig2

#: Pourkamali-Anaraki & Becker Table 1: (sketch, m) → (kernel approximation error, accuracy)
TABLE1 = {("kpca", 2): (0.40, 0.99), ("onepass", 12): (0.40, 0.99),
          ("nystrom_rr", 20): (0.56, 0.74), ("nystrom_rr", 100): (0.44, 0.75)}


def table1(numbers, sd=(0.002, 0.002), seeds=10, first=0, identical=False):
    """Rows of ``numbers`` at seeds first, …, first + seeds − 1; ``identical``: the one-pass rows
    are the exact decomposition's, as they are by construction on Table 1's data."""
    grid = [{"sketch.name": s, "m": m} for s, m in numbers]

    def values(r, rng):
        err, acc = numbers[(r["sketch.name"], r["m"])]
        return {pourkamali.ERR: err + rng.normal(0, sd[0]), "train_accuracy": acc + rng.normal(0, sd[1])}

    df = rows(grid, values, seeds=seeds, base={"n": 4000, "k": 2, "dataset.name": "pourkamali_rings"})
    df["seed"] += first
    if identical:
        exact = df[df["sketch.name"] == "kpca"].set_index("seed")
        one = df["sketch.name"] == "onepass"
        for col in (pourkamali.ERR, "train_accuracy"):
            df.loc[one, col] = df.loc[one, "seed"].map(exact[col]).to_numpy()
    return df


def paper_rows(numbers=TABLE1, sd=(0.01, 0.02), seeds=100, first=T1.FRESH_FROM):
    """Table 1's own numbers on the seeds run after the declaration: exact and one-pass 0.99
    (the same rows), Nyström 0.74 and 0.75, with a small spread (the paper prints none)."""
    return table1(numbers, sd=sd, seeds=seeds, first=first, identical=True)


def bimodal(share_accurate, seeds=100, first=T1.FRESH_FROM, seed=0):
    """Rows in the observed shape: Nyström's accuracy near 0.75 or near 1.0, accurate in the share
    ``share_accurate`` of the runs (per m), exact = one-pass accurate in every run."""
    df = paper_rows(seeds=seeds, first=first)
    rng = np.random.default_rng(seed)
    for m, share in share_accurate.items():
        at = (df["sketch.name"] == "nystrom_rr") & (df["m"] == m)
        good = rng.random(int(at.sum())) < share
        df.loc[at, "train_accuracy"] = np.where(good, 1.0, 0.75 + rng.uniform(0, 0.02, len(good)))
    return df


COUNTED = ["Nyström not accurate, m = 20", "one-pass accuracy above Nyström, m = 20",
           "Nyström not accurate, m = 100", "one-pass accuracy above Nyström, m = 100"]
SANITY = ["one-pass = exact decomposition, run by run", "one-pass error below Nyström, m = 20",
          "one-pass error below Nyström, m = 100"]


def _by_name(v):
    return {c.name: c for c in v.checks}


def test_table1_reproduced_on_the_papers_numbers():
    """Table 1's own values on 100 seeds after the declaration: every counted check passes."""
    v = T1.judge_table1_fig2(paper_rows())
    assert v.status == REPRODUCED, v.text
    assert [c.name for c in v.checks] == [
        "one-pass = exact decomposition, run by run",
        "one-pass error below Nyström, m = 20", "Nyström not accurate, m = 20",
        "one-pass accuracy above Nyström, m = 20",
        "one-pass error below Nyström, m = 100", "Nyström not accurate, m = 100",
        "one-pass accuracy above Nyström, m = 100"]
    assert all(c.passed for c in v.checks)
    c = _by_name(v)["Nyström not accurate, m = 100"]
    assert c.runs == 100 and "100 of 100 runs below 0.87" in c.detail


def test_table1_reproduced_with_the_papers_numbers_at_both_modes():
    """Nyström at 0.74 / 0.75 in every run but a few accurate ones (share 0.1): still 'not accurate'."""
    v = T1.judge_table1_fig2(bimodal({20: 0.1, 100: 0.1}))
    assert v.status == REPRODUCED, v.text


def test_table1_not_reproduced_when_nystrom_is_accurate_in_most_runs():
    """The committed seeds' shape at m = 100 (accurate in 82 of 100): 'not accurate' fails, though
    one-pass still outperforms Nyström by a little (the sign check passes)."""
    v = T1.judge_table1_fig2(bimodal({20: 0.1, 100: 0.82}))
    assert v.status == NOT_REPRODUCED, v.text
    by = _by_name(v)
    assert by["Nyström not accurate, m = 100"].passed is False
    assert by["one-pass accuracy above Nyström, m = 100"].passed is True
    assert by["Nyström not accurate, m = 20"].passed is True


def test_table1_not_reproduced_when_nystrom_is_as_good():
    better = {**TABLE1, ("nystrom_rr", 100): (0.38, 0.995)}
    v = T1.judge_table1_fig2(paper_rows(better))
    by = _by_name(v)
    assert v.status == NOT_REPRODUCED
    assert by["one-pass accuracy above Nyström, m = 100"].passed is False
    assert by["Nyström not accurate, m = 100"].passed is False
    err = by["one-pass error below Nyström, m = 100"]
    assert err.sanity and err.passed is False  # shown, not counted


def test_table1_not_reproduced_when_onepass_is_no_better():
    """One-pass (= exact) no more accurate than Nyström: the sign check fails."""
    worse = {**TABLE1, ("kpca", 2): (0.40, 0.74), ("onepass", 12): (0.40, 0.74)}
    v = T1.judge_table1_fig2(paper_rows(worse))
    by = _by_name(v)
    assert v.status == NOT_REPRODUCED
    assert by["one-pass accuracy above Nyström, m = 20"].passed is False
    assert by["one-pass accuracy above Nyström, m = 100"].passed is False


def test_table1_counted_checks_read_only_seeds_after_the_declaration():
    """fresh_from: seeds < 100 (seen before the counted checks were declared) are dropped from
    them; the sanity checks read every run."""
    for rule in (*T1.NYS_RULES.values(), *T1.ACC_RULES.values()):
        assert rule.fresh_from == 100 and rule.declared == "2026-11-27" and rule.counted
    old = paper_rows(first=0)  # seeds 0–99 only: no counted check has a run
    v = T1.judge_table1_fig2(old)
    by = _by_name(v)
    assert all(by[n].passed is None and "no runs after the declaration" in by[n].detail for n in COUNTED)
    assert all(by[n].passed for n in SANITY)
    # seeds 0–99 where Nyström is always accurate, seeds 100–199 as Table 1: judged on the latter
    seen = bimodal({20: 1.0, 100: 1.0}, first=0, seed=1)
    both = pd.concat([seen, paper_rows()], ignore_index=True)
    v = T1.judge_table1_fig2(both)
    by = _by_name(v)
    assert v.status == REPRODUCED, v.text
    assert all(by[n].runs == 100 for n in COUNTED)
    assert by["one-pass = exact decomposition, run by run"].runs == 200
    assert list(T1.NYS_RULES[20].fresh(both)["seed"].unique()) == list(range(100, 200))
    row = T1.NYS_RULES[20].table_row(100)
    assert "declared 2026-11-27 after the rows were seen" in row and "seeds ≥ 100" in row


def test_table1_observed_reports_the_two_modes():
    v = T1.judge_table1_fig2(pd.concat([bimodal({20: 0.49, 100: 0.82}, first=0), bimodal({20: 0.5, 100: 0.8})]))
    text = v.text.splitlines()[0]
    assert "accuracy is bimodal" in text and "seeds 100–199 (judged)" in text
    assert "seeds 0–99 (seen before the declaration)" in text
    assert "Nyström, m = 100:" in text and "near 0.75" in text and "near 1.0" in text


def test_table1_by_construction_checks_are_sanity_and_the_rest_are_declared():
    v = T1.judge_table1_fig2(paper_rows())
    assert [c.name for c in v.checks if c.sanity] == SANITY
    assert [c.name for c in v.checks if c.counted] == COUNTED
    assert all(c.rule in T1.TABLE1_FIG2.rules for c in v.checks)
    assert set(T1.TABLE1_FIG2.rules) == {c.rule for c in v.checks}
    counted = [c.rule for c in v.checks if c.counted]
    assert all(r.margin.why and r.margin.source and r.design is not None for r in counted)
    assert [r.shape for r in counted] == ["share", "exceeds", "share", "exceeds"]
    assert "does not provide an accurate solution" in T1.NYS_RULES[100].margin.source
    assert "outperforms" in T1.ACC_RULES[100].margin.source


def test_onepass_is_the_exact_decomposition_in_every_committed_run():
    """The identity behind the sanity check, on the committed rows: rank K = 3 ≤ r′ = 12 makes
    one-pass the exact rank-2 decomposition, and k-means with the same seed clusters the same."""
    df = pd.read_parquet(COMMITTED_ROWS / "pourkamali_table1_fig2.parquet")
    op = df[df["sketch.name"] == "onepass"].set_index("seed").sort_index()
    ex = df[df["sketch.name"] == "kpca"].set_index("seed").sort_index()
    seeds = op.index.intersection(ex.index)
    assert len(seeds) >= 100
    op, ex = op.loc[seeds], ex.loc[seeds]
    assert (op["m_used"] == 12).all() and (op["sketch.reading"] == "full_core").all()
    for col in ("train_accuracy", "train_nmi", "train_ari", "objective"):
        assert (op[col] == ex[col]).all(), col
    assert (op[pourkamali.ERR] - ex[pourkamali.ERR]).abs().max() < 1e-12
    v = T1.judge_table1_fig2(df)
    c = _by_name(v)["one-pass = exact decomposition, run by run"]
    assert c.sanity and c.passed is True and c.runs == len(op)


def test_declared_rules_have_power_and_size():
    for entry in (T1.TABLE1_FIG2, pourkamali_fig3.FIG3):
        for rule in entry.rules:
            if rule.design is not None and not rule.sanity:
                assert rule.power(reps=300) >= 0.8 and rule.size(reps=300) <= 0.05, rule.name


def test_table1_setting_names_the_reconstruction_and_the_nystrom_gap():
    df = table1({**TABLE1, ("nystrom_rr", 20): (0.444, 0.877), ("nystrom_rr", 100): (0.418, 0.957)}, seeds=20)
    text = T1.setting_table1(df)
    assert text.startswith("setting differs:") and "Nyström, m = 20 accuracy 0.877" in text
    assert "reconstruction" in text and "radii" in text
    assert T1.setting_table1(table1(TABLE1, seeds=20)).startswith("setting matches:")
    assert "tuned" in T1.TABLE1_FIG2.changes["paper"]


def test_table1_identity_fails_with_the_rank_first_reading():
    """The reading that keeps r columns first: error 0.447 against 0.396 (measured, 10 seeds):
    the identity, true by construction for full_core, is shown failed."""
    worse = {**TABLE1, ("onepass", 12): (0.447, 0.81)}
    v = T1.judge_table1_fig2(table1(worse, sd=(0.01, 0.05), first=100))
    assert v.checks[0].sanity and v.checks[0].passed is False
    assert "sanity check(s) failed" in v.text


def test_table1_inconclusive_with_few_runs():
    """Three runs, all with Nyström at 0.74: the share 3 of 3 cannot show 'at least half' at 95 %."""
    v = T1.judge_table1_fig2(paper_rows(seeds=3))
    c = _by_name(v)["Nyström not accurate, m = 20"]
    assert c.passed is None and c.runs_needed and v.status == "inconclusive"


def test_table1_not_run_without_the_stored_error():
    """Rows without approx_fro_rel (computed before the runs stored it) are named, not refitted."""
    v = pourkamali_table1_fig2.judge_table1_fig2(table1(TABLE1).drop(columns=pourkamali.ERR))
    assert v.status == NOT_RUN and "approx_fro_rel" in v.text and pourkamali.ERR_WHY in v.text


def fig3(nys_err, nys_acc, op=(0.18, 0.55), ex=(0.175, 0.56), full_acc=pourkamali.FULL_KKM_ACCURACY,
         sd=(0.002, 0.002), seeds=10):
    numbers = {("onepass", 7): op, ("kpca", 2): ex, ("exact", 2): (0.0, full_acc)}
    numbers.update({("nystrom_rr", m): (nys_err(m), nys_acc(m)) for m in pourkamali_fig3.FIG3_GRID})
    df = table1(numbers, sd=sd, seeds=seeds)
    df["m_used"] = df["m"]
    return df


def test_fig3_reproduced_in_the_papers_shape():
    """§4 states only the full kernel k-means accuracy (0.46) and the shape: one-pass below
    Nyström up to m = 50, close to exact, more accurate than Nyström and full kernel k-means.
    Rows in that shape at the paper's 100 runs, with the spreads measured here at n = 2310
    (sd 0.01 for the errors, 0.05 for the accuracies)."""
    v = pourkamali_fig3.judge_fig3(fig3(lambda m: 0.19 + 0.5 / m, lambda m: 0.45, sd=(0.01, 0.05), seeds=100))
    assert v.status == REPRODUCED, v.text
    names = [c.name for c in v.checks]
    assert names[:6] == [f"one-pass error below Nyström, m = {m}" for m in (5, 10, 20, 30, 40, 50)]
    assert "one-pass error below Nyström, m = 100" not in names  # beyond 7r' the paper claims nothing
    assert names[-2:] == ["one-pass (Alg. 1) accuracy above full kernel k-means",
                          "exact decomposition accuracy above full kernel k-means"]


def test_fig3_not_reproduced_when_nystrom_reaches_onepass_before_7r():
    v = pourkamali_fig3.judge_fig3(fig3(lambda m: 0.14 + 0.5 / m, lambda m: 0.45))
    assert v.status == NOT_REPRODUCED
    assert v.checks[5].passed is False and v.checks[0].passed is True  # m = 50 fails, m = 5 holds


def test_fig3_not_reproduced_when_full_kernel_kmeans_is_better():
    v = pourkamali_fig3.judge_fig3(fig3(lambda m: 0.19 + 0.5 / m, lambda m: 0.45, full_acc=0.6))
    assert v.status == NOT_REPRODUCED and v.checks[-1].passed is False


def test_fig3_inconclusive_when_too_noisy():
    v = pourkamali_fig3.judge_fig3(fig3(lambda m: 0.19 + 0.5 / m, lambda m: 0.53, sd=(0.01, 0.1), seeds=5))
    undecided = [c for c in v.checks if c.passed is None]
    assert undecided and all(c.runs_needed or "points against the claim" in c.detail for c in undecided)
    assert any(c.runs_needed for c in undecided)
    assert not any(c.passed is False for c in v.checks)


def test_fig3_shows_the_full_kernel_kmeans_accuracy_beside_the_papers():
    obs = pourkamali_fig3.observe_fig3(fig3(lambda m: 0.19 + 0.5 / m, lambda m: 0.45, full_acc=0.5))
    assert abs(obs["exact/accuracy"].value - 0.5) < 0.01
    assert [n.key for n in pourkamali_fig3.FIG3.paper_numbers] == ["exact/accuracy"]
    df = fig3(lambda m: 0.19 + 0.5 / m, lambda m: 0.45, full_acc=0.456, seeds=20)
    assert pourkamali_fig3.setting_fig3(df).startswith("setting matches:")
    assert pourkamali_fig3.setting_fig3(fig3(lambda m: 0.19, lambda m: 0.45, full_acc=0.6)).startswith("setting differs:")


def test_method_labels_carry_nystrom_m():
    df = pd.DataFrame({"sketch.name": ["kpca", "nystrom_rr", "onepass"], "m": [2, 20, 12]})
    assert list(pourkamali.method_of(df)) == ["kpca", "nystrom_rr:20", "onepass"]
    assert pourkamali.label("nystrom_rr:20") == "Nyström, m = 20"


def tiny_sweep(tmp_path, *overrides):
    sweep = reproduce_sweep.run_sweep("pourkamali_table1_fig2_small", tmp_path / "results",
                                ["n=300", "n_test=20", "seed=0", *overrides], log=lambda _: None)
    assert sweep.failed == 0
    return sweep.rows


def test_runs_store_the_error_and_the_planar_features(tmp_path):
    """The run's approx_fro_rel is ‖K − FFᵀ‖_F/‖K‖_F of its own features, recomputed here by
    hand: rank-2 Nyström on the stored landmarks, KPCA's spectral tail; the .npz keeps the
    2-D features and the true classes that Fig. 2 draws."""
    from kktheory.run.config import build_spec
    from kktheory.run.experiment import load_data
    from kktheory.kernels.functions import make_kernel

    rows = tiny_sweep(tmp_path, "pourkamali/method=nystrom,exact_eig", "m=[20]")
    assert len(rows) == 2
    ny = rows[rows["sketch.name"] == "nystrom_rr"].iloc[0]
    spec = build_spec(OmegaConf.create(ny[CONFIG_COL]))
    data = load_data(spec)
    X = data.X_train
    K = make_kernel(spec.kernel, X, "float64")(X, X)
    arrays = load_arrays(ny["run_id"], tmp_path / "results")
    landmarks = arrays["landmarks"]
    C, W = K[:, landmarks], K[np.ix_(landmarks, landmarks)]
    lam, U = np.linalg.eigh(W)
    R = C @ U[:, -2:] / np.sqrt(lam[-2:])  # C W_2^+ C^T = R R^T
    F = arrays["train_features"]
    assert F.shape == (300, 2) and np.allclose(F @ F.T, R @ R.T, atol=1e-8)
    assert np.array_equal(arrays["train_classes"], data.y_train)
    assert abs(ny[pourkamali.ERR] - np.linalg.norm(K - R @ R.T) / np.linalg.norm(K)) < 1e-10
    kp = rows[rows["sketch.name"] == "kpca"].iloc[0]
    ev = np.linalg.eigvalsh(K)
    assert abs(kp[pourkamali.ERR] - np.sqrt((ev[:-2] ** 2).sum() / (ev**2).sum())) < 1e-8
    assert set(pourkamali_table1_fig2.fig2_runs(rows)) == set(rows["run_id"])


def test_the_error_follows_the_onepass_reading(tmp_path):
    """With rank K = 3 ≤ r' = 12 (⟨x, y⟩² on 2-D points) full_core is the exact rank-2
    decomposition, rank_first (asked on the command line) is not."""
    exact = tiny_sweep(tmp_path, "pourkamali/method=exact_eig").iloc[0][pourkamali.ERR]
    full = tiny_sweep(tmp_path, "pourkamali/method=onepass_l10").iloc[0]
    first = tiny_sweep(tmp_path, "pourkamali/method=onepass_l10", "sketch.reading=rank_first").iloc[0]
    assert full["sketch.reading"] == "full_core" and abs(full[pourkamali.ERR] - exact) < 1e-8
    assert first["sketch.reading"] == "rank_first" and first[pourkamali.ERR] > exact + 1e-3


def test_table1_without_arrays_names_what_fig2_lacks(tmp_path):
    """Rows without Fig. 2's points: Table 1 is drawn and judged, Fig. 2 is not drawn and the
    table says which methods it lacks and why."""
    df = table1(TABLE1)
    df["run_id"] = [f"r{i}" for i in range(len(df))]
    files = pourkamali_table1_fig2.draw_table1_fig2(df, tmp_path)
    assert [f.name for f in files] == ["pourkamali_table1.md"]
    text = (tmp_path / "pourkamali_table1.md").read_text()
    assert ("Fig. 2 lacks exact decomposition, one-pass (Alg. 1), Nyström, m = 20, Nyström, m = 100" in text
            and "train_features" in text)
    first = df[df["seed"] == 0]
    df.attrs["figure"] = pourkamali_table1_fig2.fig2_points(
        {rid: {"train_features": np.ones((5, 2)), "train_classes": np.arange(5) % 2}
         for rid in first["run_id"] if rid != "r0"})
    files = pourkamali_table1_fig2.draw_table1_fig2(df, tmp_path)
    assert "pourkamali_fig2.png" in [f.name for f in files]
    assert "Fig. 2 lacks exact decomposition:" in (tmp_path / "pourkamali_table1.md").read_text()


def test_fig2_points_hold_each_runs_features_and_classes():
    """One row per training point of each run with planar features; rank-1 features get y2 = 0;
    runs whose arrays lack the features give no points."""
    arrays = {"a": {"train_features": np.array([[1.0, 2.0], [3.0, 4.0]]), "train_classes": np.array([0, 1])},
              "b": {"train_features": np.array([5.0, 6.0, 7.0]), "train_classes": np.array([1, 1, 0])},
              "c": {"train_classes": np.array([0])}}
    p = pourkamali_table1_fig2.fig2_points(arrays)
    assert list(p["run_id"]) == ["a", "a", "b", "b", "b"]
    assert p[["y1", "y2"]].to_numpy().tolist() == [[1, 2], [3, 4], [5, 0], [6, 0], [7, 0]]
    assert list(p["class"]) == [0, 1, 1, 1, 0] and p["y1"].dtype == np.float32


def test_fig2_panel_titles_describe_the_run_drawn(tmp_path, monkeypatch):
    """Each panel draws one run: its title gives that run's seed, error and accuracy, then the
    method over all runs (mean accuracy, accurate runs) — not the mean as if it were the run."""
    df = bimodal({20: 0.0, 100: 1.0}, seeds=10, first=0)
    df["run_id"] = [f"r{i}" for i in range(len(df))]
    first = df[df["seed"] == 0]
    df.attrs["figure"] = T1.fig2_points({rid: {"train_features": np.ones((5, 2)), "train_classes": np.arange(5) % 2}
                                         for rid in first["run_id"]})
    figs = []
    monkeypatch.setattr(T1, "save_figure", lambda fig, out, name: figs.append(fig) or [])
    T1.draw_table1_fig2(df, tmp_path)
    titles = {ax.get_title().splitlines()[0]: ax.get_title() for ax in figs[0].axes}
    nys = first[(first["sketch.name"] == "nystrom_rr") & (first["m"] == 20)].iloc[0]
    t = titles["Nyström, m = 20"]
    assert f"seed 0 (drawn): error {nys[pourkamali.ERR]:.3f}, accuracy {nys['train_accuracy']:.3f}" in t
    assert "all 10 runs: mean accuracy" in t and "0 accurate" in t
    assert "10 accurate" in titles["Nyström, m = 100"]
    assert "| Nyström, m = 20 |" in (tmp_path / "pourkamali_table1.md").read_text()
    assert "0 of 10 | 10 |" in (tmp_path / "pourkamali_table1.md").read_text()
