"""The bound checks of a run: one :class:`BoundEngine` per data draw, one row part per m.

The engine holds what every m of a run shares — the kernel matrix (dense path), the
spectrum of K, d_eff(γ), K² for the JL check, the k-means reference on kernel columns,
the sample of points for pair ratios — and :meth:`BoundEngine.row` computes the columns
of the selected checks for one fitted sketch and its partition. Which checks apply depends
on the sketch; a check that does not apply leaves its columns empty (NaN for
numbers, None for booleans), never zero:

==================  ==========================================  =========================
sketch kind         how it is recognised                        checks that apply
==================  ==========================================  =========================
projection          ``capabilities.projection`` (Nyström, KPCA) all; ``jl`` → proj_ratio_*
JL family           ``jl_scale()`` is not None (k_i ↦ R·k_i)    ``jl`` (Lemma 5, Lemma 6)
other embedding     features approximating K (RFF, one-pass)    trace, pourkamali,
                                                                wang_thm2 (exact path only)
no embedding        comparators (``on_features`` False)         none
==================  ==========================================  =========================

The checks against the exact solution (Lemma 2, Lemma 6, Pourkamali Thm 1, Wang Thm 2)
take ``ref_train_risk`` / ``ref_objective`` from the row's risk columns and are left empty
when the run has no reference. The papers state them for optimal partitions (ERMs);
here both sides are the partitions the algorithms returned, so a violation is a finding
about the algorithms as run, not necessarily about the lemma.

Exact path (n ≤ ``bound_exact_max_n``): K is held in float64 (memory checked first), its
full spectrum comes from one dense eigendecomposition per data draw, all pairs are used.
Randomized path: products with K are recomputed in row blocks unless K fits a quarter of
the budget; top eigenvalues by subspace iteration, d_eff by Hutchinson + CG, pair ratios
over a seeded sample of ``bound_sample_points`` points (the max over a sample is a lower
estimate of the max over all pairs), and the checks that need dense n×n algebra
(kernel-column reference, indefinite nuclear norms) are left empty. Errors of randomized
values are in the ``*_err`` columns (0 for exact values); ``bounds_method`` says which path.

What a row's bound columns drew at random is kept in :attr:`BoundEngine.drawn` after each
:meth:`BoundEngine.row`, and the run stores it in its ``.npz``:

============================  ==========  ==================================================
array                         size        meaning
============================  ==========  ==================================================
``bounds_sample``             p ints      randomized path, p = ``bound_sample_points`` < n:
                                          the sorted points whose pairs give the ratios
                                          (``jl_*``, ``proj_*``), ``np.sort(rng.choice(n, p,
                                          replace=False))`` of ``component_rng(seed,
                                          "bounds-pairs")``; absent: all n points
``bounds_kc_ref_labels``      n ints      exact path, JL family: the partition of the
                                          kernel columns whose objective is
                                          ``kc_ref_objective`` (Lemma 6's reference)
``bounds_gamma_rng_state``    6 words     ``gamma``: the start of ``component_rng(seed,
                                          "bounds-gamma")``, whose first draw is the start
                                          of λ_max(E): ``standard_normal(n)`` (exact path,
                                          Lanczos, n > 2) or ``standard_normal((n, b))``,
                                          b = min(n, 11) (randomized, subspace iteration)
``bounds_spectrum_rng_state`` 6 words     randomized top eigenvalues of K: the start of
                                          ``component_rng(data_seed, "bounds-spectrum")``,
                                          first draw ``standard_normal((n, min(n, t + 10)))``
``bounds_deff_rng_state``     6 words     randomized d_eff: the start of
                                          ``component_rng(data_seed, "bounds-deff")``, first
                                          draw the Rademacher probes ``choice([-1.0, 1.0],
                                          size=(n, 64))``
============================  ==========  ==================================================

The states are :func:`kktheory.seeding.generator_state` words (:func:`kktheory.seeding.
generator_at` draws the same again).

Spectra, d_eff and the kernel-column reference are cached on disk, as data under
``<results_dir>/cache`` (:mod:`kktheory.evaluation.cache`), keyed by the kktheory version,
the dataset config, n, n_test, data_seed, the resolved kernel and (where they matter) the
number of eigenvalues, γ, the tolerance and the clustering config. The exact path caches
the whole spectrum of K once per data draw, which serves every s.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.linalg

from kktheory.evaluation.bounds import theory
from kktheory.evaluation.cache import cached_call
from kktheory.evaluation.bounds.gamma import EIG_CUTOFF, effective_dimension, gamma_preservation, residual_matrix
from kktheory.evaluation.bounds.jl import jl_distortion, kernel_columns_objective, pair_ratios, projection_ratios
from kktheory.evaluation.bounds.spec import BoundsSpec, require_dense
from kktheory.evaluation.bounds.trace import (
    TraceNorms, approximation_error_dense, approximation_error_psd, trace_norms_dense, trace_norms_psd,
)
from kktheory.cluster.clusterers import CLUSTERERS, ClusteringConfig
from kktheory.datasets.base import DataSpec
from kktheory.kernels.gram import Gram, gram_fits
from kktheory.kernels.functions import Kernel
from kktheory.seeding import component_rng, generator_state
from kktheory.kernels.spectrum import effective_dimension_hutchinson, lambda_max_dense, ritz_pairs
from kktheory.version import __version__

if TYPE_CHECKING:
    from kktheory.datasets import Dataset
    from kktheory.embeddings import Partition, Sketch

NAN = float("nan")

#: the columns of each check with their meaning and unit (the row schema, :mod:`kktheory.run.schema`,
#: documents them from here); booleans are empty as None, numbers as NaN
COLUMN_DOCS: dict[str, dict[str, tuple[str, str]]] = {
    "gamma": {
        "gamma_rho": ("ρ = γ + λ_max(E), E = K − FFᵀ (0 when the sketch spans the data: E = 0), Calandriello Def. 2",
                      "κ"),
        "gamma_ratio": ("ρ/γ = 1 + λ_max(E)/γ", "ratio"),
        "gamma_eps": ("smallest ε of Calandriello Def. 2 (γ-preservation): max(0, 1 − γ/ρ)", "ratio in [0, 1)"),
        "gamma_eps_err": ("stated error of gamma_eps (0 on the exact path)", "ratio"),
        "gamma_residual": ("λ_max(E) = ‖K − FFᵀ‖₂", "κ"),
        "gamma_residual_err": ("stated error of gamma_residual (Lanczos / subspace-iteration residual)", "κ"),
        "deff": ("effective dimension d_eff(γ) = Σ λ_i/(λ_i + γ), Calandriello Def. 3", "dimension"),
        "deff_err": ("stated error of deff (0 on the exact path; Hutchinson + CG otherwise)", "dimension"),
        "lemma1_m": ("uniform landmarks sufficient by Calandriello Lemma 1: 12κ²(n/γ)log(n/δ)/ε², "
                     "δ = bound_delta, ε = bound_eps", "points"),
        "lemma3_m": ("RLS-sampled landmarks sufficient by Calandriello Lemma 3: 12κ²·d_eff·log(n/δ)/ε²", "points"),
        "lemma2_gap": ("train_risk − ref_train_risk (the left side of Calandriello Lemma 2)", "κ"),
        "lemma2_bound": ("Calandriello Lemma 2: min(k, d_eff)/(1 − gamma_eps)·γ/n", "κ"),
        "lemma2_holds": ("lemma2_gap ≤ lemma2_bound", "bool"),
    },
    "trace": {
        "trace_s": ("target rank s of Wang Thm 1 (the sketch's s, else k)", "rank"),
        "trace_norm_sketch": ("‖K − FFᵀ‖_* of the sketch's rank-s features", "κ"),
        "trace_norm_best": ("‖K − K_s‖_* of the best rank-s approximation (Σ of K's eigenvalues beyond s)",
                            "κ"),
        "trace_ratio": ("trace_norm_sketch / trace_norm_best (Wang Thm 1's 1 + ε)", "ratio ≥ 1"),
        "trace_ratio_err": ("stated error of trace_ratio (0 on the exact path)", "ratio"),
        "trace_coherence": ("row coherence μ = (n/s)·max_i ‖(V_s)_i‖² of K's top-s eigenvectors (Wang Table 2)",
                            "ratio in [1, n/s]"),
    },
    "jl": {
        "jl_scale": ("expected scale E‖Rv‖²/‖v‖² of the map k_i ↦ R·k_i", "ratio"),
        "jl_eps": ("smallest ε of Yin Lemma 5's (1 ± ε) distortion of ‖k_i − k_j‖² at the expected scale: "
                   "max over pairs of |ratio/jl_scale − 1|", "ratio"),
        "jl_eps_free": ("the same ε under the best common scale: (max − min)/(max + min) of the pair ratios "
                        "(≤ jl_eps)", "ratio"),
        "jl_ratio_min": ("smallest pair ratio ‖R(k_i − k_j)‖²/‖k_i − k_j‖²", "ratio"),
        "jl_ratio_max": ("largest pair ratio ‖R(k_i − k_j)‖²/‖k_i − k_j‖²", "ratio"),
        "jl_pairs": ("pairs of points behind the jl_* ratios (pairs of duplicated points left out)", "count"),
        "jl_required_m": ("m sufficient by Yin Lemma 5 for ε = bound_eps, δ = bound_delta: "
                          "(4 log n − 2 log δ)/(ε − log(1 + ε))", "dimension"),
        "jl_eps_implied": ("the ε Yin Lemma 5 guarantees at this row's m", "ratio"),
        "lemma6_bound": ("Yin Lemma 6 as printed: 2·jl_eps/(1 − jl_eps) (inf for jl_eps ≥ 1)", "ratio"),
        "lemma6_gap_risk": ("train_risk − ref_train_risk, compared with lemma6_bound on the RKHS risk", "κ"),
        "lemma6_holds_risk": ("lemma6_gap_risk ≤ lemma6_bound", "bool"),
        "kc_objective": ("k-means objective of the row's partition over the kernel columns k_i "
                         "(Lemma 6's W): (‖K‖_F² − Σ_j ‖K1_j‖²/|C_j|)/n", "κ²"),
        "kc_ref_objective": ("the same objective of the run's clusterer applied to the kernel columns "
                             "(Lemma 6's reference)", "κ²"),
        "lemma6_gap_kc": ("kc_objective − kc_ref_objective", "κ²"),
        "lemma6_holds_kc": ("lemma6_gap_kc ≤ lemma6_bound (the bound read as absolute)", "bool"),
        "lemma6_bound_kc_rel": ("lemma6_bound·kc_ref_objective (the bound read as relative)", "κ²"),
        "lemma6_holds_kc_rel": ("lemma6_gap_kc ≤ lemma6_bound_kc_rel", "bool"),
        "proj_ratio_min": ("smallest pair ratio ‖Π_m(φ_i − φ_j)‖²/‖φ_i − φ_j‖² of a projection embedding", "ratio in [0, 1]"),
        "proj_ratio_mean": ("mean of those pair ratios", "ratio in [0, 1]"),
        "proj_ratio_max": ("largest of those pair ratios", "ratio in [0, 1]"),
        "proj_pairs": ("pairs of points behind the proj_* ratios (pairs at zero RKHS distance left out)", "count"),
    },
    "pourkamali": {
        "approx_nuclear": ("‖K − FFᵀ‖_* of the sketch's features", "κ"),
        "pourkamali_gap": ("n·(objective − ref_objective): the excess of the unnormalised objective", "κ"),
        "pourkamali_bound": ("Pourkamali Thm 1: 2‖K − FFᵀ‖_*", "κ"),
        "pourkamali_holds": ("pourkamali_gap ≤ pourkamali_bound", "bool"),
        "pourkamali_bound_psd": ("tr(K − FFᵀ): the bound's form when K − FFᵀ ⪰ 0", "κ"),
        "pourkamali_holds_psd": ("pourkamali_gap ≤ pourkamali_bound_psd", "bool"),
    },
    "wang_thm2": {
        "wang_s": ("target rank s of Wang Thm 2 (= trace_s)", "rank"),
        "wang_eps": ("ε = trace_ratio − 1 of Wang Thm 1", "ratio"),
        "wang_ratio": ("objective / ref_objective", "ratio"),
        "wang_bound": ("Wang Thm 2's approximation ratio 1 + ε + k/s", "ratio"),
        "wang_holds": ("wang_ratio ≤ wang_bound", "bool"),
    },
}
#: column names of each check
COLUMNS: dict[str, tuple[str, ...]] = {check: tuple(cols) for check, cols in COLUMN_DOCS.items()}
#: number of Hutchinson probes for d_eff on the randomized path
DEFF_PROBES = 64


def empty(name: str) -> dict[str, Any]:
    """The columns of one check, all empty."""
    return {c: (None if "holds" in c else NAN) for c in COLUMNS[name]}


def _holds(value: float, bound: float) -> bool | None:
    return None if not (math.isfinite(value) and not math.isnan(bound)) else bool(value <= bound)


def _ref(cols: dict[str, Any], name: str) -> float:
    value = cols.get(name)
    return float(value) if value is not None and np.isfinite(value) else NAN


def feature_kind(sketch: "Sketch", part: "Partition") -> str | None:
    """The sketch kind of the table above: "projection", "jl", "lowrank", or None (the
    partition is not k-means on the sketch's features: the comparators)."""
    if not part.on_features or part.features is None:
        return None
    if sketch.jl_scale() is not None:
        return "jl"
    return "projection" if sketch.capabilities.projection else "lowrank"


# -- cached computations (keyed by their leading arguments, :meth:`BoundEngine._cached`) ------
def full_spectrum(key: dict[str, Any], K: np.ndarray) -> np.ndarray:
    """All eigenvalues of K, descending (dense, O(n³))."""
    return np.linalg.eigvalsh(K)[::-1].copy()


def top_coherence(key: dict[str, Any], s: int, K: np.ndarray) -> float:
    """Row coherence of the top-s eigenvectors V_s of K, μ = (n/s)·max_i ‖(V_s)_i‖²
    (Wang et al. Table 2's μ; 1 ≤ μ ≤ n/s). Dense, O(n²s)."""
    n = len(K)
    V = scipy.linalg.eigh(K, subset_by_index=[n - s, n - 1])[1]
    return float(n / s * np.max(np.einsum("ij,ij->i", V, V)))


def top_spectrum(key: dict[str, Any], t: int, tol: float, seed: int, op: Gram) -> tuple[np.ndarray, np.ndarray]:
    """Top-t eigenvalues of K and their residual errors (subspace iteration)."""
    ritz = ritz_pairs(op.times, op.n, t, component_rng(seed, "bounds-spectrum"), tol)
    return ritz.values, ritz.residuals


def deff_estimate(key: dict[str, Any], gamma: float, tol: float, seed: int, op: Gram) -> tuple[float, float]:
    """d_eff(γ) and its stated error by Hutchinson + CG."""
    est = effective_dimension_hutchinson(
        op.times, op.n, gamma, component_rng(seed, "bounds-deff"), DEFF_PROBES, tol,
    )
    return est.value, est.error


def kernel_columns_reference(
    key: dict[str, Any], k: int, clustering: ClusteringConfig, seed: int, K: np.ndarray
) -> tuple[float, np.ndarray]:
    """(W_kc, labels) of the run's clusterer applied to the kernel columns k_i (Yin Lemma
    6's C_n)."""
    clusterer = CLUSTERERS.get(clustering.name).impl(clustering)
    labels = np.asarray(clusterer.fit(K, k, component_rng(seed, "bounds-kc-reference")).labels)
    return kernel_columns_objective(K, labels, k), labels


@dataclass(frozen=True)
class BoundSetting:
    """What the bound checks of a run are given: the checks (``bounds``), the data draw, γ,
    the run's seed, the memory budget, the clustering config (of the checks that cluster)
    and the folder of the results cache."""

    bounds: BoundsSpec
    data: DataSpec
    gamma: float
    seed: int
    budget: int
    clustering: Any
    results_dir: str


class BoundEngine:
    """Bound checks of one run (one data draw, one kernel), for any number of sketches."""

    def __init__(self, setting: BoundSetting, kernel: Kernel, data: "Dataset") -> None:
        self.b = setting.bounds
        self.names = self.b.names
        self.n, self.k, self.gamma = setting.data.n, setting.data.k, setting.gamma
        self.seed, self.data_seed, self.budget = setting.seed, setting.data.data_seed, setting.budget
        self.clustering = setting.clustering
        self.kernel = replace(kernel, dtype="float64")
        self.X = data.X_train  # read in blocks by the float64 kernel (no copy of a memory map)
        self.exact = self.n <= self.b.exact_max_n
        kernel_key = {k: v for k, v in asdict(self.kernel).items() if k != "dtype"}
        self.key = {"version": __version__, **setting.data.key(), "kernel": kernel_key}
        self.results_dir = setting.results_dir
        self._lazy: dict[str, Any] = {}
        #: the random draws behind the last :meth:`row` (module docstring), stored with it
        self.drawn: dict[str, np.ndarray] = {}

    # -- shared, lazily computed ---------------------------------------------------------
    def _get(self, name: str, make) -> Any:
        if name not in self._lazy:
            self._lazy[name] = make()
        return self._lazy[name]

    def _cached(self, func: Callable[..., Any], keyed: tuple[Any, ...], *rest: Any) -> Any:
        """``func(self.key, *keyed, *rest)``, kept in the results folder's cache by its
        leading arguments (:func:`kktheory.evaluation.cache.cached_call`)."""
        return cached_call(self.results_dir, func, (self.key, *keyed), *rest)[0]

    @property
    def K(self) -> np.ndarray:
        """The dense float64 training kernel matrix (exact path)."""
        def make() -> np.ndarray:
            require_dense(self.n, 4, self.budget)
            return self.kernel.matrix(self.X, self.X, self.budget)
        return self._get("K", make)

    @property
    def op(self) -> Gram:
        """Products with K (float64): the dense matrix on the exact path; otherwise held
        when it fits a quarter of the budget, else recomputed in row blocks."""
        return self._get("op", lambda: Gram(
            self.kernel, self.X, self.budget, store=gram_fits(self.n, "float64", self.budget // 4),
            matrix=self.K if self.exact else None))

    @property
    def trace_K(self) -> float:
        return self._get("trace_K", lambda: float(self.kernel.diag(self.X).sum()))

    @property
    def kappa2(self) -> float:
        """κ² = max_i κ(x_i, x_i) (the sup over the sample)."""
        return self._get("kappa2", lambda: float(self.kernel.diag(self.X).max()))

    def spectrum(self, t: int) -> tuple[np.ndarray, float]:
        """(top-t eigenvalues of K, stated error of their sum)."""
        if self.exact:
            lam = self._get("spectrum", lambda: self._cached(full_spectrum, (), self.K))
            return lam[:t], 0.0
        self._record("bounds_spectrum", component_rng(self.data_seed, "bounds-spectrum"))
        vals, res = self._get(f"top{t}", lambda: self._cached(
            top_spectrum, (t, self.b.tol, self.data_seed), self.op))
        return vals, float(np.sum(res))

    def coherence(self, s: int) -> float:
        """μ of the top-s eigenvectors of K (exact path only; NaN otherwise)."""
        if not self.exact:
            return NAN
        return self._get(f"coherence{s}", lambda: self._cached(top_coherence, (s,), self.K))

    def deff(self) -> tuple[float, float]:
        """d_eff(γ) with its stated error (0 when exact)."""
        if self.exact:
            return effective_dimension(self.spectrum(self.n)[0], self.gamma), 0.0
        self._record("bounds_deff", component_rng(self.data_seed, "bounds-deff"))
        return self._get("deff", lambda: self._cached(
            deff_estimate, (self.gamma, self.b.tol, self.data_seed), self.op))

    def _record(self, name: str, rng: np.random.Generator) -> None:
        """Keep the state of a stream drawn from for the current row."""
        self.drawn[f"{name}_rng_state"] = generator_state(rng)

    @property
    def sample(self) -> np.ndarray:
        """Sorted indices of the points whose pairs give distance ratios."""
        def make() -> np.ndarray:
            if self.exact or self.b.sample_points >= self.n:
                return np.arange(self.n)
            rng = component_rng(self.seed, "bounds-pairs")
            return np.sort(rng.choice(self.n, self.b.sample_points, replace=False))
        return self._get("sample", make)

    def _column_gram(self) -> np.ndarray:
        """Gram matrix of the kernel columns of the sample: K_{:,S}ᵀ K_{:,S}."""
        def make() -> np.ndarray:
            if self.exact:
                return self.K @ self.K
            C = self.kernel.matrix(self.X, self.X[self.sample], self.budget)
            return C.T @ C
        return self._get("K2", make)

    def _point_gram(self) -> np.ndarray:
        """K restricted to the sample (the RKHS Gram matrix of the sampled points)."""
        if self.exact:
            return self.K
        return self._get("K_sample", lambda: self.kernel.matrix(self.X[self.sample], self.X[self.sample], self.budget))

    # -- one row -------------------------------------------------------------------------
    def row(self, sketch: "Sketch", part: "Partition", cols: dict[str, Any], m: int) -> dict[str, Any]:
        """The bound columns of one fitted sketch, its partition and its risk columns."""
        self.drawn = {}
        if not self.names:
            return {}
        t0 = time.perf_counter()
        kind = feature_kind(sketch, part)
        F = None if kind is None else np.asarray(part.features, dtype=np.float64)
        out: dict[str, Any] = {"bounds_method": "exact" if self.exact else "randomized"}
        trace = self._trace(sketch, F, kind) if {"trace", "wang_thm2"} & set(self.names) else None
        for name in self.names:
            if name == "gamma":
                out.update(self._gamma(sketch, F, kind, cols))
            elif name == "trace":
                out.update({**trace.columns(), "trace_coherence": self.coherence(trace.s)} if trace is not None
                           else empty("trace"))
            elif name == "jl":
                out.update(self._jl(sketch, F, kind, part.labels, cols, sketch.m_used(m)))
            elif name == "pourkamali":
                out.update(self._pourkamali(F, kind, cols))
            elif name == "wang_thm2":
                out.update(self._wang(trace, cols))
        out["time_bounds"] = time.perf_counter() - t0
        return out

    def target_rank(self, sketch: "Sketch", F: np.ndarray) -> int:
        """s of Wang Thm 1/2: the sketch's resolved target rank ``s_``, an integer
        ``params.s``, the feature dimension when ``params.s`` is a rule the sketch resolved
        (its features then have s columns), else k."""
        s = getattr(sketch, "s_", None)
        if s is None:
            p = getattr(sketch.params, "s", None)
            s = p if isinstance(p, (int, np.integer)) and not isinstance(p, bool) else (
                F.shape[1] if p is not None else self.k)
        return int(min(max(int(s), 1), self.n))

    def _gamma(self, sketch: "Sketch", F: np.ndarray | None, kind: str | None, cols: dict[str, Any]) -> dict[str, Any]:
        if kind != "projection":
            return empty("gamma")
        lam_max_K = float(self.spectrum(1)[0][0])
        rng = component_rng(self.seed, "bounds-gamma")
        self._record("bounds_gamma", rng)
        if self.exact:
            lam_E, err = lambda_max_dense(residual_matrix(self.K, F), rng)
        else:
            op = self.op
            ritz = ritz_pairs(lambda V: op.times(V) - F @ (F.T @ V), self.n, 1, rng, self.b.tol)
            lam_E, err = float(ritz.values[0]), float(ritz.residuals[0])
        gp = gamma_preservation(lam_E, self.gamma, lam_max_K, err, EIG_CUTOFF)
        deff, deff_err = self.deff()
        dictionary = sketch.landmarks_ is not None
        bound = theory.lemma2_bound(self.k, deff, gp.gamma_eps, self.gamma, self.n)
        gap = float(cols["train_risk"]) - _ref(cols, "ref_train_risk")
        return {
            **gp.columns(), "deff": deff, "deff_err": deff_err,
            "lemma1_m": theory.lemma1_required_m(self.n, self.gamma, self.b.delta, self.b.eps, self.kappa2) if dictionary else NAN,
            "lemma3_m": theory.lemma3_required_m(self.n, deff, self.b.delta, self.b.eps, self.kappa2) if dictionary else NAN,
            "lemma2_gap": gap, "lemma2_bound": bound, "lemma2_holds": _holds(gap, bound),
        }

    def _trace(self, sketch: "Sketch", F: np.ndarray | None, kind: str | None) -> TraceNorms | None:
        if kind not in ("projection", "lowrank"):
            return None
        s = self.target_rank(sketch, F)
        if kind == "projection":
            top, err = self.spectrum(s)
            return trace_norms_psd(self.trace_K, top, F, s, err)
        if not self.exact:
            return None
        return trace_norms_dense(self.K, self.spectrum(s)[0], F, s)

    def _jl(self, sketch: "Sketch", F: np.ndarray | None, kind: str | None, labels: np.ndarray,
            cols: dict[str, Any], m: int) -> dict[str, Any]:
        out = empty("jl")
        S = self.sample
        if kind in ("projection", "jl") and len(S) < self.n:
            self.drawn["bounds_sample"] = S
        if kind == "projection":
            H = F[S] @ F[S].T
            out.update(projection_ratios(pair_ratios(self._point_gram(), H)))
        elif kind == "jl":
            H = F[S] @ F[S].T
            jl = jl_distortion(pair_ratios(self._column_gram(), H), float(sketch.jl_scale()))
            eps = jl["jl_eps"]
            bound = theory.yin_lemma6_bound(eps)
            gap_risk = float(cols["train_risk"]) - _ref(cols, "ref_train_risk")
            out.update(jl)
            out.update(
                jl_required_m=theory.yin_required_m(self.n, self.b.delta, self.b.eps),
                jl_eps_implied=theory.yin_implied_eps(self.n, self.b.delta, m),
                lemma6_bound=bound, lemma6_gap_risk=gap_risk, lemma6_holds_risk=_holds(gap_risk, bound),
            )
            if self.exact:
                kc = kernel_columns_objective(self.K, labels, self.k)
                ref, ref_labels = self._get("kc_ref", lambda: self._cached(
                    kernel_columns_reference, (self.k, self.clustering, self.seed), self.K))
                self.drawn["bounds_kc_ref_labels"] = ref_labels
                rel = bound * ref
                out.update(
                    kc_objective=kc, kc_ref_objective=ref, lemma6_gap_kc=kc - ref,
                    lemma6_holds_kc=_holds(kc - ref, bound), lemma6_bound_kc_rel=rel,
                    lemma6_holds_kc_rel=_holds(kc - ref, rel),
                )
        return out

    def _pourkamali(self, F: np.ndarray | None, kind: str | None, cols: dict[str, Any]) -> dict[str, Any]:
        out = empty("pourkamali")
        if kind == "projection":
            nuclear = approximation_error_psd(self.trace_K, F)
        elif kind == "lowrank" and self.exact:
            nuclear = approximation_error_dense(self.K, F)
        else:
            return out
        gap = self.n * (float(cols["objective"]) - _ref(cols, "ref_objective"))
        bound = theory.pourkamali_bound(nuclear)
        out.update(approx_nuclear=nuclear, pourkamali_gap=gap, pourkamali_bound=bound,
                   pourkamali_holds=_holds(gap, bound))
        if kind == "projection":  # E = K − FFᵀ ⪰ 0: the tr(E) form applies
            out.update(pourkamali_bound_psd=nuclear, pourkamali_holds_psd=_holds(gap, nuclear))
        return out

    def _wang(self, trace: TraceNorms | None, cols: dict[str, Any]) -> dict[str, Any]:
        if trace is None or not math.isfinite(trace.ratio):
            return empty("wang_thm2")
        eps = trace.ratio - 1.0
        bound = theory.wang_thm2_bound(eps, self.k, trace.s)
        ratio = float(cols["objective"]) / _ref(cols, "ref_objective") if _ref(cols, "ref_objective") > 0 else NAN
        return {"wang_s": trace.s, "wang_eps": eps, "wang_ratio": ratio, "wang_bound": bound,
                "wang_holds": _holds(ratio, bound)}
