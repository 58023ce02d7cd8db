"""What the Wang, Gittens & Mahoney entries share (:mod:`kktheory.report.wang`).

Column names of the rank-restricted Nyström rows, the NMI runs of a cell and the paper's NMI
spread.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


S_RULE_COL = "sketch.s"  # target rank of nystrom_rr as configured: integer or k | sqrt_kc | half_c | c
S_COL = "s"  # the resolved target rank (the sketch's info column)
P_COL = "sketch.P"  # sketching matrix of nystrom_rr
BETA_COL = "kernel.beta"  # Wang eq. (5) bandwidth factor
FAIL_COL = "spectral_failed"  # spectral_nystrom: True when a degree was ≤ 0 (the trial is discarded)

#: the per-run NMI standard deviation Wang et al. state for MNIST8M (Tables 4–6: 0.0001 to 0.0131,
#: typically ≈ 0.01); the largest of them is the planning spread where a figure prints none
PAPER_NMI_SD = 0.0131

#: Wang et al. Fig. 4 captions: median NMI of the two-step method at c = 3k, 9k, 27k, 81k — the one
#: number the paper prints for these data sets' regime (wang_fig4_5 compares it; wang_fig3 cites it)
TWO_STEP_NMI = {"mnist": (0.072, 0.012, 0.017, 0.032), "mushrooms": (0.123, 0.224, 0.263, 0.494),
                "pendigits": (0.399, 0.413, 0.422, 0.421)}


def two_step_range(dataset: str) -> str:
    """The range of two-step's median NMI over c in Fig. 4's caption for ``dataset`` ("lo–hi")."""
    return f"{min(TWO_STEP_NMI[dataset]):g}–{max(TWO_STEP_NMI[dataset]):g}"


def nmi_runs(d: pd.DataFrame) -> np.ndarray:
    """The finite NMI values of the runs of ``d``."""
    return d["train_nmi"].dropna().to_numpy(float)
