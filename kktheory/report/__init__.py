"""The report: every figure and table of the catalogue, drawn from stored rows and judged.

One module per paper holds its entries (figures, tables and claim rules); ``common``
holds what they share. An :class:`Entry` names the experiment config that feeds it
(``experiments/<name>.yaml``, and ``<name>_small.yaml`` for the small scale), how to draw
it and the rule that judges the paper's claim. ``python -m kktheory.reproduce`` runs the
missing rows, then calls :meth:`Entry.draw` and :meth:`Entry.judge`.
"""

from __future__ import annotations

from kktheory.report.entry import Entry, FigureData, SpeedClaim, TimingPlan


def catalogue() -> dict[str, Entry]:
    """Every entry, in catalogue order."""
    from kktheory.report import calandriello, pourkamali, theory, wang, yin

    entries = [
        *calandriello.ENTRIES, *yin.ENTRIES, *wang.ENTRIES, *pourkamali.ENTRIES,
        *theory.ENTRIES,
    ]
    return {e.name: e for e in entries}


__all__ = ["Entry", "FigureData", "SpeedClaim", "TimingPlan", "catalogue"]
