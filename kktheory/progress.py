"""Progress bars for loops that can take more than a few seconds.

A bar appears on stderr only once a loop has run for ``DELAY`` seconds, so quick runs
stay quiet; set ``KKTHEORY_PROGRESS=0`` to silence bars altogether.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import TypeVar

from tqdm.auto import tqdm

T = TypeVar("T")
DELAY = 2.0


def progress(iterable: Iterable[T], desc: str | None = None, total: int | None = None) -> Iterator[T]:
    """Iterate with a delayed tqdm bar."""
    disable = os.environ.get("KKTHEORY_PROGRESS", "1") == "0" or (total is not None and total < 2)
    yield from tqdm(iterable, desc=desc, total=total, delay=DELAY, disable=disable, leave=False)
