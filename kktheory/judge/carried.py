"""Which of a claim's columns the sweep's rows will hold, read from the row schema's own words.

A documented column may be absent from a row, and the schema says when (:mod:`kktheory.run.schema`,
a column's "empty when" text in ``docs/schema.md``): "absent unless sketch=onepass", "absent unless
the sketch is rank-restricted (kpca, nystrom_rr, power, onepass)", "absent unless
population.test_n > 0", … A claim over such a column — its ``x``, ``y``, ``by``, a filter's
column, the bound's column or a column of its expression — that its rows will not hold is a
:class:`~kktheory.judge.claimfile.ClaimError`: one line naming the field, the column, the schema's
words and, where those words name them, the overrides that make the sweep write it; exit status 2,
nothing written. It is refused

- before the sweep runs (:func:`check_jobs`) when the words name a config key and what writes the
  column — ``KEY=VALUE``, ``KEY is [one of] A, B or C``, ``the KEY is … (A, B, C)``, ``KEY includes
  A``, ``KEY > 0``, ``KEY is set`` — and no job of the sweep that the claim's filter keeps has it;
- else once the rows are read, before anything is drawn or written (:func:`check_rows`): a column
  of which no finished run holds a value (rows read together hold NaN where a row lacks a column).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pandas as pd

from kktheory.judge.claimfile import Claim, ClaimError

UNLESS = "absent unless "
_LIST = r"\w+(?:, \w+)*(?: or \w+)?"  # a, b or c


@dataclass(frozen=True)
class Absence:
    """The schema's words on when a column is empty, and the config key, the test of a job's
    value of it and the overrides that those words name (``key`` empty: they name none)."""

    words: str
    key: str = ""
    test: Callable[[Any], bool] = field(default=bool, compare=False, repr=False)
    overrides: tuple[str, ...] = ()

    @property
    def clause(self) -> str:
        """The words on the column's absence (before those on its empty values)."""
        return self.words.split(";")[0]

    def writes(self, setup: Mapping[str, Any]) -> bool | None:
        """Whether a job of this resolved config (flattened, ``PlannedJob.setup``) writes the
        column; None when its config does not tell (no key, or one the config does not hold)."""
        key = next((k for k in (self.key, f"{self.key}.name") if self.key and k in setup), None)
        return None if key is None else self.test(setup[key])


@cache
def _schema() -> dict[str, Any]:
    from kktheory.run import schema

    return schema.columns()


def _items(value: Any) -> list[str]:
    """The items of a list field as a flattened config holds it (``"['jl', 'gamma']"``)."""
    return re.findall(r"[\w.]+", str(value))


def _positive(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0


def _one_of(values: Sequence[str]) -> Callable[[Any], bool]:
    allowed = {v.lower() for v in values}
    return lambda value: str(value).lower() in allowed


def _includes(item: str) -> Callable[[Any], bool]:
    return lambda value: item in _items(value)


def _condition(words: str) -> tuple[str, Callable[[Any], bool], tuple[str, ...]] | None:
    """(key, test of a job's value of it, overrides) named by the words after "absent unless",
    or None when they name no key (e.g. "the reference is exact")."""
    if m := re.fullmatch(r"([\w.]+) is set", words):
        return m[1], lambda value: bool(_items(value)), ()
    if m := re.fullmatch(r"([\w.]+) > 0", words):
        return m[1], _positive, ()
    if m := re.fullmatch(r"([\w.]+) includes (\w+)", words):
        return m[1], _includes(m[2]), (f"{m[1]}=[{m[2]}]",)
    if m := (re.match(r"([\w.]+)=(\w+)\b", words) or re.fullmatch(rf"([\w.]+) is (?:one of )?({_LIST})", words)
             or re.fullmatch(rf"the (\w+) is [^(]*\(({_LIST})\)", words)):
        values = re.split(r", | or ", m[2])
        return m[1], _one_of(values), tuple(f"{m[1]}={v}" for v in values)
    return None


def absence(column: str) -> Absence:
    """What the schema says of the column's absence ("as X" followed to X's words); the key its
    words name counts where it is a config field (not e.g. ``rls_method``, a result)."""
    from kktheory.run.identity import RUN_FIELDS

    columns = _schema()
    words = columns[column].empty
    while words.startswith("as ") and words[3:] in columns:
        words = columns[words[3:]].empty
    clause = words.split(";")[0]
    condition = _condition(clause.removeprefix(UNLESS)) if clause.startswith(UNLESS) else None
    if condition is None or condition[0].split(".")[0] not in RUN_FIELDS:
        return Absence(words)
    return Absence(words, *condition)


def not_written(field_name: str, column: str, where: str, words: str, overrides: Sequence[str]) -> ClaimError:
    """The one line refusing a claim over a column its rows will not hold."""
    fix = (f"; the sweep writes it with {'the override' if len(overrides) == 1 else 'one of the overrides'} "
           f"{', '.join(overrides)}" if overrides else "")
    return ClaimError(field_name, column, f"a column the claim's rows hold, but {where} (docs/schema.md: {words}){fix}")


def check_jobs(claim: Claim, setups: Sequence[Mapping[str, Any]]) -> None:
    """Refuse a claim column that no job of the sweep writes, as far as the schema's words and
    the jobs' configs (``setups``: those the claim's filter keeps) tell."""
    for column, field_name in claim.fields.items():
        a = absence(column)
        if setups and all(a.writes(s) is False for s in setups):
            raise not_written(field_name, column, "no job of its sweep writes it", a.clause, a.overrides)


def check_rows(claim: Claim, rows: pd.DataFrame) -> None:
    """Refuse a claim column of which none of ``rows`` (finished runs, at least one) holds a value."""
    for column, field_name in claim.fields.items():
        if column not in rows or rows[column].isna().all():
            a = absence(column)
            raise not_written(field_name, column, "no finished run of its sweep holds a value of it", a.words,
                              a.overrides)
