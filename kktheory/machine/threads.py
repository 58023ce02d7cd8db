"""BLAS / OpenMP thread control of a run.

The config field ``threads`` limits the threads of every BLAS and OpenMP library loaded in
the process (OpenBLAS/MKL behind numpy and scipy, scikit-learn's OpenMP k-means) for the
duration of one run, through ``threadpoolctl.threadpool_limits``:

- ``threads=null`` (default): the libraries are left alone — except under Hydra's joblib
  launcher, where ``n_jobs`` runs share the machine and each gets
  max(1, cpu_count // n_jobs) threads (joblib's own rule for its workers), so that
  parallel jobs do not oversubscribe the cores;
- ``threads=<t>``: t threads for the run.

The value in force is recorded in every row (``blas_threads``).

Small dense LAPACK calls — the eigendecomposition of an m × m landmark matrix, m up to
``SMALL_DENSE_MAX`` — run on one BLAS thread (:func:`small_dense`): multi-threaded
OpenBLAS spins its threads while they wait for each other, and on a busy machine that made
the eigendecomposition of a 1000 × 1000 K_mm take 8.2 s against 0.25 s on one thread
(benchmarks/README.md); on an idle machine two threads save a fraction of a second.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from functools import lru_cache

from threadpoolctl import ThreadpoolController, threadpool_info, threadpool_limits

from kktheory.machine.memory import cpu_count

#: dense LAPACK calls on matrices up to this order run on one BLAS thread
SMALL_DENSE_MAX = 2048
JOBLIB_LAUNCHER = "hydra_plugins.hydra_joblib_launcher.joblib_launcher.JoblibLauncher"


def joblib_share(n_jobs: int, cpus: int) -> int:
    """Threads per job when ``n_jobs`` joblib workers share ``cpus`` CPUs.

    n_jobs < 0 counts from the CPU count as joblib does (−1: all CPUs, −2: all but one).
    """
    workers = n_jobs if n_jobs > 0 else max(1, cpus + 1 + n_jobs)
    return max(1, cpus // workers)


def hydra_launcher_threads() -> int | None:
    """The per-job share under Hydra's joblib launcher in a multirun; None otherwise."""
    from hydra.core.hydra_config import HydraConfig
    from hydra.types import RunMode

    if not HydraConfig.initialized():
        return None
    hc = HydraConfig.get()
    launcher = hc.launcher
    if hc.mode != RunMode.MULTIRUN or launcher.get("_target_") != JOBLIB_LAUNCHER:
        return None
    return joblib_share(int(launcher.get("n_jobs", -1)), cpu_count())


@contextmanager
def thread_limits(threads: int | None) -> Iterator[None]:
    """Limit BLAS/OpenMP threads to ``threads`` inside the block (None: no change)."""
    if threads is None:
        yield
        return
    with threadpool_limits(limits=threads):
        yield


def current_threads() -> int:
    """The largest thread count among the loaded BLAS/OpenMP libraries (0 if none)."""
    return max((int(p["num_threads"]) for p in threadpool_info()), default=0)


@lru_cache(maxsize=1)
def _controller() -> ThreadpoolController:
    return ThreadpoolController()  # scanning the loaded libraries once, not per call


def small_dense(order: int) -> AbstractContextManager:
    """One BLAS thread for a dense LAPACK call on an order × order matrix when
    order ≤ ``SMALL_DENSE_MAX`` (no change above)."""
    if order > SMALL_DENSE_MAX:
        return nullcontext()
    return _controller().limit(limits=1, user_api="blas")
