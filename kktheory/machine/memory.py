"""Memory budget: estimate before any large allocation and refuse politely.

The budget is ``memory_budget_gb`` from the config, or by default half of the machine's
physical memory. Every step whose memory grows as n² or n·m calls :func:`require` with its
estimate, and the estimate is made from the config alone, at validation
(:func:`kktheory.run.config.build_spec`, and each sketch's ``validate(m)`` called by
:meth:`kktheory.run.method.Method.check`), so that a run that cannot fit is refused in
milliseconds, before any data are drawn:

==================================  ==========================================  ===========
step                                estimate                                    where
==================================  ==========================================  ===========
exact kernel k-means (K stored)     n²·itemsize (``sketch.allow_blocked=true``   exact
                                    recomputes K in blocks instead)
exact reference                     n²·itemsize (``reference=exact:blocked``)    build_spec
exact kernel features (eigh)        3·n²·8 (centroids=projected)                exact
power, KPCA s≥n/2, kernel_columns   1–2 × n²·itemsize (kernel_columns: 3 ×)     sketches
nystrom_rr                          3·n·m·8 (C, R, B); P ≠ uniform adds         nystrom_rr
                                    n²·itemsize (C = K·P); uniform above the
                                    budget streams: n·s·itemsize + a block
exact ridge leverage scores         2·n²·8                                      nystrom_rls
Nyström                             n·m (features) + a block; K_{n,m_max} for   nystrom
                                    a list of m only when 2·n·m_max fits
Nyström variants, Yin's sketches,   2–3 × n·m (kernel columns, features,        sketches
Gaussian, one-pass, RFF             sketching matrices)
two-step kernel k-means             n·m·itemsize + 4·m²·8 + 2·n·k·8             two_step
dense bound checks                  4·n²·8 (n ≤ bound_exact_max_n)              build_spec
column_objective (kernel columns)   2·n·k·M·8 (M partitions) + a block          build_spec
==================================  ==========================================  ===========

Blocked computations (risk, kernel products) size their blocks with :func:`block_rows` and
never need more than a share of the budget. The message of a refusal gives the estimate,
the budget and what to change.
"""

from __future__ import annotations

import math
import os

import psutil

from kktheory.errors import ConfigError, MemoryBudgetError

DEFAULT_FRACTION = 0.5
# A single kernel block never exceeds this share of the budget, so that blocked loops
# leave room for the arrays they accumulate into.
BLOCK_SHARE = 1 / 16
MAX_BLOCK_BYTES = 256 * 2**20


def default_budget_bytes() -> int:
    """Half of the machine's physical memory."""
    return int(DEFAULT_FRACTION * psutil.virtual_memory().total)


def budget_bytes(memory_budget_gb: float | None) -> int:
    """The budget in bytes for a ``memory_budget_gb`` value in GiB (None: the default); the
    one check of that value, for the runner and the estimator alike: a finite positive
    number (ConfigError otherwise)."""
    if memory_budget_gb is None:
        return default_budget_bytes()
    try:
        gb = float(memory_budget_gb)
    except (TypeError, ValueError):
        gb = math.nan
    if isinstance(memory_budget_gb, bool) or not (math.isfinite(gb) and gb > 0):
        raise ConfigError("memory_budget_gb", memory_budget_gb, "a positive number of GiB, or null for half of RAM")
    return int(gb * 2**30)


def fmt_bytes(b: float) -> str:
    """Human-readable size."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(b) < 1024 or unit == "TiB":
            return f"{b:.1f} {unit}" if unit != "B" else f"{int(b)} B"
        b /= 1024
    raise AssertionError  # unreachable


def require(estimate: float, budget: int, what: str, hint: str) -> None:
    """Refuse a step whose estimated peak memory exceeds the budget.

    The message gives the estimate, the budget and what to change.
    """
    if estimate > budget:
        raise MemoryBudgetError(
            f"memory: {what} needs about {fmt_bytes(estimate)}, above the budget of "
            f"{fmt_bytes(budget)}; {hint} (or raise memory_budget_gb)"
        )


def block_rows(n_cols: int, itemsize: int, budget: int, n_rows: int) -> int:
    """Rows per block so that one n_rows × n_cols block stays within its share."""
    cap = min(MAX_BLOCK_BYTES, max(budget * BLOCK_SHARE, 2**20))
    rows = int(cap // max(1, n_cols * itemsize))
    return max(1, min(n_rows, rows))


def peak_rss_mb() -> float:
    """Peak resident set size of this process in MiB.

    Linux: ``VmHWM`` of /proc/self/status, the high-water mark of this process's own
    memory. ``ru_maxrss`` is not used there because Linux carries it across fork + exec: a
    process started by a 1.2 GB Python reports at least 1.2 GB however little it touches
    (measured: ru_maxrss 1169 MiB against VmHWM 8.5 MiB for an empty child). Elsewhere
    ``ru_maxrss`` (KiB on Linux and BSD, bytes on macOS).
    """
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    import resource
    import sys

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024.0


def cpu_count() -> int:
    """CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - non-Linux
        return os.cpu_count() or 1
