"""Rank-restricted Nyström (Wang Alg. 2, uniform P) out of core against the in-memory fit.

A budget too small for C, R and B (3 × n × c float64) makes the sketch stream
(:meth:`NystromRR.streams`): RᵀR summed over row blocks of C, then the features block by
block. On sizes where both run, the streamed sketch has the in-memory landmarks, map,
features and residuals up to round-off (V_s's signs are fixed the same way), rows on disk
give the streamed features bit for bit, and a run writes the in-memory run's rows.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kktheory.datasets import augmented_mnist as am
from kktheory.datasets.disk_rows import DiskRows
from kktheory.errors import MemoryBudgetError
from kktheory.run.experiment import run
from kktheory.kernels.functions import Kernel
from kktheory.embeddings import SKETCHES, SketchContext
from kktheory.embeddings.sketching_matrices import SKETCHING_MATRICES, make_sketching_matrix
from tests.hydra_cfg import make_cfg
from tests.test_disk_rows import synthetic_mnist  # noqa: F401 — the run test's fixture

ENTRY = SKETCHES.get("nystrom_rr")
BIG = 2**30
#: 3 × 2000 × 100 × 8 = 4.8 MB in memory; streamed: 2000 × 10 features, kernel blocks of
#: 1310 rows (1 MiB) — two blocks per pass
SMALL = 3_000_000


def blobs(n: int, d: int = 6, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.choice([-2.0, 2.0], size=(4, d))
    return centres[rng.integers(0, 4, n)] + 0.8 * rng.standard_normal((n, d))


def sketches(X, budget: int, ms: list[int], dtype: str = "float64", sigma: float = 2.5, **params):
    ctx = SketchContext(n=len(X), k=4, gamma=1.0, budget=budget, dtype=dtype)
    config = ENTRY.config_cls(**{"s": 10, **params})
    for m in ms:
        ENTRY.impl(config, ctx).validate(m)
    kernel = Kernel("gaussian", sigma=sigma, dtype=dtype)
    return dict(ENTRY.impl.fit_nested(config, ctx, X, kernel, ms, lambda: np.random.default_rng(7)))


@pytest.fixture(scope="module")
def X() -> np.ndarray:
    return blobs(2000)


def test_streamed_fit_equals_the_in_memory_fit(X, monkeypatch: pytest.MonkeyPatch):
    """Same landmarks, map A, features B, ranks and residuals; no n × c kernel block formed."""
    held = sketches(X, BIG, [100])[100]
    matrices = []
    original = Kernel.matrix
    monkeypatch.setattr(Kernel, "matrix",
                        lambda self, A, B, budget: matrices.append(len(A)) or original(self, A, B, budget))
    streamed = sketches(X, SMALL, [100])[100]
    assert streamed.streams(100) and not held.streams(100) and not matrices
    assert Kernel("gaussian", sigma=2.5).block_rows(2000, 100, SMALL) == 1310  # two blocks per pass
    assert streamed.train_features_ is None  # pass 2 comes with the first transform
    assert np.array_equal(streamed.landmarks_, held.landmarks_)
    assert streamed.info_ == held.info_ == {"s": 10, "ell": 50, "s_used": 10}
    for name, a in held.arrays().items():
        assert np.array_equal(streamed.arrays()[name], a), name
    np.testing.assert_allclose(streamed.coef_, held.coef_, rtol=1e-9, atol=1e-9 * np.abs(held.coef_).max())
    B = streamed.transform(X)
    np.testing.assert_allclose(B, held.transform(X), rtol=1e-9, atol=1e-12)
    assert streamed.transform(X) is B  # kept for the partition and the residuals
    Y = blobs(300, seed=1)
    np.testing.assert_allclose(streamed.transform(Y), held.transform(Y), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(streamed.residual(X), held.residual(X), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(streamed.residual(Y), held.residual(Y), rtol=1e-9, atol=1e-12)


def test_float32_streamed_features_equal_the_in_memory_ones(X):
    X32 = X.astype(np.float32)
    held = sketches(X32, BIG, [100], "float32")[100]
    streamed = sketches(X32, SMALL, [100], "float32")[100]
    assert streamed.streams(100)
    B = streamed.transform(X32)
    assert B.dtype == np.float32
    np.testing.assert_allclose(B, held.transform(X32), atol=2e-5 * np.abs(B).max())


def test_a_list_of_c_holds_the_small_c_and_streams_the_large(X):
    """Nested landmarks (one permutation): c = 20 fits in memory, c = 100 streams; each
    equals its in-memory fit."""
    budget = 3 * 2000 * 20 * 8 + 1_500_000  # 20 columns in memory, not 100
    mixed = sketches(X, budget, [20, 100], s=8, ell="half_c")
    held = sketches(X, BIG, [20, 100], s=8, ell="half_c")
    assert not mixed[20].streams(20) and mixed[100].streams(100)
    assert np.array_equal(mixed[100].landmarks_[:20], mixed[20].landmarks_)
    assert np.array_equal(mixed[20].transform(X), held[20].transform(X))  # the in-memory path as it was
    assert np.array_equal(mixed[100].landmarks_, held[100].landmarks_)
    np.testing.assert_allclose(mixed[100].transform(X), held[100].transform(X), rtol=1e-9, atol=1e-12)


def test_rows_on_disk_stream_bit_for_bit(tmp_path: Path):
    pixels = np.random.default_rng(0).integers(0, 256, (600, 784)).astype(np.uint8)
    np.save(tmp_path / "a.npy", pixels)
    X = am.as_unit_float32(pixels)
    budget = 3 * 600 * 40 * 8 - 1
    on_disk = sketches(DiskRows(tmp_path / "a.npy"), budget, [40], "float32", sigma=8.0)[40]
    in_memory = sketches(X, budget, [40], "float32", sigma=8.0)[40]
    assert on_disk.streams(40)
    assert np.array_equal(on_disk.transform(on_disk.X_fit_), in_memory.transform(X))


def test_memory_estimate_at_mnist8m_size_and_refusal():
    """n = 8.1M, c = 1600, s = 320, float32: C alone would be 52 GB; the streamed fit holds
    the 10.4 GB features, a 256 MiB kernel block with its R block and O(c²) — under 16 GiB,
    and refused in one line under a budget that cannot hold the features."""
    ctx = SketchContext(n=8_100_000, k=10, gamma=1.0, budget=16 * 2**30, dtype="float32")
    sketch = ENTRY.impl(ENTRY.config_cls(s=320, ell="half_c"), ctx)
    sketch.validate(1600)
    assert sketch.streams(1600)
    assert 8_100_000 * 320 * 4 < sketch.streamed_bytes(1600) < 8_100_000 * 320 * 4 + 0.5 * 2**30
    assert sketch.streamed_bytes(1600) < 11 * 2**30
    small = ENTRY.impl(ENTRY.config_cls(s=320), SketchContext(8_100_000, 10, 1.0, 8 * 2**30, "float32"))
    with pytest.raises(MemoryBudgetError, match=r"^memory: the streamed rank-restricted Nyström sketch "
                       r"\(the 8100000×320 features.*above the budget of 8.0 GiB; use a smaller n or sketch.s"):
        small.validate(1600)
    other_P = ENTRY.impl(ENTRY.config_cls(s=320, P="gaussian"), ctx)
    assert not other_P.streams(1600)  # only uniform sampling streams
    with pytest.raises(MemoryBudgetError):
        other_P.validate(1600)


def test_a_streamed_run_writes_the_rows_of_the_in_memory_run(
    synthetic_mnist, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
):
    """Augmented digits on disk, streamed under a small budget, against the rows in memory."""
    streamed = []
    fit_streamed = ENTRY.impl.fit_streamed
    monkeypatch.setattr(ENTRY.impl, "fit_streamed", lambda self, X, kernel, P: (
        streamed.append((type(X), P.c)) or fit_streamed(self, X, kernel, P)))
    common = ["dataset=augmented_mnist", "n=600", "n_test=150", "dataset.test_set=augmented",
              "centroids=projected", "reference=none", "sketch=nystrom_rr", "m=[16,40]",
              "sketch.s=6", f"dataset.cache_dir={tmp_path / 'cache'}"]
    rows = {}
    for name, extra in (("memory", ["dataset.in_memory_max=1000000"]),
                        ("disk", ["dataset.in_memory_max=0", "memory_budget_gb=0.0004"])):
        out = run(make_cfg(*common, *extra, f"results_dir={tmp_path / name}"))
        rows[name] = sorted(out.rows, key=lambda r: r["m"])
    assert streamed == [(DiskRows, 40)]  # m = 16 held (from rows on disk), m = 40 streamed
    for a, b in zip(rows["memory"], rows["disk"], strict=True):
        assert a["run_id"] == b["run_id"] and a["s_used"] == b["s_used"] == 6
        for col in ("train_nmi", "test_nmi", "train_accuracy"):
            assert a[col] == b[col], col
        for col in ("train_risk", "test_risk", "objective", "feature_objective", "approx_fro_rel"):
            assert b[col] == pytest.approx(a[col], rel=1e-9), col


@pytest.mark.parametrize("P", SKETCHING_MATRICES)
def test_left_on_support_is_the_support_rows_of_P_times_M(P: str):
    """The map's coefficients (P·M on P's support) without the n × s array, bit for bit;
    leverage sampling draws with repeats (summed rows)."""
    rng = np.random.default_rng(2)
    leverage = rng.random(300) if P == "leverage" else None
    sketch = make_sketching_matrix(P, 300, 40, rng, leverage)
    M = rng.standard_normal((40, 5))
    support = sketch.support()
    full = sketch.left(M)
    assert np.array_equal(sketch.left_on_support(M), full if support is None else full[support])
