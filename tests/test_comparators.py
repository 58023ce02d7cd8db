"""The comparators approx_kkm (Chitta et al. 2011's approximate kernel k-means) and
spectral_nystrom (Fowlkes et al. 2004 as in Wang et al. §4.2), against dense brute force;
two_step has its own file (tests/test_two_step.py)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import normalized_mutual_info_score

from kktheory.cluster.clusterers import CLUSTERERS, ClusteringConfig
from kktheory.errors import ConfigError
from kktheory.kernels.functions import Kernel
from kktheory.seeding import component_rng
from kktheory.embeddings import SKETCHES, SketchContext
from kktheory.embeddings.linalg import reduce_rank
from kktheory.comparators.spectral_nystrom import spectral_embedding
from kktheory.comparators.approx_kkm import lloyd_from_labels

SIGMA = 1.5
KMEANS = CLUSTERERS.get("kmeanspp").impl(ClusteringConfig(name="kmeanspp", n_init=5))


def make(name: str, n: int, k: int, **params):
    entry = SKETCHES.get(name)
    return entry.impl(entry.config_cls(**params), SketchContext(n=n, k=k, gamma=1.0, budget=2**30))


def fit(name, X, k, m, kernel=None, seed=0, **params):
    kernel = kernel or Kernel("gaussian", sigma=SIGMA)
    return make(name, len(X), k, **params).fit(X, kernel, m, component_rng(seed, "sketch"))


def gaussian(X, Y):
    d2 = ((X[:, None, :] - Y[None, :, :]) ** 2).sum(-1)
    return np.exp(-d2 / (2 * SIGMA**2))


def blobs(n_per: int, k: int, seed: int = 0, spread: float = 0.3):
    rng = np.random.default_rng(seed)
    centres = 4.0 * np.eye(k)[:, :3] if k <= 3 else rng.normal(scale=4.0, size=(k, 3))
    y = np.repeat(np.arange(k), n_per)
    return centres[y] + spread * rng.normal(size=(len(y), 3)), y


# -- approx_kkm -------------------------------------------------------------------------
def chitta_dense(K_B: np.ndarray, K_hat: np.ndarray, labels: np.ndarray, k: int) -> np.ndarray:
    """Chitta et al. (2011) Alg. 1 as printed: α = K̂⁺K_BᵀÛ, labels = argmin αᵀK̂α − 2K_Bα."""
    T = np.linalg.pinv(K_hat) @ K_B.T  # m × n
    for _ in range(300):
        U = np.zeros((len(labels), k))
        U[np.arange(len(labels)), labels] = 1.0
        U /= U.sum(axis=0)
        alpha = T @ U  # m × k
        D = -2 * K_B @ alpha + np.einsum("lj,lp,pj->j", alpha, K_hat, alpha)[None, :]
        new = D.argmin(axis=1)
        if np.array_equal(new, labels):
            return labels
        labels = new
    raise AssertionError("no convergence")


def test_approx_kkm_iterations_equal_chitta_algorithm():
    X = np.random.default_rng(1).normal(size=(90, 3))
    k, m = 4, 12
    sk = fit("approx_kkm", X, k, m)
    L = sk.landmarks_
    K_B, K_hat = gaussian(X, X[L]), gaussian(X[L], X[L])
    for seed in range(3):
        labels0 = np.random.default_rng(seed).permutation(np.arange(len(X)) % k)
        res, inertia = lloyd_from_labels(sk.transform(X), labels0, k, max_iter=300, tol=0.0, seed=0)
        expected = chitta_dense(K_B, K_hat, labels0, k)
        np.testing.assert_array_equal(res.labels, expected)
        # the objective in the span = inertia on the Nyström features + Σ residuals
        U = np.zeros((len(X), k))
        U[np.arange(len(X)), expected] = 1.0 / np.bincount(expected, minlength=k)[expected]
        alpha = np.linalg.pinv(K_hat) @ K_B.T @ U
        dist = 1.0 - 2 * (K_B @ alpha)[np.arange(len(X)), expected] + np.einsum(
            "lj,lp,pj->j", alpha, K_hat, alpha)[expected]
        assert inertia + sk.residual(X).sum() == pytest.approx(dist.sum(), rel=1e-9)


def test_approx_kkm_partition_through_the_sketch():
    X, y = blobs(40, 3)
    sk = fit("approx_kkm", X, 3, 15)
    assert not sk.capabilities.embedding and not sk.capabilities.projection
    part = sk.partition(X, 3, KMEANS, component_rng(0, "cluster"))
    assert part.labels.shape == (120,) and set(part.labels) <= {0, 1, 2}
    assert normalized_mutual_info_score(y, part.labels) == pytest.approx(1.0)
    assert part.info["n_empty_clusters"] == 0 and part.info["n_iter"] >= 1


# -- spectral_nystrom -----------------------------------------------------------------
def test_spectral_embedding_equals_dense_computation():
    X, _ = blobs(25, 3, seed=2, spread=0.8)
    k, m, s = 3, 20, 5
    sk = fit("spectral_nystrom", X, k, m, s=s)
    L = sk.landmarks_
    C, W = gaussian(X, X[L]), gaussian(X[L], X[L])
    lam, U = np.linalg.eigh(C @ np.linalg.pinv(W, rcond=1e-12, hermitian=True) @ C.T)
    K_s = (U[:, -s:] * lam[-s:]) @ U[:, -s:].T  # (C W⁺ Cᵀ)_s
    d = K_s.sum(axis=1)
    assert (d > 0).all()
    N = K_s / np.sqrt(np.outer(d, d))
    V = np.linalg.eigh(N)[1][:, -k:]
    V /= np.linalg.norm(V, axis=1, keepdims=True)
    emb, info = spectral_embedding(reduce_rank(sk.transform(X), s)[0], k)
    assert info["spectral_failed"] is False and info["n_nonpositive_degrees"] == 0
    assert info["min_degree"] == pytest.approx(d.min(), rel=1e-8)
    # eigenvectors are defined up to a rotation, which row normalisation keeps: compare Grams
    np.testing.assert_allclose(emb @ emb.T, V @ V.T, atol=1e-8)


def test_spectral_partition_recovers_separated_clusters():
    X, y = blobs(30, 3, seed=4)
    sk = fit("spectral_nystrom", X, 3, 12)
    part = sk.partition(X, 3, KMEANS, component_rng(0, "cluster"))
    assert part.info["spectral_failed"] is False and part.info["spectral_rank"] == 3
    assert normalized_mutual_info_score(y, part.labels) == pytest.approx(1.0)


def test_spectral_records_failure_on_negative_degree():
    # linear kernel, all points as landmarks and s = rank: K̃ = K = XXᵀ, degrees X·Σ_j x_j
    X = np.array([[1.0, 0.0], [1.0, 0.5], [1.0, -0.5], [-1.0, 0.2], [0.5, 1.0]])
    degrees = X @ X.sum(axis=0)
    assert (degrees <= 0).sum() == 1
    sk = fit("spectral_nystrom", X, 2, 5, kernel=Kernel("linear"), s=2)
    part = sk.partition(X, 2, KMEANS, component_rng(0, "cluster"))
    assert {k: v for k, v in part.info.items() if k != "time_embedding"} == {
        "spectral_failed": True,
        "n_nonpositive_degrees": 1,
        "min_degree": pytest.approx(degrees.min(), abs=1e-12),
        "spectral_rank": 2,
    }
    np.testing.assert_array_equal(part.labels, np.zeros(5, dtype=np.int64))


def test_spectral_rank_rules():
    with pytest.raises(ConfigError, match="sketch.s"):
        make("spectral_nystrom", 100, 5, s=3).validate(20)  # s < k
    with pytest.raises(ConfigError, match="sketch.s"):
        make("spectral_nystrom", 100, 5).validate(4)  # s = k > m
    make("spectral_nystrom", 100, 5, s="sqrt_kc").validate(20)


def test_spectral_embedding_time_counts_as_embedding_time(monkeypatch, tmp_path):
    # Wang et al. §4.3 time SC and KK without their k-means: SC's embedding, computed
    # inside its partition, goes to time_embed (a 0.3 s pause inserted into it shows there)
    import time

    from kktheory.comparators import spectral_nystrom
    from kktheory.run.store import load
    from tests.inprocess import run_inprocess

    real = spectral_nystrom.spectral_embedding

    def slow(*args, **kwargs):
        time.sleep(0.3)
        return real(*args, **kwargs)

    monkeypatch.setattr(spectral_nystrom, "spectral_embedding", slow)
    r = run_inprocess("sketch=spectral_nystrom", "n=200", "n_test=50", "k=3", "m=20", "reference=none",
                      results_dir=tmp_path)
    assert r.returncode == 0, r.stderr
    row = load(tmp_path).iloc[0]
    assert row["time_embed"] >= 0.3
    assert "time_embedding" not in row.index


@pytest.mark.parametrize("name", ["approx_kkm", "two_step", "spectral_nystrom"])
def test_the_estimators_training_features_of_a_comparator_are_a_copy(name):
    """A comparator holds its Nyström embedding: ``transform`` of the training rows is a copy
    of the embedding's cached features, so changing it leaves the next call as it was."""
    from kktheory.estimator import SketchedKernelKMeans

    X = np.random.default_rng(2).standard_normal((120, 3))
    est = SketchedKernelKMeans(3, sketch=name, m=20, random_state=0).fit(X)
    first = est.transform(X)
    expected = first.copy()
    first[...] = 0.0
    np.testing.assert_array_equal(est.transform(X), expected)
