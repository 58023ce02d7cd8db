"""Reliability: memory guard, Ctrl-C, concurrent sweeps, orphaned temporary files.

The SIGKILL test of a sweep is tests/test_interrupt.py.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import numpy as np
import psutil
import pytest

from kktheory.machine import memory
from kktheory.cli import DEFAULT_GROUPS, INTERRUPTED, run_main
from kktheory.run.config import RunSpec, build_spec
from kktheory.datasets import DATASETS
from kktheory.errors import MemoryBudgetError
from kktheory.run.method import Method
from kktheory.kernels.functions import Kernel
from kktheory.run.store import HOST, ORPHAN_AGE, Store, load
from tests.conftest import (
    ROOT,
    SWEEP,
    check_rerun_completes,
    check_whole,
    run_files,
)
from tests.hydra_cfg import make_cfg
from tests.inprocess import run_inprocess

ENV = dict(os.environ, KKTHEORY_PROGRESS="0")


def _default_sigint() -> None:
    # A shell's background job inherits SIGINT ignored; a foreground job (what a user's
    # Ctrl-C reaches) has the default handler. Restore it so the test does not depend on
    # how the suite itself was launched.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(*args: str) -> subprocess.Popen:
    """run.py in its own process group (as a shell runs a foreground job)."""
    return subprocess.Popen(
        [sys.executable, str(ROOT / "run.py"), *args], cwd=ROOT, env=ENV, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        preexec_fn=_default_sigint,
    )


# -- peak RSS --------------------------------------------------------------------------------
def test_peak_rss_of_a_child_is_its_own():
    """A process started by a large one reports its own peak (ru_maxrss would carry the
    parent's across fork + exec), and the peak follows what it touches."""
    big = np.ones(2**27)  # 1 GiB touched in this process
    code = ("import numpy as np; from kktheory.machine.memory import peak_rss_mb; a = peak_rss_mb(); "
            "b = np.ones(2**25); print(a, peak_rss_mb())")  # then 256 MiB touched
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT).stdout.split()
    before, after = float(out[0]), float(out[1])
    assert big.sum() == 2**27 and before < 500
    assert 200 < after - before < 320


# -- memory guard ----------------------------------------------------------------------------
def validate(cfg) -> RunSpec:
    """What a run checks before drawing data: build_spec, then the method for every m."""
    spec = build_spec(cfg)
    Method.of(spec).check(spec.n, [m for _, m in spec.ms])
    return spec


def forbid_work(monkeypatch) -> None:
    """Make drawing data or evaluating the kernel fail: a refusal must come before both."""
    entry = DATASETS.get("yin_hypercube")

    def no_data(*args, **kwargs):
        raise AssertionError("data drawn before the memory guard")

    def no_kernel(self, X, Y):
        raise AssertionError("kernel evaluated before the memory guard")

    monkeypatch.setitem(DATASETS._entries, "yin_hypercube", type(entry)(entry.name, no_data, entry.config_cls))
    monkeypatch.setattr(Kernel, "__call__", no_kernel)


def test_exact_at_n_200000_is_refused_before_any_work(tmp_path, monkeypatch):
    forbid_work(monkeypatch)
    results = tmp_path / "results"
    res = run_inprocess("sketch=exact", "n=200000", "memory_budget_gb=8", results_dir=results)
    assert res.returncode == 2
    line = res.stderr.strip()
    assert "\n" not in line
    estimate = memory.fmt_bytes(200000**2 * 4)  # float32, the default dtype
    assert estimate == "149.0 GiB"
    assert line.startswith("memory: exact kernel k-means (the 200000×200000 kernel matrix K, float32)")
    assert f"needs about {estimate}, above the budget of 8.0 GiB" in line
    assert "sketch.allow_blocked=true" in line and "memory_budget_gb" in line
    assert run_files(results) == []


def test_exact_at_n_200000_subprocess(cli):
    res = cli("sketch=exact", "n=200000")
    assert res.returncode == 2
    assert res.stderr.strip().startswith("memory: exact kernel k-means") and "149.0 GiB" in res.stderr
    assert run_files(cli.results) == []


@pytest.mark.parametrize("overrides, what", [
    (("reference=exact",), "reference=exact (the 200000×200000 kernel matrix K"),
    (("sketch=exact", "centroids=projected"), "exact kernel features (eigendecomposition"),
    (("bounds=[gamma]", "bound_exact_max_n=200000"), "the dense bound checks at n=200000"),
    (("sketch=power",), "the power method multiplies by K"),
    (("sketch=kernel_columns",), "kernel_columns uses all of K"),
    (("sketch=nystrom_rr", "sketch.P=gaussian"), "sketch.P=gaussian forms C = K·P"),
    (("sketch=nystrom_rls", "sketch.method=exact"), "exact ridge leverage scores"),
    (("m=200000",), "the Nyström sketch"),
    (("sketch=gaussian", "m=20000"), "the Gaussian projection"),
    (("sketch=onepass", "m=20000"), "the one-pass sketch"),
    (("sketch=ros", "m=100000"), "the sketched kernel columns"),
    (("sketch=rff", "m=100000"), "random Fourier features"),
])
def test_quadratic_steps_are_refused_at_validation(monkeypatch, overrides, what):
    """Every n² (or large n·m) step is estimated from the config alone."""
    forbid_work(monkeypatch)
    cfg = make_cfg("n=200000", "memory_budget_gb=8", "reference=none", *overrides)
    with pytest.raises(MemoryBudgetError) as exc:
        validate(cfg)
    assert what in str(exc.value) and "above the budget of 8.0 GiB" in str(exc.value)


def test_explicit_blocked_recomputation_passes_validation():
    """The slow, bounded-memory paths are allowed when asked for explicitly."""
    for overrides in (("sketch=exact", "sketch.allow_blocked=true"), ("reference=exact:blocked",)):
        spec = validate(make_cfg("n=200000", "memory_budget_gb=8", *overrides))
        assert spec.reference.kind in ("auto", "exact")
    assert validate(make_cfg("n=200000", "memory_budget_gb=8")).reference.kind == "auto"


# -- interrupted and concurrent sweeps --------------------------------------------------------
def wait_for_rows(proc: subprocess.Popen, results, count: int = 1, timeout: float = 300.0) -> None:
    """Wait until the sweep has written ``count`` rows (and is still running)."""
    t0 = time.monotonic()
    while len(run_files(results)) < count:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() - t0 < timeout
        time.sleep(0.02)


def test_ctrl_c_leaves_whole_files_and_the_rerun_completes(tmp_path):
    results = tmp_path / "results"
    proc = start(*SWEEP, f"results_dir={results}")
    rng = np.random.default_rng(11)
    wait_for_rows(proc, results, int(rng.integers(1, 10)))  # a random point of the sweep:
    time.sleep(rng.uniform(0.0, 0.3))  # after a random number of rows, then a random delay
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal sends
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1] == INTERRUPTED
    check_whole(results, 300)
    done = {p.name for p in run_files(results)}
    assert 1 <= len(done) < 12
    check_rerun_completes(results, done)


def test_sigterm_ends_with_one_line_and_no_temporary_file(tmp_path):
    """SIGTERM after the first rows of a sweep long enough (36 rows) that it is still running
    when the signal arrives (the 12-row sweep could finish first on a fast, idle machine)."""
    results = tmp_path / "results"
    proc = start(*SWEEP[:-1], "seed=range(12)", f"results_dir={results}")
    wait_for_rows(proc, results)
    os.killpg(proc.pid, signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    assert err.strip().splitlines()[-1] == INTERRUPTED
    check_whole(results, 300)


def test_two_overlapping_sweeps_at_once(tmp_path):
    """Both compute seeds 0–2 at the same moment (same files); every row once, all whole."""
    results = tmp_path / "results"
    common = ("-m", "n=300", "n_test=100", "k=3", "m=[8,16]", f"results_dir={results}")
    procs = [start(*common, "seed=0,1,2"), start(*common, "seed=0,1,2,3")]
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
    rows = load(results)
    assert len(rows) == 8 and rows.run_id.is_unique
    assert sorted(zip(rows.seed, rows.m)) == sorted((s, m) for s in range(4) for m in (8, 16))
    assert len(list((results / "runs").glob("*.npz"))) == 8
    check_whole(results, 300)
    for rid in rows.run_id:  # every sidecar agrees with its row
        arrays = Store(results).arrays(rid)
        row = rows.set_index("run_id").loc[rid]
        assert np.isclose(np.mean(arrays["train_nearest"] != arrays["train_labels"]), row.train_reassigned)


# -- orphaned temporary files -----------------------------------------------------------------
def test_sweep_orphans_removes_only_dead_writers_files(tmp_path):
    store = Store(tmp_path)
    store.runs.mkdir(parents=True)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    files = {
        "dead_here": f".a.parquet.{HOST}-{dead.pid}.0000aaaa.tmp",
        "alive_here": f".b.parquet.{HOST}-{os.getpid()}.0000bbbb.tmp",
        "other_host_fresh": f".c.parquet.deadbeef-{os.getpid()}.0000cccc.tmp",
        "other_host_old": f".d.parquet.deadbeef-{os.getpid()}.0000dddd.tmp",
        "legacy_dead": f".e.parquet.{dead.pid}.0000eeee.tmp",
    }
    for name in files.values():
        (store.runs / name).write_bytes(b"partial")
    old = time.time() - ORPHAN_AGE - 60
    os.utime(store.runs / files["other_host_old"], (old, old))
    assert store.sweep_orphans() == 3
    left = {p.name for p in store.runs.iterdir()}
    assert left == {files["alive_here"], files["other_host_fresh"]}
    # a live process whose pid a dead writer had: it started after the file's last write
    reused = store.runs / f".f.parquet.{HOST}-{os.getpid()}.0000ffff.tmp"
    reused.write_bytes(b"partial")
    before = psutil.Process().create_time() - 60
    os.utime(reused, (before, before))
    assert store.sweep_orphans() == 1 and not reused.exists()


def test_a_bad_job_does_not_stop_the_sweep(tmp_path):
    """m=100000 > n fails validation (nothing computed); the other jobs run; status 2."""
    results = tmp_path / "results"
    res = run_inprocess("-m", "n=200", "n_test=50", "k=3", "m=8,100000,16", results_dir=results)
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert any(line.startswith("job 1 (") and "config error: m=100000: 1 ≤ m ≤ n=200" in line for line in lines)
    assert lines[-1].startswith("sweep: the jobs above failed")
    assert sorted(load(results).m) == [8, 16]


def test_a_signal_replaced_by_another_exception_still_ends_as_interrupted(capsys):
    """SIGINT inside Hydra's or OmegaConf's bookkeeping may surface as another exception
    (CI once saw an ``AttributeError`` from a half-restored config); the exit status and the
    line still say interrupted."""

    def main() -> None:
        try:
            os.kill(os.getpid(), signal.SIGINT)
        except KeyboardInterrupt:
            raise AttributeError("'NoneType' object has no attribute '_invalidate_flags_cache'")

    before = signal.getsignal(signal.SIGINT)
    assert run_main(main, DEFAULT_GROUPS) == 130
    assert capsys.readouterr().err.strip() == INTERRUPTED
    assert signal.getsignal(signal.SIGINT) is before  # the handler the process had is restored


def test_an_exception_without_a_signal_is_not_called_an_interruption():
    def main() -> None:
        raise AttributeError("a bug")

    with pytest.raises(AttributeError, match="a bug"):
        run_main(main, DEFAULT_GROUPS)
