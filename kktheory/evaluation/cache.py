"""Results of costly computations kept on disk under ``<results_dir>/cache``, as data only.

The exact reference (:mod:`kktheory.evaluation.reference`), the population optimum
(:mod:`kktheory.evaluation.population`) and the spectra, d_eff and kernel-column reference
of the bound checks (:mod:`kktheory.evaluation.bounds.engine`) are computed once per key and
read back by later runs. Results folders are handed around (a colleague's sweep, a CI
artifact), so an entry holds data only: one compressed ``.npz`` file of NumPy arrays, read with
``allow_pickle=False`` — reading a folder never executes what is in it. A file that is not
such an entry (a pickle, a truncated write) is a miss: the result is computed again and the
file replaced.

An entry is keyed as ``joblib.Memory`` keyed it: by the function (module, name and source
code, so that a changed function computes again) and the arguments that identify the
result (``keyed``); the others (the data, a kernel matrix, the memory budget) are passed
along, not keyed. The key's canonical JSON (dataclasses as their fields) is hashed into
``<results_dir>/cache/computed/<module>.<function>/<sha256>.npz``.

A result is a NumPy array, a number, a bool, a string, or a tuple or dict of them (read
back as the same: 0-d arrays as Python scalars); anything that would need pickle to be
stored (None, objects) is refused when written.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import inspect
import json
import os
import zipfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import Any

import numpy as np

from kktheory.atomic import write_npz

#: the folder of the entries in a results folder
COMPUTED = Path("cache") / "computed"


def cached_call(results_dir: str | os.PathLike, func: Callable[..., Any], keyed: Sequence[Any],
                *rest: Any) -> tuple[Any, bool]:
    """``(func(*keyed, *rest), cached)``: the result read from its entry when one is stored
    for ``func`` and ``keyed`` (``cached`` True), else computed and stored.

    One process computes an entry at a time (:func:`_computing`): jobs of a sweep that run at
    once and share a key — the two sketches of one data draw, which share its exact
    reference — wait for the first to store it and read it, instead of computing it twice (at
    n = 32,000 the reference took 110–360 s in each of the two jobs of a seed, and K's 8 GB
    twice over)."""
    path = entry_path(results_dir, func, keyed)
    found = _read(path)
    if found is not None:
        return found[0], True
    with _computing(results_dir, path):
        found = _read(path)  # stored by another process while this one waited
        if found is not None:
            return found[0], True
        value = func(*keyed, *rest)
        arrays = encode(value)  # refused before the folder is made
        path.parent.mkdir(parents=True, exist_ok=True)
        write_npz(path, arrays)
    return value, False


def _read(path: Path) -> tuple[Any] | None:
    """``(result,)`` of the entry at ``path``; None when there is none, or it is not one of ours."""
    try:
        with np.load(path, allow_pickle=False) as z:
            return (decode({name: z[name] for name in z.files}),)
    except (OSError, EOFError, ValueError, zipfile.BadZipFile):
        return None


@contextlib.contextmanager
def _computing(results_dir: str | os.PathLike, path: Path) -> Iterator[None]:
    """Hold the exclusive lock of ``path``'s entry while it is computed and written: POSIX
    ``flock`` on ``<results_dir>/.cache-<entry>.lock``, beside the folders rather than in
    them, so that a computation that fails or is refused leaves no folder behind and never
    removes one another process will write to. The lock is released when the process ends,
    however it ends; its file goes with it. A process still waiting on it then reads the
    entry before it computes (and computes it itself if the first one failed, as may a
    process arriving after that: two computations of a failed entry, never of a stored one).
    Where the file system has no locks, the entry is computed without one, as before."""
    folder = Path(results_dir)
    folder.mkdir(parents=True, exist_ok=True)
    lock = folder / f".cache-{path.stem}.lock"
    with open(lock, "a") as handle:
        with contextlib.suppress(OSError):  # no locks here (some network file systems): compute unlocked
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            lock.unlink(missing_ok=True)


def entry_path(results_dir: str | os.PathLike, func: Callable[..., Any], keyed: Sequence[Any]) -> Path:
    """The file of ``func``'s result for the arguments ``keyed`` (module docstring)."""
    name = f"{func.__module__}.{func.__qualname__}"
    key = json.dumps([name, inspect.getsource(func), list(keyed)], sort_keys=True, separators=(",", ":"),
                     default=_jsonable)
    return Path(results_dir) / COMPUTED / name / f"{hashlib.sha256(key.encode()).hexdigest()}.npz"


def _jsonable(value: Any) -> Any:
    """A key's dataclass as its fields, a NumPy scalar as the Python one."""
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"a cache key holds {type(value).__name__}, which has no canonical JSON")


def encode(value: Any) -> dict[str, np.ndarray]:
    """A result as named arrays: ``dict:<key>`` for a dict's items, ``tuple:<i>`` for a
    tuple's, ``value`` for anything else. TypeError when one needs pickle (object dtype)."""
    if isinstance(value, dict):
        parts = {f"dict:{k}": v for k, v in value.items()}
    elif isinstance(value, tuple):
        parts = {f"tuple:{i}": v for i, v in enumerate(value)}
    else:
        parts = {"value": value}
    arrays = {name: np.asarray(v) for name, v in parts.items()}
    refused = [name for name, a in arrays.items() if a.dtype.hasobject]
    if refused:
        raise TypeError(f"cannot cache {', '.join(refused)} as data: an object array needs pickle")
    return arrays


def decode(arrays: Mapping[str, np.ndarray]) -> Any:
    """The result :func:`encode` gave these arrays (0-d arrays as Python scalars)."""
    plain = {name: a.item() if a.ndim == 0 else a for name, a in arrays.items()}
    if "value" in plain:
        return plain["value"]
    if all(name.startswith("tuple:") for name in plain):
        return tuple(plain[f"tuple:{i}"] for i in range(len(plain)))
    return {name.removeprefix("dict:"): v for name, v in plain.items()}
