"""Empirical checks of the papers' lemmas and theorems, and the theory curves.

- :mod:`~kktheory.evaluation.bounds.gamma` — γ-preservation (Calandriello Def. 2) and d_eff (Def. 3);
- :mod:`~kktheory.evaluation.bounds.trace` — trace-norm errors (Wang Thm 1, Pourkamali Thm 1);
- :mod:`~kktheory.evaluation.bounds.jl` — pairwise distortion (Yin Lemma 5) and the kernel-column
  objective (Yin Lemma 6);
- :mod:`~kktheory.evaluation.bounds.theory` — required m, gap bounds, rate shapes, slope fits;
- :mod:`~kktheory.evaluation.bounds.engine` — the per-run glue that writes the bound columns;
- :mod:`~kktheory.evaluation.bounds.spec` — the ``bounds`` / ``bound_*`` config fields.

Their eigenvalue and trace estimates, exact and randomized with a stated error, are
:mod:`kktheory.kernels.spectrum`'s.

The array-level functions take matrices, not sketch objects, so each can be checked on
its own against a dense recomputation; they are exported here. The engine, which runs the
clustering of the checks and so needs the run's machinery, is imported from its module
(``kktheory.evaluation.bounds.engine``), so that reading the formulas (the reports do) does not load it.
"""

from kktheory.evaluation.bounds.gamma import EIG_CUTOFF, GammaPreservation, effective_dimension, gamma_preservation, residual_matrix
from kktheory.evaluation.bounds.jl import PairRatios, jl_distortion, kernel_columns_objective, pair_ratios, projection_ratios
from kktheory.evaluation.bounds.spec import BOUND_NAMES, BoundsSpec, build_bounds_spec
from kktheory.evaluation.bounds.theory import (
    SlopeFit, calandriello_thm1_shape, fit_loglog_slope, lemma1_required_m, lemma2_bound,
    lemma3_required_m, pourkamali_bound, wang_thm2_bound, yin_implied_eps, yin_lemma6_bound,
    yin_required_m, yin_thm2_shape,
)
from kktheory.evaluation.bounds.trace import (
    TraceNorms, approximation_error_dense, approximation_error_psd, trace_norms_dense, trace_norms_psd,
)

__all__ = [
    "BOUND_NAMES", "EIG_CUTOFF", "BoundsSpec", "GammaPreservation",
    "PairRatios", "SlopeFit", "TraceNorms", "approximation_error_dense", "approximation_error_psd",
    "build_bounds_spec", "calandriello_thm1_shape", "effective_dimension", "fit_loglog_slope",
    "gamma_preservation", "jl_distortion", "kernel_columns_objective", "lemma1_required_m",
    "lemma2_bound", "lemma3_required_m", "pair_ratios", "pourkamali_bound", "projection_ratios",
    "residual_matrix", "trace_norms_dense", "trace_norms_psd", "wang_thm2_bound",
    "yin_implied_eps", "yin_lemma6_bound", "yin_required_m", "yin_thm2_shape",
]
