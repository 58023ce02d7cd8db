"""The results store: one Parquet row and one ``.npz`` sidecar per run.

Layout: ``<results_dir>/runs/<run_id>.parquet`` holds the row; ``<run_id>.npz`` holds the
arrays needed to recompute any of its numbers (training labels, test labels, indices of
the training and test points in the data set, and the randomness behind the numbers: the
sketch's :meth:`~kktheory.embeddings.Sketch.arrays`, what the bound checks and the risk
estimator sampled; README "Results" lists them with their sizes).
``run_id`` is a hash of the resolved config of that row (see :func:`run_id`).

Writes are atomic: each file is written under a temporary name in the same folder and
renamed, the sidecar first and the row last, so a run counts as done exactly when its
Parquet file exists, a killed sweep leaves only whole files, and two processes running
the same config can only replace a whole file with an identical one (same numbers; only
timings, host and creation time may differ).

Rows are read through :func:`read_rows`, which gives rows written by earlier versions the
current column names (:data:`RENAMED`) and fills ``backend`` on NumPy rows, which used to
leave it empty; ``docs/schema.md`` documents every column (:mod:`kktheory.run.schema`).

Temporary names carry their writer's host and pid, ``.<file>.<host>-<pid>.<random>.tmp``.
Every run first removes the temporary files of dead writers (a kill -9 cannot clean up):
on its own host those whose pid is gone, from other hosts sharing the folder (a cluster
file system) those older than :data:`ORPHAN_AGE` seconds, since their pids cannot be
checked from here.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import psutil

from kktheory.atomic import HOST, atomic_write, write_npz

RUNS = "runs"
#: result columns renamed since rows were first written: old name → current name
RENAMED = {"kmeans_algorithm": "clustering_algorithm"}
#: temporary files of writers on other hosts are removed when older than this (seconds)
ORPHAN_AGE = 24 * 3600


def run_id(identity: dict[str, Any]) -> str:
    """16 hex digits of the SHA-256 of the canonical JSON of a row's identity."""
    blob = json.dumps(identity, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def upgrade(rows: pd.DataFrame) -> pd.DataFrame:
    """Rows under the current column names: each old name of :data:`RENAMED` becomes its new
    name (where a frame holds both, the new column keeps its values and takes the old one's
    where it is empty), and an empty ``backend`` is ``numpy`` (a row's ``backend`` was left
    empty unless it ran on Dask)."""
    rows = rows.copy()
    for old, new in RENAMED.items():
        if old in rows:
            rows[new] = rows[new].where(rows[new].notna(), rows[old]) if new in rows else rows[old]
            rows = rows.drop(columns=old)
    if "run_id" in rows:
        rows["backend"] = rows["backend"].fillna("numpy") if "backend" in rows else "numpy"
    return rows


def read_rows(path: str | os.PathLike) -> pd.DataFrame:
    """The rows of a Parquet file (a run's row or a file of committed rows), upgraded."""
    return upgrade(pd.read_parquet(path))


def _writer_alive(pid: int, written: float) -> bool:
    """Whether the writer of a temporary file last written at ``written`` (epoch seconds) still
    runs: a process ``pid`` exists and started before that write — one started after it reuses
    the pid of a writer that died (a busy machine recycles pids within minutes)."""
    try:
        return psutil.Process(pid).create_time() <= written + 1.0  # create_time is rounded to clock ticks
    except psutil.NoSuchProcess:
        return False
    except psutil.AccessDenied:
        return True


class Store:
    """A results folder."""

    def __init__(self, results_dir: str | os.PathLike) -> None:
        self.root = Path(results_dir)
        self.runs = self.root / RUNS

    def sweep_orphans(self) -> int:
        """Delete temporary files left by writers that died (kill -9); returns how many.

        A temporary name carries its writer's host and pid: on this host the files of live
        writers are kept; files from other hosts are removed only after ``ORPHAN_AGE``.
        """
        removed = 0
        for tmp in self.runs.glob(".*.tmp") if self.runs.exists() else []:
            parts = tmp.name.rsplit(".", 3)  # .<name>.<host>-<pid>.<random>.tmp
            if len(parts) != 4:
                continue
            host, _, pid = parts[1].rpartition("-")
            if not pid.isdigit():
                continue
            if host in ("", HOST):
                try:
                    dead = not _writer_alive(int(pid), tmp.stat().st_mtime)
                except FileNotFoundError:  # its writer finished meanwhile
                    continue
            else:
                try:
                    dead = time.time() - tmp.stat().st_mtime > ORPHAN_AGE
                except FileNotFoundError:  # its writer finished meanwhile
                    continue
            if dead:
                tmp.unlink(missing_ok=True)
                removed += 1
        return removed

    def row_path(self, rid: str) -> Path:
        return self.runs / f"{rid}.parquet"

    def has(self, rid: str) -> bool:
        """True when the run's row exists (the run finished)."""
        return self.row_path(rid).exists()

    def arrays_path(self, rid: str) -> Path:
        return self.runs / f"{rid}.npz"

    def has_arrays(self, rid: str) -> bool:
        """True when the run's arrays are stored (rows imported in compact form have none)."""
        return self.arrays_path(rid).exists()

    def write(self, rid: str, row: dict[str, Any], arrays: dict[str, np.ndarray]) -> Path:
        """Atomically write the sidecar, then the row."""
        self.runs.mkdir(parents=True, exist_ok=True)
        write_npz(self.arrays_path(rid), arrays)
        frame = pd.DataFrame([row])
        atomic_write(self.row_path(rid), lambda p: frame.to_parquet(p, index=False))
        return self.row_path(rid)

    def row(self, rid: str) -> pd.DataFrame:
        """The row of one run (one-row frame) by its id."""
        return read_rows(self.row_path(rid))

    def load(self) -> pd.DataFrame:
        """All rows as one DataFrame (columns are the union over runs); an empty frame for a
        store without rows yet. FileNotFoundError, naming the folder, when ``results_dir``
        holds no store (no ``runs`` folder: a mistyped path, or nothing ever ran there)."""
        if not self.runs.is_dir():
            raise FileNotFoundError(
                f"no results store at {self.root}: {self.runs} does not exist (runs write their rows there)"
            )
        files = sorted(self.runs.glob("[!.]*.parquet"))
        if not files:
            return pd.DataFrame()
        return pd.concat([read_rows(f) for f in files], ignore_index=True)

    def import_rows(self, rows: pd.DataFrame) -> int:
        """Write each row that has no file yet as its run's Parquet file (atomic; no sidecar:
        rows kept in compact form carry no arrays); returns how many were written."""
        self.runs.mkdir(parents=True, exist_ok=True)
        written = 0
        for _, row in upgrade(rows).iterrows():
            rid = str(row["run_id"])
            if self.has(rid):
                continue
            frame = row.to_frame().T.dropna(axis=1, how="all").infer_objects()
            atomic_write(self.row_path(rid), lambda p, f=frame: f.to_parquet(p, index=False))
            written += 1
        return written

    def arrays(self, rid: str) -> dict[str, np.ndarray]:
        """The arrays of one run by its id (data only: read with ``allow_pickle=False``)."""
        with np.load(self.arrays_path(rid), allow_pickle=False) as z:
            return {k: z[k] for k in z.files}


def load(results_dir: str | os.PathLike = "results") -> pd.DataFrame:
    """All rows of a results folder as one pandas DataFrame (:meth:`Store.load`)."""
    return Store(results_dir).load()


def load_arrays(rid: str, results_dir: str | os.PathLike = "results") -> dict[str, np.ndarray]:
    """The arrays (labels, indices, landmarks) of the run ``rid``."""
    return Store(results_dir).arrays(rid)
