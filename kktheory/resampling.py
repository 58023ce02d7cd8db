"""The percentile interval of resampled values, shared by the bootstrap fits
(:func:`kktheory.evaluation.bounds.theory.fit_rate`) and the decisions that judge them
(:meth:`kktheory.report.decide.Estimate.resampled`).

For B sorted draws d₍₁₎ ≤ … ≤ d₍B₎, a level L and a one-sided tail f(c) — the p-value when
c of the B draws lie at or beyond the boundary, increasing in c — the interval is
[d₍K₊₁₎, d₍B₋K₎] with K the largest count such that 2·f(K) < 1 − L: it lies above a boundary b
exactly when c = #{d ≤ b} ≤ K, i.e. when the p-value 2·f(#{d ≤ b}) is below 1 − L — the
interval and the p-value agree at every level, in floating point too, because both evaluate
the same f at the same integer count.

Two tails:

- the plain percentile, f(c) = c/B;
- Hesterberg's *expanded* percentile for a bootstrap of r independent units resampled as one
  sample, f(c) = T_{r−1}(Φ⁻¹(c/B)·√((r − 1)/r)) (T_{r−1} the Student-t distribution function):
  the percentile interval read at the level whose normal quantile is √(r/(r − 1))·t_{r−1}.
  The bootstrap's spread of a mean is √((r − 1)/r) times its standard error and the normal
  quantile is short of Student's t: at 10 units the plain 95 % interval of a mean of normal
  values is a t interval at 1.859 standard errors, one-sided error P(T₉ > 1.859) = 4.8 %
  where 2.5 % is declared; the expanded one is the t interval (Hesterberg 2015, "What
  teachers should know about the bootstrap", The American Statistician 69(4)).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from scipy import special

#: a one-sided tail: (count of draws at or beyond the boundary, number of draws) → p-value
Tail = Callable[[np.ndarray | int, int], np.ndarray | float]


def plain_tail(count: np.ndarray | int, total: int) -> np.ndarray | float:
    """The plain percentile bootstrap's one-sided p-value: the share c/B of the draws at or
    beyond the boundary."""
    return count / total


def expanded_tail(units: int) -> Tail:
    """The expanded percentile's one-sided p-value for a bootstrap of ``units`` = r independent
    units: c ↦ T_{r−1}(Φ⁻¹(c/B)·√((r − 1)/r)) (0 at c = 0: every draw on the claim's side)."""
    if units < 2:
        raise ValueError(f"an expanded percentile needs at least 2 units, got {units}")
    shrink = math.sqrt((units - 1) / units)

    def tail(count: np.ndarray | int, total: int) -> np.ndarray | float:
        return special.stdtr(units - 1, special.ndtri(np.divide(count, total)) * shrink)

    return tail


def percentile_interval(draws: np.ndarray, level: float, tail: Tail = plain_tail) -> tuple[float, float]:
    """[d₍K₊₁₎, d₍B₋K₎] of the sorted ``draws`` (0-based d[K], d[B−1−K]) at ``level``, K the
    largest count below B/2 with 2·``tail``(K, B) < 1 − level."""
    b, alpha = len(draws), 1 - level
    counts = np.arange(1, (b + 1) // 2)  # k + 1 < b/2
    k = int(np.sum(2 * tail(counts, b) < alpha))  # the tail increases in the count
    return float(draws[k]), float(draws[b - 1 - k])
