"""dataset=file: a user's own array file (kktheory/datasets/array_file.py), run through run.py.

Every format round-trips 60 points of 3 blobs into a stored row with the file's own n, n_test
and k; the file's content hash, not its path, is the run's identity; every bad file ends with
one line naming it, exit status 2 and nothing written.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from kktheory.datasets.table_cache import cache_root, file_sha256, table_key
from kktheory.run.store import load
from tests.conftest import run_files
from tests.inprocess import run_inprocess

#: 60 points: 42 training and 18 test points in the stratified 70/30 split, 3 classes
OWN = {"n": 42, "n_test": 18, "k": 3}


def blobs(rows: int = 60, d: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """``rows`` points of 3 well separated Gaussian blobs in d dimensions, labels 0, 1, 2."""
    rng = np.random.default_rng(0)
    y = np.arange(rows) % 3
    return 6.0 * np.eye(3, d)[y] + rng.normal(scale=0.5, size=(rows, d)), y


def frame(X: np.ndarray, y: np.ndarray) -> pd.DataFrame:
    """X's columns f0, f1, … and the label column ``class`` holding strings."""
    out = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])])
    out["class"] = np.array(["setosa", "versicolor", "virginica"])[y]
    return out


def write(fmt: str, folder: Path, X: np.ndarray, y: np.ndarray) -> tuple[Path, list[str]]:
    """The file of (X, y) in ``fmt`` and the overrides that read it."""
    from sklearn.datasets import dump_svmlight_file

    path = folder / f"data.{fmt}"
    args = [f"dataset.path={path}"]
    if fmt == "npy":
        np.save(path, X)
        np.save(folder / "labels.npy", y)
        args.append(f"dataset.labels_path={folder / 'labels.npy'}")
    elif fmt == "npz":
        np.savez(path, X=X, y=y)
    elif fmt in ("csv", "parquet"):
        frame(X, y).to_csv(path, index=False) if fmt == "csv" else frame(X, y).to_parquet(path, index=False)
        args.append("dataset.label=class")
    else:
        dump_svmlight_file(X, y, str(path))
    return path, args


def run(results: Path, *args: str):
    return run_inprocess("dataset=file", "m=8", *args, results_dir=results)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("fmt", ["npy", "npz", "csv", "parquet", "svm"])
def test_each_format_round_trips_with_its_own_sizes(tmp_path, fmt):
    path, args = write(fmt, tmp_path, *blobs())
    results = tmp_path / "results"
    res = run(results, *args)
    assert res.returncode == 0, res.stderr
    row = load(results).iloc[0]
    assert {key: row[key] for key in OWN} == OWN
    assert row["dataset.sha256"] == sha256(path)
    assert row["train_nmi"] > 0.9  # the blobs are found: the labels were read with their rows
    assert "dataset.path" not in row.index


def test_given_sizes_win_over_the_files_own(tmp_path):
    _, args = write("npz", tmp_path, *blobs())
    results = tmp_path / "results"
    assert run(results, *args, "n=30", "n_test=10", "k=2").returncode == 0
    row = load(results).iloc[0]
    assert (row["n"], row["n_test"], row["k"]) == (30, 10, 2)


def test_the_content_not_the_path_is_the_identity(tmp_path):
    X, y = blobs()
    path, args = write("npy", tmp_path, X, y)
    results = tmp_path / "results"
    assert run(results, *args).returncode == 0
    first = {p.name for p in run_files(results)}
    again = run(results, *args)
    assert again.returncode == 0 and "skipped 1 run" in again.stdout
    moved = tmp_path / "elsewhere" / "renamed.npy"
    moved.parent.mkdir()
    path.rename(moved)
    again = run(results, f"dataset.path={moved}", args[1])
    assert again.returncode == 0 and "skipped 1 run" in again.stdout
    assert {p.name for p in run_files(results)} == first
    X[0, 0] += 1.0  # an edited file: a new run
    np.save(moved, X)
    assert run(results, f"dataset.path={moved}", args[1]).returncode == 0
    assert len(run_files(results)) == 2
    np.save(tmp_path / "labels.npy", y[::-1].copy())  # edited labels: a new run too
    assert run(results, f"dataset.path={moved}", args[1]).returncode == 0
    rows = load(results)
    assert len(rows) == 3 and rows["dataset.sha256"].nunique() == 2 and rows["dataset.labels_sha256"].nunique() == 2


def test_a_pinned_hash_must_match(tmp_path):
    path, args = write("npz", tmp_path, *blobs())
    results = tmp_path / "results"
    assert run(results, *args, f"dataset.sha256={sha256(path)}").returncode == 0
    res = run(tmp_path / "other", *args, "dataset.sha256=" + "0" * 64)
    check_refused(res, tmp_path / "other", path, "dataset.sha256=")


def test_the_hash_is_remembered_by_path_size_and_mtime(tmp_path):
    path = tmp_path / "data.npy"
    np.save(path, blobs()[0])
    assert file_sha256(path) == sha256(path)
    entry = cache_root() / "sha256" / table_key("sha256", [path])
    entry.write_text("f" * 64)  # a remembered hash is not recomputed for the unchanged file
    assert file_sha256(path) == "f" * 64
    os.utime(path, ns=(0, 0))  # a new modification time: hashed again
    assert file_sha256(path) == sha256(path)


def test_nonfinite_rows_are_refused_unless_dropped(tmp_path):
    X, y = blobs()
    X[[3, 17], 1], X[25, 0] = np.nan, np.inf
    path, args = write("npz", tmp_path, X, y)
    results = tmp_path / "results"
    res = run(results, *args)
    check_refused(res, results, path, "3 non-finite values (NaN/inf) in 3 rows")
    assert "dataset.drop_nonfinite=true" in res.stderr
    assert run(results, *args, "dataset.drop_nonfinite=true").returncode == 0
    row = load(results).iloc[0]
    assert (row["n"], row["n_test"]) == (40, 17)  # 57 rows kept


def test_a_npy_above_the_memory_budget_streams_and_a_npz_is_refused(tmp_path):
    X, y = blobs(3000, 20)  # 480,000 bytes as float64, above the budget of 322,122
    budget = "memory_budget_gb=0.0003"
    npy, npy_args = write("npy", tmp_path, X, y)
    results = tmp_path / "results"
    res = run(results, *npy_args, budget, "n=60", "n_test=30", "k=3")
    assert res.returncode == 0, res.stderr
    npz, npz_args = write("npz", tmp_path, X, y)
    res = run(tmp_path / "refused", *npz_args, budget, "n=60", "n_test=30", "k=3")
    check_refused(res, tmp_path / "refused", npz, "whole (3000 × 20 values) needs about 468.8 KiB, above the budget")


def check_refused(res, results: Path, path: Path, expect: str) -> None:
    """Exit status 2, one line naming the file and ``expect``, nothing in the results folder."""
    assert res.returncode == 2, (res.stdout, res.stderr)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert str(path) in lines[0] and expect in lines[0], lines[0]
    assert not results.exists()


def bad_npz(folder: Path, **arrays: np.ndarray) -> tuple[Path, list[str]]:
    path = folder / "bad.npz"
    np.savez(path, **arrays)
    return path, [f"dataset.path={path}"]


def text_file(folder: Path, name: str, text: str, *args: str) -> tuple[Path, list[str]]:
    path = folder / name
    path.write_text(text)
    return path, [f"dataset.path={path}", *args]


def missing(folder):
    return folder / "absent.npz", [f"dataset.path={folder / 'absent.npz'}"]


def a_folder(folder):
    (folder / "folder.npz").mkdir()
    return folder / "folder.npz", [f"dataset.path={folder / 'folder.npz'}"]


def unknown_extension(folder):
    return text_file(folder, "data.xlsx", "f0,class\n1,a\n")


def not_a_zip(folder):
    return text_file(folder, "data.npz", "not a zip archive")


def not_parquet(folder):
    return text_file(folder, "data.parquet", "plain text", "dataset.label=class")


def not_svmlight(folder):
    return text_file(folder, "data.svm", "1 a:b\n")


def text_features(folder):
    X, y = blobs()
    rows = frame(X, y).assign(colour="red")
    path = folder / "data.csv"
    rows.to_csv(path, index=False)
    return path, [f"dataset.path={path}", "dataset.label=class"]


def string_array(folder):
    return bad_npz(folder, X=np.array([["a", "b"]] * 60), y=blobs()[1])


def one_dimensional(folder):
    return bad_npz(folder, X=np.zeros(60), y=blobs()[1])


def infinite(folder):
    X, y = blobs()
    X[5, 0] = -np.inf
    return bad_npz(folder, X=X, y=y)


def short_labels(folder):
    path, args = write("npy", folder, *blobs())
    np.save(folder / "labels.npy", blobs()[1][:59])
    return path, args


def missing_labels_file(folder):
    _, args = write("npy", folder, *blobs())
    (folder / "labels.npy").unlink()
    return folder / "labels.npy", args


def no_labels_path(folder):
    path, args = write("npy", folder, *blobs())
    return path, args[:1]


def one_class(folder):
    return bad_npz(folder, X=blobs()[0], y=np.zeros(60, dtype=int))


def unlabeled_rows(folder):
    X, y = blobs()
    rows = frame(X, y)
    rows.loc[[2, 9], "class"] = None
    path = folder / "data.csv"
    rows.to_csv(path, index=False)
    return path, [f"dataset.path={path}", "dataset.label=class"]


def no_label_column(folder):
    path, args = write("csv", folder, *blobs())
    return path, args[:1]


def wrong_label_column(folder):
    path, args = write("parquet", folder, *blobs())
    return path, [args[0], "dataset.label=species"]


def no_y_array(folder):
    return bad_npz(folder, X=blobs()[0], labels=blobs()[1])


def no_x_array(folder):
    X, y = blobs()
    return bad_npz(folder, features=X, y=y)


BAD = [
    (missing, "no such file"),
    (a_folder, "not a file"),
    (unknown_extension, "unknown format '.xlsx'"),
    (not_a_zip, "cannot read it as .npz"),
    (not_parquet, "cannot read it as .parquet"),
    (not_svmlight, "cannot parse"),
    (text_features, "non-numeric features in column(s) colour"),
    (string_array, "non-numeric features (dtype <U1)"),
    (one_dimensional, "X has shape (60,)"),
    (infinite, "1 non-finite values (NaN/inf) in 1 rows"),
    (short_labels, "59 labels in"),
    (missing_labels_file, "no such file (dataset.labels_path)"),
    (no_labels_path, "dataset.labels_path=<a .npy of 60 labels>"),
    (one_class, "one class only (label 0)"),
    (unlabeled_rows, "2 rows without a label"),
    (no_label_column, "name the label column: dataset.label=<column> (columns: f0, f1, class)"),
    (wrong_label_column, "no column 'species'"),
    (no_y_array, "no array 'y' (arrays: X, labels); set dataset.label=<name>"),
    (no_x_array, "no array 'X' (arrays: features, y); set dataset.features=<name>"),
]


@pytest.mark.parametrize("make, expect", BAD, ids=[m.__name__ for m, _ in BAD])
def test_a_bad_file_is_one_line_and_writes_nothing(tmp_path, make, expect):
    path, args = make(tmp_path)
    results = tmp_path / "results"
    check_refused(run(results, *args), results, path, expect)


@pytest.mark.parametrize("args, expect", [
    ((), "config error: dataset.path=None: the array file to read"),
    (("dataset.path=x.csv", "dataset.labels_path=y.npy"), "config error: dataset.labels_path='y.npy': null"),
])
def test_bad_options_name_the_field(tmp_path, args, expect):
    res = run(tmp_path / "results", *args)
    assert res.returncode == 2 and res.stderr.strip().startswith(expect), res.stderr
    assert not (tmp_path / "results").exists()
