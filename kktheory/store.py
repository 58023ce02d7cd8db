"""The results store: one Parquet row and one ``.npz`` sidecar per run (DESIGN §5).

Layout: ``<results_dir>/runs/<run_id>.parquet`` holds the row; ``<run_id>.npz`` holds the
arrays needed to recompute any of its numbers (training labels, test labels, indices of
the training and test points in the data set, landmark indices of sampling sketches).
``run_id`` is a hash of the resolved config of that row (see :func:`run_id`).

Writes are atomic: each file is written under a temporary name in the same folder and
renamed, the sidecar first and the row last, so a run counts as done exactly when its
Parquet file exists, a killed sweep leaves only whole files, and two processes running
the same config can only replace a whole file with an identical one.
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

RUNS = "runs"


def run_id(identity: dict[str, Any]) -> str:
    """16 hex digits of the SHA-256 of the canonical JSON of a row's identity."""
    blob = json.dumps(identity, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _atomic(path: Path, write) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


class Store:
    """A results folder."""

    def __init__(self, results_dir: str | os.PathLike) -> None:
        self.root = Path(results_dir)
        self.runs = self.root / RUNS

    def sweep_orphans(self) -> int:
        """Delete temporary files left by writers that died (kill -9); returns how many.

        A temporary name carries its writer's pid, so files of live writers are kept.
        """
        removed = 0
        for tmp in self.runs.glob(".*.tmp") if self.runs.exists() else []:
            parts = tmp.name.rsplit(".", 3)  # .<name>.<pid>.<uuid>.tmp
            if len(parts) == 4 and parts[1].isdigit() and not _pid_alive(int(parts[1])):
                tmp.unlink(missing_ok=True)
                removed += 1
        return removed

    def row_path(self, rid: str) -> Path:
        return self.runs / f"{rid}.parquet"

    def has(self, rid: str) -> bool:
        """True when the run's row exists (the run finished)."""
        return self.row_path(rid).exists()

    def write(self, rid: str, row: dict[str, Any], arrays: dict[str, np.ndarray]) -> Path:
        """Atomically write the sidecar, then the row."""
        self.runs.mkdir(parents=True, exist_ok=True)

        def save_npz(path: Path) -> None:
            with open(path, "wb") as fh:
                np.savez_compressed(fh, **arrays)

        _atomic(self.runs / f"{rid}.npz", save_npz)
        frame = pd.DataFrame([row])
        _atomic(self.row_path(rid), lambda p: frame.to_parquet(p, index=False))
        return self.row_path(rid)

    def load(self) -> pd.DataFrame:
        """All rows as one DataFrame (columns are the union over runs)."""
        files = sorted(self.runs.glob("[!.]*.parquet")) if self.runs.exists() else []
        if not files:
            return pd.DataFrame()
        return pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)

    def arrays(self, rid: str) -> dict[str, np.ndarray]:
        """The arrays of one run by its id."""
        with np.load(self.runs / f"{rid}.npz") as z:
            return {k: z[k] for k in z.files}


def load(results_dir: str | os.PathLike = "results") -> pd.DataFrame:
    """All rows of a results folder as one pandas DataFrame."""
    return Store(results_dir).load()


def load_arrays(rid: str, results_dir: str | os.PathLike = "results") -> dict[str, np.ndarray]:
    """The arrays (labels, indices, landmarks) of the run ``rid``."""
    return Store(results_dir).arrays(rid)
