"""Why a row holds empty values: the ``nan_reason`` column.

A result column of a row may be empty (NaN for numbers, None for the ``*_holds*``
booleans) only for a stated reason. :func:`nan_reason` explains every empty result column
of a row by the first rule that applies, and returns the reasons as one string,
``"<reason> [<columns or checks>]; …"`` (``""`` when nothing is empty). Rules, in order:

0. a kernel without a bandwidth (polynomial, linear): ``kernel_sigma``;
1. no reference (``reference=none``, or ``auto`` above the memory budget): the ``ref_*``
   and ``excess_*`` columns and the bound columns that compare with the reference; a
   reference that is not exact kernel k-means: ``excess_erm_risk`` (Calandriello Thm 1's
   quantity is relative to the exact empirical minimiser);
2. a bound check that does not apply to the sketch's kind (the table of
   :mod:`kktheory.evaluation.bounds.engine`: comparators without an embedding, JL columns for
   k_i ↦ R·k_i sketches only, projection ratios and the γ check for projection
   embeddings only, dense-path-only checks for low-rank features, Lemma 1/3's required m
   for landmark sketches only);
3. the kernel approximation error ``approx_fro_rel`` of rank-restricted sketches above
   ``risk_exact_limit``, where its O(n²) pass over K is not made;
4. degenerate inputs where a quantity is 0/0: rank K ≤ s (trace ratio and Wang's
   Thm 2), a reference objective of 0 (Wang's ratio), no pair of points at positive
   distance (distance ratios and what depends on them: duplicated points, a constant
   kernel);
5. anything else: ``unexplained`` — a defect to report, never expected (the robustness
   tests assert it does not occur).

A whole check that is empty for one reason is named as ``bounds.<check>`` instead of its
columns. Cost O(number of columns).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from kktheory.evaluation.bounds.engine import COLUMNS

#: bound columns that compare with the reference solution
REFERENCE_DEPENDENT = frozenset({
    "lemma2_gap", "lemma2_holds", "lemma6_gap_risk", "lemma6_holds_risk",
    "pourkamali_gap", "pourkamali_holds", "pourkamali_holds_psd", "wang_ratio", "wang_holds",
    "beats_reference",
})
JL_ONLY = frozenset(
    c for c in COLUMNS["jl"] if c.startswith(("jl_", "lemma6_", "kc_"))
)
KERNEL_COLUMNS_REF = frozenset(c for c in JL_ONLY if "kc" in c)
PROJECTION_RATIOS = frozenset(c for c in COLUMNS["jl"] if c.startswith("proj_"))
#: columns that are 0/0 when no pair of points has a positive distance
JL_RATIO_DEPENDENT = frozenset({
    "jl_eps", "jl_eps_free", "jl_ratio_min", "jl_ratio_max", "lemma6_bound",
    "lemma6_holds_risk", "lemma6_bound_kc_rel", "lemma6_holds_kc", "lemma6_holds_kc_rel",
})
BOUND_COLUMN = {c: name for name, cols in COLUMNS.items() for c in cols}

Rule = Callable[[str, Mapping[str, Any]], "str | None"]


def is_empty(value: Any) -> bool:
    """NaN or None (the empty values of numeric and boolean result columns)."""
    return value is None or isinstance(value, float) and math.isnan(value)


def _missing(row: Mapping[str, Any], col: str) -> bool:
    value = row.get(col)
    return is_empty(value) or isinstance(value, float) and not math.isfinite(value)


def _no_bandwidth(kernel: str) -> Rule:
    def rule(col: str, row: Mapping[str, Any]) -> str | None:
        return f"no bandwidth: the {kernel} kernel has none" if col == "kernel_sigma" and kernel != "gaussian" else None

    return rule


def _reference(col: str, row: Mapping[str, Any]) -> str | None:
    desc = str(row.get("ref_description", ""))
    if desc.startswith("none") and (col.startswith(("ref_", "excess_")) or col in REFERENCE_DEPENDENT):
        return f"no reference ({desc})"
    if col in ("ref_lower_bound", "ref_gap_certified") and not desc.startswith("exact"):
        return f"the certificate needs the exact reference ({desc})"
    if col.startswith("excess_erm_risk") and not desc.startswith("exact"):
        return f"excess over the empirical minimiser needs the exact reference ({desc})"
    return None


def _not_applicable(kind: str | None, landmarks: bool) -> Rule:
    def rule(col: str, row: Mapping[str, Any]) -> str | None:
        check = BOUND_COLUMN.get(col)
        if check is None:
            return None
        dense = row.get("bounds_method") == "exact"
        if kind is None:
            return "no bound check applies to a sketch without an embedding"
        if check == "gamma":
            if kind != "projection":
                return "γ-preservation: projection embeddings only"
            if col in ("lemma1_m", "lemma3_m") and not landmarks:
                return "Lemma 1/3 required m: landmark sketches only"
        if check in ("trace", "pourkamali", "wang_thm2") and (kind == "jl" or kind == "lowrank" and not dense):
            return f"{check} check: projection embeddings, or low-rank features on the dense path"
        if check == "pourkamali" and col.endswith("_psd") and kind != "projection":
            return "tr(E) form: projection embeddings only (E = K − FFᵀ ⪰ 0)"
        if col in JL_ONLY and kind != "jl":
            return "JL check: k_i ↦ R·k_i sketches only"
        if col in KERNEL_COLUMNS_REF and not dense:
            return "kernel-column objective: dense path only (n ≤ bound_exact_max_n)"
        if col == "trace_coherence" and not dense:
            return "coherence of K's top-s eigenvectors: dense path only (n ≤ bound_exact_max_n)"
        if col in PROJECTION_RATIOS and kind != "projection":
            return "distance ratios: projection embeddings only"
        return None

    return rule


def _approximation(col: str, row: Mapping[str, Any]) -> str | None:
    if col == "approx_fro_rel":
        return "kernel approximation error: its pass over the n × n kernel is made only where n ≤ risk_exact_limit"
    return None


def _degenerate(col: str, row: Mapping[str, Any]) -> str | None:
    if col in ("trace_ratio", "trace_ratio_err") or col.startswith("wang_") and _missing(row, "trace_ratio"):
        return "rank K ≤ s: ‖K − K_s‖_* = 0, the trace ratio is 0/0"
    if col in ("wang_ratio", "wang_holds") and row.get("ref_objective") == 0:
        return "reference objective 0 (all points alike): the objective ratio is 0/0"
    if col in JL_RATIO_DEPENDENT and row.get("jl_pairs") == 0:
        return "no pair of points with distinct kernel columns: JL ratios are 0/0"
    if col in PROJECTION_RATIOS and row.get("proj_pairs") == 0:
        return "no pair of points at positive RKHS distance: distance ratios are 0/0"
    return None


def nan_reason(cols: Mapping[str, Any], kind: str | None, landmarks: bool, kernel: str = "gaussian") -> str:
    """The reasons for every empty column of ``cols`` (the result columns of a row).

    ``kind`` is the sketch kind of :func:`kktheory.evaluation.bounds.engine.feature_kind`,
    ``landmarks`` whether the sketch sampled landmarks, ``kernel`` the kernel's name.
    """
    rules: list[Rule] = [_no_bandwidth(kernel), _reference, _not_applicable(kind, landmarks), _approximation, _degenerate]
    groups: dict[str, list[str]] = {}
    for col, value in cols.items():
        if not is_empty(value):
            continue
        reason = next((r for rule in rules if (r := rule(col, cols)) is not None), "unexplained")
        groups.setdefault(reason, []).append(col)
    return "; ".join(f"{reason} [{_names(group)}]" for reason, group in groups.items())


#: one "<reason> [<names>]" group of a ``nan_reason`` string (a reason may itself hold
#: brackets, e.g. "no reference (none [auto: K needs …])"; names are column identifiers)
_GROUP = re.compile(r"(.+?) \[([\w.]+(?:, [\w.]+)*)\](?:; |$)")


def reasons_by_name(text: str) -> dict[str, str]:
    """The inverse of :func:`nan_reason`: each column (or ``bounds.<check>``) it names → its reason."""
    return {name: m[1] for m in _GROUP.finditer(text) for name in m[2].split(", ")}


def _names(group: list[str]) -> str:
    """Columns of a group, whole bound checks named ``bounds.<check>``."""
    left = set(group)
    names = []
    for check, cols in COLUMNS.items():
        if set(cols) <= left:
            names.append(f"bounds.{check}")
            left -= set(cols)
    return ", ".join(names + [c for c in group if c in left])
