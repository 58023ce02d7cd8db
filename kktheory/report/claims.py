"""Checks declared before the data: the claim's shape, its margin and why, its selections.

A catalogue entry (and a user's claim file) judges a paper's claim with checks that are
*data*, fixed before any row is read: a :class:`Rule` names the quantity estimated, the
claim's shape, the margin with a one-sentence justification and its source, every
selection made in advance (which s, which m), and the :class:`Design` under which its
power and size are computed by simulation. Judging a rule on an estimate
(:meth:`Rule.decide`, :meth:`Rule.check`) never reads a margin or a selection from the
rows: what the rows give is only the estimate.

Shapes (each a confidence-interval test at its look's level, 95 % at look 1; :mod:`kktheory.report.decide`):

- ``at least b`` / ``at most b`` — a bound the paper states (a share ≥ 1 − δ, a ratio ≤ 1);
- ``exceeds δ`` — a rise or a win: pass when the interval lies above 0, fail when it lies
  below δ, the smallest effect that counts (``sign`` −1: a fall). A pass shows the effect's
  sign, not that it reaches δ: INDEX prints beside the power how often a true δ/2 passes;
- ``equivalent ±δ`` — "similar", "the same": the interval inside [−δ, δ] (two one-sided
  tests), fail when it lies wholly outside;
- ``plateau ±δ`` — "plateaus", "stable from": the change beyond the point inside ±δ, the
  same two-sided test (a fall is not a plateau, nor is a rise);
- ``share ≥ p`` — the share of runs (or cells) in which something holds, exact
  Clopper–Pearson interval.

A rule marked ``sanity`` holds by construction (linear algebra, a rank that makes a
method exact), one marked ``control`` locates an effect (the same comparison at equal m):
both are shown and never counted toward a verdict.

Power and size (:meth:`Rule.power`, :meth:`Rule.size`) come from the rule's design, with
the seed as the unit: a paired design is one difference per seed, a share counts seeds,
and a design whose rows nest cells in seeds draws them so (``Design.sample``, through the
judge's own estimator). Runs drawn with the claimed effect (the paper's own, or the
smallest that counts) and the design's spread must pass with probability ≥ 0.8 at the
design's run count; runs drawn with the null or reversed effect (for an equivalence or
plateau: an effect on the margin) must pass with probability ≤ 0.025, the test's nominal
one-sided error. Exact where the estimator has a closed form (:func:`exact_pass_rate`: the
t test of a paired mean, a normal estimate, a share, a median's sign test), else simulated.
``tests/test_rule_power.py`` checks every declared rule of the catalogue.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd
from scipy import integrate, special, stats

from kktheory.report.verdicts import Check
from kktheory.seeding import component_rng
from kktheory.report.decide import LEVEL, PASS, POWER, T, Decision, Estimate, at_least, at_most, exceeds, pct, within

AT_LEAST, AT_MOST, EXCEEDS, EQUIVALENT, PLATEAU, SHARE = (
    "at least", "at most", "exceeds", "equivalent", "plateau", "share")
SHAPES = (AT_LEAST, AT_MOST, EXCEEDS, EQUIVALENT, PLATEAU, SHARE)
POWER_TARGET = POWER  # a declared design must reach it at its run count
SIZE_LIMIT = (1 - LEVEL) / 2  # and pass a null or reversed effect at most this often (the one-sided 2.5 %)
REPS = 2000  # simulated replications per power or size
MOST_RUNS = 400  # runs per arm beyond which Rule.runs_for_power stops looking


@dataclass(frozen=True)
class Margin:
    """A check's margin: its value, why that value (one sentence), and where it comes from
    (a number the paper prints, its stated spread, a theorem's shape, or a stated smallest
    effect a reader would care about)."""

    value: float
    why: str
    source: str

    def __post_init__(self) -> None:
        if not self.why.strip() or not self.source.strip():
            raise ValueError("a margin needs its justification and its source")


@dataclass(frozen=True)
class Design:
    """How one run's contribution to a check's estimate is drawn in power simulations.

    ``kind``: ``welch`` (two independent arms, spreads ``sd`` = (sd_a, sd_b)), ``paired``
    (one per-run difference, ``sd`` = (sd,)), ``share`` (a count of runs that hold, each
    with probability effect), ``known`` (a normal estimate with standard error ``sd[0]``
    at ``runs`` runs, shrinking like 1/√runs; e.g. a bootstrap slope), ``median`` (per-run
    ratios, log-normal with log-spread ``sd[0]``, judged on their median). ``effect`` is
    the value under which the claim holds (the paper's own number, or the smallest effect
    that counts), ``null`` the value under which a pass would be an error; ``runs`` the
    run count per arm at which the design is judged; ``source`` says where effect and
    spread come from. ``sample``, when given, draws the rows a check reads and computes its
    estimate with the judge's own function (e.g. a share of cells each tested as the judge
    tests them).
    """

    kind: str
    effect: float
    null: float
    sd: tuple[float, ...]
    runs: int
    source: str
    sample: Callable[[np.random.Generator, float, int], Estimate] | None = field(default=None, compare=False)

    def draw(self, rng: np.random.Generator, value: float, runs: int) -> Estimate:
        """One simulated estimate with true value ``value`` from ``runs`` runs per arm
        (``sample(rng, value, runs)`` when given: what the rows would hold, turned into the
        estimate by the judge's own function, so the power is that of the test applied)."""
        if self.sample is not None:
            return self.sample(rng, value, runs)
        if self.kind == "welch":
            a = rng.normal(value, self.sd[0], runs)
            b = rng.normal(0.0, self.sd[-1], runs)
            return Estimate.difference(a, b)
        if self.kind == "paired":
            return Estimate.mean_of(rng.normal(value, self.sd[0], runs))
        if self.kind == "share":
            return Estimate.proportion(int(rng.binomial(runs, min(max(value, 0.0), 1.0))), runs)
        if self.kind == "known":
            se = self.sd[0] * math.sqrt(self.runs / runs)
            return Estimate.known(rng.normal(value, se), se)
        if self.kind == "median":
            return Estimate.median_of(np.exp(rng.normal(math.log(value), self.sd[0], runs)))
        raise ValueError(f"design kind must be welch | paired | share | known | median, got {self.kind!r}")


#: an estimate within this share of the design's effect's distance from its null (|effect − null|)
#: of its boundary sits on it: no run count decides it at the observed value (Rule._on_boundary)
ON_BOUNDARY = 0.1


@dataclass(frozen=True)
class Rule:
    """A check of a paper's claim, declared before the data (see the module docstring).

    ``quantity`` says what is estimated and how (e.g. "NMI(c = 1600) − NMI(c = 400) at
    s = 20, Welch over runs"); ``selection`` every choice fixed in advance. A rule declared
    or changed after its rows were seen carries ``fresh_from``, the first seed run after the
    declaration (on ``declared``), or ``fresh_column``, a row column that no run made before
    the declaration holds (a quantity added with it): its judge reads only those seeds, or
    only the rows that carry the column (:meth:`fresh`), and INDEX says so. ``sign`` is
    the direction of an ``exceeds`` claim (+1 a rise, −1 a fall). ``sanity`` marks a check
    that holds by construction, ``control`` a comparison shown beside the claim to locate
    an effect (e.g. the same timing at equal m); neither is counted. ``sweep`` and ``part``
    name the jobs the rule reads: a further sweep of its entry (its config; "" the entry's
    own) and the overrides picking the jobs of it that the rule reads (e.g.
    ``("yin_table2/data=dna",)``; () every job) — one more seed of those jobs is what
    deciding it costs (:func:`kktheory.reproduce.entry.check_seconds`). They say where its
    rows come from, not what it is: :func:`~kktheory.report.sequential.rules_hash` leaves
    them out.
    """

    name: str
    quantity: str
    shape: str
    margin: Margin
    design: Design | None = None
    selection: str = ""
    sanity: bool = False
    sign: float = 1.0
    control: bool = False
    fresh_from: int | None = None  # declared after rows were seen: judged on seeds ≥ this only
    kept_below: int | None = None  # with fresh_from: the seeds below this, judged before the re-declaration, kept
    fresh_column: str = ""  # declared after rows were seen, on a column added since: judged on rows holding it only
    declared: str = ""  # when (a date), for a rule declared after its rows were seen
    sweep: str = ""  # the further sweep (config) whose rows it reads; "" the entry's own
    part: tuple[str, ...] = ()  # overrides picking the jobs of that sweep it reads; () all of them
    #: the range every run's value lies in (a difference of accuracies: (−1, 1)), for planning
    #: only: an equivalence whose runs all agree has no t interval, and :meth:`check` says how
    #: many runs a re-plan needing no spread would take (it decides nothing; not in the rules' hash)
    value_range: tuple[float, float] | None = None

    @property
    def counted(self) -> bool:
        """Whether the check counts toward the verdict: sanity checks (true by construction)
        and controls (shown to say where an effect comes from, not what the paper asserts)
        are shown, never counted."""
        return not (self.sanity or self.control)

    def __post_init__(self) -> None:
        if self.shape not in SHAPES:
            raise ValueError(f"shape must be one of {SHAPES}, got {self.shape!r}")
        if self.shape in (EXCEEDS, EQUIVALENT, PLATEAU) and not self.margin.value > 0:
            raise ValueError(f"{self.name}: a {self.shape} claim needs a margin > 0, got {self.margin.value}")

    def decide(self, est: Estimate, level: float = LEVEL) -> Decision:
        """The rule's test on an estimate (the only thing the rows give)."""
        b = self.margin.value
        if self.shape in (AT_LEAST, SHARE):
            return at_least(est, b, level)
        if self.shape == AT_MOST:
            return at_most(est, b, level)
        if self.shape == EXCEEDS:
            return exceeds(est, b, level, self.sign)
        return within(est, -b, b, level)

    def check(self, est: Estimate, detail: str = "", cause: str = "", cause_detail: str = "",
              level: float = LEVEL, name: str = "", fixed: int = 0) -> Check:
        """The rule judged on ``est``: a :class:`~kktheory.report.verdicts.Check` that carries
        the rule (its margin and selection as declared, not as the rows would suggest). ``fixed``:
        of the estimate's runs, those from a sweep no look extends — its plan keeps them as they
        are and doubles the rest (:func:`~kktheory.report.decide.next_size`)."""
        decision = replace(self.decide(est, level), fixed=fixed)
        check = Check.of(name or self.name, decision, detail, cause, cause_detail, rule=self)
        if check.passed is None and check.runs_needed is None and self.value_range and est.kind == T \
                and est.runs > 1 and est.unit_sd == 0.0 and self.shape in (EQUIVALENT, PLATEAU):
            return self._without_spread(check, est)
        if check.passed is None and check.runs_needed is None and self.design is not None \
                and check.decision is not None and check.decision.toward is not None and est.decidable \
                and abs(est.value - check.decision.toward) < ON_BOUNDARY * abs(self.design.effect - self.design.null):
            return self._on_boundary(check, est)
        return check

    def _on_boundary(self, check: Check, est: Estimate) -> Check:
        """An undecided check whose estimate sits on its boundary (within :data:`ON_BOUNDARY`
        of the design's effect's distance from its null, and no run count found): at the observed value no
        run count decides it (the power there is the test's size), so its runs are planned at
        the design's effect — the claim's own value, declared before the data — with the
        observed spread, on the doubling schedule (the decision's own plan,
        :attr:`~kktheory.report.decide.Decision.planned`, at that value). The text says the plan
        is the design's, not the observed value's."""
        need, at = replace(check.decision, estimate=replace(est, value=self.design.effect)).planned
        if need is None:
            return check
        said = (f"no number of runs decides it at the observed value ({est.runs} runs), which sits on the boundary; "
                f"were the value the design's ({self.design.effect:g}, the claim's own), about {need} {est.unit} "
                f"per arm would decide it at {POWER:.0%} power at {pct(at)}, with the observed spread")
        text = check.detail.replace("the estimate points against the claim: no number", "no number").replace(
            f"no number of runs decides it at the observed value ({est.runs} runs)", said)
        return replace(check, detail=text, runs_needed=need)

    def _without_spread(self, check: Check, est: Estimate) -> Check:
        """An undecided equivalence whose runs all agree: its t test never decides while they
        agree, so the runs it names are those of the re-plan that would — a test that needs no
        spread, the Hoeffding–Bentkus bound of a mean of values in :attr:`value_range`
        (:meth:`Estimate.bounded_mean`), both ends excluded, if every further run agrees too,
        at the first look of the doubling schedule whose runs decide at that look's own level
        (the decision's own plan, :attr:`~kktheory.report.decide.Decision.planned`, on that
        estimate and both ends). The text says the price is that re-plan's, not the declared test's."""
        lo, hi = self.value_range
        bounded = Estimate.bounded_mean([est.value] * est.runs, lo, hi)
        b = self.margin.value
        need, at = replace(check.decision, estimate=bounded, toward=-b, other=b).planned  # the look they reach
        said = (f"all {est.runs} runs equal: the declared t test never decides while they agree; re-planned as a "
                f"test that needs no spread (Hoeffding–Bentkus, every run in [{lo:g}, {hi:g}]) it would decide with "
                f"about {need} runs if they all agree, judged at {pct(at)}, the level of the look of the doubling "
                f"schedule that holds them; the runs priced here" if need else "")
        text = check.detail.replace(
            f"all {est.runs} runs equal, no spread to plan from: more runs give an interval once two differ", said) \
            if said else check.detail
        return replace(check, detail=text, runs_needed=need)

    @property
    def shape_text(self) -> str:
        b = self.margin.value
        return {
            AT_LEAST: f"at least {b:.4g}", AT_MOST: f"at most {b:.4g}", SHARE: f"share ≥ {b:.4g}",
            EXCEEDS: f"{'rises / beats' if self.sign > 0 else 'falls'}: a pass shows an effect > 0, "
                     f"not that it reaches the smallest effect that counts, {b:.4g}; shown below it, a failure",
            EQUIVALENT: f"equivalent within ±{b:.4g}", PLATEAU: f"two-sided plateau within ±{b:.4g}",
        }[self.shape]

    def pass_rate(self, value: float, runs: int | None = None, reps: int = REPS, seed: int = 0,
                  level: float = LEVEL) -> float:
        """Probability that the rule passes when the true value is ``value`` and there are
        ``runs`` runs per arm (the design's run count by default): exact where the design's
        estimator has a closed form (:func:`exact_pass_rate`), else the share of ``reps``
        simulated estimates that pass (the judge's own estimator, ``Design.sample``, where given)."""
        if self.design is None:
            return math.nan
        r = self.design.runs if runs is None else runs
        exact = exact_pass_rate(self, value, r, level)
        if exact is not None:
            return exact
        rng = component_rng(seed, f"power of {self.name}")
        hits = sum(self.decide(self.design.draw(rng, value, r), level).status == PASS for _ in range(reps))
        return hits / reps

    @property
    def exact(self) -> bool:
        """Whether :meth:`pass_rate` is exact for this rule (no Monte-Carlo error)."""
        return self.design is not None and exact_pass_rate(self, self.design.effect, max(self.design.runs, 2)) is not None

    def power(self, runs: int | None = None, reps: int = REPS, seed: int = 0, level: float = LEVEL) -> float:
        """Probability of a pass under the design's effect."""
        return self.pass_rate(self.design.effect, runs, reps, seed, level) if self.design else math.nan

    def size(self, runs: int | None = None, reps: int = REPS, seed: int = 1, level: float = LEVEL) -> float:
        """Probability of a pass under the design's null (or reversed, or on-the-margin) effect."""
        return self.pass_rate(self.design.null, runs, reps, seed, level) if self.design else math.nan

    def awaiting(self, level: float = LEVEL, unit: str = "fresh seeds", where: str = "", notes: str = "",
                 p_fail: float = math.nan) -> Check:
        """This rule, declared after its rows were seen, with no run made after its declaration
        (:meth:`fresh`): undecided, with the runs per arm whose power reaches 0.8 at ``level``, the
        level of the look judging it now (:meth:`runs_for_power`), not at the 95 % its design was
        planned at — a lower bound: its fresh rows will be judged at a later look, stricter
        still, and the looks add seeds on the doubling schedule of the sweep's part, not this
        count. ``unit`` names what the runs are ("runs per n"), ``where`` the sweep that will hold
        them, ``notes`` what the rows seen before the declaration show (not judged)."""
        d = self.design
        runs = None if d is None else d.runs if math.isclose(level, LEVEL) else self.runs_for_power(level=level)
        if d is None:
            need = ""
        elif runs is None:
            need = f": more than {MOST_RUNS} {unit} would reach power 0.8 at {pct(level)}"
        else:
            need = f": {runs} {unit} reach power 0.8 at {pct(level)}" + (
                "" if math.isclose(level, LEVEL) else f" (the design's {d.runs} at 95 %)")
        return Check(self.name, None, f"no runs after the declaration ({self.declared}; {self.fresh_runs}{where})"
                     + need + (f"; {notes}" if notes else ""), cause_detail="no runs after the declaration",
                     runs_needed=runs, rule=self, p_fail=p_fail)

    def runs_for_power(self, target: float = POWER_TARGET, most: int = MOST_RUNS, reps: int = 400,
                       level: float = LEVEL) -> int | None:
        """The smallest run count (per arm) at which the power reaches ``target`` (None beyond
        ``most``): counted up one run at a time where the power is exact, else a doubling
        search then bisection, each point ``reps`` draws."""
        if self.design is None:
            return None
        if self.exact:
            return next((r for r in range(2, most + 1) if self.power(r, level=level) >= target), None)
        lo, hi = 1, 2
        while self.power(hi, reps, level=level) < target:
            lo, hi = hi, hi * 2
            if hi > most:
                return None
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if self.power(mid, reps, level=level) >= target else (mid, hi)
        return hi

    def table_row(self, runs: int | Collection[tuple[int, float]] | None, level: float = LEVEL,
                  power: bool = True) -> str:
        """A Markdown row for INDEX: name, shape, margin with why and source, selection,
        and the design with its power at ``runs`` (the rows' run count) and ``level`` — or,
        for a rule judged in several checks (one per data set), at each (runs, level) they
        were judged at, the level named where it is not ``level`` (``power`` False: the
        design only, no simulation)."""
        m = self.margin
        if self.design is None or not self.counted:
            text = ("— (sanity: holds by construction, not counted)" if self.sanity else
                    "— (control: shown, not counted)" if self.control else "—")
        else:
            d = self.design
            judged = sorted(runs) if runs and not isinstance(runs, int) else [(runs or d.runs, level)]
            at_runs = ", ".join(f"{self.power(r, reps=500, level=at):.2f} at {r} runs at {pct(at)}" for r, at in judged)
            text = (("" if runs else "no runs judged yet: ") + f"{at_runs} (effect {d.effect:.4g}, {d.source})"
                    if power else f"design: effect {d.effect:.4g} at {d.runs} runs ({d.source})")
            if power and self.shape == EXCEEDS:  # a pass shows the sign, not the size: say how often half counts
                half = self.sign * self.margin.value / 2
                r, at = judged[0]
                text += (f"; a true effect of half the smallest that counts ({half:.4g}) passes with probability "
                         f"{self.pass_rate(half, r, reps=500, level=at):.2f}" + (f" at {r} runs" if len(judged) > 1 else "")
                         + " at this look's level alone (over the looks that led to it, more often: "
                           "docs/verdicts.md)")
        selection = self.selection or "—"
        if self.kept_below is not None and self.fresh_from is not None:
            selection += (f"; re-declared {self.declared} after the rows were seen: judged on the seeds its first "
                          f"declaration preceded (seeds < {self.kept_below}) and on the runs made after the "
                          f"re-declaration (seeds ≥ {self.fresh_from})")
        elif self.fresh_from is not None or self.fresh_column:
            selection += (f"; declared {self.declared} after the rows were seen: judged only on the runs made after "
                          f"the declaration ({self.fresh_runs})")
        return (f"| {self.name} | {self.shape_text} | {m.value:.4g}: {m.why} ({m.source}) | "
                f"{selection} | {text} |")

    @property
    def fresh_runs(self) -> str:
        """Which runs were made after the declaration, in words ("" for a rule declared before its rows)."""
        return ", ".join([*([f"seeds < {self.kept_below} and ≥ {self.fresh_from}" if self.kept_below is not None else
                             f"seeds ≥ {self.fresh_from}"] if self.fresh_from is not None else []),
                          *([f"rows that hold {self.fresh_column}"] if self.fresh_column else [])])

    def fresh(self, rows: pd.DataFrame) -> pd.DataFrame:
        """The rows this rule may judge: all of them, or — for a rule declared after its rows
        were seen — only the runs made after the declaration: the seeds run after it
        (``seed ≥ fresh_from``; with ``kept_below``, the seeds below it too: those a rule whose
        selection was widened had judged before), the rows holding a value of ``fresh_column``
        (none when the rows lack the column)."""
        if self.fresh_from is not None:
            keep = rows["seed"] >= self.fresh_from
            rows = rows[keep | (rows["seed"] < self.kept_below) if self.kept_below is not None else keep]
        if self.fresh_column:
            rows = rows[rows[self.fresh_column].notna()] if self.fresh_column in rows else rows.iloc[:0]
        return rows


def _pass_region(rule: Rule, half: float) -> tuple[float, float]:
    """The values of the estimate for which ``rule`` passes, given its interval's half-width
    ``half`` (a t or normal interval: value ± half): at least b: (b + h, ∞); at most b:
    (−∞, b − h); exceeds δ (a rise): (max(h, δ − h), ∞) — above 0 and not wholly short of δ;
    a fall the mirror; equivalent / plateau ±b: (−b + h, b − h)."""
    b = rule.margin.value
    if rule.shape in (AT_LEAST, SHARE):
        return b + half, math.inf
    if rule.shape == AT_MOST:
        return -math.inf, b - half
    if rule.shape == EXCEEDS:
        return (max(half, b - half), math.inf) if rule.sign > 0 else (-math.inf, min(-half, -b + half))
    return -b + half, b - half


def exact_pass_rate(rule: Rule, value: float, runs: int, level: float = LEVEL) -> float | None:
    """The exact probability that ``rule`` passes at ``level`` with ``runs`` runs per arm
    when the true value is ``value``, for the designs whose estimator has a closed form
    (None for the others, which are simulated):

    - ``paired``: the mean of r normal per-seed differences (sd σ), t interval x̄ ± t·s/√r;
      s² = σ²·W/(r − 1), W ~ χ²_{r−1}, independent of x̄ ~ N(v, σ²/r), so
      P(pass) = ∫ [Φ((U(s) − v)√r/σ) − Φ((L(s) − v)√r/σ)]⁺ dP(W), (L, U) the pass region
      (:func:`_pass_region`) at half-width t·s/√r — one numerical integral;
    - ``known``: a normal estimate with standard error se = σ·√(R/r): the same with s fixed;
    - ``share`` (at least b): Σ_k P(Bin(r, v) = k)·[2·P(Bin(r, b) ≥ k) < α], the Clopper–Pearson pass set;
    - ``median`` (at most / at least b, log-normal runs): the sign test passes "at most b"
      when 2·P(Bin(r, ½) ≤ C) < α, C = #{runs ≥ b} ~ Bin(r, P(X ≥ b)).
    """
    d = rule.design
    if d is None or d.sample is not None or runs < 2:
        return None
    alpha = 1 - level
    if d.kind in ("paired", "known"):
        sigma = d.sd[0] if d.kind == "paired" else d.sd[0] * math.sqrt(d.runs / runs)
        sd_mean = sigma / math.sqrt(runs) if d.kind == "paired" else sigma
        if d.kind == "known":
            lo, hi = _pass_region(rule, float(stats.norm.ppf(1 - alpha / 2)) * sigma)
            return max(0.0, float(stats.norm.cdf((hi - value) / sd_mean) - stats.norm.cdf((lo - value) / sd_mean)))
        dof = runs - 1
        q = float(stats.t.ppf(1 - alpha / 2, dof))

        log_c = -0.5 * dof * math.log(2.0) - math.lgamma(0.5 * dof)  # χ²_dof density's constant

        def given(w: float) -> float:  # P(pass | W = w) times W's density (special's ufuncs: scalar speed)
            lo, hi = _pass_region(rule, q * sigma * math.sqrt(w / dof) / math.sqrt(runs))
            if not lo < hi or w <= 0.0:
                return 0.0
            density = math.exp((0.5 * dof - 1.0) * math.log(w) - 0.5 * w + log_c)
            return float(special.ndtr((hi - value) / sd_mean) - special.ndtr((lo - value) / sd_mean)) * density

        edges = stats.chi2.ppf([0.0, 1e-12, 0.01, 0.1, 0.5, 0.9, 0.99, 1 - 1e-12], dof)
        total = sum(integrate.quad(given, a, b, limit=200, epsabs=1e-10)[0] for a, b in zip(edges[:-1], edges[1:]))
        return min(1.0, max(0.0, total))
    if d.kind == "share" and rule.shape in (SHARE, AT_LEAST):
        k = np.arange(runs + 1)
        b = min(max(rule.margin.value, 0.0), 1.0)
        passes = 2 * stats.binom.sf(k - 1, runs, b) < alpha
        return float(stats.binom.pmf(k, runs, min(max(value, 0.0), 1.0))[passes].sum())
    if d.kind == "median" and rule.shape in (AT_MOST, AT_LEAST):
        b = rule.margin.value
        beyond = float(stats.norm.sf((math.log(b) - math.log(value)) / d.sd[0]))  # P(X ≥ b)
        p = beyond if rule.shape == AT_MOST else 1 - beyond  # runs on the wrong side of b
        c = np.arange(runs + 1)
        passes = 2 * stats.binom.cdf(c, runs, 0.5) < alpha
        return float(stats.binom.pmf(c, runs, p)[passes].sum())
    return None


RULES_HEADER = ("| check | claim's shape | margin: why (source) | selection fixed in advance | "
                "power at the rows' run count |\n|---|---|---|---|---|")


def rules_table(rules: Sequence[Rule], runs: Mapping[str, int | Collection[tuple[int, float]]] | None = None,
                level: float = LEVEL, power: bool = True) -> str:
    """The declared checks of an entry as a Markdown table, with each check's power at the
    rows' run count (``runs`` by rule name: a count, or the (runs, level) of each check that
    applied the rule; the design's own count where absent) and level (``power`` False: the
    designs only)."""
    if not rules:
        return ""
    runs = runs or {}
    header = RULES_HEADER if power else RULES_HEADER.replace("power at the rows' run count", "power design")
    counted = [r for r in rules if r.counted]
    lines = [header, *(r.table_row(runs.get(r.name), level, power) for r in counted)]
    for title, group in (("Sanity checks (true by construction; shown, not counted):", [r for r in rules if r.sanity]),
                         ("Controls (shown, not counted):", [r for r in rules if r.control and not r.sanity])):
        if group:
            lines += ["", title, "", header, *(r.table_row(runs.get(r.name), level, power) for r in group)]
    return "\n".join(lines)
