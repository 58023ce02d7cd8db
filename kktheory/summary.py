"""The one-screen summary printed at the end of a run."""

from __future__ import annotations

from typing import Any

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
    if value is None or isinstance(value, float) and value != value:
        return "—"
    try:
        return fmt.format(value)
    except (ValueError, TypeError):
        return str(value)


def summary(rows: list[dict[str, Any]], skipped: list[str], results_dir: str) -> str:
    """A compact text table of the rows written, and what was skipped."""
    lines: list[str] = []
    if rows:
        r0 = rows[0]
        lines.append(
            f"kktheory · dataset={r0['dataset.name']} n={r0['n']} n_test={r0['n_test']} "
            f"k={r0['k']} kernel={r0['kernel.name']} sketch={r0['sketch.name']} "
            f"clustering={r0['clustering.name']} seed={r0['seed']}"
        )
        headers = [h for _, h, _ in COLUMNS]
        table = [[_cell(r, c, f) for c, _, f in COLUMNS] for r in rows]
        widths = [max(len(h), *(len(t[i]) for t in table)) for i, h in enumerate(headers)]
        lines.append("  ".join(h.rjust(w) for h, w in zip(headers, widths)))
        lines.extend("  ".join(c.rjust(w) for c, w in zip(t, widths)) for t in table)
        lines.extend(line for r in rows if (line := bound_line(r)) is not None)
        lines.append(f"{len(rows)} row(s) written to {results_dir}/runs/")
    if skipped:
        lines.append(
            f"skipped {len(skipped)} run(s) already in {results_dir}/runs/ "
            f"({', '.join(skipped)}); force=true recomputes"
        )
    return "\n".join(lines)
