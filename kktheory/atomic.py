"""Atomic file writes: a file is written under a temporary name beside its place and renamed
into it (``os.replace``), so a reader sees the old file or the whole new one, never a part.

The temporary name carries the writer's host and pid (``.<name>.<host>-<pid>.<random>.tmp``),
so that the results store can tell the leftovers of a dead writer from a live one's
(:meth:`kktheory.run.store.Store.sweep_orphans`).
"""

from __future__ import annotations

import os
import platform
import uuid
import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np

#: this host's tag in temporary names
HOST = f"{zlib.crc32(platform.node().encode()):08x}"


def atomic_write(path: Path, write: Callable[[Path], object]) -> None:
    """Write ``path`` by calling ``write`` on a temporary name beside it, then renaming it."""
    tmp = path.with_name(f".{path.name}.{HOST}-{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Atomically write ``arrays`` to ``path`` as a compressed ``.npz`` (its folder exists)."""

    def save(tmp: Path) -> None:
        with open(tmp, "wb") as fh:  # a file name would get ".npz" appended
            np.savez_compressed(fh, **arrays)

    atomic_write(path, save)
