"""Every data set option supplies its own n, n_test, k and kernel (configs/dataset/*.yaml).

For a table data set, the defaults are checked against the table itself: k is its number
of classes, n and n_test are all of its training and test pools up to the caps (20,000
training and 10,000 test points). Data sets whose files are not on this machine skip.
"""

from __future__ import annotations

import numpy as np
import pytest
from omegaconf import OmegaConf

from kktheory.run.config import build_spec
from kktheory.datasets import DATASETS, TABLES
from kktheory.datasets.base import split_pools
from kktheory.errors import DataError
from tests.hydra_cfg import make_cfg

CAP_N, CAP_TEST = 20000, 10000
GENERATED = {"yin_hypercube": 10, "pourkamali_rings": 2, "wang_rings": 2, "moons": 2, "augmented_mnist": 10}


@pytest.mark.parametrize("name", [d for d in DATASETS.names() if d != "file"])  # file: tests/test_dataset_file.py
def test_defaults_are_the_data_sets_own(name):
    cfg = make_cfg(f"dataset={name}")
    spec = build_spec(cfg)
    if name in GENERATED:
        assert spec.k == GENERATED[name]
        return
    try:
        table = TABLES[name](spec.dataset)
    except DataError as e:
        pytest.skip(str(e))
    train, test, _ = split_pools(table.y, table.n_own_train, spec.dataset, name, np.random.default_rng(0))
    assert spec.k == len(np.unique(table.y))
    assert spec.n == min(len(train), CAP_N)
    assert spec.n_test == min(len(test), CAP_TEST)


def test_kernel_follows_the_data_set_and_the_command_line_wins():
    assert OmegaConf.select(make_cfg(), "kernel.bandwidth") == "fixed"  # Yin's synthetic data: σ = 2
    assert make_cfg().kernel.sigma == 2.0
    assert make_cfg("dataset=mnist").kernel.bandwidth == "wang"
    assert make_cfg("dataset=pourkamali_rings").kernel.name == "polynomial"
    assert make_cfg("dataset=pourkamali_rings", "kernel=gaussian").kernel.name == "gaussian"
    assert make_cfg("dataset=mnist", "n=500", "k=3").n == 500


def test_the_default_run_keeps_its_identity():
    # the default run's sizes and kernel are those it had before data sets carried them
    cfg = make_cfg()
    assert (cfg.n, cfg.n_test, cfg.k, cfg.kernel.bandwidth, cfg.kernel.sigma) == (2000, 2000, 10, "fixed", 2.0)
