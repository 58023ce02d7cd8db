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
    """Fit of mean excess(n) = a·n^b over runs, with a studentised bootstrap interval for b."""

    slope: float  # b
    scale: float  # a
    se: float  # the weighted least squares standard error of b (Gauss–Newton, :func:`slope_se`)
    ci_low: float  # studentised bootstrap interval of b
    ci_high: float
    runs: int  # runs used (all of them)
    boot: int  # bootstrap fits that converged
    draws: tuple[float, ...] = ()  # the pseudo-draws b − t*·se, sorted (intervals at any level)
    chi2: float = math.nan  # the point fit's Σ((mean − a·n^b)/se)² over the n: lack of fit on (values of n) − 2 df
    levels: int = 0  # values of n fitted

    @property
    def misfit_p(self) -> float:
        """P(χ²_{L−2} ≥ chi2): small when the per-n means do not follow a·n^b within their
        standard errors (b is then the weighted slope over the grid, not a rate they follow)."""
        return float(stats.chi2.sf(self.chi2, self.levels - 2)) if self.levels > 2 else math.nan


#: the exponents b searched before refinement: a step of 0.05 over [−8, 4] (a fit whose least
#: squares lie at an end of it is a runaway exponent: no fit)
EXPONENTS = np.linspace(-8.0, 4.0, 241)
_GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0
_CHUNK = 4096  # curves per block of the batched search (memory: _CHUNK × |EXPONENTS| × |n|)


def _fit_power(n: np.ndarray, mean: np.ndarray, se: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weighted least squares of a·n^b on per-n means, every row of ``mean`` (B × L, with its
    standard errors ``se``, weights 1/se²) a curve: arrays (a, b), NaN where there is no fit.

    For a fixed b the best a is linear, a(b) = Σ w·m·x^b / Σ w·x^{2b} (x = n/min n, w = 1/se²),
    held to the sign of the mean at the smallest n (0 where it would cross it: a decay of what
    is observed there, as Levenberg–Marquardt from (m at the smallest n, −0.5) keeps it — on a
    noisy curve whose mean turns negative, a free sign fits a negative, rising power to the
    tail), so the least squares are a one-dimensional search over b of the residual sum
    F(b) = Σ w·(a(b)·x^b − m)² = Σ w m² − 2a Σ w m x^b + a² Σ w x^{2b}: the second form on
    :data:`EXPONENTS` (matrix products; where it cancels to noise, the first) picks the cell
    of its smallest value, then 45 golden-section steps in the two cells around it narrow b
    to 1e-10 (the step 0.05 shrinks by 0.618 per step) on the first form. The same minimum as
    ``curve_fit(model, x, mean, p0, sigma=se)`` from that start where the two agree on the
    basin (tests/test_bounds_theory.py; the judged curves of the committed rows to 6 digits),
    for every curve of a bootstrap at once. A minimum at an end of the grid (a runaway exponent
    on very noisy means) is b = −∞ or +∞ with a NaN: a bootstrap keeps it as the extreme draw
    it is (dropping it would narrow the interval), a point fit is none."""
    mean = np.atleast_2d(np.asarray(mean, float))
    lx = np.log(n / n.min())
    w = 1.0 / _floored(mean, se) ** 2
    a_out, b_out = np.full(len(mean), np.nan), np.full(len(mean), np.nan)
    step = EXPONENTS[1] - EXPONENTS[0]
    for lo in range(0, len(mean), _CHUNK):
        m, ww = mean[lo:lo + _CHUNK], w[lo:lo + _CHUNK]

        def residual(b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            """(a(b), F(b)) for b of shape (curves,) or (curves, G)."""
            shape = (len(m),) + (1,) * (b.ndim - 1) + (len(lx),)
            mm, wm = m.reshape(shape), ww.reshape(shape)
            with np.errstate(over="ignore", invalid="ignore"):
                xb = np.exp(b[..., None] * lx)
                a = (wm * mm * xb).sum(-1) / (wm * xb * xb).sum(-1)
                a = np.where(a * sign.reshape(shape[:-1]) < 0, 0.0, a)
                return a, (wm * (a[..., None] * xb - mm) ** 2).sum(-1)

        xg = np.exp(EXPONENTS[:, None] * lx)  # the grid's x^b, shared by every curve: sums as products
        sign = np.where(m[:, 0] < 0, -1.0, 1.0)  # a keeps the sign of the mean at the smallest n
        with np.errstate(over="ignore", invalid="ignore"):
            total = (ww * m * m).sum(-1)
            s1, s2 = (ww * m) @ xg.T, ww @ (xg * xg).T
            a = np.where(s1 * sign[:, None] < 0, 0.0, s1 / s2)
            f = total[:, None] - 2 * a * s1 + a * a * s2  # F, to pick a cell
            close = ~(np.nanmin(f, axis=1) > 1e-9 * total)  # cancelled to noise: F evaluated directly
            if close.any():
                f[close] = _direct(m[close], ww[close], xg, sign[close])
        best = np.argmin(np.where(np.isfinite(f), f, np.inf), axis=1)
        inside = (best > 0) & (best < len(EXPONENTS) - 1) & np.isfinite(f).all(axis=1)
        left, right = EXPONENTS[best] - step, EXPONENTS[best] + step
        c, d = right - _GOLDEN * (right - left), left + _GOLDEN * (right - left)
        fc, fd = residual(c)[1], residual(d)[1]
        for _ in range(45):  # golden section: the minimum stays in [left, right]
            lower = fc < fd  # in [left, d]: d becomes the right end, c the new d
            right, left = np.where(lower, d, right), np.where(lower, left, c)
            x = np.where(lower, right - _GOLDEN * (right - left), left + _GOLDEN * (right - left))
            fx = residual(x)[1]
            c, d, fc, fd = (np.where(lower, x, d), np.where(lower, c, x),
                            np.where(lower, fx, fd), np.where(lower, fc, fx))
        b = (left + right) / 2.0
        a = residual(b)[0]
        ok = inside & np.isfinite(a) & np.isfinite(b)
        runaway = ~inside & np.isfinite(f).all(axis=1)  # the least squares beyond an end of the grid
        a_out[lo:lo + _CHUNK] = np.where(ok, a, np.nan)
        b_out[lo:lo + _CHUNK] = np.where(ok, b, np.where(runaway, np.where(best == 0, -np.inf, np.inf), np.nan))
    with np.errstate(over="ignore", invalid="ignore"):
        a_out = a_out * float(n.min()) ** (-b_out)
    bad = ~np.isfinite(a_out)
    a_out[bad], b_out[bad & np.isfinite(b_out)] = np.nan, np.nan
    return a_out, b_out


def _floored(mean: np.ndarray, se: np.ndarray) -> np.ndarray:
    """Standard errors of per-n means (one curve per row) held at least 1e-12 of the curve's
    largest |mean| (a curve of NaN means: its floor 1e-12), so that every weight 1/se² is finite."""
    mean = np.atleast_2d(np.asarray(mean, float))
    with warnings.catch_warnings():  # a curve of NaN means: no fit, whatever its floor
        warnings.simplefilter("ignore", RuntimeWarning)
        scale = np.nanmax(np.abs(mean), axis=1, keepdims=True)
    return np.maximum(np.broadcast_to(np.asarray(se, float), mean.shape),
                      1e-12 * np.maximum(1e-300, np.nan_to_num(scale, nan=1.0)))


def _direct(m: np.ndarray, w: np.ndarray, xg: np.ndarray, sign: np.ndarray) -> np.ndarray:
    """F(b) = Σ w·(a(b)·x^b − m)² of each curve (rows of ``m``, ``w``; a of the curve's
    ``sign`` or 0) at each exponent of the grid (``xg``: x^b, one row per b), term by term."""
    a = ((w * m) @ xg.T) / (w @ (xg * xg).T)  # (curves, G)
    a = np.where(a * sign[:, None] < 0, 0.0, a)
    return (w[:, None, :] * (a[..., None] * xg[None] - m[:, None, :]) ** 2).sum(-1)


def _filled(se: np.ndarray) -> np.ndarray:
    """Standard errors (one curve per row) with the undefined or zero ones (a single run,
    equal runs) replaced by the median of the row's defined ones, zeros included (1 when
    none is defined)."""
    se = np.atleast_2d(se)
    good = np.isfinite(se)
    with warnings.catch_warnings():  # a row without a defined se: its median is NaN, filled with 1
        warnings.simplefilter("ignore", RuntimeWarning)
        median = np.where(good.any(axis=1, keepdims=True), np.nanmedian(np.where(good, se, np.nan), axis=1,
                                                                        keepdims=True), 1.0)
    return np.where(good & (se > 0), se, median)


def slope_se(n: np.ndarray, a: np.ndarray, b: np.ndarray, se: np.ndarray) -> np.ndarray:
    """The standard error of b in the weighted least squares fit a·n^b of per-n means with
    standard errors ``se`` (one curve per row of ``se``; ``a``, ``b`` one per curve), from the
    Gauss–Newton information at the fit: with x = n/min n, A = a·(min n)^b the model's
    coefficient on x^b, u = x^{2b}/se² and T_k = Σ u·(log x)^k, the information of (A, b) is
    [[T₀, A·T₁], [A·T₁, A²·T₂]] and var(b) = T₀ / (A²·(T₀T₂ − T₁²)) (Seber & Wild 1989,
    "Nonlinear Regression", §2.1: the inverse of JᵀWJ at known weights), its determinant
    summed as T₀T₂ − T₁² = Σ_{i<j} uᵢuⱼ(log xᵢ − log xⱼ)², free of cancellation when one weight
    dwarfs the others (a resample repeating one run: its se floored at 1e-12 of the means).
    ∞ where A = 0 (the scale held at 0 by the sign of the smallest n's mean: b is not
    identified) or where b is not finite."""
    n = np.asarray(n, float)
    a, b = np.asarray(a, float), np.asarray(b, float)
    lx = np.log(n / n.min())
    i, j = np.triu_indices(len(lx), 1)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        u = np.exp(2.0 * b[:, None] * lx) / np.atleast_2d(se) ** 2
        det = (u[:, i] * u[:, j] * (lx[i] - lx[j]) ** 2).sum(1)
        var = u.sum(1) / ((a * n.min() ** b) ** 2 * det)
    return np.where(np.isfinite(var) & (var > 0), np.sqrt(var), np.inf)


def fit_rate(n: np.ndarray, y: np.ndarray, boot: int = BOOT,
             rng: np.random.Generator | None = None, level: float = 0.95,
             seeds: np.ndarray | None = None) -> RateFit | None:
    """Decay of the mean of y in n, every run kept (negative values included).

    The per-n means (with their standard errors over runs) are fitted by weighted least
    squares with a·n^b; the interval for b is the studentised (bootstrap-t) interval from
    resampling the runs within each n (``boot`` resamples; Davison & Hinkley 1997, "Bootstrap
    Methods and their Application", §5.2.1): each resample's fit b* with its own standard
    error se* (:func:`slope_se`, on the resample's means and standard errors) gives the pivot
    t* = (b* − b̂)/se*, and the kept draws are the pseudo-slopes b̂ − t*·se(b̂), sorted, so that
    their percentile interval at any level L is the bootstrap-t interval
    [b̂ − t*₍₁₋α/2₎·se(b̂), b̂ − t*₍α/2₎·se(b̂)] and the share of them beyond a boundary its
    p-value. A resample whose se* is not finite (its scale held at 0, or a runaway exponent
    b* = ±∞) has the pivot ±∞ on the side of b* − b̂: kept as the extreme it is. Why not the
    percentile interval of the b* themselves: at 5–10 runs per n over six n it errs one-sidedly
    1.8× its nominal rate at 99.17 % and 2.6–2.9× from 99.58 % on (the tails of b* are too
    short where the per-n standard errors are estimated from a handful of runs; the pivot
    carries that estimation). With ``seeds`` (each run's seed), where every seed given ran every
    n exactly once (and at least :data:`MIN_SEEDS` seeds did), a resample draws whole seeds, each with its runs at
    every n (the seed is the unit: a seed's runs across n may share its streams, so they are not
    independent draws); else — one seed short of an n is enough — the runs within each n (the
    catalogue's checks pass only seeds that ran every n: ``covering``). Order-free: the runs are sorted by (n, y), the
    seeds by label, before the fixed stream resamples them, so the same runs in another order give the same
    interval. None with fewer than 3 values of n; ``boot`` 0: the point fit alone (its se, no
    interval).
    """
    n = np.asarray(n, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    keep = np.isfinite(n) & np.isfinite(y)
    n, y = n[keep], y[keep]
    levels = np.unique(n)
    if len(levels) < 3:
        return None
    table = None if seeds is None else _seed_table(np.asarray(seeds)[keep], n, y, levels)
    order = np.lexsort((y, n))
    n, y = n[order], y[order]
    groups = [y[n == v] for v in levels] if table is None else list(table.T)

    def fit(resampled: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(a, b, se of b, χ² of the fit) of each curve: resampled[j] holds the runs at levels[j], one curve per row."""
        means = np.stack([r.mean(axis=1) for r in resampled], axis=1)
        ses = _floored(means, _filled(np.stack([r.std(axis=1, ddof=1) / np.sqrt(r.shape[1]) if r.shape[1] > 1
                                                else np.full(len(r), np.nan) for r in resampled], axis=1)))
        a, b = _fit_power(levels, means, ses)
        with np.errstate(over="ignore", invalid="ignore"):
            chi2 = (((means - a[:, None] * levels ** b[:, None]) / ses) ** 2).sum(axis=1)
        return a, b, slope_se(levels, np.nan_to_num(a), np.where(np.isfinite(b), b, 0.0), ses), chi2

    a0, b0, se0, chi0 = fit([g[None, :] for g in groups])
    if not (np.isfinite(b0[0]) and np.isfinite(a0[0])):
        return None
    point, se_hat = float(b0[0]), float(se0[0])
    lack = {"chi2": float(chi0[0]), "levels": len(levels)}
    if boot == 0:  # the point fit alone
        return RateFit(point, float(a0[0]), se_hat, math.nan, math.nan, int(len(y)), 0, **lack)
    rng = rng if rng is not None else component_rng(0, "rate-fit-bootstrap")
    if table is None:  # the runs within each n
        draws = [[rng.integers(len(g), size=len(g)) for g in groups] for _ in range(boot)]
        resampled = [g[np.stack([d[j] for d in draws])] for j, g in enumerate(groups)]  # each boot × |group|
    else:  # whole seeds: one draw of seeds for every n
        picks = rng.integers(len(table), size=(boot, len(table)))
        resampled = [table[picks, j] for j in range(len(levels))]
    _, b, se, _ = fit(resampled)
    kept = ~np.isnan(b)  # a runaway draw (±∞) is kept: its pivot is the extreme it is
    if kept.sum() < boot // 2 or not math.isfinite(se_hat):
        return None
    b, se = b[kept], se[kept]
    with np.errstate(invalid="ignore"):
        pivot = np.where(np.isfinite(se) & np.isfinite(b), (b - point) / se,
                         np.where(b == point, 0.0, np.sign(b - point) * np.inf))
    pseudo = np.sort(point - pivot * se_hat)
    lo, hi = percentile_interval(pseudo, level)
    return RateFit(point, float(a0[0]), se_hat, float(lo), float(hi), int(len(y)), int(len(pseudo)),
                   tuple(map(float, pseudo)), **lack)


#: the fewest seeds resampled whole (:func:`fit_rate`): below it a resample repeats one seed too often (of 2
#: seeds, half the resamples hold one seed twice, with no spread at any n, and their pivots are ±∞)
MIN_SEEDS = 5


def _seed_table(seeds: np.ndarray, n: np.ndarray, y: np.ndarray, levels: np.ndarray) -> np.ndarray | None:
    """Seeds × levels of y, the seeds in order (whatever the rows' order), where at least
    :data:`MIN_SEEDS` seeds each have exactly one run at every level; else None (the runs are
    then resampled within each n)."""
    ids, row = np.unique(seeds, return_inverse=True)
    col = np.searchsorted(levels, n)
    if len(y) != len(ids) * len(levels) or len(ids) < MIN_SEEDS:
        return None
    table = np.full((len(ids), len(levels)), np.nan)
    table[row, col] = y
    return None if np.isnan(table).any() else table


def shape_slope(shape: np.ndarray, n: np.ndarray) -> float:
    """The log–log slope of a rate shape over the values n (OLS of log shape on log n):
    the slope the theorem predicts over the observed range (log factors included)."""
    return float(stats.linregress(np.log(n), np.log(shape)).slope)
