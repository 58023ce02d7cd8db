"""SketchedKernelKMeans: scikit-learn conventions, brute-force centroid rules, the same
numbers as the runner, validation, Pipeline and GridSearchCV."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_blobs
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import check_estimator

import kktheory
from kktheory.cluster.clusterers import CLUSTERERS
from kktheory.run.config import build_spec
from kktheory.estimator import SketchedKernelKMeans
from kktheory.run.experiment import load_data, run
from kktheory.embeddings import SKETCHES
from kktheory.run.store import load_arrays
from tests.hydra_cfg import make_cfg

#: checks of scikit-learn's suite expected to fail, with the reason (none)
EXPECTED_FAILED_CHECKS: dict[str, str] = {}


def gaussian_gram(A: np.ndarray, B: np.ndarray, sigma: float) -> np.ndarray:
    """Dense exp(−‖a−b‖²/(2σ²)) by explicit differences (independent of kktheory)."""
    d2 = ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=-1)
    return np.exp(-d2 / (2.0 * sigma**2))


def blobs(n: int = 150, d: int = 3, k: int = 3, seed: int = 0) -> np.ndarray:
    X, _ = make_blobs(n, n_features=d, centers=k, cluster_std=1.5, random_state=seed)
    return X


def run_check_estimator(est: SketchedKernelKMeans) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(
            est, expected_failed_checks=EXPECTED_FAILED_CHECKS, on_fail=None, on_skip=None
        )
    failed = [(r["check_name"], repr(r["exception"])) for r in results if r["status"] == "failed"]
    assert not failed, failed
    assert len(results) > 40  # the clustering and transformer checks ran


def test_check_estimator() -> None:
    run_check_estimator(SketchedKernelKMeans())


@pytest.mark.slow
@pytest.mark.parametrize(
    "params",
    [{"centroids": "projected"}, {"dtype": "float32"}, {"sketch": "ros"}, {"sketch": "exact"},
     {"sketch": "rff", "clustering": "localsearch"}, {"backend": "dask"}],
    ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()),
)
def test_check_estimator_variants(params: dict) -> None:
    run_check_estimator(SketchedKernelKMeans(**params))


def test_lazy_export() -> None:
    assert kktheory.SketchedKernelKMeans is SketchedKernelKMeans


# -- the numbers, against brute force ------------------------------------------------------
def test_lifted_predict_and_score_brute_force() -> None:
    X = blobs(150)
    X_new = blobs(60, seed=1)
    sigma = 1.7
    est = SketchedKernelKMeans(3, m=12, bandwidth="fixed", sigma=sigma, dtype="float64", random_state=0).fit(X)
    labels = est.labels_
    K_new = gaussian_gram(X_new, X, sigma)
    K = gaussian_gram(X, X, sigma)
    D = np.empty((len(X_new), 3))
    for j in range(3):
        C = labels == j
        D[:, j] = 1.0 - 2.0 * K_new[:, C].mean(axis=1) + K[np.ix_(C, C)].mean()
    np.testing.assert_array_equal(est.predict(X_new), D.argmin(axis=1))
    assert est.score(X_new) == pytest.approx(-D.min(axis=1).mean(), rel=1e-10)


def test_fit_leaves_the_centroid_sums_to_predict(monkeypatch) -> None:
    # fit and fit_predict need only the partition; the within-cluster sums q_j are computed
    # at the first predict / score, once, with the same numbers as computed eagerly
    import kktheory.evaluation.risk as risk_module

    calls = []
    real = risk_module.within_cluster_sums
    monkeypatch.setattr(risk_module, "within_cluster_sums", lambda *a, **k: calls.append(1) or real(*a, **k))
    X, X_new = blobs(150), blobs(60, seed=1)
    est = SketchedKernelKMeans(3, m=12, bandwidth="fixed", sigma=1.7, dtype="float64", random_state=0)
    labels = est.fit_predict(X)
    assert calls == []
    first = est.predict(X_new), est.score(X_new)
    assert calls == [1]
    np.testing.assert_array_equal(labels, est.labels_)
    np.testing.assert_array_equal(est.fit(X).predict(X_new), first[0])
    assert est.score(X_new) == first[1] and calls == [1, 1]


def test_projected_predict_and_score_brute_force() -> None:
    """Linear kernel: Π_m projects onto span{landmarks} ⊂ R^d, c̃_j = mean of Π x over C_j,
    ‖φ(x) − c̃_j‖² = ‖x − c̃_j‖² (explicit features)."""
    rng = np.random.default_rng(3)
    X = rng.standard_normal((120, 6)) + np.repeat(rng.standard_normal((3, 6)) * 3, 40, axis=0)
    X_new = rng.standard_normal((50, 6)) * 2
    est = SketchedKernelKMeans(3, m=4, kernel="linear", centroids="projected", dtype="float64", random_state=1).fit(X)
    Q, _ = np.linalg.qr(X[est.sketch_.landmarks_].T)  # orthonormal basis of the landmark span
    P = Q @ Q.T
    centres = np.stack([(X[est.labels_ == j] @ P).mean(axis=0) for j in range(3)])
    D = ((X_new[:, None, :] - centres[None, :, :]) ** 2).sum(axis=-1)
    np.testing.assert_array_equal(est.predict(X_new), D.argmin(axis=1))
    assert est.score(X_new) == pytest.approx(-D.min(axis=1).mean(), rel=1e-9)
    # features: inner products of the projections; centres: feature means per cluster
    F = est.transform(X_new)
    np.testing.assert_allclose(F @ F.T, X_new @ P @ X_new.T, atol=1e-8)
    means = np.stack([est.transform(X)[est.labels_ == j].mean(axis=0) for j in range(3)])
    np.testing.assert_allclose(est.cluster_centers_, means, atol=1e-12)


def test_transform_is_the_nystrom_map() -> None:
    """F Fᵀ = K_nL K_LL⁻¹ K_Ln for uniform Nyström (Calandriello Alg. 1), dense brute force."""
    X = blobs(100)
    sigma = 2.0
    est = SketchedKernelKMeans(3, m=15, bandwidth="fixed", sigma=sigma, dtype="float64", random_state=4).fit(X)
    L = X[est.sketch_.landmarks_]
    approx = gaussian_gram(X, L, sigma) @ np.linalg.pinv(gaussian_gram(L, L, sigma), rcond=1e-12) @ gaussian_gram(L, X, sigma)
    F = est.transform(X)
    assert F.shape == (100, est.m_) and est.m_ == 15
    np.testing.assert_allclose(F @ F.T, approx, atol=1e-8)
    assert est.kernel_.sigma == sigma


# -- one implementation with the runner ------------------------------------------------------
@pytest.mark.parametrize(
    "overrides, params",
    [
        ((), {}),
        (("centroids=projected",), {"centroids": "projected"}),
        (("sketch=ros",), {"sketch": "ros"}),
        (("sketch=subgaussian", "kernel=polynomial"), {"sketch": "subgaussian", "kernel": "polynomial"}),
        (("sketch=exact",), {"sketch": "exact"}),
        (("sketch=nystrom_rls", "clustering=localsearch"), {"sketch": "nystrom_rls", "clustering": "localsearch"}),
        (("sketch=two_step",), {"sketch": "two_step"}),
    ],
    ids=["nystrom", "projected", "ros", "subgaussian-poly", "exact", "rls-localsearch", "two_step"],
)
def test_same_numbers_as_the_runner(tmp_path, overrides, params) -> None:
    """For one seed the estimator's labels_ are the row's training labels, predict gives the
    row's test labels and score is minus the row's (exact) test risk."""
    cfg = make_cfg("n=240", "n_test=120", "k=4", "m=14", "seed=5", "reference=none",
                   f"results_dir={tmp_path}", *overrides)
    row = run(cfg).rows[0]
    arrays = load_arrays(row["run_id"], tmp_path)
    data = load_data(build_spec(cfg))
    est = SketchedKernelKMeans(4, m=14, bandwidth="fixed", sigma=2.0, dtype="float64", random_state=5, **params)
    est.fit(data.X_train)
    np.testing.assert_array_equal(est.labels_, arrays["train_labels"])
    np.testing.assert_array_equal(est.predict(data.X_test), arrays["test_labels"])
    assert row["risk_estimator"] == "exact"
    assert est.score(data.X_test) == pytest.approx(-row["test_risk"], rel=1e-10)
    if est.sketch_.landmarks_ is not None:
        np.testing.assert_array_equal(est.sketch_.landmarks_, arrays["landmarks"])


def test_defaults_are_the_config_files() -> None:
    """Group parameters not given to the estimator take the values of configs/<group>/*.yaml."""
    for name in SKETCHES.names():
        assert SKETCHES.params({"name": name}) == SKETCHES.params(make_cfg(f"sketch={name}").sketch), name
    for name in CLUSTERERS.names():
        assert CLUSTERERS.params({"name": name}) == CLUSTERERS.params(make_cfg(f"clustering={name}").clustering), name


# -- scikit-learn usage ------------------------------------------------------------------------
def test_pipeline_and_grid_search() -> None:
    X, y = make_blobs(240, n_features=4, centers=3, cluster_std=1.0, random_state=2)
    X = X * np.array([1.0, 10.0, 0.1, 5.0])  # scales the scaler must fix
    pipe = make_pipeline(StandardScaler(), SketchedKernelKMeans(3, random_state=0))
    assert pipe.fit_predict(X).shape == (240,)
    grid = GridSearchCV(
        pipe, {"sketchedkernelkmeans__m": [4, 16, "sqrt_n"], "sketchedkernelkmeans__beta": [0.3, 1.0]},
        cv=3,
    ).fit(X)
    scores = grid.cv_results_["mean_test_score"]
    assert np.all(np.isfinite(scores)) and np.all(scores < 0)  # minus a risk
    assert grid.best_score_ == scores.max()
    best = grid.best_estimator_[-1]
    assert best.get_params()["m"] in (4, 16, "sqrt_n")
    assert grid.predict(X).shape == (240,)


def test_dataframe_feature_names() -> None:
    X = pd.DataFrame(blobs(60), columns=["a", "b", "c"])
    est = SketchedKernelKMeans(3, random_state=0).fit(X)
    np.testing.assert_array_equal(est.feature_names_in_, ["a", "b", "c"])
    assert est.n_features_in_ == 3
    with pytest.warns(UserWarning, match="feature names"):
        np.testing.assert_array_equal(est.predict(X), est.predict(X.to_numpy()))


def test_random_state() -> None:
    X = blobs(200)
    a = SketchedKernelKMeans(3, m=10, random_state=7).fit(X)
    b = SketchedKernelKMeans(3, m=10, random_state=7).fit(X)
    c = SketchedKernelKMeans(3, m=10, random_state=8).fit(X)
    np.testing.assert_array_equal(a.sketch_.landmarks_, b.sketch_.landmarks_)
    np.testing.assert_array_equal(a.labels_, b.labels_)
    assert not np.array_equal(a.sketch_.landmarks_, c.sketch_.landmarks_)
    # a RandomState draws a fresh seed at each fit; the same state gives the same draws
    d = SketchedKernelKMeans(3, m=10, random_state=np.random.RandomState(0)).fit(X)
    e = SketchedKernelKMeans(3, m=10, random_state=np.random.RandomState(0)).fit(X)
    np.testing.assert_array_equal(d.sketch_.landmarks_, e.sketch_.landmarks_)


def test_small_inputs() -> None:
    """m = sqrt_n resolves for tiny n; one feature works; k = n works; k > n is refused."""
    X1 = np.array([[0.0], [0.1], [5.0], [5.2]])
    est = SketchedKernelKMeans(2, random_state=0).fit(X1)
    assert est.m_ == 2 and est.labels_[0] == est.labels_[1] != est.labels_[2] == est.labels_[3]
    assert SketchedKernelKMeans(4, random_state=0).fit(X1).m_ == 2
    assert SketchedKernelKMeans(1, bandwidth="fixed", random_state=0).fit(X1[:1]).m_ == 1
    with pytest.raises(ValueError, match=r"n_clusters=5: an integer \[1, 4\] \(n_clusters ≤ n_samples=4\)"):
        SketchedKernelKMeans(5).fit(X1)


def test_dtype_float32() -> None:
    X = blobs(80).astype(np.float32)
    est = SketchedKernelKMeans(3, dtype="float32", random_state=0).fit(X)
    assert est.transform(X).dtype == np.float32
    assert est.transform(X[:5].astype(np.float64)).dtype == np.float32
    assert SketchedKernelKMeans(3, random_state=0).fit(X).transform(X).dtype == np.float32  # the default
    assert SketchedKernelKMeans(3, dtype="float64", random_state=0).fit(X).transform(X).dtype == np.float64


@pytest.mark.parametrize(
    "params, message",
    [
        ({"m": "sqrt_q"}, "config error: m='sqrt_q'"),
        ({"m": 500}, "config error: m=500: 1 ≤ m ≤ n=60"),
        ({"m": [4, 8]}, "config error: m=[4, 8]"),
        ({"sketch": "nope"}, "config error: sketch='nope': one of"),
        ({"sketch_params": {"bogus": 1}}, "config error: sketch.bogus"),
        ({"sketch": "ros", "sketch_params": {"transform": "hadamard"}, "m": 6}, "config error: m=6: sketch=ros with transform=hadamard needs m a power of two"),
        ({"sketch": "ros", "centroids": "projected"}, "config error: centroids='projected': lifted (sketch ros is not a projection"),
        ({"clustering": "nope"}, "config error: clustering='nope'"),
        ({"clustering_params": {"n_init": 0}}, "config error: clustering.n_init=0"),
        ({"kernel": "cosine"}, "config error: kernel.name='cosine'"),
        ({"bandwidth": "scott"}, "config error: kernel.bandwidth='scott'"),
        ({"bandwidth": "fixed", "sigma": -1.0}, "config error: kernel.sigma=-1.0"),
        ({"sigma": "wide"}, "config error: sigma='wide': a number"),
        ({"bandwidth": "fixed", "sigma": float("inf")}, "config error: kernel.sigma=inf: a positive finite number"),
        ({"bandwidth": "wang", "beta": float("nan")}, "config error: kernel.beta=nan: a positive finite number"),
        ({"kernel": "polynomial", "coef0": float("nan")}, "config error: kernel.coef0=nan: a finite number ≥ 0"),
        ({"dtype": "float16"}, "config error: dtype='float16': one of float64, float32"),
        ({"backend": "spark"}, "config error: backend='spark': one of numpy, dask"),
        ({"backend": ["numpy"]}, "config error: backend=['numpy']: one of numpy, dask"),
        ({"gamma": -1}, "config error: gamma=-1"),
        ({"memory_budget_gb": 0}, "config error: memory_budget_gb=0"),
        ({"memory_budget_gb": float("inf")}, "config error: memory_budget_gb=inf: a positive number of GiB"),
        ({"random_state": -3}, "config error: random_state=-3"),
        ({"n_clusters": 0}, "config error: n_clusters=0"),
        ({"backend": "dask", "sketch": "kpca"}, "config error: sketch='kpca': with backend=dask one of"),
    ],
)
def test_bad_parameters(params: dict, message: str) -> None:
    est = SketchedKernelKMeans(**{"n_clusters": 3, **params})
    with pytest.raises(ValueError) as info:
        est.fit(blobs(60))
    text = str(info.value)
    assert text.startswith("config error: ") and message in text and "\n" not in text
    assert est.get_params()[next(iter(params))] == params[next(iter(params))]  # stored unchanged


def test_not_fitted_and_feature_count() -> None:
    from sklearn.exceptions import NotFittedError

    est = SketchedKernelKMeans(3)
    with pytest.raises(NotFittedError):
        est.predict(blobs(10))
    est.fit(blobs(60))
    with pytest.raises(ValueError, match="features"):
        est.predict(np.zeros((4, 5)))
