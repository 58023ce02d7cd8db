"""What an entry of the catalogue is: its figure data, its timing plan and the entry itself.

Kept apart from the entries (one module per paper) and from :mod:`kktheory.timing` (which
runs and judges a timing pass), so that both import these definitions and neither imports
the other.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from kktheory.report.claims import AT_MOST, Design, Margin, Rule
from kktheory.report.verdicts import CAUSE_SCALE, Verdict
from kktheory.report.paper_numbers import PaperNumber
from kktheory.report.decide import Estimate


@dataclass(frozen=True)
class SpeedClaim:
    """Every method of ``fast`` takes at most ``bound`` times the time of every method of
    ``slow`` (bound 1: faster), on the same data.

    Declared before the timing pass like every check (:attr:`rule`): the claim's shape is
    *at most* ``bound`` on the median over rounds of (slowest fast) / (fastest slow);
    ``why`` and ``source`` justify the bound; the power design draws per-round ratios
    log-normal around ``design_ratio`` with log-spread ``design_sd`` over ``design_rounds``
    rounds (``design_source`` says where they come from).
    """

    name: str
    fast: tuple[str, ...]
    slow: tuple[str, ...]
    bound: float = 1.0
    why: str = "faster means a ratio of times below 1"
    source: str = "the paper's words"
    design_ratio: float = 0.5
    design_sd: float = 0.2
    design_rounds: int = 10
    design_source: str = "planning value: twice as fast, 20 % round-to-round spread"
    control: bool = False  # shown beside the claims to locate an effect (e.g. at equal m), not counted
    #: where ours differs from what the paper timed (a baseline run without a cost the paper
    #: states for it): a failure is then caused by our reading, not the claim's, and says why
    reading: str = ""

    @property
    def rule(self) -> Rule:
        return Rule(self.name, "median over timed rounds of (slowest of the fast methods) / (fastest of the "
                    "slow ones), methods alternated in one process", AT_MOST,
                    Margin(self.bound, self.why, self.source),
                    Design("median", self.design_ratio, self.bound, (self.design_sd,), self.design_rounds,
                           self.design_source),
                    selection="a dedicated timing pass at the paper's n, never sweep rows", control=self.control)


@dataclass(frozen=True)
class TimingPlan:
    """Which jobs of an entry's sweep a timing pass compares, and the claims it judges.

    ``method_key`` is the config group that selects the method (its options ``methods``,
    timed in this order); ``fix`` the overrides that pick one point of the rest of the
    sweep; ``group`` a config key (e.g. ``dataset.name``) whose values are timed and
    judged apart ('' for one group); ``labels`` the paper's names of the methods.
    """

    method_key: str
    methods: tuple[str, ...]
    claims: tuple[SpeedClaim, ...]
    fix: tuple[str, ...] = ()
    group: str = ""
    cutoff_s: float = math.inf
    labels: Mapping[str, str] = field(default_factory=dict)

    def label(self, method: str) -> str:
        return self.labels.get(method, method)


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
    attributed to it, never to the paper (:func:`~kktheory.report.verdicts.attribute_shortfall`).
    ``paper_numbers`` are the values the paper reports, and ``observe(rows)`` the same
    quantities measured here (by key), shown side by side in INDEX.md.
    Drawing and judging only read: every number comes from the rows. ``figure_data``, when
    given, is what a figure plots beyond the rows (e.g. the points of a scatter), a table
    built from a few runs' stored arrays (:class:`FigureData`); ``python -m kktheory.reproduce``
    hands it to ``draw`` as ``rows.attrs["figure"]`` and commits it beside the rows; an
    entry with a ``timing`` plan finds its timing pass (or None) in ``rows.attrs["timing"]``.
    ``timing``, for an entry with a speed claim, says which methods a timing pass compares
    and the claims judged on it (:mod:`kktheory.timing`); speed is never judged from the
    times of sweep rows. ``extra_sweeps`` names further experiment configs whose jobs belong
    to the entry at paper scale, for a job outside the main sweep's grid (e.g. a single run
    at a much larger n); they run when the entry is reproduced without overrides.
    ``rules`` are the entry's checks declared before the data
    (:class:`~kktheory.report.claims.Rule`: shape, margin with its justification and source,
    selections, power design); ``judge(rows, level)`` applies them and nothing else — every
    check it returns carries one of them (tests/test_rule_power.py). ``level`` is the
    confidence level of the look (:func:`~kktheory.report.decide.look_level` under a
    sequential decision, 0.95 otherwise). ``setting(rows)``, the setting check, says before
    any claim whether the baselines behave as the paper reports ("setting matches: …",
    "setting differs: …", with the numbers, the tolerance and what was tried, or "no setting
    check possible: …" where the paper prints no absolute number to compare).
    ``sweep`` names the experiment config when it is not the entry's name (two entries
    judging one sweep, one paper each). ``label`` says in a few words, per scale, what the
    data and n are against the paper's (e.g. "MNIST 60k for MNIST8M"), and ``paper_runs``
    the paper's run count: INDEX's overview prints both beside the runs in the rows.
    ``place`` orders the catalogue (INDEX.md, ``--list``). ``benchmark(record)`` renders the
    entry's benchmark passes (:mod:`kktheory.report.benchmark`: the paper's own experiment
    timed on this machine by a script of ``benchmarks/``, shown beside the paper's times and
    never judged) as Markdown for its INDEX section.
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
    rules: tuple[Rule, ...] = ()
    setting: Callable[[pd.DataFrame], str] | None = None
    sweep: str = ""
    label: dict[str, str] = field(default_factory=dict)
    paper_runs: int | None = None
    #: where the entry stands in the catalogue: (its paper's place — 1 Calandriello & Rosasco,
    #: 2 Yin et al., 3 Wang et al., 4 Pourkamali-Anaraki & Becker, 5 the theory rates —, its
    #: place among its paper's entries, in the paper's own order)
    place: tuple[int, int] = (0, 0)
    benchmark: Callable[[pd.DataFrame], str] | None = None
    #: the sweeps of other entries whose committed rows the judge reads beside its own (e.g. wang_fig3
    #: reads wang_fig4_5's two-step rows, the regime's one printed number): ``judge(rows, level,
    #: context)`` then receives them as {sweep: rows, or None without a file}
    context: tuple[str, ...] = ()
    #: the rules, written in the judge's code rather than in a declared Rule, that attribute a
    #: decision to a cause (a pass or failure against a baseline unlike the paper's held in our
    #: setting only, …), each dated: a change of them is a new look (``Look.attribution``)
    attribution: tuple[str, ...] = ()

    @property
    def sweep_name(self) -> str:
        """The experiment config (and committed rows file) of the entry: ``sweep`` when
        several entries judge one sweep (each judging one paper), else the entry's name."""
        return self.sweep or self.name
