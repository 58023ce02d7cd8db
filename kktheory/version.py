"""The package's version, recorded in every row (``version``) and in the caches' keys, and the
commit of its checkout (``git_commit``, recorded in every row and in each look of a decision)."""

import subprocess
from functools import lru_cache
from pathlib import Path

__version__ = "0.1.0"


@lru_cache(maxsize=1)
def git_commit() -> str:
    """The commit of the kktheory checkout, or 'unknown' outside a git checkout."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent,
            capture_output=True, text=True, timeout=5, check=True,
        )
        return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
