"""The report: every figure and table of the catalogue, drawn from stored rows and judged.

One module per paper holds its entries (figures, tables and claim rules); ``common``
holds what they share. An :class:`Entry` names the experiment config that feeds it
(``experiments/<name>.yaml``, and ``<name>_small.yaml`` for the small scale), how to draw
it and the rule that judges the paper's claim. ``python -m kktheory.reproduce`` runs the
missing rows, then calls :meth:`Entry.draw` and :meth:`Entry.judge`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from kktheory.report.common import CAUSE_SCALE, PaperNumber, Verdict
from kktheory.report.decide import Estimate

if TYPE_CHECKING:
    from kktheory.timing import TimingPlan


@dataclass(frozen=True)
class FigureData:
    """What a figure plots beyond the rows, as a table with a ``run_id`` column.

    ``runs(rows)`` names the runs whose stored arrays the figure reads, and
    ``table(arrays)`` builds the plotted values from those arrays
    ({run_id: {name: array}}, the runs whose arrays the store holds). The table, not the
    arrays, is what is committed with an entry's rows: the values drawn and nothing else.
    """

    runs: Callable[[pd.DataFrame], list[str]]
    table: Callable[[dict[str, dict[str, np.ndarray]]], pd.DataFrame]


@dataclass(frozen=True)
class Entry:
    """A figure or table of the catalogue.

    ``draw(rows, out_dir)`` writes the files (PNG and PDF, or Markdown and LaTeX) and
    returns their paths; ``judge(rows)`` is the claim rule, a pure function of the rows.
    ``changes`` says, per scale, what differs from the paper's setup, and ``shortfall``
    which cause that difference is (*scale* or *stand-in data*; a scale absent from it
    runs the paper's own data at the paper's own size): a check failing there is
    attributed to it, never to the paper (:func:`~kktheory.report.common.attribute_shortfall`).
    ``paper_numbers`` are the values the paper reports, and ``observe(rows)`` the same
    quantities measured here (by key), shown side by side in INDEX.md.
    Drawing and judging only read: every number comes from the rows. ``figure_data``, when
    given, is what a figure plots beyond the rows (e.g. the points of a scatter), a table
    built from a few runs' stored arrays (:class:`FigureData`); ``python -m kktheory.reproduce``
    hands it to ``draw`` as ``rows.attrs["figure"]`` and commits it beside the rows.
    ``timing``, for an entry with a speed claim, says which methods a timing pass compares
    and the claims judged on it (:mod:`kktheory.timing`); speed is never judged from the
    times of sweep rows. ``extra_sweeps`` names further experiment configs whose jobs belong
    to the entry at paper scale, for a job outside the main sweep's grid (e.g. a single run
    at a much larger n); they run when the entry is reproduced without overrides.
    """

    name: str
    title: str
    claim: str
    rule: str
    draw: Callable[[pd.DataFrame, Path], list[Path]]
    judge: Callable[[pd.DataFrame], Verdict]
    changes: dict[str, str] = field(default_factory=dict)
    shortfall: dict[str, str] = field(default_factory=lambda: {"small": CAUSE_SCALE})
    paper_numbers: tuple[PaperNumber, ...] = ()
    observe: Callable[[pd.DataFrame], dict[str, Estimate]] | None = None
    figure_data: FigureData | None = None
    timing: TimingPlan | None = None
    extra_sweeps: tuple[str, ...] = ()


def catalogue() -> dict[str, Entry]:
    """Every entry, in catalogue order."""
    from kktheory.report import calandriello, pourkamali, theory, wang, yin

    entries = [
        *calandriello.ENTRIES, *yin.ENTRIES, *wang.ENTRIES, *pourkamali.ENTRIES,
        *theory.ENTRIES,
    ]
    return {e.name: e for e in entries}


__all__ = ["Entry", "FigureData", "catalogue"]
