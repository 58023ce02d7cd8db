"""A sweep killed at a random moment loses nothing finished and resumes exactly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import numpy as np

from tests.conftest import ROOT, SWEEP, check_rerun_completes, check_whole, run_files


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
    check_whole(results, 300)  # every row present is whole, with its sidecar
    check_rerun_completes(results, {p.name for p in run_files(results)})
    assert len(list((results / "runs").glob("*.npz"))) == 12
