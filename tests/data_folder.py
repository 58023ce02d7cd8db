"""Tests that read the offline data files: where they are, and skipping when they are not
(shared by tests, not collected).

The folder is the library's own: :func:`kktheory.datasets.base.resolve_data_dir` with no
configured folder, i.e. ``$KKTHEORY_DATA``, else ``shared/datasets`` beside the checkout.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kktheory.datasets.base import DATA_ENV, resolve_data_dir


def data_dir() -> Path:
    """The data folder a run without ``dataset.data_dir`` reads."""
    return resolve_data_dir(None)


def needs_data(*paths: str) -> pytest.MarkDecorator:
    """Skip unless every ``paths`` (relative to :func:`data_dir`) exists, naming the folder,
    where it came from and what is missing."""
    folder = data_dir()
    missing = [p for p in paths if not (folder / p).exists()]
    env = os.environ.get(DATA_ENV, "")
    source = f"${DATA_ENV}={env}" if env else f"the default; set ${DATA_ENV} to the data folder"
    return pytest.mark.skipif(
        bool(missing), reason=f"data folder {folder} ({source}) lacks {', '.join(missing)}",
    )
