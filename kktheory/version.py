"""The package's version, recorded in every row (``version``) and in the caches' keys."""

__version__ = "0.1.0"
