"""The README's Usage examples run, and no row they write has an unexplained empty column.

Each ``python run.py …`` line of the README's first Usage block is run in this process
(:mod:`tests.inprocess`) at a tiny size: ``n`` is set to 300 (replacing the example's own
n) and ``n_test`` to 200; everything else is the example's. ``--cfg`` lines only print.
"""

from __future__ import annotations

import re
import shlex

import pytest

from kktheory.run.store import load
from tests.conftest import ROOT
from tests.inprocess import run_inprocess


def usage_commands() -> list[list[str]]:
    """The arguments of every ``python run.py`` line in the README's first Usage block."""
    text = (ROOT / "README.md").read_text()
    block = text.split("## Usage", 1)[1].split("\n\n", 2)[1]
    commands = []
    for line in block.splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("python run.py"):
            commands.append(shlex.split(line)[2:])
    return commands


def tiny(args: list[str]) -> list[str]:
    return [a for a in args if not re.match(r"^(n|n_test)=", a)] + ["n=300", "n_test=200"]


def test_the_usage_block_is_found():
    commands = usage_commands()
    assert len(commands) >= 5 and ["sketch=nystrom", "m=sqrt_n"] in commands, commands


@pytest.mark.parametrize("args", usage_commands(), ids=" ".join)
def test_usage_example_runs_and_explains_every_empty_column(args, tmp_path):
    result = run_inprocess(*tiny(args), results_dir=tmp_path)
    assert result.returncode == 0, result.stderr
    if "--cfg" in args or "--help" in args:  # they print, and write no store
        assert not (tmp_path / "runs").exists()
        return
    rows = load(tmp_path)
    assert len(rows) >= 1
    for reason in rows["nan_reason"]:
        assert "unexplained" not in reason, reason
