"""The committed paper_figs/INDEX.md read as a referee reads it: every check line's mark
against the interval and claim it prints.

A check line is "    [control |sanity ]MARK name: est [lo, hi] (xx% CI), claim …", MARK one of
✓ ✗ ?, or, for an undecided check no run decides, "not decidable on this machine: … —" or
"no number of runs decides it for the paper: … —" before the name. The claim is "≤ b",
"≥ b", "in [a, b]", or a rise / fall "> b, fails below d" / "< b, fails above d". A ✓ must
be decided as a pass by its printed interval, a ✗ as a failure, and a "?" by neither (a
failure Holm's correction set aside says so and is exempt); the estimate lies in its
interval. The printed ends are rounded; the report keeps them off a boundary they do not
reach (``Decision.digits``), so the comparisons are exact.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

INDEX = Path(__file__).resolve().parents[1] / "paper_figs" / "INDEX.md"
NUM = r"-?[\d.]+(?:e[-+]?\d+)?"
LINE = re.compile(r"^    (?:control |sanity )?(✓|✗|\?|not decidable on this machine: .*? —|"
                  r"no number of runs decides it for the paper: .*? —) (.*)$")
INTERVAL = re.compile(rf"({NUM}) \[({NUM}), ({NUM})\] \(([\d.]+)% CI\), claim (≤|≥|<|>|in) ?"
                      rf"(\[{NUM}, {NUM}\]|{NUM})(?:, fails (below|above) ({NUM}))?")
SET_ASIDE = "Holm"  # a failure that does not survive the family's correction is undecided and says so


def _lines() -> list[tuple[str, str, str]]:
    """(entry, mark: ✓ ✗ ?, text) of every check line of INDEX.md with a printed interval."""
    out, entry = [], ""
    for line in INDEX.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            entry = line[3:].strip()
        elif (m := LINE.match(line)) and INTERVAL.search(m.group(2)):
            mark = m.group(1) if m.group(1) in ("✓", "✗") else "?"
            out.append((entry, mark, m.group(2)))
    return out


def decides(text: str) -> tuple[bool, bool, bool]:
    """(the printed interval decides a pass, decides a failure, the estimate lies inside it)."""
    m = INTERVAL.search(text)
    est, lo, hi = float(m.group(1)), float(m.group(2)), float(m.group(3))
    op, bound = m.group(5), m.group(6)
    if op == "in":
        a, b = (float(x) for x in bound.strip("[]").split(", "))
        passed, failed = a <= lo and hi <= b, hi < a or lo > b
    elif m.group(7):  # a rise (> b, fails below d) or a fall (< b, fails above d)
        b, d = float(bound), float(m.group(8))
        passed, failed = (lo > b, hi < d) if op == ">" else (hi < b, lo > d)
    elif op in ("≤", "<"):
        passed, failed = hi <= float(bound), lo > float(bound)
    else:
        passed, failed = lo >= float(bound), hi < float(bound)
    return passed, failed, lo <= est <= hi


LINES = _lines()


def test_the_index_has_check_lines_of_every_mark():
    marks = {mark for _, mark, _ in LINES}
    assert len(LINES) > 100 and marks == {"✓", "✗", "?"}


@pytest.mark.parametrize("entry, mark, text", LINES, ids=[f"{e}:{t[:40]}" for e, _, t in LINES])
def test_each_mark_is_what_its_printed_interval_decides(entry, mark, text):
    passed, failed, inside = decides(text)
    assert inside, text
    if mark == "✓":
        assert passed and not failed, text
    elif mark == "✗":
        assert failed and not passed, text
    else:
        assert not passed and (not failed or SET_ASIDE in text), text


def test_the_parser_reads_each_claim_shape():
    """The parser on lines written here: it must tell each shape's pass, failure and neither."""
    assert decides("0.0488 [0.0398, 0.0577] (99.75% CI), claim in [-0.0952, 0.0952]") == (True, False, True)
    assert decides("0.183 [0.176, 0.19] (99.75% CI), claim > 0, fails below 0.01") == (True, False, True)
    assert decides("0.00171 [-0.00554, 0.00897] (99.95% CI), claim > 0, fails below 0.01") == (False, True, True)
    assert decides("-0.752 [-1.38, -0.119] (99.88% CI), claim < 0, fails above -0.288") == (True, False, True)
    assert decides("-0.4 [-0.75, -0.0578] (99.99% CI), claim ≤ -0.4") == (False, False, True)
    assert decides("0 [0, 0.0578] (99.99% CI), claim ≥ 0.9") == (False, True, True)
    assert decides("0.904 [0.808, 0.9997] (99.94% CI), claim ≤ 1") == (True, False, True)
