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

Resolution. A count c of B draws beyond the boundary is read as the Monte-Carlo p-value's
(c + 1)/(B + 1) (:func:`add_one`; Davison & Hinkley 1997, "Bootstrap Methods and their
Application", §4.2.1): never 0 when no draw lies beyond, and a level whose tail even then
is too wide for the draws, 2·f(1, B + 1) ≥ 1 − L (B + 1 ≤ 2/(1 − L) for the plain
percentile), has no interval from them: (−∞, ∞), undecided, as an order-statistic interval
with too few runs. Without it, 2,000 draws at 99.94 % (a ninth sequential look) gave the
range of the draws, a 99.9 % interval printed as 99.94 %, and a p-value of 0. A caller that
can draw more asks :func:`draws_for` the B that puts :data:`MIN_TAIL_DRAWS` draws in the
tail at a level: 2,000 at 95 %, 36,000 at 99.94 %.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from scipy import special

#: a one-sided tail: (count of draws at or beyond the boundary, number of draws) → p-value
Tail = Callable[[np.ndarray | int, int], np.ndarray | float]


#: the draws a bootstrap's tail should hold at the level it is read at (:func:`draws_for`)
MIN_TAIL_DRAWS = 10
#: the draws of a bootstrap at 95 % (:func:`draws_for`)
BOOT = 2000


def draws_for(level: float) -> int:
    """The bootstrap draws B a plain percentile needs at ``level``: at least :data:`BOOT`, and
    enough that its tail holds :data:`MIN_TAIL_DRAWS` draws, B > 2·10/(1 − L)."""
    return max(BOOT, math.floor(2 * MIN_TAIL_DRAWS / (1 - level)) + 1)


def add_one(tail: Tail) -> Tail:
    """``tail`` read as a Monte-Carlo p-value: the count c of B draws as c + 1 of B + 1 (the
    boundary counted as one more draw beyond itself), so that no count gives 0."""
    def monte_carlo(count: np.ndarray | int, total: int) -> np.ndarray | float:
        return tail(np.add(count, 1), total + 1)

    return monte_carlo


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
    largest count below B/2 with 2·``tail``(K, B) < 1 − level; (−∞, ∞) when no count is below
    it, not even 0 (2·tail(0, B) ≥ 1 − level: the draws do not resolve the level; only an
    :func:`add_one` tail has a count 0 above 0)."""
    b, alpha = len(draws), 1 - level
    if not 2 * tail(0, b) < alpha:
        return -math.inf, math.inf
    k, top = 0, (b + 1) // 2 - 1  # k + 1 < b/2; the tail increases in the count: bisect for the last below
    while k < top:
        mid = (k + top + 1) // 2
        k, top = (mid, top) if 2 * tail(mid, b) < alpha else (k, mid - 1)
    return float(draws[k]), float(draws[b - 1 - k])
