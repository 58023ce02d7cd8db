"""Bad input in every config group: exit status 2, one line naming the field, no run file.

Most cases run in this process through :func:`tests.inprocess.run_inprocess` (the same
``run_main`` and ``run_job`` as run.py); a few are true subprocesses of run.py, and
:func:`test_inprocess_matches_subprocess` checks that both give the same status and line.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from tests.conftest import ROOT, run_files
from tests.inprocess import run_inprocess

SMALL = ("n=60", "n_test=30", "k=3", "m=8")

#: (overrides, text the one line must contain: the field followed by "=")
CASES = [
    # top level
    (("n=0",), "n="),
    (("n=abc",), "n="),
    (("n_test=0",), "n_test="),
    (("k=0",), "k="),
    (("n=50", "k=51"), "k="),
    (("m=0",), "m="),
    (("m=100000",), "m="),
    (("m=[]",), "m="),
    (("m=sqrt_x",), "m="),
    (("m=2.5",), "m="),
    (("gamma=-1",), "gamma="),
    (("gamma=n_over_gamma",), "gamma="),
    (("seed=-1",), "seed="),
    (("data_seed=-3",), "data_seed="),
    (("dtype=float16",), "dtype="),
    (("centroids=nearest",), "centroids="),
    (("sketch=ros", "centroids=projected"), "centroids="),
    (("risk_exact_limit=-1",), "risk_exact_limit="),
    (("risk_points=1",), "risk_points="),
    (("risk_pairs=0",), "risk_pairs="),
    (("reference=bogus",), "reference="),
    (("reference=nystrom:0",), "reference="),
    (("reference_n_init=0",), "reference_n_init="),
    (("memory_budget_gb=0",), "memory_budget_gb="),
    (("memory_budget_gb=inf",), "memory_budget_gb="),
    (("force=maybe",), "force="),
    (("bounds=[gamma,bogus]",), "bounds="),
    (("bound_delta=1.5",), "bound_delta="),
    (("bound_eps=0",), "bound_eps="),
    (("bound_exact_max_n=-1",), "bound_exact_max_n="),
    (("bound_sample_points=1",), "bound_sample_points="),
    (("bound_tol=0",), "bound_tol="),
    (("column_objective=maybe",), "column_objective="),
    (("column_objective=true", "risk_exact_limit=50"), "column_objective="),  # n = 60 > 50: one more O(n²d) pass
    (("bogus=1",), "bogus="),
    # dataset
    (("dataset=nope",), "dataset="),
    (("dataset.dim=abc",), "dataset.dim="),
    (("dataset.std=nan",), "dataset.std="),
    (("dataset.bogus=1",), "dataset.bogus="),
    (("dataset.dim=0",), "dataset.dim="),
    (("dataset.std=-1",), "dataset.std="),
    (("dataset=moons", "dataset.noise=-1"), "dataset.noise="),
    (("dataset=wang_rings", "dataset.radii=[1]"), "dataset.radii="),
    (("dataset=digits", "n=5000"), "n="),
    (("dataset=digits", "n_test=5000"), "n_test="),
    (("dataset=digits", "dataset.split=bogus"), "dataset.split="),
    (("dataset=digits", "dataset.split=own"), "dataset.split="),
    (("dataset=digits", "dataset.test_fraction=1.5"), "dataset.test_fraction="),
    (("dataset=digits", "dataset.normalize=l3"), "dataset.normalize="),
    (("dataset=segment", "dataset.source=bogus"), "dataset.source="),
    (("dataset=augmented_mnist", "dataset.sigma=0"), "dataset.sigma="),
    (("dataset=augmented_mnist", "dataset.in_memory_max=-1"), "dataset.in_memory_max="),
    (("dataset=augmented_mnist", "dataset.test_set=bogus"), "dataset.test_set="),
    (("dataset=augmented_mnist", "dataset.in_memory_max=100", "n=500"), "centroids="),
    # data files absent: the message names the folder and the field that moves it
    (("dataset=mnist", "dataset.data_dir=/nonexistent", "dataset.download=false"), "dataset.data_dir"),
    (("dataset=a8a", "dataset.data_dir=/nonexistent"), "dataset.data_dir"),
    # kernel
    (("kernel=nope",), "kernel="),
    (("kernel.sigma=0",), "kernel.sigma="),
    (("kernel.sigma=inf",), "kernel.sigma="),
    (("kernel.bandwidth=silverman",), "kernel.bandwidth="),
    (("kernel.bandwidth=wang", "kernel.beta=-1"), "kernel.beta="),
    (("kernel=polynomial", "kernel.degree=0"), "kernel.degree="),
    (("kernel=polynomial", "kernel.coef0=-1"), "kernel.coef0="),
    # sketch
    (("sketch=nope",), "sketch="),
    (("sketch=nystrom", "sketch.eig_cutoff=1.5"), "sketch.eig_cutoff="),
    (("sketch=spectral_nystrom", "sketch.eig_cutoff=-1"), "sketch.eig_cutoff="),
    (("sketch=spectral_nystrom", "sketch.s=2"), "sketch.s="),
    (("sketch=nystrom_rls", "sketch.method=bogus"), "sketch.method="),
    (("sketch=nystrom_rls", "sketch.bless_oversample=0"), "sketch.bless_oversample="),
    (("sketch=nystrom_rr", "sketch.P=bogus"), "sketch.P="),
    (("sketch=nystrom_rr", "sketch.s=6", "sketch.ell=5"), "sketch.s="),
    (("sketch=nystrom_rr", "sketch.ell=9"), "sketch.ell="),
    (("sketch=kpca", "sketch.s=bogus"), "sketch.s="),
    (("sketch=power", "sketch.t=-1"), "sketch.t="),
    (("sketch=power", "sketch.s=9"), "sketch.s="),
    (("sketch=ros", "sketch.transform=hadamard", "m=10"), "m="),
    (("sketch=ros", "sketch.order=bogus"), "sketch.order="),
    (("sketch=ros", "sketch.transform=fft"), "sketch.transform="),
    (("sketch=subgaussian", "sketch.p=0"), "sketch.p="),
    (("sketch=subgaussian", "sketch.p=1.5"), "sketch.p="),
    (("sketch=onepass", "sketch.rank=0"), "sketch.rank="),
    (("sketch=onepass", "sketch.oversampling=100"), "sketch.oversampling="),
    (("sketch=onepass", "m=2"), "m="),
    (("sketch=onepass", "sketch.reading=rank_last"), "sketch.reading="),
    (("sketch=rff", "kernel=linear"), "kernel.name="),
    (("sketch=rff", "sketch.s=9"), "sketch.s="),
    (("sketch=exact", "sketch.eig_cutoff=2"), "sketch.eig_cutoff="),
    (("sketch=exact", "sketch.n_local_trials=0"), "sketch.n_local_trials="),
    (("sketch=nystrom", "sketch.bogus=1"), "sketch.bogus="),
    (("sketch=ros_schema",), "sketch='ros_schema': one of approx_kkm, "),  # a schema is not an option
    (("kernel=kernel_schema",), "kernel='kernel_schema': one of gaussian, linear, polynomial"),
    (("dataset=dna_schema",), "dataset='dna_schema': one of a8a, "),
    (("clustering=minibatch_schema",), "clustering='minibatch_schema': one of kmeanspp, localsearch, minibatch"),
    # clustering
    (("clustering=nope",), "clustering="),
    (("clustering.n_init=0",), "clustering.n_init="),
    (("clustering.max_iter=0",), "clustering.max_iter="),
    (("clustering.tol=-1",), "clustering.tol="),
    (("clustering.tol=nan",), "clustering.tol="),
    (("clustering=minibatch", "clustering.batch_size=0"), "clustering.batch_size="),
    (("clustering=localsearch", "clustering.Z=-1"), "clustering.Z="),
    (("clustering=minibatch", "clustering.warm_start=true"), "clustering.warm_start"),
    (("backend=dask", "clustering.warm_start=true"), "clustering.warm_start="),
    (("backend=dask", "clustering.algorithm=elkan"), "clustering.algorithm="),
]


def check_refused(res, expect: str, results) -> None:
    assert res.returncode == 2, (res.stdout, res.stderr)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert expect in lines[0], lines[0]
    assert run_files(results) == []


@pytest.mark.parametrize("args, expect", CASES, ids=[" ".join(a) for a, _ in CASES])
def test_bad_input(tmp_path, args, expect):
    results = tmp_path / "results"
    check_refused(run_inprocess(*SMALL, *args, results_dir=results), expect, results)


def write_libsvm_with_nonfinite(folder) -> None:
    """A 40-point, 2-class LIBSVM file ``mushrooms`` with NaN in 2 rows and inf in 1."""
    rng = np.random.default_rng(0)
    lines = []
    for i in range(40):
        y = 1 if i % 2 else -1
        values = [f"{v:.4f}" for v in rng.normal(size=3) + 2 * y]
        if i in (3, 17):
            values[1] = "nan"
        if i == 25:
            values[0] = "inf"
        lines.append(f"{y} " + " ".join(f"{j + 1}:{v}" for j, v in enumerate(values)))
    (folder / "libsvm").mkdir(parents=True)
    (folder / "libsvm" / "mushrooms").write_text("\n".join(lines) + "\n")


def test_nonfinite_file_data_refused_unless_dropped(tmp_path):
    write_libsvm_with_nonfinite(tmp_path / "data")
    args = ("dataset=mushrooms", f"dataset.data_dir={tmp_path / 'data'}", "n=20", "n_test=8", "k=2", "m=5")
    results = tmp_path / "results"
    res = run_inprocess(*args, results_dir=results)
    check_refused(res, "dataset mushrooms: 3 non-finite values (NaN/inf) in 3 rows", results)
    assert "dataset.drop_nonfinite=true" in res.stderr
    res = run_inprocess(*args, "dataset.drop_nonfinite=true", results_dir=results)
    assert res.returncode == 0, res.stderr
    assert len(run_files(results)) == 1


def test_cases_cover_every_group():
    """At least 30 distinct cases, and every group and several sketches among them."""
    assert len({a for a, _ in CASES}) >= 30
    fields = {e.rstrip("=") for _, e in CASES}
    assert {"dataset", "kernel", "sketch", "clustering"} <= fields
    sketches = {a.split("=")[1] for args, _ in CASES for a in args if a.startswith("sketch=")}
    assert len(sketches) >= 8


SUBPROCESS_CASES = [
    (("m=0",), "m="),
    (("kernel.sigma=-1",), "kernel.sigma="),
    (("sketch=nystrom_rr", "sketch.s=6", "sketch.ell=5"), "sketch.s="),
    (("clustering=minibatch", "clustering.batch_size=0"), "clustering.batch_size="),
    (("dataset.std=inf",), "dataset.std="),
]


def test_inprocess_matches_subprocess(tmp_path):
    """True subprocesses of run.py (started together), and the same cases in-process."""
    procs = [
        subprocess.Popen(
            [sys.executable, str(ROOT / "run.py"), *SMALL, *args, f"results_dir={tmp_path / str(i)}"],
            cwd=ROOT, env=dict(os.environ, KKTHEORY_PROGRESS="0"), text=True,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        for i, (args, _) in enumerate(SUBPROCESS_CASES)
    ]
    for i, ((args, expect), proc) in enumerate(zip(SUBPROCESS_CASES, procs)):
        out, err = proc.communicate(timeout=600)
        sub = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
        check_refused(sub, expect, tmp_path / str(i))
        inproc = run_inprocess(*SMALL, *args, results_dir=tmp_path / f"in{i}")
        assert (inproc.returncode, inproc.stderr.strip()) == (sub.returncode, sub.stderr.strip())


def test_results_dir_that_is_a_file(tmp_path):
    target = tmp_path / "file"
    target.write_text("not a folder")
    res = run_inprocess(*SMALL, results_dir=target)
    assert res.returncode == 2 and res.stderr.strip().startswith("config error: results_dir=")
    assert target.read_text() == "not a folder"


def test_non_finite_data_is_refused_after_loading(tmp_path, monkeypatch):
    """A loader returning NaN/inf: DataError naming the data set and the count, no row."""
    from kktheory.datasets import DATASETS

    entry = DATASETS.get("yin_hypercube")

    def poisoned(params, n, n_test, k, rng):
        data = entry.impl(params, n, n_test, k, rng)
        data.X_train[:2, 0] = float("nan")
        data.X_test[0, 1] = float("inf")
        return data

    monkeypatch.setitem(DATASETS._entries, "yin_hypercube", type(entry)(entry.name, poisoned, entry.config_cls))
    results = tmp_path / "results"
    res = run_inprocess(*SMALL, results_dir=results)
    assert res.returncode == 2, res.stderr
    line = res.stderr.strip()
    assert "\n" not in line and "dataset yin_hypercube: 2 train points with non-finite values" in line
    assert run_files(results) == []


def test_failed_run_leaves_no_folder(tmp_path):
    """Hydra creates the run's folder (results/hydra/<date>/<time>) before the job starts; a
    job refused at validation or at loading removes it, and an earlier run's stays."""
    results = tmp_path / "results"
    check_refused(run_inprocess(*SMALL, "m=0", results_dir=results), "m=", results)
    assert not results.exists()
    args = ("dataset=a8a", f"dataset.data_dir={tmp_path / 'nowhere'}")
    check_refused(run_inprocess(*SMALL, *args, results_dir=results), "dataset.data_dir", results)
    assert not results.exists()
    assert run_inprocess(*SMALL, results_dir=results).returncode == 0
    kept = sorted(p.relative_to(results) for p in (results / "hydra").rglob("*"))
    assert any(p.suffix == ".log" for p in kept) and any(p.name == "config.yaml" for p in kept)
    assert run_inprocess(*SMALL, "m=0", results_dir=results).returncode == 2
    assert sorted(p.relative_to(results) for p in (results / "hydra").rglob("*")) == kept
    assert len(run_files(results)) == 1


@pytest.mark.parametrize("override, key, listed", [("m=10,20", "m", "[10,20]"), ("seed=range(3)", "seed", None)])
def test_sweep_without_m_suggests_m_and_a_list(tmp_path, override, key, listed):
    res = run_inprocess(*SMALL, override, results_dir=tmp_path)
    check_refused(res, f"config error: {override}: ", tmp_path)
    line = res.stderr.strip()
    assert f"python run.py -m {override}" in line
    assert (f"{key}={listed}" in line) if listed else ("[" not in line)


def test_multirun_with_cfg_is_one_line(tmp_path):
    res = run_inprocess("-m", "--cfg", "job", "m=10,20", results_dir=tmp_path)
    check_refused(res, "-m/--multirun, --cfg", tmp_path)
    assert "python run.py m=10 --cfg job" in res.stderr
