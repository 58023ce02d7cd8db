"""Decisions over runs: a claim tested with a confidence interval against a stated margin.

A check of a paper's claim is a statement about a quantity estimated over independent
units — the seeds: a mean, a paired or Welch difference, a share of seeds, a median, a
bootstrap statistic — compared with a boundary that the paper justifies (its claimed
effect, the precision of its own table). Cells that share a seed (its data draw, its
landmarks) are not independent: they are summarised per seed first (paired differences,
per-seed means, per-seed shares) and the interval is over seeds.

Each test is a confidence interval at the level it is used — ``LEVEL`` = 95 % for the
fixed design, a stricter level at a later look of a sequential decision — computed at that
level for every kind of estimate (:meth:`Estimate.interval`), printed with that level, and
exactly dual to the p-values the decision uses (:meth:`Estimate.tail`):

- ``at_least(est, b)`` — the claim "value ≥ b": **pass** when the whole interval lies
  above b, **fail** when it lies below, **inconclusive** when it contains b;
- ``at_most(est, b)`` — the mirror image;
- ``exceeds(est, δ)`` — a rise or a win: **pass** when the interval lies above 0, **fail**
  when it lies below δ, the smallest effect that counts (so a null effect is decided, not
  left undecidable as a margin of 0 would leave it); ``sign=−1`` for a fall. A pass shows
  that the effect is positive, *not* that it reaches δ (the claim reads "> 0, fails below
  δ"; INDEX prints, beside the power at δ, how often a true δ/2 passes);
- ``within(est, lo, hi)`` — equivalence (two one-sided tests): **pass** when the interval
  lies inside [lo, hi], **fail** when it does not meet [lo, hi], **inconclusive** otherwise.
  A plateau or "stable" claim is this two-sided test on the change beyond the point.

Every decision carries the p-values of both directions on the interval's two-sided scale
(twice a one-sided tail): Student t; the exact binomial tail for a share (dual to
Clopper–Pearson); the sign test for a median (dual to its order-statistic interval); the
share of resampled values beyond the boundary for a bootstrap (dual to the percentile
interval read from the same draws, plain or expanded); the F tail for a log ratio of standard
deviations; the Hoeffding–Bentkus tails for a mean of values in a known range (its interval the
boundaries neither tail rejects, to the float). A
check passes when its pass p-value is below 1 − level, which happens exactly when the
interval at that level clears the boundary — the form that Holm's step-down correction
over an entry's checks (:func:`holm`; the family rule is in :mod:`kktheory.report.verdicts`)
and the alpha-spending levels of a sequential decision (:func:`look_level`,
:mod:`kktheory.report.sequential`) need. ``tests/test_report_decide.py`` asserts the
agreement for every kind at 95 %, 97.5 % and a late look's level.

There is no escape clause: a difference "within 2 standard errors of 0" is not evidence
of no difference, it is an undecided test; runs that all agree give no interval (a zero
spread over a handful of runs is not certainty), and a median from too few runs for an
order-statistic pair at the level has none. An undecided check says how many runs would
decide it (:func:`runs_needed`): the smallest number r of runs per arm (every arm of the
check growing to r) at which the test decides with probability 80 % if the value and
per-run spread are what is observed now — toward a pass when the estimate lies on the
claim's side, toward a failure when it points against the claim — at the level those runs
would be judged at: the first look of the doubling schedule whose runs reach 80 % power at
its own level (:func:`scheduled`; runs added after the fixed 95 % judgement are look 2's, at
99.17 %, twice as many look 3's, at 99.58 %, …), with the run counts the scheduler produces:
the runs of a sweep the looks extend double, those a check pools from a sweep no look extends
stay (:func:`next_size`). Every plan goes through :func:`scheduled`: an estimate's, a design's
before any row (:func:`kktheory.report.cost.design_plan`), a failure Holm's correction set
aside (at Holm's threshold of each look, :class:`Schedule`), a share of cells (each cell at
its level of each look).

Estimates (:class:`Estimate`): the mean of one sample (:meth:`Estimate.mean_of`), a
difference of two independent samples with Welch's standard error and degrees of
freedom (:meth:`Estimate.difference`), a paired difference (:meth:`Estimate.paired`),
a share of independent units (:meth:`Estimate.proportion`), the median of one sample
(:meth:`Estimate.median_of`, for timings), a bootstrap statistic with its draws
(:meth:`Estimate.resampled`: the plain percentile, or the expanded one for a bootstrap over
few seeds), a log ratio of means (:meth:`Estimate.ratio_of_means`) or of spreads
(:meth:`Estimate.scale_ratio`, robust to the runs' tails), the mean of values
in a known range (:meth:`Estimate.bounded_mean`, valid whatever their distribution),
the mean of independent estimates (:meth:`Estimate.average`), or a number with a known
standard error (:meth:`Estimate.known`, e.g. a randomized estimate's ``*_se``, normal
quantile).

Not corrected: the t interval of a mean assumes the mean of the runs is near normal. With
a handful of runs of a strongly skewed quantity it is not, and the one-sided error on the
short tail's side exceeds its nominal 2.5 % (for a per-run value 1 − Exp, skewness −2:
11 % at 5 runs, 9.6 % at 10, 7.6 % at 20, 6.0 % at 40, simulated); a skewness-corrected t
(Hall 1992) lowers these to 8.3 %, 6.0 %, 4.2 %, 3.3 % and is not used. Where the values have a
known range, :meth:`Estimate.bounded_mean` is valid whatever their shape, at a price no valid
test escapes: near an end of the range a pass needs many runs — "mean ≥ b" for values in [0, 1]
needs b^r < 0.025 even when every run is 1 (the two-point law on {0, 1} with mean b makes r
ones that likely): 23 runs at b = 0.85, 35 at 0.9, 72 at 0.95. It judges shares of a seed's
trials (wang_fig3's failed SC trials, a bound near 0 with 40 clusters), not accuracies near 1
at 5–40 runs, which would all stay undecided (tests/test_report_decide.py simulates both).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, partial

import numpy as np
from scipy import special, stats

from kktheory.resampling import Tail, add_one, expanded_tail, percentile_interval, plain_tail

LEVEL = 0.95
POWER = 0.8  # the power at which "runs needed" is reported (and a declared design must reach)
PASS, FAIL, INCONCLUSIVE = "pass", "fail", "inconclusive"
MAX_RUNS = 100_000  # runs_needed reports "more than this" beyond it
#: the fewest units (seeds) an expanded-percentile bootstrap decides from: for the mean of normal
#: units it errs one-sidedly 4.3 % at 5 units and 3.4 % at 8 where 2.5 % is declared (the plain
#: percentile 8.3 % and 6.3 %), 2.6 % at 10 and 20 (4,000 draws each); its size is simulated at
#: 10 and 20 (tests/test_seed_unit.py)
MIN_UNITS = 10

#: how an estimate's interval and p-values are computed — each kind at any level, the two
#: exactly dual (the interval at level L excludes b on one side ⇔ that side's p-value < 1 − L)
T, BINOMIAL, ORDER, RESAMPLED, BOUNDED = "t", "binomial", "order statistics", "resampled", "bounded"


@dataclass(frozen=True)
class Estimate:
    """A value with what it takes to compute its interval and p-values at any level.

    ``kind`` (:data:`T` by default) says how: Student t (or normal, ``dof`` = inf) from
    ``se``; the exact binomial of ``successes`` in ``runs`` (Clopper–Pearson); the order
    statistics of the runs in ``data`` (a median: sign test); the sorted resampled values
    in ``data`` (a percentile bootstrap); the Hoeffding–Bentkus tails of
    a mean of ``runs`` independent values in the known range ``data`` = (lo, hi) (a bounded
    mean). Nothing is stored at one level: :meth:`interval` and :meth:`tail` recompute at the
    level asked.

    ``unit_sd`` is the standard deviation of one run's contribution, so that with r runs
    (per arm) the standard error would be ``unit_sd/√r`` (used by :func:`runs_needed`; for
    the kinds without a standard error, the 95 % interval's normal equivalent — for
    planning only, never for a decision).
    """

    value: float
    se: float
    dof: float
    runs: int
    unit_sd: float
    successes: int | None = None
    data: tuple[float, ...] = ()
    kind: str = T
    unit: str = "seeds (runs)"  # what one run is, in the runs a decision would need (a timing median: rounds)
    #: a resampled estimate: a hash of the runs it was drawn from (its draws, whose number follows
    #: the level, cannot say whether two estimates come from the same data; value and runs can
    #: coincide on other data, e.g. a statistic of grid points)
    source: str = ""

    @classmethod
    def mean_of(cls, x: Sequence[float]) -> Estimate:
        """The mean of runs x with its Student-t standard error (n − 1 degrees of freedom).

        Runs that all agree give no interval (undecidable, not a point interval): with a
        handful of runs of a two-valued outcome, all r equal is likely under a mean on the
        margin (at 5 runs and a share 0.8 of ones, 0.33), and a zero standard error would
        decide it."""
        a = _finite(x)
        n = len(a)
        if n == 0:
            return cls(math.nan, math.nan, math.nan, 0, math.nan)
        sd = float(a.std(ddof=1)) if n > 1 else math.nan
        se = sd / math.sqrt(n) if sd > 0 else math.nan
        return cls(float(a.mean()), se, float(n - 1), n, sd)

    @classmethod
    def difference(cls, a: Sequence[float], b: Sequence[float]) -> Estimate:
        """mean(a) − mean(b) of independent runs: Welch's standard error and degrees of freedom
        (no spread in either arm: undecidable, as :meth:`mean_of`)."""
        x, y = _finite(a), _finite(b)
        if len(x) < 2 or len(y) < 2:
            v = float(x.mean() - y.mean()) if len(x) and len(y) else math.nan
            return cls(v, math.nan, math.nan, min(len(x), len(y)), math.nan)
        vx, vy = x.var(ddof=1) / len(x), y.var(ddof=1) / len(y)
        se = math.sqrt(vx + vy)
        unit = math.sqrt(x.var(ddof=1) + y.var(ddof=1))
        if se == 0:
            return cls(float(x.mean() - y.mean()), math.nan, math.nan, min(len(x), len(y)), 0.0)
        dof = (vx + vy) ** 2 / (vx**2 / (len(x) - 1) + vy**2 / (len(y) - 1))
        return cls(float(x.mean() - y.mean()), se, float(dof), min(len(x), len(y)), unit)

    @classmethod
    def paired(cls, a: Sequence[float], b: Sequence[float]) -> Estimate:
        """mean(a − b) of paired runs (same seeds)."""
        return cls.mean_of(np.asarray(a, float) - np.asarray(b, float))

    @classmethod
    def proportion(cls, successes: int, trials: int) -> Estimate:
        """The share of ``trials`` independent units (seeds) in which something holds, with
        the exact Clopper–Pearson interval (a t-interval collapses to a point when every run
        agrees). The units must be independent: cells nested in seeds are counted per seed."""
        if trials == 0:
            return cls(math.nan, math.nan, math.nan, 0, math.nan, 0, kind=BINOMIAL)
        p = successes / trials
        return cls(p, math.sqrt(p * (1 - p) / trials), math.inf, trials, math.sqrt(p * (1 - p)),
                   int(successes), kind=BINOMIAL)

    @classmethod
    def resampled(cls, value: float, draws: Sequence[float], runs: int, expanded: bool = False,
                  source: Sequence[float] = ()) -> Estimate:
        """A value with its B resampled values (a bootstrap over ``runs`` runs per group).

        Plain (``expanded`` False): the percentile interval at level L is [d₍K₊₁₎, d₍B₋K₎] of
        the sorted draws, K = ⌈B(1 − L)/2⌉ − 1, and the p-value of "above b" is 2·#{d ≤ b}/B
        (of "below b", 2·#{d ≥ b}/B) — the interval excludes b exactly when that p-value is
        below 1 − L (:func:`~kktheory.resampling.percentile_interval`).

        ``expanded``: the draws resample ``runs`` = r independent units (seeds) jointly as one
        sample, and are read as the expanded percentile — the one-sided p-value
        T_{r−1}(Φ⁻¹(c/B)·√((r − 1)/r)) of the count c of draws on the far side, its interval
        the percentile interval at the matching level (:func:`~kktheory.resampling.expanded_tail`;
        ``dof`` = r − 1). The plain percentile is too narrow with few units (4.8 % one-sided
        error where 2.5 % is declared, for a mean of 10 normal units). With fewer than
        :data:`MIN_UNITS` units there is no interval. ``source``: the runs' values the draws
        resample, kept as their hash (``Estimate.source``)."""
        d = np.sort(_finite(draws, keep_inf=True))
        dof = float(runs - 1) if expanded else math.inf
        src = hashlib.sha256(np.ascontiguousarray(np.asarray(source, float)).tobytes()).hexdigest()[:16] \
            if len(source) else ""
        if len(d) < 2 or not math.isfinite(value) or (expanded and runs < MIN_UNITS):
            return cls(float(value), math.nan, dof, runs, math.nan, kind=RESAMPLED, source=src)
        est = cls(float(value), math.nan, dof, runs, math.nan, None, tuple(d.tolist()), RESAMPLED, source=src)
        lo, hi = est.interval(LEVEL)
        se = (hi - lo) / (2 * _z(LEVEL))
        return replace(est, se=se, unit_sd=se * math.sqrt(runs))

    @classmethod
    def bounded_mean(cls, x: Sequence[float], lo: float, hi: float) -> Estimate:
        """The mean of r independent values known to lie in [lo, hi], with an interval valid
        whatever their distribution (no normal approximation: skewed values, and values that
        all agree, are covered): the Hoeffding–Bentkus p-value (Bates et al. 2021, "Distribution-
        free, risk-controlling prediction sets", J. ACM 68(6)) on the values scaled to [0, 1], ȳ their
        mean and β the scaled boundary — for "below β" (H₀: mean ≥ β)
        min(exp(−r·KL(min(ȳ, β) ‖ β)), e·P(Bin(r, β) ≤ ⌈r·ȳ⌉)), KL the Bernoulli relative entropy
        (Hoeffding 1963, Thm 1; Bentkus 2004), "above β" the mirror on 1 − y; the interval at
        level L is the set of boundaries neither side rejects at 1 − L (:meth:`interval`).
        E.g. the share of a seed's trials in which something happens, seeds independent and the
        trials of a seed not. The price of validity under any distribution: a bound b near an
        end of the range needs many runs — a pass of "mean ≥ b" in [0, 1] needs β^r < (1 − L)/2
        even when every value is 1 (35 runs at b = 0.9, 95 %)."""
        a = _finite(x)
        r = len(a)
        if r == 0 or not hi > lo or a.min() < lo or a.max() > hi:
            raise ValueError(f"a bounded mean needs values in [{lo}, {hi}], got {r} values"
                             + (f" in [{a.min()}, {a.max()}]" if r else ""))
        sd = float(a.std(ddof=1)) if r > 1 else math.nan
        return cls(float(a.mean()), math.nan, math.inf, r, sd, None, (float(lo), float(hi)), BOUNDED)

    @classmethod
    def median_of(cls, x: Sequence[float], unit: str = "seeds (runs)") -> Estimate:
        """The median of runs x with its distribution-free interval at any level L:
        [x₍ⱼ₎, x₍ᵣ₊₁₋ⱼ₎] of the r sorted runs, j the largest index with 2·P(Bin(r, ½) ≤ j − 1) < 1 − L
        (e.g. [x₍₂₎, x₍₉₎] for 10 runs at 95 %, [x₍₁₎, x₍₁₀₎] at 99.17 %), and the sign test's
        exact p-value 2·P(Bin(r, ½) ≤ #{xᵢ ≤ b}) for "above b" (the mirror for "below") — dual
        to the interval. Robust to a few runs disturbed by something else (a timing slowed
        down by another job). Where no index j qualifies (fewer than 6 runs at 95 %, fewer
        than 8 at 99.17 %), there is no interval and no decision; the spread that plans the
        runs needed is then the median's large-sample one, √(π/2)·sd of the runs (normal runs)."""
        a = np.sort(_finite(x))
        r = len(a)
        value = float(np.median(a)) if r else math.nan
        planning = math.sqrt(math.pi / 2) * float(a.std(ddof=1)) if r > 1 else math.nan
        est = cls(value, math.nan, math.inf, r, planning, None, tuple(map(float, a)), ORDER, unit)
        lo, hi = est.interval(LEVEL)
        if not (math.isfinite(lo) and math.isfinite(hi)):
            return est
        se = (hi - lo) / (2 * _z(LEVEL))
        return replace(est, se=se, unit_sd=se * math.sqrt(r))

    @classmethod
    def ratio_of_means(cls, a: Sequence[float], b: Sequence[float]) -> Estimate:
        """log(ā/b̄) of two independent samples of positive values: the delta method's
        standard error √(s_a²/(r_a·ā²) + s_b²/(r_b·b̄²)) and Welch–Satterthwaite degrees of
        freedom on the two terms."""
        a, b = _finite(a), _finite(b)
        r = min(len(a), len(b))
        if len(a) < 2 or len(b) < 2 or not (a.mean() > 0 and b.mean() > 0):
            return cls(math.nan, math.nan, math.nan, r, math.nan)
        va, vb = a.var(ddof=1) / len(a) / a.mean() ** 2, b.var(ddof=1) / len(b) / b.mean() ** 2
        if not (va > 1e-18 and vb > 1e-18):  # an arm without spread (to rounding) is not known exactly: no interval
            return cls(float(math.log(a.mean() / b.mean())), math.nan, math.nan, r, math.nan)
        se = math.sqrt(va + vb)
        dof = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1)) if se > 0 else math.inf
        return cls(float(math.log(a.mean() / b.mean())), se, float(dof), r, se * math.sqrt(r))

    @classmethod
    def scale_ratio(cls, a: Sequence[float], b: Sequence[float]) -> Estimate:
        """log(d̄_a/d̄_b), d = |x − median x| the runs' absolute deviations from their sample's
        median (Brown and Forsythe's spread), with :meth:`ratio_of_means`' interval; at least
        3 runs per arm (with 2 the deviations are equal by construction). For runs of one
        shape d̄ estimates the scale times a constant of the shape (σ·√(2/π) for normal runs),
        so the value is log(σ_a/σ_b) where both arms have the same shape — a spread ratio, not
        an sd ratio where the shapes differ (d̄/σ is 0.80 for normal runs, 0.64 for t₃).
        Unlike the F interval of a variance ratio, whose one-sided size at 10 runs per arm is
        0.09–0.18 for a nominal 0.025 under t₃, log-normal (σ = ½) or 10 %-contaminated normal
        runs, this one keeps 0.020–0.038 there (0.056 at log-normal σ = 1), at a power of 0.94
        against the F test's 0.98 for normal runs with a true ratio e^−1.41
        (tests/test_report_decide.py). At stricter levels skewed runs exceed the nominal size
        more: ×1.5 at 99.17 % and ×1.6 at 99.75 % for log-normal σ = ½."""
        a, b = _finite(a), _finite(b)
        if len(a) < 3 or len(b) < 3:
            return cls(math.nan, math.nan, math.nan, min(len(a), len(b)), math.nan)
        return cls.ratio_of_means(deviations(a), deviations(b))

    @classmethod
    def average(cls, parts: Sequence[Estimate]) -> Estimate:
        """The mean of independent estimates (e.g. one difference per data set, each from its
        own draws): standard error √(Σ seᵢ²)/p and Welch–Satterthwaite degrees of freedom
        (Σ seᵢ²)²/Σ(seᵢ⁴/dofᵢ). Estimates that share seeds are not independent: average
        per seed first and take :meth:`mean_of` of the per-seed values."""
        if not parts:
            return cls(math.nan, math.nan, math.nan, 0, math.nan)
        p = len(parts)
        value = float(np.mean([e.value for e in parts]))
        runs = min(e.runs for e in parts)
        v = [e.se**2 for e in parts]
        if not all(math.isfinite(x) for x in v) or any(e.kind != T for e in parts):
            return cls(value, math.nan, math.nan, runs, math.nan)
        se = math.sqrt(sum(v)) / p
        den = sum(x**2 / e.dof for x, e in zip(v, parts) if x > 0)
        dof = sum(v) ** 2 / den if den > 0 else math.inf
        return cls(value, se, dof, runs, se * math.sqrt(runs))

    @classmethod
    def known(cls, value: float, se: float) -> Estimate:
        """A value whose standard error is known (normal quantile)."""
        return cls(float(value), float(se), math.inf, 1, float(se))

    def quantile(self, level: float = LEVEL) -> float:
        """The two-sided t interval's multiplier: t_{dof} (or z) at 1 − (1 − level)/2."""
        p = 0.5 + level / 2  # special's ufuncs: what stats.norm.ppf and stats.t.ppf evaluate, without their overhead
        return float(special.ndtri(p) if not math.isfinite(self.dof) else special.stdtrit(self.dof, p))

    def interval(self, level: float = LEVEL) -> tuple[float, float]:
        """(lo, hi) at ``level``, computed at that level for every kind; (−inf, inf) where the
        kind has no interval at that level (too few runs for an order-statistic interval);
        the point itself when the spread is unknown (a single run)."""
        alpha = 1 - level
        if self.kind == BINOMIAL and self.runs > 0:
            k, n = self.successes, self.runs
            lo = float(stats.beta.ppf(alpha / 2, k, n - k + 1)) if k > 0 else 0.0
            hi = float(stats.beta.ppf(1 - alpha / 2, k + 1, n - k)) if k < n else 1.0
            return lo, hi
        if self.kind == ORDER and self.runs > 0:
            j = _order_index(self.runs, alpha)
            if j == 0:
                return -math.inf, math.inf
            return self.data[j - 1], self.data[self.runs - j]
        if self.kind == RESAMPLED and self.data:
            return percentile_interval(self._values, level, self._tail_of_draws)
        if self.kind == BOUNDED:
            return (_switch(lambda b: 2 * self.tail(b, "above") < alpha, self.value, self.data[0]),
                    _switch(lambda b: 2 * self.tail(b, "below") < alpha, self.value, self.data[1]))
        if not math.isfinite(self.se):
            return self.value, self.value
        h = self.quantile(level) * self.se
        return self.value - h, self.value + h

    @property
    def decidable(self) -> bool:
        """Whether an interval can exist (at least two runs that differ, or a known standard
        error; an order-statistic interval needs enough runs at the level asked)."""
        if self.kind in (BINOMIAL, BOUNDED):
            return self.runs > 0
        if self.kind in (ORDER, RESAMPLED):
            return math.isfinite(self.value) and len(self.data) >= 2
        return math.isfinite(self.value) and math.isfinite(self.se)

    def tail(self, boundary: float, side: str) -> float:
        """One-sided p-value against ``boundary``: ``side`` "above" is the evidence that the
        true value exceeds it, "below" the mirror; nan when undecidable.

        Per kind, exactly dual to :meth:`interval` (2·tail < 1 − L ⇔ the interval at level L
        lies beyond b on that side): Student t (or normal) at (value − b)/se; the binomial
        tail P(Bin(r, b) ≥ k) (Clopper–Pearson); the sign test P(Bin(r, ½) ≤ #{xᵢ ≤ b})
        (order statistics); the share #{d ≤ b}/B of the resampled values; the F tail
        P(F ≥ e^{2(v − b)}) (a log sd ratio).
        """
        if not self.decidable or not math.isfinite(boundary):
            return math.nan
        above = side == "above"
        if self.kind == BINOMIAL:
            k, r = self.successes, self.runs
            b = min(max(boundary, 0.0), 1.0)
            return float(stats.binom.sf(k - 1, r, b) if above else stats.binom.cdf(k, r, b))
        if self.kind == ORDER:
            x = self._values
            c = int(np.sum(x <= boundary) if above else np.sum(x >= boundary))
            return float(stats.binom.cdf(c, self.runs, 0.5))
        if self.kind == RESAMPLED:
            d = self._values
            return float(self._tail_of_draws(int(np.sum(d <= boundary) if above else np.sum(d >= boundary)), len(d)))
        if self.kind == BOUNDED:  # "above b" is "below" on the mirrored scale (hi − x)/(hi − lo)
            lo, hi = self.data
            if (boundary < lo) if above else (boundary > hi):
                return 0.0
            end = hi if above else lo
            return _hb_tail((self.value - end) / (lo - hi) if above else (self.value - end) / (hi - lo), self.runs,
                            (boundary - end) / (lo - hi) if above else (boundary - end) / (hi - lo))
        gap = self.value - boundary
        if self.se == 0.0:  # a known value (no spread by definition)
            return 0.0 if (gap > 0) == above and gap != 0 else 1.0
        z = -gap if above else gap  # the lower tail at ∓(value − b)/se
        return float(special.ndtr(z / self.se) if not math.isfinite(self.dof) else special.stdtr(self.dof, z / self.se))

    @cached_property
    def _values(self) -> np.ndarray:
        """``data`` as an array (the sorted runs or draws), converted once."""
        return np.asarray(self.data)

    @property
    def _tail_of_draws(self) -> Tail:
        """A bootstrap's one-sided p-value from the count of draws beyond the boundary: plain,
        or expanded for ``dof`` + 1 units (:meth:`resampled`), read as a Monte-Carlo p-value
        (:func:`~kktheory.resampling.add_one`: never 0)."""
        return add_one(plain_tail if not math.isfinite(self.dof) else expanded_tail(int(self.dof) + 1))

    def text(self, digits: int = 3, level: float = LEVEL) -> str:
        if not self.decidable:
            if self.runs > 1 and self.unit_sd == 0.0:
                return f"{_g(self.value, digits)} (no interval: all {self.runs} runs equal)"
            return f"{_g(self.value, digits)} (no interval: {self.runs} run{'s' if self.runs != 1 else ''})"
        lo, hi = self.interval(level)
        if not (math.isfinite(lo) and math.isfinite(hi)):
            return f"{_g(self.value, digits)} (no interval at this level from {self.runs} runs)"
        return f"{_g(self.value, digits)} [{_g(lo, digits)}, {_g(hi, digits)}]"


def _z(level: float) -> float:
    return float(special.ndtri(0.5 + level / 2))


def _hb_tail(mean: float, runs: int, beta: float) -> float:
    """The Hoeffding–Bentkus p-value of "the mean of ``runs`` values in [0, 1] lies below
    ``beta``" when their mean is ``mean``: 1 for β ≤ 0 (nothing lies below), 0 for β > 1 (all
    does), else min(1, exp(−r·KL(min(ȳ, β) ‖ β)), e·P(Bin(r, β) ≤ ⌈r·ȳ⌉)) — each an upper bound
    on P(Ȳ ≤ ȳ) under any distribution on [0, 1] with mean β, so their minimum is one too;
    non-increasing in β and non-decreasing in ȳ. (⌈r·ȳ⌉ after rounding r·ȳ to 9 decimals: a
    sum of shares such as 6·(1/6) is an integer.)"""
    if beta <= 0:
        return 1.0
    if beta > 1:
        return 0.0
    m = min(mean, beta)
    kl = float(special.rel_entr(m, beta) + special.rel_entr(1 - m, 1 - beta))
    bentkus = math.e * float(special.bdtr(math.ceil(round(runs * mean, 9)), runs, beta)) if beta < 1 else math.inf
    return min(1.0, math.exp(-runs * kl), bentkus)


def _switch(rejected: Callable[[float], bool], inside: float, end: float) -> float:
    """The boundary nearest ``end`` that a monotone test does not reject: ``rejected`` is False
    at ``inside`` (an estimate's value) and, once True on the way to ``end``, stays True. By
    bisection down to adjacent floats, so that the returned end of the interval and the test
    agree for every float; ``end`` itself when it is not rejected."""
    if not rejected(end):
        return end
    keep, drop = inside, end
    while True:
        mid = keep + (drop - keep) / 2
        if mid in (keep, drop):
            return keep
        keep, drop = (keep, mid) if rejected(mid) else (mid, drop)


def _order_index(r: int, alpha: float) -> int:
    """The largest j ≤ r/2 with 2·P(Bin(r, ½) ≤ j − 1) < alpha (0: none)."""
    j = 0
    while j + 1 <= r // 2 and 2 * float(stats.binom.cdf(j, r, 0.5)) < alpha:
        j += 1
    return j


@dataclass(frozen=True)
class Schedule:
    """Where a decision whose test is not judged at its look's own level stands on the doubling
    schedule: ``look``, the level of the look that judged it; ``test``, the level its test takes
    at a look of level L (Holm's threshold at L for a failure Holm's correction set aside, a
    cell's level at L in a share of cells). :func:`scheduled` walks the looks with it."""

    look: float
    test: Callable[[float], float] = field(compare=False)


@dataclass(frozen=True)
class Decision:
    """The outcome of one test: status, the boundary, the p-values, the runs that would decide it.

    ``p_pass`` and ``p_fail`` are the two directions' p-values on the interval's two-sided
    scale (twice a one-sided tail): the check passes when ``p_pass`` < α and fails when
    ``p_fail`` < α (α = 1 − ``level``) — exactly when the interval lies beyond the boundary,
    the same decision in the form that Holm's correction over an entry's checks
    (:func:`holm`) and a sequential design (:func:`look_level`) need. ``against`` is True
    when the estimate lies on the side opposite to the claim: no number of runs is then
    promised to decide it in the claim's favour.
    """

    status: str
    estimate: Estimate
    claim: str  # e.g. "≥ 0.01", "in [−0.01, 0.01]"
    toward: float | None = None  # inconclusive only: the boundary more runs would decide against
    p_pass: float = math.nan
    p_fail: float = math.nan
    against: bool = False
    level: float = LEVEL
    other: float | None = None  # an equivalence on its claim's side: the far boundary, excluded too for a pass
    smallest: float | None = None  # an exceeds test: the smallest effect that counts (signed)
    #: the test's level at later looks where it is not the look's own (None: ``level`` is the look's)
    schedule: Schedule | None = None
    fixed: int = 0  # of the estimate's runs, those from a sweep no look extends (:func:`next_size`)
    bounds: tuple[float, ...] = ()  # the claim's boundaries (pass, failure, an equivalence's far end): :attr:`digits`

    @cached_property
    def planned(self) -> tuple[int | None, float]:
        """(runs per arm that would decide it, the level they are judged at): the first look of
        the doubling schedule, as the scheduler grows its runs (``fixed`` of them never), whose
        runs reach :data:`POWER` at that look's level (:func:`scheduled`; :func:`runs_needed`
        of its estimate toward its boundary); (None, ``level``) unless inconclusive with an
        interval. Computed when asked: a power simulation reads only the status."""
        if self.status != INCONCLUSIVE or self.toward is None or not self.estimate.decidable:
            return None, self.level
        look, test = (self.level, None) if self.schedule is None else (self.schedule.look, self.schedule.test)
        need = partial(runs_needed, self.estimate, self.toward, other=self.other)
        return scheduled(need, look, next_size(self.estimate.runs, self.fixed), self.fixed, test)

    @property
    def plan_at(self) -> float:
        """The level the runs it names (``runs_needed``) are judged at (:attr:`planned`)."""
        return self.planned[1]

    @property
    def runs_needed(self) -> int | None:
        """Inconclusive only: runs per arm that would decide it at the level they would be
        judged at (:attr:`planned`)."""
        return self.planned[0]

    @property
    def sign_only(self) -> bool:
        """A pass whose estimate lies short of the smallest effect that counts (``exceeds δ``:
        the interval clears 0, the estimate is below δ): a positive effect, not one shown to count."""
        return self.status == PASS and self.smallest is not None and abs(self.estimate.value) < abs(self.smallest)

    @property
    def text(self) -> str:
        """The estimate, its interval labelled with the level it was computed at (no label where
        there is no interval: a single run, runs all equal, too few for the level), the claim,
        and why it is undecided or a pass on the sign only."""
        ends = self.estimate.interval(self.level) if self.estimate.decidable else (math.nan, math.nan)
        at = f" ({pct(self.level)} CI)" if all(math.isfinite(e) for e in ends) else ""
        s = f"{self.estimate.text(self.digits, level=self.level)}{at}, claim {self.claim}"
        if self.status == INCONCLUSIVE:
            s += f"; undecided: {self.undecided_text}"
        elif self.sign_only:
            s += (f"; a pass on the sign only: the estimate lies short of the smallest effect that counts "
                  f"({_g(self.smallest)})")
        return s

    @property
    def digits(self) -> int:
        """Significant digits of the printed interval: 3, or as many more (up to 8) as its ends
        need so that none prints as a boundary it does not reach ([0.734, 1] for an upper end
        1.0003 against "≤ 1" would read as decided; [0.777, 1] for 0.99971 as touching it)."""
        if not self.estimate.decidable:
            return 3
        ends = self.estimate.interval(self.level)
        digits = 3
        while digits < 8 and any(_g(e, digits) == _g(b, digits) and e != b for e in ends for b in self.bounds):
            digits += 1
        return digits

    @property
    def undecided_text(self) -> str:
        est = self.estimate
        if est.kind == T and est.runs > 1 and est.unit_sd == 0.0:  # no spread: nothing to plan runs from
            return f"all {est.runs} runs equal, no spread to plan from: more runs give an interval once two differ"
        if self.against:
            return ("the estimate points against the claim: "
                    + (f"about {self.runs_needed} {est.unit} per arm would decide its failure at {POWER:.0%} power "
                       f"at {pct(self.plan_at)} ({_now(est.runs, self.fixed)})" if self.runs_needed else
                       f"no number of runs decides it at the observed value ({self.estimate.runs} runs)"))
        return _runs_text(self.runs_needed, self.estimate.runs, est.unit, self.plan_at, self.fixed)


def _decision(est: Estimate, claim: str, p_pass: float, p_fail: float, boundary: float,
              on_claim_side: bool, level: float, fail_boundary: float | None = None,
              other: float | None = None) -> Decision:
    """Status from the two p-values (a failure wins when both hold: an effect shown to lie
    below the smallest one that counts is not the claimed effect, however sure its sign).
    Undecided: the runs that would decide it at :data:`POWER` — toward ``boundary`` (the
    pass) when the estimate lies on the claim's side, toward ``fail_boundary`` (default
    ``boundary``; the failure) when it points against the claim."""
    alpha = 1 - level
    bounds = tuple(b for b in (boundary, fail_boundary, other) if b is not None and math.isfinite(b))
    if math.isfinite(p_fail) and p_fail < alpha:  # toward the failure: if a family's correction sets it aside
        return Decision(FAIL, est, claim, boundary if fail_boundary is None else fail_boundary, p_pass, p_fail,
                        not on_claim_side, level, bounds=bounds)
    if math.isfinite(p_pass) and p_pass < alpha:
        return Decision(PASS, est, claim, None, p_pass, p_fail, False, level, bounds=bounds)
    toward = boundary if on_claim_side or fail_boundary is None else fail_boundary
    return Decision(INCONCLUSIVE, est, claim, toward, p_pass, p_fail, est.decidable and not on_claim_side, level,
                    other if on_claim_side else None, bounds=bounds)


def at_least(est: Estimate, bound: float, level: float = LEVEL) -> Decision:
    """The claim value ≥ bound: pass above, fail below, inconclusive across."""
    return _decision(est, f"≥ {_g(bound)}", 2 * est.tail(bound, "above"), 2 * est.tail(bound, "below"),
                     bound, est.value > bound, level)


def at_most(est: Estimate, bound: float, level: float = LEVEL) -> Decision:
    """The claim value ≤ bound."""
    return _decision(est, f"≤ {_g(bound)}", 2 * est.tail(bound, "below"), 2 * est.tail(bound, "above"),
                     bound, est.value < bound, level)


def exceeds(est: Estimate, smallest: float, level: float = LEVEL, sign: float = 1.0) -> Decision:
    """The claim "a positive effect, not shown below the smallest effect that counts" (a
    rise, a win); ``sign`` −1: a fall, not shown smaller than ``smallest``.

    Pass: the interval lies beyond 0 on the claim's side (an effect is there) and not wholly
    short of ``smallest``. Fail: it lies short of ±``smallest`` (any effect is smaller than
    the least that would count: a null effect is decided, not left "inconclusive" for ever);
    a failure wins when both hold. A pass therefore shows the sign of the effect, not that
    it reaches ``smallest``: a true effect of ``smallest``/2 passes with the probability
    INDEX prints beside the power (:meth:`kktheory.report.claims.Rule.table_row`), and the
    text says so ("> 0, fails below δ"). The design point for power is the smallest effect
    that counts. An estimate nearer 0 than ``smallest``/2 (where the interval leaves
    ``smallest`` before it leaves 0) points against the claim: its "runs needed" are those
    that would show it short of ``smallest``. A zero ``smallest`` is refused: it would make
    a null effect undecidable.
    """
    if not smallest > 0:
        raise ValueError(f"the smallest effect that counts must be > 0, got {smallest}")
    up = sign > 0
    edge = smallest if up else -smallest
    side, other = ("above", "below") if up else ("below", "above")
    on_side = est.value > smallest / 2 if up else est.value < -smallest / 2
    claim = f"{'>' if up else '<'} 0, fails {'below' if up else 'above'} {_g(edge)}"
    return replace(_decision(est, claim, 2 * est.tail(0.0, side), 2 * est.tail(edge, other), 0.0, on_side, level,
                             edge), smallest=edge)


def within(est: Estimate, lo: float, hi: float, level: float = LEVEL) -> Decision:
    """The claim lo ≤ value ≤ hi (equivalence: two one-sided tests; a failure when the
    interval lies wholly outside [lo, hi])."""
    p_pass = 2 * max(est.tail(lo, "above"), est.tail(hi, "below"))
    p_fail = 2 * min(est.tail(hi, "above"), est.tail(lo, "below"))
    inside = lo < est.value < hi
    boundary, far = (lo, hi) if abs(est.value - lo) < abs(est.value - hi) else (hi, lo)  # the nearer one decides
    return _decision(est, f"in [{_g(lo)}, {_g(hi)}]", p_pass, p_fail, boundary, inside, level, other=far)


def holm(p_values: Sequence[float], alpha: float = 1 - LEVEL) -> list[bool]:
    """Holm's step-down rejections at family-wise level ``alpha`` (nan never rejects).

    Sorted p₍₁₎ ≤ … ≤ p₍ₘ₎: reject H₍ᵢ₎ while p₍ᵢ₎ ≤ α/(m − i + 1), stop at the first that is
    not (Holm 1979). It controls the probability of any false rejection at α whatever the
    dependence between the tests.
    """
    p = np.asarray(p_values, float)
    finite = np.flatnonzero(np.isfinite(p))
    m = len(finite)
    out = [False] * len(p)
    for i, j in enumerate(finite[np.argsort(p[finite], kind="stable")]):
        if p[j] > alpha / (m - i):
            break
        out[int(j)] = True
    return out


def look_of(level: float) -> int | None:
    """The look j whose level (:func:`look_level`) is ``level``; None off the schedule (Holm's
    level for one check, a per-cell level)."""
    for j in range(1, 1000):
        at = look_level(j)
        if abs(at - level) < 1e-12:
            return j
        if at > level:
            return None
    return None


def next_size(runs: int, fixed: int = 0) -> int:
    """Runs per arm of a check at the look after the one that judged ``runs`` of them, ``fixed``
    of which come from a sweep no look extends (calandriello_fig2's NMI checks: the grid's seeds
    beside the held-out sweep's): the scheduler doubles the sweep its looks extend
    (:func:`kktheory.report.sequential.next_runs`), not the others, so the growing part
    doubles and the fixed part stays — fixed + 2·(runs − fixed). With no run of the growing
    part yet, fixed + runs: a fresh sweep's first look takes R₁ runs, look 1's, here taken as
    the runs now."""
    grows = runs - fixed if runs > fixed else runs
    return fixed + 2 * grows


def scheduled(need: Callable[[float], int | None], level: float, first: int, fixed: int = 0,
              test: Callable[[float], float] | None = None) -> tuple[int | None, float]:
    """Every plan of the runs that would decide a check: (runs per arm, level) of the first look
    after the one judged at ``level`` (look j) whose runs reach :data:`POWER` at the level they
    are judged at there, as the scheduler produces them. Look j + k (k ≥ 1) holds
    fixed + (first − fixed)·2^(k−1) runs per arm — ``first`` at look j + 1 (:func:`next_size`
    of a check's runs; a design's runs for a check without rows), of which ``fixed`` come from a
    sweep no look extends, the rest doubling look by look — and judges at L = ``test``
    (:func:`look_level` (j + k)): the look's own level, or what the check's test takes at it
    (Holm's threshold for a failure Holm set aside, a cell's level in a share of cells). The
    plan is the first of those run counts that reaches ``need`` (L), the runs at which the test
    at L has power :data:`POWER` (:func:`runs_needed` of an estimate, a design's
    :func:`~kktheory.report.cost.design_runs`). Why the walk: a plan at the next look's level
    alone that needs more than its runs is reached only at a later look, at a stricter level
    (0.51–0.81 power where 0.8 was printed), and a plan that doubles runs no look adds to names
    run counts no look holds. Off the schedule (``level`` not a look's): ``need`` at
    ``test`` (``level``) itself. (None, L): no run count decides it (``need`` None at L)."""
    judged = test or _same
    j = look_of(level)
    if j is None:
        return need(judged(level)), judged(level)
    if first <= fixed:  # nothing grows: no look adds a run
        return None, judged(level)
    for k in range(1, 64):
        at = judged(look_level(j + k))
        runs, n = fixed + (first - fixed) * 2 ** (k - 1), need(at)
        if n is None:
            return None, at
        if n <= runs:
            return runs, at
    return None, judged(level)


def _same(level: float) -> float:
    return level


def look_level(look: int, level: float = LEVEL) -> float:
    """The confidence level of look ``look`` (1, 2, …) of a sequential decision.

    Look 1 is the fixed-design judgement, at ``level`` itself (α₁ = α = 1 − ``level``, the
    95 % that INDEX publishes without ``--decide``); look j ≥ 2 spends α_j = α/(j(j + 1))
    (α/6 at look 2, α/12 at look 3, …), and Σ_{j≥2} α_j = α/2. By the union bound the
    probability that any look makes a false decision on a check is at most α + α/2 = 0.075
    on the two-sided p scale, i.e. at most 0.0375 in each direction (0.025 from look 1,
    0.0125 from all later looks together) — whatever the data and whatever rule decides
    whether to look again, provided each look's run count is fixed before its data are seen
    (the doubling schedule of :func:`kktheory.report.sequential.next_runs`). No
    independence between looks and no fixed last look are needed.
    """
    if look < 1:
        raise ValueError(f"look must be ≥ 1, got {look}")
    return level if look == 1 else 1.0 - (1 - level) / (look * (look + 1))


def _spread_at(est: Estimate, level: float) -> float:
    """The per-run spread a plan at ``level`` uses: ``unit_sd``, except for resampled values,
    whose draws may be heavier-tailed than a normal (a studentised bootstrap's are): there the
    spread their own interval at ``level`` implies, half-width / z_level · √runs, where the
    draws resolve that level and it is the wider — planned with the 95 % interval's spread, a
    rate fit whose 99.99 % interval was [−15.9, 4.64] was said to need 10 runs."""
    if est.kind != RESAMPLED or not est.data or level <= LEVEL:
        return est.unit_sd
    lo, hi = est.interval(level)
    at = (hi - lo) / (2 * _z(level)) * math.sqrt(est.runs) if math.isfinite(lo) and math.isfinite(hi) else math.nan
    return max(est.unit_sd, at) if math.isfinite(at) else est.unit_sd


def runs_needed(est: Estimate, boundary: float, level: float = LEVEL, power: float = POWER,
                other: float | None = None) -> int | None:
    """The smallest r (runs per arm; every arm of the check grows to r) at which the test at
    ``level`` decides against ``boundary`` with probability ``power``, if the value and the
    per-run spread are what is observed now (plug-in). None: never (no gap, no spread), or
    beyond :data:`MAX_RUNS`.

    Student t: the noncentral t's power P(T'_{r−1}(√r·gap/s) > t_{r−1, 1−α/2}) with
    gap = |value − boundary|, s = ``unit_sd``; a share: the exact binomial power
    Σ_k P(Bin(r, p̂) = k)·[the Clopper–Pearson interval of k/r excludes the boundary];
    the kinds without a standard error: the normal approximation r = ((z_{1−α/2} + z_power)·s/gap)².
    a bounded mean: the normal approximation of the mean of r runs against the mean at which
    the Hoeffding–Bentkus test at r runs first decides (:func:`_bounded_runs`; with ``other``,
    the larger of the two ends' runs — exact where every run agrees, the one use: the test
    is then deterministic at each end).
    The r at which the *expected* half-width equals the gap decides only about half the time.
    Never fewer than the runs at which the kind has an interval at ``level`` at all
    (:func:`fewest_runs`: a median's order-statistic pair, an expanded bootstrap's units).
    ``other``: an equivalence's far boundary, which a pass must exclude too — the power is
    then at least P(excludes ``boundary``) + P(excludes ``other``) − 1 (Bonferroni's lower bound
    on both), and r grows until that reaches ``power`` (against the near boundary alone, a
    centred estimate of sd 0.037 within ±0.04 got 9 runs, whose power is 0.61).
    """
    gap = abs(est.value - boundary)
    if not math.isfinite(gap) or gap == 0.0:
        return None
    alpha = 1 - level
    if est.kind == BINOMIAL:
        return _share_runs(est.value, boundary, alpha, power)
    if est.kind == BOUNDED:  # both ends of an equivalence: the runs that exclude each
        runs = [_bounded_runs(est, b, alpha, power) for b in (boundary, other) if b is not None]
        return None if None in runs else max(runs)
    s = _spread_at(est, level)
    if not math.isfinite(s) or s <= 0.0:
        return None
    z = _z(level) + float(special.ndtri(power))
    r = max(fewest_runs(est, level), math.ceil((z * s / gap) ** 2))
    student = est.kind == T and math.isfinite(est.dof)
    if not student and other is None:
        return r if r <= MAX_RUNS else None
    gaps = [gap] if other is None else [gap, abs(est.value - other)]
    while r <= MAX_RUNS:  # the t's power at r is below the normal's: count up from the normal's r
        if sum(_one_sided_power(r, g / s, alpha, student) for g in gaps) - (len(gaps) - 1) >= power:
            return r
        r += 1
    return None


def _one_sided_power(r: int, effect: float, alpha: float, student: bool) -> float:
    """P(r runs exclude a boundary ``effect`` unit sds away at two-sided level 1 − α): the
    noncentral t's P(T'_{r−1}(√r·effect) > t_{r−1, 1−α/2}) (``student``), else the normal's
    Φ(√r·effect − z_{1−α/2}). (special's ufuncs: what stats.t.ppf and stats.nct.sf evaluate,
    without their overhead.)"""
    if student:
        dof = r - 1
        return 1.0 - float(special.nctdtr(dof, math.sqrt(r) * effect, special.stdtrit(dof, 1 - alpha / 2)))
    return float(special.ndtr(math.sqrt(r) * effect - special.ndtri(1 - alpha / 2)))


def fewest_runs(est: Estimate, level: float = LEVEL) -> int:
    """The fewest runs at which ``est``'s kind has an interval at ``level``: for a median, the
    smallest r with 2·0.5^r < 1 − level (its widest pair [x₍₁₎, x₍ᵣ₎] then covers at ``level``:
    6 at 95 %, 8 at 99.17 %, 9 at 99.58 %); for an expanded bootstrap over units,
    :data:`MIN_UNITS`; 2 otherwise (a spread needs two runs)."""
    if est.kind == ORDER:
        r = 2
        while _order_index(r, 1 - level) == 0:
            r += 1
        return r
    if est.kind == RESAMPLED and math.isfinite(est.dof):
        return MIN_UNITS
    return 2


def _bounded_runs(est: Estimate, boundary: float, alpha: float, power: float) -> int | None:
    """Runs at which a bounded mean (:meth:`Estimate.bounded_mean`) is decided against
    ``boundary`` with probability ``power``, plug-in: on the scale where the estimate lies below
    the boundary (y, β in [0, 1]), the test at r runs rejects when the mean is at most t_r, the
    largest mean with 2·p_HB(t_r; r, β) < α; the mean of r runs is taken as normal with the
    observed per-run sd s, so the power is Φ((t_r − y)·√r/s) (all runs equal: whether y ≤ t_r).
    A doubling search, then bisection; None beyond :data:`MAX_RUNS` or for a boundary outside
    the range."""
    lo, hi = est.data
    below = est.value < boundary
    y = (est.value - lo) / (hi - lo) if below else (hi - est.value) / (hi - lo)
    beta = (boundary - lo) / (hi - lo) if below else (hi - boundary) / (hi - lo)
    s = est.unit_sd / (hi - lo) if math.isfinite(est.unit_sd) else 0.0
    if not 0.0 < beta <= 1.0:
        return None

    def decides(r: int) -> bool:
        if not 2 * _hb_tail(0.0, r, beta) < alpha:
            return False
        t = _switch(lambda m: not 2 * _hb_tail(m, r, beta) < alpha, 0.0, beta)  # the largest mean rejected
        return (y <= t) if s == 0 else float(special.ndtr((t - y) * math.sqrt(r) / s)) >= power

    r = 1
    while not decides(r):
        if r > MAX_RUNS:
            return None
        r *= 2
    short = r // 2
    while r - short > 1:
        mid = (r + short) // 2
        short, r = (short, mid) if decides(mid) else (mid, r)
    return r


def _share_runs(p: float, boundary: float, alpha: float, power: float, exact_up_to: int = 3000) -> int | None:
    """The smallest r whose exact Clopper–Pearson test decides a share p against
    ``boundary`` with probability ``power`` (p the true share), scanned upward around the
    normal approximation (the power of a discrete test is not monotone in r); beyond
    ``exact_up_to`` runs the normal approximation itself."""
    b = min(max(boundary, 0.0), 1.0)
    above = p > b
    sd = math.sqrt(max(p * (1 - p), b * (1 - b), 1e-6))
    guess = ((_z(1 - alpha) + float(special.ndtri(power))) * sd / abs(p - b)) ** 2
    if guess > exact_up_to:
        return math.ceil(guess) if guess <= MAX_RUNS else None
    for r in range(max(2, int(guess / 3)), 3 * exact_up_to):
        k = np.arange(r + 1)  # the pass set is a tail of k: k ≥ k* (above) or k ≤ k* (below)
        passes = np.flatnonzero(2 * (special.bdtrc(k - 1, r, b) if above else special.bdtr(k, r, b)) < alpha)
        if not len(passes):
            continue
        hit = special.bdtrc(passes[0] - 1, r, p) if above else special.bdtr(passes[-1], r, p)
        if float(hit) >= power:
            return r
    return None


def _runs_text(r: int | None, have: int, unit: str = "seeds (runs)", level: float = LEVEL, fixed: int = 0) -> str:
    if r is None:
        return f"the interval straddles the boundary; no number of runs decides it at the observed value ({have} runs)"
    return (f"about {r} {unit} per arm would decide it at {POWER:.0%} power at {pct(level)} ({_now(have, fixed)}; "
            "every arm grows)")


def _now(have: int, fixed: int) -> str:
    """The runs an undecided check has, and those of them no look adds to (a plan's runs hold them)."""
    return f"{have} now" + (f", {fixed} of them from a sweep no look extends" if fixed else "")


def pct(level: float) -> str:
    """A confidence level in percent, four significant digits, or as many more as it takes not
    to print 100 % (a level at Holm's threshold over 51 checks is 99.998 %, not "100%")."""
    digits = 4
    while digits < 12 and level < 1 and float(f"{100 * level:.{digits}g}") >= 100:
        digits += 1
    return f"{100 * level:.{digits}g}%"


def deviations(x: Sequence[float]) -> np.ndarray:
    """|x − median x|, the runs' absolute deviations from their median: their mean is the
    spread :meth:`Estimate.scale_ratio` compares (σ·√(2/π) for normal runs)."""
    x = np.asarray(x, float)
    return np.abs(x - np.median(x)) if len(x) else x


def _finite(x: Sequence[float], keep_inf: bool = False) -> np.ndarray:
    """The values of x that are finite (``keep_inf``: that are not nan — a resampled value
    may be infinite, e.g. a sketch size beyond the grid)."""
    a = np.asarray(x, dtype=float)
    return a[~np.isnan(a)] if keep_inf else a[np.isfinite(a)]


def _g(x: float, digits: int = 3) -> str:
    return "—" if x is None or not math.isfinite(x) else f"{x:.{digits}g}"
