"""Parsed data-set tables cached on disk for reuse.

Text formats are slow to parse — LIBSVM's a8a (32561 × 123) takes 1.3 s, covtype
(581012 × 54, bz2) tens of seconds — and a sweep loads the same files in every job. A parsed
table is therefore saved once as NumPy files, ``X.npy`` (dense, read back memory-mapped, so a
job copies only the rows it draws), ``y.npy`` and ``meta.json``, under

    <cache root>/tables/<name>-<key>/

with ``key`` the SHA-1 of the reader's format version and, for every source file, its
resolved path, size and modification time: editing or replacing a file makes a new entry.
The cache root is ``$KKTHEORY_CACHE`` or ``~/.cache/kktheory`` (outside the project). An
entry is written to a temporary folder and renamed into place, so concurrent jobs never read
a partial entry; when the root cannot be written the table is used without caching.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from kktheory.datasets.base import Table

#: bump when a reader's output for the same files changes
FORMAT_VERSION = 1


def cache_root() -> Path:
    """``$KKTHEORY_CACHE`` or ``~/.cache/kktheory``."""
    return Path(os.environ.get("KKTHEORY_CACHE") or "~/.cache/kktheory").expanduser()


def table_key(name: str, files: list[Path]) -> str:
    """Entry name of the table ``name`` parsed from ``files`` (path, size, mtime of each)."""
    h = hashlib.sha1(f"{name}:{FORMAT_VERSION}".encode())
    for f in files:
        st = Path(f).stat()
        h.update(f"|{Path(f).resolve()}:{st.st_size}:{st.st_mtime_ns}".encode())
    return f"{name}-{h.hexdigest()[:16]}"


def _load(entry: Path) -> Table:
    meta = json.loads((entry / "meta.json").read_text())
    return Table(
        np.load(entry / "X.npy", mmap_mode="r"), np.load(entry / "y.npy"),
        meta["n_own_train"], meta["divisor"], dict(meta["info"], cached=str(entry)),
    )


def _save(entry: Path, table: Table) -> None:
    entry.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{entry.name}.", dir=entry.parent))
    try:
        np.save(tmp / "X.npy", np.ascontiguousarray(table.X))
        np.save(tmp / "y.npy", np.asarray(table.y))
        meta = {"n_own_train": table.n_own_train, "divisor": table.divisor, "info": table.info}
        (tmp / "meta.json").write_text(json.dumps(meta))
        os.rename(tmp, entry)
    except OSError:  # another job renamed its copy first, or the disk refused
        shutil.rmtree(tmp, ignore_errors=True)
        if not entry.exists():
            raise


def cached_table(name: str, files: list[Path], parse: Callable[[], Table]) -> Table:
    """The table parsed from ``files``: read from the cache, or parsed and then cached."""
    try:
        entry = cache_root() / "tables" / table_key(name, files)
        if (entry / "meta.json").exists():
            return _load(entry)
    except OSError:
        return parse()
    table = parse()
    try:
        _save(entry, table)
    except OSError:
        return table  # unwritable cache: the parsed table is still right
    return _load(entry)
