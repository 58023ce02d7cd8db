"""Data sets: one module per source, registered by name in ``DATASETS``.

Table data sets (read from a finite source, then split and subsampled by
:func:`kktheory.datasets.base.finish`) also have their full-source reader in ``TABLES``.
"""

from kktheory.datasets.base import DATASETS, TABLES, Dataset, DatasetConfig, resolve_data_dir

__all__ = ["DATASETS", "TABLES", "Dataset", "DatasetConfig", "resolve_data_dir"]
