"""A results folder is data, not code (issue 44, item 4): reading one — its rows, the arrays
of its runs, the caches under ``cache/`` — and reading a claim file never unpickle or
evaluate what is in them. Each test plants pickles whose loading would touch a marker file,
reads the folder the way the package does, and checks the marker is not there."""

from __future__ import annotations

import math
import pickle
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from kktheory.evaluation.cache import cached_call, entry_path
from kktheory.judge.claimfile import ClaimError, load_claim
from kktheory.reproduce import cli as reproduce_cli
from kktheory.reproduce import sweep as reproduce_sweep
from kktheory.run import store as run_store
from kktheory.run.experiment import run
from tests.hydra_cfg import make_cfg

#: yin_fig1 shrunk to two runs
TINY = ["n=100", "n_test=50", "seed=0", "yin/method=exact,subgaussian", "m_sqrt_n=x1"]
#: one data draw with every cached computation: the exact reference, W*(μ), and the bound
#: checks' spectrum, coherence, kernel-column reference (a JL sketch) and, on the randomized
#: path, top eigenvalues and d_eff; force=true computes the rows again
CACHED = ("dataset=yin_hypercube", "kernel=linear", "k=2", "n=100", "n_test=50", "m=[10]", "reference=exact",
          "bounds=all", "population.test_n=200", "population.select_n=200", "population.train_n=300",
          "population.m=10", "population.exact_n=60", "population.restarts=1", "force=true")
RUNS = (("sketch=nystrom",), ("sketch=gaussian",), ("sketch=nystrom", "bound_exact_max_n=50"))


class Touch:
    """A pickle that, loaded, touches ``marker`` (what a hostile one could do instead)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Callable[..., None], tuple[Path]]:
        return Path.touch, (self.marker,)


@pytest.fixture
def plant(tmp_path) -> Callable[[Path], None]:
    """Call as plant(path): writes the pickle there; plant.marker is the file it touches."""
    marker = tmp_path / "executed"

    def plant_at(path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps(Touch(marker)))

    plant_at.marker = marker
    return plant_at


def cache_entries(results: Path) -> list[Path]:
    """The files under ``cache/`` that a reader loads on a hit: results of computations
    (``.npz``; joblib's ``output.pkl`` before), sweeps' rows and plans."""
    return [f for f in (results / "cache").rglob("*")
            if f.is_file() and f.name.endswith((".npz", ".pkl", ".parquet", ".json.gz"))]


def test_the_planted_pickle_would_run(tmp_path, plant):
    plant(tmp_path / "x.pkl")
    pickle.loads((tmp_path / "x.pkl").read_bytes())
    assert plant.marker.exists()  # so that its absence below means it was never loaded


def test_a_redraw_of_a_planted_folder_loads_no_pickle(tmp_path, plant):
    results = tmp_path / "results"
    reproduce_sweep.run_sweep("yin_fig1_small", results, TINY)  # its rows, plan and rows cache
    plans = sorted((results / "cache" / "plans").glob("*.json.gz"))
    entries = cache_entries(results)
    assert plans and any(".rows." in f.name for f in entries)  # the sweep's rows cache among them
    for f in entries:
        plant(f)
    for f in plans:  # where the rows cache was a pickle
        plant(f.with_name(f.name.removesuffix(".json.gz") + ".rows.pkl"))
    sidecar = sorted((results / "runs").glob("*.npz"))[0]
    plant(sidecar)
    assert reproduce_cli.main(["yin_fig1", "--scale", "small", "--no-run", *TINY, "--results-dir", str(results),
                               "--out", str(tmp_path / "figs")]) == 0
    assert sorted((results / "cache" / "plans").glob("*.json.gz")) == plans  # the redraw read this sweep's
    assert len(run_store.load(results)) == 2
    with pytest.raises(ValueError, match="allow_pickle"):
        run_store.load_arrays(sidecar.stem, results)
    assert not plant.marker.exists()


def test_a_run_over_planted_caches_computes_them_again(tmp_path, plant):
    cfgs = [make_cfg(*CACHED, f"results_dir={tmp_path}", *extra) for extra in RUNS]
    first = [run(cfg).rows[0] for cfg in cfgs]
    entries = cache_entries(tmp_path)
    assert len(entries) >= 7  # reference, W*, spectrum, coherence, kernel columns, top eigenvalues, d_eff
    for f in entries:
        plant(f)
    try:
        again = [run(cfg).rows[0] for cfg in cfgs]
    finally:  # a loaded pickle would also have broken the run: say what happened first
        assert not plant.marker.exists()
    assert not again[0]["ref_cached"] and not again[0]["population_cached"]
    for a, b in zip(first, again):
        for col in ("ref_objective", "w_star", "trace_coherence", "deff", "gamma_eps", "kc_ref_objective"):
            assert a[col] == b[col] or (math.isnan(a[col]) and math.isnan(b[col])), col
    third = run(cfgs[0]).rows[0]  # the planted files were replaced by entries
    assert third["ref_cached"] and third["population_cached"]


def test_a_planted_parquet_extension_type_is_not_unpickled(tmp_path, plant):
    """pyarrow 14.0.0 unpickled the metadata of a ``arrow.py_extension_type`` column
    (CVE-2023-47248; pyproject asks for pyarrow ≥ 14.0.1)."""
    plant(tmp_path / "payload")
    meta = {b"ARROW:extension:name": b"arrow.py_extension_type",
            b"ARROW:extension:metadata": (tmp_path / "payload").read_bytes()}
    table = pa.table({"run_id": ["r0"], "x": pa.array([b"0"], pa.binary())})
    table = table.cast(pa.schema([table.schema.field("run_id"), pa.field("x", pa.binary(), metadata=meta)]))
    (tmp_path / "runs").mkdir()
    pq.write_table(table, tmp_path / "runs" / "r0.parquet")
    assert list(run_store.load(tmp_path)["run_id"]) == ["r0"]
    assert not plant.marker.exists()


# -- the cache of computations ---------------------------------------------------------------------
CALLS: list[str] = []


def reference_like(key: str, data: object) -> dict[str, object]:
    CALLS.append(key)
    return {"ref_objective": 0.25, "ref_moves": 3, "ref_kernel_stored": True, "ref_risk_estimator": "exact",
            "labels": np.array([0, 1, 1], dtype=np.int64)}


def pair(key: str, t: int, K: object) -> tuple[float, np.ndarray]:
    CALLS.append(key)
    return 1.5, np.arange(t, dtype=np.float64)


@pytest.mark.parametrize("func,keyed", [(reference_like, ("a",)), (pair, ("b", 4))])
def test_a_cached_result_reads_back_the_same(tmp_path, func, keyed):
    CALLS.clear()
    value, cached = cached_call(tmp_path, func, keyed, None)
    again, cached_again = cached_call(tmp_path, func, keyed, None)
    assert (cached, cached_again) == (False, True) and CALLS == [keyed[0]]
    assert type(again) is type(value)
    for a, b in zip(value.values() if isinstance(value, dict) else value,
                    again.values() if isinstance(again, dict) else again):
        assert type(a) is type(b) and np.array_equal(a, b)
    assert cached_call(tmp_path, func, (keyed[0] + "x", *keyed[1:]), None)[1] is False  # another key


def test_a_planted_cache_entry_is_computed_again(tmp_path, plant):
    CALLS.clear()
    plant(entry_path(tmp_path, pair, ("c", 2)))
    assert cached_call(tmp_path, pair, ("c", 2), None)[1] is False
    assert cached_call(tmp_path, pair, ("c", 2), None)[1] is True  # replaced by an entry
    assert CALLS == ["c"] and not plant.marker.exists()


def test_a_result_that_needs_pickle_is_refused(tmp_path):
    with pytest.raises(TypeError, match="needs pickle"):
        cached_call(tmp_path, lambda key: {"note": None}, ("d",))
    assert not (tmp_path / "cache").exists()


# -- the rows cache of a sweep ---------------------------------------------------------------------
def write_rows(store: run_store.Store) -> None:
    """Three runs whose columns differ: ints, floats, bools, strings, empty cells, a column
    absent from a run (concatenated: NaN, object columns of bools and None)."""
    store.write("r0", {"run_id": "r0", "n": 100, "risk": 0.5, "holds": True, "name": "nystrom", "note": None}, {})
    store.write("r1", {"run_id": "r1", "n": 200, "risk": float("nan"), "holds": None, "name": "ros",
                       "extra": 7}, {})
    store.write("r2", {"run_id": "r2", "n": 400, "risk": 0.25, "holds": False, "name": "gaussian", "note": "x",
                       "extra": 8}, {})


def test_the_rows_cache_round_trips_and_follows_its_stamp(tmp_path, monkeypatch):
    store = run_store.Store(tmp_path)
    write_rows(store)
    ids, cache = ["r0", "r1", "r2", "r3"], tmp_path / "rows.parquet"
    direct = reproduce_sweep.read_rows(tmp_path, ids)  # no cache: the run files
    reproduce_sweep.read_rows(tmp_path, ids, cache)
    assert cache.exists()
    reads: list[str] = []
    read_run = run_store.read_rows
    monkeypatch.setattr(run_store, "read_rows", lambda path: reads.append(Path(path).stem) or read_run(path))
    kept = reproduce_sweep.read_rows(tmp_path, ids, cache)
    assert reads == []  # one file, not one per run
    pd.testing.assert_frame_equal(kept, direct, check_exact=True)  # values, columns and dtypes
    assert list(kept.dtypes) == list(direct.dtypes)
    store.write("r1", {"run_id": "r1", "n": 200, "risk": float("nan"), "holds": None, "name": "ros",
                       "extra": 7}, {})  # the same row written again: a new file, a new stamp
    pd.testing.assert_frame_equal(reproduce_sweep.read_rows(tmp_path, ids, cache), direct, check_exact=True)
    assert reads == ["r0", "r1", "r2"]
    reproduce_sweep.read_rows(tmp_path, ids, cache)
    assert reads == ["r0", "r1", "r2"]  # kept again under the new stamp
    assert reproduce_sweep.read_rows(tmp_path, ["r0", "r2"], cache)["run_id"].tolist() == ["r0", "r2"]


# -- claim files -----------------------------------------------------------------------------------
CLAIM = """\
sweep: {overrides: [n=100]}
x: n
y: train_risk
shape: rate
margin: {value: 0.1, why: a reason, source: a source}
"""


@pytest.mark.parametrize("valid,hostile", [
    ("against: yin_thm2",  # an expression is parsed, never run
     "against: \"__import__('pathlib').Path('{marker}').touch()\""),
    ("against: yin_thm2\nclaim: a sentence",  # YAML is read without Python tags
     "against: yin_thm2\nclaim: !!python/object/apply:pathlib.Path.touch ['{marker}']"),
])
def test_a_claim_file_is_not_evaluated(tmp_path, valid, hostile):
    marker, path = tmp_path / "executed", tmp_path / "claim.yaml"
    path.write_text(CLAIM + valid + "\n")
    load_claim(path)
    path.write_text(CLAIM + hostile.format(marker=marker) + "\n")
    with pytest.raises(ClaimError):
        load_claim(path)
    assert not marker.exists()
