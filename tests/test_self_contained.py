"""The repository documents itself: no tracked text file holds an absolute path of a
machine (home folders, this project's work folders, drive letters) or cites a document
that a clone does not have."""

from __future__ import annotations

import re
import subprocess

import pytest

from tests.conftest import ROOT

MACHINE_PATH = re.compile(r"(?<![\w.~])(/home/\w|/root/|/Users/\w|/work/|/mnt/\w|[A-Z]:\\\w)")
OUTSIDE_DOC = re.compile(r"DESIGN\.md|shared folder|\.\./shared/(?!datasets)")


def tracked_text_files() -> list[str]:
    try:
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    files = []
    for name in out.splitlines():
        data = (ROOT / name).read_bytes() if (ROOT / name).is_file() else b""
        if b"\0" not in data[:8192]:
            files.append(name)
    return files


def offending(pattern: re.Pattern[str]) -> list[str]:
    hits = []
    for name in tracked_text_files():
        for i, line in enumerate((ROOT / name).read_text(errors="replace").splitlines(), 1):
            if pattern.search(line) and name != "tests/test_self_contained.py":
                hits.append(f"{name}:{i}: {line.strip()[:120]}")
    return hits


def test_no_machine_path_in_a_tracked_file():
    assert offending(MACHINE_PATH) == []


def test_no_citation_of_a_document_outside_the_repository():
    assert offending(OUTSIDE_DOC) == []


@pytest.mark.parametrize("line", ["see /home/alice/data", "C:\\Users\\x", "/root/.cache", "in /work/main/x"])
def test_the_path_pattern_catches_machine_paths(line):
    assert MACHINE_PATH.search(line)


@pytest.mark.parametrize("line", ["~/.cache/kktheory", "results/runs/x.parquet", "../shared/datasets", "tcp://HOST:8786"])
def test_the_path_pattern_leaves_relative_paths(line):
    assert not MACHINE_PATH.search(line)


def test_no_machine_path_in_a_committed_parquet_file():
    """The string columns of every tracked Parquet file (rows, timing passes, figure
    tables) hold no machine path — e.g. a results_dir in a stored config."""
    import pandas as pd

    out = subprocess.run(["git", "ls-files", "*.parquet"], cwd=ROOT, capture_output=True, text=True).stdout
    hits = []
    for name in out.splitlines():
        df = pd.read_parquet(ROOT / name)
        for col in df.columns:
            if df[col].dtype.kind in "OUST" or str(df[col].dtype) in ("str", "string"):
                text = df[col].dropna().astype(str)
                bad = text[text.map(lambda s: bool(MACHINE_PATH.search(s)))]
                if len(bad):
                    hits.append(f"{name} [{col}]: {bad.iloc[0][:80]!r}")
    assert hits == []
