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
    assert entry_path(tmp_path, slow_square, (7,)).exists()
    assert not list(tmp_path.glob(".cache-*.lock"))  # the lock file goes with the lock


def test_jobs_with_other_keys_do_not_wait_for_each_other(tmp_path):
    results, computed = _at_once(tmp_path, [2, 3])
    assert sorted(results) == [(4, False), (9, False)]
    assert [e.split(":")[0] for e in computed] == ["start", "start", "end", "end"]  # at once, not in turn


def fails_first(key: int, flag: str) -> int:
    """Fails (after a second) in the first process to run it, returns key² in the next."""
    if not Path(flag).exists():
        Path(flag).touch()
        time.sleep(1.0)
        raise RuntimeError("out of memory")
    return key * key


def _job_failing(results: str, key: int, flag: str, out: multiprocessing.Queue) -> None:
    try:
        out.put(cached_call(results, fails_first, (key,), flag))
    except RuntimeError as err:
        out.put(str(err))


def test_a_failed_computation_leaves_nothing_and_the_one_waiting_computes_it(tmp_path):
    """The first process fails while the second waits on its lock: the second computes the
    entry and stores it (its folder is made when it writes, not removed by the first's failure)."""
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    flag = str(tmp_path / "failed-once")
    first = ctx.Process(target=_job_failing, args=(str(tmp_path / "results"), 5, flag, out))
    first.start()
    while not Path(flag).exists():  # the first holds the lock and is computing
        time.sleep(0.01)
    second = ctx.Process(target=_job_failing, args=(str(tmp_path / "results"), 5, flag, out))
    second.start()
    got = sorted((out.get(timeout=60), out.get(timeout=60)), key=str)
    for p in (first, second):
        p.join(timeout=60)
    assert got == [(25, False), "out of memory"]
    assert entry_path(tmp_path / "results", fails_first, (5,)).exists()
    assert cached_call(tmp_path / "results", fails_first, (5,), flag) == (25, True)


def test_a_failure_alone_leaves_no_folder(tmp_path):
    def fails(key: int) -> int:
        raise RuntimeError("out of memory")

    with pytest.raises(RuntimeError):
        cached_call(tmp_path, fails, (1,))
    assert not (tmp_path / "cache").exists() and not list(tmp_path.glob(".cache-*"))
