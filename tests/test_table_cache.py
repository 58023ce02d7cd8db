"""Parsed tables cached on disk (kktheory.datasets.table_cache): a second load reads the
cache (memory-mapped) and gives the same table; a changed file makes a new entry; an
unwritable cache root still gives the parsed table."""

from __future__ import annotations

import os

import numpy as np
import pytest

from kktheory.datasets.libsvm import read_libsvm
from kktheory.datasets.table_cache import cache_root


def write_libsvm(folder, name: str, rows: list[str]) -> None:
    (folder / "libsvm").mkdir(parents=True, exist_ok=True)
    (folder / "libsvm" / name).write_text("\n".join(rows) + "\n")


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("KKTHEORY_CACHE", str(tmp_path / "cache"))
    write_libsvm(tmp_path, "mushrooms", ["1 1:0.5 3:1", "2 2:1", "1 112:2"])
    return tmp_path


def entries():
    folder = cache_root() / "tables"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_second_load_reads_the_cache(data):
    first = read_libsvm("mushrooms", str(data))
    assert len(entries()) == 1
    second = read_libsvm("mushrooms", str(data))
    assert isinstance(second.X, np.memmap)
    expect = np.zeros((3, 112))
    expect[0, 0], expect[0, 2], expect[1, 1], expect[2, 111] = 0.5, 1, 1, 2
    np.testing.assert_array_equal(second.X, expect)  # written out here, not by the parser
    np.testing.assert_array_equal(first.X, second.X)
    np.testing.assert_array_equal(second.y, [0, 1, 0])
    assert second.n_own_train is None and second.info["classes"] == [1.0, 2.0]


def test_a_changed_file_makes_a_new_entry(data):
    read_libsvm("mushrooms", str(data))
    path = data / "libsvm" / "mushrooms"
    path.write_text("2 1:7\n1 2:1\n")
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    again = read_libsvm("mushrooms", str(data))
    assert len(entries()) == 2
    assert again.X[0, 0] == 7 and list(again.y) == [1, 0]


def test_unwritable_cache_root_still_loads(data, monkeypatch):
    blocker = data / "not_a_folder"
    blocker.write_text("x")
    monkeypatch.setenv("KKTHEORY_CACHE", str(blocker))
    table = read_libsvm("mushrooms", str(data))
    assert table.X.shape == (3, 112) and not isinstance(table.X, np.memmap)
