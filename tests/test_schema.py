"""The row schema (kktheory.run.schema): every column of every representative row is documented,
docs/schema.md is the generated text, and old rows read under the current names."""

import dataclasses

import pandas as pd
import pytest

import kktheory.run.store as store
from kktheory.evaluation import population
from kktheory.run import schema
from kktheory.evaluation.bounds.engine import COLUMNS
from kktheory.run.config import GROUPS, RunConfig
from kktheory.reproduce.sweep import read_rows
from tests.conftest import ROOT
from tests.inprocess import run_inprocess

TINY = ("n=200", "n_test=100", "k=3")
#: one run per kind of row: defaults, every option that adds columns, every sketch
RUNS = {
    "default": (),
    "bounds_all": ("bounds=all",),
    "projected": ("centroids=projected", "bounds=[gamma,trace]"),
    "reference_none": ("reference=none",),
    "reference_nystrom": ("reference=nystrom:20",),
    "population": ("dataset.centres_seed=0", "population.test_n=2000", "kernel.bandwidth=fixed",
                   "population.select_n=300", "population.train_n=300", "population.m=20",
                   "population.exact_n=100", "population.restarts=1"),
    "dask": ("backend=dask",),
    "subsampled_risk": ("risk_exact_limit=100",),
    "column_objective": ("column_objective=true", "m=[8,16]"),
    "warm_start": ("m=[8,16]", "clustering.warm_start=true"),
    "minibatch": ("clustering=minibatch",),
    "localsearch": ("clustering=localsearch",),
    "polynomial": ("kernel=polynomial",),
    "digits": ("dataset=digits",),
    "rls_bless": ("sketch=nystrom_rls", "sketch.method=bless"),
    "exact_features": ("sketch=exact", "bounds=[trace]"),
    "onepass_oversampling": ("sketch=onepass", "sketch.oversampling=5"),
    **{f"sketch_{name}": (f"sketch={name}",) for name in (
        "nystrom", "nystrom_liu", "nystrom_rls", "nystrom_rr", "kpca", "power", "yin_nystrom", "subgaussian",
        "ros", "gaussian", "kernel_columns", "exact", "onepass", "rff", "two_step", "approx_kkm",
        "spectral_nystrom")},
}


def check_documented(rows: pd.DataFrame) -> None:
    """AssertionError naming every column of ``rows`` the schema does not document."""
    missing = schema.undocumented(rows.columns)
    assert not missing, f"columns without documentation in kktheory/run/schema.py: {', '.join(missing)}"


@pytest.mark.parametrize("case", RUNS)
def test_every_column_of_a_row_is_documented(case, tmp_path):
    res = run_inprocess(*TINY, *RUNS[case], results_dir=tmp_path)
    assert res.returncode == 0, res.stderr
    rows = store.load(tmp_path)
    assert len(rows) >= 1
    check_documented(rows)


def test_a_column_without_documentation_fails_and_is_named():
    rows = pd.DataFrame([{"run_id": "0", "train_risk": 1.0, "surprise_column": 2.0}])
    with pytest.raises(AssertionError, match="surprise_column"):
        check_documented(rows)


def test_every_declared_column_is_documented():
    """Columns other modules declare (bound checks, population) are in the schema."""
    declared = [c for cols in COLUMNS.values() for c in cols] + list(population.COLUMNS)
    assert schema.undocumented(declared) == []


def test_every_config_field_has_a_comment():
    """Identity columns are documented by their field's comment: a field without one fails."""
    classes = [RunConfig, population.PopulationConfig]
    classes += [cls for group in GROUPS for cls in schema.group_options(group).values()]
    missing = [f"{cls.__name__}.{f.name}" for cls in classes for f in dataclasses.fields(cls)
               if f.name not in (*GROUPS, "population", "name") and f.name not in schema.field_comments(cls)]
    assert missing == []


def test_docs_schema_md_is_the_generated_text():
    committed = (ROOT / "docs" / "schema.md").read_text(encoding="utf-8")
    assert committed == schema.markdown(), "regenerate: python -m kktheory.run.schema > docs/schema.md"


def test_meanings_of_the_near_duplicates_say_how_they_differ():
    cols = schema.columns()
    assert "kernel_sigma" in cols["kernel.sigma"].empty and "bandwidth=fixed" in cols["kernel_sigma"].meaning
    assert "time_load + time_embed + time_cluster + time_evaluate" in cols["time_total"].meaning
    assert "reference" in cols["time_wall"].meaning
    assert "1/√n when sketch.p is null" in cols["subgaussian_p"].meaning
    assert "gamma_value" in cols["gamma"].meaning and "its resolved value is m" in cols["m_rule"].meaning


# -- reading rows ------------------------------------------------------------------------------
def test_load_of_a_folder_without_a_store_names_it(tmp_path):
    with pytest.raises(FileNotFoundError, match="typo"):
        store.load(tmp_path / "typo")
    with pytest.raises(FileNotFoundError, match=str(tmp_path)):
        store.load(tmp_path)  # exists, but holds no runs/
    (tmp_path / "runs").mkdir()
    assert store.load(tmp_path).empty  # a store without rows yet


OLD_ROWS = pd.DataFrame([
    {"run_id": "a" * 16, "m": 8, "kmeans_algorithm": "elkan", "train_risk": 0.5},  # an old NumPy row
    {"run_id": "b" * 16, "m": 8, "backend": "dask", "clustering_algorithm": "dask-ml k-means||", "train_risk": 0.6},
])


def test_old_rows_read_under_the_current_names(tmp_path):
    """Rows written before the rename: through the store, its import of committed rows and
    reproduce's reading of a sweep's rows, kmeans_algorithm is clustering_algorithm and an
    empty backend is numpy."""
    runs = tmp_path / "runs"
    runs.mkdir()
    for _, row in OLD_ROWS.iterrows():  # files as an earlier version wrote them
        row.to_frame().T.dropna(axis=1).infer_objects().to_parquet(runs / f"{row.run_id}.parquet")
    imported = tmp_path / "imported"
    store.Store(imported).import_rows(OLD_ROWS)
    for rows in (store.load(tmp_path), store.load(imported), read_rows(tmp_path, list(OLD_ROWS.run_id))):
        rows = rows.set_index("run_id")
        assert "kmeans_algorithm" not in rows
        assert list(rows.clustering_algorithm) == ["elkan", "dask-ml k-means||"]
        assert list(rows.backend) == ["numpy", "dask"]


def test_a_column_given_twice_is_refused():
    from kktheory.run.schema import merged

    assert merged({"a": 1}, {"b": 2}, {}) == {"a": 1, "b": 2}
    assert list(merged({"b": 1}, {"a": 2})) == ["b", "a"]  # the parts' order
    with pytest.raises(ValueError, match="given twice: a"):
        merged({"a": 1, "b": 2}, {"a": 1})
