"""A cache entry is computed by one process at a time (kktheory/evaluation/cache.py): two jobs
of a sweep that share a key — the two sketches of one data draw and its exact reference — run
at once, and the second waits for the first's entry instead of computing it again."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

import pytest

from kktheory.evaluation.cache import cached_call, entry_path


def slow_square(key: int, log: str) -> int:
    """key², slowly, logging to ``log`` the start and the end of each computation."""
    with open(log, "a") as f:
        f.write(f"start:{key} ")
    time.sleep(1.0)
    with open(log, "a") as f:
        f.write(f"end:{key} ")
    return key * key


def _job(results: str, key: int, log: str, out: multiprocessing.Queue) -> None:
    out.put(cached_call(results, slow_square, (key,), log))


def _at_once(tmp_path: Path, keys: list[int]) -> tuple[list[tuple[int, bool]], list[str]]:
    """Run one process per key at once; their (value, cached) and the computations' starts and
    ends, in the order they happened."""
    log = tmp_path / "computed.log"
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    procs = [ctx.Process(target=_job, args=(str(tmp_path), k, str(log), out)) for k in keys]
    for p in procs:
        p.start()
    results = [out.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    return results, log.read_text().split()


def test_jobs_sharing_a_key_compute_it_once(tmp_path):
    results, computed = _at_once(tmp_path, [7, 7, 7])
    assert computed == ["start:7", "end:7"]  # one computation, the others read its entry
    assert sorted(results) == [(49, False), (49, True), (49, True)]
    entry = entry_path(tmp_path, slow_square, (7,))
    assert entry.exists() and not entry.with_suffix(".lock").exists()  # the lock file goes with the lock


def test_jobs_with_other_keys_do_not_wait_for_each_other(tmp_path):
    results, computed = _at_once(tmp_path, [2, 3])
    assert sorted(results) == [(4, False), (9, False)]
    assert [e.split(":")[0] for e in computed] == ["start", "start", "end", "end"]  # at once, not in turn


def test_a_failed_computation_leaves_nothing_and_the_next_one_computes(tmp_path):
    def fails(key: int) -> int:
        raise RuntimeError("out of memory")

    with pytest.raises(RuntimeError):
        cached_call(tmp_path, fails, (1,))
    assert not (tmp_path / "cache").exists()
    assert cached_call(tmp_path, slow_square, (1,), str(tmp_path / "log")) == (1, False)
