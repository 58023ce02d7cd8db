"""Reference solution for excess risk, cached on disk.

Config field ``reference``:

- ``exact``: exact kernel k-means C_n (:func:`kktheory.cluster.kernel_kmeans.kernel_kmeans`,
  ``reference_n_init`` restarts, Lloyd run to a fixed point or ``REFERENCE_MAX_ITER``
  iterations, then single-point moves until none lowers the objective — a Lloyd fixed
  point is not the optimum, and sketches were seen beating plain Lloyd) with K held in
  memory; certified by the spectral lower bound of the objective
  (:func:`kktheory.cluster.kernel_kmeans.spectral_lower_bound`): ``ref_lower_bound`` ≤ the optimum
  ≤ ``ref_objective``, and ``ref_gap_certified`` = (ref_objective − ref_lower_bound) /
  ref_objective says how far from optimal the yardstick can be (``ref_lloyd_objective``:
  the best objective before the moves; ``ref_moves``: how many were made); refused before any work when K (n²·itemsize) does
  not fit the memory budget (:func:`require_reference`).
- ``exact:blocked``: the same, but when K does not fit, every Lloyd product is recomputed
  in blocks: memory stays bounded but the time is O(n²d) per restart and more — asked for
  explicitly, it is done (and logged). Same numbers as ``exact`` up to summation order,
  same cache entry.
- ``auto`` (default): ``exact`` when K (n²·itemsize) fits the memory budget, else ``none``,
  so that a large n never silently starts O(n²)-memory work; the row's
  ``ref_description`` says what was used and why.
- ``none``: no reference; the ref_* and excess_* columns are NaN.
- ``nystrom:<m>``: Nyström (uniform landmarks, m an integer or an m rule such as
  ``4*sqrt_n``) with k-means++ (``reference_n_init`` restarts): a large-m stand-in for
  exact kernel k-means when n is too large.

The reference partition is scored with lifted centroids by :mod:`kktheory.evaluation.risk`
(exact up to ``risk_exact_limit``, the subsampling estimator above), giving
``ref_train_risk``, ``ref_objective``, ``ref_test_risk`` and their ``*_se``. Each row gets
``excess_test_risk`` = test_risk − ref_test_risk and ``excess_train_risk`` =
train_risk − ref_train_risk with standard errors √(se² + ref_se²) (the two estimates use
independent draws); ``beats_reference`` says when a row's partition has a lower objective
than the reference (its excesses may then be negative for the reference's sake). With ``centroids=projected`` the run's risks use its projected
centroids while the reference keeps lifted ones (it has no embedding).

Caching: as data under ``<results_dir>/cache`` (:mod:`kktheory.evaluation.cache`), keyed by
what the reference depends on — dataset config, n, n_test, data_seed, kernel config, dtype, k,
the resolved reference and its settings, the risk estimator settings when n exceeds the exact
limit, and the package version — and not by the sketch, the clustering or the run's seed:
all runs of a sweep on one data draw share one reference. Its randomness comes from ``data_seed``
(streams "reference" and "reference-risk"). Rows carry ``ref_cached`` (True when read
from the cache) and ``time_reference`` (seconds spent obtaining it in this process).
Concurrent jobs that miss the cache at the same moment may each compute it once; the
results are identical.
"""

from __future__ import annotations

import logging
import time
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from kktheory.machine import memory
from kktheory.cluster.clusterers import KMeansPP, ClusteringConfig
from kktheory.datasets import Dataset
from kktheory.datasets.base import DataSpec
from kktheory.datasets.sources import held
from kktheory.evaluation.cache import cached_call
from kktheory.errors import ConfigError
from kktheory.kernels.gram import Gram, gram_fits
from kktheory.cluster.kernel_kmeans import kernel_kmeans, spectral_lower_bound
from kktheory.kernels.functions import Kernel, KernelConfig, canonical
from kktheory.evaluation.risk import RiskSettings, lifted
from kktheory.rules import resolve_m
from kktheory.seeding import component_rng
from kktheory.embeddings.base import SketchContext
from kktheory.embeddings.nystrom import Nystrom, NystromConfig
from kktheory.version import __version__

log = logging.getLogger(__name__)

REFERENCE_KINDS = ("auto", "exact", "none", "nystrom")
REFERENCE_ALLOWED = (
    "auto | exact | exact:blocked | none | nystrom:<m> (m an integer or an m rule, e.g. nystrom:5000)"
)
REFERENCE_MAX_ITER = 300
REFERENCE_TOL = 0.0  # Lloyd to a fixed point
REFERENCE_SEARCH = "lloyd+single-point moves, spectral certificate"  # part of the cache key
#: a partition beats the reference when its objective is lower by more than this (relative)
BEATS_TOLERANCE = 1e-9
RISK_KEYS = ("train_risk", "objective", "test_risk")


@dataclass(frozen=True)
class ReferenceSpec:
    """A validated ``reference`` value: kind, and m for ``nystrom``."""

    kind: str
    n_init: int = 10
    m: int | None = None
    m_rule: str | None = None


def resolve(ref: ReferenceSpec, n: int, dtype: str, budget: int) -> tuple[ReferenceSpec, str]:
    """Replace ``auto`` by ``exact`` or ``none`` (memory budget); (resolved, note)."""
    if ref.kind != "auto":
        return ref, ""
    need = n * n * np.dtype(dtype).itemsize
    if gram_fits(n, dtype, budget):
        return ReferenceSpec("exact", ref.n_init), "auto"
    return ReferenceSpec("none", ref.n_init), (
        f"auto: K needs {memory.fmt_bytes(need)} > budget {memory.fmt_bytes(budget)}"
    )


#: the ``reference`` value that allows exact kernel k-means with K recomputed in blocks
EXACT_BLOCKED = "exact:blocked"


def parse_reference(value: Any, n_init: int, n: int, k: int, gamma: float) -> ReferenceSpec:
    """A ``reference`` value: auto | exact | exact:blocked | none | nystrom:<m> (m checked
    like ``m``). ``exact:blocked`` is ``exact`` with the permission to recompute K in
    blocks when it does not fit the budget (see :func:`require_reference`)."""
    text = str(value).strip() if isinstance(value, str) else None
    if text in ("auto", "exact", "none"):
        return ReferenceSpec(text, n_init)
    if text == EXACT_BLOCKED:
        return ReferenceSpec("exact", n_init)
    if text is not None and text.startswith("nystrom:"):
        item = text.split(":", 1)[1].strip()
        try:
            rule, m = resolve_m(int(item) if item.isdigit() else item, n, k, gamma)
        except ConfigError as exc:
            raise ConfigError("reference", value, f"{REFERENCE_ALLOWED}; {exc.allowed}") from None
        return ReferenceSpec("nystrom", n_init, m, rule)
    raise ConfigError("reference", value, REFERENCE_ALLOWED)


def require_reference(value: Any, ref: ReferenceSpec, n: int, dtype: str, budget: int) -> None:
    """Memory guard of the reference solution (:mod:`kktheory.evaluation.reference`).

    ``exact`` needs K (n²·itemsize) in memory: above the budget it is refused, since the
    blocked recomputation it would fall back to costs O(n²d) time per Lloyd pass and
    restart (days at n = 2·10⁵); ``exact:blocked`` asks for that explicitly. ``auto``
    never needs the guard (it falls back to ``none``). ``nystrom:<m>`` holds K_nm and the
    features (2·n·m·itemsize).
    """
    itemsize = np.dtype(dtype).itemsize
    if ref.kind == "exact" and str(value).strip() != EXACT_BLOCKED and not gram_fits(n, dtype, budget):
        memory.require(
            n * n * itemsize, budget,
            f"reference=exact (the {n}×{n} kernel matrix K, {dtype})",
            f"use reference=auto (none when K does not fit), reference=nystrom:<m>, or "
            f"reference={EXACT_BLOCKED} to recompute K in row blocks (O(n²d) time per Lloyd pass)",
        )
    if ref.kind == "nystrom":
        memory.require(
            2 * n * ref.m * itemsize, budget,
            f"reference=nystrom:{ref.m_rule} (K_nm and the features, 2 × {n}×{ref.m})",
            "use a smaller m in reference=nystrom:<m>",
        )


def describe(ref: ReferenceSpec) -> str:
    """Short description of a resolved reference."""
    if ref.kind == "exact":
        return f"exact(n_init={ref.n_init})"
    if ref.kind == "nystrom":
        return f"nystrom(m={ref.m},n_init={ref.n_init})"
    return "none"


def _compute(key: dict[str, Any], data: Dataset, kernel: Kernel, budget: int) -> dict[str, Any]:
    """The reference partition and its lifted risks (the cached function: see ``key``)."""
    k = key["k"]
    rng = component_rng(key["data_seed"], "reference")
    X, X_test = held(data.X_train), held(data.X_test)  # rows read where they are computed (Dask): here
    out: dict[str, Any] = {}
    if key["reference"] == "exact":
        gram = Gram(kernel, X, budget)
        if not gram.stored:
            log.warning("exact reference with K recomputed in blocks (n=%d): O(n²d) per product", len(X))
        res = kernel_kmeans(gram, k, rng, key["n_init"], key["max_iter"], key["tol"], local_search=True)
        labels = res.labels
        bound = spectral_lower_bound(gram, k, component_rng(key["data_seed"], "reference-certificate"))
        out.update(ref_n_iter=res.n_iter, ref_kernel_stored=gram.stored, ref_lloyd_objective=res.lloyd_objective,
                   ref_moves=res.moves, ref_lower_bound=bound)
        del gram
    else:
        ctx = SketchContext(n=len(X), k=k, gamma=np.nan, budget=budget, dtype=kernel.dtype)  # γ unused
        sketch = Nystrom(NystromConfig(), ctx).fit(X, kernel, key["m"], rng)
        clusterer = KMeansPP(ClusteringConfig(name="kmeanspp", n_init=key["n_init"]))
        labels = clusterer.fit(sketch.transform(X), k, rng).labels
    s = key["risk"]  # None: n within the exact limit
    settings = RiskSettings.exact(budget) if s is None else RiskSettings(budget, **s)
    risk = lifted(kernel, X, labels, X_test, k, settings, component_rng(key["data_seed"], "reference-risk"))
    for name in RISK_KEYS:
        out[f"ref_{name}"] = getattr(risk, name)
        out[f"ref_{name}_se"] = getattr(risk, f"{name}_se")
    if "ref_lower_bound" in out:  # how far from optimal the yardstick can be
        out["ref_gap_certified"] = (out["ref_objective"] - out["ref_lower_bound"]) / out["ref_objective"] \
            if out["ref_objective"] > 0 else 0.0
    out["ref_risk_estimator"] = risk.estimator
    out["labels"] = labels
    return out


@dataclass(frozen=True)
class ReferenceJob:
    """What a run's reference depends on: the configured reference, the data draw, the
    kernel's config, the dtype, the risk estimator's settings and the memory budget (and
    nothing about the sketch or the run seed)."""

    reference: ReferenceSpec
    data: DataSpec
    kernel: KernelConfig
    dtype: str
    risk: RiskSettings
    budget: int


def cache_key(job: ReferenceJob, ref: ReferenceSpec) -> dict[str, Any]:
    """The key of the reference ``ref`` (``job.reference`` resolved) in the cache."""
    s, n = job.risk, job.data.n
    risk = (
        None if n <= s.exact_limit
        else {"exact_limit": s.exact_limit, "points": s.points, "pairs": s.pairs}
    )
    return {
        "version": __version__, **job.data.key(), "kernel": asdict(canonical(job.kernel)),
        "dtype": job.dtype, "k": job.data.k, "reference": ref.kind, "m": ref.m,
        "n_init": ref.n_init, "max_iter": REFERENCE_MAX_ITER, "tol": REFERENCE_TOL, "risk": risk,
        "search": REFERENCE_SEARCH if ref.kind == "exact" else None,
    }


def reference_columns(
    job: ReferenceJob, data: Dataset, kernel: Kernel, results_dir: str
) -> tuple[dict[str, Any], np.ndarray | None]:
    """Row columns of the run's reference (computed or read from the cache), and its labels."""
    t0 = time.perf_counter()
    ref, note = resolve(job.reference, job.data.n, job.dtype, job.budget)
    desc = describe(ref) + (f" [{note}]" if note else "")
    cols: dict[str, Any] = {"ref_description": desc}
    if ref.kind == "none":
        cols.update({f"ref_{n}{se}": np.nan for n in RISK_KEYS for se in ("", "_se")})
        cols.update(ref_cached=False, time_reference=time.perf_counter() - t0)
        return cols, None
    out, cached = cached_call(results_dir, _compute, (cache_key(job, ref),), data, kernel, job.budget)
    labels = out.pop("labels")
    elapsed = time.perf_counter() - t0
    log.info("reference %s: ref_cached=%s, %.2f s", desc, cached, elapsed)
    cols.update(out, ref_cached=cached, time_reference=elapsed)
    return cols, labels


def excess_columns(cols: dict[str, Any], ref_cols: dict[str, Any]) -> dict[str, Any]:
    """excess_{train,test}_risk = risk − reference risk, with their standard errors, and
    ``beats_reference``: the partition's objective is below the reference's by more than
    BEATS_TOLERANCE (relative) — then its negative excess is the reference's shortfall."""
    out: dict[str, Any] = {}
    for name in ("train_risk", "test_risk"):
        out[f"excess_{name}"] = cols[name] - ref_cols[f"ref_{name}"]
        out[f"excess_{name}_se"] = float(np.hypot(cols[f"{name}_se"], ref_cols[f"ref_{name}_se"]))
    ref = ref_cols.get("ref_objective", np.nan)
    out["beats_reference"] = None if not np.isfinite(ref) else bool(cols["objective"] < ref * (1 - BEATS_TOLERANCE))
    return out
