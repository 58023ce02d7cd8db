"""Errors that end a run with exit status 2 and a single line for the user.

Everything the user can fix (a bad config value, a missing data file, a request that
would exceed the memory budget) raises a subclass of :class:`UserError`; ``run.py``
prints ``str(error)`` as one line and exits with status 2 before anything is written.
"""

from __future__ import annotations


class UserError(Exception):
    """A problem with the user's request, reported as one line, exit status 2."""

    def __str__(self) -> str:  # one line, whatever the message contained
        return " ".join(super().__str__().split())


class ConfigError(UserError):
    """A config field has a value that is not allowed.

    The message names the field, the value and what is allowed.
    """

    def __init__(self, field: str, value: object, allowed: str) -> None:
        self.field, self.value, self.allowed = field, value, allowed
        super().__init__(f"config error: {field}={value!r}: {allowed}")


class DataError(UserError):
    """A data set is missing or unusable (names the files expected and where)."""


class MemoryBudgetError(UserError):
    """A step would need more memory than the configured budget allows."""
