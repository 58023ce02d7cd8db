"""Synthetic result tables for the claim-rule tests (rows shaped like the store's)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import pandas as pd


def rows(
    grid: Iterable[dict[str, Any]],
    values: Callable[[dict[str, Any], np.random.Generator], dict[str, Any]],
    seeds: int = 5,
    base: dict[str, Any] | None = None,
    noise_seed: int = 0,
) -> pd.DataFrame:
    """One row per (grid point, seed): base columns, the grid point, then ``values``."""
    rng = np.random.default_rng(noise_seed)
    out = []
    for point in grid:
        for seed in range(seeds):
            row = {"n": 2000, "n_test": 2000, "k": 10, "dataset.name": "yin_hypercube",
                   "time_embed": 0.0, "time_cluster": 0.0, **(base or {}), **point, "seed": seed}
            row.update(values(row, rng))
            out.append(row)
    return pd.DataFrame(out)


def failure(**cols: Any) -> dict[str, Any]:
    """A pseudo-row of a job that could not run."""
    return {"error_kind": "DataError", "error": "data error: missing file", **cols}
