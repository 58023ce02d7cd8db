"""Derivation of every random stream from the run's seed.

Each random component of a run draws from its own generator,
``np.random.default_rng([seed, crc32(component)])``, where ``component`` is a fixed
name ("data", "sketch", "cluster", "risk", ...). Streams are therefore independent of
one another and of the order in which components run: changing the clustering never
changes the landmarks, and a list of m values sees the same landmark permutation as a
single m (nested sketches). The data draw uses ``data_seed`` (default: ``seed``) so that
several sketch seeds can share one data draw and one exact reference.
"""

from __future__ import annotations

import zlib

import numpy as np


def component_rng(seed: int, component: str) -> np.random.Generator:
    """Generator for one named component of a run with the given seed."""
    return np.random.default_rng([int(seed), zlib.crc32(component.encode())])


def component_seed(seed: int, component: str) -> int:
    """A 31-bit integer seed for libraries that take an int (scikit-learn)."""
    return int(component_rng(seed, component).integers(2**31 - 1))
