"""Shared fixtures: run the CLI in a subprocess against a temporary results folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_cli(*args: str, results_dir: Path, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """python run.py <args> results_dir=<tmp>; returns the completed process."""
    env = dict(os.environ, KKTHEORY_PROGRESS="0")
    return subprocess.run(
        [sys.executable, str(ROOT / "run.py"), *args, f"results_dir={results_dir}"],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=600,
    )


def run_files(results_dir: Path) -> list[Path]:
    """Finished run files (rows) in a results folder."""
    runs = results_dir / "runs"
    return sorted(runs.glob("*.parquet")) if runs.exists() else []


@pytest.fixture
def cli(tmp_path):
    """Call as cli('n=200', 'm=10') → CompletedProcess; cli.results is the folder."""

    def call(*args: str) -> subprocess.CompletedProcess:
        return run_cli(*args, results_dir=tmp_path / "results")

    call.results = tmp_path / "results"
    return call


@pytest.fixture(autouse=True, scope="session")
def table_cache(tmp_path_factory):
    """The session's parsed-table cache (kktheory.datasets.table_cache) in a temporary
    folder instead of ~/.cache/kktheory; subprocesses inherit it."""
    patch = pytest.MonkeyPatch()
    patch.setenv("KKTHEORY_CACHE", str(tmp_path_factory.mktemp("kktheory-cache")))
    yield
    patch.undo()
