"""A fixed small sweep whose rows are kept in ``tests/data/golden_rows.json``: every sketch on
the NumPy backend, every sketch the Dask backend supports, and one run per clusterer,
centroid rule, kernel, bound engine and population option. ``tests/test_golden_rows.py``
recomputes it and compares every value of every row, so that a change meant to reshape the
code without changing a number proves it.

    python -m tests.golden_rows --write    # regenerate (only for a change meant to alter rows; say so)

Not collected by pytest (no ``test_`` prefix). The rows are computed in float64
(``tests.hydra_cfg.make_cfg``) at n = 120, so that they do not depend on float32 round-off.
"""

from __future__ import annotations

import argparse
import json
import math
import tempfile
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).parent / "data" / "golden_rows.json"

#: what every run of the sweep shares
COMMON = ("n=120", "n_test=60", "k=3", "m=[6,12]", "reference=exact", "seed=0")

#: columns that describe the machine, the moment or the state of a cache, not the result
VOLATILE = ("time_", "peak_rss_mb", "version", "git_commit", "cpu_count", "blas_threads", "host", "created",
            "results_dir")


def sweep() -> dict[str, tuple[str, ...]]:
    """name → overrides (beside COMMON) of each run of the sweep."""
    from kktheory.run import dask as dask_backend
    from kktheory.embeddings import SKETCHES

    runs = {f"numpy/{name}": (f"sketch={name}",) for name in SKETCHES.names()}
    runs |= {f"dask/{name}": (f"sketch={name}", "backend=dask") for name in dask_backend.supported_sketches()}
    runs |= {
        "bounds=all": ("bounds=all",),
        "population": ("population.test_n=200", "population.select_n=100", "population.train_n=150",
                       "population.m=20", "population.exact_n=100", "population.restarts=2"),
        "projected": ("centroids=projected",),
        "nystrom_rr/projected": ("sketch=nystrom_rr", "centroids=projected"),
        "minibatch": ("clustering=minibatch",),
        "localsearch": ("clustering=localsearch",),
        "warm_start": ("clustering.warm_start=true",),
        "polynomial": ("kernel=polynomial", "kernel.degree=3"),
        "moons/wang": ("dataset=moons", "k=2", "kernel.bandwidth=wang"),
        "subsampled risk": ("risk_exact_limit=50", "risk_points=40", "risk_pairs=200"),
    }
    return runs


def kept(row: dict[str, Any]) -> dict[str, Any]:
    """The row without its volatile columns, NaN as None (JSON)."""
    out = {}
    for key, value in row.items():
        if key.startswith(VOLATILE) or key.endswith("_cached"):
            continue
        if hasattr(value, "item"):  # NumPy scalars
            value = value.item()
        if isinstance(value, float) and math.isnan(value):
            value = None
        out[key] = value
    return out


def compute(names: list[str] | None = None) -> dict[str, list[dict[str, Any]]]:
    """The sweep's rows (all of it, or the runs ``names``), keyed by run name."""
    import kktheory.run.experiment  # noqa: F401  (registers the config schemas)
    from kktheory.run.experiment import run
    from tests.hydra_cfg import make_cfg

    runs = sweep()
    out = {}
    for name in names or list(runs):
        with tempfile.TemporaryDirectory() as tmp:  # its own store: no row reused from another run
            result = run(make_cfg(*COMMON, *runs[name], f"results_dir={tmp}"))
        out[name] = [kept(dict(r)) for r in result.rows]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help=f"write {GOLDEN.name}")
    if not ap.parse_args().write:
        ap.error("--write is required: this rewrites the rows the golden test compares against")
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(compute(), indent=1, sort_keys=True, allow_nan=False) + "\n")
    print(f"wrote {GOLDEN}")


if __name__ == "__main__":
    main()
