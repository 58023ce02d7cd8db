"""float32 end to end, and no n×m float64 copy: traced allocations, memory maps."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from kktheory.cluster import KMeansPP
from kktheory.experiment import run
from kktheory.kernels import Kernel, KernelConfig, mean_sq_dist_to_mean, resolve_sigma, row_sq_norms
from kktheory.risk import projected_risk
from kktheory.sketches import SKETCHES, SketchContext
from tests.hydra_cfg import make_cfg

MiB = 2**20


def traced_peak(fn) -> tuple[object, int]:
    """(fn(), peak bytes allocated through Python/numpy while it ran)."""
    tracemalloc.start()
    try:
        out = fn()
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def fitted(name: str, X: np.ndarray, ms: list[int], dtype: str, budget: int = 2**30, **params):
    entry = SKETCHES.get(name)
    ctx = SketchContext(n=len(X), k=4, gamma=float(np.sqrt(len(X))), budget=budget, dtype=dtype)
    cfg = entry.config_cls(name=name, **params)
    kernel = Kernel("gaussian", sigma=3.0, dtype=dtype)
    return dict(entry.impl.fit_nested(cfg, ctx, X, kernel, ms, lambda: np.random.default_rng(0)))


@pytest.mark.parametrize("name,params", [
    ("nystrom", {}), ("nystrom_rr", {}), ("yin_nystrom", {}), ("subgaussian", {}), ("ros", {"transform": "dct"}),
    ("rff", {}), ("rff", {"s": 4}),
])
def test_float32_features_match_float64(name: str, params: dict) -> None:
    X = np.random.default_rng(1).standard_normal((300, 5))
    for ms in ([16], [8, 16]):
        f32 = fitted(name, X, ms, "float32", **params)[16].transform(X)
        f64 = fitted(name, X, ms, "float64", **params)[16].transform(X)
        assert f32.dtype == np.float32
        scale = np.abs(f64).max()
        np.testing.assert_allclose(np.abs(f32), np.abs(f64), atol=2e-4 * scale)  # up to signs


def test_nystrom_single_m_holds_no_float64_or_kernel_block() -> None:
    """n×m float32 features are the only n×m array: peak ≪ the 8·n·m bytes of a float64 copy."""
    n, m = 20000, 64
    X = np.random.default_rng(2).standard_normal((n, 8)).astype(np.float32)
    budget = 16 * MiB  # kernel blocks of 1 MiB
    (F, peak) = traced_peak(lambda: fitted("nystrom", X, [m], "float32", budget)[m].transform(X))
    assert F.dtype == np.float32 and F.shape == (n, m)
    assert peak < 4 * n * m + 3 * MiB < 8 * n * m


def test_projected_risk_float32_features_equal_float64_brute_force() -> None:
    rng = np.random.default_rng(3)
    F, Ft = rng.standard_normal((200, 6)).astype(np.float32), rng.standard_normal((50, 6)).astype(np.float32)
    res, res_t = rng.random(200), rng.random(50)
    labels = rng.integers(0, 4, 200)
    risk = projected_risk(F, res, labels, Ft, res_t, 4)
    F64, Ft64 = F.astype(np.float64), Ft.astype(np.float64)
    C = np.stack([F64[labels == j].mean(0) for j in range(4)])
    D = res[:, None] + ((F64[:, None] - C[None]) ** 2).sum(-1)
    Dt = res_t[:, None] + ((Ft64[:, None] - C[None]) ** 2).sum(-1)
    assert risk.objective == pytest.approx(D[np.arange(200), labels].mean(), rel=1e-10)
    assert risk.train_risk == pytest.approx(D.min(1).mean(), rel=1e-10)
    assert risk.test_risk == pytest.approx(Dt.min(1).mean(), rel=1e-10)


def test_memory_map_is_read_in_chunks(tmp_path) -> None:
    n, d = 200000, 50
    X = np.random.default_rng(4).random((n, d), dtype=np.float32)
    path = tmp_path / "x.npy"
    np.save(path, X)
    mm = np.load(path, mmap_mode="r")
    X64 = X.astype(np.float64)
    (sq, peak) = traced_peak(lambda: row_sq_norms(mm))
    np.testing.assert_allclose(sq, (X64**2).sum(1), rtol=1e-12)
    (msd, peak2) = traced_peak(lambda: mean_sq_dist_to_mean(mm))
    assert msd == pytest.approx(((X64 - X64.mean(0)) ** 2).sum() / n, rel=1e-10)
    sigma = resolve_sigma(KernelConfig(name="gaussian", bandwidth="wang"), mm)
    assert sigma == pytest.approx(np.sqrt(2 * msd), rel=1e-12)
    poly = Kernel("polynomial", degree=2, coef0=1.0)
    np.testing.assert_allclose(poly.diag(mm), ((X64**2).sum(1) + 1) ** 2, rtol=1e-12)
    assert max(peak, peak2) < 8 * n * d / 4  # chunks of 8 MiB; a float64 copy of X: 80 MB


def test_run_in_float32_clusters_float32_features(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[np.dtype] = []
    original = KMeansPP.fit

    def spy(self, F, k, rng):
        seen.append(F.dtype)
        return original(self, F, k, rng)

    monkeypatch.setattr(KMeansPP, "fit", spy)
    for sketch in ("nystrom", "nystrom_rr", "yin_nystrom"):
        out = run(make_cfg("n=300", "n_test=100", "k=3", "m=[10,20]", "dtype=float32", f"sketch={sketch}",
                           "reference=none", f"results_dir={tmp_path}"))
        assert len(out.rows) == 2 and all(np.isfinite(r["test_risk"]) for r in out.rows)
    assert seen == [np.dtype(np.float32)] * 6
