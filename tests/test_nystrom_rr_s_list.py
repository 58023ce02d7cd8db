"""A list of target ranks s for rank-restricted Nyström: one fit, a row per s, each the run
of that s alone (Wang, Gittens & Mahoney 2019, Alg. 2; Table 6 sweeps s at c = 1600).

The top-s right singular vectors of R = C·E are the first s of the top-s_max (the same RᵀR,
the same signs), so the features of every s are the first s columns of the s_max fit's and
each row has the identity (run id) and the numbers of a run given that s alone — held in
memory and streamed from rows on disk alike.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kktheory.errors import ConfigError
from kktheory.run.experiment import run
from kktheory.embeddings import SketchContext
from kktheory.kernels.functions import Kernel
from kktheory.cluster.clusterers import KMeansPP, KMeansPPConfig
from kktheory.cluster.lloyd import kmeans
from kktheory.embeddings.base import in_larger_buffer
from tests.hydra_cfg import make_cfg
from tests.test_disk_rows import synthetic_mnist  # noqa: F401 — the disk run's fixture
from tests.test_nystrom_rr_stream import BIG, ENTRY, SMALL, blobs

S_LIST = [3, 10, 5]  # not sorted: rows come from the largest s to the smallest


def fitted_sketch(X, kernel, budget, s, m=100):
    ctx = SketchContext(n=len(X), k=4, gamma=1.0, budget=budget, dtype=kernel.dtype)
    config = ENTRY.config_cls(s=s)
    ENTRY.impl(config, ctx).validate(m)
    ((_, sketch),) = ENTRY.impl.fit_nested(config, ctx, X, kernel, [m], lambda: np.random.default_rng(7))
    return sketch


@pytest.mark.parametrize("budget", [BIG, SMALL], ids=["in_memory", "streamed"])
def test_each_s_is_the_prefix_of_one_fit_and_equals_the_single_s_fit(budget: int):
    X = blobs(2000)
    kernel = Kernel("gaussian", sigma=2.5, dtype="float64")
    full = fitted_sketch(X, kernel, budget, max(S_LIST)).transform(X)
    seen = []
    for value, view in fitted_sketch(X, kernel, budget, S_LIST).variants():  # each checked before the next
        s = value
        seen.append(s)
        single = fitted_sketch(X, kernel, budget, s)
        assert view.info_["s"] == view.info_["s_used"] == s
        np.testing.assert_array_equal(view.landmarks_, single.landmarks_)
        F = view.transform(X)
        assert F.shape == (len(X), s) and F.flags.c_contiguous
        np.testing.assert_allclose(F, single.transform(X), rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(F, full[:, :s], rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(view.transform(X[:50] + 0.1), single.transform(X[:50] + 0.1), rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(view.residual(X), single.residual(X), rtol=1e-9, atol=1e-12)
    assert seen == sorted(S_LIST, reverse=True)


def test_the_list_reuses_one_buffer_and_clusters_each_s_in_place(monkeypatch):
    """Every s's features live in the buffer of the largest s's (no second n × s array), are
    contiguous, and k-means is told to work in place; a view that has been passed recomputes
    its features rather than return the reused buffer."""
    X = blobs(1500)
    kernel = Kernel("gaussian", sigma=2.5, dtype="float32")
    asked = []

    class Recording(KMeansPP):
        def fit(self, F, k, rng, low_memory=False):
            asked.append(low_memory)
            return super().fit(F, k, rng, low_memory)

    clusterer = Recording(KMeansPPConfig(n_init=1))
    first, pristine, passed = None, None, []
    for value, view in fitted_sketch(X, kernel, BIG, [4, 12, 8]).variants():
        F = view.transform(X)
        if first is None:
            first, pristine = F, F.copy()
        assert np.shares_memory(F, first) and F.flags.c_contiguous and F.shape == (len(X), value)
        assert in_larger_buffer(F) == (value != 12)
        # the prefix of the largest s's features, up to the round-off of the larger s's
        # k-means centring in place and back (NystromRR.variants)
        np.testing.assert_allclose(F, pristine[:, :value], rtol=1e-6, atol=1e-7)
        view.partition(X, 4, clusterer, np.random.default_rng(0))
        passed.append((view, F.copy()))
    assert asked == [False, True, True]  # the largest s is the buffer itself (small here)
    for view, F in passed:  # computed again by the map (another product order than B = C·M)
        np.testing.assert_allclose(view.transform(X), F, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape, ranks", [((37, 9), [7, 4, 1]), ((1000, 33), [32, 10, 3]), ((5, 4), [4, 2])])
def test_leading_columns_in_place_is_the_prefix(monkeypatch, shape, ranks):
    """Against a copy of each prefix, with chunks of 1, 3 and many rows (sources and
    destinations overlapping within and across chunks)."""
    from kktheory.embeddings import linalg

    rng = np.random.default_rng(0)
    for chunk_rows in (1, 3, 10_000):
        A = rng.standard_normal(shape).astype(np.float32)
        want = {r: A[:, :r].copy() for r in ranks}
        monkeypatch.setattr(linalg, "CHUNK_BYTES", chunk_rows * A.itemsize * min(ranks))
        B = A
        for r in ranks:
            B = linalg.leading_columns_in_place(B, r)
            assert np.shares_memory(A, B) and B.flags.c_contiguous
            np.testing.assert_array_equal(B, want[r])
    with pytest.raises(ValueError, match="C-contiguous"):
        linalg.leading_columns_in_place(np.asfortranarray(rng.standard_normal((4, 3))), 2)


def test_rows_of_a_list_equal_the_rows_of_single_s_runs(tmp_path: Path):
    """Same run ids, the same partition, the same risks; a rerun finds every row stored."""
    common = ["dataset=moons", "n=400", "n_test=100", "k=4", "sketch=nystrom_rr", "m=[20,40]",
              "reference=none", "centroids=projected"]
    listed = run(make_cfg(*common, "sketch.s=[4,8]", f"results_dir={tmp_path / 'list'}")).rows
    assert [(r["m"], r["s"]) for r in listed] == [(20, 8), (20, 4), (40, 8), (40, 4)]
    single = {}
    for s in (4, 8):
        for r in run(make_cfg(*common, f"sketch.s={s}", f"results_dir={tmp_path / str(s)}")).rows:
            single[r["m"], r["s"]] = r
    assert len(single) == 4
    for r in listed:
        one = single[r["m"], r["s"]]
        assert r["run_id"] == one["run_id"] and r["sketch.s"] == one["sketch.s"] == r["s"]
        for col in ("train_nmi", "test_nmi", "train_accuracy", "n_iter"):
            assert r[col] == one[col], col
        for col in ("train_risk", "test_risk", "objective", "feature_objective", "approx_fro_rel"):
            assert r[col] == pytest.approx(one[col], rel=1e-9, abs=1e-12), col
    again = run(make_cfg(*common, "sketch.s=[4,8]", f"results_dir={tmp_path / 'list'}"))
    assert again.rows == [] and sorted(again.skipped) == sorted(r["run_id"] for r in listed)
    # a single-s store has half of the list's rows: the list computes only the other half
    partial = run(make_cfg(*common, "sketch.s=[4,8]", f"results_dir={tmp_path / '4'}"))
    assert sorted(r["s"] for r in partial.rows) == [8, 8] and len(partial.skipped) == 2


def test_a_list_of_s_streams_from_rows_on_disk(synthetic_mnist, tmp_path: Path):  # noqa: F811
    """Augmented digits on disk, streamed: the list's rows are the single-s runs' rows."""
    common = ["dataset=augmented_mnist", "n=600", "n_test=150", "dataset.test_set=augmented",
              "centroids=projected", "reference=none", "sketch=nystrom_rr", "m=40", "sketch.ell=20",
              f"dataset.cache_dir={tmp_path / 'cache'}", "dataset.in_memory_max=0", "memory_budget_gb=0.0004"]
    listed = run(make_cfg(*common, "sketch.s=[6,12]", f"results_dir={tmp_path / 'list'}")).rows
    for r in listed:
        (one,) = run(make_cfg(*common, f"sketch.s={r['s']}", f"results_dir={tmp_path / str(r['s'])}")).rows
        assert r["run_id"] == one["run_id"]
        assert r["train_nmi"] == one["train_nmi"] and r["test_nmi"] == one["test_nmi"]
        assert r["test_risk"] == pytest.approx(one["test_risk"], rel=1e-9)


@pytest.mark.parametrize("overrides, allowed", [
    (("sketch.s=[4,4]",), "distinct ranks"),
    (("sketch.s=[4,k]", "k=4"), "distinct ranks"),
    (("sketch.s=[4,8]", "sketch.P=leverage"), "a single value with sketch.P=leverage"),
    (("sketch.s=[4,30]",), "s ≤ ell"),
    (("sketch.s=[]",), "a non-empty list"),
])
def test_bad_lists_are_refused(overrides, allowed, tmp_path: Path):
    cfg = make_cfg("dataset=moons", "n=200", "k=3", "sketch=nystrom_rr", "m=40", "reference=none",
                   f"results_dir={tmp_path}", *overrides)
    with pytest.raises(ConfigError, match=allowed):
        run(cfg)
    assert not any(tmp_path.rglob("*.parquet"))


def test_warm_starts_are_refused_with_a_list_of_s(tmp_path: Path):
    cfg = make_cfg("dataset=moons", "n=200", "k=3", "sketch=nystrom_rr", "m=[20,40]", "sketch.s=[3,6]",
                   "reference=none", "clustering.warm_start=true", f"results_dir={tmp_path}")
    with pytest.raises(ConfigError, match="warm starts follow a list of m"):
        run(cfg)


def test_kmeans_centres_in_place_and_restores_the_features():
    """``copy=False``: the same partition as with a copy; F restored up to round-off."""
    rng = np.random.default_rng(3)
    F = (rng.standard_normal((500, 6)) + 5.0).astype(np.float32)
    kept = F.copy()
    a = kmeans(F.copy(), 4, lambda X, k, random_state: X[:k].copy(), 1, 50, 0.0, 0)
    b = kmeans(F, 4, lambda X, k, random_state: X[:k].copy(), 1, 50, 0.0, 0, copy=False)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_allclose(a[1], b[1], rtol=1e-6)
    np.testing.assert_allclose(F, kept, rtol=1e-6)


@pytest.mark.parametrize("algorithm", ["lloyd", "hamerly"])
def test_low_memory_kmeans_is_kmeans_without_full_size_temporaries(algorithm: str):
    """The same partition and centres as the default k-means; the tolerance scale equals
    scikit-learn's ``_tolerance`` up to round-off; a view is clustered as its copy."""
    from sklearn.cluster._kmeans import _tolerance

    from kktheory.cluster.clusterers import KMeansPP, KMeansPPConfig
    from kktheory.cluster.lloyd import chunked_tolerance

    rng = np.random.default_rng(5)
    F = (rng.standard_normal((3000, 12)) * [1, 2, 3, 1, 1, 1, 5, 1, 1, 1, 1, 1] + 2.0).astype(np.float32)
    assert chunked_tolerance(F, 1e-4) == pytest.approx(_tolerance(F, 1e-4), rel=1e-5)
    clusterer = KMeansPP(KMeansPPConfig(n_init=2, max_iter=50, algorithm=algorithm))
    default = clusterer.fit(F.copy(), 5, np.random.default_rng(1))
    low = clusterer.fit(F.copy(), 5, np.random.default_rng(1), low_memory=True)
    np.testing.assert_array_equal(default.labels, low.labels)
    np.testing.assert_allclose(default.centers, low.centers, rtol=1e-5, atol=1e-5)
    wide = np.hstack([F, F])
    view = clusterer.fit(wide[:, :12], 5, np.random.default_rng(1), low_memory=True)
    np.testing.assert_array_equal(default.labels, view.labels)


def test_the_estimator_refuses_a_list_of_s():
    """One model per fit: a list of s is a sweep's rows (run.py), not a model."""
    from kktheory.estimator import SketchedKernelKMeans

    with pytest.raises(ValueError, match=r"sketch_params\['s'\]=\[3, 6\]: a single value"):
        SketchedKernelKMeans(3, sketch="nystrom_rr", m=40, sketch_params={"s": [3, 6]}).fit(blobs(200))
