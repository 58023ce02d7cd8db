"""One run: config → rows.

dataset → kernel → reference (cached, :mod:`kktheory.evaluation.reference`) → sketch (one per m,
nested for a list of m) → clustering → risk (lifted or projected centroids,
:mod:`kktheory.evaluation.risk`), excess risk and metrics → row → store. Every row's identity
(:func:`row_identity`) is the resolved config with the single resolved m and its rule; its
hash names the run file, so m=10 run alone and m=10 inside ``m=[10,20,40]`` are the same
run, computed once (with ``clustering.warm_start`` a smaller m's row also records the
larger m it started from, ``warm_start_from``). ``time_total`` is the method's cost (load,
embed, cluster, evaluate); ``time_reference`` is reported apart.

The partitions of a list of m are evaluated together (:class:`RowWriter`): one pass over
the kernel blocks gives the lifted risks of all of them (:func:`kktheory.evaluation.risk.lifted_many`),
so rows are written once the list is clustered; with bound checks or projected centroids,
which read each m's features, every m is evaluated and written as it comes.

With ``column_objective`` each row also holds ``objective_columns``, Wang et al. 2019 §5.2's
objective over the kernel columns (:mod:`kktheory.evaluation.column_objective`): one more pass
over the training kernel's row blocks for the partitions evaluated together, its share in
``time_evaluate``.

Rank-restricted sketches (:attr:`kktheory.embeddings.Sketch.capabilities.rank_restricted`: K ≈ FFᵀ for a
target rank) add the kernel approximation error ``approx_fro_rel`` = ‖K − FFᵀ‖_F/‖K‖_F
(Pourkamali-Anaraki & Becker 2017, Table 1 and Fig. 3(a); :func:`kktheory.kernels.gram.approximation_error`)
where the lifted risk is exact (n ≤ ``risk_exact_limit``: the one more O(n²(d + s)) pass
over K costs what the risk's pass costs), empty above. Features of at most
:data:`PLANAR` columns are kept in the run's ``.npz`` (``train_features``, with the true
classes ``train_classes``), so that a planar embedding is drawn from the store (Pourkamali
Fig. 2). Both are computed as each m is fitted, before its features are dropped, and
their time counts in ``time_evaluate``.

The method itself — kernel from the training points, sketch (nested over a list of m),
features, partition, centroid rule and risk — is :class:`Method`, a run without its data.
:func:`run` and the scikit-learn estimator :class:`kktheory.estimator.SketchedKernelKMeans`
both call it, so the estimator's ``labels_`` for a seed are the row's training labels.
With ``backend=dask`` the same steps run on Dask row chunks (:mod:`kktheory.run.dask`).
"""

from __future__ import annotations

import contextlib
import platform
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from omegaconf import DictConfig

from kktheory.machine import memory
from kktheory.evaluation.bounds.engine import BoundEngine, feature_kind
from kktheory.run.config import Point, RunSpec, build_spec
from kktheory.run.method import Method
from kktheory.datasets import Dataset
from kktheory.datasets.base import check_loaded
from kktheory.kernels.gram import approximation_error
from kktheory.run.identity import row_identity, warm_start_from
from kktheory.kernels.functions import Kernel
from kktheory.evaluation.column_objective import column_objectives
from kktheory.evaluation.metrics import class_rates, partition_scores
from kktheory.evaluation.nan_reason import nan_reason
from kktheory.evaluation.population import Scorer
from kktheory.evaluation.reference import excess_columns, reference_columns
from kktheory.evaluation.risk import Risk
from kktheory.run.schema import merged
from kktheory.seeding import component_rng
from kktheory.embeddings import Fitted
from kktheory.embeddings.base import feature_diagnostics
from kktheory.run.store import Store, run_id
from kktheory.machine.threads import current_threads, thread_limits
from kktheory.version import __version__, git_commit

#: the kernel approximation error ‖K − FFᵀ‖_F/‖K‖_F of rank-restricted sketches
APPROX_ERROR = "approx_fro_rel"
#: Wang et al. 2019 §5.2's objective over the kernel columns (column_objective=true)
OBJECTIVE_COLUMNS = "objective_columns"
#: features with at most this many columns (a planar embedding: 2n numbers, the size of
#: train_idx and train_labels) are kept in the run's .npz, to be drawn as they are
PLANAR = 2


@dataclass
class Awaiting:
    """A fitted m waiting for its risks: what its row needs from the sketch and the
    partition, and the fit itself only when it is still needed (bound checks and
    projected centroids read the features)."""

    m: int
    variant: Any  # the value of the sketch's list field (Fitted.variant)
    labels: np.ndarray
    columns: dict[str, Any]  # m_used, partition and sketch info, fit times
    landmarks: np.ndarray | None
    kind: str | None  # feature_kind of the sketch (for nan_reason)
    fit: Fitted | None
    arrays: dict[str, np.ndarray] = field(default_factory=dict)  # the sketch's randomness
    time_evaluate: float = 0.0  # evaluation done as the m was fitted (kept_features)

    @classmethod
    def of(cls, fit: Fitted, keep: bool) -> Awaiting:
        sketch, part = fit.sketch, fit.partition
        columns = merged({"m_used": sketch.m_used(fit.m)}, part.info, sketch.info_,
                         {"time_embed": fit.time_embed, "time_cluster": fit.time_cluster})
        return cls(fit.m, fit.variant, np.asarray(part.labels), columns, sketch.landmarks_,
                   feature_kind(sketch, part), fit if keep else None, sketch.arrays())


@dataclass
class RunOutcome:
    """Rows written by a run and the ids of runs skipped because they exist."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def load_data(spec: RunSpec, sources: bool = False) -> Dataset:
    """The data draw of the run (seeded by data_seed); ``sources``: its rows left to be read
    where they are computed, where the data set can (:func:`kktheory.datasets.base.load`)."""
    return spec.data.load(component_rng(spec.data_seed, "data"), sources)


def scores(data: Dataset, labels: np.ndarray, risk: Risk) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """Risk columns (with SEs) and partition scores of a training partition; arrays to keep.

    Train scores use the returned partition; test scores use the centroid rule's labels of
    the evaluated test points (all of them unless the lifted risk was subsampled).
    ``test_majority`` and ``test_classes`` describe the classes of all test points (the
    share of the largest, the accuracy of a single cluster, and their number).
    ``train_reassigned`` is the fraction of evaluated training points whose nearest
    centroid is not their own (0 at a Lloyd fixed point in the RKHS).
    """
    cols: dict[str, Any] = risk.columns()
    own = labels if risk.train_eval is None else labels[risk.train_eval]
    cols["train_reassigned"] = float(np.mean(risk.train_nearest != own))
    y_test = data.y_test if risk.test_eval is None else data.y_test[risk.test_eval]
    cols.update({f"train_{k}": v for k, v in partition_scores(data.y_train, labels).items()})
    cols.update({f"test_{k}": v for k, v in partition_scores(y_test, risk.test_labels).items()})
    cols.update({f"test_{k}": v for k, v in class_rates(data.y_test).items()})
    arrays = {"test_labels": risk.test_labels, "train_nearest": risk.train_nearest}
    for name, value in (("train_eval_idx", risk.train_eval), ("test_eval_idx", risk.test_eval),
                        ("risk_pairs_rng_state", risk.pairs_state)):
        if value is not None:
            arrays[name] = value
    return cols, arrays


def stored_starts(spec: RunSpec, store: Store, ids: dict[Point, str], todo: list[int]) -> dict[int, np.ndarray]:
    """Warm starts read from the store: for each m to compute whose next larger m of the
    list exists already, that row's training labels (:meth:`Method.fit`; warm starts have
    no list values, :meth:`Method.check`)."""
    by_m = {p.m: run for p, run in ids.items()}
    starts = {}
    for m in todo:
        larger = warm_start_from(spec, m)
        if larger and larger[0] not in todo:
            starts[m] = np.asarray(store.arrays(by_m[larger[0]])["train_labels"])
    return starts


def run(cfg: DictConfig) -> RunOutcome:
    """Validate, then compute and store every missing row of the config, with BLAS/OpenMP
    threads limited to the config's ``threads`` (:mod:`kktheory.machine.threads`)."""
    t_start = time.perf_counter()
    spec = build_spec(cfg)
    with thread_limits(spec.execution.threads):
        return _run(cfg, spec, t_start)


def _run(cfg: DictConfig, spec: RunSpec, t_start: float) -> RunOutcome:
    """The rows of a validated run."""
    store = Store(spec.execution.results_dir)
    store.sweep_orphans()
    force = bool(cfg.force)
    ids = {p: run_id(row_identity(spec, p)) for p in spec.points}
    outcome = RunOutcome(skipped=[ids[p] for p in spec.points if store.has(ids[p]) and not force])
    todo = [p for p in spec.points if force or not store.has(ids[p])]
    if not todo:
        return outcome

    method = Method.of(spec)
    method.check(spec.n, list(dict.fromkeys(p.m for p in todo)), any(p.variant is not None for p in todo))
    with method.ops.session(spec):
        return _compute(spec, method, store, ids, todo, outcome, t_start)


def _compute(
    spec: RunSpec, method: Method, store: Store, ids: dict[Point, str],
    todo: list[Point], outcome: RunOutcome, t_start: float,
) -> RunOutcome:
    """Load the data, then fit, evaluate and store every point of ``todo`` (a fit of an m
    gives the rows of all its list values; those already stored are not written again)."""
    t0 = time.perf_counter()
    data = load_data(spec, method.ops.reads_sources)
    check_loaded(data, spec.n, spec.n_test)
    X_train, X_test = method.inputs(data.X_train), method.inputs(data.X_test)
    kernel = method.fit_kernel(X_train)
    time_load = time.perf_counter() - t0
    ref_cols, ref_labels = reference_columns(spec.reference_job, data, kernel, spec.execution.results_dir)
    pop = None
    if spec.population.test_n:
        pop = Scorer.of(spec, kernel, X_train, ref_labels, ref_cols["ref_description"].startswith("exact"),
                        spec.execution.results_dir)
    bounds = BoundEngine(spec.bound_setting, kernel, data)  # bound checks shared by every m

    writer = RowWriter(spec, method, store, data, X_train, X_test, kernel,
                       {(p.m, p.variant): (p, ids[p]) for p in todo}, ref_cols, ref_labels, bounds, time_load,
                       t_start, outcome, pop)
    ms = list(dict.fromkeys(p.m for p in todo))
    # lifted risks of every m in one pass over the kernel blocks unless bound checks or
    # projected centroids need each m's features (then each m is evaluated as it comes)
    deferred = method.centroids == "lifted" and not bounds.names
    waiting: list[Awaiting] = []
    try:
        for fit in method.fit(X_train, kernel, ms, stored_starts(spec, store, ids, ms)):
            if (fit.m, fit.variant) not in writer.todo:
                continue  # a list value whose row is stored already
            waiting.append(writer.kept_features(Awaiting.of(fit, keep=not deferred), fit))
            del fit  # with deferred evaluation only the labels and row columns stay
            if not deferred:
                batch, waiting = waiting, []
                writer.write(batch)
                del batch  # nor beside the fit just written
    except Exception:  # the m fitted before a failing one still get their rows
        with contextlib.suppress(Exception):  # the first failure is the one to report
            writer.write(waiting)
        raise
    writer.write(waiting)
    return outcome


@dataclass
class RowWriter:
    """What the rows of one run share; :meth:`write` evaluates and stores a group of m."""

    spec: RunSpec
    method: Method
    store: Store
    data: Dataset
    X_train: Any
    X_test: Any
    kernel: Kernel
    todo: dict[tuple[int, Any], tuple[Point, str]]  # (m, variant) → the row's point and run id
    ref_cols: dict[str, Any]
    ref_labels: np.ndarray | None
    bounds: BoundEngine
    time_load: float
    t_start: float
    outcome: RunOutcome
    population: Scorer | None = None  # W*(μ) and the two excess risks on T (kktheory.evaluation.population)

    def write(self, waiting: list[Awaiting]) -> None:
        """Evaluate the waiting partitions together (in groups of :meth:`group_size`), then
        build, store and record their rows.

        ``time_evaluate`` of a row is its share of the joint evaluation (the pass over the
        kernel blocks divided by ``evaluated_together``) plus its own scores.
        """
        size = self.group_size()
        for start in range(0, len(waiting), size):
            self._write_group(waiting[start : start + size])

    def kept_features(self, w: Awaiting, fit: Fitted) -> Awaiting:
        """``w`` with what its row keeps of the fit's training features F (when they are in memory):
        the partition's feature-space diagnostics (:func:`~kktheory.embeddings.base.feature_diagnostics`),
        ``approx_fro_rel`` = ‖K − FFᵀ‖_F/‖K‖_F for a rank-restricted sketch (NaN above
        ``risk_exact_limit``), and F with the true classes in the arrays when F has at most
        :data:`PLANAR` columns."""
        F = fit.partition.features
        if not self.method.ops.features_in_memory or not fit.partition.on_features or F is None:
            return w
        t0 = time.perf_counter()
        w.columns.update(feature_diagnostics(fit.partition, self.method.k))
        if fit.sketch.capabilities.rank_restricted:
            exact = len(self.X_train) <= self.spec.risk.exact_limit
            w.columns[APPROX_ERROR] = (approximation_error(self.kernel, self.X_train, F, self.spec.budget)
                                       if exact else float("nan"))
        if F.shape[1] <= PLANAR:
            # a copy: F may be a list's buffer, reused by its next value (NystromRR.variants)
            w.arrays.update(train_features=np.array(F), train_classes=np.asarray(self.data.y_train))
        w.time_evaluate += time.perf_counter() - t0
        return w

    def group_size(self) -> int:
        """Partitions per joint evaluation: their stacked memberships and cross sums
        ((n + n_test) × k float64 each, three such arrays) within a quarter of the budget."""
        per = 3 * (len(self.X_train) + len(self.X_test)) * self.method.k * 8
        return max(1, int(self.spec.budget // 4 // per))

    def _write_group(self, waiting: list[Awaiting]) -> None:
        if not waiting:
            return
        t0 = time.perf_counter()
        risks = self.method.risks(
            self.kernel, self.X_train, self.X_test, [w.labels for w in waiting], [w.fit for w in waiting],
        )
        share = (time.perf_counter() - t0) / len(waiting)
        columns, seconds = self.column_objectives(waiting)
        share += seconds / len(waiting)
        pop = [{} for _ in waiting]
        if self.population is not None:
            t0 = time.perf_counter()
            pop = self.population.columns(self.kernel, self.X_train, [w.labels for w in waiting],
                                          [w.fit for w in waiting], self.method.centroids, self.method.k,
                                          self.spec.budget)
            seconds = time.perf_counter() - t0
            for p in pop:
                p["time_population"] = seconds / len(waiting)
        for w, risk, pop_cols, col_cols in zip(waiting, risks, pop, columns):
            t0 = time.perf_counter()
            cols, arrays = scores(self.data, w.labels, risk)
            cols.update(pop_cols, **col_cols)
            time_evaluate = share + w.time_evaluate + time.perf_counter() - t0
            row = self.row(w, cols, len(waiting), time_evaluate)
            arrays.update(train_labels=w.labels, train_idx=self.data.train_idx, test_idx=self.data.test_idx)
            arrays.update(w.arrays)  # landmarks and the sketch's other randomness
            if w.fit is not None:
                arrays.update(self.bounds.drawn)  # what the row's bound checks sampled
            if self.ref_labels is not None:
                arrays["ref_train_labels"] = np.asarray(self.ref_labels)
            self.store.write(self.todo[w.m, w.variant][1], row, arrays)
            self.outcome.rows.append(row)

    def column_objectives(self, waiting: list[Awaiting]) -> tuple[list[dict[str, float]], float]:
        """``objective_columns`` of each waiting partition with ``column_objective`` (one pass
        over the training kernel's row blocks, :func:`~kktheory.evaluation.column_objective.column_objectives`;
        empty dicts without it), and the seconds it took."""
        if not self.spec.column_objective:
            return [{} for _ in waiting], 0.0
        t0 = time.perf_counter()
        values = column_objectives(self.kernel, self.X_train, [w.labels for w in waiting], self.method.k,
                                   self.spec.budget)
        return [{OBJECTIVE_COLUMNS: v} for v in values], time.perf_counter() - t0

    def row(self, w: Awaiting, cols: dict[str, Any], together: int, time_evaluate: float) -> dict[str, Any]:
        """The row of one m from its risk columns (bounds and reference added here)."""
        cols = merged(cols, self.ref_cols, excess_columns(cols, self.ref_cols))
        if w.fit is not None:
            cols = merged(cols, self.bounds.row(w.fit.sketch, w.fit.partition, cols, w.m))
        point, run = self.todo[w.m, w.variant]
        ident = row_identity(self.spec, point)
        ident.setdefault("backend", self.spec.execution.backend)  # in the identity of Dask rows only; every row names it
        row = merged({"run_id": run}, ident, {"kernel_sigma": self.kernel.sigma}, cols, w.columns, dict(
            evaluated_together=together, time_load=self.time_load, time_evaluate=time_evaluate,
            time_total=self.time_load + w.columns["time_embed"] + w.columns["time_cluster"] + time_evaluate,
            time_wall=time.perf_counter() - self.t_start, peak_rss_mb=memory.peak_rss_mb(),
            version=__version__, git_commit=git_commit(), cpu_count=memory.cpu_count(),
            blas_threads=current_threads(),
            host=platform.node(), created=time.strftime("%Y-%m-%dT%H:%M:%S"),
        ))
        row["nan_reason"] = nan_reason(
            {c: v for c, v in row.items() if c not in ident}, w.kind, w.landmarks is not None, self.kernel.name,
        )
        return row
