"""Common data set logic: split, subsampling, finiteness, preprocessing, data folder."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kktheory.datasets import base
from kktheory.datasets.base import SplitConfig, Table, finish
from kktheory.errors import ConfigError, DataError, UserError


def table(N: int = 200, d: int = 3, n_own: int | None = 150, seed: int = 0) -> Table:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 4, N)
    X = rng.standard_normal((N, d)) + y[:, None]
    return Table(X, y, n_own)


def params(**kw) -> SplitConfig:
    return SplitConfig(name="t", **kw)


def test_stratified_split_quota_per_class():
    y = np.repeat([0, 1, 2, 3], [101, 37, 250, 12])
    for f in (0.3, 0.5, 0.07):
        mask = base.stratified_split(y, f, np.random.default_rng(5))
        assert mask.sum() == round(f * len(y))
        for c in range(4):
            n_c = (y == c).sum()
            assert abs(mask[y == c].sum() - f * n_c) < 1.0
    a = base.stratified_split(y, 0.3, np.random.default_rng(7))
    b = base.stratified_split(y, 0.3, np.random.default_rng(7))
    c = base.stratified_split(y, 0.3, np.random.default_rng(8))
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_own_split_and_subsample_nested_and_test_independent_of_n():
    t = table()
    full = finish("t", t, params(), 150, 50, np.random.default_rng(3))
    assert np.array_equal(full.train_idx, np.arange(150)) and np.array_equal(full.test_idx, np.arange(150, 200))
    assert np.array_equal(full.X_train, t.X[:150]) and np.array_equal(full.y_test, t.y[150:])
    small = finish("t", t, params(), 40, 20, np.random.default_rng(3))
    mid = finish("t", t, params(), 80, 20, np.random.default_rng(3))
    assert set(small.train_idx) <= set(mid.train_idx)
    assert np.array_equal(small.test_idx, mid.test_idx)
    assert np.all(np.diff(small.train_idx) > 0) and small.train_idx.max() < 150
    assert small.test_idx.min() >= 150
    assert np.array_equal(small.X_train, t.X[small.train_idx])
    assert small.X_train.dtype == np.float64 and small.y_train.dtype == np.int64


def test_too_many_points_names_field_value_and_maximum():
    t = table()
    with pytest.raises(ConfigError) as e:
        finish("t", t, params(), 151, 10, np.random.default_rng(0))
    assert e.value.field == "n" and e.value.value == 151 and "at most 150" in str(e.value)
    with pytest.raises(ConfigError) as e:
        finish("t", t, params(), 10, 51, np.random.default_rng(0))
    assert e.value.field == "n_test" and "at most 50" in str(e.value)
    with pytest.raises(ConfigError) as e:
        finish("t", t, params(split="stratified"), 10, 61, np.random.default_rng(0))
    assert "at most 60" in str(e.value)


def test_split_variants():
    t = table()
    d = finish("t", t, params(split="stratified", test_fraction=0.25), 150, 50, np.random.default_rng(0))
    assert not set(d.train_idx) & set(d.test_idx)
    assert sorted(np.concatenate([d.train_idx, d.test_idx])) == list(range(200))
    d = finish("t", t, params(split="stratified", pool="train"), 105, 45, np.random.default_rng(0))
    assert np.concatenate([d.train_idx, d.test_idx]).max() < 150
    d = finish("t", t, params(split="all"), 200, 200, np.random.default_rng(0))
    assert np.array_equal(d.train_idx, d.test_idx)
    auto = finish("t", table(n_own=None), params(), 140, 60, np.random.default_rng(0))
    assert auto.info["split"] == "stratified"
    with pytest.raises(ConfigError, match="no split of its own"):
        finish("t", table(n_own=None), params(split="own"), 10, 10, np.random.default_rng(0))
    for bad in (dict(split="half"), dict(test_fraction=1.0), dict(pool="x"), dict(normalize="l1")):
        with pytest.raises(ConfigError):
            base.validate_split(params(**bad))


def test_nonfinite_values_counted_or_dropped():
    t = table()
    t.X[[3, 3, 170], [0, 1, 2]] = [np.nan, np.inf, -np.inf]
    with pytest.raises(DataError) as e:
        finish("toy", t, params(), 10, 10, np.random.default_rng(0))
    assert "toy" in str(e.value) and "3 non-finite values" in str(e.value) and "2 rows" in str(e.value)
    d = finish("toy", t, params(drop_nonfinite=True), 149, 49, np.random.default_rng(0))
    assert 3 not in d.train_idx and 170 not in d.test_idx
    assert np.isfinite(d.X_train).all() and np.array_equal(d.X_train, t.X[d.train_idx])
    assert d.info["dropped_rows"] == 2


def test_divisor_and_normalisations_against_brute_force():
    rng = np.random.default_rng(2)
    raw = rng.integers(0, 256, (60, 5)).astype(np.uint8)
    raw[7] = 0
    y = np.arange(60) % 3
    t = Table(raw, y, None, 255.0)
    d = finish("t", t, params(split="all"), 60, 60, np.random.default_rng(0))
    assert np.array_equal(d.X_train, raw / 255.0)
    d = finish("t", t, params(split="all", normalize="l2_rows"), 60, 60, np.random.default_rng(0))
    for i in range(60):
        row = raw[i] / 255.0
        expect = row / np.sqrt((row**2).sum()) if row.any() else row
        assert np.allclose(d.X_train[i], expect, rtol=1e-13, atol=0)
    cfg = params(split="stratified", test_fraction=0.4, normalize="l2_columns")
    d = finish("t", t, cfg, 30, 20, np.random.default_rng(0))
    full = raw / 255.0
    norms = np.sqrt((full**2).sum(axis=0))  # over all rows of the source, before the split
    assert np.allclose(d.X_test, full[d.test_idx] / norms, rtol=1e-13, atol=0)


def test_encode_labels():
    y, classes = base.encode_labels(np.array([-1.0, 1.0, 1.0, -1.0, 3.0]))
    assert y.tolist() == [0, 1, 1, 0, 2] and classes.tolist() == [-1.0, 1.0, 3.0]


def test_data_dir_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(base.DATA_ENV, str(tmp_path / "env"))
    assert base.resolve_data_dir(str(tmp_path / "cfg")) == tmp_path / "cfg"
    assert base.resolve_data_dir(None) == tmp_path / "env"
    monkeypatch.delenv(base.DATA_ENV)
    root = tmp_path / "a" / "wt" / "repo"
    root.mkdir(parents=True)
    monkeypatch.setattr(base, "REPO_ROOT", root)
    assert base.resolve_data_dir(None) == tmp_path / "a" / "wt" / "shared" / "datasets"  # named though absent
    (tmp_path / "a" / "shared" / "datasets").mkdir(parents=True)
    assert base.resolve_data_dir(None) == tmp_path / "a" / "shared" / "datasets"
    (tmp_path / "a" / "wt" / "shared" / "datasets").mkdir(parents=True)
    assert base.resolve_data_dir(None) == tmp_path / "a" / "wt" / "shared" / "datasets"


def test_errors_are_user_errors_on_one_line():
    t = table()
    t.X[0, 0] = np.nan
    with pytest.raises(UserError) as e:
        finish("t", t, params(), 10, 10, np.random.default_rng(0))
    assert "\n" not in str(e.value)
