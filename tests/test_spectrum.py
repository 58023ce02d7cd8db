"""The eigen-solvers of kktheory.kernels.spectrum against numpy's dense eigendecomposition, on every
path of the one kernel operator (held, recomputed in blocks, dense)."""

from __future__ import annotations

import numpy as np
import pytest

from kktheory.machine import memory
from kktheory.kernels.gram import Gram
from kktheory.kernels.functions import Kernel
from kktheory.kernels.spectrum import ritz_pairs, top_eigenpairs

SIGMA = 1.1


def dense_gaussian(X: np.ndarray) -> np.ndarray:
    d2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    return np.exp(-d2 / (2 * SIGMA**2))


@pytest.fixture
def data() -> np.ndarray:
    rng = np.random.default_rng(0)
    return np.concatenate([rng.normal(c, 0.4, size=(30, 3)) for c in (-2.0, 0.0, 2.0)])


def aligned(V: np.ndarray, U: np.ndarray) -> np.ndarray:
    """V with each column's sign chosen to match U's."""
    return V * np.sign(np.einsum("ij,ij->j", V, U))


@pytest.mark.parametrize("s", [3, 60])  # Lanczos; dense (2s ≥ n)
@pytest.mark.parametrize("budget", [2**30, 30_000])  # K held; K recomputed in row blocks
def test_top_eigenpairs_equal_dense_eigh(data: np.ndarray, s: int, budget: int, monkeypatch) -> None:
    monkeypatch.setattr(memory, "MAX_BLOCK_BYTES", 8 * 90 * 7)  # blocks of 7 rows
    K = dense_gaussian(data)
    lam_ref, V_ref = np.linalg.eigh(K)
    lam_ref, V_ref = lam_ref[::-1][:s], V_ref[:, ::-1][:, :s]
    if s == 60:
        budget = 2**30  # the dense path needs two n×n copies
    lam, V = top_eigenpairs(Kernel("gaussian", sigma=SIGMA), data, s, budget, np.random.default_rng(1))
    np.testing.assert_allclose(lam, lam_ref, rtol=1e-9, atol=1e-12)
    well_separated = np.r_[np.abs(np.diff(lam_ref)) > 1e-6, True][: min(s, 3)]
    np.testing.assert_allclose(aligned(V, V_ref)[:, : min(s, 3)][:, well_separated],
                               V_ref[:, : min(s, 3)][:, well_separated], atol=1e-7)


def test_blocked_operator_is_exactly_the_widened_float32_matrix(data: np.ndarray, monkeypatch) -> None:
    """In float32 the blocked products are those of the float32 entries widened to float64
    (not float32 partial sums): linear to float64 round-off, as Lanczos needs, and no less
    symmetric than the float32 matrix itself."""
    monkeypatch.setattr(memory, "MAX_BLOCK_BYTES", 4 * 90 * 7)
    kernel = Kernel("gaussian", sigma=SIGMA, dtype="float32")
    op = Gram(kernel, data, 2**30, store=False).operator()
    K32 = kernel.matrix(data, data, 2**30).astype(np.float64)
    rng = np.random.default_rng(2)
    u, v = rng.standard_normal(90), rng.standard_normal(90)
    np.testing.assert_allclose(op @ v, K32 @ v, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(op @ (2.0 * u + v), 2.0 * (op @ u) + op @ v, rtol=1e-13, atol=1e-13)
    asymmetry = u @ (op @ v) - v @ (op @ u)
    assert asymmetry == pytest.approx(u @ (K32 - K32.T) @ v, abs=1e-12)


def test_held_operator_is_the_matrix_itself(data: np.ndarray) -> None:
    K = dense_gaussian(data)
    assert Gram(Kernel("gaussian", sigma=SIGMA), data, 2**30, matrix=K).operator() is K


def test_ritz_pairs_state_an_error_that_covers_the_true_eigenvalue(data: np.ndarray) -> None:
    K = dense_gaussian(data)
    lam_ref = np.linalg.eigvalsh(K)[::-1][:4]
    ritz = ritz_pairs(Gram(Kernel("gaussian", sigma=SIGMA), data, 2**30, store=False).times, len(K), 4,
                      np.random.default_rng(3), tol=1e-4)
    assert ritz.converged
    assert np.all(ritz.values <= lam_ref + 1e-12)  # Cauchy interlacing
    assert np.all(lam_ref - ritz.values <= ritz.residuals + 1e-12)
