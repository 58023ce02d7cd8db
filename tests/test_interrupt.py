"""A sweep killed at a random moment loses nothing finished and resumes exactly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd

from kktheory.store import load
from tests.conftest import ROOT, run_cli, run_files

SWEEP = ("-m", "n=300", "n_test=100", "k=3", "m=[8,16,32]", "seed=0,1,2,3")


def test_sigkill_then_rerun_completes_exactly_the_missing_runs(tmp_path):
    results = tmp_path / "results"
    delay = np.random.default_rng(7).uniform(2.0, 6.0)  # a random point of the sweep
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "run.py"), *SWEEP, f"results_dir={results}"],
        cwd=ROOT, env=dict(os.environ, KKTHEORY_PROGRESS="0"),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    time.sleep(delay)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    done_before = {p.name for p in run_files(results)}
    for p in run_files(results):  # every row present is whole, with its sidecar
        assert len(pd.read_parquet(p)) == 1
        assert np.load(p.with_suffix(".npz"))["train_labels"].shape == (300,)
    rerun = run_cli(*SWEEP, results_dir=results)
    assert rerun.returncode == 0, rerun.stderr
    rows = load(results)
    assert len(rows) == 12 and rows.run_id.is_unique
    assert sorted(zip(rows.seed, rows.m)) == sorted((s, m) for s in range(4) for m in (8, 16, 32))
    assert done_before <= {p.name for p in run_files(results)}
    assert not list((results / "runs").glob(".*.tmp"))
    assert len(list((results / "runs").glob("*.npz"))) == 12
