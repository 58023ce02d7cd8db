"""Synthetic generators: their defining properties, checked against dense brute force."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.cluster import KMeans
from threadpoolctl import threadpool_limits

from kktheory.datasets import DATASETS
from kktheory.errors import ConfigError


@pytest.fixture(autouse=True)
def one_thread():
    """KMeans and LAPACK on one thread: on a shared, loaded machine OpenMP oversubscription
    made a 4000-point KMeans a hundred times slower."""
    with threadpool_limits(1):
        yield


def load(name: str, n: int, n_test: int, k: int = 2, seed: int = 0, **kw):
    entry = DATASETS.get(name)
    return entry.impl(entry.config_cls(**kw), n, n_test, k, np.random.default_rng(seed))


def accuracy(y: np.ndarray, labels: np.ndarray) -> float:
    """Best one-to-one matching for two classes."""
    a = float(np.mean(y == labels))
    return max(a, 1 - a)


def kmeans_objective(F: np.ndarray, labels: np.ndarray) -> float:
    return sum(float(((F[labels == j] - F[labels == j].mean(0)) ** 2).sum()) for j in np.unique(labels))


# -- Yin et al. 2022 §5.1 -------------------------------------------------------------------
def test_yin_hypercube_sizes_centres_and_shared_centres():
    k, n = 10, 20003
    d = load("yin_hypercube", n, 5000, k=k)
    assert d.X_train.shape == (n, 8) and d.X_test.shape == (5000, 8)
    sizes = np.bincount(d.y_train, minlength=k)
    assert sizes.max() - sizes.min() <= 1 and sizes.sum() == n
    assert np.bincount(d.y_test).tolist() == [500] * k
    for j in range(k):
        mean_tr = d.X_train[d.y_train == j].mean(0)
        centre = np.sign(mean_tr)  # the centre has coordinates ±1 ...
        assert np.all(np.abs(mean_tr - centre) < 5 / np.sqrt(sizes[j]))  # ... and unit variance noise
        assert np.all(np.abs(d.X_test[d.y_test == j].mean(0) - centre) < 5 / np.sqrt(500))  # same centre
        resid = d.X_train[d.y_train == j] - centre
        assert abs(resid.std() - 1.0) < 0.03


def test_yin_hypercube_as_printed_allows_repeated_centres_distinct_option_removes_them():
    def centres(seed: int, distinct: bool) -> np.ndarray:
        d = load("yin_hypercube", 10000, 10, k=10, seed=seed, distinct_centres=distinct)
        return np.array([np.sign(d.X_train[d.y_train == j].mean(0)) for j in range(10)])

    repeated = [s for s in range(40) if len(np.unique(centres(s, False), axis=0)) < 10]
    assert repeated  # probability ≈ 0.16 per seed as printed
    assert len(np.unique(centres(repeated[0], True), axis=0)) == 10
    with pytest.raises(ConfigError):
        load("yin_hypercube", 10, 10, k=5, dim=2, distinct_centres=True)


# -- rings ----------------------------------------------------------------------------------
def test_pourkamali_rings_radii_and_sizes():
    d = load("pourkamali_rings", 4000, 1000)
    assert d.X_train.shape == (4000, 2) and np.bincount(d.y_train).tolist() == [2000, 2000]
    r = np.linalg.norm(d.X_train, axis=1)
    for c, radius in enumerate((1.0, 5.0)):
        assert abs(r[d.y_train == c].mean() - radius) < 0.05
    # separable by the degree-2 feature x1² + x2² (a hyperplane in the feature space of <x, y>²)
    assert (r[d.y_train == 0] ** 2).max() < (r[d.y_train == 1] ** 2).min()


def test_pourkamali_rings_linear_fails_degree2_rank2_succeeds_table1():
    """Pourkamali-Anaraki & Becker Table 1: k-means 0.53, exact rank-2 decomposition 0.99, error 0.40."""
    d = load("pourkamali_rings", 4000, 10, seed=1)
    X, y = d.X_train, d.y_train
    linear = KMeans(2, n_init=10, random_state=0).fit_predict(X)
    assert accuracy(y, linear) < 0.8
    # dense brute force on 600 points: K = (XXᵀ)^∘2, the homogeneous polynomial kernel of degree 2
    Xs = X[:600]
    K = (Xs @ Xs.T) ** 2
    w, V = np.linalg.eigh(K)
    K2 = (V[:, -2:] * w[-2:]) @ V[:, -2:].T  # best rank-2 approximation
    err = np.linalg.norm(K - K2) / np.linalg.norm(K)
    assert abs(err - 2 / np.sqrt(24)) < 0.03  # rotation-invariant data: eigenvalues 4a, 2a, 2a
    # its explicit feature map reproduces K, so the rank-2 embedding of all 4000 points is its SVD
    F = np.column_stack([X[:, 0] ** 2, X[:, 1] ** 2, np.sqrt(2) * X[:, 0] * X[:, 1]])
    assert np.allclose(F[:600] @ F[:600].T, K)
    U, sv, _ = np.linalg.svd(F, full_matrices=False)
    Y2 = U[:, :2] * sv[:2]
    assert accuracy(y, KMeans(2, n_init=10, random_state=0).fit_predict(Y2)) > 0.98
    # the ring partition is also the better one for full-rank degree-2 kernel k-means
    assert kmeans_objective(F, y) < kmeans_objective(F, linear)


def test_wang_rings_gaussian_kernel_kmeans_succeeds_linear_fails():
    d = load("wang_rings", 600, 10, seed=2)
    X, y = d.X_train, d.y_train
    assert np.bincount(y).tolist() == [300, 300]
    assert accuracy(y, KMeans(2, n_init=10, random_state=0).fit_predict(X)) < 0.8
    D = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    w, V = np.linalg.eigh(np.exp(-D / (2 * 0.3**2)))
    F = V * np.sqrt(np.clip(w, 0, None))  # exact kernel k-means features (Wang §1)
    assert accuracy(y, KMeans(2, n_init=10, random_state=0).fit_predict(F)) > 0.98


def test_rings_bad_parameters():
    with pytest.raises(ConfigError):
        load("pourkamali_rings", 10, 10, radii=[1.0])
    with pytest.raises(ConfigError):
        load("wang_rings", 10, 10, noise=-1.0)


# -- moons, digits, determinism -------------------------------------------------------------
def test_moons():
    d = load("moons", 301, 100)
    assert d.X_train.shape == (301, 2) and sorted(np.bincount(d.y_train).tolist()) == [150, 151]
    assert np.bincount(d.y_test).tolist() == [50, 50]
    assert not np.array_equal(d.X_train[:100], d.X_test)


def test_digits_stratified_split_and_scaling():
    from sklearn.datasets import load_digits

    raw = load_digits()
    d = load("digits", 1258, 539, k=10)
    assert d.X_train.shape == (1258, 64) and d.X_test.shape == (539, 64)
    assert d.X_train.min() == 0.0 and d.X_train.max() == 1.0
    assert np.array_equal(d.X_test, raw.data[d.test_idx] / 16) and np.array_equal(d.y_test, raw.target[d.test_idx])
    counts = np.bincount(raw.target)
    assert np.all(np.abs(np.bincount(d.y_test) - 0.3 * counts) < 1)
    with pytest.raises(ConfigError, match="at most 1258"):
        load("digits", 1259, 10)


@pytest.mark.parametrize("name", ["yin_hypercube", "pourkamali_rings", "wang_rings", "moons", "digits"])
def test_same_seed_same_data(name: str):
    a, b, c = (load(name, 100, 50, k=3, seed=s) for s in (4, 4, 5))
    assert np.array_equal(a.X_train, b.X_train) and np.array_equal(a.X_test, b.X_test)
    assert not np.array_equal(a.X_train, c.X_train)
