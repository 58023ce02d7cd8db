"""Progress bars for loops that can take more than a few seconds.

A bar appears on stderr only once a loop has run for ``DELAY`` seconds, so quick runs
stay quiet, and only when stderr is a terminal: redrawn with carriage returns, a bar
written into a log file or a pipe is noise. ``KKTHEORY_PROGRESS`` is the one switch:
``0`` never shows bars, ``1`` always does (e.g. in a notebook), unset follows stderr.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

from tqdm.auto import tqdm

T = TypeVar("T")
DELAY = 2.0
SWITCH = "KKTHEORY_PROGRESS"


def bars_enabled() -> bool:
    """``$KKTHEORY_PROGRESS`` (0 or 1) if set, else whether stderr is a terminal."""
    setting = os.environ.get(SWITCH, "")
    if setting:
        return setting != "0"
    return bool(getattr(sys.stderr, "isatty", lambda: False)())


def progress(iterable: Iterable[T], desc: str | None = None, total: int | None = None) -> Iterator[T]:
    """Iterate with a delayed tqdm bar on stderr (see :func:`bars_enabled`)."""
    disable = not bars_enabled() or (total is not None and total < 2)
    yield from tqdm(iterable, desc=desc, total=total, delay=DELAY, disable=disable, leave=False, file=sys.stderr)
