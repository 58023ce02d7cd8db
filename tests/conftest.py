"""Shared fixtures: run the CLI in a subprocess against a temporary results folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from kktheory.run.store import load

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


#: a 12-run sweep (4 seeds × 3 m) used by the interruption tests
SWEEP = ("-m", "n=300", "n_test=100", "k=3", "m=[8,16,32]", "seed=0,1,2,3")


def check_whole(results: Path, n_train: int) -> None:
    """Every row file holds one readable row with its sidecar; no temporary file is left."""
    for p in run_files(results):
        assert len(pd.read_parquet(p)) == 1
        assert np.load(p.with_suffix(".npz"))["train_labels"].shape == (n_train,)
    assert not list((results / "runs").glob(".*.tmp"))


def check_rerun_completes(results: Path, done: set[str]) -> None:
    """Rerunning :data:`SWEEP` after an interruption adds exactly the missing rows: 12 unique
    runs, every (seed, m) once, the files written before kept, all of them whole."""
    rerun = run_cli(*SWEEP, results_dir=results)
    assert rerun.returncode == 0, rerun.stderr
    rows = load(results)
    assert len(rows) == 12 and rows.run_id.is_unique
    assert sorted(zip(rows.seed, rows.m)) == sorted((s, m) for s in range(4) for m in (8, 16, 32))
    assert done <= {p.name for p in run_files(results)}
    check_whole(results, 300)


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
