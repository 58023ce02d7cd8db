"""The new sketches and comparators through the runner: one full row per m, nested m lists
equal to single runs, failures recorded in the row, and the one-line refusal of ROS with
the Hadamard transform for an m that is not a power of two."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kktheory.run.experiment import run
from kktheory.run.store import Store
from tests.hydra_cfg import make_cfg

ROOT = Path(__file__).resolve().parent.parent
SMALL = ["n=160", "n_test=80", "k=4", "clustering.n_init=2"]


def run_cfg(tmp_path: Path, *overrides: str):
    return run(make_cfg(*SMALL, f"results_dir={tmp_path}", *overrides))


METHODS = [
    ("yin_nystrom", [], 13, None),
    ("subgaussian", [], 13, "subgaussian_nnz"),
    ("ros", ["sketch.transform=hadamard"], 16, None),
    ("ros", ["sketch.order=mix_first"], 13, None),
    ("gaussian", [], 13, None),
    ("onepass", [], 13, "n_clipped_eigs"),
    ("rff", ["sketch.s=k"], 13, "rff_s"),
    ("two_step", [], 13, "n_empty_reseeds"),
    ("approx_kkm", [], 13, "n_iter"),
    ("spectral_nystrom", [], 13, "spectral_failed"),
]


@pytest.mark.parametrize("name,extra,m,column", METHODS)
def test_each_method_writes_a_full_row(tmp_path, name, extra, m, column):
    out = run_cfg(tmp_path, f"sketch={name}", f"m={m}", *extra)
    assert len(out.rows) == 1
    row = out.rows[0]
    assert row["sketch.name"] == name and row["m"] == m and row["m_used"] == m
    for col in ("train_risk", "objective", "test_risk", "train_nmi", "test_nmi", "test_accuracy"):
        assert row[col] == row[col], col  # not NaN
    if column is not None:
        assert column in row
    df = Store(tmp_path).load()
    assert len(df) == 1 and df.loc[0, "run_id"] == row["run_id"]


@pytest.mark.parametrize("name,extra,ms", [
    ("subgaussian", ["sketch.p=0.3"], [8, 20]),
    ("ros", ["sketch.transform=hadamard"], [8, 16]),
    ("onepass", [], [6, 12]),
])
def test_m_list_rows_equal_single_runs(tmp_path, name, extra, ms):
    nested = run_cfg(tmp_path / "list", f"sketch={name}", f"m=[{','.join(map(str, ms))}]", *extra)
    assert sorted(row["m"] for row in nested.rows) == sorted(ms)  # one row per m of the list
    for row in nested.rows:
        alone = run_cfg(tmp_path / f"m{row['m']}", f"sketch={name}", f"m={row['m']}", *extra).rows[0]
        assert alone["run_id"] == row["run_id"]
        for col in ("train_risk", "test_risk", "train_nmi"):
            assert alone[col] == pytest.approx(row[col], rel=1e-9, abs=1e-12), col


def test_spectral_failure_is_recorded_in_the_row(tmp_path):
    # a linear kernel on the hypercube mixture (centred data) gives negative degrees
    out = run_cfg(tmp_path, "sketch=spectral_nystrom", "kernel=linear", "m=40")
    row = out.rows[0]
    assert row["spectral_failed"] is True and row["n_nonpositive_degrees"] > 0
    assert row["min_degree"] <= 0
    assert Store(tmp_path).load().loc[0, "spectral_failed"]


def test_onepass_reports_the_r_prime_used(tmp_path):
    out = run_cfg(tmp_path, "sketch=onepass", "sketch.rank=2", "sketch.oversampling=10", "m=30")
    row = out.rows[0]
    assert row["m"] == 30 and row["m_used"] == 12
    assert row["onepass_rank"] == 2 and row["onepass_oversampling"] == 10


def test_ros_hadamard_refusal_is_one_line_exit_2_no_row(tmp_path):
    proc = subprocess.run(
        [sys.executable, "run.py", "sketch=ros", "transform=hadamard", "m=100", f"results_dir={tmp_path}"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "m=100" in lines[0] and "64 or 128" in lines[0] and "transform=dct" in lines[0]
    assert not (tmp_path / "runs").exists()
