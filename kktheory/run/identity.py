"""A run's identity: the resolved config of one row, what its run id hashes.

A row's id (:func:`kktheory.run.store.run_id`) is the hash of :func:`row_identity`: the resolved
config flattened (``group.field`` keys), with the resolved m, its rule, the data seed and γ,
and without what cannot change the row's numbers — where data live and how they are
produced (:data:`NOT_IDENTITY`, :data:`NOT_IDENTITY_FIELDS`), settings that do not apply
(:func:`inapplicable`), options at the value they had before they existed
(:data:`OFF_VALUES`) and the Dask backend's fields on NumPy rows (:data:`DASK_FIELDS`). Two
runs with the same identity compute the same numbers, so a store holds each once.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from omegaconf import OmegaConf

from kktheory.run.method import backend_class
from kktheory.run.config import RunConfig
from kktheory.kernels.functions import canonical
from kktheory.embeddings import SKETCHES

if TYPE_CHECKING:
    from kktheory.run.config import Point, RunSpec

#: top-level fields that do not change what a run computes (left out of its identity)
NOT_IDENTITY = ("results_dir", "force", "memory_budget_gb", "m", "dask_scheduler", "threads")
#: group fields that say where data live or how they are produced, not what they are
NOT_IDENTITY_FIELDS = ("dataset.data_dir", "dataset.cache_dir", "dataset.n_jobs", "dataset.chunk_size",
                       "dataset.in_memory_max",  # rows in memory or read from disk: the same values
                       "clustering.algorithm")  # lloyd, hamerly, elkan: the same iterations
#: options added after rows existed: at this value they change nothing, so they are left out
OFF_VALUES = {"dataset.centres_seed": None, "dataset.test_set": "mnist"}
#: fields that only matter with backend=dask (left out of the identity of numpy runs; the
#: row still says ``backend``, see :meth:`RowWriter.row`)
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


def warm_start_from(spec: RunSpec, m: int) -> list[int]:
    """The m of the list larger than ``m`` when the clustering warm-starts, else []."""
    if not getattr(spec.clustering, "warm_start", False):
        return []
    return sorted(x for _, x in spec.ms if x > m)


def row_identity(spec: RunSpec, point: Point) -> dict[str, Any]:
    """The resolved config of one row: what its hash (run file name) is made of. A row of
    a list field's value (:attr:`Point.variant`) has the identity of a run given that value
    alone."""
    m_rule, m = point.rule, point.m
    cfg = OmegaConf.to_container(spec.cfg, resolve=True)
    ident = {k: v for k, v in flatten(cfg).items() if k.split(".")[0] not in NOT_IDENTITY}
    for group, params in (("dataset", spec.dataset), ("kernel", spec.kernel),
                          ("sketch", spec.sketch), ("clustering", spec.clustering)):
        ident.update({f"{group}.{k}": v for k, v in flatten(asdict(params)).items()})
    if point.variant is not None:
        ident[f"sketch.{SKETCHES.get(spec.sketch.name).impl.list_field}"] = point.variant
    for name in NOT_IDENTITY_FIELDS:
        ident.pop(name, None)
    ident.update({name: v for name, v in inapplicable(spec).items() if name in ident})
    ident.update(m=m, m_rule=m_rule, data_seed=spec.data_seed, gamma_value=spec.gamma)
    larger = warm_start_from(spec, m)
    if larger:  # a warm-started partition depends on every larger m of the list
        ident["warm_start_from"] = str(larger)
    else:  # the largest m (or no warm start) computes what a run of that m alone does
        ident.pop("clustering.warm_start", None)
    if not spec.bounds.names:  # bound settings change a row only when bounds are computed
        ident = {k: v for k, v in ident.items() if not k.startswith("bound")}
    if not spec.population.test_n:  # nor population settings without a population evaluation
        ident = {k: v for k, v in ident.items() if not k.startswith("population.")}
    for name, off in OFF_VALUES.items():  # options at their "off" value leave the identity as it was
        if name in ident and ident[name] == off:
            del ident[name]
    if spec.execution.backend == RunConfig.backend:  # rows of the default backend keep their identity
        ident = {k: v for k, v in ident.items() if k not in DASK_FIELDS}
    return ident
