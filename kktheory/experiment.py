"""One run: config → rows (DESIGN §2).

dataset → kernel → reference (cached, :mod:`kktheory.reference`) → sketch (one per m,
nested for a list of m) → clustering → risk (lifted or projected centroids,
:mod:`kktheory.risk`), excess risk and metrics → row → store. Every row's identity
(:func:`row_identity`) is the resolved config with the single resolved m and its rule; its
hash names the run file, so m=10 run alone and m=10 inside ``m=[10,20,40]`` are the same
run, computed once. ``time_total`` is the method's cost (load, embed, cluster, evaluate);
``time_reference`` is reported apart.
"""

from __future__ import annotations

import platform
import subprocess
import time
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from omegaconf import DictConfig, OmegaConf

from kktheory import __version__, memory
from kktheory.bounds import BoundEngine
from kktheory.cluster import CLUSTERERS
from kktheory.config import RunSpec, build_spec
from kktheory.datasets import DATASETS, Dataset
from kktheory.gram import KernelCache
from kktheory.kernels import Kernel, make_kernel
from kktheory.metrics import partition_scores
from kktheory.reference import excess_columns, reference_columns
from kktheory.risk import lifted, projected_risk
from kktheory.seeding import component_rng
from kktheory.sketches import SKETCHES, Partition, Sketch, SketchContext
from kktheory.store import Store, run_id
from kktheory.threads import current_threads, thread_limits

#: top-level fields that do not change what a run computes (left out of its identity)
NOT_IDENTITY = ("results_dir", "force", "memory_budget_gb", "m", "threads")


@lru_cache(maxsize=1)
def git_commit() -> str:
    """The commit of the kktheory checkout, or 'unknown' outside a git checkout."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent,
            capture_output=True, text=True, timeout=5, check=True,
        )
        return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"


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


def row_identity(spec: RunSpec, m_rule: str, m: int) -> dict[str, Any]:
    """The resolved config of one row: what its hash (run file name) is made of."""
    cfg = OmegaConf.to_container(spec.cfg, resolve=True)
    ident = {k: v for k, v in flatten(cfg).items() if k.split(".")[0] not in NOT_IDENTITY}
    for group, params in (("dataset", spec.dataset), ("kernel", spec.kernel),
                          ("sketch", spec.sketch), ("clustering", spec.clustering)):
        ident.update({f"{group}.{k}": v for k, v in flatten(asdict(params)).items()})
    ident.update(m=m, m_rule=m_rule, data_seed=spec.data_seed, gamma_value=spec.gamma)
    if not spec.bounds.names:  # bound settings change a row only when bounds are computed
        ident = {k: v for k, v in ident.items() if not k.startswith("bound")}
    return ident


@dataclass
class RunOutcome:
    """Rows written by a run and the ids of runs skipped because they exist."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def load_data(spec: RunSpec) -> Dataset:
    """The data draw of the run (seeded by data_seed)."""
    loader = DATASETS.get(spec.dataset.name).impl
    return loader(spec.dataset, spec.n, spec.n_test, spec.k, component_rng(spec.data_seed, "data"))


def evaluate(
    spec: RunSpec, kernel: Kernel, data: Dataset, part: Partition, sketch: Sketch,
    cache: KernelCache | None = None,
) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """Risks (with SEs) and partition scores of a training partition; arrays to keep.

    Train scores use the returned partition; test scores use the centroid rule's labels of
    the evaluated test points (all of them unless the lifted risk was subsampled).
    ``train_reassigned`` is the fraction of evaluated training points whose nearest
    centroid is not their own (0 at a Lloyd fixed point in the RKHS). ``cache`` holds the
    lifted risk's kernel blocks across the rows of an m-list (same numbers, less work).
    """
    labels = np.asarray(part.labels)
    if spec.centroids == "projected":
        F_train = part.features if part.features is not None else sketch.transform(data.X_train)
        risk = projected_risk(
            F_train, sketch.residual(data.X_train), labels,
            sketch.transform(data.X_test), sketch.residual(data.X_test), spec.k,
        )
    else:
        risk = lifted(kernel, data.X_train, labels, data.X_test, spec.k, spec.risk,
                      component_rng(spec.seed, "risk"), cache)
    cols: dict[str, Any] = risk.columns()
    own = labels if risk.train_eval is None else labels[risk.train_eval]
    cols["train_reassigned"] = float(np.mean(risk.train_nearest != own))
    y_test = data.y_test if risk.test_eval is None else data.y_test[risk.test_eval]
    cols.update({f"train_{k}": v for k, v in partition_scores(data.y_train, labels).items()})
    cols.update({f"test_{k}": v for k, v in partition_scores(y_test, risk.test_labels).items()})
    arrays = {"test_labels": risk.test_labels, "train_nearest": risk.train_nearest}
    for name, idx in (("train_eval_idx", risk.train_eval), ("test_eval_idx", risk.test_eval)):
        if idx is not None:
            arrays[name] = idx
    return cols, arrays


def run(cfg: DictConfig) -> RunOutcome:
    """Validate, then compute and store every missing row of the config, with BLAS/OpenMP
    threads limited to the config's ``threads`` (:mod:`kktheory.threads`)."""
    spec = build_spec(cfg)
    with thread_limits(spec.threads):
        return run_spec(cfg, spec)


def run_spec(cfg: DictConfig, spec: RunSpec) -> RunOutcome:
    """The rows of a validated run."""
    t_start = time.perf_counter()
    store = Store(cfg.results_dir)
    store.sweep_orphans()
    force = bool(cfg.force)
    ids = {m: run_id(row_identity(spec, rule, m)) for rule, m in spec.ms}
    outcome = RunOutcome(skipped=[ids[m] for _, m in spec.ms if store.has(ids[m]) and not force])
    todo = [(rule, m) for rule, m in spec.ms if force or not store.has(ids[m])]
    if not todo:
        return outcome

    sketch_entry = SKETCHES.get(spec.sketch.name)
    clusterer = CLUSTERERS.get(spec.clustering.name).impl(spec.clustering)
    ctx = SketchContext(n=spec.n, k=spec.k, gamma=spec.gamma, budget=spec.budget, dtype=spec.dtype)
    probe = sketch_entry.impl(spec.sketch, ctx)
    for _, m in todo:
        probe.validate(m)

    t0 = time.perf_counter()
    data = load_data(spec)
    kernel = make_kernel(spec.kernel, data.X_train, spec.dtype)
    time_load = time.perf_counter() - t0
    ref_cols, ref_labels = reference_columns(spec, data, kernel, cfg.results_dir)
    bounds = BoundEngine(spec, kernel, data)  # bound checks shared by every m (DESIGN §3.6)

    rules = dict((m, rule) for rule, m in todo)
    # several m: the lifted risk's kernel blocks are held for every row (kktheory.gram)
    lifted_many = len(todo) > 1 and spec.centroids == "lifted"
    cache = KernelCache(kernel, data.X_train, spec.budget) if lifted_many else None
    nested = sketch_entry.impl.fit_nested(
        spec.sketch, ctx, data.X_train, kernel, [m for _, m in todo],
        lambda: component_rng(spec.seed, "sketch"),
    )
    t0 = time.perf_counter()
    for m, sketch in nested:
        features = sketch.transform(data.X_train) if sketch.is_embedding else None
        time_embed = time.perf_counter() - t0

        t0 = time.perf_counter()
        part = sketch.partition(data.X_train, features, spec.k, clusterer, component_rng(spec.seed, "cluster"))
        time_cluster = time.perf_counter() - t0

        t0 = time.perf_counter()
        cols, arrays = evaluate(spec, kernel, data, part, sketch, cache)
        time_evaluate = time.perf_counter() - t0
        cols.update(ref_cols, **excess_columns(cols, ref_cols))
        cols.update(bounds.row(sketch, part, cols, m))

        ident = row_identity(spec, rules[m], m)
        row: dict[str, Any] = {"run_id": ids[m], **ident}
        row.update(
            m_used=sketch.resolve_m(m), kernel_sigma=kernel.sigma, **cols,
            **{k: v for k, v in part.info.items()}, **sketch.info_,
            time_load=time_load, time_embed=time_embed, time_cluster=time_cluster,
            time_evaluate=time_evaluate,
            time_total=time_load + time_embed + time_cluster + time_evaluate,
            time_wall=time.perf_counter() - t_start, peak_rss_mb=memory.peak_rss_mb(),
            version=__version__, git_commit=git_commit(), cpu_count=memory.cpu_count(),
            blas_threads=current_threads(),
            host=platform.node(), created=time.strftime("%Y-%m-%dT%H:%M:%S"),
        )
        arrays.update(
            train_labels=np.asarray(part.labels), train_idx=data.train_idx, test_idx=data.test_idx,
        )
        if sketch.landmarks_ is not None:
            arrays["landmarks"] = np.asarray(sketch.landmarks_)
        if ref_labels is not None:
            arrays["ref_train_labels"] = np.asarray(ref_labels)
        store.write(ids[m], row, arrays)
        outcome.rows.append(row)
        t0 = time.perf_counter()
    return outcome
