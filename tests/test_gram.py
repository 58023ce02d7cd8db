"""Kernel blocks as operators and the per-run kernel cache, against dense numpy."""

from __future__ import annotations

import numpy as np
import pytest

from kktheory import gram, memory
from kktheory.gram import Gram, KernelBlock, KernelCache
from kktheory.kernels import Kernel
from kktheory.risk import RiskSettings, lifted, lifted_risk_subsampled

SIGMA = 1.3


def dense_gaussian(X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    d2 = ((X[:, None, :] - Y[None, :, :]) ** 2).sum(-1)
    return np.exp(-d2 / (2 * SIGMA**2))


@pytest.fixture
def one_row_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every kernel block is a single row; float32 products sum 7 terms at a time."""
    monkeypatch.setattr(memory, "MAX_BLOCK_BYTES", 1)
    monkeypatch.setattr(gram, "INNER_CHUNK", 7)


@pytest.mark.parametrize("store", [False, True])
@pytest.mark.parametrize("shape", [(40, 7), (7, 40)])  # blocks over X, then over Y
def test_block_products_equal_dense(shape: tuple[int, int], store: bool, one_row_blocks: None) -> None:
    rng = np.random.default_rng(0)
    X, Y = rng.standard_normal((shape[0], 3)), rng.standard_normal((shape[1], 3))
    W = rng.standard_normal((shape[1], 4))
    block = KernelBlock(Kernel("gaussian", sigma=SIGMA), X, Y, 2**30, store=store)
    assert block.stored == store
    np.testing.assert_allclose(block.times(W), dense_gaussian(X, Y) @ W, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("store", [False, True])
def test_float32_products_sum_float32_chunks_in_float64(store: bool, one_row_blocks: None) -> None:
    rng = np.random.default_rng(1)
    X, Y = rng.standard_normal((50, 3)), rng.standard_normal((30, 3))  # row blocks of X
    W = rng.standard_normal((30, 3))
    kernel = Kernel("gaussian", sigma=SIGMA, dtype="float32")
    A32 = np.vstack([kernel(X[i : i + 1], Y) for i in range(50)])  # float32 entries, row by row
    block = KernelBlock(kernel, X, Y, 2**30, store=store)
    assert not store or block.A.dtype == np.float32
    out = block.times(W)
    assert out.dtype == np.float64
    W32 = W.astype(np.float32)
    chunks = sum((A32[:, s : s + 7] @ W32[s : s + 7]).astype(np.float64) for s in range(0, 30, 7))
    np.testing.assert_allclose(out, chunks, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(out, A32.astype(np.float64) @ W, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out, dense_gaussian(X, Y) @ W, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("store", [False, True])
def test_gram_columns_and_indexed_products(store: bool) -> None:
    rng = np.random.default_rng(2)
    X = rng.standard_normal((60, 4))
    K = dense_gaussian(X, X)
    g = Gram(Kernel("gaussian", sigma=SIGMA), X, 2**30, store=store)
    idx = np.array([5, 0, 59, 5])
    W = rng.standard_normal((4, 2))
    np.testing.assert_allclose(g.columns(idx), K[:, idx], atol=1e-12)
    np.testing.assert_allclose(g.times(W, idx), K[:, idx] @ W, atol=1e-12)
    V = rng.standard_normal((60, 3))
    np.testing.assert_allclose(g.times(V), K @ V, atol=1e-12)
    np.testing.assert_allclose(g.diag, np.ones(60))


def test_cache_holds_until_the_allowance_then_recomputes() -> None:
    rng = np.random.default_rng(3)
    X, Xt = rng.standard_normal((20, 2)), rng.standard_normal((10, 2))
    kernel = Kernel("gaussian", sigma=SIGMA)
    cache = KernelCache(kernel, X, 2**30, allowance=20 * 20 * 8 + 10 * 20 * 8 - 1)
    train = cache.block(KernelCache.key("train"), X)
    test = cache.block(KernelCache.key("test"), Xt)
    assert train.stored and not test.stored  # the second block does not fit what is left
    assert cache.block(KernelCache.key("train"), X) is train
    assert cache.used == 20 * 20 * 8
    assert KernelCache.key("train", np.array([1, 2])) != KernelCache.key("train", np.array([1, 3]))
    W = rng.standard_normal((20, 2))
    np.testing.assert_allclose(test.times(W), dense_gaussian(Xt, X) @ W, atol=1e-12)
    assert cache.serves(kernel, X) and not cache.serves(kernel, X.copy())
    assert not cache.serves(Kernel("gaussian", sigma=2 * SIGMA), X)


def _data(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((120, 3))
    return X, rng.standard_normal((50, 3)), rng.integers(0, 4, 120)


def test_exact_risk_from_the_cache_equals_blocked_and_brute_force() -> None:
    X, Xt, labels = _data(4)
    kernel = Kernel("gaussian", sigma=SIGMA)
    settings = RiskSettings(2**30, exact_limit=10**6, points=10, pairs=10)
    cache = KernelCache(kernel, X, 2**30)
    plain = lifted(kernel, X, labels, Xt, 4, settings, np.random.default_rng(0))
    for other in (labels, (labels + 1) % 4):  # two partitions through one cache
        cached = lifted(kernel, X, other, Xt, 4, settings, np.random.default_rng(0), cache)
        ref = lifted(kernel, X, other, Xt, 4, settings, np.random.default_rng(0))
        for key in ("train_risk", "objective", "test_risk"):
            assert getattr(cached, key) == pytest.approx(getattr(ref, key), rel=1e-12)
    assert all(b.stored for b in cache._blocks.values()) and len(cache._blocks) == 2
    # brute force of the first partition's objective: (1/n) Σ_j Σ_{i∈C_j} ‖φ_i − c_j‖²
    K = dense_gaussian(X, X)
    obj = sum(np.trace(K[np.ix_(c, c)]) - K[np.ix_(c, c)].sum() / len(c)
              for c in (np.flatnonzero(labels == j) for j in range(4))) / len(X)
    assert plain.objective == pytest.approx(obj, rel=1e-12)
    with pytest.raises(ValueError, match="another kernel"):
        lifted(Kernel("linear"), X, labels, Xt, 4, settings, np.random.default_rng(0), cache)


def test_subsampled_points_do_not_depend_on_the_partition_and_cache_gives_same_numbers() -> None:
    X, Xt, labels = _data(5)
    kernel = Kernel("gaussian", sigma=SIGMA)
    settings = RiskSettings(2**30, exact_limit=10, points=30, pairs=50)
    cache = KernelCache(kernel, X, 2**30)
    a = lifted_risk_subsampled(kernel, X, labels, Xt, 4, settings, np.random.default_rng(7))
    b = lifted_risk_subsampled(kernel, X, labels[::-1].copy(), Xt, 4, settings, np.random.default_rng(7))
    np.testing.assert_array_equal(a.train_eval, b.train_eval)
    np.testing.assert_array_equal(a.test_eval, b.test_eval)
    c = lifted_risk_subsampled(kernel, X, labels, Xt, 4, settings, np.random.default_rng(7), cache)
    d = lifted_risk_subsampled(kernel, X, labels[::-1].copy(), Xt, 4, settings, np.random.default_rng(7), cache)
    assert len(cache._blocks) == 2  # one block per sample, shared by both partitions
    for x, y in ((a, c), (b, d)):
        for key in ("train_risk", "objective", "test_risk", "train_risk_se", "test_risk_se"):
            assert getattr(x, key) == pytest.approx(getattr(y, key), rel=1e-12)
