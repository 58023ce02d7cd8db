"""Progress bars: on stderr only when it is a terminal, unless KKTHEORY_PROGRESS says otherwise."""

from __future__ import annotations

import io
import sys

import pytest

from kktheory.machine import progress as pg


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    "switch, stream, shown",
    [(None, io.StringIO, False), (None, Terminal, True), ("0", Terminal, False), ("1", io.StringIO, True)],
    ids=["log-file", "terminal", "off", "forced"],
)
def test_bars_follow_stderr_and_the_switch(monkeypatch, switch, stream, shown) -> None:
    err = stream()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(pg, "DELAY", 0.0)  # draw at once instead of after 2 s
    if switch is None:
        monkeypatch.delenv(pg.SWITCH, raising=False)
    else:
        monkeypatch.setenv(pg.SWITCH, switch)
    assert list(pg.progress(range(5), desc="blocks", total=5)) == list(range(5))
    assert pg.bars_enabled() is shown
    assert ("blocks" in err.getvalue()) is shown
