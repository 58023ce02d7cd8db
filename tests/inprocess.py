"""Run ``python run.py <args>`` inside the test process (not collected).

:func:`run_inprocess` calls what ``run.py`` calls — :func:`kktheory.cli.run_main` around a
Hydra main over ``configs/`` whose body is :func:`kktheory.cli.run_job` — with
``sys.argv`` set, and returns the exit status and what was printed, so that many bad
inputs can be checked without paying the interpreter start-up each time.
``tests/test_bad_input.py`` checks that it gives the same status and message as a
subprocess of run.py.
"""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import hydra
from omegaconf import DictConfig

from kktheory.cli import DEFAULT_GROUPS, run_job, run_main
from kktheory.run.sweeps import CONFIG_DIR
from tests.conftest import ROOT


@hydra.main(version_base="1.3", config_path=str(CONFIG_DIR), config_name="config")
def main(cfg: DictConfig) -> None:
    """run.py's main, with the config folder given as an absolute path."""
    run_job(cfg)


@dataclass
class Result:
    """Exit status and captured output of one in-process run."""

    returncode: int
    stdout: str
    stderr: str


def run_inprocess(*args: str, results_dir: Path) -> Result:
    """``python run.py <args> results_dir=<results_dir>`` in this process."""
    argv, out, err = sys.argv, io.StringIO(), io.StringIO()
    sys.argv = [str(ROOT / "run.py"), *args, f"results_dir={results_dir}"]
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = run_main(main, DEFAULT_GROUPS)
    finally:
        sys.argv = argv
    return Result(code, out.getvalue(), err.getvalue())
