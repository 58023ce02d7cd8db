"""Structured configs, m-rules and validation of a run.

The top-level schema :class:`RunConfig` is stored in Hydra's ConfigStore as
``run_schema``; ``configs/config.yaml`` extends it and selects one option of each group
(``dataset``, ``kernel``, ``sketch``, ``clustering``), each typed by the dataclass its
implementation registered. :func:`build_spec` validates everything before any work and
resolves the rules into a :class:`RunSpec`.

Validation happens in two steps, both before anything is computed or written:

1. before the data are loaded — :func:`build_spec` (the run) and
   :meth:`kktheory.run.method.Method.check` (the method: kernel, centroid rule, clusterer,
   and each sketch's ``validate(m)`` for every m, shared with the scikit-learn estimator):
   the type of every field (Hydra checks the structured configs; our rules check the
   ``Any`` fields), ranges and relations (m ≤ n, k ≤ n, γ > 0, and the sketches' s ≤ ℓ ≤ m,
   r + l ≤ n, 0 < p ≤ 1, power-of-two m for the Hadamard ROS, ...), every float of every
   group finite, a writable ``results_dir``, and the memory guard: every step whose memory
   grows with n² or n·m is estimated from the config alone and refused above the budget
   (:mod:`kktheory.machine.memory`). ``python run.py sketch=exact n=200000`` is thus refused
   before any data are drawn. A data set whose identity or sizes depend on its source's
   content is read here first (:meth:`kktheory.datasets.base.DatasetConfig.resolve`:
   ``dataset=file`` reads, checks and hashes the file and gives its own n, n_test and k,
   which the run's config leaves missing, ``???``, until then).
2. :func:`kktheory.datasets.base.check_loaded`, right after the data are loaded: what only the data can tell
   (the data set's size against n + n_test and missing files are the loaders' checks;
   non-finite values and shapes are checked here for every loader).

Each failure raises a :class:`~kktheory.errors.UserError`: one line naming the field, the
value and what is allowed; ``run.py`` exits with status 2 and no row is written.

m rules (resolved with the run's n, k, γ; rounded up):

====================  =======================================
``100``               an integer
``sqrt_n``            ⌈√n⌉
``c*sqrt_n``          ⌈c·√n⌉ (e.g. ``2*sqrt_n``; any rule takes a factor ``c*``)
``sqrt_nk``           ⌈√(n·k)⌉ (Yin's "Nyström (Liu)")
``n_over_gamma``      ⌈n/γ⌉ (Calandriello Lemma 1, up to log factors)
``log_n``             ⌈log n⌉
``[10, 20, 40]``      a list: nested sketches in one process, one row per m
====================  =======================================

γ (``gamma``) is a positive number or the same rules without rounding (default
``sqrt_n``, Calandriello's choice for the 1/√n rate). Rules are parsed by plain Python
(no OmegaConf resolvers), so they work the same in joblib and submitit workers.
"""

from __future__ import annotations

import dataclasses
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple, Optional

from hydra.core.config_store import ConfigStore
from omegaconf import MISSING, DictConfig, OmegaConf

from kktheory.machine import memory
from kktheory.evaluation.bounds.engine import BoundSetting
from kktheory.evaluation.bounds.spec import BoundsSpec, build_bounds_spec, require_bounds
from kktheory.cluster.clusterers import CLUSTERERS, ClusteringConfig
from kktheory.constraints import check
from kktheory.datasets import DATASETS
from kktheory.datasets.base import DataSpec
from kktheory.errors import ConfigError
from kktheory.kernels.gram import gram_fits
from kktheory.kernels.functions import KERNELS, KernelConfig, validate_kernel
from kktheory.evaluation import column_objective
from kktheory.evaluation.population import PopulationConfig
from kktheory.evaluation.population import validate as validate_population
from kktheory.evaluation.reference import ReferenceJob, ReferenceSpec, parse_reference, require_reference
from kktheory.evaluation.risk import RiskSettings
from kktheory.registry import EXECUTION
from kktheory.rules import m_items, resolve_gamma, resolve_m
from kktheory.embeddings import SKETCHES

GROUPS = ("dataset", "kernel", "sketch", "clustering")


def stage(name: str) -> Mapping[str, Any]:
    """Metadata of a top-level field that belongs to an evaluation stage: it enters a run's
    identity only when the stage is used (:func:`kktheory.run.identity.row_identity`)."""
    return MappingProxyType({"stage": name})


#: the rows of a run: the m of a list are resolved per row (its identity holds m and m_rule)
PER_ROW = stage("per_row")
RISK, REFERENCE, BOUNDS, POPULATION, COLUMN_OBJECTIVE = (
    stage(s) for s in ("risk", "reference", "bounds", "population", "column_objective"))


@dataclass
class RunConfig:
    """Top-level fields of a run; the four groups are typed by their own schemas.

    Fields without metadata describe the data draw and the method and always enter a run's
    identity; the metadata of the others says which stage they belong to: the evaluation's
    (``RISK``, ``REFERENCE``, ``BOUNDS``, ``POPULATION``, ``COLUMN_OBJECTIVE``: in the identity
    when that stage is used) or the execution's (:data:`~kktheory.registry.EXECUTION`: never).
    """

    dataset: Any = MISSING
    kernel: Any = MISSING
    sketch: Any = MISSING
    clustering: Any = MISSING
    n: int = MISSING  # training points (every data set option sets its own; dataset=file reads them from the file)
    n_test: int = MISSING  # test points (likewise)
    k: int = MISSING  # clusters (the data set option's number of classes; dataset=file reads it from the file)
    m: Any = field(default="sqrt_n", metadata=PER_ROW)  # sketch size: integer, rule, or list (see module docstring)
    gamma: Any = "sqrt_n"  # γ of Calandriello's analysis: number or rule
    seed: int = 0  # seed of every random component (kktheory.seeding)
    data_seed: Optional[int] = None  # seed of the data draw (default: seed)
    dtype: str = "float32"  # float32 | float64 for kernel blocks and features (tests/test_float32.py)
    centroids: str = "lifted"  # lifted | projected (projection embeddings only), see risk.py
    risk_exact_limit: int = field(default=20000, metadata=RISK)  # exact lifted risks up to this n; subsampling above
    risk_points: int = field(default=2000, metadata=RISK)  # subsampling: evaluation points (train and test each)
    risk_pairs: int = field(default=100000, metadata=RISK)  # subsampling: within-cluster pairs per cluster
    reference: str = field(default="auto", metadata=REFERENCE)  # auto | exact | none | nystrom:<m>, see reference.py
    reference_n_init: int = field(default=10, metadata=REFERENCE)  # restarts of the reference solution
    results_dir: str = field(default="results", metadata=EXECUTION)  # the store: <results_dir>/runs/<hash>.parquet
    force: bool = field(default=False, metadata=EXECUTION)  # recompute runs that already have a file
    memory_budget_gb: Optional[float] = field(default=None, metadata=EXECUTION)  # default: half of physical memory
    threads: Optional[int] = field(default=None, metadata=EXECUTION)  # BLAS/OpenMP threads; null: unchanged (joblib launcher: cpus // n_jobs)
    # bound checks (kktheory.evaluation.bounds.spec): which ones, exact-vs-randomized limit, δ, ε, ...
    bounds: Any = field(default_factory=list, metadata=BOUNDS)  # [gamma, trace, jl, pourkamali, wang_thm2] | all
    bound_exact_max_n: int = field(default=3000, metadata=BOUNDS)  # dense O(n³) bounds up to this n, randomized estimates above
    bound_delta: float = field(default=0.1, metadata=BOUNDS)  # failure probability δ in the lemmas' required m
    bound_eps: float = field(default=0.5, metadata=BOUNDS)  # target ε in the lemmas' required m (Calandriello Lemma 1/3, Yin Lemma 5)
    bound_sample_points: int = field(default=2000, metadata=BOUNDS)  # above bound_exact_max_n: points whose pairs give distance ratios
    bound_tol: float = field(default=1e-6, metadata=BOUNDS)  # relative tolerance of randomized eigenvalue / trace estimates
    # where the method runs (kktheory.run.dask): numpy in this process, or Dask row chunks
    backend: str = field(default="numpy", metadata=EXECUTION)  # numpy | dask
    dask_scheduler: Optional[str] = field(default=None, metadata=EXECUTION)  # dask: scheduler address (tcp://host:8786); null: local threads
    dask_chunk_rows: int = field(default=5000, metadata=EXECUTION)  # dask: rows of X per chunk
    # W*(μ) and the two excess risks on a large population test sample (kktheory.evaluation.population)
    population: PopulationConfig = field(default_factory=PopulationConfig, metadata=POPULATION)
    # Wang et al. 2019 §5.2's k-means cost of the kernel columns k_i (kktheory.evaluation.column_objective): one more O(n²d) pass over K
    column_objective: bool = field(default=False, metadata=COLUMN_OBJECTIVE)  # score each partition by Wang §5.2's objective over the kernel columns (objective_columns); n ≤ risk_exact_limit


ConfigStore.instance().store(name="run_schema", node=RunConfig)
ConfigStore.instance().store(group="kernel", name="kernel_schema", node=KernelConfig)
for _group in (DATASETS, KERNELS, SKETCHES, CLUSTERERS):  # every schema and plugin option, before Hydra composes
    _group.load()


class Point(NamedTuple):
    """One row of a run: its m (the rule as given and the resolved value) and the value of
    the sketch's list field it stands for (``Sketch.list_field``; None when not a list)."""

    rule: str
    m: int
    variant: Any = None


@dataclass(frozen=True)
class ExecutionSpec:
    """Where and how a run computes — nothing here changes its numbers (the backend enters a
    row's identity only as ``backend=dask``, :mod:`kktheory.run.identity`): the backend, the
    BLAS/OpenMP thread limit, the Dask scheduler and chunk size, the results folder."""

    backend: str = "numpy"
    threads: int | None = None  # BLAS/OpenMP thread limit (kktheory.machine.threads)
    dask_scheduler: str | None = None  # tcp://host:8786; None: Dask's local threads
    dask_chunk_rows: int = 5000  # rows of X per chunk of arrays given as NumPy
    results_dir: str = "results"  # the store and the caches of references and bound checks


@dataclass
class RunSpec:
    """A validated run: resolved quantities and typed group parameters."""

    cfg: DictConfig
    n: int
    n_test: int
    k: int
    gamma: float
    ms: list[tuple[str, int]]  # (rule, resolved m), in the order given, duplicates removed
    seed: int
    data_seed: int
    dtype: str
    budget: int
    dataset: Any
    kernel: KernelConfig
    sketch: Any
    clustering: ClusteringConfig
    extra: dict[str, Any] = field(default_factory=dict)
    centroids: str = "lifted"
    risk: RiskSettings | None = None
    reference: ReferenceSpec | None = None
    bounds: BoundsSpec = field(default_factory=BoundsSpec)
    population: PopulationConfig = field(default_factory=PopulationConfig)
    execution: ExecutionSpec = field(default_factory=ExecutionSpec)
    column_objective: bool = False  # Wang §5.2's objective over the kernel columns (objective_columns)

    @property
    def data(self) -> DataSpec:
        """The data draw (:class:`~kktheory.datasets.base.DataSpec`)."""
        return DataSpec(self.dataset, self.n, self.n_test, self.k, self.data_seed)

    @property
    def reference_job(self) -> ReferenceJob:
        """What the reference depends on (:mod:`kktheory.evaluation.reference`)."""
        return ReferenceJob(self.reference, self.data, self.kernel, self.dtype, self.risk, self.budget)

    @property
    def bound_setting(self) -> BoundSetting:
        """What the bound checks are given (:mod:`kktheory.evaluation.bounds.engine`)."""
        return BoundSetting(self.bounds, self.data, self.gamma, self.seed, self.budget, self.clustering,
                            self.execution.results_dir)

    @property
    def points(self) -> list[Point]:
        """The rows of the run: every m of ``ms``, and for each every value of the sketch's
        list field when it is given as a list (in its order)."""
        name = SKETCHES.get(self.sketch.name).impl.list_field
        value = getattr(self.sketch, name) if name else None
        variants = list(value) if isinstance(value, (list, tuple)) else [None]
        return [Point(rule, m, v) for rule, m in self.ms for v in variants]


def check_centroids(centroids: Any, sketch_name: str) -> None:
    """``centroids`` is lifted or projected; projected needs a projection embedding."""
    check("centroids", centroids)
    if centroids == "projected" and not SKETCHES.get(sketch_name).impl.capabilities.projection:
        projections = [s for s in SKETCHES.names() if SKETCHES.get(s).impl.capabilities.projection]
        raise ConfigError(
            "centroids", centroids,
            f"lifted (sketch {sketch_name} is not a projection embedding; projected centroids "
            f"need one of: {', '.join(projections)})",
        )


def check_finite_fields(group: str, params: Any) -> None:
    """Every float of a group's dataclass (also inside lists) must be finite (no nan/inf)."""
    for f in dataclasses.fields(params):
        value = getattr(params, f.name)
        items = value if isinstance(value, (list, tuple)) else [value]
        if any(isinstance(v, float) and not math.isfinite(v) for v in items):
            raise ConfigError(f"{group}.{f.name}", value, "finite numbers (no nan or inf)")


def check_results_dir(value: Any) -> None:
    """``results_dir`` must be a folder (or creatable as one) this process can write to.

    Checked without writing anything: the deepest existing ancestor must be a writable,
    searchable folder, and ``runs`` inside it, if present, a folder.
    """
    if not isinstance(value, str) or not value.strip():
        raise ConfigError("results_dir", value, "a folder path")
    path = Path(value).expanduser().absolute()
    for p in (path, path / "runs"):
        if p.exists() and not p.is_dir():
            raise ConfigError("results_dir", value, f"a folder ({p} exists and is not a folder)")
    existing = next(p for p in (path, *path.parents) if p.exists())
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ConfigError("results_dir", value, f"a folder this user can write to ({existing} is not writable)")


def resolve_dataset(cfg: DictConfig, budget: int) -> Any:
    """The data set's config as its source tells it (:meth:`~kktheory.datasets.base.DatasetConfig.resolve`:
    a file's content hash), with the source's own ``n``, ``n_test`` and ``k`` written into
    ``cfg`` where the option leaves them to the data (``???``), so that the rows hold them."""
    dataset, own = DATASETS.params(cfg.dataset).resolve(budget)
    for name, value in own.items():
        if OmegaConf.is_missing(cfg, name):
            cfg[name] = value
    return dataset


def build_spec(cfg: DictConfig) -> RunSpec:
    """Validate a composed config before any work and resolve its rules.

    Checks every top-level field, every group's fields, and the memory of the reference and
    the bound checks, from the config alone; the sketch's relations and memory for every m
    are :meth:`kktheory.run.method.Method.check`'s.
    """
    for group in GROUPS:
        if group not in cfg or cfg[group] is None or OmegaConf.is_missing(cfg, group):
            raise ConfigError(group, None, "a config group option must be selected")
    budget = memory.budget_bytes(cfg.memory_budget_gb)
    dataset = resolve_dataset(cfg, budget)
    n, n_test, k, seed = (check(name, cfg[name]) for name in ("n", "n_test", "k", "seed"))
    data_seed = seed if cfg.data_seed is None else check("data_seed", cfg.data_seed)
    if k > n:
        raise ConfigError("k", k, f"1 ≤ k ≤ n={n}")
    for name in ("dtype", "centroids", "backend", "risk_exact_limit", "risk_points", "risk_pairs",
                 "reference_n_init", "dask_chunk_rows"):
        check(name, cfg[name])
    check_results_dir(cfg.results_dir)
    threads = None if cfg.threads is None else check("threads", cfg.threads)
    gamma = resolve_gamma(cfg.gamma, n, k)
    ms: list[tuple[str, int]] = []
    for item in m_items(cfg.m):
        rule, m = resolve_m(item, n, k, gamma)
        if m not in [x for _, x in ms]:
            ms.append((rule, m))
    kernel = OmegaConf.to_object(OmegaConf.merge(OmegaConf.structured(KernelConfig), cfg.kernel))
    sketch = SKETCHES.params(cfg.sketch)
    clustering = CLUSTERERS.params(cfg.clustering)
    for group, params in (("dataset", dataset), ("kernel", kernel), ("sketch", sketch), ("clustering", clustering)):
        check_finite_fields(group, params)
    list_field = SKETCHES.get(sketch.name).impl.list_field
    if list_field and getattr(sketch, list_field) == []:
        raise ConfigError(f"sketch.{list_field}", [], "an integer, a rule or a non-empty list of them")
    validate_kernel(kernel)
    check_centroids(cfg.centroids, sketch.name)
    CLUSTERERS.get(clustering.name).impl(clustering).validate()
    spec = RunSpec(
        cfg=cfg, n=n, n_test=n_test, k=k, gamma=gamma, ms=ms, seed=seed,
        data_seed=data_seed, dtype=cfg.dtype, budget=budget,
        dataset=dataset, kernel=kernel, sketch=sketch, clustering=clustering,
        centroids=cfg.centroids,
        risk=RiskSettings(budget, cfg.risk_exact_limit, cfg.risk_points, cfg.risk_pairs),
        reference=parse_reference(cfg.reference, cfg.reference_n_init, n, k, gamma),
        bounds=build_bounds_spec(cfg),
        execution=ExecutionSpec(cfg.backend, threads, cfg.dask_scheduler, int(cfg.dask_chunk_rows),
                                str(cfg.results_dir)),
        population=OmegaConf.to_object(OmegaConf.merge(OmegaConf.structured(PopulationConfig), cfg.population)),
        column_objective=bool(cfg.column_objective),
    )
    validate_population(spec.population, dataset.name, kernel, k, budget)
    require_reference(cfg.reference, spec.reference, n, spec.dtype, budget)
    require_bounds(spec.bounds, n, budget)
    check_column_objective(spec)
    check_disk_rows(spec)
    return spec


def check_column_objective(spec: RunSpec) -> None:
    """``column_objective`` (Wang et al. 2019 §5.2's objective over the kernel columns,
    :mod:`kktheory.evaluation.column_objective`) is one more O(n²d) pass over K: it runs
    where the lifted risks make theirs, n ≤ ``risk_exact_limit`` on the NumPy backend (Dask's
    risks are always subsampled), and its memory besides a kernel block (the partitions'
    stacked memberships) must fit the budget. Refused otherwise, before any data are drawn."""
    if not spec.column_objective:
        return
    if spec.n > spec.risk.exact_limit or spec.execution.backend != "numpy":
        raise ConfigError(
            "column_objective", True,
            f"false for this run (n={spec.n}, risk_exact_limit={spec.risk.exact_limit}, "
            f"backend={spec.execution.backend}): the objective over kernel columns is one more O(n²d) pass over K, "
            "run only where the lifted risks are exact (n ≤ risk_exact_limit, backend=numpy)")
    memory.require(column_objective.memory_bytes(spec.n, spec.k, len(spec.points)), spec.budget,
                   "the objective over kernel columns (column_objective)", "set column_objective=false")


def check_disk_rows(spec: RunSpec) -> None:
    """What a run may do with training rows that stay on disk.

    A data set too large for memory (``dataset.rows_on_disk(n)``: augmented MNIST above
    ``dataset.in_memory_max`` images) hands its rows over as
    :class:`kktheory.datasets.disk_rows.DiskRows`, read block by block. The methods that
    only read rows in blocks and by index accept them: the uniform Nyström sketches
    (``Sketch.capabilities.rows_in_blocks``) with projected centroids (computed from the
    features), no reference solution, no bound checks, no population evaluation. With
    ``backend=dask`` the workers read the rows from the file in chunks and the client never
    holds them, so the sketch and the centroids are the Dask backend's to check
    (:func:`kktheory.run.dask.check`); the reference, bounds and population stay
    refused. Anything else is refused here, naming the first field that does not apply,
    before any data are drawn.
    """
    if not spec.dataset.rows_on_disk(spec.n):
        return
    why = (f"with n={spec.n} {spec.dataset.name} images the training rows stay on disk "
           f"(n > dataset.in_memory_max={getattr(spec.dataset, 'in_memory_max', None)}) and are read in blocks")
    readers = [s for s in SKETCHES.names() if SKETCHES.get(s).impl.capabilities.rows_in_blocks]
    ref = spec.reference.kind
    chunked = spec.execution.backend == "dask"  # read by the workers in chunks
    checks = [
        ("sketch", spec.sketch.name, chunked or spec.sketch.name in readers, f"one of {', '.join(readers)}"),
        ("centroids", spec.centroids, chunked or spec.centroids == "projected", "projected"),
        ("reference", spec.cfg.reference,
         ref == "none" or ref == "auto" and not gram_fits(spec.n, spec.dtype, spec.budget), "none"),
        ("bounds", ",".join(spec.bounds.names), not spec.bounds.names, "none"),
        ("population.test_n", spec.population.test_n, not spec.population.test_n, "0"),
    ]
    for name, value, ok, allowed in checks:
        if not ok:
            raise ConfigError(name, value, f"{allowed} ({why})")
