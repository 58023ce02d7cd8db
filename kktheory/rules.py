"""Size rules: m, γ and the other run quantities written as a rule of n and k.

``sqrt_n``, ``c*sqrt_n``, ``sqrt_nk``, ``n_over_gamma``, ``log_n`` and ``c*k`` are resolved
here and nowhere else — by the runner (:func:`kktheory.run.config.build_spec`), the estimator
and the sketches whose size is a rule of their own (``nystrom_liu``: ⌈√(n·k)⌉, Yin et al.'s
"Nyström (Liu)"). A rule is rounded up (``ceil``, with 1e-9 of slack against round-off).
"""

from __future__ import annotations

import math
import re
from typing import Any

from omegaconf import ListConfig

from kktheory.errors import ConfigError


_RULE = re.compile(
    r"^\s*(?:(?P<c>\d+(?:\.\d*)?|\.\d+)\s*\*\s*)?(?P<rule>sqrt_nk|sqrt_n|n_over_gamma|log_n|k)\s*$"
)
M_ALLOWED = (
    "an integer in [1, n], a rule sqrt_n | c*sqrt_n | sqrt_nk | n_over_gamma | log_n | c*k, "
    "or a list of these"
)


def rule_value(expr: str, n: int, k: int, gamma: float | None) -> float | None:
    """Value of a rule expression (unrounded), or None if ``expr`` is not a rule."""
    match = _RULE.match(expr)
    if match is None:
        return None
    c = float(match["c"]) if match["c"] else 1.0
    rule = match["rule"]
    if rule == "n_over_gamma":
        if gamma is None:
            return None
        base = n / gamma
    else:
        base = {"sqrt_n": math.sqrt(n), "sqrt_nk": math.sqrt(n * k), "log_n": math.log(n), "k": float(k)}[rule]
    return c * base


def resolve_gamma(value: Any, n: int, k: int) -> float:
    """γ > 0 from a number or a rule."""
    if isinstance(value, bool):
        raise ConfigError("gamma", value, "a positive number or a rule such as sqrt_n")
    if isinstance(value, (int, float)):
        g = float(value)
    else:
        g = rule_value(str(value), n, k, None) if isinstance(value, str) else None
        if g is None:
            raise ConfigError("gamma", value, "a positive number or a rule sqrt_n | c*sqrt_n | sqrt_nk | log_n")
    if not (math.isfinite(g) and g > 0):
        raise ConfigError("gamma", value, "γ > 0")
    return g


def m_items(value: Any) -> list[Any]:
    """The m values of a scalar or list config value."""
    if isinstance(value, (ListConfig, list, tuple)):
        items = list(value)
        if not items:
            raise ConfigError("m", [], M_ALLOWED)
        return items
    return [value]


def resolve_m(value: Any, n: int, k: int, gamma: float) -> tuple[str, int]:
    """(rule as written, resolved m) for one m value; checks 1 ≤ m ≤ n."""
    if isinstance(value, bool) or isinstance(value, float) and not value.is_integer():
        raise ConfigError("m", value, M_ALLOWED)
    if isinstance(value, (int, float)):
        m = int(value)
    elif isinstance(value, str) and (v := rule_value(value, n, k, gamma)) is not None:
        m = math.ceil(v - 1e-9)
    else:
        raise ConfigError("m", value, M_ALLOWED)
    if not 1 <= m <= n:
        raise ConfigError("m", value, f"1 ≤ m ≤ n={n} (resolved m={m})")
    return str(value).replace(" ", ""), m
