"""The papers' own numbers beside the observed ones (:class:`PaperNumber`, :func:`paper_table`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


from kktheory.report.decide import Estimate

@dataclass(frozen=True)
class PaperNumber:
    """A value a paper reports: what it is, the value, and where the paper gives it.

    ``key`` names the same quantity in the entry's ``observe(rows)`` (empty when nothing
    here measures it, e.g. a baseline the catalogue does not run). ``beside`` names other
    observed quantities to read the number against (e.g. the majority-class rate of the
    data beside an accuracy), shown in a last column under their keys' last part.
    """

    quantity: str
    value: float
    source: str  # table, figure or section of the paper
    key: str = ""
    beside: tuple[str, ...] = ()


def paper_table(numbers: Sequence[PaperNumber], observed: dict[str, Estimate]) -> str:
    """Markdown: the paper's numbers beside kktheory's (mean and 95 % CI), with the difference."""
    if not numbers:
        return ""
    extra = any(p.beside for p in numbers)
    lines = ["| quantity | paper | source | kktheory (95% CI) | kktheory − paper |" + (" beside it, here |" if extra else ""),
             "|---|---|---|---|---|" + ("---|" if extra else "")]
    for p in numbers:
        est = observed.get(p.key) if p.key else None
        if est is None or not math.isfinite(est.value):
            ours, diff = "not measured" if not p.key else "—", "—"
        else:
            ours, diff = est.text(), f"{est.value - p.value:+.3g}"
        line = f"| {p.quantity} | {p.value:g} | {p.source} | {ours} | {diff} |"
        if extra:
            found = [(k.rsplit("/", 1)[-1], observed[k]) for k in p.beside if k in observed]
            line += " " + (", ".join(f"{label} {e.value:.3g}" for label, e in found) or "—") + " |"
        lines.append(line)
    return "\n".join(lines)
