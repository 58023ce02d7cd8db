"""The one-screen summary printed at the end of a run.

A header with the run's settings and the resolved Gaussian bandwidth σ (``kernel_sigma``),
one table line per row, the reason for every empty ("—") cell (from the row's
``nan_reason``), what the reference cost (``time_reference``; ``ref_cached``) and how to
skip it, the bound checks, and where the rows went.
"""

from __future__ import annotations

import math
from typing import Any

from kktheory.evaluation.nan_reason import is_empty, reasons_by_name

#: (column, header, format) of the summary table, in order
COLUMNS = (
    ("m", "m", "{:d}"),
    ("train_risk", "train risk", "{:.5f}"),
    ("objective", "objective", "{:.5f}"),
    ("test_risk", "test risk", "{:.5f}"),
    ("excess_test_risk", "excess test", "{:+.5f}"),
    ("train_nmi", "NMI train", "{:.3f}"),
    ("test_nmi", "NMI test", "{:.3f}"),
    ("test_accuracy", "acc test", "{:.3f}"),
    ("time_embed", "embed s", "{:.2f}"),
    ("time_cluster", "cluster s", "{:.2f}"),
    ("time_evaluate", "eval s", "{:.2f}"),
)

#: (column, label, format) of the bound checks, shown on one line per row when present
BOUND_COLUMNS = (
    ("gamma_eps", "γ-ε", "{:.3g}"),
    ("gamma_ratio", "ρ/γ", "{:.3g}"),
    ("gamma_residual", "‖E‖", "{:.3g}"),
    ("deff", "d_eff", "{:.1f}"),
    ("lemma1_m", "Lemma1 m", "{:.0f}"),
    ("lemma2_gap", "L2 gap", "{:.3g}"),
    ("lemma2_bound", "L2 bound", "{:.3g}"),
    ("trace_ratio", "trace ratio", "{:.4g}"),
    ("trace_s", "s", "{:d}"),
    ("jl_eps", "JL ε", "{:.3g}"),
    ("jl_eps_free", "JL ε free", "{:.3g}"),
    ("jl_eps_implied", "ε(m)", "{:.3g}"),
    ("jl_required_m", "Yin m", "{:.0f}"),
    ("lemma6_gap_kc", "L6 gap kc", "{:.3g}"),
    ("lemma6_gap_risk", "L6 gap", "{:.3g}"),
    ("lemma6_bound", "L6 bound", "{:.3g}"),
    ("proj_ratio_min", "proj ratio min", "{:.3g}"),
    ("proj_ratio_mean", "mean", "{:.3g}"),
    ("pourkamali_gap", "PB gap", "{:.3g}"),
    ("pourkamali_bound", "PB bound", "{:.3g}"),
    ("wang_ratio", "Wang ratio", "{:.4g}"),
    ("wang_bound", "Wang bound", "{:.4g}"),
    ("time_bounds", "bounds s", "{:.2f}"),
)


def bound_line(row: dict[str, Any]) -> str | None:
    """``bounds m=…: label=value …`` for the bound columns of a row that are not empty."""
    cells = [
        f"{label}={_cell(row, col, fmt)}" for col, label, fmt in BOUND_COLUMNS
        if col in row and _cell(row, col, fmt) != "—"
    ]
    if not cells:
        return None
    method = row.get("bounds_method")
    return f"bounds m={row.get('m')}{f' ({method})' if method else ''}: " + "  ".join(cells)


def _cell(row: dict[str, Any], col: str, fmt: str) -> str:
    value = row.get(col)
    if is_empty(value):
        return "—"
    try:
        return fmt.format(value)
    except (ValueError, TypeError):
        return str(value)


def kernel_text(row: dict[str, Any]) -> str:
    """``gaussian σ=… (bandwidth=…)`` with the resolved bandwidth, else the kernel's name."""
    sigma = row.get("kernel_sigma")
    if is_empty(sigma) or not isinstance(sigma, (int, float)) or not math.isfinite(sigma):
        return str(row["kernel.name"])
    return f"{row['kernel.name']} σ={sigma:.4g} (bandwidth={row.get('kernel.bandwidth')})"


def empty_cell_lines(rows: list[dict[str, Any]]) -> list[str]:
    """``— <headers>: <reason>`` for the empty cells of the table, one line per reason."""
    by_reason: dict[str, list[str]] = {}
    for row in rows:
        reasons = reasons_by_name(str(row.get("nan_reason") or ""))
        for col, header, _ in COLUMNS:
            if col in row and is_empty(row[col]):
                headers = by_reason.setdefault(reasons.get(col, "no reason recorded"), [])
                if header not in headers:
                    headers.append(header)
    return [f"— {', '.join(headers)}: {reason}" for reason, headers in by_reason.items()]


def reference_line(row: dict[str, Any], results_dir: str) -> str | None:
    """What the reference of the run cost and how to skip it (None without a reference)."""
    desc = str(row.get("ref_description") or "none")
    seconds = row.get("time_reference")
    if desc.startswith("none") or is_empty(seconds):
        return None
    if row.get("ref_cached"):
        return f"reference {desc}: read from {results_dir}/cache ({seconds:.2f} s)"
    return (
        f"reference {desc}: {seconds:.2f} s, cached in {results_dir}/cache for runs on the "
        "same data draw; reference=none skips it"
    )


def summary(rows: list[dict[str, Any]], skipped: list[str], results_dir: str) -> str:
    """A compact text table of the rows written, and what was skipped."""
    lines: list[str] = []
    if rows:
        r0 = rows[0]
        lines.append(
            f"kktheory · dataset={r0['dataset.name']} n={r0['n']} n_test={r0['n_test']} "
            f"k={r0['k']} kernel={kernel_text(r0)} sketch={r0['sketch.name']} "
            f"clustering={r0['clustering.name']} seed={r0['seed']}"
        )
        headers = [h for _, h, _ in COLUMNS]
        table = [[_cell(r, c, f) for c, _, f in COLUMNS] for r in rows]
        widths = [max(len(h), *(len(t[i]) for t in table)) for i, h in enumerate(headers)]
        lines.append("  ".join(h.rjust(w) for h, w in zip(headers, widths)))
        lines.extend("  ".join(c.rjust(w) for c, w in zip(t, widths)) for t in table)
        lines.extend(empty_cell_lines(rows))
        if (line := reference_line(r0, results_dir)) is not None:
            lines.append(line)
        lines.extend(line for r in rows if (line := bound_line(r)) is not None)
        lines.append(f"{len(rows)} row(s) written to {results_dir}/runs/")
    if skipped:
        lines.append(
            f"skipped {len(skipped)} run(s) already in {results_dir}/runs/ "
            f"({', '.join(skipped)}); force=true recomputes"
        )
    return "\n".join(lines)
