"""The papers' bounds as formulas, their rate shapes, and log–log slope fits.

Required sketch sizes (δ the failure probability, ε the target accuracy):

- Calandriello & Rosasco, Lemma 1 (uniform sampling): m ≥ 12 κ² (n/γ) log(n/δ) / ε²;
- Calandriello & Rosasco, Lemma 3 (ridge-leverage-score sampling):
  m ≥ 12 κ² d_eff(γ) log(n/δ) / ε²;
  κ² = sup_x κ(x, x) (1 for the Gaussian kernel; the engine uses max_i K_ii);
- Yin et al., Lemma 5 / Thm 2: m = Ω((4 log n − 2 log δ) / (ε − log(1+ε))); the bound is
  used with constant 1, and :func:`yin_implied_eps` inverts it for a given m.

Empirical-gap bounds:

- Calandriello Lemma 2: W(C_{n,m}, μ_n) − W(C_n, μ_n) ≤ min(k, d_eff(γ))/(1−ε) · γ/n;
- Yin Lemma 6: W(C̃_{n,m}, μ_n) − W(C_n, μ_n) ≤ 2ε/(1−ε) as printed. Its proof shows
  W(C̃) ≤ (1+ε)/(1−ε)·W(C_n), i.e. gap ≤ 2ε/(1−ε)·W(C_n), and then uses W(C_n) ≤ 1,
  which holds in an RKHS with κ ≤ 1 but not for the kernel-column objective the lemma is
  about (‖k_i‖² can reach n). :func:`yin_lemma6_bound` is the printed form;
  multiply by W(C_n) for the form the proof supports. Both are void for ε ≥ 1 (+inf).
- Wang Thm 2: f(Ĵ) ≤ γ_alg (1 + ε + k/s) min f, ε from Thm 1 (trace_ratio ≤ 1 + ε);
- Pourkamali Thm 1: L(Ĉ) − L(C*) ≤ 2‖E‖_*, E = K − K̂, with unnormalised L = n·objective;
  when E ⪰ 0 the proof gives ≤ tr(E) (the paper states this for the best rank-r K̂; the
  argument — L(Ĉ) − L̂(Ĉ) = tr(P E P) ≤ tr E and L̂(C*) − L(C*) ≤ 0 for the projection
  P = I − CᵀC — only uses E ⪰ 0).

Rate shapes of the excess risk (constants unknown, compare slopes):

- Calandriello Thm 1: k/√n + kγ/n;
- Yin Thm 2: √(k/n)·log²(√n).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
from scipy import optimize, stats

from kktheory.resampling import BOOT, percentile_interval
from kktheory.seeding import component_rng


def lemma1_required_m(n: int, gamma: float, delta: float, eps: float, kappa2: float = 1.0) -> float:
    """Calandriello Lemma 1: 12 κ² (n/γ) log(n/δ) / ε² uniformly sampled landmarks."""
    return 12.0 * kappa2 * (n / gamma) * math.log(n / delta) / eps**2


def lemma3_required_m(n: int, deff: float, delta: float, eps: float, kappa2: float = 1.0) -> float:
    """Calandriello Lemma 3: 12 κ² d_eff(γ) log(n/δ) / ε² RLS-sampled landmarks."""
    return 12.0 * kappa2 * deff * math.log(n / delta) / eps**2


def lemma2_bound(k: int, deff: float, eps: float, gamma: float, n: int) -> float:
    """Calandriello Lemma 2: min(k, d_eff)/(1−ε) · γ/n (normalised risk W = (1/n)Σ)."""
    return min(k, deff) / (1.0 - eps) * gamma / n


def yin_required_m(n: int, delta: float, eps: float) -> float:
    """Yin Lemma 5: (4 log n − 2 log δ) / (ε − log(1+ε))."""
    return (4.0 * math.log(n) - 2.0 * math.log(delta)) / (eps - math.log1p(eps))


def yin_implied_eps(n: int, delta: float, m: float) -> float:
    """The ε > 0 with yin_required_m(n, δ, ε) = m (ε − log(1+ε) is increasing on ε > 0)."""
    c = (4.0 * math.log(n) - 2.0 * math.log(delta)) / m
    # g(ε) = ε − log(1+ε) − c: g(0) = −c < 0 and g(2c + 2) ≥ c + 2 − log(2c + 3) > 0
    return float(optimize.brentq(lambda e: e - math.log1p(e) - c, 0.0, 2.0 * c + 2.0, xtol=1e-14, rtol=1e-12))


def yin_lemma6_bound(eps: float) -> float:
    """Yin Lemma 6 as printed: 2ε/(1−ε); +inf (no guarantee) for ε ≥ 1."""
    return 2.0 * eps / (1.0 - eps) if eps < 1.0 else math.inf


def wang_thm2_bound(eps: float, k: int, s: int) -> float:
    """Wang Thm 2 approximation ratio 1 + ε + k/s (for a 1-approximate clusterer)."""
    return 1.0 + eps + k / s


#: the sketching matrices of Wang et al. Table 2 (names as ``sketch.P`` of ``nystrom_rr``)
TABLE2_SKETCHES = ("uniform", "leverage", "gaussian", "srht", "countsketch")


def wang_table2_c(P: str, s: int, n: int, eps: float, coherence: float = math.nan) -> float:
    """Wang et al. (2019) Table 2: the sketch size c sufficient for Thm 1's
    ‖K − (CW⁺Cᵀ)_s‖_* ≤ (1 + ε)‖K − K_s‖_* (probability ≥ 0.9), every O(·) constant read as 1:

    uniform sampling  μs/ε + μs·ln s   (μ: row coherence of V_s, :func:`top_coherence`)
    leverage sampling s/ε + s·ln s
    Gaussian          s/ε
    SRHT              (s + ln n)(1/ε + ln s)
    CountSketch       s/ε + s²
    """
    rules = {
        "uniform": coherence * s / eps + coherence * s * math.log(s),
        "leverage": s / eps + s * math.log(s),
        "gaussian": s / eps,
        "srht": (s + math.log(n)) * (1 / eps + math.log(s)),
        "countsketch": s / eps + s**2,
    }
    if P not in rules:
        raise ValueError(f"P must be one of {TABLE2_SKETCHES}, got {P!r}")
    return rules[P]


def pourkamali_bound(nuclear_err: float) -> float:
    """Pourkamali Thm 1: 2‖K − K̂‖_* on the unnormalised objective."""
    return 2.0 * nuclear_err


def calandriello_thm1_shape(n: np.ndarray | float, k: int, gamma: np.ndarray | float) -> np.ndarray:
    """Shape k/√n + kγ/n of Calandriello Thm 1's excess-risk bound."""
    n = np.asarray(n, dtype=np.float64)
    return k / np.sqrt(n) + k * np.asarray(gamma, dtype=np.float64) / n


def yin_thm2_shape(n: np.ndarray | float, k: int) -> np.ndarray:
    """Shape √(k/n)·log²(√n) of Yin Thm 2's excess-risk bound."""
    n = np.asarray(n, dtype=np.float64)
    return np.sqrt(k / n) * np.log(np.sqrt(n)) ** 2


@dataclass(frozen=True)
class SlopeFit:
    """OLS fit log y = intercept + slope·log x with a t-interval for the slope."""

    slope: float
    intercept: float
    stderr: float
    ci_low: float
    ci_high: float
    level: float
    n_points: int

    def contains(self, value: float) -> bool:
        """Whether ``value`` lies in the confidence interval of the slope."""
        return self.ci_low <= value <= self.ci_high


def fit_loglog_slope(x: np.ndarray, y: np.ndarray, level: float = 0.95) -> SlopeFit:
    """Slope of log y on log x by ordinary least squares, CI from Student's t (n−2 dof).

    Every point is used (replicates at the same x included). Needs ≥ 3 points with x, y > 0
    for an interval; with 2 points the interval is (−inf, inf).
    """
    x = np.asarray(x, dtype=np.float64).ravel()
    y = np.asarray(y, dtype=np.float64).ravel()
    if x.shape != y.shape or x.size < 2:
        raise ValueError(f"fit_loglog_slope needs ≥ 2 paired points (got {x.size} x, {y.size} y)")
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y)) and np.all(x > 0) and np.all(y > 0)):
        raise ValueError("fit_loglog_slope needs finite positive x and y (log–log axes)")
    if np.ptp(x) == 0:
        raise ValueError("fit_loglog_slope needs at least two distinct x values")
    lx, ly = np.log(x), np.log(y)
    res = stats.linregress(lx, ly)
    dof = x.size - 2
    if dof < 1:
        return SlopeFit(float(res.slope), float(res.intercept), math.inf, -math.inf, math.inf, level, x.size)
    half = float(stats.t.ppf(0.5 + level / 2.0, dof)) * float(res.stderr)
    return SlopeFit(
        float(res.slope), float(res.intercept), float(res.stderr),
        float(res.slope) - half, float(res.slope) + half, level, x.size,
    )


@dataclass(frozen=True)
class RateFit:
    """Fit of mean excess(n) = a·n^b over runs, with a bootstrap interval for b."""

    slope: float  # b
    scale: float  # a
    se: float  # bootstrap standard deviation of b
    ci_low: float  # bootstrap percentile interval of b
    ci_high: float
    runs: int  # runs used (all of them)
    boot: int  # bootstrap fits that converged
    draws: tuple[float, ...] = ()  # the converged bootstrap slopes, sorted (intervals at any level)


def _fit_power(n: np.ndarray, mean: np.ndarray, se: np.ndarray) -> tuple[float, float] | None:
    """Weighted least squares of a·n^b on per-n means (weights 1/se²); None on failure.

    Levenberg–Marquardt (MINPACK's lmdif through :func:`scipy.optimize.leastsq`) on the
    residuals (a·x^b − mean)/se, x = n/min n, from (mean at the smallest n, −0.5): the
    iterations of ``curve_fit(model, x, mean, p0, sigma=se)`` without its per-call
    checks and covariance, which the 400 bootstrap fits of :func:`fit_rate` do not use."""
    x = n / n.min()  # a is the excess at the smallest n: well scaled
    w = 1.0 / np.maximum(se, 1e-12 * max(1e-300, float(np.abs(mean).max())))
    scale = 1.0 / (1.0 / w)  # curve_fit's 1/sigma with sigma = 1/w, to the last bit

    def residuals(p: np.ndarray) -> np.ndarray:
        return scale * (p[0] * x ** p[1] - mean)

    p0 = np.array([mean[0] if mean[0] != 0 else 1e-3, -0.5])
    with warnings.catch_warnings():  # a fit that does not converge is reported by ier: no fit
        warnings.simplefilter("ignore", RuntimeWarning)
        p, ier = optimize.leastsq(residuals, p0, maxfev=20000)
    if ier not in (1, 2, 3, 4) or not np.all(np.isfinite(p)):
        return None
    a, b = float(p[0]), float(p[1])
    try:
        return a * float(n.min()) ** (-b), b
    except OverflowError:  # a runaway exponent on very noisy means: no fit, as for a failed one
        return None


def _filled(se: np.ndarray) -> np.ndarray:
    """Standard errors with the undefined or zero ones (a single run, equal runs) replaced
    by the median of all the defined ones, zeros included (1 when none is defined)."""
    return np.where(np.isfinite(se) & (se > 0), se, np.nanmedian(se) if np.isfinite(se).any() else 1.0)


def fit_rate(n: np.ndarray, y: np.ndarray, boot: int = BOOT,
             rng: np.random.Generator | None = None, level: float = 0.95) -> RateFit | None:
    """Decay of the mean of y in n, every run kept (negative values included).

    The per-n means (with their standard errors over runs) are fitted by weighted least
    squares with a·n^b; the interval for b is the bootstrap percentile interval from
    resampling the runs within each n (``boot`` resamples; the draws are kept, sorted, so
    that an interval at another level is read from them). Order-free: the runs are sorted
    by (n, y) before the fixed stream resamples them, so the same runs in another order give
    the same interval. None with fewer than 3 values of n.
    """
    n = np.asarray(n, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    keep = np.isfinite(n) & np.isfinite(y)
    n, y = n[keep], y[keep]
    order = np.lexsort((y, n))
    n, y = n[order], y[order]
    levels = np.unique(n)
    if len(levels) < 3:
        return None
    groups = [y[n == v] for v in levels]

    def fit(gs: list[np.ndarray]) -> tuple[float, float] | None:
        mean = np.array([g.mean() for g in gs])
        se = np.array([g.std(ddof=1) / np.sqrt(len(g)) if len(g) > 1 else np.nan for g in gs])
        return _fit_power(levels, mean, _filled(se))

    point = fit(groups)
    if point is None:
        return None
    rng = rng if rng is not None else component_rng(0, "rate-fit-bootstrap")
    draws = [[rng.integers(len(g), size=len(g)) for g in groups] for _ in range(boot)]
    resampled = [g[np.stack([d[j] for d in draws])] for j, g in enumerate(groups)]  # boot × |group|
    means = np.stack([r.mean(axis=1) for r in resampled], axis=1)
    ses = np.stack([r.std(axis=1, ddof=1) / np.sqrt(r.shape[1]) if r.shape[1] > 1 else np.full(boot, np.nan)
                    for r in resampled], axis=1)
    fits = (_fit_power(levels, mean, _filled(se)) for mean, se in zip(means, ses))
    b = np.asarray([f[1] for f in fits if f is not None])
    if len(b) < boot // 2:
        return None
    b = np.sort(b)
    lo, hi = percentile_interval(b, level)
    return RateFit(point[1], point[0], float(b.std(ddof=1)), float(lo), float(hi), int(len(y)), int(len(b)),
                   tuple(map(float, b)))


def shape_slope(shape: np.ndarray, n: np.ndarray) -> float:
    """The log–log slope of a rate shape over the values n (OLS of log shape on log n):
    the slope the theorem predicts over the observed range (log factors included)."""
    return float(stats.linregress(np.log(n), np.log(shape)).slope)
