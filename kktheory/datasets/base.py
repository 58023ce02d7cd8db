"""The common interface of data sets (config group ``dataset``).

A loader is registered with its config dataclass and called as
``loader(params, n, n_test, k, rng)``; it returns a :class:`Dataset` with ``n`` training
and ``n_test`` test points, their labels, and the indices of the points in the source
(kept with each run so that every number can be recomputed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from omegaconf import MISSING

from kktheory.registry import Registry


@dataclass
class DatasetConfig:
    """Base config of the ``dataset`` group."""

    name: str = MISSING


@dataclass
class Dataset:
    """Train and test arrays (float64, rows are points) with labels and source indices."""

    name: str
    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    train_idx: np.ndarray
    test_idx: np.ndarray


Loader = Callable[[DatasetConfig, int, int, int, np.random.Generator], Dataset]

DATASETS: Registry[Loader] = Registry("dataset")
