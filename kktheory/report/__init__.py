"""The report: every figure and table of the catalogue, drawn from stored rows and judged.

One module per entry in :mod:`kktheory.report.entries` (figures, tables and the checks
that judge the paper's claim), named as the experiment config that feeds it
(``experiments/<name>.yaml``, and ``<name>_small.yaml`` for the small scale); what a paper's
entries share is in the paper's module here (``calandriello``, ``yin``, ``wang``,
``pourkamali``, ``theory``); verdicts, statistics, row filters, plot style and the INDEX
renderer are modules of their own. ``python -m kktheory.reproduce`` runs the
missing rows, then calls :meth:`Entry.draw` and :meth:`Entry.judge`.
"""

from __future__ import annotations

import importlib
import pkgutil

from kktheory.report import entries as entries_package
from kktheory.report.entry import Entry, FigureData, SpeedClaim, TimingPlan


def catalogue() -> dict[str, Entry]:
    """Every entry of :mod:`kktheory.report.entries` (the one :class:`Entry` each module
    defines), in catalogue order (``Entry.place``)."""
    entries = []
    for info in pkgutil.iter_modules(entries_package.__path__):
        module = importlib.import_module(f"{entries_package.__name__}.{info.name}")
        found = [v for v in vars(module).values() if isinstance(v, Entry)]
        if len(found) != 1:
            raise RuntimeError(f"{module.__name__} defines {len(found)} catalogue entries, not one")
        entries.append(found[0])
    return {e.name: e for e in sorted(entries, key=lambda e: e.place)}


__all__ = ["Entry", "FigureData", "SpeedClaim", "TimingPlan", "catalogue"]
