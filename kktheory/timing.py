"""Timing pass: the compared methods timed alternately in one process, and speed claims
judged from it (a speed claim is judged only on such a dedicated timing pass).

    python -m kktheory.timing NAME [--scale paper|small] [--rounds R] [--warmup W]
                                   [--threads T] [--methods A,B] [--results-dir DIR] [OVERRIDE ...]

Why: the times in sweep rows were taken one job after another, minutes apart, with other
jobs sharing the CPUs; a ratio of two such times measures the load as much as the methods.
Here, for an entry with a speed claim (its :class:`TimingPlan`):

1. the methods to compare are the jobs of the entry's experiment config at one point of
   its sweep (``TimingPlan.fix``, e.g. ``seed=0 m_sqrt_n=x1``; ``--scale paper`` by
   default: the paper's n), grouped by ``TimingPlan.group`` (e.g. one group per data set);
   the data of a group are drawn once and every method of the group is fitted on them;
2. after ``warmup`` untimed rounds, R rounds run every method once, in the plan's order
   (A B C A B C …), round r with ``seed + r − 1`` (the same seed for every method of the
   round, so the rounds pair the methods); a call times the method's own cost, the fit of
   :class:`kktheory.run.method.Method` (sketch, features, clustering — a row's
   ``time_embed + time_cluster``), not loading the data or scoring the partition;
3. the 1-minute load average (``os.getloadavg``) is recorded before and after each round;
   a method whose fit exceeds ``cutoff_s`` is stopped (Yin §5.2: 90 s), one that the memory
   budget refuses is not run, as the paper's "—";
4. the pass is stored as ``<results_dir>/timing/<entry>.parquet``: one row per (group,
   method, round) with the seconds, both loads, the job's config and overrides, n, the
   thread count, the host, the machine and the CPU count (a new pass of a group replaces
   the group's passes that timed none but its methods; ``--methods`` times a subset, e.g.
   the two an undecided claim compares, and leaves the group's fuller pass for the others).

The pass is judged by the report (:mod:`kktheory.report.speed`), which reads the stored
file; the printed verdict at the end of this command is that judgement.
"""

from __future__ import annotations

import gc
import math
import os
import platform
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from kktheory.cli import OneLineParser, plugin_error
from kktheory.errors import DataError, MemoryBudgetError, UserError
from kktheory.report.entry import TimingPlan
from kktheory.report.speed import CUTOFF, MEMORY, OK, judge, load, path_of
from kktheory.run.sweeps import SCALES, compose_jobs, config_name, expand_jobs


# -- the pass -------------------------------------------------------------------------------
def alternate(
    calls: Mapping[str, Callable[[int], Any]], rounds: int, warmup: int = 1, seed: int = 0,
    cutoff_s: float = math.inf, clock: Callable[[], float] = time.perf_counter,
    load: Callable[[], tuple[float, float, float]] = os.getloadavg,
) -> list[dict[str, Any]]:
    """Call every method once per round, in the mapping's order, ``warmup`` untimed rounds
    then ``rounds`` timed ones; round r ≥ 1 calls each method with ``seed + r − 1``
    (warm-up rounds with ``seed``).

    Returns one record per timed call (``round``, ``method``, ``seconds``, ``status``,
    ``order`` — the call's place in the pass, warm-up calls counted —, ``load_before``,
    ``load_after``: 1-minute load averages around the round). A method
    whose call takes longer than ``cutoff_s`` is stopped: it gets one record with status
    ``cutoff`` (and its time) and is not called again.
    """
    active = list(calls)
    records: list[dict[str, Any]] = []
    order = 0
    for r in range(1 - warmup, rounds + 1):
        before = float(load()[0])
        done = []
        for name in active:
            gc.collect()
            t0 = clock()
            calls[name](seed + max(r, 1) - 1)
            order += 1
            done.append((name, clock() - t0, order))
        after = float(load()[0])
        for name, seconds, i in done:
            stopped = seconds > cutoff_s
            if stopped:
                active.remove(name)
            if r >= 1 or stopped:
                records.append({"round": max(r, 0), "method": name, "seconds": seconds, "order": i,
                                "status": CUTOFF if stopped else OK, "load_before": before, "load_after": after})
    return records


def machine() -> str:
    """The CPU model (Linux /proc/cpuinfo) and platform."""
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            model = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), "")
    except OSError:
        pass
    return f"{model} ({platform.platform()})" if model else platform.platform()


def store(results_dir: Path, name: str, rows: pd.DataFrame) -> Path:
    """Write a pass (atomic), replacing the stored passes of its groups that it supersedes:
    those that timed no method it did not (a pass of fewer methods leaves an older pass of
    more in place, for the claims on the methods it left out)."""
    p = path_of(results_dir, name)
    p.parent.mkdir(parents=True, exist_ok=True)
    old = load(results_dir, name)
    if old is not None:
        timed = rows.groupby("group")["method"].agg(set)
        gone = {key for key, methods in old.groupby(["group", "created"])["method"].agg(set).items()
                if key[0] in timed and methods <= timed[key[0]]}
        kept = [key not in gone for key in zip(old["group"], old["created"])]
        rows = pd.concat([old[kept], rows], ignore_index=True)
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    rows.to_parquet(tmp, index=False)
    os.replace(tmp, p)
    return p


def run_pass(name: str, plan: TimingPlan, scale: str, results_dir: Path, rounds: int = 10,
             warmup: int = 1, threads: int | None = 1, overrides: Sequence[str] = (),
             log: Callable[[str], None] = print, methods: Sequence[str] = ()) -> pd.DataFrame:
    """Time the plan's methods on the entry's experiment config at ``scale`` and store the pass.

    The jobs are those of ``python run.py --config-dir experiments --config-name <config>
    -m`` with the plan's ``fix``, the method group swept over ``methods`` (default
    ``plan.methods``, in the plan's order) and the command line's ``overrides``
    (:func:`kktheory.run.sweeps.expand_jobs`). Per group, the
    data are loaded once (every job of a group must draw the same data) and each method is
    :class:`kktheory.run.method.Method` of its job; a call is ``list(method.fit(X, kernel,
    ms))`` with the round's seed.
    """
    from kktheory.machine.threads import current_threads, thread_limits

    cfg_name = config_name(name, scale)
    timed = [m for m in plan.methods if not methods or m in methods]
    sweep = [*plan.fix, f"{plan.method_key}={','.join(timed)}", *overrides]
    jobs = expand_jobs(cfg_name, sweep)
    cfgs = compose_jobs(cfg_name, jobs, Path(results_dir).resolve())
    groups: dict[str, list[tuple[list[str], Any]]] = {}
    for job, cfg in zip(jobs, cfgs):
        key = str(_select(cfg, plan.group)) if plan.group else name
        groups.setdefault(key, []).append((job, cfg))
    frames = []
    with thread_limits(threads):
        used_threads = current_threads()
        for group, members in groups.items():
            t0 = time.perf_counter()
            try:
                rows = _time_group(plan, members, rounds, warmup)
            except DataError as exc:
                log(f"[{name} {group}] not timed: {exc}")
                continue
            rows = rows.assign(
                entry=name, group=group, scale=scale, config_name=cfg_name, threads=used_threads,
                cpu_count=os.cpu_count(), host=platform.node(), machine=machine(),
                created=time.strftime("%Y-%m-%dT%H:%M:%S"), rounds=rounds, warmup=warmup,
            )
            frames.append(rows)
            store(results_dir, name, rows)
            loads = rows[["load_before", "load_after"]].to_numpy()
            log(f"[{name} {group}] {len(rows)} timings in {time.perf_counter() - t0:.0f} s, "
                f"load {np.nanmin(loads):.2f}–{np.nanmax(loads):.2f}")
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def _select(cfg: Any, key: str) -> Any:
    from omegaconf import OmegaConf

    return OmegaConf.select(cfg, key)


def _time_group(plan: TimingPlan, members: list[tuple[list[str], Any]], rounds: int, warmup: int) -> pd.DataFrame:
    """Time the methods of one group on one draw of its data."""
    from omegaconf import OmegaConf

    from kktheory.run.config import build_spec
    from kktheory.datasets.base import check_loaded
    from kktheory.run.experiment import load_data
    from kktheory.run.method import Method

    specs = [build_spec(cfg) for _, cfg in members]
    data_keys = {(OmegaConf.to_yaml(s.cfg.dataset), s.n, s.n_test, s.data_seed) for s in specs}
    if len(data_keys) > 1:
        raise ValueError(f"the jobs of a timing group draw different data: {sorted(map(str, data_keys))}")
    data = load_data(specs[0])
    check_loaded(data, specs[0].n, specs[0].n_test)
    calls: dict[str, Callable[[int], Any]] = {}
    info: dict[str, dict[str, Any]] = {}
    refused = []
    for (job, cfg), spec in zip(members, specs):
        meth = str(_select(cfg, "sketch.name"))
        label = next((o.split("=", 1)[1] for o in job if o.startswith(f"{plan.method_key}=")), meth)
        method = Method.of(spec)
        ms = [m for _, m in spec.ms]
        info[label] = {"n": spec.n, "m": ",".join(map(str, ms)), "sketch": meth,
                       "job": " ".join(job), "config": portable_config(cfg)}
        try:
            method.check(spec.n, ms, any(p.variant is not None for p in spec.points))
        except MemoryBudgetError as exc:
            refused.append({"round": 0, "method": label, "seconds": math.nan, "status": MEMORY, "order": 0,
                            "load_before": math.nan, "load_after": math.nan, "why": str(exc)})
            continue
        kernel = method.fit_kernel(data.X_train)
        calls[label] = _fitter(method, data.X_train, kernel, ms)
    records = alternate(calls, rounds, warmup, specs[0].seed, plan.cutoff_s) + refused
    out = pd.DataFrame(records)
    for col in ("n", "m", "sketch", "job", "config"):
        out[col] = out["method"].map(lambda x, c=col: info[x][c])
    if "why" not in out:
        out["why"] = ""
    return out


def _fitter(method: Any, X: np.ndarray, kernel: Any, ms: list[int]) -> Callable[[int], None]:
    def call(seed: int) -> None:
        for fit in replace(method, seed=seed).fit(X, kernel, ms):
            del fit  # the next m's features are not computed beside this m's

    return call


def portable_config(cfg: Any) -> str:
    """The job's composed config as YAML without ``results_dir`` — where this machine keeps
    its results is not part of what was timed, and a committed pass must name no machine's
    path."""
    from omegaconf import OmegaConf

    plain = OmegaConf.to_container(cfg, resolve=True)
    plain.pop("results_dir", None)
    return OmegaConf.to_yaml(OmegaConf.create(plain))


# -- command line ---------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    from kktheory.report import catalogue

    timed = {k: e for k, e in catalogue().items() if e.timing is not None}
    parser = OneLineParser(prog="python -m kktheory.timing", description=__doc__.split("\n\n")[0])
    parser.add_argument("name", help=f"one of: {', '.join(timed)}")
    parser.add_argument("overrides", nargs="*", help="Hydra overrides applied to every job")
    parser.add_argument("--scale", choices=SCALES, default="paper")
    parser.add_argument("--rounds", type=int, default=10, help="timed rounds R (≥ 6 to judge; default 10)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed rounds first (default 1)")
    parser.add_argument("--threads", type=int, default=1, help="BLAS/OpenMP threads (default 1)")
    parser.add_argument("--methods", default="", help="comma-separated: time only these of the plan's methods "
                        "(default all; a claim is judged on the newest pass that timed all of its methods)")
    parser.add_argument("--results-dir", default="results", help="the results folder (default results/)")
    args = parser.parse_intermixed_args(argv)
    if (line := plugin_error()) is not None:
        print(line, file=sys.stderr)
        return 2
    if args.name not in timed:
        print(f"config error: name={args.name!r}: one of {', '.join(timed)}", file=sys.stderr)
        return 2
    for field_name, value, lo in (("rounds", args.rounds, 1), ("warmup", args.warmup, 0), ("threads", args.threads, 1)):
        if value < lo:
            print(f"config error: {field_name}={value}: an integer ≥ {lo}", file=sys.stderr)
            return 2
    entry = timed[args.name]
    methods = [m for m in args.methods.split(",") if m]
    if unknown := [m for m in methods if m not in entry.timing.methods]:
        print(f"config error: methods={','.join(unknown)}: each one of {', '.join(entry.timing.methods)}",
              file=sys.stderr)
        return 2
    results_dir = Path(args.results_dir).resolve()
    try:
        run_pass(entry.name, entry.timing, args.scale, results_dir, args.rounds, args.warmup, args.threads,
                 args.overrides, log=lambda s: print(s, flush=True), methods=methods)
    except UserError as exc:
        print(exc, file=sys.stderr)
        return 2
    for c in judge(entry.timing, load(results_dir, entry.name), entry.name):
        print(f"{c.mark} {c.name}: {c.detail}" + (f" — why: {c.why}" if c.why else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
