"""Constraints on parameters: one table for the run's top-level fields, shared by the
runner (:func:`kktheory.run.config.build_spec`, :func:`kktheory.evaluation.bounds.spec.build_bounds_spec`)
and the scikit-learn estimator (:class:`kktheory.estimator.SketchedKernelKMeans`).

Each constraint is a callable ``constraint(name, value) -> value`` that returns the value
as a plain Python scalar or raises :class:`~kktheory.errors.ConfigError` with one line:
the field, the value and what is allowed. The estimator checks its own parameter under
its own name (``n_clusters`` is the run's ``k``) with the same constraint, so both say the
same thing about the same quantity. The layout follows scikit-learn's
``_parameter_constraints`` (a dict from parameter to constraint, one validator).

The fields of the four config groups (``dataset``, ``kernel``, ``sketch``, ``clustering``)
are typed by their dataclasses and checked by their modules; the relations between fields
(m ≤ n, k ≤ n, the memory guard) are :func:`kktheory.run.config.build_spec`'s and the
method's (:meth:`kktheory.run.method.Method.check`).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from kktheory.errors import ConfigError

DTYPES = ("float64", "float32")
CENTROIDS = ("lifted", "projected")
#: backend name → "module:Class" implementing kktheory.run.backends.Backend (imported only when
#: a run chooses it, so that the optional Dask extra is not needed otherwise)
BACKENDS = {
    "numpy": "kktheory.run.backends:NumpyBackend",
    "dask": "kktheory.run.dask:DaskBackend",
}


def plain(value: Any) -> Any:
    """NumPy scalars (e.g. from a parameter grid) as Python scalars; anything else as given."""
    return value.item() if isinstance(value, np.generic) else value


class Constraint(Protocol):
    def __call__(self, name: str, value: Any, why: str = "") -> Any: ...


@dataclass(frozen=True)
class Integer:
    """An integer lo ≤ value (≤ hi); booleans are not integers."""

    lo: int
    hi: int | None = None

    def __call__(self, name: str, value: Any, why: str = "") -> int:
        value = plain(value)
        if (isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < self.lo
                or (self.hi is not None and value > self.hi)):
            bound = f"[{self.lo}, {self.hi}]" if self.hi is not None else f"≥ {self.lo}"
            raise ConfigError(name, value, f"an integer {bound}{why}")
        return int(value)


@dataclass(frozen=True)
class Real:
    """A real number; with ``open_range`` = (lo, hi), finite and lo < value < hi, described by ``what``."""

    open_range: tuple[float, float] | None = None
    what: str = "a number"

    def __call__(self, name: str, value: Any, why: str = "") -> float:
        value = plain(value)
        ok = not isinstance(value, bool) and isinstance(value, numbers.Real)
        if ok and self.open_range is not None:
            lo, hi = self.open_range
            ok = math.isfinite(value) and lo < value < hi
        if not ok:
            raise ConfigError(name, value, self.what + why)
        return float(value)


@dataclass(frozen=True)
class OneOf:
    """One of a fixed set of strings."""

    choices: tuple[str, ...]

    def __call__(self, name: str, value: Any, why: str = "") -> str:
        if value not in self.choices:
            raise ConfigError(name, value, f"one of {', '.join(self.choices)}{why}")
        return value


#: the run's top-level fields (kktheory.run.config.RunConfig) and what each allows
CONSTRAINTS: dict[str, Constraint] = {
    "n": Integer(1),
    "n_test": Integer(1),
    "k": Integer(1),
    "seed": Integer(0),
    "data_seed": Integer(0),
    "dtype": OneOf(DTYPES),
    "centroids": OneOf(CENTROIDS),
    "backend": OneOf(tuple(BACKENDS)),
    "risk_exact_limit": Integer(0),
    "risk_points": Integer(2),
    "risk_pairs": Integer(2),
    "reference_n_init": Integer(1),
    "threads": Integer(1),
    "dask_chunk_rows": Integer(1),
    "bound_exact_max_n": Integer(0),
    "bound_delta": Real((0.0, 1.0), "a probability 0 < δ < 1"),
    "bound_eps": Real((0.0, 1.0), "a target accuracy 0 < ε < 1"),
    "bound_sample_points": Integer(2),
    "bound_tol": Real((0.0, 1.0), "a relative tolerance 0 < tol < 1"),
}


def check(field: str, value: Any, name: str | None = None, why: str = "") -> Any:
    """``value`` checked against the constraint of the run field ``field`` (reported as
    ``name``, the estimator's parameter, when given)."""
    return CONSTRAINTS[field](name or field, value, why)
