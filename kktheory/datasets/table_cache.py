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

The SHA-256 of a data file's bytes (:func:`file_sha256`, what ``dataset=file`` puts in a run's
identity) is remembered the same way, as ``<cache root>/sha256/<key>``, keyed by the file's
path, size and modification time: a sweep hashes a big file once, not once per job, and an
edited file is hashed again.
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
        np.load(entry / "X.npy", mmap_mode="r", allow_pickle=False),
        np.load(entry / "y.npy", allow_pickle=False),
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


def file_sha256(path: Path) -> str:
    """SHA-256 (hex) of the bytes of ``path``: remembered in the cache (module docstring), else
    read in 1 MiB blocks and remembered; an unwritable cache only costs the rehash next time."""
    try:
        entry = cache_root() / "sha256" / table_key("sha256", [path])
        return entry.read_text()
    except OSError:
        pass
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(2**20), b""):
            digest.update(block)
    value = digest.hexdigest()
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=entry.parent, prefix=f".{entry.name}.", delete=False) as tmp:
            tmp.write(value)
        os.replace(tmp.name, entry)
    except OSError:
        pass
    return value
