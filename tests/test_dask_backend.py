"""The Dask backend: chunked data access equals the in-memory one, the sketches' features
equal the in-memory features, and runs on a distributed LocalCluster agree with the NumPy
backend."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import normalized_mutual_info_score

from kktheory.run import dask as dask_backend
from kktheory.run.config import build_spec
from kktheory.errors import ConfigError
from kktheory.estimator import SketchedKernelKMeans
from kktheory.run.experiment import load_data, run
from kktheory.run.method import Method
from kktheory.kernels.geometry import membership
from kktheory.kernels.functions import Kernel
from kktheory.evaluation.risk import RiskSettings, Rows, lifted
from kktheory.seeding import component_rng
from kktheory.run.store import load_arrays
from tests.conftest import run_files
from tests.hydra_cfg import make_cfg

da = pytest.importorskip("dask.array")  # the optional extra: pip install -e ".[dask]"
pytest.importorskip("dask_ml")
distributed = pytest.importorskip("distributed")

KERNELS = [Kernel("gaussian", sigma=1.3), Kernel("polynomial", degree=2, coef0=0.5)]


@pytest.fixture(scope="module")
def cluster():
    """A 2-worker in-process distributed cluster (threads, no processes: fast to start)."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as lc:
        yield lc


def data(n: int = 103, d: int = 4, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((n, d))


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.name)
def test_dask_rows_equal_rows(kernel: Kernel) -> None:
    X = data()
    Xd = da.from_array(X, chunks=(20, 4))
    rows, drows = Rows(X), dask_backend.DaskRows(Xd)
    rng = np.random.default_rng(1)
    labels = rng.integers(0, 5, size=len(X))
    Z = membership(labels, 5)
    Y = data(7, seed=2)
    idx = np.sort(rng.choice(len(X), 30, replace=False))
    ia, ib = rng.integers(0, len(X), 500), rng.integers(0, len(X), 500)
    budget = 2**30
    assert len(drows) == 103 and drows.n_features == 4
    np.testing.assert_array_equal(drows.take(idx), X[idx])
    assert drows.diag_sum(kernel) == pytest.approx(rows.diag_sum(kernel), rel=1e-12)
    assert drows.diag_sum(kernel, idx) == pytest.approx(rows.diag_sum(kernel, idx), rel=1e-12)
    np.testing.assert_allclose(drows.cross_sums(kernel, Y, Z, budget, ""), rows.cross_sums(kernel, Y, Z, budget, ""), rtol=1e-12)
    S_lazy = drows.cross_sums(kernel, da.from_array(Y, chunks=(3, 4)), Z, budget, "")
    assert dask_backend.is_dask(S_lazy)
    np.testing.assert_allclose(S_lazy.compute(), rows.cross_sums(kernel, Y, Z, budget, ""), rtol=1e-12)
    # brute force for the pairs: κ evaluated pair by pair
    brute = np.array([kernel(X[a : a + 1], X[b : b + 1])[0, 0] for a, b in zip(ia, ib)])
    np.testing.assert_allclose(drows.paired(kernel, ia, ib, budget), brute, rtol=1e-12)


def test_batched_subsampled_risk_same_on_chunks() -> None:
    """lifted_many on chunks: each partition's numbers are those of its estimator alone."""
    X, X_test = data(400), data(150, seed=5)
    rng = np.random.default_rng(2)
    labelings = [rng.integers(0, 4, size=400), rng.integers(0, 3, size=400)]  # the second: cluster 3 empty
    kernel = KERNELS[0]
    settings = RiskSettings(2**30, exact_limit=0, points=60, pairs=500)
    many = dask_backend.lifted_many(
        kernel, da.from_array(X, chunks=(64, 4)), labelings, da.from_array(X_test, chunks=(50, 4)),
        4, settings, lambda: np.random.default_rng(9),
    )
    for labels, b in zip(labelings, many):
        a = lifted(kernel, X, labels, X_test, 4, settings, np.random.default_rng(9))
        for name in ("train_risk", "objective", "test_risk", "train_risk_se", "objective_se", "test_risk_se"):
            assert getattr(b, name) == pytest.approx(getattr(a, name), rel=1e-10), name
        np.testing.assert_array_equal(a.train_eval, b.train_eval)
        np.testing.assert_array_equal(a.test_labels, b.test_labels)


@pytest.mark.parametrize("sketch", dask_backend.supported_sketches())
def test_features_equal_in_memory(sketch: str) -> None:
    """Same landmarks (nested over a list of m) and the same features on chunks."""
    assert set(dask_backend.supported_sketches()) == {"nystrom", "nystrom_liu", "yin_nystrom", "subgaussian", "ros",
                                                        "nystrom_rr"}
    spec = build_spec(make_cfg(f"sketch={sketch}", "n=300", "n_test=50", "k=3", "m=[8,16]"))
    X = load_data(spec).X_train
    method = Method.of(spec)
    kernel = method.fit_kernel(X)
    numpy_fits = list(method.sketch_class.fit_nested(
        spec.sketch, method.context(300), X, kernel, [8, 16],
        lambda: component_rng(spec.seed, "sketch"),
    ))
    Xd = dask_backend.as_rows_array(X, 64)
    dask_fits = list(dask_backend.fit_sketches(method, Xd, kernel, [8, 16]))
    for (m, a), (m2, b) in zip(numpy_fits, dask_fits):
        assert m == m2
        np.testing.assert_array_equal(a.landmarks_, b.landmarks_)
        np.testing.assert_allclose(dask_backend.features(b, Xd).compute(), a.transform(X), rtol=1e-9, atol=1e-12)
        assert a.jl_scale() == b.jl_scale()


@pytest.mark.parametrize(
    "override, field",
    [("sketch=kpca", "sketch"), ("clustering=minibatch", "clustering"),
     ("centroids=projected", "centroids"), ("bounds=[gamma]", "bounds")],
)
def test_refused_with_dask(tmp_path, override: str, field: str) -> None:
    cfg = make_cfg("backend=dask", "n=100", "n_test=20", "k=3", "m=8", override, f"results_dir={tmp_path}")
    with pytest.raises(ConfigError) as info:
        run(cfg)
    assert info.value.field == field
    assert not run_files(tmp_path)


@pytest.mark.parametrize("overrides, reason", [
    (("sketch=nystrom_rls",), "ridge leverage scores, which need all of K"),
    (("sketch=ros", "sketch.order=mix_first"), "order=mix_first mixes all n coordinates"),
    (("sketch=exact",), "partitions by its own method"),
    (("sketch=rff",), "no fit from landmark rows is written for it"),
    (("sketch=kpca",), "top eigenvectors of all of K"),
    (("sketch=nystrom_rr", "sketch.P=gaussian"), "sketch.P=gaussian forms C = K·P from all of K"),
    (("sketch=nystrom_rr", "sketch.s=[2,3]"), "a list of sketch.s takes its rows from the training features"),
])
def test_a_refused_sketch_says_why(tmp_path, overrides, reason) -> None:
    """Each sketch states whether its features need only the landmark rows, and why not."""
    cfg = make_cfg("backend=dask", "n=100", "n_test=20", "k=3", "m=8", *overrides, f"results_dir={tmp_path}")
    with pytest.raises(ConfigError, match=reason):
        run(cfg)


def test_estimator_on_dask_arrays(cluster) -> None:
    X, X_new = data(600, seed=3), data(90, seed=4)
    with distributed.Client(cluster):
        est = SketchedKernelKMeans(4, m=20, backend="dask", dtype="float64", random_state=0)
        est.fit(da.from_array(X, chunks=(150, 4)))
        assert isinstance(est.labels_, np.ndarray) and est.labels_.shape == (600,)
        Xd_new = da.from_array(X_new, chunks=(40, 4))
        lazy = est.predict(Xd_new)
        assert dask_backend.is_dask(lazy)
        np.testing.assert_array_equal(lazy.compute(), est.predict(X_new))
        F = est.transform(Xd_new)
        assert dask_backend.is_dask(F)
        np.testing.assert_allclose(F.compute(), est.transform(X_new), rtol=1e-10)
        means = np.stack([est.transform(X)[est.labels_ == j].mean(axis=0) for j in range(4)])
        np.testing.assert_allclose(est.cluster_centers_, means, atol=1e-10)
        assert est.score(Xd_new) == pytest.approx(est.score(X_new), rel=1e-10)
        assert est.info_["clustering_algorithm"] == "dask-ml k-means||"


def test_dask_ml_info_lines_silenced(caplog) -> None:
    """dask-ml's INFO lines (some logged on the root logger itself) do not reach the log;
    warnings and other loggers' INFO lines do, and the logging setup is restored."""
    import dask_ml

    folder = str(Path(dask_ml.__file__).parent)
    root, named = logging.getLogger(), logging.getLogger("dask_ml")
    filters, level = list(root.filters), named.level
    with caplog.at_level(logging.INFO):
        SketchedKernelKMeans(3, m=10, backend="dask", random_state=0).fit(da.from_array(data(300), chunks=(100, 4)))
        with dask_backend.quiet_dask_ml():
            logging.getLogger("kktheory.test").info("ours")
            logging.getLogger("dask_ml.cluster.k_means").warning("theirs")
    assert not [r for r in caplog.records if r.pathname.startswith(folder)]
    assert "ours" in caplog.messages and "theirs" in caplog.messages
    assert root.filters == filters and named.level == level


def compare_backends(tmp_path, cluster, *overrides: str) -> tuple[dict, dict, float, float]:
    """The same config and seed run in memory and on the cluster (dask_scheduler=address)."""
    common = [*overrides, "reference=none", "seed=0", f"results_dir={tmp_path}"]
    t0 = time.perf_counter()
    r_np = run(make_cfg(*common)).rows[0]
    t_np = time.perf_counter() - t0
    t0 = time.perf_counter()
    r_dk = run(make_cfg(*common, "backend=dask", f"dask_scheduler={cluster.scheduler_address}")).rows[0]
    t_dk = time.perf_counter() - t0
    assert r_np["run_id"] != r_dk["run_id"]
    assert r_np["backend"] == "numpy" and "dask_chunk_rows" not in r_np  # backend named, not in the id
    assert r_dk["backend"] == "dask" and r_dk["dask_chunk_rows"] == 5000
    assert r_dk["risk_estimator"].startswith("subsample")
    return r_np, r_dk, t_np, t_dk


def nmi_between(tmp_path, r_np: dict, r_dk: dict) -> float:
    a = load_arrays(r_np["run_id"], tmp_path)["train_labels"]
    b = load_arrays(r_dk["run_id"], tmp_path)["train_labels"]
    return normalized_mutual_info_score(a, b)


def test_runner_on_local_cluster(tmp_path, cluster) -> None:
    r_np, r_dk, _, _ = compare_backends(tmp_path, cluster, "n=3000", "n_test=1000", "k=5", "dataset.std=0.5")
    assert nmi_between(tmp_path, r_np, r_dk) > 0.95
    assert r_dk["test_risk"] == pytest.approx(r_np["test_risk"], rel=0.01)


@pytest.mark.slow
def test_n20000_same_partition_quality(tmp_path, cluster) -> None:
    """Acceptance of the Dask backend: n = 20,000 on a 2-worker LocalCluster vs the NumPy backend.

    k-means|| (dask-ml) is a different seeding from k-means++ (scikit-learn), so labels are
    not identical; the partitions agree (NMI ≥ 0.95) and the risks are within 1 %
    (the Dask risks are subsampling estimates, the NumPy ones exact at this n).
    """
    r_np, r_dk, t_np, t_dk = compare_backends(tmp_path, cluster, "n=20000", "n_test=2000", "k=8")
    nmi = nmi_between(tmp_path, r_np, r_dk)
    print(f"n=20000: numpy {t_np:.1f} s, dask {t_dk:.1f} s, NMI {nmi:.4f}, test risk "
          f"{r_np['test_risk']:.5f} vs {r_dk['test_risk']:.5f} ± {r_dk['test_risk_se']:.5f}")
    assert nmi >= 0.95
    for name in ("train_risk", "objective", "test_risk"):
        assert r_dk[name] == pytest.approx(r_np[name], rel=0.01), name


@pytest.mark.parametrize("lazy", [False, True])
def test_cluster_means_of_numpy_and_dask_features_equal_brute_force(lazy):
    """The Dask backend's cluster means (the estimator's cluster_centers_): a NumPy F goes
    through the one in-memory implementation, a Dask F chunk by chunk; cluster 3 is empty."""
    rng = np.random.default_rng(5)
    F = rng.normal(size=(23, 4))
    labels = rng.integers(0, 3, size=23)
    want = np.array([F[labels == j].mean(axis=0) if np.any(labels == j) else np.zeros(4) for j in range(4)])
    X = da.from_array(F, chunks=(7, 4)) if lazy else F
    got = dask_backend.DaskBackend().cluster_means(X, labels, 4)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=1e-12)


def test_dask_input_is_checked_for_shape_before_its_values():
    """A Dask array of the wrong width is refused for its width (no pass over the values),
    one with a NaN for its values; a fit that fails leaves no n_features_in_."""
    X = np.random.default_rng(0).normal(size=(40, 3))
    est = SketchedKernelKMeans(n_clusters=2, m=6, backend="dask", random_state=0).fit(da.from_array(X, chunks=20))
    wide = np.c_[X, np.full(40, np.nan)]
    with pytest.raises(ValueError, match="X has 4 features, but the model is expecting 3 features"):
        est.predict(da.from_array(wide, chunks=20))
    with pytest.raises(ValueError, match="NaN or infinity"):
        est.predict(da.from_array(np.where(np.arange(40)[:, None] == 33, np.nan, X), chunks=20))
    fresh = SketchedKernelKMeans(n_clusters=2, m=6, backend="dask")
    with pytest.raises(ValueError, match="NaN or infinity"):
        fresh.fit(da.from_array(wide, chunks=20))
    assert not hasattr(fresh, "n_features_in_")
