"""The package's version, recorded in every row (``version``) and in the caches' keys, and the
commit of its checkout (``git_commit``, recorded in every row; ``git_state``, in each look of a
decision)."""

import subprocess
from functools import lru_cache
from pathlib import Path

__version__ = "0.1.0"


PACKAGE = Path(__file__).parent


def _git(args: list[str], where: Path) -> str | None:
    """git's output in ``where``, None outside a git checkout (or without git)."""
    try:
        return subprocess.run(["git", *args], cwd=where, capture_output=True, text=True, timeout=5,
                              check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


@lru_cache(maxsize=1)
def git_commit() -> str:
    """The commit of the kktheory checkout, or 'unknown' outside a git checkout."""
    return _git(["rev-parse", "HEAD"], PACKAGE) or "unknown"


def git_state(where: Path = PACKAGE) -> str:
    """The commit of the checkout at ``where``, with "+dirty" when its tracked files differ from
    it (the code that ran is then not the commit's), or 'unknown' outside a git checkout."""
    head = _git(["rev-parse", "HEAD"], where)
    if head is None:
        return "unknown"
    return head + ("+dirty" if _git(["status", "--porcelain", "--untracked-files=no"], where) else "")
