"""The bound checks inside runs: config validation, columns per sketch kind, empty where a
bound does not apply, the randomized path against the exact one, and the summary line.

Expected values are recomputed here with dense numpy from the stored landmarks / features.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from kktheory.evaluation.bounds import yin_implied_eps, yin_required_m
from kktheory.evaluation.bounds.engine import BoundEngine
from kktheory.evaluation.bounds.engine import full_spectrum
from kktheory.evaluation.cache import cached_call
from kktheory.cluster.clusterers import CLUSTERERS
from kktheory.run.config import build_spec
from kktheory.errors import ConfigError
from kktheory.run.experiment import load_data, run
from kktheory.kernels.functions import make_kernel
from kktheory.seeding import component_rng
from kktheory.embeddings import SKETCHES, Partition, Sketch, SketchContext
from kktheory.run.store import load_arrays
from kktheory.run.summary import summary
from tests.hydra_cfg import make_cfg as compose_cfg

N = 300


def make_cfg(tmp_path, *overrides: str):
    return compose_cfg(f"results_dir={tmp_path}", f"n={N}", "n_test=100", "k=5", *overrides)


def setup(tmp_path, *overrides: str):
    spec = build_spec(make_cfg(tmp_path, *overrides))
    data = load_data(spec)
    kernel = make_kernel(spec.kernel, data.X_train)
    return spec, data, kernel, kernel(data.X_train, data.X_train)


def nystrom(spec, data, kernel, m: int) -> tuple[Sketch, Partition]:
    ctx = SketchContext(n=spec.n, k=spec.k, gamma=spec.gamma, budget=spec.budget)
    sk = SKETCHES.get("nystrom").impl(spec.sketch, ctx).fit(data.X_train, kernel, m, component_rng(0, "sketch"))
    clusterer = CLUSTERERS.get(spec.clustering.name).impl(spec.clustering)
    return sk, sk.partition(data.X_train, spec.k, clusterer, component_rng(0, "cluster"))


class RowSampler(Sketch):
    """k_i ↦ Q k_i with Q = m uniformly sampled rows of I_n (Yin's Nyström, S = I)."""

    def fit(self, X, kernel, m, rng):
        self.idx = np.sort(rng.permutation(len(X))[:m])
        self.F = kernel(X, X[self.idx])  # row i = (K[idx, i])ᵀ
        self.landmarks_ = self.idx
        return self

    def transform(self, X):
        return self.F

    def jl_scale(self):
        return len(self.idx) / self.ctx.n


class ScaledFeatures(Sketch):
    """Features that over-estimate K (not a projection, not k_i ↦ R k_i)."""

    def __init__(self, params, ctx, F):
        super().__init__(params, ctx)
        self.F = F

    def transform(self, X):
        return self.F


def test_config_validation(tmp_path):
    assert build_spec(make_cfg(tmp_path)).bounds.names == ()
    assert build_spec(make_cfg(tmp_path, "bounds=all")).bounds.names == ("gamma", "trace", "jl", "pourkamali", "wang_thm2")
    assert build_spec(make_cfg(tmp_path, "bounds=jl")).bounds.names == ("jl",)
    with pytest.raises(ConfigError) as err:
        build_spec(make_cfg(tmp_path, "bounds=[gamma,frobenius]"))
    assert err.value.field == "bounds" and "wang_thm2" in str(err.value)
    for bad in ("bound_delta=1.5", "bound_eps=0", "bound_exact_max_n=-1", "bound_sample_points=1", "bound_tol=2"):
        with pytest.raises(ConfigError) as err:
            build_spec(make_cfg(tmp_path, "bounds=all", bad))
        assert err.value.field == bad.split("=")[0]


def test_run_writes_nystrom_bounds(tmp_path):
    outcome = run(make_cfg(tmp_path, "m=[20,300]", "bounds=all"))
    spec, data, kernel, K = setup(tmp_path)
    lam = np.linalg.eigvalsh(K)
    gamma = spec.gamma
    for row in outcome.rows:
        idx = load_arrays(row["run_id"], tmp_path)["landmarks"]
        C, W = K[:, idx], K[np.ix_(idx, idx)]
        E = K - C @ np.linalg.pinv(W, rcond=1e-12, hermitian=True) @ C.T
        lam_E = np.linalg.eigvalsh(E).max()
        assert row["bounds_method"] == "exact"
        assert row["gamma_residual"] == pytest.approx(lam_E, rel=1e-7, abs=1e-9)
        assert row["deff"] == pytest.approx(np.sum(lam / (lam + gamma)), rel=1e-9)
        assert row["lemma1_m"] == pytest.approx(12 * N / gamma * math.log(N / 0.1) / 0.5**2)
        if row["m"] == N:
            assert row["gamma_eps"] == 0.0 and row["gamma_residual"] <= 1e-9
            assert row["trace_ratio"] == pytest.approx(1.0, abs=1e-9)
        else:
            assert row["gamma_eps"] == pytest.approx(lam_E / (gamma + lam_E), rel=1e-7)
            assert row["trace_ratio"] > 1
        # trace ratio with s = k from dense nuclear norms
        lam_d, V = np.linalg.eigh(K)
        Ks = (V[:, -5:] * lam_d[-5:]) @ V[:, -5:].T
        G = K - E
        lg, Vg = np.linalg.eigh(G)
        Gs = (Vg[:, -5:] * lg[-5:]) @ Vg[:, -5:].T
        nuc = lambda A: np.abs(np.linalg.eigvalsh(A)).sum()
        assert row["trace_s"] == 5
        assert row["trace_ratio"] == pytest.approx(nuc(K - Gs) / nuc(K - Ks), rel=1e-7)
        # Wang Table 2's coherence of the top-5 eigenvectors: (n/s)·max_i ‖(V_5)_i‖²
        assert row["trace_coherence"] == pytest.approx(N / 5 * np.max(np.sum(V[:, -5:] ** 2, axis=1)), rel=1e-7)
        assert row["approx_nuclear"] == pytest.approx(np.trace(E), rel=1e-7, abs=1e-8)
        assert row["pourkamali_bound"] == pytest.approx(2 * np.trace(E), rel=1e-7, abs=1e-8)
        assert 0 < row["proj_ratio_min"] <= row["proj_ratio_mean"] <= row["proj_ratio_max"] <= 1 + 1e-9
        assert row["proj_pairs"] == N * (N - 1) // 2
        assert math.isfinite(row["wang_bound"]) and math.isfinite(row["lemma2_bound"])
        # not applicable to Nyström: empty, never zero
        for col in ("jl_eps", "jl_eps_free", "jl_required_m", "lemma6_bound", "kc_objective"):
            assert math.isnan(row[col])
        assert row["lemma6_holds_kc"] is None and row["lemma6_holds_risk"] is None
        # the checks against the exact solution need the row's reference columns
        ref_risk, ref_obj = row.get("ref_train_risk", math.nan), row.get("ref_objective", math.nan)
        if math.isfinite(ref_risk) and math.isfinite(ref_obj):
            assert row["lemma2_gap"] == pytest.approx(row["train_risk"] - ref_risk)
            assert row["lemma2_holds"] is bool(row["lemma2_gap"] <= row["lemma2_bound"])
            assert row["pourkamali_gap"] == pytest.approx(N * (row["objective"] - ref_obj))
            assert row["wang_ratio"] == pytest.approx(row["objective"] / ref_obj)
        else:
            for col in ("lemma2_gap", "pourkamali_gap", "wang_ratio"):
                assert math.isnan(row[col])
            for col in ("lemma2_holds", "pourkamali_holds", "wang_holds"):
                assert row[col] is None
    text = summary(outcome.rows, [], str(tmp_path))
    assert "bounds m=20 (exact): γ-ε=" in text and "trace ratio=" in text and "proj ratio min=" in text
    # the spectrum of K is cached per data draw: a new engine on the same draw finds it
    engine = BoundEngine(build_spec(make_cfg(tmp_path, "bounds=all")).bound_setting, kernel, data)
    spectrum, cached = cached_call(tmp_path, full_spectrum, (engine.key,), None)  # K=None: not computed
    assert cached
    assert np.allclose(spectrum, np.sort(lam)[::-1], rtol=1e-10, atol=1e-12)


def test_checks_against_reference(tmp_path):
    spec, data, kernel, K = setup(tmp_path, "bounds=all")
    sk, part = nystrom(spec, data, kernel, 30)
    engine = BoundEngine(spec.bound_setting, kernel, data)
    for ref_risk, ref_obj in ((0.1, 0.1), (10.0, 10.0)):
        cols = {"train_risk": 0.5, "objective": 0.6, "ref_train_risk": ref_risk, "ref_objective": ref_obj}
        out = engine.row(sk, part, cols, 30)
        assert out["lemma2_gap"] == pytest.approx(0.5 - ref_risk)
        assert out["lemma2_holds"] is bool(0.5 - ref_risk <= out["lemma2_bound"])
        assert out["lemma2_bound"] == pytest.approx(
            min(5, out["deff"]) / (1 - out["gamma_eps"]) * spec.gamma / N)
        assert out["pourkamali_gap"] == pytest.approx(N * (0.6 - ref_obj))
        assert out["pourkamali_holds"] is bool(N * (0.6 - ref_obj) <= out["pourkamali_bound"])
        assert out["pourkamali_holds_psd"] is bool(N * (0.6 - ref_obj) <= out["pourkamali_bound_psd"])
        assert out["wang_ratio"] == pytest.approx(0.6 / ref_obj)
        assert out["wang_bound"] == pytest.approx(1 + (out["trace_ratio"] - 1) + 5 / 5)
        assert out["wang_holds"] is bool(0.6 / ref_obj <= out["wang_bound"])
    assert out["lemma2_holds"] is True and out["pourkamali_holds"] is True


def test_jl_family_sketch(tmp_path):
    spec, data, kernel, K = setup(tmp_path, "bounds=all")
    m = 40
    sk = RowSampler(spec.sketch, SketchContext(N, 5, spec.gamma, spec.budget)).fit(
        data.X_train, kernel, m, np.random.default_rng(0))
    labels = np.random.default_rng(1).integers(0, 5, N)
    out = BoundEngine(spec.bound_setting, kernel, data).row(
        sk, Partition(labels=labels, features=sk.F, on_features=True), {"train_risk": 0.7, "objective": 0.7, "ref_train_risk": 0.69}, m)
    # brute force over pairs of kernel columns
    Kc, Fk = K.T, sk.F
    r = []
    for i in range(N):
        d = np.sum((Kc[i] - Kc[i + 1:]) ** 2, axis=1)
        r.append(np.sum((Fk[i] - Fk[i + 1:]) ** 2, axis=1) / d)
    r = np.concatenate(r)
    s = m / N
    assert out["jl_scale"] == pytest.approx(s)
    assert out["jl_eps"] == pytest.approx(np.abs(r / s - 1).max(), rel=1e-9)
    assert out["jl_eps_free"] == pytest.approx((r.max() - r.min()) / (r.max() + r.min()), rel=1e-9)
    assert out["jl_eps_free"] <= out["jl_eps"] and out["jl_pairs"] == r.size
    assert out["jl_required_m"] == pytest.approx(yin_required_m(N, 0.1, 0.5))
    assert out["jl_eps_implied"] == pytest.approx(yin_implied_eps(N, 0.1, m))
    eps = out["jl_eps"]
    bound = 2 * eps / (1 - eps) if eps < 1 else math.inf
    assert out["lemma6_bound"] == bound
    assert out["lemma6_gap_risk"] == pytest.approx(0.01) and out["lemma6_holds_risk"] is True
    # kernel-column objective of the run's labels, explicit
    cost = sum(np.sum((Kc[labels == j] - Kc[labels == j].mean(axis=0)) ** 2) for j in range(5)) / N
    assert out["kc_objective"] == pytest.approx(cost, rel=1e-10)
    assert out["kc_ref_objective"] < cost  # k-means on the columns beats random labels
    assert out["lemma6_gap_kc"] == pytest.approx(cost - out["kc_ref_objective"])
    assert out["lemma6_bound_kc_rel"] == pytest.approx(bound * out["kc_ref_objective"])
    # the rest does not apply to k_i ↦ R k_i
    for col in ("gamma_eps", "deff", "trace_ratio", "approx_nuclear", "wang_bound", "proj_ratio_min"):
        assert math.isnan(out[col])


def test_other_embedding_and_comparator(tmp_path):
    spec, data, kernel, K = setup(tmp_path, "bounds=all")
    sk, part = nystrom(spec, data, kernel, 25)
    F = 1.2 * part.features
    other = ScaledFeatures(spec.sketch, sk.ctx, F)
    engine = BoundEngine(spec.bound_setting, kernel, data)
    out = engine.row(other, Partition(labels=part.labels, features=F, on_features=True),
                     {"train_risk": 0.5, "objective": 0.5}, 25)
    nuc = lambda A: np.abs(np.linalg.eigvalsh(A)).sum()
    assert out["approx_nuclear"] == pytest.approx(nuc(K - F @ F.T), rel=1e-9)
    assert math.isnan(out["pourkamali_bound_psd"]) and out["pourkamali_holds_psd"] is None
    assert out["trace_ratio"] >= 1
    assert math.isnan(out["gamma_eps"]) and math.isnan(out["proj_ratio_min"]) and math.isnan(out["jl_eps"])

    # a comparator's partition is not k-means on the features it may hold (approx_kkm keeps
    # Nyström's): no bound applies, with or without them
    for comparator in (Partition(labels=part.labels), Partition(labels=part.labels, features=F)):
        out = engine.row(sk, comparator, {"train_risk": 0.5, "objective": 0.5}, 25)
        assert all(v is None or (isinstance(v, float) and math.isnan(v))
                   for k, v in out.items() if k not in ("bounds_method", "time_bounds"))


def test_randomized_path_agrees_with_exact(tmp_path):
    exact_spec, data, kernel, K = setup(tmp_path, "bounds=all")
    rand_spec = build_spec(make_cfg(tmp_path, "bounds=all", "bound_exact_max_n=0", "bound_sample_points=100", "bound_tol=1e-4"))
    sk, part = nystrom(exact_spec, data, kernel, 30)
    cols = {"train_risk": 0.5, "objective": 0.5}
    ex = BoundEngine(exact_spec.bound_setting, kernel, data).row(sk, part, cols, 30)
    rd = BoundEngine(rand_spec.bound_setting, kernel, data).row(sk, part, cols, 30)
    assert rd["bounds_method"] == "randomized" and ex["gamma_eps_err"] <= 1e-10
    assert abs(rd["gamma_residual"] - ex["gamma_residual"]) <= rd["gamma_residual_err"] + 1e-9
    assert abs(rd["gamma_eps"] - ex["gamma_eps"]) <= rd["gamma_eps_err"] + 1e-12
    assert abs(rd["trace_ratio"] - ex["trace_ratio"]) <= rd["trace_ratio_err"] + 1e-12
    assert abs(rd["deff"] - ex["deff"]) <= 3 * rd["deff_err"]
    assert rd["approx_nuclear"] == pytest.approx(ex["approx_nuclear"])  # exact on both paths
    # 100 sampled points: 4950 pairs, a subset of all pairs
    assert rd["proj_pairs"] == 4950
    assert ex["proj_ratio_min"] <= rd["proj_ratio_min"] <= rd["proj_ratio_max"] <= ex["proj_ratio_max"]
