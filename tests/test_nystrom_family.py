"""The Nyström family of embeddings, each against a dense numpy brute force (n ≈ 200–400).

Brute forces are written here from the papers' formulas (Calandriello Def. 3, Wang
Alg. 1–2 and Prop. 3, Yin Prop. 1), never by calling the code under test.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from kktheory.cluster.clusterers import CLUSTERERS, ClusteringConfig
from kktheory.errors import ConfigError, MemoryBudgetError
from kktheory.kernels import functions as kernels
from kktheory.kernels.functions import Kernel
from kktheory.embeddings import SKETCHES, SketchContext
from kktheory.embeddings.base import feature_diagnostics, feature_objective
from kktheory.embeddings.nystrom_rls import rls_bless, rls_exact

SIGMA = 2.0
BUDGET = 2**30
FAMILY = ("nystrom", "nystrom_liu", "nystrom_rls", "nystrom_rr", "kpca", "power", "kernel_columns")


def blobs(n: int, d: int = 5, seed: int = 0, outliers: int = 0) -> np.ndarray:
    """Four Gaussian blobs, plus a few far-away points when ``outliers`` > 0."""
    rng = np.random.default_rng(seed)
    centres = rng.choice([-2.0, 2.0], size=(4, d))
    X = centres[rng.integers(0, 4, n - outliers)] + 0.8 * rng.standard_normal((n - outliers, d))
    if outliers:
        X = np.vstack([X, 6.0 * rng.standard_normal((outliers, d))])
    return X


def gauss_K(X: np.ndarray, Y: np.ndarray | None = None) -> np.ndarray:
    Y = X if Y is None else Y
    D2 = ((X[:, None, :] - Y[None, :, :]) ** 2).sum(-1)
    return np.exp(-D2 / (2 * SIGMA**2))


KERNEL = Kernel("gaussian", sigma=SIGMA)


def make(name: str, n: int, k: int = 4, gamma: float | None = None, budget: int = BUDGET, **params):
    entry = SKETCHES.get(name)
    ctx = SketchContext(n=n, k=k, gamma=np.sqrt(n) if gamma is None else gamma, budget=budget)
    return entry.impl(entry.config_cls(**params), ctx)


def fit(name: str, X: np.ndarray, m: int, seed: int = 0, kernel: Kernel = KERNEL, **kw):
    sketch = make(name, len(X), **kw)
    sketch.validate(m)
    return sketch.fit(X, kernel, m, np.random.default_rng(seed))


def top_s(K: np.ndarray, s: int) -> tuple[np.ndarray, np.ndarray]:
    lam, V = np.linalg.eigh(K)
    return lam[::-1][:s], V[:, ::-1][:, :s]


def best_rank(M: np.ndarray, s: int) -> np.ndarray:
    """(M)_s for a symmetric PSD M by a dense eigendecomposition."""
    lam, V = top_s((M + M.T) / 2, s)
    return (V * lam) @ V.T


# -- Nyström ------------------------------------------------------------------------------
def test_nystrom_with_all_points_reproduces_K() -> None:
    X = blobs(250)
    sketch = fit("nystrom", X, len(X))
    F = sketch.transform(X).astype(np.float64)
    K = gauss_K(X)
    assert np.abs(F @ F.T - K).max() < 1e-8
    assert sketch.residual(X).max() < 1e-8
    assert sorted(sketch.landmarks_) == list(range(len(X)))


def test_nystrom_features_match_brute_force_out_of_sample() -> None:
    X, Xt = blobs(300, seed=1), blobs(40, seed=2)
    sketch = fit("nystrom", X, 30)
    L = X[sketch.landmarks_]
    Kmm_pinv = np.linalg.pinv(gauss_K(L), rcond=1e-12, hermitian=True)
    Kxl = gauss_K(Xt, L)
    Ft = sketch.transform(Xt)
    np.testing.assert_allclose(Ft @ Ft.T, Kxl @ Kmm_pinv @ Kxl.T, atol=1e-9)
    res = 1.0 - np.einsum("ij,jk,ik->i", Kxl, Kmm_pinv, Kxl)
    np.testing.assert_allclose(sketch.residual(Xt), np.maximum(res, 0), atol=1e-9)


def test_nystrom_with_replacement_draws_uniformly() -> None:
    """χ² goodness of fit of 30,000 i.i.d. landmark draws to the uniform law (fixed seed)."""
    n = 60
    X = blobs(n)
    idx = make("nystrom", n, replace=True).draw_landmarks(X, KERNEL, 30000, np.random.default_rng(3))
    counts = np.bincount(idx, minlength=n)
    assert stats.chisquare(counts).pvalue > 1e-3
    # the same test has power: a 10% tilt on half of the points is rejected
    tilted = np.r_[np.full(n // 2, 1.1), np.full(n - n // 2, 0.9)]
    assert stats.chisquare(counts, idx.size * tilted / tilted.sum()).pvalue < 1e-3


@pytest.mark.parametrize("name", ["nystrom", "nystrom_liu", "yin_nystrom", "subgaussian", "ros"])
def test_a_fit_on_the_landmark_rows_alone_is_the_in_memory_nested_fit(name: str) -> None:
    """What a backend that holds the rows elsewhere does (draw_landmark_rows for the largest m,
    gather those rows, fit_on_landmark_rows on a prefix per m) gives the in-memory nested
    fit's landmarks, features, stored arrays, row columns and JL scale, for every m."""
    X = blobs(120)
    ms = [8, 16]
    probe = make(name, len(X))
    whole = dict(type(probe).fit_nested(probe.params, probe.ctx, X, KERNEL, ms, lambda: np.random.default_rng(4)))
    used = [probe.m_used(m) for m in ms]
    idx, draw = probe.draw_landmark_rows(len(X), max(used), np.random.default_rng(4))
    # the uniform landmarks are the first entries of one permutation, drawn first
    assert np.array_equal(idx, np.random.default_rng(4).permutation(len(X))[: max(used)])
    for m, mu in zip(ms, used):
        alone = make(name, len(X)).fit_on_landmark_rows(X[idx[:mu]], KERNEL, idx[:mu], draw, len(X))
        np.testing.assert_array_equal(alone.landmarks_, whole[m].landmarks_)
        np.testing.assert_allclose(alone.transform(X), whole[m].transform(X), rtol=1e-10, atol=1e-12)
        assert alone.arrays().keys() == whole[m].arrays().keys()
        for key, value in alone.arrays().items():
            np.testing.assert_array_equal(value, whole[m].arrays()[key])
        assert alone.info_ == whole[m].info_ and alone.jl_scale() == whole[m].jl_scale()


@pytest.mark.parametrize("name, params, reason", [
    ("nystrom_rls", {}, "ridge leverage scores"),
    ("ros", {"order": "mix_first"}, "order=mix_first"),
    ("kpca", {}, "top eigenvectors"),
    ("onepass", {}, "W = KΩ"),
    ("rff", {}, "no fit from landmark rows"),
])
def test_a_sketch_that_needs_more_than_landmark_rows_says_why(name: str, params: dict, reason: str) -> None:
    """A sketch that opted in but whose parameters need more refuses to draw or fit; one that
    did not opt in has no such methods; both say why."""
    from kktheory.embeddings.landmark_rows import FromLandmarkRows, landmark_rows_refusal

    probe = make(name, 50, **params)
    assert reason in landmark_rows_refusal(type(probe), probe.params)
    if not isinstance(probe, FromLandmarkRows):
        assert not hasattr(probe, "draw_landmark_rows") and name in ("kpca", "onepass", "rff")
        return
    with pytest.raises(NotImplementedError, match=reason):
        probe.draw_landmark_rows(50, 8, np.random.default_rng(0))
    with pytest.raises(NotImplementedError, match=reason):
        probe.fit_on_landmark_rows(blobs(8), KERNEL, np.arange(8), None, 50)


def test_a_nystrom_variant_with_its_own_landmark_draw_is_not_taken_for_uniform() -> None:
    from dataclasses import dataclass

    from kktheory.embeddings.nystrom import Nystrom

    @dataclass(frozen=True)
    class Largest:
        name: str = "the largest first coordinates"
        reads_rows: bool = True

        def draw(self, sketch, X, kernel, m, rng):
            return np.argsort(-np.asarray(X)[:, 0])[:m]

    class Weighted(Nystrom):
        selection = Largest()

    assert "the largest first coordinates, which reads the rows" in Weighted.landmark_rows_only(None)
    assert Nystrom.landmark_rows_only(None) is None
    X = blobs(50)
    assert list(Weighted(Nystrom(None, None).params, None).draw_landmarks(X, KERNEL, 3, None)) == \
        list(np.argsort(-X[:, 0])[:3])


def test_nystrom_liu_uses_sqrt_nk_landmarks() -> None:
    X = blobs(200)
    sketch = fit("nystrom_liu", X, 5, k=4)
    assert sketch.m_used(5) == int(np.ceil(np.sqrt(200 * 4))) == 29
    assert len(sketch.landmarks_) == 29


# -- ridge leverage scores ----------------------------------------------------------------
def brute_rls(K: np.ndarray, gamma: float) -> np.ndarray:
    return np.diag(K @ np.linalg.inv(K + gamma * np.eye(len(K))))


def test_exact_rls_match_definition() -> None:
    X = blobs(300, outliers=5)
    gamma = np.sqrt(300)
    tau = rls_exact(KERNEL, X, gamma, BUDGET)
    np.testing.assert_allclose(tau, brute_rls(gauss_K(X), gamma), atol=1e-10)


def test_bless_is_exact_when_the_dictionary_is_everything() -> None:
    """With q so large that every point enters with probability 1, the BLESS estimator
    (K_ii − K_iD (K_DD + γ diag p)⁻¹ K_Di)/γ is the exact score (Woodbury)."""
    X = blobs(200, outliers=3)
    gamma = np.sqrt(200)
    tau, D, _ = rls_bless(KERNEL, X, gamma, 1e9, np.random.default_rng(0), BUDGET)
    assert D.idx.size == 200
    np.testing.assert_allclose(tau, brute_rls(gauss_K(X), gamma), atol=1e-10)


def test_bless_scores_approximate_exact_scores() -> None:
    """BLESS with the default q = 8 on n = 400 (fixed seed). An (ε, γ)-accurate dictionary
    gives τ_i/(1+ε) ≤ τ̃_i ≤ τ_i/(1−ε); here τ̃/τ ∈ [0.85, 1.32] (d_eff 10.29 vs 9.75); we assert
    ε ≤ 1/2, i.e. τ̃/τ ∈ [2/3, 2]: a constant-factor approximation, which is what
    RLS sampling needs (Lemma 3 then needs at most that factor more landmarks). The
    tolerance cannot be tight: ε shrinks like 1/√q, not to zero. d_eff = Σ τ within 15%."""
    X = blobs(400, outliers=8)
    gamma = np.sqrt(400)
    exact = brute_rls(gauss_K(X), gamma)
    q = make("nystrom_rls", 400).params.bless_oversample
    approx, D, _ = rls_bless(KERNEL, X, gamma, q, np.random.default_rng(11), BUDGET)
    ratio = approx / exact
    assert ratio.min() >= 2 / 3 and ratio.max() <= 2.0, (ratio.min(), ratio.max())
    assert abs(approx.sum() / exact.sum() - 1) < 0.15
    assert D.idx.size < 400 / 2  # a genuine subsample


def test_bless_error_decreases_with_oversampling() -> None:
    X = blobs(300, outliers=5)
    gamma = np.sqrt(300)
    exact = brute_rls(gauss_K(X), gamma)

    def error(q: float) -> float:
        errs = [
            np.median(np.abs(np.log(rls_bless(KERNEL, X, gamma, q, np.random.default_rng(s), BUDGET)[0] / exact)))
            for s in range(4)
        ]
        return float(np.mean(errs))

    assert error(32.0) < error(8.0) < error(2.0)


@pytest.mark.parametrize("method", ["exact", "bless"])
def test_rls_landmarks_follow_the_scores(method: str) -> None:
    """χ² test of 40,000 landmark draws against p_i = τ_i/Σ τ (fixed seed); the same draws
    reject the uniform law (the scores are far from uniform with outliers present)."""
    X = blobs(80, outliers=6)
    sketch = make("nystrom_rls", 80, method=method)
    idx = sketch.draw_landmarks(X, KERNEL, 40000, np.random.default_rng(5))
    # the scores the sampler used: recomputed from the same stream, before the draws
    tau = sketch.scores(X, KERNEL, np.random.default_rng(5))
    if method == "exact":
        np.testing.assert_allclose(tau, brute_rls(gauss_K(X), np.sqrt(80)), atol=1e-10)
    counts = np.bincount(idx, minlength=80)
    assert stats.chisquare(counts, idx.size * tau / tau.sum()).pvalue > 1e-3
    assert stats.chisquare(counts).pvalue < 1e-10
    assert sketch.info_["rls_method"] == method


def test_rls_auto_switches_to_bless_above_the_limit() -> None:
    X = blobs(120)
    small = fit("nystrom_rls", X, 10, exact_max_n=200)
    large = fit("nystrom_rls", X, 10, exact_max_n=100)
    assert small.info_["rls_method"] == "exact"
    assert large.info_["rls_method"] == "bless" and large.info_["bless_dictionary_size"] > 0


# -- rank-restricted Nyström (Wang Alg. 2) --------------------------------------------------
@pytest.mark.parametrize("P", ["uniform", "leverage", "gaussian", "srht", "countsketch"])
def test_nystrom_rr_features_are_rank_restricted_nystrom(P: str) -> None:
    """B Bᵀ = (C W_ℓ⁺ Cᵀ)_s with C = K P, W = Pᵀ K P, W_ℓ the best rank-ℓ part of W."""
    X = blobs(220, seed=3)
    c, s, ell = 24, 5, 12
    sketch = fit("nystrom_rr", X, c, P=P, s=s, ell=ell)
    K = gauss_K(X)
    # the random matrix the sketch drew (same stream), as a dense matrix; dense() is
    # checked against an independent construction in test_sketching_matrices.py
    drawn = make("nystrom_rr", 220, P=P, s=s, ell=ell).sketching_matrix(
        X, KERNEL, c, np.random.default_rng(0), K
    )
    Pd = drawn.dense()
    if P == "leverage":  # Wang Table 2: p_i = ‖(V_s)_i‖²/s for the top-s eigenvectors of K
        p = (top_s(K, s)[1] ** 2).sum(1) / s
        np.testing.assert_allclose(drawn.scale, 1 / np.sqrt(c * p[drawn.idx]), rtol=1e-6)
    C = K @ Pd
    W = Pd.T @ C
    lam, U = top_s((W + W.T) / 2, ell)
    W_ell_pinv = (U / lam) @ U.T
    target = best_rank(C @ W_ell_pinv @ C.T, s)
    B = sketch.transform(X)
    assert B.shape == (220, s)
    assert np.abs(B @ B.T - target).max() < 1e-8 * np.abs(target).max()
    assert sketch.info_["s_used"] == s


def test_nystrom_rr_uniform_without_truncation_equals_best_rank_nystrom() -> None:
    """ℓ = c (Wang Thm 2's setting): B Bᵀ = (K_nL K_LL⁺ K_Ln)_s on the sampled landmarks."""
    X = blobs(200, seed=4)
    sketch = fit("nystrom_rr", X, 20, s=6, ell="c")
    L = sketch.landmarks_
    K = gauss_K(X)
    target = best_rank(K[:, L] @ np.linalg.pinv(K[np.ix_(L, L)], rcond=1e-12, hermitian=True) @ K[L], 6)
    B = sketch.transform(X)
    assert np.abs(B @ B.T - target).max() < 1e-8


def test_nystrom_rr_rules_and_validation() -> None:
    sk = make("nystrom_rr", 400, k=4, s="sqrt_kc", ell="half_c")
    assert sk.ranks(36) == (12, 18)
    with pytest.raises(ConfigError, match="sketch.s"):
        make("nystrom_rr", 400, s=30).validate(36)
    with pytest.raises(ConfigError, match="sketch.ell"):
        make("nystrom_rr", 400, ell=40).validate(36)
    with pytest.raises(ConfigError, match="sketch.P"):
        make("nystrom_rr", 400, P="bernoulli").validate(36)
    with pytest.raises(ConfigError, match="sketch.s"):
        make("nystrom_rr", 400, s="sqrt_n").validate(36)
    with pytest.raises(MemoryBudgetError, match="sketch.P=gaussian"):
        make("nystrom_rr", 400, P="gaussian", budget=400 * 400 * 8 - 1).validate(36)
    make("nystrom_rr", 400, P="uniform", budget=400 * 400 * 8 - 1).validate(36)  # no K needed


# -- KPCA and the power method --------------------------------------------------------------
def test_kpca_reproduces_top_s_eigen_approximation() -> None:
    X, Xt = blobs(300, seed=5), blobs(30, seed=6)
    s = 7
    sketch = fit("kpca", X, 20, s=s)
    K = gauss_K(X)
    lam, V = top_s(K, s)
    B = sketch.transform(X)
    np.testing.assert_allclose(B @ B.T, (V * lam) @ V.T, atol=1e-9)
    np.testing.assert_allclose(np.abs(B), np.abs(V * np.sqrt(lam)), atol=1e-7)  # up to signs
    # out of sample: coordinates of the projection onto the top-s eigendirections
    Kxt = gauss_K(Xt, X)
    Bt = sketch.transform(Xt)
    np.testing.assert_allclose(Bt @ Bt.T, Kxt @ (V / lam) @ V.T @ Kxt.T, atol=1e-9)
    assert sketch.info_["s_used"] == s


def test_kpca_uses_lanczos_without_storing_K() -> None:
    """A budget too small for K forces blocked matvecs; the result is the same."""
    X = blobs(300, seed=5)
    small = fit("kpca", X, 20, s=4, budget=300 * 300 * 8 - 1)
    lam, V = top_s(gauss_K(X), 4)
    B = small.transform(X)
    np.testing.assert_allclose(B @ B.T, (V * lam) @ V.T, atol=1e-9)


def test_power_method_converges_to_kpca() -> None:
    """‖B Bᵀ − K_s‖_F/‖K_s‖_F shrinks as t grows and vanishes for large t (c = 2s; here
    λ_{c+1}/λ_s ≈ 0.7, so the error falls geometrically but slowly)."""
    X = blobs(250, seed=7)
    s = 5
    lam, V = top_s(gauss_K(X), s)
    Ks = (V * lam) @ V.T
    errors = []
    for t in (0, 1, 2, 4, 8, 16, 80):
        B = fit("power", X, 2 * s, s=s, t=t).transform(X)
        errors.append(np.linalg.norm(B @ B.T - Ks) / np.linalg.norm(Ks))
    assert all(b <= a * 1.0001 for a, b in zip(errors, errors[1:])), errors
    assert errors[0] > 1e-3 and errors[-1] < 1e-8, errors


def test_power_matches_algorithm_1() -> None:
    """B Bᵀ = (C W⁺ Cᵀ)_s with U = orth(K^t P), C = K U, W = Uᵀ K U (dense brute force)."""
    X = blobs(200, seed=8)
    s, c, t = 4, 10, 2
    B = fit("power", X, c, seed=3, s=s, t=t).transform(X)
    K = gauss_K(X)
    P = np.random.default_rng(3).standard_normal((c, 200)).T  # the sketch's Gaussian draw
    U = np.linalg.qr(np.linalg.matrix_power(K, t) @ P)[0]
    C = K @ U
    target = best_rank(C @ np.linalg.pinv(U.T @ C, hermitian=True) @ C.T, s)
    assert np.abs(B @ B.T - target).max() < 1e-8


# -- every projection embedding is an orthogonal projection ---------------------------------
@pytest.mark.parametrize(
    "name,params",
    [
        ("nystrom", {}),
        ("nystrom_rls", {"method": "exact"}),
        ("nystrom_rr", {"s": 3, "ell": 5}),
        ("nystrom_rr", {"P": "srht", "s": 3, "ell": 5}),
        ("nystrom_rr", {"P": "countsketch", "s": 3, "ell": 5}),
        ("kpca", {"s": 3}),
        ("power", {"s": 3}),
    ],
)
def test_projection_embeddings_are_orthogonal_projections(name: str, params: dict) -> None:
    """Linear kernel, φ(x) = x ∈ R^20: features must be f(x) = Qᵀx with QᵀQ = I (an
    orthonormal basis of a subspace), on training and unseen points, and residual(x) =
    ‖x‖² − ‖Qᵀx‖² = ‖x − QQᵀx‖²."""
    rng = np.random.default_rng(9)
    X, Xt = rng.standard_normal((200, 20)), rng.standard_normal((25, 20))
    sketch = fit(name, X, 8, kernel=Kernel("linear"), **params)
    F = sketch.transform(X)
    Q = np.linalg.lstsq(X, F, rcond=None)[0]  # X has full column rank
    np.testing.assert_allclose(X @ Q, F, atol=1e-8)
    np.testing.assert_allclose(Q.T @ Q, np.eye(Q.shape[1]), atol=1e-8)
    np.testing.assert_allclose(sketch.transform(Xt), Xt @ Q, atol=1e-8)
    proj = Xt @ Q @ Q.T
    np.testing.assert_allclose(sketch.residual(Xt), ((Xt - proj) ** 2).sum(1), atol=1e-8)
    assert sketch.capabilities.projection


# -- kernel columns and the feature objective -------------------------------------------------
def test_kernel_columns_distances_differ_from_rkhs_and_the_gap_is_reported() -> None:
    X = blobs(200, seed=10)
    K = gauss_K(X)
    sketch = fit("kernel_columns", X, 10)
    F = sketch.transform(X)
    np.testing.assert_allclose(F, K, atol=1e-12)
    assert sketch.jl_scale() == 1.0
    i, j = np.triu_indices(200, 1)
    col_d2 = ((K[i] - K[j]) ** 2).sum(1)  # (e_i − e_j)ᵀ K² (e_i − e_j)
    rkhs_d2 = K[i, i] + K[j, j] - 2 * K[i, j]  # (e_i − e_j)ᵀ K (e_i − e_j)
    assert np.abs(col_d2 - rkhs_d2).max() > 1.0  # not a small numerical difference
    ratio = col_d2 / rkhs_d2
    assert ratio.max() / ratio.min() > 2.0  # not even a common scale
    part = sketch.partition(X, 4, CLUSTERERS.get("kmeanspp").impl(ClusteringConfig(name="kmeanspp")),
                            np.random.default_rng(0))
    labels = part.labels
    feat_obj = sum(((K[labels == j] - K[labels == j].mean(0)) ** 2).sum() for j in range(4)) / 200
    rkhs_obj = sum(
        np.trace(K[np.ix_(labels == j, labels == j)]) - K[np.ix_(labels == j, labels == j)].mean() * (labels == j).sum()
        for j in range(4)
    ) / 200
    assert feature_diagnostics(part, 4)["feature_objective"] == pytest.approx(feat_obj, rel=1e-10)
    assert abs(feat_obj - rkhs_obj) > 0.1 * rkhs_obj  # the gap is visible in the row


def test_feature_objective_brute_force(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(12)
    F = rng.standard_normal((150, 6))
    labels = rng.integers(0, 5, 150)
    labels[labels == 3] = 4  # cluster 3 empty
    brute = sum(((F[labels == j] - F[labels == j].mean(0)) ** 2).sum() for j in (0, 1, 2, 4)) / 150
    assert feature_objective(F, labels, 5) == pytest.approx(brute, rel=1e-12)
    assert feature_objective(F.astype(np.float32), labels, 5) == pytest.approx(
        sum(((F[labels == j].astype(np.float32).astype(np.float64)
              - F[labels == j].astype(np.float32).astype(np.float64).mean(0)) ** 2).sum()
            for j in (0, 1, 2, 4)) / 150, rel=1e-12)  # float32 features, float64 sums
    monkeypatch.setattr(kernels, "CHUNK_BYTES", 1)  # 1-row chunks
    assert feature_objective(F, labels, 5) == pytest.approx(brute, rel=1e-12)


def test_validation_errors() -> None:
    with pytest.raises(ConfigError, match="sketch.eig_cutoff"):
        make("nystrom", 100, eig_cutoff=1.5).validate(10)
    with pytest.raises(ConfigError, match="sketch.method"):
        make("nystrom_rls", 100, method="squeak").validate(10)
    with pytest.raises(MemoryBudgetError, match="method=bless"):
        make("nystrom_rls", 100, method="exact", budget=1000).validate(10)
    with pytest.raises(ConfigError, match="sketch.s"):
        make("power", 100, s=12).validate(10)
    with pytest.raises(ConfigError, match="sketch.t"):
        make("power", 100, t=-1).validate(10)
    with pytest.raises(MemoryBudgetError):
        make("power", 100, budget=1000).validate(10)
    with pytest.raises(MemoryBudgetError, match="kernel_columns"):
        make("kernel_columns", 100, budget=1000).validate(10)
    # K, scikit-learn's centred copy of the features and the temporary of its tolerance
    # (np.var over the columns): three n×n arrays at once
    make("kernel_columns", 100, budget=3 * 100 * 100 * 8).validate(10)
    with pytest.raises(MemoryBudgetError, match="3 copies"):
        make("kernel_columns", 100, budget=3 * 100 * 100 * 8 - 1).validate(10)
    with pytest.raises(ConfigError, match="sketch.s"):
        make("kpca", 100, s=101).validate(10)


# -- nested lists of m ------------------------------------------------------------------------
NESTED = [
    ("nystrom", {}),
    ("nystrom", {"replace": True}),
    ("nystrom_liu", {}),
    ("nystrom_rls", {"method": "exact"}),
    ("nystrom_rls", {"method": "bless"}),
    ("nystrom_rr", {}),
    ("nystrom_rr", {"s": "sqrt_kc", "P": "gaussian"}),
    ("nystrom_rr", {"P": "leverage"}),
    ("kpca", {"s": "sqrt_kc"}),
    ("power", {}),
    ("kernel_columns", {}),
]


@pytest.mark.parametrize("name,params", NESTED)
def test_m_alone_equals_m_inside_a_list(name: str, params: dict) -> None:
    X = blobs(200, seed=13)
    sketch = make(name, 200, **params)
    entry = SKETCHES.get(name)

    def run(ms: list[int]) -> dict[int, object]:
        return dict(entry.impl.fit_nested(
            sketch.params, sketch.ctx, X, KERNEL, ms, lambda: np.random.default_rng(21)
        ))

    alone = run([16])[16]
    inside = run([8, 16, 32])[16]
    np.testing.assert_allclose(alone.transform(X), inside.transform(X), atol=1e-10)
    if alone.landmarks_ is not None:
        np.testing.assert_array_equal(alone.landmarks_, inside.landmarks_)
    single = entry.impl(sketch.params, sketch.ctx).fit(X, KERNEL, 16, np.random.default_rng(21))
    np.testing.assert_allclose(single.transform(X), alone.transform(X), atol=1e-10)


def test_nested_landmarks_are_prefixes() -> None:
    X = blobs(200, seed=14)
    for name, params in (("nystrom", {}), ("nystrom_rls", {"method": "bless"}), ("nystrom_rr", {})):
        sketch = make(name, 200, **params)
        fitted = dict(SKETCHES.get(name).impl.fit_nested(
            sketch.params, sketch.ctx, X, KERNEL, [10, 40], lambda: np.random.default_rng(2)
        ))
        np.testing.assert_array_equal(fitted[40].landmarks_[:10], fitted[10].landmarks_)
