"""A run's identity holds what changes its result: setting a field that does not apply
(another kernel's parameter, a bandwidth parameter another rule uses, restarts of an absent
reference, subsampling settings when every risk is exact) makes no new run, and a field
that applies does."""

from __future__ import annotations

import pandas as pd
import pytest

import kktheory.run.experiment  # noqa: F401  (registers the config schemas)
from kktheory.reproduce.committed import committed_rows_path
from kktheory.reproduce.plan import plan_sweep, run_ids
from tests.hydra_cfg import make_cfg


def same(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    return run_ids(make_cfg(*a)) == run_ids(make_cfg(*b))


@pytest.mark.parametrize("base, extra", [
    ((), ("kernel.degree=3",)),  # Gaussian kernel: the polynomial degree does not apply
    ((), ("kernel.coef0=0",)),
    ((), ("kernel.beta=5",)),  # bandwidth=fixed: β does not apply
    (("kernel.bandwidth=wang",), ("kernel.sigma=7",)),  # bandwidth=wang: σ does not apply
    (("kernel=polynomial",), ("kernel.sigma=5", "kernel.bandwidth=wang")),
    (("kernel=linear",), ("kernel.degree=4",)),
    (("reference=none",), ("reference_n_init=3",)),
    ((), ("risk_points=50", "risk_pairs=50")),  # n = 2000 ≤ risk_exact_limit: exact risks
    (("centroids=projected", "risk_exact_limit=0", "reference=none"), ("risk_points=50",)),  # all exact
])
def test_a_field_that_does_not_apply_makes_no_new_run(base, extra):
    assert same(base, base + extra)


@pytest.mark.parametrize("base, extra", [
    ((), ("kernel.sigma=3",)),
    (("kernel.bandwidth=wang",), ("kernel.beta=5",)),
    (("kernel=polynomial",), ("kernel.degree=3",)),
    ((), ("reference_n_init=3",)),
    (("risk_exact_limit=100",), ("risk_points=50",)),  # n = 2000 > 100: the estimator's points
    # projected risks are exact, but the exact reference is scored by the estimator above the limit
    (("centroids=projected", "risk_exact_limit=0", "reference=exact"), ("risk_points=50",)),
])
def test_a_field_that_applies_makes_a_new_run(base, extra):
    assert not same(base, base + extra)


def test_the_default_run_keeps_its_id():
    # the id of the default run before the rule (and before data sets carried their defaults)
    assert run_ids(make_cfg()) == ["d4e17d1d4d0c4f3c"]


def test_the_reference_cache_ignores_fields_that_do_not_apply():
    from kktheory.run.config import build_spec
    from kktheory.evaluation.reference import cache_key

    def key(*extra):
        spec = build_spec(make_cfg("reference=exact", *extra))
        return cache_key(spec.reference_job, spec.reference)

    assert key() == key("kernel.degree=5", "kernel.beta=3")
    assert key() != key("kernel.sigma=3")


@pytest.mark.parametrize("base, extra", [
    # execution: where and how, never what (RunConfig's fields marked EXECUTION)
    ((), ("results_dir=elsewhere", "force=true", "memory_budget_gb=3", "threads=1", "dask_scheduler=tcp://x:1",
          "dask_chunk_rows=7")),
    # a group's own execution fields (declared in its config dataclass)
    (("dataset=augmented_mnist", "n=300", "n_test=50", "reference=none"),
     ("dataset.n_jobs=2", "dataset.chunk_size=10", "dataset.cache_dir=elsewhere", "dataset.in_memory_max=500")),
    ((), ("clustering.algorithm=elkan",)),
    # an evaluation stage the run does not use
    ((), ("bound_delta=0.3", "bound_eps=0.2", "bound_tol=1e-3")),
    ((), ("population.select_n=100", "population.m=10")),
    ((), ("column_objective=false",)),  # Wang's objective over the kernel columns, off (its default)
    # an option at the value rows had before it existed
    (("dataset=yin_hypercube",), ("dataset.centres_seed=null",)),
    (("dataset=augmented_mnist", "n=300", "n_test=50", "reference=none"), ("dataset.test_set=mnist",)),
])
def test_a_field_of_a_stage_the_row_does_not_depend_on_makes_no_new_run(base, extra):
    assert same(base, base + extra)


@pytest.mark.parametrize("base, extra", [
    (("bounds=[trace]",), ("bound_delta=0.3",)),  # the bound checks are computed: their settings count
    ((), ("column_objective=true",)),  # the row holds objective_columns
    (("dataset=yin_hypercube",), ("dataset.centres_seed=3",)),
    (("dataset=moons", "n=300", "backend=dask", "reference=none"), ("dask_chunk_rows=70",)),  # Dask rows keep them
])
def test_a_field_of_a_stage_the_row_depends_on_makes_a_new_run(base, extra):
    assert not same(base, base + extra)


def test_every_top_level_field_declares_whether_it_enters_the_identity():
    """Each RunConfig field is the data draw or the method (no metadata) or names a stage
    the identity knows; the execution fields are exactly the ones a user expects there."""
    from dataclasses import fields

    from kktheory.run.config import RunConfig
    from kktheory.run.identity import stage_of

    stages = {f.name: stage_of(f.name) for f in fields(RunConfig)}
    assert set(stages.values()) <= {None, "per_row", "risk", "reference", "bounds", "population", "column_objective",
                                    "execution"}
    assert {n for n, s in stages.items() if s == "execution"} == {
        "results_dir", "force", "memory_budget_gb", "threads", "backend", "dask_scheduler", "dask_chunk_rows"}
    assert {n for n, s in stages.items() if s is None} == {
        "dataset", "kernel", "sketch", "clustering", "n", "n_test", "k", "gamma", "seed", "data_seed", "dtype",
        "centroids"}


def test_the_wang_fig4_5_jobs_keep_the_run_ids_of_their_committed_rows(tmp_path):
    """Fig. 5's objective over the kernel columns runs in its own sweep on fresh seeds
    (experiments/wang_fig4_5_objective.yaml): the main sweep's jobs (MNIST's n = 60,000 took
    four hours) are the committed rows' runs, not new ones, and the objective's jobs are new."""
    rows = pd.read_parquet(committed_rows_path("wang_fig4_5"), columns=["run_id", "seed"])
    committed = set(rows.loc[rows["seed"] < 20, "run_id"])
    plan = plan_sweep("wang_fig4_5", tmp_path)
    assert len(committed) == 1680 and {i for job in plan.jobs for i in job.ids} == committed
    fresh = plan_sweep("wang_fig4_5_objective", tmp_path, ["seed=20", "wang_fig4_5/method=two_step"])
    assert fresh.jobs and all(job.setup["column_objective"] and job.ids and not set(job.ids) & committed
               for job in fresh.jobs)
