"""Every number of a run can be recomputed from what the run stores.

Each test runs kktheory on sklearn's digits (n = 300), then recomputes row numbers with
dense NumPy from the run's ``.npz`` alone, the data set rows it names (``train_idx``,
``test_idx``) and the row's config, from the formulas of the module docstrings — never
by calling the code under test: the sub-Gaussian and ROS features, the JL distortion on
a sampled set of points, Wang's trace-norm ratio for sampled and random P, Lemma 6's
kernel-column reference, and the subsampled lifted risks from their replayed pairs.
Dense Gaussian matrices are stored as the generator state before their draw; the
redraw functions must give back, bit for bit, what the sketch used.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest
import scipy.linalg
from sklearn.datasets import load_digits

from kktheory.embeddings import sketching_matrices
from kktheory.machine import memory
from kktheory.run.config import build_spec
from kktheory.run.experiment import load_data, run
from kktheory.run.method import Method
from kktheory.embeddings.gaussian import GaussianProjection
from kktheory.embeddings.rff import RandomFourierFeatures
from kktheory.run.store import Store
from tests.hydra_cfg import make_cfg

N, N_TEST, K = 300, 60, 5
BASE = ("dataset=digits", f"n={N}", f"n_test={N_TEST}", f"k={K}", "clustering.n_init=1", "reference=none")
#: randomized bound path (pair sampling) at this n
SAMPLED_BOUNDS = ("bound_exact_max_n=100", "bound_sample_points=80")
DIGITS = load_digits().data / 16.0  # the data set as sklearn gives it, scaled as documented


# -- helpers: the run, the data, and the formulas in plain NumPy ------------------------------
def run_rows(tmp_path, *overrides: str) -> list[tuple[dict, dict]]:
    """(row as stored, arrays as stored) of every row of the run, in m order."""
    cfg = make_cfg(*BASE, *overrides, f"results_dir={tmp_path}")
    out = run(cfg)
    store = Store(tmp_path)
    table = store.load().set_index("run_id")
    rows = sorted((table.loc[r["run_id"]].to_dict() | {"run_id": r["run_id"]} for r in out.rows),
                  key=lambda r: r["m"])
    return [(row, store.arrays(row["run_id"])) for row in rows]


def run_one(tmp_path, *overrides: str) -> tuple[dict, dict]:
    (pair,) = run_rows(tmp_path, *overrides)
    return pair


def points(arrays: dict) -> tuple[np.ndarray, np.ndarray]:
    """The training and test points named by the run's stored indices."""
    return DIGITS[arrays["train_idx"]], DIGITS[arrays["test_idx"]]


def gaussian_kernel(A: np.ndarray, B: np.ndarray, sigma: float) -> np.ndarray:
    """κ(a, b) = exp(−‖a − b‖²/(2σ²)) from explicit differences."""
    d2 = ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=-1)
    return np.exp(-d2 / (2.0 * sigma**2))


def dct_matrix(m: int) -> np.ndarray:
    """The orthonormal DCT-II matrix: C[k, j] = √(2/m)·cos(πk(2j+1)/(2m)), row 0 · 1/√2."""
    k, j = np.arange(m)[:, None], np.arange(m)[None, :]
    C = np.sqrt(2.0 / m) * np.cos(np.pi * k * (2 * j + 1) / (2 * m))
    C[0] /= np.sqrt(2.0)
    return C


def generator(words: np.ndarray) -> np.random.Generator:
    """A PCG64 generator in the state stored as six words (state hi/lo, inc hi/lo, buffer)."""
    w = [int(x) for x in words]
    bits = np.random.PCG64()
    bits.state = {"bit_generator": "PCG64", "state": {"state": (w[0] << 64) | w[1], "inc": (w[2] << 64) | w[3]},
                  "has_uint32": w[4], "uinteger": w[5]}
    return np.random.Generator(bits)


def start_words(seed: int, component: str) -> list[int]:
    """The six state words of np.random.default_rng([seed, crc32(component)]) at its start."""
    st = np.random.default_rng([seed, zlib.crc32(component.encode())]).bit_generator.state
    s, inc = st["state"]["state"], st["state"]["inc"]
    mask = (1 << 64) - 1
    return [s >> 64, s & mask, inc >> 64, inc & mask, st["has_uint32"], st["uinteger"]]


def subgaussian_S(arrays: dict, m: int) -> np.ndarray:
    """S (m × m, dense) from its stored triplets."""
    S = np.zeros((m, m))
    S[arrays["sketch_S_row"], arrays["sketch_S_col"]] = arrays["sketch_S_val"]
    return S


def jl_eps(Kc: np.ndarray, F: np.ndarray, sample: np.ndarray, scale: float) -> tuple[float, int]:
    """(max_ij |r_ij/s − 1|, pairs) with r_ij = ‖F_i − F_j‖²/‖k_i − k_j‖² over i < j in sample,
    k_i the kernel columns (Yin Lemma 5), pairs with ‖k_i − k_j‖² ≤ 1e-12·max‖k_i‖² left out."""
    cols, feats = Kc[:, sample].T, F[sample]
    i, j = np.triu_indices(len(sample), k=1)
    dG = ((cols[i] - cols[j]) ** 2).sum(axis=1)
    dH = ((feats[i] - feats[j]) ** 2).sum(axis=1)
    keep = dG > 1e-12 * (cols**2).sum(axis=1).max()
    r = dH[keep] / dG[keep]
    return max(r.max() / scale - 1.0, 1.0 - r.min() / scale), int(keep.sum())


def fitted_sketches(*overrides: str, tmp_path) -> dict:
    """{m: fitted sketch} of the run's method refitted in this process (what the run used)."""
    spec = build_spec(make_cfg(*BASE, *overrides, f"results_dir={tmp_path}"))
    method = Method.of(spec)
    data = load_data(spec)
    kernel = method.fit_kernel(data.X_train)
    return {fit.m: fit.sketch for fit in method.fit(data.X_train, kernel, [m for _, m in spec.ms])}


# -- sketch features from the stored randomness -----------------------------------------------
def test_subgaussian_features_and_jl_eps_on_sampled_pairs(tmp_path):
    m = 24
    overrides = ("sketch=subgaussian", f"m={m}", "bounds=[jl]", *SAMPLED_BOUNDS)
    row, a = run_one(tmp_path, *overrides)
    assert row["bounds_method"] == "randomized"
    X, X_test = points(a)
    sigma = row["kernel_sigma"]
    S = subgaussian_S(a, m)
    assert np.all(np.isin(S[S != 0], [-1 / np.sqrt(m), 1 / np.sqrt(m)]))
    K_hat = gaussian_kernel(DIGITS[a["train_idx"][a["landmarks"]]], X, sigma)  # Q·K, m × n
    F = (S @ K_hat).T  # rows k̃_i = S·K̂_{:,i}
    sketch = fitted_sketches(*overrides, tmp_path=tmp_path / "refit")[m]
    np.testing.assert_allclose(sketch.transform(X), F, rtol=1e-10, atol=1e-12)
    F_test = (S @ gaussian_kernel(X[a["landmarks"]], X_test, sigma)).T
    np.testing.assert_allclose(sketch.transform(X_test), F_test, rtol=1e-10, atol=1e-12)

    sample = a["bounds_sample"]
    assert len(sample) == 80 and np.all(np.diff(sample) > 0) and sample.max() < N
    p = 1.0 / np.sqrt(N)  # sketch.p = null: 1/√n as printed
    eps, pairs = jl_eps(gaussian_kernel(X, X, sigma), F, sample, p * m / N)
    assert row["jl_scale"] == pytest.approx(p * m / N, rel=1e-12)
    assert row["jl_pairs"] == pairs == 80 * 79 // 2
    assert row["jl_eps"] == pytest.approx(eps, rel=1e-9)


@pytest.mark.parametrize("transform, m", [("dct", 20), ("hadamard", 16)])
def test_ros_sample_first_features_and_jl_eps(tmp_path, transform, m):
    overrides = ("sketch=ros", f"sketch.transform={transform}", f"m={m}", "bounds=[jl]", *SAMPLED_BOUNDS)
    row, a = run_one(tmp_path, *overrides)
    X, _ = points(a)
    sigma = row["kernel_sigma"]
    A = dct_matrix(m) if transform == "dct" else scipy.linalg.hadamard(m) / np.sqrt(m)
    D = np.diag(a["sketch_signs"])
    assert set(np.unique(a["sketch_signs"])) <= {-1.0, 1.0} and len(a["sketch_signs"]) == m
    F = (D @ A @ gaussian_kernel(X[a["landmarks"]], X, sigma)).T
    sketch = fitted_sketches(*overrides, tmp_path=tmp_path / "refit")[m]
    np.testing.assert_allclose(sketch.transform(X), F, rtol=1e-10, atol=1e-12)
    eps, pairs = jl_eps(gaussian_kernel(X, X, sigma), F, a["bounds_sample"], m / N)
    assert row["jl_pairs"] == pairs
    assert row["jl_eps"] == pytest.approx(eps, rel=1e-9)


@pytest.mark.parametrize("transform", ["dct", "hadamard"])
def test_ros_mix_first_features_and_jl_eps(tmp_path, transform):
    m = 20
    overrides = ("sketch=ros", "sketch.order=mix_first", f"sketch.transform={transform}", f"m={m}",
                 "bounds=[jl]", *SAMPLED_BOUNDS)
    row, a = run_one(tmp_path, *overrides)
    X, _ = points(a)
    K_full = gaussian_kernel(X, X, row["kernel_sigma"])
    signs, cols = a["sketch_signs"], a["sketch_columns"]
    assert len(signs) == N and len(cols) == m and len(set(cols)) == m
    if transform == "dct":  # k̃_i = √(N/m)·(C_n·D·k_i)[cols], N = n
        F = np.sqrt(N / m) * (dct_matrix(N) @ (signs[:, None] * K_full))[cols].T
    else:  # k_i zero-padded to N = 512, A_N = H_N/√N
        H = scipy.linalg.hadamard(512)[:, :N]
        F = np.sqrt(512 / m) * (H @ (signs[:, None] * K_full) / np.sqrt(512))[cols].T
    sketch = fitted_sketches(*overrides, tmp_path=tmp_path / "refit")[m]
    np.testing.assert_allclose(sketch.transform(X), F, rtol=1e-9, atol=1e-11)
    eps, pairs = jl_eps(K_full, F, a["bounds_sample"], 1.0)
    assert row["jl_pairs"] == pairs
    assert row["jl_eps"] == pytest.approx(eps, rel=1e-9)


def test_onepass_test_matrix_from_signs_and_columns(tmp_path):
    """Ω = D·H_N[:n, columns]/√r' from the stored arrays is the SRHT the sketch draws."""
    from kktheory.seeding import component_rng
    from kktheory.embeddings.transforms import SRHT

    row, a = run_one(tmp_path, "sketch=onepass", "m=12")
    omega = (a["sketch_signs"][:, None] * scipy.linalg.hadamard(512)[:N][:, a["sketch_columns"]]) / np.sqrt(12)
    drawn = SRHT(N, 12, component_rng(int(row["seed"]), "sketch")).dense()
    np.testing.assert_allclose(drawn, omega, rtol=1e-12, atol=1e-14)


# -- Lemma 6's kernel-column reference -------------------------------------------------------
def test_kc_reference_objective_from_its_labels(tmp_path):
    row, a = run_one(tmp_path, "sketch=subgaussian", "m=20", "bounds=[jl]")
    assert row["bounds_method"] == "exact" and "bounds_sample" not in a
    X, _ = points(a)
    Kc = gaussian_kernel(X, X, row["kernel_sigma"])

    def w_kc(labels: np.ndarray) -> float:  # (1/n) Σ_j Σ_{i∈C_j} ‖k_i − mean_{C_j} k‖²
        return sum(((Kc[labels == j] - Kc[labels == j].mean(axis=0)) ** 2).sum()
                   for j in np.unique(labels)) / N

    ref = a["bounds_kc_ref_labels"]
    assert ref.shape == (N,) and set(np.unique(ref)) <= set(range(K))
    assert row["kc_ref_objective"] == pytest.approx(w_kc(ref), rel=1e-9)
    assert row["kc_objective"] == pytest.approx(w_kc(a["train_labels"]), rel=1e-9)


# -- Wang et al. §5.2's objective over the kernel columns ------------------------------------------
def test_objective_columns_from_the_training_partition(tmp_path, monkeypatch):
    """objective_columns = (1/n) Σ_i Σ_{j∈J_i} ‖k_j − (1/|J_i|) Σ_{l∈J_i} k_l‖² (Wang et al. 2019
    §5.2), k_j the columns of the training kernel matrix formed densely, summed cluster by
    cluster; the run's pass over K in blocks of 7 rows, the partitions of its m-list together."""
    monkeypatch.setattr(memory, "MAX_BLOCK_BYTES", 8 * N * 7)
    rows = run_rows(tmp_path, "sketch=nystrom", "m=[6,40]", "column_objective=true")
    X, _ = points(rows[0][1])
    Kc = gaussian_kernel(X, X, rows[0][0]["kernel_sigma"])
    for row, a in rows:
        cost = 0.0
        for i in range(K):
            cols = Kc[:, a["train_labels"] == i].T  # the columns k_j, j ∈ J_i, as rows
            if len(cols):
                cost += ((cols - cols.mean(axis=0)) ** 2).sum()
        assert row["evaluated_together"] == 2
        assert row["objective_columns"] == pytest.approx(cost / N, rel=1e-10)
    assert rows[0][0]["objective_columns"] != rows[1][0]["objective_columns"]


# -- Wang's trace-norm ratio from the stored (or recorded) P -----------------------------------
def sketching_matrix(P: str, a: dict, c: int) -> np.ndarray:
    """P (n × c) from the arrays of a nystrom_rr row (sketching_matrices docstring)."""
    if P in ("uniform", "leverage"):
        M = np.zeros((N, c))
        M[a["landmarks"], np.arange(c)] = a["sketch_P_scale"]
        return M
    if P == "srht":  # D·H_N[:n, columns]/√c, N = 512
        return a["sketch_P_signs"][:, None] * scipy.linalg.hadamard(512)[:N][:, a["sketch_P_columns"]] / np.sqrt(c)
    if P == "countsketch":
        M = np.zeros((N, c))
        M[np.arange(N), a["sketch_P_buckets"]] = a["sketch_P_signs"]
        return M
    assert list(a["sketch_P_shape"]) == [c, N]  # gaussian: standard_normal((c, n))ᵀ/√c
    return generator(a["sketch_P_rng_state"]).standard_normal((c, N)).T / np.sqrt(c)


def trace_ratio(K_full: np.ndarray, C: np.ndarray, W: np.ndarray, ell: int, s: int, cutoff: float) -> float:
    """‖K − (C W_ℓ⁺ Cᵀ)_s‖_* / ‖K − K_s‖_* (Wang Thm 1; both differences PSD: traces)."""
    lam, U = np.linalg.eigh((W + W.T) / 2)
    lam, U = lam[::-1], U[:, ::-1]
    keep = np.zeros(len(lam), dtype=bool)
    keep[:ell] = lam[:ell] > cutoff * lam[0]
    R = C @ (U[:, keep] / np.sqrt(lam[keep]))
    approx = np.linalg.svd(R, compute_uv=False) ** 2  # eigenvalues of R Rᵀ = C W_ℓ⁺ Cᵀ
    top_K = np.linalg.eigvalsh(K_full)[::-1]
    tr = np.trace(K_full)
    return (tr - approx[:s].sum()) / (tr - top_K[:s].sum())


@pytest.mark.parametrize("P", ["uniform", "leverage", "srht", "countsketch", "gaussian"])
def test_nystrom_rr_trace_ratio_from_stored_P(tmp_path, P):
    c = 24
    row, a = run_one(tmp_path, "sketch=nystrom_rr", f"sketch.P={P}", f"m={c}", "bounds=[trace]")
    X, _ = points(a)
    K_full = gaussian_kernel(X, X, row["kernel_sigma"])
    Pm = sketching_matrix(P, a, c)
    ell = int(np.ceil(c / 2))  # ell = half_c, s = k (defaults)
    assert row["ell"] == ell and row["trace_s"] == K
    expected = trace_ratio(K_full, K_full @ Pm, Pm.T @ K_full @ Pm, ell, K, float(row["sketch.eig_cutoff"]))
    assert row["trace_ratio"] == pytest.approx(expected, rel=1e-7)


def test_power_method_trace_ratio_from_the_recorded_P(tmp_path):
    c, t = 12, 1
    row, a = run_one(tmp_path, "sketch=power", f"m={c}", f"sketch.t={t}", "bounds=[trace]")
    X, _ = points(a)
    K_full = gaussian_kernel(X, X, row["kernel_sigma"])
    U = np.linalg.qr(generator(a["sketch_P_rng_state"]).standard_normal((c, N)).T / np.sqrt(c))[0]
    for _ in range(t):
        U = np.linalg.qr(K_full @ U)[0]
    # C W⁺ Cᵀ depends on span(U) only; no truncation of W (ℓ = c)
    expected = trace_ratio(K_full, K_full @ U, U.T @ K_full @ U, c, K, float(row["sketch.eig_cutoff"]))
    assert row["trace_ratio"] == pytest.approx(expected, rel=1e-7)


# -- dense random matrices: the redraw gives back what the sketch used -----------------------
def test_gaussian_projection_redraws_G_bit_for_bit(tmp_path):
    overrides = ("sketch=gaussian", "m=[10,20]")
    rows = run_rows(tmp_path, *overrides)
    sketches = fitted_sketches(*overrides, tmp_path=tmp_path / "refit")
    for row, a in rows:
        m = row["m"]
        G = GaussianProjection.redraw(a)
        assert G.shape == (m, N) and np.array_equal(G, sketches[m].G_)
        assert list(a["sketch_G_rng_state"]) == start_words(int(row["seed"]), "sketch")
        X, _ = points(a)  # features G·k_i/√m
        F = gaussian_kernel(X, X, row["kernel_sigma"]) @ G.T / np.sqrt(m)
        np.testing.assert_allclose(sketches[m].transform(X), F, rtol=1e-10, atol=1e-12)


def test_rff_redraws_frequencies_bit_for_bit(tmp_path):
    overrides = ("sketch=rff", "m=[12,20]")
    sketches = fitted_sketches(*overrides, tmp_path=tmp_path / "refit")
    for row, a in run_rows(tmp_path, *overrides):
        sk = sketches[row["m"]]
        omega = RandomFourierFeatures.redraw(a, row["kernel_sigma"])
        assert np.array_equal(omega, sk.omega_) and np.array_equal(a["sketch_phase"], sk.phase_)
        X, _ = points(a)  # z(x) = √(2/D) cos(Ωx + b)
        Z = np.sqrt(2.0 / row["m"]) * np.cos(X @ omega.T + a["sketch_phase"])
        np.testing.assert_allclose(sk.transform(X), Z, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("sketch", [("sketch=nystrom_rr", "sketch.P=gaussian", "m=[16,24]"),
                                    ("sketch=power", "m=12")])
def test_gaussian_P_redraws_bit_for_bit(tmp_path, monkeypatch, sketch):
    used: list[np.ndarray] = []
    init = sketching_matrices.Gaussian.__init__

    def spy(self, n, c, rng):
        init(self, n, c, rng)
        used.append(self.P.copy())

    monkeypatch.setattr(sketching_matrices.Gaussian, "__init__", spy)
    rows = run_rows(tmp_path, *sketch)
    assert len(used) == len(rows)
    for (row, a), P in zip(rows, sorted(used, key=lambda P: P.shape[1])):
        assert np.array_equal(sketching_matrices.Gaussian.redraw(a, "sketch_P"), P)


# -- the subsampled lifted risks from the replayed pairs --------------------------------------
def test_subsampled_risk_from_its_pairs_and_points(tmp_path):
    P, b = 200, 120
    row, a = run_one(tmp_path, "sketch=nystrom", "m=20", "risk_exact_limit=100",
                     f"risk_points={b}", f"risk_pairs={P}")
    assert row["risk_estimator"].startswith("subsample")
    X, X_test = points(a)
    sigma = row["kernel_sigma"]
    Kt = gaussian_kernel(X, X, sigma)
    labels = a["train_labels"]

    # the stored state is the risk stream after the evaluation points (risk.py docstring)
    rng = np.random.default_rng([int(row["seed"]), zlib.crc32(b"risk")])
    np.testing.assert_array_equal(np.sort(rng.choice(N, b, replace=False)), a["train_eval_idx"])
    assert "test_eval_idx" not in a  # b ≥ n_test: every test point, no draw
    st = rng.bit_generator.state
    assert generator(a["risk_pairs_rng_state"]).bit_generator.state == st

    pairs = generator(a["risk_pairs_rng_state"])
    q, v = np.zeros(K), np.zeros(K)
    for j in range(K):
        idx = np.flatnonzero(labels == j)
        Nj = len(idx)
        if Nj == 0:
            continue
        if Nj * (Nj - 1) <= P:
            q[j] = Kt[np.ix_(idx, idx)].sum() / Nj**2
            continue
        ia = pairs.integers(Nj, size=P)
        ib = pairs.integers(Nj - 1, size=P)
        ib += ib >= ia
        vals = Kt[idx[ia], idx[ib]]
        q[j] = (np.trace(Kt[np.ix_(idx, idx)]) + Nj * (Nj - 1) * vals.mean()) / Nj**2
        v[j] = ((Nj - 1) / Nj) ** 2 * vals.var(ddof=1) / P
    assert np.count_nonzero(v) >= 1  # some cluster was sampled
    sizes = np.bincount(labels, minlength=K)
    assert row["objective"] == pytest.approx((np.trace(Kt) - sizes @ q) / N, rel=1e-9)
    assert row["objective_se"] == pytest.approx(np.sqrt(((sizes / N) ** 2 * v).sum()), rel=1e-9)
    assert row["risk_bias_bound"] == pytest.approx(np.sqrt(v.sum()), rel=1e-9)

    def risk(Y: np.ndarray, N_all: int) -> tuple[float, float]:
        Kyx = gaussian_kernel(Y, X, sigma)
        D = np.stack([1.0 - 2.0 * Kyx[:, labels == j].mean(axis=1) + q[j] for j in range(K)], axis=1)
        g = D.min(axis=1)
        pi = np.bincount(D.argmin(axis=1), minlength=K) / len(Y)
        return g.mean(), np.sqrt((1 - len(Y) / N_all) * g.var(ddof=1) / len(Y) + (pi**2 * v).sum())

    tr, tr_se = risk(X[a["train_eval_idx"]], N)
    te, te_se = risk(X_test, N_TEST)
    assert row["train_risk"] == pytest.approx(tr, rel=1e-9)
    assert row["train_risk_se"] == pytest.approx(tr_se, rel=1e-7)
    assert row["test_risk"] == pytest.approx(te, rel=1e-9)
    assert row["test_risk_se"] == pytest.approx(te_se, rel=1e-7)


# -- what is stored: documented streams, nested = alone, small arrays -------------------------
def test_bound_streams_are_the_documented_components(tmp_path):
    row, a = run_one(tmp_path, "sketch=nystrom", "m=20", "bounds=[gamma,jl]", *SAMPLED_BOUNDS)
    seed, data_seed = int(row["seed"]), int(row["data_seed"])
    assert list(a["bounds_gamma_rng_state"]) == start_words(seed, "bounds-gamma")
    assert list(a["bounds_spectrum_rng_state"]) == start_words(data_seed, "bounds-spectrum")
    assert list(a["bounds_deff_rng_state"]) == start_words(data_seed, "bounds-deff")
    rng = np.random.default_rng([seed, zlib.crc32(b"bounds-pairs")])
    np.testing.assert_array_equal(a["bounds_sample"], np.sort(rng.choice(N, 80, replace=False)))


@pytest.mark.parametrize("sketch", [
    ("sketch=subgaussian", "sketch.p=0.3"), ("sketch=ros", "sketch.order=mix_first"),
    ("sketch=onepass",), ("sketch=gaussian",), ("sketch=rff",), ("sketch=nystrom_rr", "sketch.P=countsketch"),
])
def test_arrays_of_an_m_in_a_list_equal_the_m_alone(tmp_path, sketch):
    listed = {row["m"]: arrays for row, arrays in run_rows(tmp_path / "list", *sketch, "m=[12,16]")}
    alone = run_one(tmp_path / "alone", *sketch, "m=12")[1]
    assert set(listed[12]) == set(alone)
    for name in alone:
        np.testing.assert_array_equal(listed[12][name], alone[name], err_msg=name)
    assert any(name.startswith("sketch_") for name in alone)


@pytest.mark.parametrize("sketch", [
    ("sketch=nystrom",), ("sketch=subgaussian",), ("sketch=ros",), ("sketch=ros", "sketch.order=mix_first"),
    ("sketch=gaussian",), ("sketch=onepass",), ("sketch=rff",), ("sketch=power",),
    ("sketch=nystrom_rr", "sketch.P=gaussian"), ("sketch=nystrom_rr", "sketch.P=srht"),
])
def test_no_stored_array_grows_like_n_times_m(tmp_path, sketch):
    m = 20
    _, a = run_one(tmp_path, *sketch, f"m={m}", "bounds=all", "risk_exact_limit=100", "risk_pairs=50")
    assert {"train_labels", "train_idx", "test_idx", "test_labels"} <= set(a)  # the run stored its arrays
    for name, value in a.items():
        assert value.size <= max(N, N_TEST, m * m), (name, value.shape)
