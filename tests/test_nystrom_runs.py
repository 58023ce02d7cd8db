"""Every Nyström-family sketch runs end to end through the runner and writes a full row."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kktheory.run.experiment import run
from kktheory.run.store import Store
from tests.hydra_cfg import make_cfg

ROOT = Path(__file__).resolve().parent.parent

CASES = [
    ("nystrom", []),
    ("nystrom", ["sketch.replace=true"]),
    ("nystrom_liu", []),
    ("nystrom_rls", []),
    ("nystrom_rls", ["sketch.method=bless"]),
    ("nystrom_rr", []),
    ("nystrom_rr", ["sketch.P=srht", "sketch.s=sqrt_kc"]),
    ("nystrom_rr", ["sketch.P=leverage"]),
    ("kpca", []),
    ("power", ["sketch.t=2"]),
    ("kernel_columns", []),
]


@pytest.mark.parametrize("name,extra", CASES)
def test_sketch_writes_a_row(name: str, extra: list[str], tmp_path: Path) -> None:
    overrides = [
        f"sketch={name}", "n=150", "n_test=60", "k=3", "m=[12,20]",
        f"results_dir={tmp_path}", *extra,
    ]
    outcome = run(make_cfg(*overrides))
    assert len(outcome.rows) == 2
    rows = Store(str(tmp_path)).load()
    assert len(rows) == 2
    for col in ("train_risk", "test_risk", "objective", "feature_objective", "train_nmi",
                "test_nmi", "test_accuracy", "m_used"):
        assert rows[col].notna().all(), col
    assert (rows["feature_objective"] >= 0).all()


def test_bad_sketching_matrix_is_one_line_exit_2(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "run.py", "sketch=nystrom_rr", "P=hadamard", "n=100",
         f"results_dir={tmp_path}"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "sketch.P" in lines[0] and "countsketch" in lines[0]
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())
