"""Hydra launchers: parallel local sweeps (joblib) write every row once; the SLURM
configs compose; submitit runs a job in a fresh process (submitit_local, slow)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from kktheory.run.store import load
from tests.conftest import ROOT, run_cli, run_files

pytest.importorskip("hydra_plugins.hydra_joblib_launcher")


def test_joblib_sweep_writes_every_row_once(tmp_path) -> None:
    """The README sweep (6 jobs × 3 nested m) in parallel: 18 rows, no duplicate, no loss."""
    results = tmp_path / "results"
    proc = run_cli(
        "-m", "hydra/launcher=joblib", "sketch=nystrom,ros", "m=[16,32,64]", "seed=0,1,2",
        "n=400", "n_test=200", results_dir=results,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert re.search(r"Joblib\.Parallel\(n_jobs=-1,backend=loky.* is launching 6 jobs", proc.stdout + proc.stderr)
    rows = load(results)
    assert len(rows) == 18 == len(run_files(results))
    assert rows.run_id.is_unique
    assert rows.groupby(["sketch.name", "m", "seed"]).size().eq(1).all()
    assert set(rows["sketch.name"]) == {"nystrom", "ros"} and set(rows.m) == {16, 32, 64}
    assert not list((results / "runs").glob(".*.tmp"))  # atomic writes left no temporary
    summaries = [line for line in proc.stdout.splitlines() if "row(s) written" in line]
    assert sorted(line.split(":")[0] for line in summaries) == [f"job {i}" for i in range(6)]  # whose is whose


def test_loky_limits_blas_threads_per_worker() -> None:
    """What the joblib launcher relies on: loky workers get cpu_count // n_jobs threads."""
    from joblib import Parallel, cpu_count, delayed
    from threadpoolctl import threadpool_info

    def threads() -> list[int]:
        return [pool["num_threads"] for pool in threadpool_info()]

    n_jobs = 2
    per_worker = Parallel(n_jobs=n_jobs, backend="loky")(delayed(threads)() for _ in range(n_jobs))
    expected = max(1, cpu_count() // n_jobs)
    assert all(t and max(t) <= expected for t in per_worker), per_worker


@pytest.mark.parametrize("launcher", ["submitit_slurm", "slurm"])
def test_slurm_launcher_composes(tmp_path, launcher: str) -> None:
    pytest.importorskip("hydra_plugins.hydra_submitit_launcher")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "run.py"), f"hydra/launcher={launcher}", f"results_dir={tmp_path}",
         "--cfg", "hydra"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "_target_: hydra_plugins.hydra_submitit_launcher.submitit_launcher.SlurmLauncher" in out
    if launcher == "slurm":  # kktheory's defaults over the plugin's
        for line in ("timeout_min: 240", "cpus_per_task: 4", "mem_gb: 16", "name: kktheory", "array_parallelism: 64"):
            assert line in out, line
    else:  # the plugin's own defaults are untouched
        assert "timeout_min: 60" in out and "cpus_per_task: null" in out
    assert not run_files(tmp_path)


@pytest.mark.slow
def test_submitit_local_runs_jobs(tmp_path) -> None:
    """submitit pickles the job and runs it in a fresh process, as on SLURM."""
    pytest.importorskip("hydra_plugins.hydra_submitit_launcher")
    results = tmp_path / "results"
    proc = run_cli("-m", "hydra/launcher=submitit_local", "n=200", "n_test=100", "k=3", "m=[8,16]",
                   "seed=0,1", results_dir=results)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = load(results)
    assert len(rows) == 4 and rows.run_id.is_unique
    # one submitit job (own process, own job id) per multirun job, each with its result
    assert len(list(results.glob("multirun/*/*/.submitit/*/*_0_result.pkl"))) == 2
