"""Wang, Gittens & Mahoney (JMLR 2019): Fig. 2, Fig. 3, Figs. 4–5 and Table 2.

All use the rank-restricted Nyström method of their Alg. 2 (``sketch=nystrom_rr``):
sketch size c (the run's m), truncation ℓ (``sketch.ell``), target rank s (``sketch.s``
as configured, ``s`` resolved), sketching matrix P (``sketch.P``). NMI is the arithmetic
NMI of the training partition against the classes (``train_nmi``); the objective is the
kernel k-means cost of the returned partition divided by n (``objective``, f/n).

One module per entry, each declaring its checks before the data (``RULES``: the claim's
shape, the margin with its justification and source, the selections, the power design):
:mod:`kktheory.report.wang_fig2` (Fig. 2, Tables 5–6), :mod:`kktheory.report.wang_fig3`
(Fig. 3), :mod:`kktheory.report.wang_fig45` (Figs. 4–5), :mod:`kktheory.report.wang_table2`
(Thm 1, Table 2); shared columns and designs in :mod:`kktheory.report.wang_common`.
"""

from __future__ import annotations

from kktheory.report.wang_common import BETA_COL, FAIL_COL, P_COL, S_COL, S_RULE_COL
from kktheory.report.wang_fig2 import FIG2, TABLE5, TABLE6, TABLE6_C, judge_fig2, observe_fig2, setting_fig2
from kktheory.report.wang_fig3 import FIG3, KK, SC, judge_fig3, setting_fig3
from kktheory.report.wang_fig45 import (
    FIG4_5, NYS, RFM, TWO, TWO_STEP_NMI, judge_fig45, observe_fig45, setting_fig45,
)
from kktheory.report.wang_table2 import TABLE2, judge_table2, setting_table2

ENTRIES = [FIG2, FIG3, FIG4_5, TABLE2]

__all__ = [
    "BETA_COL", "ENTRIES", "FAIL_COL", "FIG2", "FIG3", "FIG4_5", "KK", "NYS", "P_COL", "RFM", "SC", "S_COL",
    "S_RULE_COL", "TABLE2", "TABLE5", "TABLE6", "TABLE6_C", "TWO", "TWO_STEP_NMI", "judge_fig2", "judge_fig3",
    "judge_fig45", "judge_table2", "observe_fig2", "observe_fig45", "setting_fig2", "setting_fig3", "setting_fig45",
    "setting_table2",
]
