"""MNIST: IDX reader, the full loader on the data folder, and the offline error."""

from __future__ import annotations

import gzip
import struct
import warnings
from pathlib import Path

import numpy as np
import pytest

from kktheory.datasets import DATASETS, base, mnist
from kktheory.errors import DataError
from tests.data_folder import data_dir, needs_data

DATA = data_dir()
needs_mnist = needs_data(*(f"mnist/{name}.gz" for name in mnist.MNIST_FILES))

TRAIN_COUNTS = [5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949]
TEST_COUNTS = [980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009]


def write_idx(path: Path, array: np.ndarray, code: int, compress: bool) -> None:
    header = bytes([0, 0, code, array.ndim]) + struct.pack(f">{array.ndim}i", *array.shape)
    payload = header + array.astype(array.dtype.newbyteorder(">")).tobytes()
    if compress:
        with gzip.open(path, "wb") as f:
            f.write(payload)
    else:
        path.write_bytes(payload)


@pytest.mark.parametrize("compress", [False, True])
def test_read_idx_types_and_shapes(tmp_path: Path, compress: bool):
    rng = np.random.default_rng(0)
    cases = [(rng.integers(0, 256, (3, 4, 5)).astype(np.uint8), 0x08),
             (rng.integers(-9, 9, (7,)).astype(np.int32), 0x0C),
             (rng.standard_normal((2, 3)), 0x0E)]
    for j, (array, code) in enumerate(cases):
        path = tmp_path / (f"a{j}.idx" + (".gz" if compress else ""))
        write_idx(path, array, code, compress)
        got = mnist.read_idx(path)
        assert got.shape == array.shape and np.array_equal(got, array)


def test_read_idx_rejects_bad_files(tmp_path: Path):
    (tmp_path / "x").write_bytes(b"\x01\x02\x03\x04rest")
    with pytest.raises(DataError, match="not an IDX file"):
        mnist.read_idx(tmp_path / "x")
    write_idx(tmp_path / "y", np.zeros((4, 2), np.uint8), 0x08, False)
    (tmp_path / "y").write_bytes((tmp_path / "y").read_bytes()[:-1])
    with pytest.raises(DataError, match="data size does not match"):
        mnist.read_idx(tmp_path / "y")
    write_idx(tmp_path / "z", np.zeros((4, 2), np.uint8), 0x08, False)
    with pytest.raises(DataError, match="does not fit"):
        mnist.read_idx(tmp_path / "z", np.empty(9, np.uint8))


def load_mnist(n: int, n_test: int, seed: int = 0, **kw):
    entry = DATASETS.get("mnist")
    return entry.impl(entry.config_cls(**kw), n, n_test, 10, np.random.default_rng(seed))


@needs_mnist
def test_full_mnist_counts_and_pixels():
    d = load_mnist(60000, 10000)
    assert d.X_train.shape == (60000, 784) and d.X_test.shape == (10000, 784)
    assert np.bincount(d.y_train).tolist() == TRAIN_COUNTS
    assert np.bincount(d.y_test).tolist() == TEST_COUNTS
    assert np.array_equal(d.train_idx, np.arange(60000)) and np.array_equal(d.test_idx, np.arange(60000, 70000))
    # independent decoding of the test images: 16-byte header, then uint8 pixels
    raw = np.frombuffer(gzip.open(DATA / "mnist" / "t10k-images-idx3-ubyte.gz").read()[16:], np.uint8)
    assert np.array_equal(d.X_test, raw.reshape(10000, 784) / 255.0)
    assert d.X_train.min() == 0.0 and d.X_train.max() == 1.0 and d.X_train.dtype == np.float64
    assert d.info["source"] == "idx"


@needs_mnist
def test_subsampled_mnist_and_files_directly_in_data_dir(tmp_path: Path):
    for name in mnist.MNIST_FILES:
        (tmp_path / f"{name}.gz").symlink_to(DATA / "mnist" / f"{name}.gz")
    a = load_mnist(500, 200, seed=3, data_dir=str(tmp_path))
    b = load_mnist(500, 200, seed=3)
    assert np.array_equal(a.X_train, b.X_train) and np.array_equal(a.test_idx, b.test_idx)
    assert a.train_idx.max() < 60000 and a.test_idx.min() >= 60000
    assert str(tmp_path) in a.info["files"][0]


def test_offline_error_names_the_four_files_and_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import sklearn.datasets

    def no_network(*args, **kwargs):  # as scikit-learn does before giving up
        warnings.warn("A network error occurred while downloading https://www.openml.org/…. Retrying...")
        raise OSError("network is unreachable")

    monkeypatch.setattr(sklearn.datasets, "fetch_openml", no_network)
    monkeypatch.setenv(base.DATA_ENV, str(tmp_path))
    with pytest.raises(DataError) as e, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        load_mnist(10, 10)
    assert caught == []  # the error is the only output
    message = str(e.value)
    assert "\n" not in message
    for name in mnist.MNIST_FILES:
        assert name in message
    assert str(tmp_path / "mnist") in message and "network is unreachable" in message
    with pytest.raises(DataError, match="download disabled"):
        load_mnist(10, 10, download=False)


def test_openml_fallback_when_files_absent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import sklearn.datasets

    rows = np.arange(70000)
    X = np.broadcast_to((rows % 256).astype(np.float64)[:, None], (70000, 784))
    y = (rows % 10).astype(str).astype(object)
    calls = []

    def fake_fetch(name, **kwargs):
        calls.append((name, kwargs))
        return X, y

    monkeypatch.setattr(sklearn.datasets, "fetch_openml", fake_fetch)
    monkeypatch.setenv(base.DATA_ENV, str(tmp_path))
    d = load_mnist(60000, 10000)
    assert calls[0][0] == "mnist_784" and calls[0][1]["as_frame"] is False
    assert np.array_equal(d.X_test[:, 0], (np.arange(60000, 70000) % 256) / 255.0)  # last 10000 = test
    assert np.array_equal(d.y_train, np.arange(60000) % 10)
    assert d.info["source"] == "openml:mnist_784"
