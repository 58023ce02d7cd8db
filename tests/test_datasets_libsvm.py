"""LIBSVM data sets and UCI segment: documented shapes, parsing, scaling, missing files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kktheory.datasets import DATASETS, TABLES, libsvm, segment
from kktheory.errors import ConfigError, DataError
from tests.data_folder import data_dir, needs_data

DATA = data_dir()
ROOT = Path(__file__).resolve().parents[1]
needs_shared = needs_data("libsvm", "uci_segment")


def load(name: str, n: int, n_test: int, seed: int = 0, **kw):
    entry = DATASETS.get(name)
    cfg = entry.config_cls(name=name, **kw) if entry.config_cls is libsvm.LibsvmConfig else entry.config_cls(**kw)
    return entry.impl(cfg, n, n_test, 2, np.random.default_rng(seed))


def label_counts(path: Path) -> dict[float, int]:
    """Independent parse: the first token of every line is the label."""
    counts: dict[float, int] = {}
    for line in path.read_text().splitlines():
        if line.strip():
            lab = float(line.split()[0])
            counts[lab] = counts.get(lab, 0) + 1
    return counts


# (config name, split, n, n_test, features, classes) — the documented shapes
SHAPES = [
    ("dna", "own", 2000, 1186, 180, 3),
    ("pendigits", "own", 7494, 3498, 16, 10),
    ("a8a", "own", 22696, 9865, 123, 2),
    ("mushrooms", "stratified", 5687, 2437, 112, 2),  # 8124 rows, 70/30
    ("segment", "stratified", 1617, 693, 19, 7),  # 2310 rows, 70/30
]


@needs_shared
@pytest.mark.parametrize("name,split,n,n_test,d,classes", SHAPES)
def test_documented_shapes(name, split, n, n_test, d, classes):
    data = load(name, n, n_test)
    assert data.info["split"] == split
    assert data.X_train.shape == (n, d) and data.X_test.shape == (n_test, d)
    assert data.X_train.dtype == np.float64 and np.isfinite(data.X_train).all()
    y = np.concatenate([data.y_train, data.y_test])
    assert y.min() == 0 and y.max() == classes - 1 and len(np.unique(y)) == classes
    with pytest.raises(ConfigError) as e:
        load(name, n + 1, 1)
    assert e.value.field == "n" and f"at most {n}" in str(e.value)


@needs_shared
def test_labels_and_rows_match_an_independent_parse():
    table = TABLES["dna"](libsvm.LibsvmConfig(name="dna"))
    files = [DATA / "libsvm" / "dna.scale", DATA / "libsvm" / "dna.scale.t"]
    counts = [label_counts(f) for f in files]
    classes = sorted(counts[0])
    assert np.bincount(table.y[:2000]).tolist() == [counts[0][c] for c in classes]
    assert np.bincount(table.y[2000:]).tolist() == [counts[1][c] for c in classes]
    for i, line in enumerate(files[1].read_text().splitlines()[:20]):  # test rows, 1-based indices
        row = np.zeros(180)
        for item in line.split()[1:]:
            j, v = item.split(":")
            row[int(j) - 1] = float(v)
        assert np.array_equal(table.X[2000 + i], row)
    a8a = TABLES["a8a"](libsvm.LibsvmConfig(name="a8a"))
    assert a8a.info["classes"] == [-1.0, 1.0] and a8a.X.shape[1] == 123  # fixed width across files


@needs_shared
def test_yin_pooled_splits():
    d = load("dna", 1400, 600, split="stratified", pool="train")  # Yin's 2000 dna instances
    assert np.concatenate([d.train_idx, d.test_idx]).max() < 2000
    d = load("pendigits", 7694, 3298, split="stratified")  # Yin's 10992 pendigits instances
    assert len(np.union1d(d.train_idx, d.test_idx)) == 10992
    with pytest.raises(ConfigError, match="no split of its own"):
        load("mushrooms", 10, 10, split="own")


@needs_shared
def test_segment_from_uci_is_svm_scale_of_the_raw_rows():
    raw = TABLES["segment"](segment.SegmentConfig(source="uci_raw"))
    scaled = TABLES["segment"](segment.SegmentConfig())
    assert scaled.info["source"] == "uci"  # no segment.scale in the data folder
    assert raw.X.shape == (2310, 19) and raw.n_own_train == 210
    assert np.bincount(raw.y).tolist() == [330] * 7
    lines = (DATA / "uci_segment" / "segmentation.data").read_text().splitlines()
    first = next(line for line in lines if line.split(",")[0] in segment.SEGMENT_CLASSES).split(",")
    assert raw.y[0] == segment.SEGMENT_CLASSES.index(first[0])
    assert np.array_equal(raw.X[0], [float(v) for v in first[1:]])
    assert segment.SEGMENT_CLASSES.index("GRASS") == 6  # Statlog order: grass is class 7
    for j in range(19):  # brute force, column by column
        col = raw.X[:, j]
        if col.max() == col.min():
            assert np.all(scaled.X[:, j] == 0.0)
        else:
            expect = -1 + 2 * (col - col.min()) / (col.max() - col.min())
            assert np.allclose(scaled.X[:, j], expect, rtol=0, atol=1e-15)
            assert scaled.X[:, j].min() == -1.0 and scaled.X[:, j].max() == 1.0
    assert (raw.X[:, 2] == 9).all()  # region-pixel-count is constant


@needs_shared
def test_segment_pourkamali_rows_have_unit_norm():
    d = load("segment_pourkamali", 2310, 2310)
    raw = TABLES["segment"](segment.SegmentConfig(source="uci_raw")).X
    assert np.allclose(d.X_train, raw / np.linalg.norm(raw, axis=1, keepdims=True), rtol=1e-14, atol=0)
    assert d.name == "segment_pourkamali" and d.info["split"] == "all"
    assert np.allclose(np.linalg.norm(d.X_train, axis=1), 1.0, rtol=1e-14)
    assert np.array_equal(d.train_idx, np.arange(2310))


def test_segment_prefers_the_libsvm_file(tmp_path: Path):
    (tmp_path / "libsvm").mkdir()
    (tmp_path / "libsvm" / "segment.scale").write_text("1 1:0.5 19:-1\n7 2:1\n3 3:0.25\n")
    table = TABLES["segment"](segment.SegmentConfig(data_dir=str(tmp_path)))
    assert table.info["source"] == "libsvm" and table.X.shape == (3, 19) and table.y.tolist() == [0, 2, 1]
    assert table.X[0, 0] == 0.5 and table.X[0, 18] == -1.0
    with pytest.raises(DataError, match="segmentation.data"):
        TABLES["segment"](segment.SegmentConfig(data_dir=str(tmp_path), source="uci"))
    with pytest.raises(ConfigError):
        TABLES["segment"](segment.SegmentConfig(data_dir=str(tmp_path), source="statlog"))


def test_compressed_files_are_read(tmp_path: Path):
    import bz2

    (tmp_path / "libsvm").mkdir()
    rows = "1 1:1 112:2\n2 5:0.5\n" * 10
    (tmp_path / "libsvm" / "mushrooms.bz2").write_bytes(bz2.compress(rows.encode()))
    d = load("mushrooms", 14, 6, data_dir=str(tmp_path))
    assert d.X_train.shape == (14, 112) and d.info["files"][0].endswith("mushrooms.bz2")


SITE = "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/"
#: (config, the missing files as named, their paths on the LIBSVM site — checked on the site)
MISSING = [
    ("covtype", "file covtype.scale", ["multiclass/covtype.scale.bz2"]),
    ("protein", "files protein and protein.t", ["multiclass/protein.bz2", "multiclass/protein.t.bz2"]),
    ("w7a", "files w7a and w7a.t", ["binary/w7a", "binary/w7a.t"]),
    ("connect4", "file connect-4", ["multiclass/connect-4"]),
    ("pendigits", "files pendigits.scale (or pendigits) and pendigits.scale.t (or pendigits.t)",
     ["multiclass/pendigits", "multiclass/pendigits.t"]),
]


@pytest.mark.parametrize("name,files,site", MISSING, ids=[m[0] for m in MISSING])
def test_missing_files_named_with_folder_and_urls(tmp_path: Path, name: str, files: str, site: list[str]):
    with pytest.raises(DataError) as e:
        load(name, 10, 10, data_dir=str(tmp_path))
    message = str(e.value)
    assert f"dataset {name}: {files} not found in {tmp_path / 'libsvm'} " in message and "\n" not in message
    assert f"(download {' and '.join(SITE + s for s in site)}; " in message


def test_missing_test_file_alone_is_named(tmp_path: Path):
    (tmp_path / "libsvm").mkdir()
    (tmp_path / "libsvm" / "pendigits").write_text("1 1:47 16:0\n")
    with pytest.raises(DataError) as e:
        load("pendigits", 1, 0, data_dir=str(tmp_path))
    message = str(e.value)
    assert "file pendigits.scale.t (or pendigits.t) not found" in message
    assert f"(download {SITE}multiclass/pendigits.t; " in message and "multiclass/pendigits and" not in message


@needs_shared
def test_run_py_covtype_exits_2_with_one_line(tmp_path: Path):
    out = subprocess.run([sys.executable, "run.py", "dataset=covtype", f"results_dir={tmp_path}"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    lines = (out.stdout + out.stderr).strip().splitlines()
    assert len(lines) == 1 and "covtype.scale not found" in lines[0] and "covtype.scale.bz2" in lines[0]
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())
