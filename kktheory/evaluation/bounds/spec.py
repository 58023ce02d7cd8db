"""Which bound checks a run computes, and their parameters (top-level config fields).

=========================  ==============================================================
``bounds``                 list of checks (default ``[]``: bounds cost extra), or ``all``:

                           - ``gamma``: γ-preservation (Calandriello Def. 2), d_eff,
                             Lemma 1/3 required m, Lemma 2 gap check;
                           - ``trace``: trace-norm ratio (Wang Thm 1);
                           - ``jl``: JL distortion and Lemma 6 (Yin) for k_i ↦ R·k_i
                             sketches, distance ratios for projection embeddings;
                           - ``pourkamali``: Pourkamali-Anaraki & Becker Thm 1 gap check;
                           - ``wang_thm2``: Wang Thm 2 objective ratio check.
``bound_exact_max_n``      exact (dense, O(n³)) computation up to this n; above it,
                           randomized estimates with a stated error (default 3000)
``bound_delta``            failure probability δ of the lemmas' required m (default 0.1)
``bound_eps``              target ε of the lemmas' required m (default 0.5)
``bound_sample_points``    above ``bound_exact_max_n``: points whose pairs give the
                           distance ratios (default 2000, i.e. ~2·10⁶ pairs)
``bound_tol``              relative tolerance of randomized eigenvalue and trace
                           estimates (default 1e-6)
=========================  ==============================================================
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from omegaconf import DictConfig, ListConfig

from kktheory.machine import memory
from kktheory.constraints import check
from kktheory.errors import ConfigError

BOUND_NAMES = ("gamma", "trace", "jl", "pourkamali", "wang_thm2")
ALLOWED = f"a list of {' | '.join(BOUND_NAMES)}, or all (e.g. bounds=[gamma,trace])"


@dataclass(frozen=True)
class BoundsSpec:
    """Validated bound settings of a run."""

    names: tuple[str, ...] = ()
    exact_max_n: int = 3000
    delta: float = 0.1
    eps: float = 0.5
    sample_points: int = 2000
    tol: float = 1e-6


def _names(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    items = list(value) if isinstance(value, (list, tuple, ListConfig)) else [value]
    out: list[str] = []
    for item in items:
        if not isinstance(item, str) or item not in (*BOUND_NAMES, "all"):
            raise ConfigError("bounds", item if len(items) > 1 else value, ALLOWED)
        for name in BOUND_NAMES if item == "all" else (item,):
            if name not in out:
                out.append(name)
    return tuple(out)


def build_bounds_spec(cfg: DictConfig) -> BoundsSpec:
    """Validate the ``bounds`` and ``bound_*`` fields of a composed config."""
    if "bounds" not in cfg:  # a config composed without the bound fields
        return BoundsSpec()
    return BoundsSpec(
        names=_names(cfg.get("bounds")),
        **{f.name: check(f"bound_{f.name}", cfg.get(f"bound_{f.name}")) for f in fields(BoundsSpec) if f.name != "names"},
    )


def require_dense(n: int, copies: int, budget: int) -> None:
    """Refuse the dense bound path when ``copies`` n×n float64 matrices exceed the budget."""
    memory.require(
        8.0 * copies * n * n, budget, f"the dense bound checks at n={n}",
        "lower bound_exact_max_n to use the randomized estimates",
    )


def require_bounds(b: BoundsSpec, n: int, budget: int) -> None:
    """Memory guard of the bound checks (:mod:`kktheory.evaluation.bounds`): the dense path holds
    four n×n float64 matrices; the randomized path the n × ``bound_sample_points`` kernel
    columns of the sampled points and their Gram matrix."""
    if not b.names:
        return
    if n <= b.exact_max_n:
        require_dense(n, 4, budget)
        return
    s = min(b.sample_points, n)
    memory.require(
        8 * (n * s + 2 * s * s), budget,
        f"the randomized bound checks (kernel columns of {s} sampled points, {n}×{s})",
        "lower bound_sample_points",
    )
