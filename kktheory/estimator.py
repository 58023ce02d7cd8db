"""Sketched kernel k-means as a scikit-learn estimator.

:class:`SketchedKernelKMeans` is the method of a kktheory run
(:class:`kktheory.run.method.Method`: kernel with its bandwidth rule, any registered sketch,
any registered clusterer, lifted or projected centroids) with scikit-learn's interface. It
calls the same code as ``python run.py``, so with the run's parameters (the bandwidth rule's
default differs, on purpose: the estimator's is ``wang``, σ from the data, the Gaussian
kernel's own default in ``configs/kernel/gaussian.yaml``; the default run's is ``fixed``
σ = 2 because its data set, Yin's hypercube mixture, sets the kernel its paper uses,
exp(−d²/8); ``sigma`` itself defaults to 2 in both),
the run's training points and ``random_state=seed``, its ``labels_`` are the run's training
labels, ``predict`` gives the run's test labels and ``score`` on the run's test points is
minus the run's ``test_risk`` (exact lifted risks, n ≤ ``risk_exact_limit``;
tests/test_estimator.py checks all three).

Centroid rules, used by ``predict`` (nearest centroid) and ``score``:

- ``lifted`` (Yin et al. 2022, eq. 11): c_j = mean of φ(x_i) over cluster j, and by the
  kernel trick ‖φ(x) − c_j‖² = κ(x, x) − (2/N_j) Σ_{l∈C_j} κ(x, x_l) + q_j with
  q_j = (1/N_j²) Σ_{l,l'∈C_j} κ(x_l, x_l'), computed once in ``fit`` (exactly up to
  ``risk_exact_limit`` = 20000 training points, above it — and always with the Dask
  backend — by the unbiased pair estimator of :mod:`kktheory.evaluation.risk`). ``predict`` costs
  O(len(X)·n·d) (one pass over the training points in blocks).
- ``projected`` (Calandriello & Rosasco 2018, eq. 2; projection embeddings only):
  c̃_j = mean of the features over cluster j, ‖φ(x) − c̃_j‖² = residual(x) + ‖f(x) − c̃_j‖².
  ``predict`` costs O(len(X)·m·(d + k)).

``score(X)`` is minus the test risk W(C, μ_X) = (1/|X|) Σ_x min_j ‖φ(x) − c_j‖² of the
points X (higher is better, as scikit-learn expects): exact for the lifted rule when q is
exact, otherwise the subsampling estimator of :mod:`kktheory.evaluation.risk` on ``risk_points`` =
2000 points of X.

``transform(X)`` gives the sketch's features f(x) (len(X) × m'); ``cluster_centers_`` are
the means of the training features over each cluster (the coordinates of the projected
centroids for projection embeddings), computed on first access. For the comparators that
are not embeddings the features are those of the sketch they are built on: Nyström on the
same landmarks for ``two_step``, ``approx_kkm`` and ``spectral_nystrom`` (whose partition
comes from kernel k-means on the landmarks with a nearest-centre assignment, from Chitta's
iterations, or from the spectral embedding), the exact kernel features V Λ^{1/2} for
``exact`` (an O(n³) eigendecomposition, refused above the memory budget; ``fit``,
``predict`` and ``score`` do not need it).

Parameters are stored unchanged by ``__init__`` and validated by ``fit``; a bad value
raises ``ValueError`` with the same one-line message as the command line (for example
``config error: m='sqrt_q': an integer in [1, n], a rule …``). A request above the memory
budget raises :class:`kktheory.errors.MemoryBudgetError`.

Random state: an int ``random_state`` is the run's seed (every component draws from
``component_rng(seed, name)``, :mod:`kktheory.seeding`); a ``RandomState`` or None draws
the seed from it at each ``fit`` (scikit-learn's convention).

Backend ``dask`` (:mod:`kktheory.run.dask`): X may be a Dask array (or NumPy, then
chunked); the features are computed per chunk, k-means is dask-ml's (k-means||) and
``transform``/``predict`` of a Dask array return lazy Dask arrays. It uses the Dask
scheduler active in the process (create a ``distributed.Client`` first to use a cluster).
"""

from __future__ import annotations

import contextlib
import numbers
from collections.abc import Iterator
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin, TransformerMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, validate_data

from kktheory.machine import memory
from kktheory.run.method import backend_of
from kktheory.cluster.clusterers import CLUSTERERS
from kktheory.run.config import RunConfig
from kktheory.constraints import BACKENDS, DTYPES, Integer, Real, check, plain
from kktheory.errors import ConfigError, DataError
from kktheory.run.method import Method
from kktheory.kernels.functions import KernelConfig
from kktheory.evaluation.risk import LiftedCentroids, Risk, RiskSettings, projected_risk
from kktheory.rules import resolve_gamma, resolve_m
from kktheory.run.schema import merged
from kktheory.seeding import component_rng
from kktheory.embeddings import SKETCHES

#: risk settings of the estimator: the defaults of a run (kktheory.run.config.RunConfig)
RISK_DEFAULTS = {f: RunConfig.__dataclass_fields__[f].default for f in ("risk_exact_limit", "risk_points", "risk_pairs")}


@contextlib.contextmanager
def _value_errors() -> Iterator[None]:
    """ConfigError / DataError → ValueError with the same one-line message (sklearn)."""
    try:
        yield
    except (ConfigError, DataError) as exc:
        raise ValueError(str(exc)) from exc


def _params(name: str, value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ConfigError(name, value, "a dict of parameters, or None")
    return {k: plain(v) for k, v in value.items()}


def seed_of(random_state: Any) -> int:
    """The run seed of a random_state: the int itself, else an int drawn from the generator."""
    random_state = plain(random_state)
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        return Integer(0, 2**32 - 1)("random_state", random_state)
    return int(check_random_state(random_state).randint(2**31 - 1))


class SketchedKernelKMeans(ClusterMixin, TransformerMixin, BaseEstimator):
    """Kernel k-means on a sketch of the kernel (Nyström, Yin's sketches, RFF, …).

    Parameters
    ----------
    n_clusters : int, default=8
        k.
    sketch : str, default="nystrom"
        A registered sketch (``kktheory.embeddings.SKETCHES``: nystrom, nystrom_rls, ros, …).
    m : int or str, default="sqrt_n"
        Sketch size: an integer or a rule ``sqrt_n``, ``c*sqrt_n``, ``sqrt_nk``,
        ``n_over_gamma``, ``log_n`` resolved with the training n (rounded up).
    kernel : {"gaussian", "polynomial", "linear"}, default="gaussian"
    bandwidth : {"wang", "fixed", "yin", "yin_n2"}, default="wang"
        Gaussian bandwidth rule (:mod:`kktheory.kernels.functions`); ``wang`` is
        σ = β·sqrt(mean pairwise squared distance), ``fixed`` uses ``sigma``.
    sigma : float, default=2.0
        σ of exp(−‖x−y‖²/(2σ²)) when ``bandwidth="fixed"``.
    beta : float, default=1.0
        β of the ``wang`` rule.
    degree : int, default=2
        Polynomial kernel (⟨x, y⟩ + coef0)^degree.
    coef0 : float, default=1.0
    sketch_params : dict, default=None
        Fields of the sketch's config (e.g. ``{"transform": "dct"}`` for ros).
    clustering : str, default="kmeanspp"
        A registered clusterer (kmeanspp, minibatch, localsearch).
    clustering_params : dict, default=None
        Fields of the clusterer's config (n_init, max_iter, tol, …).
    centroids : {"lifted", "projected"}, default="lifted"
    gamma : float or str, default="sqrt_n"
        γ of Calandriello & Rosasco (used by ``nystrom_rls`` and the ``n_over_gamma`` rule).
    dtype : {"float32", "float64"}, default="float32"
        Precision of kernel blocks and features (``transform`` returns this dtype). Risks,
        objectives and cluster sums are accumulated in float64 either way.
    memory_budget_gb : float, default=None
        Memory budget (default: half of physical memory).
    backend : {"numpy", "dask"}, default="numpy"
    random_state : int, RandomState instance or None, default=None

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        The partition of the training points found by the clusterer.
    cluster_centers_ : ndarray of shape (n_clusters, n_features_out)
        Means of the training features over each cluster.
    kernel_ : kktheory.kernels.functions.Kernel
        The kernel with its resolved bandwidth (``kernel_.sigma``).
    sketch_ : kktheory.embeddings.Sketch
        The fitted sketch (``sketch_.landmarks_``: indices of sampled training points).
    m_ : int
        The resolved sketch size.
    info_ : dict
        What fitting adds to a run's row (iterations, empty clusters, clipped eigenvalues…);
        not the row's evaluations (risks, the feature-space diagnostics).
    n_features_in_, feature_names_in_ : see scikit-learn.
    """

    def __init__(
        self,
        n_clusters: int = 8,
        *,
        sketch: str = "nystrom",
        m: int | str = "sqrt_n",
        kernel: str = "gaussian",
        bandwidth: str = "wang",
        sigma: float = 2.0,
        beta: float = 1.0,
        degree: int = 2,
        coef0: float = 1.0,
        sketch_params: dict[str, Any] | None = None,
        clustering: str = "kmeanspp",
        clustering_params: dict[str, Any] | None = None,
        centroids: str = "lifted",
        gamma: float | str = "sqrt_n",
        dtype: str = "float32",
        memory_budget_gb: float | None = None,
        backend: str = "numpy",
        random_state: Any = None,
    ) -> None:
        self.n_clusters = n_clusters
        self.sketch = sketch
        self.m = m
        self.kernel = kernel
        self.bandwidth = bandwidth
        self.sigma = sigma
        self.beta = beta
        self.degree = degree
        self.coef0 = coef0
        self.sketch_params = sketch_params
        self.clustering = clustering
        self.clustering_params = clustering_params
        self.centroids = centroids
        self.gamma = gamma
        self.dtype = dtype
        self.memory_budget_gb = memory_budget_gb
        self.backend = backend
        self.random_state = random_state

    # -- scikit-learn plumbing ---------------------------------------------------------
    def __sklearn_tags__(self):  # type: ignore[no-untyped-def]
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = [self.dtype if self.dtype in DTYPES else "float64"]
        return tags

    def _validate_X(self, X: Any, reset: bool) -> Any:
        """Checked input: an array of the backend's own kind, checked by the backend
        (``native_input``: a Dask array for ``backend="dask"``), else NumPy float64/float32
        (2-D, finite). A backend that is not one of :data:`~kktheory.constraints.BACKENDS`
        is refused by :meth:`_method`, with the line of the run's own check."""
        known = isinstance(self.backend, str) and self.backend in BACKENDS
        native = backend_of(self.backend).native_input(X, None if reset else self.n_features_in_) if known else None
        if native is None:
            return validate_data(self, X, reset=reset, dtype=[np.float64, np.float32])
        if reset:
            self.n_features_in_ = int(native.shape[1])
        return native

    def _method(self, n: int) -> tuple[Method, int]:
        """The validated method and the resolved m for n training points (ConfigError)."""
        check("backend", self.backend)
        check("dtype", self.dtype)
        k = Integer(1, n)("n_clusters", self.n_clusters, f" (n_clusters ≤ n_samples={n})")
        if self.kernel == "gaussian" and self.bandwidth != "fixed" and n < 2:
            raise ConfigError(
                "bandwidth", self.bandwidth,
                f"fixed with n_samples={n} (the rule estimates σ from distances between points)",
            )
        kernel = KernelConfig(
            name=self.kernel, bandwidth=self.bandwidth, sigma=Real()("sigma", self.sigma),
            beta=Real()("beta", self.beta), degree=Integer(1)("degree", self.degree),
            coef0=Real()("coef0", self.coef0),
        )
        sketch = SKETCHES.params({**_params("sketch_params", self.sketch_params), "name": self.sketch})
        list_field = SKETCHES.get(self.sketch).impl.list_field
        if list_field and isinstance(getattr(sketch, list_field), (list, tuple)):
            raise ConfigError(f"sketch_params['{list_field}']", list(getattr(sketch, list_field)),
                              "a single value (the estimator fits one model; a list is a sweep's rows: run.py)")
        clustering = CLUSTERERS.params(
            {**_params("clustering_params", self.clustering_params), "name": self.clustering}
        )
        budget = memory.budget_bytes(plain(self.memory_budget_gb))
        gamma = resolve_gamma(plain(self.gamma), n, k)
        _, m = resolve_m(plain(self.m), n, k, gamma)
        method = Method(
            kernel=kernel, sketch=sketch, clustering=clustering, k=k, gamma=gamma,
            seed=seed_of(self.random_state), budget=budget,
            risk_settings=RiskSettings(
                budget, RISK_DEFAULTS["risk_exact_limit"], RISK_DEFAULTS["risk_points"],
                RISK_DEFAULTS["risk_pairs"],
            ),
            dtype=self.dtype, centroids=self.centroids, backend=self.backend,
        )
        method.check(n, [m])
        return method, m

    # -- fit -------------------------------------------------------------------------------
    def fit(self, X: Any, y: Any = None) -> "SketchedKernelKMeans":
        """Fit the sketch on X and partition X (what predict and score need is computed at their first call).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) (a Dask array with backend="dask")
        y : ignored
        """
        X = self._validate_X(X, reset=True)
        with _value_errors():
            method, m = self._method(X.shape[0])
            X = method.inputs(X)
            kernel = method.fit_kernel(X)
            fitted = next(method.fit(X, kernel, [m]))
        part, sketch = fitted.partition, fitted.sketch
        labels = np.asarray(part.labels, dtype=np.int64)
        self._fit_method = method
        self._X_fit = X
        self._centers: np.ndarray | None = None
        self.kernel_ = kernel
        self.sketch_ = sketch
        self.m_ = sketch.m_used(m)
        self.labels_ = labels
        self.info_ = merged(part.info, sketch.info_)
        self._lazy: dict[str, Any] = {}  # what predict and score need, filled on first use
        return self

    def _centroid_state(self) -> dict[str, Any]:
        """What predict and score need, computed on their first call (``fit`` and
        ``fit_predict`` do not need it) and kept in the dict made by ``fit`` (so that
        predict leaves the estimator's ``__dict__`` as it was): the non-empty clusters, and
        the training features and residuals (projected) or the lifted centroids
        (:class:`~kktheory.evaluation.risk.LiftedCentroids`, their within-cluster sums exact up to
        ``risk_exact_limit`` training points on a backend with exact lifted risks)."""
        state = self._lazy
        if state:
            return state
        method, kernel, X, labels = self._fit_method, self.kernel_, self._X_fit, self.labels_
        k = method.k
        nonempty = np.bincount(labels, minlength=k) > 0
        if method.centroids == "projected":
            state.update(nonempty=nonempty, F=self.sketch_.transform(X), res=self.sketch_.residual(X))
            return state
        s = method.risk_settings
        exact = method.ops.exact_lifted_risks and X.shape[0] <= s.exact_limit
        lifted = LiftedCentroids.fit(kernel, method.ops.rows(X), labels, k, method.budget, exact, s.pairs,
                                     component_rng(method.seed, "risk"))
        state.update(nonempty=nonempty, lifted=lifted)
        return state

    # -- predict, transform, score ------------------------------------------------------------
    def _projected(self, X: np.ndarray) -> Risk:
        """Risks of the partition with projected centroids, X as the test points (exact)."""
        c = self._centroid_state()
        return projected_risk(
            c["F"], c["res"], self.labels_, self.sketch_.transform(X),
            self.sketch_.residual(X), self._fit_method.k,
        )

    def _lifted_distances(self, X: Any) -> Any:
        """‖φ(x) − c_j‖² = κ(x, x) − 2 (κ(x, X_train) Z)_j + q_j (len(X) × k; lazy for Dask)."""
        return self._fit_method.ops.distances(self._centroid_state()["lifted"], X)

    def predict(self, X: Any) -> Any:
        """Index of the nearest centroid (lifted or projected) of every row of X."""
        check_is_fitted(self)
        X = self._validate_X(X, reset=False)
        with _value_errors():
            if self._fit_method.centroids == "projected":
                return np.asarray(self._projected(X).test_labels, dtype=np.int64)
            return self._lifted_distances(X).argmin(axis=1).astype(np.int64)

    def transform(self, X: Any) -> Any:
        """The sketch's features of every row of X (a lazy Dask array for a Dask X)."""
        check_is_fitted(self)
        X = self._validate_X(X, reset=False)
        with _value_errors():
            F = self._fit_method.ops.features(self.sketch_, X)
        return F.copy() if self.sketch_.on_training_rows(X) else F  # never hand out the sketch's cached array

    def score(self, X: Any, y: Any = None) -> float:
        """Minus the test risk (1/|X|) Σ_x min_j ‖φ(x) − c_j‖² under the centroid rule."""
        check_is_fitted(self)
        X = self._validate_X(X, reset=False)
        method = self._fit_method
        with _value_errors():
            if method.centroids == "projected":
                return -float(self._projected(X).test_risk)
            lifted: LiftedCentroids = self._centroid_state()["lifted"]
            risk, _, _, _ = lifted.risk(method.ops.rows(X), method.risk_settings.points,
                                        component_rng(method.seed, "score"), "score")
        return -float(risk)

    @property
    def cluster_centers_(self) -> np.ndarray:
        """k × m' means of the training features over each cluster (computed once)."""
        check_is_fitted(self)
        if self._centers is None:
            ops = self._fit_method.ops
            self._centers = ops.cluster_means(ops.features(self.sketch_, self._X_fit), self.labels_, self._fit_method.k)
        return self._centers
