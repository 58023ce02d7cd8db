"""Training rows that stay on disk (DiskRows): indexing against the in-memory conversion,
the Nyström path that reads them in blocks, and the refusals of everything else.

The run-level test uses synthetic stroke digits in place of the MNIST files (the loader's
source is patched), so it runs whether or not MNIST is on the machine.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from kktheory.run.config import build_spec
from kktheory.datasets import augmented_mnist as am
from kktheory.datasets.disk_rows import DiskRows
from kktheory.errors import ConfigError
from kktheory.run.experiment import run
from kktheory.kernels.functions import Kernel
from kktheory.embeddings import SKETCHES, SketchContext
from kktheory.embeddings.nystrom import NystromConfig
from kktheory.run.store import Store
from tests.hydra_cfg import make_cfg
from tests.test_datasets_augmented import stroke_digits

@pytest.fixture(scope="module")
def pixels(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, np.ndarray]:
    rng = np.random.default_rng(0)
    a = rng.integers(0, 256, (500, 784)).astype(np.uint8)
    path = tmp_path_factory.mktemp("rows") / "a.npy"
    np.save(path, a)
    return path, a


def test_indexing_equals_the_in_memory_conversion(pixels):
    path, a = pixels
    rows = DiskRows(path, 450)
    ref = am.as_unit_float32(a[:450])
    assert rows.shape == (450, 784) and len(rows) == 450 and rows.dtype == np.float32
    assert np.array_equal(rows[:], ref) and np.array_equal(rows[17:333], ref[17:333])
    assert np.array_equal(rows[::7], ref[::7]) and np.array_equal(rows[400:], ref[400:])
    assert np.array_equal(rows[5], ref[5]) and np.array_equal(rows[-1], ref[-1])
    idx = np.array([5, 3, 3, 449, 0, 4, -2])  # unsorted, repeated, negative
    assert np.array_equal(rows[idx], ref[idx])
    mask = np.zeros(450, dtype=bool)
    mask[[1, 2, 3, 200]] = True
    assert np.array_equal(rows[mask], ref[mask])
    assert rows[10:10].shape == (0, 784) and rows[[]].shape == (0, 784)
    assert np.array_equal(rows[np.array([120, 3], dtype=np.int8)], ref[[120, 3]])


def test_whole_array_and_bad_indices_are_refused(pixels, tmp_path: Path):
    path, _ = pixels
    rows = DiskRows(path)
    with pytest.raises(TypeError, match="read in blocks, not whole"):
        np.asarray(rows)
    for bad in (500, -501):
        with pytest.raises(IndexError):
            rows[bad]
    with pytest.raises(IndexError):
        rows[np.array([0, 500])]
    with pytest.raises(IndexError):
        rows[np.zeros(3, dtype=bool)]
    with pytest.raises(ValueError, match="holds 500"):
        DiskRows(path, 501)
    np.save(tmp_path / "f.npy", np.zeros((3, 4), np.float32))
    with pytest.raises(ValueError, match="uint8"):
        DiskRows(tmp_path / "f.npy")


def nystrom_features(X, budget: int, ms=(10, 25)) -> dict[int, np.ndarray]:
    ctx = SketchContext(n=len(X), k=3, gamma=1.0, budget=budget)
    cls = SKETCHES.get("nystrom").impl
    nested = cls.fit_nested(NystromConfig(), ctx, X, Kernel("gaussian", sigma=4.0), list(ms),
                            lambda: np.random.default_rng(3))
    return {m: sk.transform(X).copy() for m, sk in nested}


def test_nystrom_reads_disk_rows_and_shares_K_only_when_it_fits(pixels, monkeypatch: pytest.MonkeyPatch):
    """Features from rows on disk equal those in memory; a budget too small for K_{n,m_max}
    beside the features computes every m in row blocks, with the same features."""
    path, a = pixels
    X = am.as_unit_float32(a)
    shared = nystrom_features(X, 2**30)
    calls = []
    matrix = Kernel.matrix
    monkeypatch.setattr(Kernel, "matrix", lambda self, *args: calls.append(1) or matrix(self, *args))
    assert nystrom_features(X, 2**30) and calls  # K_{n,25} shared by the list
    calls.clear()
    small = 250_000  # the features and a block of 500 × 25 float64 (200 kB) fit, K_{n,25} (100 kB) beside them not
    streamed = nystrom_features(X, small)
    on_disk = nystrom_features(DiskRows(path), small)
    assert not calls
    for m in (10, 25):
        np.testing.assert_allclose(streamed[m], shared[m], rtol=1e-9, atol=1e-12)
        assert np.array_equal(on_disk[m], streamed[m])


@pytest.fixture
def synthetic_mnist(monkeypatch: pytest.MonkeyPatch):
    """The loader's MNIST source replaced by 70,000 tiled stroke digits (uint8) and labels."""
    digits = stroke_digits(40)
    images = np.tile(digits, (1750, 1))
    labels = np.tile(np.arange(40) % 10, 1750).astype(np.uint8)
    monkeypatch.setattr(am, "mnist_arrays", lambda data_dir, download: (images, labels, {"source": "synthetic"}))
    return images, labels


def test_a_run_on_disk_rows_writes_the_rows_of_the_in_memory_run(synthetic_mnist, tmp_path: Path):
    common = ["dataset=augmented_mnist", "n=400", "n_test=150", "dataset.test_set=augmented", "centroids=projected",
              "reference=none", "m=[8,20]", "clustering=minibatch", "dtype=float32",
              f"dataset.cache_dir={tmp_path / 'cache'}"]
    rows = {}
    for name, limit in (("memory", 10**6), ("disk", 0)):
        out = run(make_cfg(*common, f"dataset.in_memory_max={limit}", f"results_dir={tmp_path / name}"))
        rows[name] = sorted(out.rows, key=lambda r: r["m"])
    images, labels = synthetic_mnist
    test = Store(tmp_path / "disk").arrays(rows["disk"][0]["run_id"])["test_idx"]
    assert np.array_equal(test, np.arange(150))
    for a, b in zip(rows["memory"], rows["disk"]):
        assert a["run_id"] == b["run_id"]  # where the rows live is not part of a run
        for col in ("train_risk", "test_risk", "objective", "train_nmi", "test_nmi", "kernel_sigma"):
            assert a[col] == b[col], col


def test_augmented_test_set_deforms_the_test_digits(synthetic_mnist, tmp_path: Path):
    images, labels = synthetic_mnist
    entry = am.DATASETS.get("augmented_mnist")
    params = entry.config_cls(cache_dir=str(tmp_path), test_set="augmented")
    data = entry.impl(params, 50, 30, 10, np.random.default_rng(0))
    expected = am.deform(images[60000:], np.arange(30), params, "test")
    assert np.array_equal(data.X_test, am.as_unit_float32(expected))
    assert np.array_equal(data.y_test, labels[60000 + np.arange(30) % 10000])
    train_stream = am.deform(images[60000:], np.arange(30), params)
    assert not np.array_equal(expected, train_stream)  # its own generator stream


@pytest.mark.parametrize("overrides, field", [
    (("sketch=kpca",), "sketch="),
    (("centroids=lifted",), "centroids="),
    (("reference=exact",), "reference="),
    (("bounds=[trace]",), "bounds="),
    (("backend=dask", "reference=exact"), "reference="),
])
def test_everything_that_would_read_the_rows_whole_is_refused(overrides, field, tmp_path: Path):
    base = ["dataset=augmented_mnist", "dataset.in_memory_max=100", "n=500", "centroids=projected", "reference=none",
            f"results_dir={tmp_path}"]
    with pytest.raises(ConfigError, match=f"^config error: {field}.*stay on disk"):
        build_spec(make_cfg(*base, *overrides))
    build_spec(make_cfg(*base))  # the accepted setting
    build_spec(make_cfg(*base, "backend=dask", "centroids=lifted", "sketch=nystrom_liu"))  # the workers read the rows
    assert not os.listdir(tmp_path)
