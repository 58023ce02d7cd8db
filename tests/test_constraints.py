"""One table of parameter constraints (kktheory.constraints) for the runner and the estimator."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from kktheory.run.config import RunConfig, build_spec
from kktheory.constraints import CONSTRAINTS, Integer, OneOf, Real, check
from kktheory.errors import ConfigError
from kktheory.estimator import SketchedKernelKMeans
from tests.hydra_cfg import make_cfg

#: RunConfig fields checked elsewhere, and where
CHECKED_ELSEWHERE = {
    "dataset", "kernel", "sketch", "clustering", "population",  # groups: their dataclasses and modules
    "m", "gamma",  # rules (kktheory.rules)
    "reference",  # kktheory.evaluation.reference.parse_reference
    "bounds",  # kktheory.evaluation.bounds.spec
    "results_dir",  # config.check_results_dir
    "memory_budget_gb",  # memory.budget_bytes
    "force",  # a boolean, typed by Hydra
    "column_objective",  # a boolean, typed by Hydra; its size limits: config.check_column_objective
    "dask_scheduler",  # an address, read by the Dask backend
}


def test_the_table_covers_every_top_level_field():
    fields = {f.name for f in dataclasses.fields(RunConfig)}
    assert set(CONSTRAINTS) <= fields
    assert fields - set(CONSTRAINTS) == CHECKED_ELSEWHERE


@pytest.mark.parametrize("value", [0, -3, 1.5, True, "2", None])
def test_integer_refuses_what_is_not_an_integer_in_range(value):
    with pytest.raises(ConfigError, match=r"^config error: n=.*: an integer ≥ 1$"):
        check("n", value)


def test_integer_takes_numpy_integers_and_states_an_upper_bound():
    assert check("n", np.int64(7)) == 7 and type(check("n", np.int64(7))) is int
    with pytest.raises(ConfigError, match=r"k=5: an integer \[1, 4\] \(k ≤ n\)"):
        Integer(1, 4)("k", 5, " (k ≤ n)")


@pytest.mark.parametrize("value", [0.0, 1.0, float("nan"), float("inf"), True, "0.1"])
def test_open_interval_refuses_its_ends_and_non_numbers(value):
    with pytest.raises(ConfigError, match="a probability 0 < δ < 1"):
        check("bound_delta", value)
    assert check("bound_delta", np.float32(0.25)) == 0.25


def test_one_of_lists_the_choices():
    assert OneOf(("a", "b"))("x", "a") == "a"
    with pytest.raises(ConfigError, match=r"x='c': one of a, b$"):
        OneOf(("a", "b"))("x", "c")
    assert Real()("sigma", 2) == 2.0


@pytest.mark.parametrize("field, value", [("dtype", "float16"), ("backend", "spark"), ("centroids", "median")])
def test_runner_and_estimator_say_the_same_line(field, value):
    with pytest.raises(ConfigError) as runner:
        build_spec(make_cfg(f"{field}={value}"))
    with pytest.raises(ValueError) as estimator:
        SketchedKernelKMeans(n_clusters=2, **{field: value}).fit(np.random.default_rng(0).normal(size=(20, 2)))
    choices = ", ".join(CONSTRAINTS[field].choices)
    assert str(runner.value) == str(estimator.value) == f"config error: {field}={value!r}: one of {choices}"
