"""What the Wang, Gittens & Mahoney entries share (:mod:`kktheory.report.wang`).

Column names of the rank-restricted Nyström rows, the NMI runs of a cell, the paper's NMI
spread, and the log ratio of two samples' standard deviations with its exact interval.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from kktheory.report.decide import Estimate

S_RULE_COL = "sketch.s"  # target rank of nystrom_rr as configured: integer or k | sqrt_kc | half_c | c
S_COL = "s"  # the resolved target rank (the sketch's info column)
P_COL = "sketch.P"  # sketching matrix of nystrom_rr
BETA_COL = "kernel.beta"  # Wang eq. (5) bandwidth factor
FAIL_COL = "spectral_failed"  # spectral_nystrom: True when a degree was ≤ 0 (the trial is discarded)

#: the per-run NMI standard deviation Wang et al. state for MNIST8M (Tables 4–6: 0.0001 to 0.0131,
#: typically ≈ 0.01); the largest of them is the planning spread where a figure prints none
PAPER_NMI_SD = 0.0131


def nmi_runs(d: pd.DataFrame) -> np.ndarray:
    """The finite NMI values of the runs of ``d``."""
    return d["train_nmi"].dropna().to_numpy(float)


def log_sd_ratio(a: np.ndarray, b: np.ndarray) -> Estimate:
    """log(sd(a)/sd(b)) of two independent normal samples with its exact F interval at any
    level (:meth:`Estimate.f_ratio`: half the log of the variance ratio's F interval,
    [log(sₐ/s_b) − ½·log F_{1−α/2}(rₐ−1, r_b−1), log(sₐ/s_b) − ½·log F_{α/2}(rₐ−1, r_b−1)]);
    ``runs`` is the smaller sample."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    a, b = a[np.isfinite(a)], b[np.isfinite(b)]
    r = min(len(a), len(b))
    if len(a) < 2 or len(b) < 2:
        return Estimate(math.nan, math.nan, math.nan, r, math.nan)
    sa, sb = float(a.std(ddof=1)), float(b.std(ddof=1))
    if sa <= 0 or sb <= 0:
        return Estimate(math.nan, math.nan, math.nan, r, math.nan)
    return Estimate.f_ratio(math.log(sa / sb), len(a) - 1, len(b) - 1, r)
