"""The percentile interval of resampled values, shared by the bootstrap fits
(:func:`kktheory.evaluation.bounds.theory.fit_rate`) and the decisions that judge them
(:meth:`kktheory.report.decide.Estimate.resampled`).

For B sorted draws d₍₁₎ ≤ … ≤ d₍B₎ and a level L, the interval is [d₍K₊₁₎, d₍B₋K₎] with K the
largest count such that 2K/B < 1 − L: it lies above a boundary b exactly when fewer than
B(1 − L)/2 draws are at or below b, i.e. when the bootstrap p-value 2·#{d ≤ b}/B is below
1 − L — the interval and the p-value agree at every level, in floating point too.
"""

from __future__ import annotations

import numpy as np


def percentile_interval(draws: np.ndarray, level: float) -> tuple[float, float]:
    """[d₍K₊₁₎, d₍B₋K₎] of the sorted ``draws`` (0-based d[K], d[B−1−K]) at ``level``."""
    b, alpha = len(draws), 1 - level
    k = 0
    while k + 1 < b / 2 and 2 * float(k + 1) / b < alpha:
        k += 1
    return float(draws[k]), float(draws[b - 1 - k])
