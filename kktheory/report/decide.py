"""Decisions over runs: a claim tested with a confidence interval against a stated margin.

A check of a paper's claim is a statement about a mean over runs — a mean, or a
difference of means — compared with a boundary that the paper justifies (its claimed
effect, the precision of its own table). The estimate carries a Student-t confidence
interval (two-sided level ``LEVEL``, i.e. each side at 97.5 %):

- ``at_least(est, b)`` — the claim "value ≥ b": **pass** when the whole interval lies
  above b, **fail** when it lies below, **inconclusive** when it contains b;
- ``at_most(est, b)`` — the mirror image;
- ``exceeds(est, δ)`` — a rise or a win: **pass** when the interval lies above 0, **fail**
  when it lies below δ, the smallest effect that counts (so a null effect is decided, not
  left undecidable as a margin of 0 would leave it); ``sign=−1`` for a fall;
- ``within(est, lo, hi)`` — equivalence (two one-sided tests): **pass** when the interval
  lies inside [lo, hi], **fail** when it does not meet [lo, hi], **inconclusive** otherwise.
  A plateau or "stable" claim is this two-sided test on the change beyond the point.

Every decision also carries the p-values of both directions on the interval's two-sided
scale (:meth:`Estimate.tail`: Student t, the exact binomial tail for a share — dual to its
Clopper–Pearson interval — and the half-interval on the boundary's side for an interval
given directly), so that it equals the interval's decision and can enter Holm's step-down
correction over an entry's checks (:func:`holm`; the entry's family rule is in
:mod:`kktheory.report.verdicts`) and the alpha-spending levels of a sequential decision
(:func:`look_level`, :mod:`kktheory.report.sequential`).

There is no escape clause: a difference "within 2 standard errors of 0" is not evidence
of no difference, it is an undecided test. An inconclusive decision says how many runs
would decide it (:func:`runs_needed`): the smallest number r of runs per arm for which the
interval's half-width t_{r−1}·s/√r falls below the distance from the observed value to
the boundary, with the per-run spread s observed now (the same value and spread assumed) —
but only when the estimate lies on the claim's side; an estimate pointing against the
claim says so instead (more runs would confirm the failure, not the claim).

Estimates (:class:`Estimate`): the mean of one sample (:meth:`Estimate.mean_of`), a
difference of two independent samples with Welch's standard error and degrees of
freedom (:meth:`Estimate.difference`), a paired difference (:meth:`Estimate.paired`),
the median of one sample with its order-statistic interval (:meth:`Estimate.median_of`,
for timings), the mean of independent estimates (:meth:`Estimate.average`), or a number
with a known standard error (:meth:`Estimate.known`, e.g. a randomized estimate's
``*_se``, normal quantile).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import special, stats

LEVEL = 0.95
PASS, FAIL, INCONCLUSIVE = "pass", "fail", "inconclusive"
MAX_RUNS = 100_000  # runs_needed reports "more than this" beyond it


@dataclass(frozen=True)
class Estimate:
    """A value with its standard error, degrees of freedom and per-run spread.

    ``unit_sd`` is the standard deviation of one run's contribution, so that with r runs
    (per arm) the standard error would be ``unit_sd/√r`` (used by :func:`runs_needed`);
    ``dof`` = inf means a normal quantile (a known standard error).
    """

    value: float
    se: float
    dof: float
    runs: int
    unit_sd: float
    successes: int | None = None  # a proportion: its exact (Clopper–Pearson) interval is used
    bounds: tuple[float, float] | None = None  # an interval given directly (bootstrap), at LEVEL

    @classmethod
    def mean_of(cls, x: Sequence[float]) -> Estimate:
        """The mean of runs x with its Student-t standard error (n − 1 degrees of freedom)."""
        a = _finite(x)
        n = len(a)
        if n == 0:
            return cls(math.nan, math.nan, math.nan, 0, math.nan)
        sd = float(a.std(ddof=1)) if n > 1 else math.nan
        return cls(float(a.mean()), sd / math.sqrt(n), float(n - 1), n, sd)

    @classmethod
    def difference(cls, a: Sequence[float], b: Sequence[float]) -> Estimate:
        """mean(a) − mean(b) of independent runs: Welch's standard error and degrees of freedom."""
        x, y = _finite(a), _finite(b)
        if len(x) < 2 or len(y) < 2:
            v = float(x.mean() - y.mean()) if len(x) and len(y) else math.nan
            return cls(v, math.nan, math.nan, min(len(x), len(y)), math.nan)
        vx, vy = x.var(ddof=1) / len(x), y.var(ddof=1) / len(y)
        se = math.sqrt(vx + vy)
        dof = (vx + vy) ** 2 / (vx**2 / (len(x) - 1) + vy**2 / (len(y) - 1)) if se > 0 else math.inf
        unit = math.sqrt(x.var(ddof=1) + y.var(ddof=1))
        return cls(float(x.mean() - y.mean()), se, float(dof), min(len(x), len(y)), unit)

    @classmethod
    def paired(cls, a: Sequence[float], b: Sequence[float]) -> Estimate:
        """mean(a − b) of paired runs (same seeds)."""
        return cls.mean_of(np.asarray(a, float) - np.asarray(b, float))

    @classmethod
    def proportion(cls, successes: int, trials: int) -> Estimate:
        """The share of ``trials`` runs in which something holds, with the exact
        Clopper–Pearson interval (a t-interval collapses to a point when every run agrees)."""
        if trials == 0:
            return cls(math.nan, math.nan, math.nan, 0, math.nan, 0)
        p = successes / trials
        return cls(p, math.sqrt(p * (1 - p) / trials), math.inf, trials, math.sqrt(p * (1 - p)), int(successes))

    @classmethod
    def bootstrap(cls, value: float, lo: float, hi: float, runs: int) -> Estimate:
        """A value with a bootstrap percentile interval (at LEVEL) from ``runs`` runs per
        group; its spread for :func:`runs_needed` is the interval's normal equivalent."""
        se = (hi - lo) / (2 * float(stats.norm.ppf(0.5 + LEVEL / 2)))
        return cls(float(value), se, math.inf, runs, se * math.sqrt(runs), None, (float(lo), float(hi)))

    @classmethod
    def median_of(cls, x: Sequence[float], level: float = LEVEL) -> Estimate:
        """The median of runs x with its distribution-free interval [x₍ⱼ₎, x₍ᵣ₊₁₋ⱼ₎]
        (order statistics of the r sorted runs, j the largest index whose coverage
        1 − 2·P(Binomial(r, ½) ≤ j − 1) is at least ``level``; e.g. [x₍₂₎, x₍₉₎] for 10 runs).

        Robust to a few runs disturbed by something else (a timing slowed down by another
        job). With fewer than 6 runs no such interval reaches 95 %: the estimate is then
        undecidable. Its spread for :func:`runs_needed` is the interval's normal equivalent.
        """
        a = np.sort(_finite(x))
        r = len(a)
        value = float(np.median(a)) if r else math.nan
        j = 0
        while j + 1 <= r // 2 and 1 - 2 * float(stats.binom.cdf(j, r, 0.5)) >= level:
            j += 1
        if j == 0:
            return cls(value, math.nan, math.nan, r, math.nan)
        lo, hi = float(a[j - 1]), float(a[r - j])
        se = (hi - lo) / (2 * float(stats.norm.ppf(0.5 + level / 2)))
        return cls(value, se, math.inf, r, se * math.sqrt(r), None, (lo, hi))

    @classmethod
    def average(cls, parts: Sequence[Estimate]) -> Estimate:
        """The mean of independent estimates (e.g. one difference per data set): standard
        error √(Σ seᵢ²)/p and Welch–Satterthwaite degrees of freedom (Σ seᵢ²)²/Σ(seᵢ⁴/dofᵢ)."""
        if not parts:
            return cls(math.nan, math.nan, math.nan, 0, math.nan)
        p = len(parts)
        value = float(np.mean([e.value for e in parts]))
        runs = min(e.runs for e in parts)
        v = [e.se**2 for e in parts]
        if not all(math.isfinite(x) for x in v):
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
        """The two-sided interval's multiplier: t_{dof} (or z) at 1 − (1 − level)/2."""
        p = 0.5 + level / 2
        return float(stats.norm.ppf(p) if not math.isfinite(self.dof) else stats.t.ppf(p, self.dof))

    def interval(self, level: float = LEVEL) -> tuple[float, float]:
        """(lo, hi); the point itself when the spread is unknown (a single run)."""
        if self.bounds is not None:
            return self.bounds
        if self.successes is not None and self.runs > 0:
            a, k, n = 1 - level, self.successes, self.runs
            lo = float(stats.beta.ppf(a / 2, k, n - k + 1)) if k > 0 else 0.0
            hi = float(stats.beta.ppf(1 - a / 2, k + 1, n - k)) if k < n else 1.0
            return lo, hi
        if not math.isfinite(self.se):
            return self.value, self.value
        h = self.quantile(level) * self.se
        return self.value - h, self.value + h

    @property
    def decidable(self) -> bool:
        """Whether an interval exists (at least two runs, or a known standard error)."""
        if self.successes is not None:
            return self.runs > 0
        return math.isfinite(self.value) and math.isfinite(self.se)

    def tail(self, boundary: float, side: str) -> float:
        """One-sided p-value against ``boundary``: ``side`` "above" is the evidence that the
        true value exceeds it (P(T ≥ (value − b)/se) under value = b), "below" the mirror.

        A proportion uses the exact binomial tail (dual to Clopper–Pearson: the interval's
        lower end exceeds b exactly when P(Bin(r, b) ≥ successes) < (1 − level)/2); an
        interval given directly (bootstrap, order statistics) uses the normal equivalent of
        the half-interval on the boundary's side, so that the p-value crosses (1 − LEVEL)/2
        exactly where the interval does (the lower half for "above", whose pass needs the
        interval's lower end beyond b; the upper half for "below"). nan when undecidable.
        """
        if not self.decidable or not math.isfinite(boundary):
            return math.nan
        if self.successes is not None:
            k, r = self.successes, self.runs
            b = min(max(boundary, 0.0), 1.0)
            return float(stats.binom.sf(k - 1, r, b) if side == "above" else stats.binom.cdf(k, r, b))
        gap = self.value - boundary
        if self.bounds is not None:
            lo, hi = self.bounds
            half = (self.value - lo) if side == "above" else (hi - self.value)
            se, dof = half / float(special.ndtri(0.5 + LEVEL / 2)), math.inf
        else:
            se, dof = self.se, self.dof
        if se == 0.0:
            return 0.0 if (gap > 0) == (side == "above") and gap != 0 else 1.0
        z = gap if side == "below" else -gap  # the lower tail at ∓(value − b)/se
        return float(special.ndtr(z / se) if not math.isfinite(dof) else special.stdtr(dof, z / se))

    def text(self, digits: int = 3, level: float = LEVEL) -> str:
        lo, hi = self.interval(level)
        if not self.decidable:
            return f"{_g(self.value, digits)} (no interval: {self.runs} run)"
        return f"{_g(self.value, digits)} [{_g(lo, digits)}, {_g(hi, digits)}]"


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
    runs_needed: int | None = None  # inconclusive only: runs per arm that would decide
    p_pass: float = math.nan
    p_fail: float = math.nan
    against: bool = False
    level: float = LEVEL

    @property
    def text(self) -> str:
        s = f"{self.estimate.text(level=self.level)} ({_pct(self.level)} CI), claim {self.claim}"
        if self.status == INCONCLUSIVE:
            s += f"; undecided: {self.undecided_text}"
        return s

    @property
    def undecided_text(self) -> str:
        if self.against:
            return f"the estimate points against the claim ({self.estimate.runs} runs)"
        return _runs_text(self.runs_needed, self.estimate.runs)


def _decision(est: Estimate, claim: str, p_pass: float, p_fail: float, boundary: float,
              on_claim_side: bool, level: float) -> Decision:
    """Status from the two p-values (a failure wins when both hold: an effect shown to lie
    below the smallest one that counts is not the claimed effect, however sure its sign)."""
    alpha = 1 - level
    if math.isfinite(p_fail) and p_fail < alpha:
        return Decision(FAIL, est, claim, None, p_pass, p_fail, not on_claim_side, level)
    if math.isfinite(p_pass) and p_pass < alpha:
        return Decision(PASS, est, claim, None, p_pass, p_fail, False, level)
    needed = runs_needed(est, boundary, level) if on_claim_side and est.decidable else None
    return Decision(INCONCLUSIVE, est, claim, needed, p_pass, p_fail, est.decidable and not on_claim_side, level)


def at_least(est: Estimate, bound: float, level: float = LEVEL) -> Decision:
    """The claim value ≥ bound: pass above, fail below, inconclusive across."""
    return _decision(est, f"≥ {_g(bound)}", 2 * est.tail(bound, "above"), 2 * est.tail(bound, "below"),
                     bound, est.value > bound, level)


def at_most(est: Estimate, bound: float, level: float = LEVEL) -> Decision:
    """The claim value ≤ bound."""
    return _decision(est, f"≤ {_g(bound)}", 2 * est.tail(bound, "below"), 2 * est.tail(bound, "above"),
                     bound, est.value < bound, level)


def exceeds(est: Estimate, smallest: float, level: float = LEVEL, sign: float = 1.0) -> Decision:
    """The claim "value > 0, by at least the smallest effect that counts" (a rise, a win);
    ``sign`` −1: "value < 0, by at least ``smallest``" (a fall).

    Pass: the interval lies beyond 0 on the claim's side (the effect is there) and not wholly
    short of ``smallest``. Fail: it lies short of ±``smallest`` (any effect is smaller than
    the least that would count: a null effect is decided, not left "inconclusive" for ever);
    a failure wins when both hold. So the design point for power is the smallest effect that
    counts, and a true effect between 0 and ``smallest`` is heading for a failure once the
    runs resolve it: an estimate nearer 0 than ``smallest`` (below ``smallest``/2, where the
    interval leaves ``smallest`` before it leaves 0) points against the claim and is promised
    no runs; above it, "runs needed" counts the runs to leave 0. A zero ``smallest`` is
    refused: it would make a null effect undecidable.
    """
    if not smallest > 0:
        raise ValueError(f"the smallest effect that counts must be > 0, got {smallest}")
    up = sign > 0
    edge = smallest if up else -smallest
    side, other = ("above", "below") if up else ("below", "above")
    on_side = est.value > smallest / 2 if up else est.value < -smallest / 2
    claim = f"{'>' if up else '<'} 0, by at least {_g(smallest)}"
    return _decision(est, claim, 2 * est.tail(0.0, side), 2 * est.tail(edge, other), 0.0, on_side, level)


def within(est: Estimate, lo: float, hi: float, level: float = LEVEL) -> Decision:
    """The claim lo ≤ value ≤ hi (equivalence: two one-sided tests; a failure when the
    interval lies wholly outside [lo, hi])."""
    p_pass = 2 * max(est.tail(lo, "above"), est.tail(hi, "below"))
    p_fail = 2 * min(est.tail(hi, "above"), est.tail(lo, "below"))
    inside = lo < est.value < hi
    boundary = lo if abs(est.value - lo) < abs(est.value - hi) else hi  # the nearer one decides
    return _decision(est, f"in [{_g(lo)}, {_g(hi)}]", p_pass, p_fail, boundary, inside, level)


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


def look_level(look: int, level: float = LEVEL) -> float:
    """The confidence level of look ``look`` (1, 2, …) of a sequential decision.

    Alpha spending over looks with α_j = α/(j(j + 1)), which sums to α over any number of
    looks (α/2 at the first, α/6 at the second, α/12 at the third, …): by the union bound
    the probability that any look makes a false decision is at most α, whatever rule
    decides when to look again and however many runs each look adds — a conservative
    group-sequential design that needs no independence between looks and no fixed maximum.
    An entry judged once, without ``--decide``, is the fixed design at level α itself; an
    entry under the sequential design is judged at look j with level 1 − α_j, its first
    look included.
    """
    if look < 1:
        raise ValueError(f"look must be ≥ 1, got {look}")
    return 1.0 - (1 - level) / (look * (look + 1))


def runs_needed(est: Estimate, boundary: float, level: float = LEVEL) -> int | None:
    """Smallest r with t_{r−1}·unit_sd/√r < |value − boundary| (None: never, or no spread);
    for a proportion, the smallest r whose exact interval at the same share excludes it
    (found by doubling and bisection)."""
    gap = abs(est.value - boundary)
    if est.successes is not None:
        if not math.isfinite(gap) or gap == 0.0:
            return None

        def decides(r: int) -> bool:
            lo, hi = Estimate.proportion(round(est.value * r), r).interval(level)
            return not lo <= boundary <= hi

        lo_r, hi_r = max(2, est.runs), max(2, est.runs)
        while not decides(hi_r):  # doubling, then bisection (the exclusion is monotone in r
            lo_r, hi_r = hi_r, hi_r * 2  # but for the rounding of the count)
            if hi_r > MAX_RUNS:
                return None
        while hi_r - lo_r > 1:
            mid = (lo_r + hi_r) // 2
            lo_r, hi_r = (lo_r, mid) if decides(mid) else (mid, hi_r)
        return hi_r if not decides(lo_r) else lo_r
    s = est.unit_sd
    if not (math.isfinite(gap) and math.isfinite(s)) or gap == 0.0:
        return None
    if s == 0.0:
        return max(2, est.runs)
    p = 0.5 + level / 2
    z = float(stats.norm.ppf(p))
    r = max(2, math.ceil((z * s / gap) ** 2))  # t > z: the normal estimate is a lower bound
    while r <= MAX_RUNS and float(stats.t.ppf(p, r - 1)) * s / math.sqrt(r) >= gap:
        r += 1
    return r if r <= MAX_RUNS else None


def _runs_text(r: int | None, have: int) -> str:
    if r is None:
        return f"the interval straddles the boundary; no number of runs decides it at the observed value ({have} runs)"
    return f"about {r} runs per arm would decide it ({have} now)"


def _pct(level: float) -> str:
    return f"{100 * level:.4g}%"


def _finite(x: Sequence[float]) -> np.ndarray:
    a = np.asarray(x, dtype=float)
    return a[np.isfinite(a)]


def _g(x: float, digits: int = 3) -> str:
    return "—" if x is None or not math.isfinite(x) else f"{x:.{digits}g}"
