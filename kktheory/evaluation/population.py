"""The population optimum W*(μ) and the two excess risks (Calandriello Thm 1; Yin Thm 2).

For a distribution μ and centroids C = (c_1..c_k) in the RKHS,
W(C, μ) = E_{x∼μ} min_j ‖φ(x) − c_j‖², and W*(μ) = inf_C W(C, μ). The papers bound two
different excess risks of the centroids C_{n,m} computed from n points with a sketch of
size m:

- Calandriello & Rosasco 2018, Thm 1: E(C_{n,m}) = W(C_{n,m}, μ) − W(C_n, μ) ≤ O(k/√n + kγ/n),
  against the exact empirical minimiser C_n on the same training points (kktheory: the
  exact reference) — ``excess_erm_risk``;
- Yin et al. 2022, Thm 2 (and Liu 2021's Thm 1 for exact kernel k-means):
  E[W(C̃_{n,m}, μ)] − W*(μ) = Õ(√(k/n)), against the best centroids for μ itself —
  ``excess_pop_risk``.

Only the generated data sets (:data:`kktheory.datasets.synthetic.DISTRIBUTIONS`) can be
sampled without limit, so only they have these columns; a real data set has no μ to
sample from (the row's ``nan_reason`` says so).

Estimating W*(μ) (:func:`optimum`). Three independent samples of μ, each drawn once from
the streams "population-test" (T, ``test_n`` points), "population-select" (S,
``select_n``) and "population-train" (B, ``train_n``) seeded by μ's key — so they are
independent of every run's training and test points, and shared by every run of μ:

1. candidates: (a) Nyström centroids in H_m: m = ``m`` uniform landmarks of B, k-means
   (``restarts`` k-means++ starts, Lloyd to convergence) on the Nyström features of all of
   B, centroids c̃_j ∈ H_m (projected, Calandriello eq. 2); (b) exact kernel k-means on
   ``exact_n`` further points of μ (stream "population-exact"; ``restarts`` starts),
   lifted centroids (Yin eq. 11);
2. each candidate is scored on S; the best one is scored on T: the per-point values
   w(x) = min_j ‖φ(x) − c_j‖², x ∈ T, are kept, and ŵ* = mean w, se = sd(w)/√|T|.

Every candidate is a centroid set, so W(C, μ) ≥ W*(μ): ŵ* estimates an UPPER bound on
W*(μ) (up to its Monte-Carlo error; choosing the candidate on S rather than T keeps the
estimate unbiased for the chosen candidate's W). Consequently ``excess_pop_risk`` =
W(C_{n,m}, T) − ŵ* estimates a LOWER bound on the true excess over W*(μ): a negative
value means the run's centroids beat every candidate (the candidates are too weak, not
the theorem wrong), and at large n the excess can only be resolved down to the
candidates' own excess.

Common random numbers: a row's centroids, the exact reference's and the optimum's are
all scored on the same T, and each difference's standard error is that of the mean of
the per-point differences (paired), far smaller than the two errors combined.

The optimum is cached (as data under ``<results_dir>/cache``, :mod:`kktheory.evaluation.cache`)
per distribution (:attr:`Distribution.key`: config and drawn parameters such as Yin's
centres), kernel, k, settings and package version. Cost: features of B,
O(train_n·m·d + train_n·m·k per Lloyd iteration); exact candidate O(exact_n²·d); scoring
O((|S| + |T|)·(m + exact_n)·d). Per run: O((n + |T|)·n·d) for the lifted distances on T
(one pass for all partitions of an m-list and the reference).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from kktheory.machine import memory
from kktheory.cluster.clusterers import ClusteringConfig, KMeansPP
from kktheory.datasets.synthetic import DISTRIBUTIONS, Distribution
from kktheory.evaluation.cache import cached_call
from kktheory.errors import ConfigError
from kktheory.kernels.gram import Gram
from kktheory.cluster.kernel_kmeans import kernel_kmeans
from kktheory.kernels.functions import Kernel, KernelConfig
from kktheory.evaluation.risk import LiftedCentroids, projected_distances
from kktheory.seeding import component_rng
from kktheory.embeddings.base import SketchContext
from kktheory.embeddings.nystrom import Nystrom, NystromConfig
from kktheory.version import __version__


def nearest_lifted(kernel: Kernel, X_train: np.ndarray, labelings: list[np.ndarray], Y: np.ndarray, k: int,
                   budget: int) -> list[np.ndarray]:
    """min_j ‖φ(y) − c_j‖² at every point y of Y for the exact lifted centroids of each
    partition of X_train: one pass over κ(X_train, X_train), one over κ(Y, X_train), all
    partitions stacked (:meth:`kktheory.evaluation.risk.LiftedCentroids.exact_many`), kept per point so
    that differences between partitions scored on the same Y can be paired."""
    return LiftedCentroids.exact_many(kernel, X_train, labelings, k, budget)[0].nearest(Y, "risk (population)")
#: row columns of the population evaluation
COLUMNS = ("pop_test_risk", "pop_test_risk_se", "w_star", "w_star_se", "w_star_method", "population_cached",
           "time_w_star", "time_population",
           "excess_pop_risk", "excess_pop_risk_se", "excess_erm_risk", "excess_erm_risk_se")


@dataclass
class PopulationConfig:
    """Top-level field ``population``: the optimum's samples and candidates (module docstring)."""

    test_n: int = 0  # points of the population test sample T; 0: no population columns
    select_n: int = 20000  # points of the selection sample S
    train_n: int = 200000  # points of B (Nyström candidate)
    m: int = 1000  # landmarks of the Nyström candidate
    exact_n: int = 4000  # points of the exact kernel k-means candidate
    restarts: int = 10  # k-means++ starts of each candidate


def validate(cfg: PopulationConfig, dataset: str, kernel: KernelConfig, k: int, budget: int) -> None:
    """Refuse a population request that cannot be honoured (ConfigError, before any work)."""
    if cfg.test_n == 0:
        return
    for name in ("test_n", "select_n", "train_n", "m", "exact_n", "restarts"):
        if getattr(cfg, name) < 1:
            raise ConfigError(f"population.{name}", getattr(cfg, name), "an integer ≥ 1")
    if dataset not in DISTRIBUTIONS:
        raise ConfigError("population.test_n", cfg.test_n,
                          f"0 for dataset={dataset}: only generated data sets ({', '.join(DISTRIBUTIONS)}) "
                          "can be sampled without limit")
    if kernel.name == "gaussian" and kernel.bandwidth != "fixed":
        raise ConfigError("population.test_n", cfg.test_n,
                          f"0 with kernel.bandwidth={kernel.bandwidth}: W*(μ) needs a kernel that does not "
                          "depend on the training sample (kernel.bandwidth=fixed)")
    if not k <= min(cfg.exact_n, cfg.train_n):
        raise ConfigError("population.exact_n", cfg.exact_n, f"at least k={k}")
    if cfg.m > cfg.train_n:
        raise ConfigError("population.m", cfg.m, f"at most population.train_n={cfg.train_n}")
    memory.require(8 * cfg.train_n * cfg.m * 2, budget,
                   f"the population optimum's Nyström candidate ({cfg.train_n}×{cfg.m} features and kernel block)",
                   "use a smaller population.train_n or population.m")
    memory.require(8 * cfg.exact_n**2, budget, f"the population optimum's exact candidate (K of {cfg.exact_n} points)",
                   "use a smaller population.exact_n")


def distribution(dataset: Any, k: int, data_seed: int) -> Distribution:
    """μ of a generated data set as the run's loader builds it (same data stream)."""
    return DISTRIBUTIONS[dataset.name](dataset, k, component_rng(data_seed, "data"))


def sample(mu: Distribution, size: int, stream: str) -> np.ndarray:
    """``size`` points of μ from the stream ``population-<stream>`` seeded by μ's key (so a
    distribution shared by several data seeds has one T, S and B)."""
    return mu.sample(size, component_rng(int(mu.key, 16) % 2**63, f"population-{stream}"))[0]


@dataclass(frozen=True)
class Optimum:
    """The estimate of W*(μ): per-point values on T, and how it was obtained."""

    values: np.ndarray  # w(x) = min_j ‖φ(x) − c*_j‖² for x ∈ T
    method: str  # the chosen candidate and every candidate's score on S
    seconds: float

    @property
    def w_star(self) -> float:
        return float(self.values.mean())

    @property
    def se(self) -> float:
        return float(self.values.std(ddof=1) / np.sqrt(len(self.values)))


def _compute(key: dict[str, Any], mu: Distribution, kernel: Kernel, budget: int) -> dict[str, Any]:
    """Candidates on B, choice on S, values on T: the fields of the :class:`Optimum` (the
    cached function; see ``key``)."""
    t0 = time.perf_counter()
    cfg, k = PopulationConfig(**key["population"]), key["k"]
    T, S, B = (sample(mu, size, name) for size, name in
               ((cfg.test_n, "test"), (cfg.select_n, "select"), (cfg.train_n, "train")))
    rng = component_rng(int(mu.key, 16) % 2**63, "population-candidates")

    ctx = SketchContext(n=len(B), k=k, gamma=np.nan, budget=budget, dtype=kernel.dtype)
    nystrom = Nystrom(NystromConfig(), ctx).fit(B, kernel, cfg.m, rng)
    clusterer = KMeansPP(ClusteringConfig(name="kmeanspp", n_init=cfg.restarts, max_iter=1000, tol=0.0))
    F = nystrom.transform(B)
    labels_b = clusterer.fit(F, k, rng).labels

    def in_hm(Y: np.ndarray) -> np.ndarray:
        return projected_distances(F, labels_b, nystrom.transform(Y), nystrom.residual(Y), k)

    X_exact = sample(mu, cfg.exact_n, "exact")  # not a prefix of B: samples may be ordered by component
    labels_e = kernel_kmeans(Gram(kernel, X_exact, budget), k, rng, cfg.restarts, 300, 0.0).labels

    def lifted(Y: np.ndarray) -> np.ndarray:
        return nearest_lifted(kernel, X_exact, [labels_e], Y, k, budget)[0]

    candidates = {f"nystrom(m={cfg.m}, n={cfg.train_n}, projected)": in_hm,
                  f"exact kernel k-means(n={cfg.exact_n}, lifted)": lifted}
    scores = {name: float(f(S).mean()) for name, f in candidates.items()}
    best = min(scores, key=scores.get)
    listing = ", ".join(f"{name}: {score:.6g}" for name, score in scores.items())
    method = (f"best of {len(scores)} candidates on S ({cfg.select_n} points): {best}; scores on S: {listing}; "
              f"{cfg.restarts} restarts each; T = {cfg.test_n} points")
    return {"values": candidates[best](T), "method": method, "seconds": time.perf_counter() - t0}


def optimum(spec: Any, kernel: Kernel, results_dir: str) -> tuple[Optimum, np.ndarray, bool]:
    """(the cached optimum of the run's μ, kernel and k; the test sample T; cached?)."""
    cfg: PopulationConfig = spec.population
    mu = distribution(spec.dataset, spec.k, spec.data_seed)
    key = {"version": __version__, "distribution": mu.key, "dataset": asdict(spec.dataset),
           "kernel": {"name": kernel.name, "sigma": kernel.sigma, "degree": kernel.degree,
                      "coef0": kernel.coef0, "dtype": kernel.dtype},
           "k": spec.k, "population": asdict(cfg)}
    fields, cached = cached_call(results_dir, _compute, (key,), mu, kernel, spec.budget)
    return Optimum(**fields), sample(mu, cfg.test_n, "test"), cached


@dataclass
class Scorer:
    """Scores a run's partitions on T against the optimum and the exact reference."""

    star: Optimum
    T: np.ndarray
    ref_values: np.ndarray | None  # the exact reference's lifted values on T (None: no exact reference)
    cached: bool
    seconds: float  # obtaining the optimum (0 when cached) and the reference's values

    @classmethod
    def of(cls, spec: Any, kernel: Kernel, X_train: np.ndarray, ref_labels: np.ndarray | None,
           ref_exact: bool, results_dir: str) -> Scorer:
        """The run's optimum (cached) and its reference's values on T."""
        t0 = time.perf_counter()
        star, T, cached = optimum(spec, kernel, results_dir)
        ref = None
        if ref_labels is not None and ref_exact:
            ref = nearest_lifted(kernel, X_train, [ref_labels], T, spec.k, spec.budget)[0]
        return cls(star, T, ref, cached, time.perf_counter() - t0)

    def columns(self, kernel: Kernel, X_train: np.ndarray, labelings: list[np.ndarray],
                fits: list[Any], centroids: str, k: int, budget: int) -> list[dict[str, Any]]:
        """The population columns of each partition under the run's centroid rule
        (lifted: one pass for all; projected: from each fit's sketch and features)."""
        if centroids == "projected":
            values = [projected_distances(f.partition.features if f.partition.features is not None
                                          else f.sketch.transform(X_train), labels,
                                          f.sketch.transform(self.T), f.sketch.residual(self.T), k)
                      for f, labels in zip(fits, labelings)]
        else:
            values = nearest_lifted(kernel, X_train, labelings, self.T, k, budget)
        return [self._row(v) for v in values]

    def _row(self, v: np.ndarray) -> dict[str, Any]:
        """Columns of one partition's values on T; differences paired over T."""
        row: dict[str, Any] = {"w_star": self.star.w_star, "w_star_se": self.star.se,
                               "w_star_method": self.star.method, "population_cached": self.cached,
                               "time_w_star": self.seconds}
        row["pop_test_risk"], row["pop_test_risk_se"] = _mean_se(v)
        row["excess_pop_risk"], row["excess_pop_risk_se"] = _mean_se(v - self.star.values)
        if self.ref_values is None:
            row["excess_erm_risk"] = row["excess_erm_risk_se"] = np.nan
        else:
            row["excess_erm_risk"], row["excess_erm_risk_se"] = _mean_se(v - self.ref_values)
        return row


def _mean_se(x: np.ndarray) -> tuple[float, float]:
    """Mean and its standard error sd/√N."""
    return float(x.mean()), float(x.std(ddof=1) / np.sqrt(len(x)))
