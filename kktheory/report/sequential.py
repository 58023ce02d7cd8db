"""The sequential decision: more runs for undecided checks, with error control under optional stopping.

``python -m kktheory.reproduce NAME --decide [--budget-min B] [OVERRIDE ...]`` judges an
entry, and while a counted check is undecided with its estimate on the claim's side, adds
seeds to the entry's sweep — or to the part of it the overrides select (e.g.
``yin_table2/data=pendigits``: the checks waiting for runs are there) — and judges again,
always on all of the entry's rows. Deciding when to look again from the data inflates the error of a
fixed-level test; the looks therefore use the alpha-spending levels of
:func:`~kktheory.report.decide.look_level`: look j (the first included) tests at
α_j = α/(j(j + 1)), and Σ_j α_j = α bounds, by the union bound, the probability that any
look of any length of the sequence makes a false decision — whatever rule chose the looks.

The looks of an entry are recorded in ``paper_figs/rows/looks/<entry>.json`` (look, runs,
level, undecided checks, the seeds added before it) and printed in INDEX; a later redraw of the entry judges the rows
at its last look's seeds and level, so the committed verdict is the sequential one.

The next look's run count (:func:`next_runs`) is the largest "runs needed" among the
undecided checks on the claim's side (at the next look's level), at least 1.5 times and
at most ``growth`` = 2 times the current count (a look spends part of the level, so a look
for one more run is never worth it); a check whose estimate points against its
claim asks for none (more runs would only confirm the failure or never decide it).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from kktheory.report.verdicts import Check, Verdict
from kktheory.report.decide import look_level

GROWTH = 2.0  # a look adds at most this factor of runs
MIN_GROWTH = 1.5  # and at least this factor (each look spends part of the level)


@dataclass(frozen=True)
class Look:
    """One look of a sequential decision: its number, runs per setting, level, and what was
    still undecided after it."""

    look: int
    runs: int
    level: float
    undecided: int
    status: str
    when: str = ""
    part: list[str] = field(default_factory=list)  # overrides of the seeds added before this look


def waiting(verdict: Verdict) -> list[Check]:
    """Counted checks that more runs could decide: undecided, with a run count on the claim's side."""
    return [c for c in verdict.checks if c.counted and c.passed is None and c.runs_needed]


def next_runs(checks: Sequence[Check], have: int, look: int, growth: float = GROWTH) -> int | None:
    """Runs per setting for look ``look`` (the next one): the largest runs needed among
    ``checks`` (computed at the previous look's level), scaled to look ``look``'s level, at
    least ``have`` + 1 and at most ``growth``·``have`` (None when no check asks for more)."""
    needs = [c.runs_needed for c in checks if c.runs_needed]
    if not needs:
        return None
    scale = _level_factor(look_level(look - 1), look_level(look))
    target = max(math.ceil(n * scale) for n in needs)
    least = max(have + 1, math.ceil(MIN_GROWTH * have))  # a look spends level: never for a run or two
    return int(min(max(target, least), max(least, math.floor(growth * have))))


def _level_factor(now: float, then: float) -> float:
    """How many times more runs a stricter level needs at the same effect and spread
    ((z_then/z_now)², the normal approximation)."""
    from scipy import stats

    return float((stats.norm.ppf(0.5 + then / 2) / stats.norm.ppf(0.5 + now / 2)) ** 2)


def looks_path(folder: Path, name: str) -> Path:
    return folder / "looks" / f"{name}.json"


def read_looks(folder: Path, name: str) -> list[Look]:
    """The recorded looks of an entry (empty: never judged sequentially)."""
    path = looks_path(folder, name)
    if not path.exists():
        return []
    return [Look(**d) for d in json.loads(path.read_text())]


def write_looks(folder: Path, name: str, looks: Sequence[Look]) -> Path:
    path = looks_path(folder, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([asdict(x) for x in looks], indent=1) + "\n")
    return path


def looks_text(looks: Sequence[Look]) -> str:
    """INDEX's line: the design and every look."""
    if not looks:
        return ""
    parts = [f"look {x.look}" + (f" (added {' '.join(x.part)})" if x.part else "")
             + f": {x.runs} runs per setting at level {100 * x.level:.4g}% → {x.status}"
             + (f", {x.undecided} check(s) undecided" if x.undecided else "") for x in looks]
    return ("sequential decision (alpha spending α_j = 0.05/(j(j+1)) over looks, "
            "kktheory/report/sequential.py); " + "; ".join(parts))

