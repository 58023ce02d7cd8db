"""backend=dask reads a data set's rows on the workers, from its files.

On a LocalCluster of two worker processes: the chunks of X are tasks that read row ranges
of a tiny augmented-MNIST uint8 file (written by the project's own generator) or parse a
tiny LIBSVM file in the worker; their rows equal the in-memory loader's bit for bit; the
task graph holds file names and row bounds, nothing of size n; a run sends no large graph
(the warning threshold is lowered far below the size of X) and writes the rows of the NumPy
backend's run where they must agree (n, m, landmarks, bandwidth; partition quality within
the k-means|| vs k-means++ difference).
"""

from __future__ import annotations

import logging
import os
import pickle
import warnings
from pathlib import Path

import numpy as np
import pytest

from kktheory.run.config import build_spec
from kktheory.datasets import augmented_mnist as am
from kktheory.datasets.base import TableRows
from kktheory.datasets.disk_rows import DiskRows
from kktheory.datasets.sources import RowSource
from kktheory.run.experiment import load_data, run
from kktheory.run.store import load_arrays
from tests.hydra_cfg import make_cfg
from tests.test_datasets_augmented import stroke_digits

da = pytest.importorskip("dask.array")  # the optional extra: pip install -e ".[dask]"
pytest.importorskip("dask_ml")
distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")

from kktheory.run import dask as dask_backend  # noqa: E402  (after the skip: imports Dask)

THRESHOLD = 2**20  # "Sending large graph" above 1 MiB here (distributed's default: 10 MB)
CHUNK = 500
#: small risk samples, so that what the risk sends back (the sampled points) stays far below THRESHOLD
RISK = ("risk_points=100", "risk_pairs=2000", "reference=none", "seed=0", f"dask_chunk_rows={CHUNK}")


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes (they import kktheory and read the files themselves)."""
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None) as lc:
        yield lc


@pytest.fixture(scope="module")
def augmented(tmp_path_factory: pytest.TempPathFactory):
    """Config of augmented MNIST from stroke digits: the client's loader draws from them and
    writes the uint8 files (once for the module); the workers read only those files."""
    digits = stroke_digits(40)
    images = np.tile(digits, (1750, 1))
    labels = np.tile(np.arange(40) % 10, 1750).astype(np.uint8)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(am, "mnist_arrays", lambda data_dir, download: (images, labels, {"source": "synthetic"}))
        yield ["dataset=augmented_mnist", "dataset.test_set=augmented",
               f"dataset.cache_dir={tmp_path_factory.mktemp('cache')}", "n=1000", "n_test=300", "k=10",
               "dtype=float32"]


@pytest.fixture
def libsvm(tmp_path: Path) -> list[str]:
    """Config of a tiny LIBSVM file (mushrooms' format: 112 features, two classes, 70/30 split)."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 3000)
    X = np.round(rng.normal(size=(3000, 112)) * 0.3 + 2.0 * y[:, None] * (np.arange(112) < 10), 3)
    lines = [f"{2 * c - 1} " + " ".join(f"{j + 1}:{v}" for j, v in enumerate(x) if v != 0) for c, x in zip(y, X)]
    (tmp_path / "libsvm").mkdir()
    (tmp_path / "libsvm" / "mushrooms").write_text("\n".join(lines) + "\n")
    return ["dataset=mushrooms", f"dataset.data_dir={tmp_path}", "dataset.normalize=l2_rows",
            "n=2000", "n_test=800", "k=2", "m=[10,30]"]


def draw(overrides: list[str], sources: bool):
    return load_data(build_spec(make_cfg(*overrides, *RISK)), sources)


def graph_bytes(X) -> int:
    return len(pickle.dumps(dict(X.__dask_graph__())))


@pytest.mark.parametrize("name", ["augmented", "libsvm"])
def test_chunks_are_read_on_the_workers_with_the_in_memory_rows(name, request, cluster) -> None:
    """Each chunk task holds the source (file names, config, stream state) and its bounds;
    computed in the worker processes, the rows are the in-memory loader's, bit for bit."""
    overrides = request.getfixturevalue(name)
    memory, files = draw(overrides, False), draw(overrides, True)
    kind = DiskRows if name == "augmented" else TableRows
    assert isinstance(files.X_train, kind) and isinstance(files.X_test, kind)
    np.testing.assert_array_equal(files.y_train, memory.y_train)
    np.testing.assert_array_equal(files.train_idx, memory.train_idx)
    with distributed.Client(cluster):
        for source, held in ((files.X_train, memory.X_train), (files.X_test, memory.X_test)):
            X = dask_backend.as_rows_array(source, CHUNK)
            tasks = dict(X.__dask_graph__())
            assert len(tasks) == -(-len(held) // CHUNK)
            for task in tasks.values():  # a source and two row bounds, no array
                args = [getattr(a, "value", a) for a in getattr(task, "args", task[1:])]
                assert isinstance(args[0], RowSource) and all(isinstance(a, int) for a in args[1:])
            assert graph_bytes(X) < 2048 * len(tasks)
            pids = X.map_blocks(lambda b: np.array([os.getpid()]), chunks=((1,) * len(tasks),), drop_axis=1)
            assert os.getpid() not in set(pids.compute().tolist())  # read in the worker processes
            got = X.compute()
            assert got.dtype == held.dtype
            np.testing.assert_array_equal(got, held)
        # what the task graph would carry with X held by the client
        assert graph_bytes(da.from_array(memory.X_train, chunks=(CHUNK, -1))) > THRESHOLD


def test_a_run_reads_on_the_workers_and_writes_the_numpy_rows(augmented, tmp_path, cluster, caplog) -> None:
    """The same config and seed on the NumPy backend and on the cluster (augmented MNIST read
    from its file by the workers; Wang's rank-restricted Nyström, whose RᵀR is reduced on the
    workers): no large graph sent, the same n, m, landmarks and bandwidth, partitions of the
    same quality (one k-means start, at most 20 iterations: dask-ml's iterations are round
    trips to the scheduler)."""
    common = [*augmented, *RISK, "sketch=nystrom_rr", "m=30", "sketch.s=10", "clustering.n_init=1",
              "clustering.max_iter=20", f"results_dir={tmp_path}"]
    (a,) = run(make_cfg(*common)).rows
    with warnings.catch_warnings(record=True) as caught, caplog.at_level(logging.WARNING, "distributed"), \
            dask.config.set({"distributed.admin.large-graph-warning-threshold": f"{THRESHOLD}B"}):
        warnings.simplefilter("always")
        (b,) = run(make_cfg(*common, "backend=dask", f"dask_scheduler={cluster.scheduler_address}")).rows
    assert not [w for w in caught if "large graph" in str(w.message)], [str(w.message) for w in caught]
    assert not [r for r in caplog.records if "large graph" in r.getMessage()]
    assert (b["backend"], b["m"], b["n"], b["n_test"]) == ("dask", a["m"], a["n"], a["n_test"])
    assert b["kernel_sigma"] == pytest.approx(a["kernel_sigma"], rel=1e-9)
    la, lb = (load_arrays(r["run_id"], tmp_path) for r in (a, b))
    np.testing.assert_array_equal(la["landmarks"], lb["landmarks"])
    assert abs(a["train_nmi"] - b["train_nmi"]) < 0.1, (a["train_nmi"], b["train_nmi"])
    assert b["test_risk"] == pytest.approx(a["test_risk"], rel=0.1)


def test_arrays_the_client_holds_reach_the_workers_outside_the_graph(cluster) -> None:
    """Rows drawn on the client (generated data sets), label slices, membership rows and
    pair positions are scattered to the workers: with the large-graph threshold below the
    size of each, the chunked steps send no large graph and give the in-memory numbers."""
    from kktheory.kernels.geometry import membership
    from kktheory.kernels.functions import Kernel
    from kktheory.evaluation.risk import Rows

    rng = np.random.default_rng(0)
    n, k = 20000, 8
    X, labels = rng.normal(size=(n, 8)), rng.integers(0, k, n)  # X 1.3 MB, Z 1.3 MB, labels 160 kB
    Z, Y = membership(labels, k), rng.normal(size=(50, 8))
    ia, ib = rng.integers(0, n, 20000), rng.integers(0, n, 20000)  # pair positions 320 kB
    kernel = Kernel("gaussian", sigma=2.0)
    with distributed.Client(cluster), warnings.catch_warnings(record=True) as caught, \
            dask.config.set({"distributed.admin.large-graph-warning-threshold": "100kB"}):
        warnings.simplefilter("always")
        Xd = dask_backend.as_rows_array(X, 4000)
        rows = dask_backend.DaskRows(Xd)
        objective = dask_backend.feature_objective(Xd, labels, k)
        sums = rows.cross_sums(kernel, Y, Z, 2**30, "")
        pairs = rows.paired(kernel, ia, ib, 2**30)
    assert not [w for w in caught if "large graph" in str(w.message)], [str(w.message) for w in caught]
    means = np.stack([X[labels == j].mean(axis=0) for j in range(k)])
    assert objective == pytest.approx(np.mean(np.sum((X - means[labels]) ** 2, axis=1)), rel=1e-10)
    np.testing.assert_allclose(sums, Rows(X).cross_sums(kernel, Y, Z, 2**30, ""), rtol=1e-10)
    np.testing.assert_allclose(pairs, Rows(X).paired(kernel, ia, ib, 2**30), rtol=1e-12)
