"""A run's identity: the resolved config of one row, what its run id hashes.

A row's id (:func:`kktheory.run.store.run_id`) is the hash of :func:`row_identity`, built
from the stages of the run, each declared where its fields are (field metadata):

- the data draw and the method — the typed groups (``dataset.*``, ``kernel.*``,
  ``sketch.*``, ``clustering.*``, flattened as ``group.field``) and the top-level fields
  without metadata (n, k, seed, dtype, centroids, …) — always, with the row's resolved m and
  its rule, the data seed and γ;
- the evaluation's stages (:data:`~kktheory.run.config.RISK`, ``REFERENCE``, ``BOUNDS``,
  ``POPULATION``, ``COLUMN_OBJECTIVE``) when the run uses them (a stage added after rows
  existed is unused at its default, so those rows keep their run ids);
- the execution never: a field marked :data:`~kktheory.registry.EXECUTION` says where data
  live or how a result is computed (results folder, threads, memory budget, the backend and
  its scheduler, a data set's cache folder and generator workers, the algorithm computing
  Lloyd's iterations), not what it is.

Settings that cannot change a row hold their schema default (:func:`inapplicable`), and one
adapter keeps the run ids of rows stored before a field existed or before this rule held
(:func:`stored_ids_adapter`). Two runs with the same identity compute the same numbers, so a
store holds each once.
"""

from __future__ import annotations

from dataclasses import asdict, fields, is_dataclass
from typing import TYPE_CHECKING, Any

from omegaconf import OmegaConf

from kktheory.registry import EXECUTION
from kktheory.run.method import backend_class
from kktheory.run.config import GROUPS, RunConfig
from kktheory.kernels.functions import canonical
from kktheory.embeddings import SKETCHES

if TYPE_CHECKING:
    from kktheory.run.config import Point, RunSpec

#: rows of the Dask backend hold these execution fields in their identity (they were stored
#: so before the execution stage was declared); rows of the default backend do not
DASK_FIELDS = ("backend", "dask_chunk_rows")


def flatten(node: Any, prefix: str = "") -> dict[str, Any]:
    """Nested dict → {"a.b": value}; lists become their JSON-like string."""
    out: dict[str, Any] = {}
    for key, value in node.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten(value, f"{name}."))
        elif isinstance(value, (list, tuple)):
            out[name] = str(list(value))
        else:
            out[name] = value
    return out


def stage_of(name: str) -> str | None:
    """The stage a top-level field declares (None: the data draw or the method)."""
    return RUN_FIELDS[name].metadata.get("stage") if name in RUN_FIELDS else None


RUN_FIELDS = {f.name: f for f in fields(RunConfig)}


def execution_fields(config_cls: type) -> list[str]:
    """The fields of a config dataclass marked :data:`~kktheory.registry.EXECUTION`."""
    return [f.name for f in fields(config_cls) if f.metadata.get("stage") == EXECUTION["stage"]]


def off_values(config_cls: type) -> dict[str, Any]:
    """The fields of a config dataclass with an off value (:func:`~kktheory.registry.off_at`)."""
    return {f.name: f.metadata["off"] for f in fields(config_cls) if "off" in f.metadata}


def used_stages(spec: RunSpec) -> set[str]:
    """The evaluation stages the run uses. The risk and the reference are always part of a
    row (their settings hold defaults where they cannot matter, :func:`inapplicable`); the
    bound checks when some are named; the population when it has a test sample; Wang's
    objective over the kernel columns when ``column_objective`` is set."""
    used = {"risk", "reference"}
    if spec.bounds.names:
        used.add("bounds")
    if spec.population.test_n:
        used.add("population")
    if spec.column_objective:
        used.add("column_objective")
    return used


def group_identity(group: str, params: Any) -> dict[str, Any]:
    """``group.field`` → value for a typed group's fields, without its execution fields and
    without an option at its off value."""
    skip = set(execution_fields(type(params))) if is_dataclass(params) else set()
    off = off_values(type(params)) if is_dataclass(params) else {}
    values = {k: v for k, v in asdict(params).items() if k not in skip and not (k in off and v == off[k])}
    return {f"{group}.{k}": v for k, v in flatten(values).items()}


def inapplicable(spec: RunSpec) -> dict[str, Any]:
    """Identity keys whose value cannot change the row, each with the value it takes in the
    identity (its schema default), so that setting one makes no new run:

    - the kernel fields the kernel does not use (:func:`kktheory.kernels.functions.canonical`);
    - ``reference_n_init`` without a reference (``reference=none``);
    - ``risk_points`` and ``risk_pairs`` when no risk of the row is estimated: n ≤
      ``risk_exact_limit`` on the NumPy backend, or projected centroids (always exact) and
      no reference (a reference is scored by the estimator above the limit).

    Rows written before this rule held those defaults, so their run ids are unchanged.
    """
    kernel = canonical(spec.kernel)
    out: dict[str, Any] = {f"kernel.{f}": getattr(kernel, f) for f in ("bandwidth", "sigma", "beta", "degree", "coef0")
                           if getattr(kernel, f) != getattr(spec.kernel, f)}
    if spec.reference.kind == "none":
        out["reference_n_init"] = RunConfig.reference_n_init
    exact = spec.n <= spec.risk.exact_limit and backend_class(spec.execution.backend).exact_lifted_risks
    if exact or spec.centroids == "projected" and spec.reference.kind == "none":
        out.update(risk_points=RunConfig.risk_points, risk_pairs=RunConfig.risk_pairs)
    return out


def stored_ids_adapter(spec: RunSpec) -> set[str]:
    """The execution fields a row's identity keeps so that every stored run id stays:
    rows of ``backend=dask`` hold :data:`DASK_FIELDS` (they were written so before the
    execution stage was declared); every other row does not name its backend in its
    identity (the row's ``backend`` column still says it)."""
    return set(DASK_FIELDS) if spec.execution.backend != RunConfig.backend else set()


def warm_start_from(spec: RunSpec, m: int) -> list[int]:
    """The m of the list larger than ``m`` when the clustering warm-starts, else []."""
    if not getattr(spec.clustering, "warm_start", False):
        return []
    return sorted(x for _, x in spec.ms if x > m)


def row_identity(spec: RunSpec, point: Point) -> dict[str, Any]:
    """The resolved config of one row: what its hash (run file name) is made of (module
    docstring). A row of a list field's value (:attr:`Point.variant`) has the identity of a
    run given that value alone."""
    cfg = OmegaConf.to_container(spec.cfg, resolve=True)
    used, kept = used_stages(spec), stored_ids_adapter(spec)
    groups: dict[str, Any] = {}
    for group in GROUPS:
        groups.update(group_identity(group, getattr(spec, group)))
    ident: dict[str, Any] = {}
    for key, value in flatten(cfg).items():  # in the config's order (the rows' column order)
        name = key.split(".")[0]
        stage = stage_of(name)
        if name in GROUPS:
            if key in groups:
                ident[key] = groups[key]
        elif name in kept or stage is None or stage in used:
            ident[key] = value
    ident.update(groups)  # a typed field the config does not spell out
    if point.variant is not None:
        ident[f"sketch.{SKETCHES.get(spec.sketch.name).impl.list_field}"] = point.variant
    ident.update({name: v for name, v in inapplicable(spec).items() if name in ident})
    ident.update(m=point.m, m_rule=point.rule, data_seed=spec.data_seed, gamma_value=spec.gamma)
    larger = warm_start_from(spec, point.m)
    if larger:  # a warm-started partition depends on every larger m of the list
        ident["warm_start_from"] = str(larger)
    else:  # the largest m (or no warm start) computes what a run of that m alone does
        ident.pop("clustering.warm_start", None)
    return ident
