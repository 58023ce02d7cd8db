"""Data sets: one module per source, registered by name in ``DATASETS``."""

from kktheory.datasets.base import DATASETS, Dataset, DatasetConfig
from kktheory.registry import import_submodules

import_submodules(__name__)

__all__ = ["DATASETS", "Dataset", "DatasetConfig"]
