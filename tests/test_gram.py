"""Kernel blocks as operators, against dense numpy."""

from __future__ import annotations

import numpy as np
import pytest

from kktheory.kernels import gram
from kktheory.machine import memory
from kktheory.kernels.gram import Gram, KernelBlock
from kktheory.kernels.functions import Kernel

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



@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_approximation_error_equals_dense(dtype: str, one_row_blocks: None) -> None:
    """‖K − FFᵀ‖_F/‖K‖_F over one-row blocks equals the dense NumPy value; the rank-2
    eigen-approximation of K gives the tail of its spectrum, an exact factorisation 0."""
    rng = np.random.default_rng(2)
    X = rng.standard_normal((150, 3))
    F = rng.standard_normal((150, 4))
    kernel = Kernel("gaussian", sigma=SIGMA, dtype=dtype)
    K = dense_gaussian(X, X)
    tol = 1e-12 if dtype == "float64" else 1e-6
    want = np.linalg.norm(K - F @ F.T) / np.linalg.norm(K)
    assert gram.approximation_error(kernel, X, F, 2**30) == pytest.approx(want, rel=tol)
    lam, V = np.linalg.eigh(K)
    tail = np.sqrt((lam[:-2] ** 2).sum() / (lam**2).sum())
    assert gram.approximation_error(kernel, X, V[:, -2:] * np.sqrt(lam[-2:]), 2**30) == pytest.approx(tail, rel=tol)
    linear = Kernel("linear")
    assert gram.approximation_error(linear, X, X, 2**30) == pytest.approx(0.0, abs=1e-7)  # K = XXᵀ exactly
    assert gram.approximation_error(linear, np.zeros((5, 3)), np.zeros((5, 2)), 2**30) == 0.0  # K = 0 = FFᵀ
