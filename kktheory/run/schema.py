"""The row schema: every column of a run's row, its meaning, unit and when it is empty.

A row (:meth:`kktheory.run.experiment.RowWriter.row`) holds

- ``run_id`` and the run's identity (:func:`kktheory.run.identity.row_identity`): the
  resolved config, flattened. These columns are documented here from the config
  dataclasses themselves — :class:`kktheory.run.config.RunConfig` and the dataclass of every
  registered option of the ``dataset``, ``kernel``, ``sketch``, ``clustering`` groups and
  :class:`kktheory.evaluation.population.PopulationConfig` — each field by the comment on its line
  (:func:`~kktheory.registry.field_comments`), so a new field is documented where it is declared;
- result columns: declared once in :data:`RESULTS` below, the bound checks' in
  :data:`kktheory.evaluation.bounds.engine.COLUMN_DOCS`.

Units: κ is the unit of the kernel κ(x, x′) (an RKHS squared norm); risks and objectives
are means over points, in κ. "Empty" is NaN for numbers and None for booleans (a row says
why in ``nan_reason``) or the column absent from the row (NaN once rows are loaded
together). Rows of earlier versions are read under the current names
(:data:`kktheory.run.store.RENAMED`).

``python -m kktheory.run.schema`` prints ``docs/schema.md``; ``tests/test_schema.py`` checks
the committed file against it and that the rows of representative runs hold no column
this module does not document. Cost: reading the config modules' source once.
"""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass
from collections.abc import Mapping
from typing import Any

from omegaconf import MISSING

from kktheory.evaluation.bounds.engine import COLUMN_DOCS
from kktheory.cluster.clusterers import CLUSTERERS
from kktheory.run.config import GROUPS, RunConfig
from kktheory.datasets import DATASETS
from kktheory.registry import field_comments
from kktheory.run.identity import DASK_FIELDS, execution_fields, off_values, stage_of
from kktheory.kernels.functions import KernelConfig
from kktheory.evaluation.population import PopulationConfig
from kktheory.embeddings import SKETCHES
from kktheory.run.store import RENAMED


@dataclass(frozen=True)
class Column:
    """One column of a row."""

    name: str
    meaning: str
    unit: str
    empty: str  # when the column is empty or absent ("never": always filled)


# -- identity columns, from the config dataclasses ---------------------------------------------
def _type_name(f: dataclasses.Field) -> str:
    """The field's annotation as written, ``Optional[X]`` as ``X | null``."""
    text = str(f.type)
    return f"{text[9:-1]} | null" if text.startswith("Optional[") else text


def _unit(f: dataclasses.Field) -> str:
    """Type and default of a config field."""
    if f.default_factory is not dataclasses.MISSING:
        return f"{_type_name(f)} (default {f.default_factory()!r})"
    return _type_name(f) if f.default in (dataclasses.MISSING, MISSING) else f"{_type_name(f)} (default {f.default!r})"


#: the row value of these top-level fields differs from the configured one
ROW_VALUE = {
    "data_seed": "resolved: the configured data_seed, or seed when it is null",
    "gamma": "the rule or number as configured; its value is gamma_value",
    "reference_n_init": "its default when reference=none (it cannot change the row)",
    "risk_points": "its default when every risk is exact (projected centroids, or n ≤ risk_exact_limit "
                   "with backend=numpy)",
    "risk_pairs": "its default when every risk is exact (as risk_points)",
}
#: identity columns that are not config fields (added by row_identity)
DERIVED = (
    Column("run_id", "16 hex digits of the SHA-256 of the row's identity (the columns of this section it holds); "
           "names the run's files", "—", "never"),
    Column("m", "the resolved sketch size of this row (m of the config is a rule, number or list; a list gives "
           "one row per m)", "int", "never"),
    Column("m_rule", "m as configured for this row: the rule (sqrt_n, 2*sqrt_n, …) or the number as written; "
           "its resolved value is m", "str", "never"),
    Column("gamma_value", "γ resolved from the rule or number in gamma (Calandriello's regularisation)", "float",
           "never"),
    Column("warm_start_from", "the larger m of the list whose partitions this row's clustering started from "
           "(clustering.warm_start=true)", "str (list of int)", "absent unless the row was warm-started"),
)


#: top-level fields a row never holds: the execution's, and m (each row holds its resolved m)
NOT_IN_ROWS = tuple(f.name for f in dataclasses.fields(RunConfig) if stage_of(f.name) in ("execution", "per_row"))


def group_execution_fields() -> list[str]:
    """``group.field`` of every group option's execution fields (never in a row)."""
    names = {f"{group}.{name}" for group in ("dataset", "clustering")
             for cls in group_options(group).values() for name in execution_fields(cls)}
    return sorted(names)


def group_off_values() -> dict[str, object]:
    """``group.field`` → its off value, for every group option's options added after rows existed."""
    return {f"{group}.{name}": value for group in ("dataset", "sketch", "clustering")
            for cls in group_options(group).values() for name, value in off_values(cls).items()}


def _top_level_empty(name: str) -> str:
    if name == "backend":
        return "never (in the identity of Dask rows only, so NumPy rows keep their run ids)"
    if name in DASK_FIELDS:
        return "absent unless backend=dask"
    if name.startswith("bound"):
        return "absent unless bounds is set"
    if name == "column_objective":
        return "absent unless true (rows without the stage keep their run ids)"
    return "never"


def top_level_columns() -> list[Column]:
    """The top-level config fields a row holds (not the groups, not :data:`NOT_IN_ROWS` but the Dask fields)."""
    docs = field_comments(RunConfig)
    out = []
    for f in dataclasses.fields(RunConfig):
        if f.name in GROUPS or f.name in NOT_IN_ROWS and f.name not in DASK_FIELDS or f.name == "population":
            continue
        meaning = docs[f.name] + (f"; in the row: {ROW_VALUE[f.name]}" if f.name in ROW_VALUE else "")
        out.append(Column(f.name, meaning, _unit(f), _top_level_empty(f.name)))
    return out


def group_options(group: str) -> dict[str, type]:
    """Option name → config dataclass of a group (the kernel group has one dataclass)."""
    if group == "kernel":
        return {"gaussian | linear | polynomial": KernelConfig}
    if group == "population":
        return {"population": PopulationConfig}
    registry = {"dataset": DATASETS, "sketch": SKETCHES, "clustering": CLUSTERERS}[group]
    return {name: registry.get(name).config_cls for name in registry.names()}


#: when a group's columns are empty or hold another value than configured (the rules of
#: :func:`kktheory.run.identity.inapplicable` and :func:`kktheory.run.identity.row_identity`)
EMPTY = {
    "kernel.bandwidth": "never; holds its default unless kernel=gaussian",
    "kernel.sigma": "never; holds its default unless kernel=gaussian with bandwidth=fixed (the σ used is "
                    "kernel_sigma)",
    "kernel.beta": "never; holds its default unless kernel=gaussian with bandwidth=wang",
    "kernel.degree": "never; holds its default unless kernel=polynomial",
    "kernel.coef0": "never; holds its default unless kernel=polynomial",
    "clustering.warm_start": "absent unless the row was warm-started from a larger m (then warm_start_from "
                             "says which)",
    **{key: f"absent when {value} (its value before the field existed)" for key, value in group_off_values().items()},
}


def group_columns(group: str) -> list[Column]:
    """One column per field name of a group, its meaning per option when options differ."""
    options = group_options(group)
    fields: dict[str, dict[str, tuple[str, str]]] = {}
    for option, cls in options.items():
        docs = field_comments(cls)
        for f in dataclasses.fields(cls):
            if f.name in execution_fields(cls):
                continue
            doc = "the selected option" if f.name == "name" else docs[f.name]
            fields.setdefault(f.name, {})[option] = (doc, _unit(f))
    out = []
    for name, per in fields.items():
        by_doc: dict[str, list[str]] = {}
        for option, (doc, _) in per.items():
            by_doc.setdefault(doc, []).append(option)
        if name == "name":
            meaning = f"the selected {group} option"
        elif len(by_doc) == 1:
            meaning = next(iter(by_doc))
        else:
            meaning = "; ".join(f"{', '.join(opts)}: {doc}" for doc, opts in by_doc.items())
        units = {unit for _, unit in per.values()}
        unit = units.pop() if len(units) == 1 else f"{next(iter(units)).split(' (')[0]} (default per option)"
        key = f"{group}.{name}"
        if key in EMPTY:
            empty = EMPTY[key]
        elif group == "population":
            empty = "absent unless population.test_n > 0"
        elif len(per) < len(options):
            empty = f"absent unless {group} is one of {', '.join(per)}"
        else:
            empty = "never"
        out.append(Column(key, meaning, unit, empty))
    return out


# -- result columns ------------------------------------------------------------------------------
_NO_REF = "no reference (reference=none, or auto above the memory budget)"
_EXACT_REF = "the reference is not exact kernel k-means (none or nystrom:<m>)"
_SUBSAMPLED = "0 when exact"
_KMEANSPP = "absent unless the partition was clustered by kmeanspp (NumPy backend)"

#: section title → its result columns (the bound checks' are added from COLUMN_DOCS)
RESULTS: dict[str, tuple[Column, ...]] = {
    "Resolved settings": (
        Column("kernel_sigma", "the bandwidth σ the Gaussian kernel used, κ = exp(−‖x − x′‖²/(2σ²)): kernel.sigma "
               "with bandwidth=fixed, else the value of the bandwidth rule on the training points (kernel.sigma "
               "is then unused and holds its default)", "input units", "polynomial and linear kernels (no bandwidth)"),
        Column("m_used", "the sketch dimension actually used for m: m, except exact and kernel_columns (n), "
               "nystrom_liu (⌈√(nk)⌉) and onepass with oversampling set (rank + oversampling)", "int", "never"),
    ),
    "Kernel approximation": (
        Column("approx_fro_rel", "‖K − FFᵀ‖_F/‖K‖_F, the relative Frobenius error of the rank-restricted "
               "sketch's approximation of K (Pourkamali-Anaraki & Becker Table 1), one pass over K in blocks",
               "fraction", "absent unless the sketch is rank-restricted (kpca, nystrom_rr, power, onepass); "
               "empty above risk_exact_limit"),
    ),
    "Risks and scores": (
        Column("train_risk", "W(C, μ_n) = (1/n)Σ_i min_j ‖φ(x_i) − c_j‖², nearest centroid (Calandriello eq. 1), "
               "lifted (Yin eq. 11) or projected (Calandriello eq. 2) centroids", "κ", "never"),
        Column("train_risk_se", "standard error of train_risk (subsampling estimator)", "κ", _SUBSAMPLED),
        Column("objective", "cost of the returned partition, (1/n)Σ_j Σ_{i∈C_j} ‖φ(x_i) − c_j‖² (Wang's f/n)", "κ",
               "never"),
        Column("objective_se", "standard error of objective", "κ", _SUBSAMPLED),
        Column("objective_columns", "Wang et al. 2019 §5.2's objective of the training partition J_1..J_k over "
               "the columns k_1..k_n ∈ Rⁿ of the training kernel matrix K, (1/n)Σ_i Σ_{j∈J_i} ‖k_j − (1/|J_i|)"
               "Σ_{l∈J_i} k_l‖² = (‖K‖_F² − Σ_i ‖K1_i‖²/|J_i|)/n (linear k-means cost of the columns of K; Fig. 5's "
               "objective, Yin Lemma 6's W as kc_objective), one pass over K in blocks "
               "(kktheory.evaluation.column_objective)", "κ²", "absent unless column_objective=true"),
        Column("test_risk", "W(C, μ_test): the mean over test points of the distance to the nearest centroid", "κ",
               "never"),
        Column("test_risk_se", "standard error of test_risk", "κ", _SUBSAMPLED),
        Column("risk_estimator", "exact, or subsample(b=…,pairs=…) above risk_exact_limit and with backend=dask",
               "—", "never"),
        Column("risk_bias_bound", "bound on the absolute bias of the subsampled train/test risk, √(Σ_j Var q̂_j)",
               "κ", _SUBSAMPLED),
        Column("train_reassigned", "fraction of evaluated training points whose nearest centroid is not their own "
               "(0 at a Lloyd fixed point in the RKHS)", "fraction", "never"),
        *(Column(f"{part}_{score}", f"{what} of the {part} labels against the classes{extra}", "fraction", "never")
          for part, extra in (("train", ""), ("test", " (nearest centroid of the evaluated test points)"))
          for score, what in (("nmi", "normalised mutual information (arithmetic mean)"),
                              ("nmi_geometric", "normalised mutual information (geometric mean)"),
                              ("ari", "adjusted Rand index"),
                              ("accuracy", "accuracy under the best one-to-one matching of clusters to classes"))),
        Column("test_majority", "share of the largest class among the test points: the accuracy of a single "
               "cluster, to read test_accuracy against", "fraction", "never"),
        Column("test_classes", "number of classes among the test points (1/test_classes: chance accuracy of "
               "balanced classes)", "int", "never"),
    ),
    "Reference (exact kernel k-means or a large Nyström solution) and excess risks": (
        Column("ref_description", "what the reference is: exact(n_init=…), nystrom(m=…,n_init=…) or none, with "
               "[auto: …] when reference=auto chose", "—", "never"),
        Column("ref_train_risk", "train_risk of the reference partition", "κ", _NO_REF),
        Column("ref_train_risk_se", "its standard error", "κ", _NO_REF),
        Column("ref_objective", "objective of the reference partition", "κ", _NO_REF),
        Column("ref_objective_se", "its standard error", "κ", _NO_REF),
        Column("ref_test_risk", "test_risk of the reference partition", "κ", _NO_REF),
        Column("ref_test_risk_se", "its standard error", "κ", _NO_REF),
        Column("ref_risk_estimator", "risk_estimator of the reference's risks", "—", f"absent with {_NO_REF}"),
        Column("ref_n_iter", "Lloyd iterations of the best reference restart", "int",
               "absent unless the reference is exact"),
        Column("ref_kernel_stored", "whether the reference held K in memory (else recomputed in blocks)", "bool",
               "absent unless the reference is exact"),
        Column("ref_lloyd_objective", "best reference objective before the single-point moves", "κ",
               "absent unless the reference is exact"),
        Column("ref_moves", "single-point moves made after Lloyd", "int", "absent unless the reference is exact"),
        Column("ref_lower_bound", "spectral lower bound of the kernel k-means objective (relaxation to orthonormal "
               "frames on the centred K)", "κ", "absent unless the reference is exact"),
        Column("ref_gap_certified", "(ref_objective − ref_lower_bound)/ref_objective: how far from optimal the "
               "reference can be", "fraction", "absent unless the reference is exact"),
        Column("ref_cached", "whether the reference was read from <results_dir>/cache", "bool", "never"),
        Column("time_reference", "seconds spent obtaining the reference in this process (not in time_total)",
               "s", "never"),
        Column("excess_train_risk", "train_risk − ref_train_risk (Calandriello Thm 1's excess on the training set)",
               "κ", _NO_REF),
        Column("excess_train_risk_se", "√(train_risk_se² + ref_train_risk_se²)", "κ", _NO_REF),
        Column("excess_test_risk", "test_risk − ref_test_risk", "κ", _NO_REF),
        Column("excess_test_risk_se", "√(test_risk_se² + ref_test_risk_se²)", "κ", _NO_REF),
        Column("beats_reference", "the partition's objective is below ref_objective by more than a relative 1e-9",
               "bool", _NO_REF),
    ),
    "Population optimum W*(μ) (population.test_n > 0)": (
        Column("pop_test_risk", "W(C, T): risk of the row's centroids on the population sample T", "κ",
               "absent unless population.test_n > 0"),
        Column("pop_test_risk_se", "its standard error sd/√|T|", "κ", "as pop_test_risk"),
        Column("w_star", "estimate of W*(μ) = inf_C W(C, μ): the best candidate's risk on T (an upper bound up "
               "to its error)", "κ", "as pop_test_risk"),
        Column("w_star_se", "its standard error", "κ", "as pop_test_risk"),
        Column("w_star_method", "the candidates and the one chosen on the selection sample", "—", "as pop_test_risk"),
        Column("population_cached", "whether W*(μ) was read from the cache", "bool", "as pop_test_risk"),
        Column("excess_pop_risk", "pop_test_risk − w_star, paired over T (Yin Thm 2's excess; a lower bound on the "
               "true excess up to error)", "κ", "as pop_test_risk"),
        Column("excess_pop_risk_se", "its paired standard error", "κ", "as pop_test_risk"),
        Column("excess_erm_risk", "W(C, T) − W(C_n, T), C_n the exact reference, paired over T (Calandriello "
               "Thm 1's excess)", "κ", f"absent unless population.test_n > 0; empty when {_EXACT_REF}"),
        Column("excess_erm_risk_se", "its paired standard error", "κ", "as excess_erm_risk"),
        Column("time_w_star", "seconds obtaining W*(μ) (≈0 when cached) and the reference's values on T", "s",
               "as pop_test_risk"),
        Column("time_population", "this row's share of scoring the run's partitions on T", "s", "as pop_test_risk"),
    ),
    "Clustering": (
        Column("clustering_algorithm", "the iterations that produced the partition: lloyd | elkan (kmeanspp, "
               "clustering.algorithm), lloyd (localsearch), minibatch, or dask-ml k-means|| (backend=dask: "
               "dask-ml's KMeans, k-means|| seeding then Lloyd); rows of earlier versions called it "
               "kmeans_algorithm", "—", "absent for sketches that do not run the clusterer (exact, two_step, "
               "approx_kkm)"),
        Column("n_iter", "Lloyd iterations (mini-batch: passes) of the kept restart", "int", "never"),
        Column("n_empty_clusters", "clusters of the partition without a point", "int", "never"),
        Column("warm_started", "whether the partition started from a larger m's partition", "bool", _KMEANSPP),
        Column("seeding_cost_mean", "mean over restarts of the k-means++ seeds' cost before Lloyd (per point)",
               "feature units²", f"{_KMEANSPP}; empty when warm-started"),
        Column("seeding_cost_max", "the largest of those costs", "feature units²", f"{_KMEANSPP}; empty when "
               "warm-started"),
        Column("feature_objective", "k-means objective of the partition in the feature space, (1/n)Σ_i ‖F_i − "
               "μ_{l_i}‖² (differs from objective when the embedding does not preserve RKHS distances)",
               "feature units²", "absent for sketches without an embedding (exact, two_step, approx_kkm, "
               "spectral_nystrom)"),
        Column("feature_lower_bound", "spectral lower bound of the k-means objective of the features (for "
               "Arthur & Vassilvitskii's 8(ln k + 2) guarantee)", "feature units²", _KMEANSPP),
        Column("n_steps", "mini-batch steps", "int", "absent unless clustering=minibatch"),
        Column("n_swaps", "local-search swaps made (Lattanzi & Sohler 2019)", "int",
               "absent unless clustering=localsearch"),
        Column("init_cost", "cost of the k-means++ seeds of the kept restart (per point)", "feature units²",
               "absent unless clustering=localsearch"),
        Column("search_cost", "cost of the seeds after the local search (per point)", "feature units²",
               "absent unless clustering=localsearch"),
        Column("n_empty_reseeds", "clusters re-seeded because they became empty, all restarts", "int",
               "absent unless sketch is exact or two_step"),
        Column("kernel_stored", "whether exact kernel k-means held K in memory (else recomputed in blocks)",
               "bool", "absent unless sketch=exact"),
    ),
    "Sketch": (
        Column("rank_Kmm", "directions of K_mm kept (< m with duplicated landmarks)", "int",
               "absent unless the sketch is of the Nyström family"),
        Column("rank_K", "eigenvalues of K kept for exact features (above eig_cutoff·λ_max)", "int",
               "absent unless sketch=exact computed features (projected centroids, bound checks)"),
        Column("rls_method", "how the ridge leverage scores were computed: exact or bless (sketch.method=auto "
               "resolved)", "—", "absent unless sketch=nystrom_rls"),
        Column("rls_deff", "Σ of the leverage scores used (d_eff(γ) when exact)", "dimension",
               "absent unless sketch=nystrom_rls"),
        Column("bless_dictionary_size", "points of BLESS's final dictionary", "int", "absent unless rls_method=bless"),
        Column("bless_steps", "BLESS's steps", "int", "absent unless rls_method=bless"),
        Column("s", "target rank s resolved from sketch.s", "int", "absent unless sketch is kpca, power or "
               "nystrom_rr"),
        Column("ell", "ℓ resolved from sketch.ell (nystrom_rr)", "int", "absent unless sketch=nystrom_rr"),
        Column("s_used", "directions kept of the s (fewer when eigenvalues fall below the cutoff)", "int",
               "as s"),
        Column("subgaussian_p", "the density p of S used: sketch.p, or 1/√n when sketch.p is null (Yin's "
               "default as printed)", "fraction", "absent unless sketch=subgaussian"),
        Column("subgaussian_nnz", "non-zero entries of S", "int", "absent unless sketch=subgaussian"),
        Column("subgaussian_zero_rows", "rows of S without a non-zero", "int", "absent unless sketch=subgaussian"),
        Column("onepass_rank", "target rank r used: sketch.rank, or k when null", "int", "absent unless "
               "sketch=onepass"),
        Column("onepass_oversampling", "oversampling r′ − r used (sketch.oversampling, or m − r when null)", "int",
               "absent unless sketch=onepass"),
        Column("n_clipped_eigs", "negative eigenvalues of the one-pass core clipped to 0", "int",
               "absent unless sketch=onepass"),
        Column("clipped_eig_sum", "their total modulus", "κ", "absent unless sketch=onepass"),
        Column("rff_s", "dimension of the random-feature reduction used (sketch.s, or m when null)", "int",
               "absent unless sketch=rff"),
        Column("spectral_failed", "a degree of the Nyström affinity was ≤ 0, so the spectral embedding is undefined "
               "(Wang discards such trials)", "bool", "absent unless sketch=spectral_nystrom"),
        Column("n_nonpositive_degrees", "degrees ≤ 0", "int", "absent unless sketch=spectral_nystrom"),
        Column("min_degree", "smallest degree", "κ²", "absent unless sketch=spectral_nystrom"),
        Column("spectral_rank", "eigenvectors of the spectral embedding", "int",
               "absent unless sketch=spectral_nystrom and the embedding was defined"),
    ),
    "Bound checks (bounds=…)": (
        Column("bounds_method", "exact (n ≤ bound_exact_max_n: dense K) or randomized (estimates with *_err)", "—",
               "absent unless bounds is set"),
        Column("time_bounds", "seconds of this row's bound checks (not in time_total)", "s",
               "absent unless bounds is set"),
    ),
    "Cost and provenance": (
        Column("time_load", "seconds loading the data and resolving the kernel (shared by the rows of a list)",
               "s", "never"),
        Column("time_embed", "seconds of the sketch's fit and the training features of this m", "s", "never"),
        Column("time_cluster", "seconds of the clustering of this m", "s", "never"),
        Column("time_evaluate", "this row's share of the joint risk evaluation (and of the pass computing "
               "objective_columns) plus its own scores and feature-space diagnostics", "s", "never"),
        Column("evaluated_together", "partitions whose lifted risks shared one pass over the kernel blocks", "int",
               "never"),
        Column("time_total", "the method's cost: time_load + time_embed + time_cluster + time_evaluate (no "
               "validation, reference, bound checks or population scoring)", "s", "never"),
        Column("time_wall", "wall clock from the start of the run (validation included) until this row was "
               "built: also the reference, bound checks, population scoring and every m of the list fitted "
               "before it, so it grows along a list", "s", "never"),
        Column("peak_rss_mb", "peak resident memory of the process so far", "MiB", "never"),
        Column("version", "kktheory's version", "—", "never"),
        Column("git_commit", "commit of the kktheory checkout, or unknown", "—", "never"),
        Column("cpu_count", "CPUs available to the process", "int", "never"),
        Column("blas_threads", "BLAS/OpenMP threads in use", "int", "never"),
        Column("host", "the machine's name", "—", "never"),
        Column("created", "local time the row was built, ISO 8601", "—", "never"),
        Column("nan_reason", "why each empty result column is empty: '<reason> [<columns or bounds.<check>>]; …' "
               "('' when none is)", "—", "never"),
    ),
}


def bound_columns() -> list[Column]:
    """The bound checks' columns, from :data:`kktheory.evaluation.bounds.engine.COLUMN_DOCS`."""
    return [Column(name, meaning, unit, f"absent unless bounds includes {check}; empty when the check does not "
                   "apply to the sketch, without a reference when it compares with it, or 0/0 (nan_reason)")
            for check, cols in COLUMN_DOCS.items() for name, (meaning, unit) in cols.items()]


def sections() -> list[tuple[str, list[Column]]]:
    """The schema in document order: (section title, its columns)."""
    ident = [*DERIVED[:1], *top_level_columns(), *DERIVED[1:]]
    out = [("Identity: run id and top-level config", ident)]
    out += [(f"Identity: {group}.*", group_columns(group)) for group in (*GROUPS, "population")]
    out += [(title, list(cols)) for title, cols in RESULTS.items()]
    bounds = out.index(next(s for s in out if s[0].startswith("Bound checks")))
    out[bounds] = (out[bounds][0], out[bounds][1] + bound_columns())
    return out


def columns() -> dict[str, Column]:
    """Every documented column by name."""
    return {c.name: c for _, cols in sections() for c in cols}


def undocumented(names: Any) -> list[str]:
    """The names among ``names`` (e.g. a frame's columns) that the schema does not document."""
    known = columns()
    return [n for n in names if n not in known]


def merged(*parts: Mapping[str, Any]) -> dict[str, Any]:
    """One row (or part of one) from disjoint parts, in order: a column that two parts both
    give is a defect of the code that assembles rows (ValueError naming it), never settled
    by letting the later part win."""
    out: dict[str, Any] = {}
    for part in parts:
        clash = sorted(out.keys() & part.keys())
        if clash:
            raise ValueError(f"row columns given twice: {', '.join(clash)}")
        out.update(part)
    return out


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown() -> str:
    """``docs/schema.md``: every column with its meaning, unit and when it is empty."""
    lines = [
        "# Row schema",
        "",
        "<!-- generated by `python -m kktheory.run.schema > docs/schema.md`; edit the code, not this file -->",
        "",
        "Every run writes one row per m (`store.load(results_dir)` reads them as one DataFrame). This is every",
        "column a row can hold: its meaning, its unit and when it is empty. κ is the unit of the kernel",
        "κ(x, x′) (an RKHS squared norm); risks and objectives are means over points, in κ. *Empty* is NaN",
        "(numbers) or None (booleans), with the reason in the row's `nan_reason`, or the column absent from the",
        "row (NaN where rows are loaded together).",
        "",
        "The identity columns are the resolved config: `run_id` hashes them, so the same config is the",
        "same run. Their meaning is the comment on the field in its config dataclass. Config fields that are",
        "never in a row (where data live, how much memory or how many threads to use): "
        + ", ".join(f"`{n}`" for n in (*NOT_IN_ROWS, *group_execution_fields()) if n != "m" and n not in DASK_FIELDS) + ".",
        "",
        "Columns renamed since rows were first written (rows of earlier versions are read under the new",
        "name): " + ", ".join(f"`{old}` → `{new}`" for old, new in RENAMED.items()) + "; rows that left `backend`",
        "empty ran on NumPy and are read with `backend` = `numpy`.",
    ]
    for title, cols in sections():
        lines += ["", f"## {title}", "", "| column | meaning | unit | empty when |", "|---|---|---|---|"]
        lines += [f"| `{c.name}` | {_cell(c.meaning)} | {_cell(c.unit)} | {_cell(c.empty)} |" for c in cols]
    return "\n".join(lines) + "\n"


def main() -> int:
    sys.stdout.write(markdown())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
