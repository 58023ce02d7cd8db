"""Judge your own claim like the catalogue judges the papers': one claim file, one command.

    python -m kktheory.judge CLAIM.yaml [--results-dir R] [--out DIR] [--no-run] [--exit-zero]

1. The claim file is read and validated (:mod:`kktheory.judge.claimfile`); a mistake ends with
   one line naming the field, the value and what is allowed, exit status 2, nothing written. So
   does a column of the claim that no job of its sweep writes, where the row schema's words tell
   it from the jobs' configs (:func:`kktheory.judge.carried.check_jobs`: e.g. a column only
   rank-restricted sketches write, in a sweep of Nyström runs).
2. The claim's sweep — an experiments/ config and/or overrides, composed as ``python run.py
   [--config-dir experiments --config-name NAME] -m OVERRIDES`` would — runs the jobs whose
   rows the store lacks (:func:`kktheory.reproduce.sweep.run_sweep`, resumable: an interrupted
   judge run continues where it stopped; ``--no-run`` judges only what is stored). A column of
   the claim of which no finished run holds a value ends there, before anything is drawn or
   written, the same way (:func:`kktheory.judge.carried.check_rows`).
3. The rows are filtered, grouped and judged (:func:`judge_rows`): each check is a
   :class:`~kktheory.report.claims.Rule` (shape, margin with its justification and source,
   the selection, the power design) applied to an :class:`~kktheory.report.decide.Estimate`
   by :meth:`Rule.check`, and the checks are one family
   (:func:`~kktheory.report.verdicts.judge_checks`: *reproduced* when all pass, *not
   reproduced* when a failure survives Holm's correction, else *inconclusive*) — the same
   code as the catalogue's entries; a rate is fitted by the catalogue's own
   :func:`kktheory.report.theory.rate_estimate`.
4. It writes ``DIR/<name>.png`` and ``.pdf`` (the rows with 95 % intervals over seeds and
   what the claim compares them with) and ``DIR/<name>.md``, an INDEX-style section (claim,
   the declared checks with margin and power, observed numbers, verdict, cause, command;
   :func:`kktheory.report.index.render_index`), and prints one line:
   ``<name>: <verdict> — <the checks in brief>``. DIR defaults to ``R/claims``.

Exit status: the verdict, for CI — 0 reproduced, 1 not reproduced, 3 inconclusive (or not run:
no finished run to judge); 2 for a bad claim file or argument, or a column the claim's rows do
not hold (one line, nothing written). With --exit-zero, 0 after any verdict (for the report
alone); 2 stays 2.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from kktheory.evaluation.bounds.theory import (
    RateFit,
    calandriello_thm1_shape,
    shape_slope,
    yin_thm2_shape,
)
from kktheory.judge.carried import check_jobs, check_rows
from kktheory.judge.claimfile import (
    AT_LEAST,
    AT_MOST,
    BOUND,
    EQUIVALENT,
    PLATEAU,
    RATE,
    Claim,
    ClaimError,
    load_claim,
    x_values_of_jobs,
)
from kktheory.errors import UserError
from kktheory.report import claims as rc
from kktheory.report.claims import Design, Margin, Rule, rules_table
from kktheory.report.verdicts import (
    INCONCLUSIVE,
    NOT_REPRODUCED,
    NOT_RUN,
    REPRODUCED,
    Check,
    Verdict,
    judge_checks,
    not_run,
)
from kktheory.report.rows import ok_rows
from kktheory.report.stats import fmt
from kktheory.report.decide import Estimate
from kktheory.report.theory import share_check

_RULE_SHAPE = {AT_LEAST: rc.AT_LEAST, AT_MOST: rc.AT_MOST, EQUIVALENT: rc.EQUIVALENT, PLATEAU: rc.PLATEAU,
               RATE: rc.AT_MOST, BOUND: rc.SHARE}
#: the exit status of each verdict (module docstring); a bad claim or argument exits 2
EXIT_STATUS = {REPRODUCED: 0, NOT_REPRODUCED: 1, INCONCLUSIVE: 3, NOT_RUN: 3}
THEOREM_TEXT = {"calandriello_thm1": "k/√n + kγ/n (Calandriello & Rosasco 2018, Thm 1)",
                "yin_thm2": "√(k/n)·log²√n (Yin et al. 2022, Thm 2)"}


@dataclass
class Judged:
    """A claim judged on rows: the verdict, the rules behind its checks, the runs behind
    each, and what the figure draws beyond the rows (fitted rates, theorem slopes)."""

    verdict: Verdict
    rules: list[Rule] = field(default_factory=list)
    runs: dict[str, int] = field(default_factory=dict)
    fits: dict[str, RateFit] = field(default_factory=dict)
    slopes: dict[str, float] = field(default_factory=dict)
    rows: pd.DataFrame = field(default_factory=pd.DataFrame)


def select_rows(claim: Claim, rows: pd.DataFrame) -> pd.DataFrame:
    """The finished runs that pass the claim's filter and have x and y (none: an empty frame
    of the claim's columns); a column of the claim that no finished run holds is a ClaimError
    (:func:`~kktheory.judge.carried.check_rows`)."""
    d = ok_rows(rows)
    if d.empty:
        return pd.DataFrame(columns=list(claim.fields))
    check_rows(claim, d)
    for col, values in claim.filter:
        d = d[d[col].isin(values) | d[col].astype(str).isin([str(v) for v in values])]
    return d.dropna(subset=[claim.x, claim.y])


def _groups(claim: Claim, d: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    if not claim.by:
        return [("all rows", d)]
    return [(str(g), sub) for g, sub in d.groupby(claim.by, sort=True)]


def _design(claim: Claim, kind: str, null: float, runs: int, default: Design | None = None) -> Design | None:
    """The file's power design (``kind`` of this check), else ``default``."""
    if claim.design is None:
        return default
    d = claim.design
    return Design(kind, d.effect, null, (d.sd,), d.runs or max(runs, 2), d.source)


def theorem_slope(claim: Claim, d: pd.DataFrame) -> float:
    """The log–log slope of the claim's rate shape over the rows' x values (OLS of log
    shape on log x, :func:`~kktheory.evaluation.bounds.theory.shape_slope`), the other variables at
    their median over the rows at each x (e.g. k, γ = ``gamma_value``)."""
    xs = np.unique(d[claim.x].to_numpy(float))
    med = d.groupby(claim.x)

    def at_x(col: str) -> np.ndarray:
        return med[col].median().reindex(xs).to_numpy(float)

    if claim.against == "yin_thm2":
        shape = yin_thm2_shape(xs, at_x("k"))
    elif claim.against == "calandriello_thm1":
        gamma = at_x("gamma_value") if "gamma_value" in d else np.sqrt(xs)
        shape = calandriello_thm1_shape(xs, at_x("k"), gamma)
    else:
        expr = claim.expression
        values = {n: xs if c == claim.x else at_x(c) for n, c in zip(expr.names, expr.columns)}
        shape = np.broadcast_to(expr.evaluate(values), xs.shape)
    if not (np.all(np.isfinite(shape)) and np.all(shape > 0)):
        raise ClaimError("against", claim.against, "a shape that is finite and positive at every x of the rows")
    return shape_slope(shape, xs)


def _rate_checks(claim: Claim, d: pd.DataFrame, out: Judged) -> list[Check]:
    from kktheory.report.theory import rate_estimate

    m = claim.margin
    checks = []
    xs = np.unique(d[claim.x].to_numpy(float))
    slope = theorem_slope(claim, d) if len(xs) >= 2 else math.nan
    shape = THEOREM_TEXT.get(claim.against, claim.against)
    for name, sub in _groups(claim, d):
        res = rate_estimate(sub[claim.x].to_numpy(float), sub[claim.y].to_numpy(float), level=claim.level,
                            seeds=sub["seed"].to_numpy() if "seed" in sub else None)
        per_x = int(sub[claim.x].value_counts().median())
        est = res[0] if res else None
        default = None
        if est is not None and math.isfinite(slope):
            default = Design("known", round(slope, 4), round(slope + m.value, 4), (round(est.se, 5),), per_x,
                             f"effect: the shape's slope itself (the bound met exactly); bootstrap standard error "
                             f"{est.se:.3g} of b observed at {per_x} runs per x, shrinking like 1/√runs")
        rule = Rule(
            f"rate of {name}" if claim.by else "rate",
            f"fitted exponent b of the mean {claim.y} ≈ a·{claim.x}^b, every run kept; studentised bootstrap "
            f"interval", rc.AT_MOST,
            Margin(round(slope + m.value, 4) if math.isfinite(slope) else m.value,
                   f"the shape's slope over the rows' {claim.x} ({fmt(slope, 3)}) + {m.value:g}: {m.why}", m.source),
            _design(claim, "known", round(slope + m.value, 4), per_x, default),
            selection=_selection(claim, name))
        out.rules.append(rule)
        out.runs[rule.name] = per_x
        if res is None:
            checks.append(Check(rule.name, None, f"the decay could not be fitted ({len(np.unique(sub[claim.x]))} "
                                                 f"values of {claim.x}; a rate needs ≥ 3)", rule=rule))
            continue
        out.fits[name] = res[1]
        out.slopes[name] = slope
        detail = (f"fitted b over {claim.x} = {fmt(sub[claim.x].min())}–{fmt(sub[claim.x].max())}, all "
                  f"{res[1].runs} runs ({per_x} per {claim.x}); the shape {shape} has slope {fmt(slope, 3)} there, "
                  f"margin {m.value:g}")
        checks.append(rule.check(est, detail, level=claim.level))
    return checks


def _selection(claim: Claim, group: str, extra: str = "") -> str:
    parts = [f"{claim.by} = {group}" if claim.by else "all rows"]
    parts += [f"{c} ∈ {{{', '.join(map(str, v))}}}" for c, v in claim.filter]
    parts += [extra] if extra else []
    return "; ".join(parts)


def _x_text(claim: Claim, x: float) -> str:
    return f"{claim.x} = {fmt(x)}"


def per_seed(rows: pd.DataFrame, y: str) -> pd.Series | str:
    """Each seed's value of ``y`` in ``rows`` (one cell): the seed is the unit — the rows of a
    seed share its data draw and its sketch stream, so they are not independent runs. A
    reason (str) where a seed has more than one row (the cell is not one run per seed)."""
    d = rows.dropna(subset=[y])
    if d["seed"].duplicated().any():
        return (f"{int(d['seed'].duplicated().sum())} seed(s) with more than one row in the cell: the rows are not "
                "one run per seed (narrow the claim's filter to one setting per seed)")
    return d.set_index("seed")[y].astype(float)


def _level_checks(claim: Claim, d: pd.DataFrame, out: Judged) -> list[Check]:
    """at_least / at_most / equivalent: one check per group and x value, over seeds (against
    a reference: the difference paired by seed, on the seeds both ran)."""
    m = claim.margin
    checks = []
    xs = sorted(d[claim.x].unique())
    if claim.at:
        xs = [x for x in xs if any(np.isclose(float(x), a) for a in claim.at)]
    ref = d[d[claim.by].astype(str) == claim.reference] if claim.reference else None
    for name, sub in _groups(claim, d):
        if claim.reference and name == claim.reference:
            continue
        for x in xs:
            a = per_seed(sub[sub[claim.x] == x], claim.y)
            b = per_seed(ref[ref[claim.x] == x], claim.y) if claim.reference else None
            if claim.reference:
                what = f"mean over seeds of {claim.y} of {name} − {claim.reference}, paired by seed (Student t)"
            else:
                what = f"mean {claim.y}" + (f" − {claim.target:g}" if claim.shape == EQUIVALENT and claim.target
                                             else "") + " over seeds (Student t)"
            rule = Rule(f"{name} at {_x_text(claim, x)}" if claim.by else _x_text(claim, x), what,
                        _RULE_SHAPE[claim.shape], Margin(m.value, m.why, m.source),
                        _design(claim, "paired", m.value, len(a) if not isinstance(a, str) else 0),
                        selection=_selection(claim, name, _x_text(claim, x)))
            out.rules.append(rule)
            bad = next((r for r in (a, b) if isinstance(r, str)), None)
            if bad is not None:
                checks.append(Check(rule.name, None, bad, cause_detail="rows not one per seed", rule=rule))
                continue
            if claim.reference:
                both = a.index.intersection(b.index)
                est, said = Estimate.paired(a[both], b[both]), f"{len(both)} seeds paired"
            else:
                est = Estimate.mean_of(a.to_numpy() - (claim.target if claim.shape == EQUIVALENT else 0.0))
                said = f"{len(a)} seeds"
            out.runs[rule.name] = est.runs
            if est.runs:
                checks.append(rule.check(est, said, level=claim.level))
    return checks


def _plateau_checks(claim: Claim, d: pd.DataFrame, out: Judged) -> list[Check]:
    """Beyond the point: y(largest x) − y(beyond), paired by seed, inside ±margin; one per group."""
    m = claim.margin
    checks = []
    for name, sub in _groups(claim, d):
        xs = np.sort(sub[claim.x].unique())
        start = xs[0] if claim.beyond is None else next((x for x in xs if x >= claim.beyond), None)
        last = xs[-1]
        rule = Rule(f"plateau of {name}" if claim.by else "plateau",
                    f"mean over seeds of {claim.y} at the largest {claim.x} − at the point, paired by seed "
                    f"(Student t)", rc.PLATEAU, Margin(m.value, m.why, m.source), _design(claim, "paired", m.value, 0),
                    selection=_selection(claim, name, f"from {claim.x} = {fmt(start) if start is not None else '—'} "
                                                      f"to {fmt(last)}"))
        out.rules.append(rule)
        if start is None or start == last:
            checks.append(Check(rule.name, None, f"fewer than two values of {claim.x} beyond the point", rule=rule))
            continue
        a, b = per_seed(sub[sub[claim.x] == last], claim.y), per_seed(sub[sub[claim.x] == start], claim.y)
        bad = next((r for r in (a, b) if isinstance(r, str)), None)
        if bad is not None:
            checks.append(Check(rule.name, None, bad, cause_detail="rows not one per seed", rule=rule))
            continue
        both = a.index.intersection(b.index)
        est = Estimate.paired(a[both], b[both])
        out.runs[rule.name] = est.runs
        checks.append(rule.check(est, f"{claim.x} = {fmt(start)} → {fmt(last)}, {len(both)} seeds paired",
                                 level=claim.level))
    return checks


def bound_values(claim: Claim, d: pd.DataFrame) -> np.ndarray:
    """The bound of each row: its bound column, or the formula on its columns."""
    if claim.bound_column:
        return d[claim.bound_column].to_numpy(float)
    return np.broadcast_to(claim.expression.on_rows(d), (len(d),)).astype(float)


def _bound_checks(claim: Claim, d: pd.DataFrame, out: Judged) -> list[Check]:
    """Share of seeds in which y ≤ bound at every value of x, ≥ margin (Clopper–Pearson over
    seeds; a failure stands where some x's own share is shown below it, Bonferroni over the
    x: :func:`kktheory.report.theory.share_check`); observed/bound beside it."""
    m = claim.margin
    checks = []
    what = claim.bound_column or claim.expression.text
    for name, sub in _groups(claim, d):
        bound = bound_values(claim, sub)
        obs = sub[claim.y].to_numpy(float)
        ok = np.isfinite(bound)
        seeds = int(sub.loc[ok, "seed"].nunique())
        effect = round(1 - (1 - m.value) / 10, 6)
        rule = Rule(f"bound for {name}" if claim.by else "bound",
                    f"share of seeds in which {claim.y} ≤ {what} at every {claim.x} (exact Clopper–Pearson interval "
                    f"over seeds)", rc.SHARE, Margin(m.value, m.why, m.source),
                    _design(claim, "share", m.value, seeds,
                            Design("share", effect, m.value, (), max(seeds, 2),
                                   f"planning value: the bound failing in a tenth of the seeds it may fail in "
                                   f"({effect:g}); null: exactly {m.value:g}")),
                    selection=_selection(claim, name))
        out.rules.append(rule)
        out.runs[rule.name] = seeds
        if not seeds:
            checks.append(Check(rule.name, None, "no run with a finite bound", rule=rule))
            continue
        ratio = np.median(obs[ok] / bound[ok])
        holds = pd.Series(np.where(ok, obs <= bound, np.nan), index=sub.index)
        checks.append(share_check(rule, sub, holds, claim.x, f"observed/bound median {fmt(ratio, 3)}",
                                  claim.level))
    return checks


def judge_rows(claim: Claim, rows: pd.DataFrame) -> Judged:
    """The claim judged on the rows (a pure function of them; module docstring)."""
    d = select_rows(claim, rows)
    out = Judged(not_run("no row"), rows=d)
    if d.empty:
        out.verdict = not_run(f"no finished run with {claim.x} and {claim.y} passes the filter")
        return out
    build = {RATE: _rate_checks, PLATEAU: _plateau_checks, BOUND: _bound_checks}.get(claim.shape, _level_checks)
    checks = build(claim, d, out)
    observed = f"{len(d)} runs, {d[claim.x].nunique()} values of {claim.x}" + (
        f", {d[claim.by].nunique()} groups by {claim.by}" if claim.by else "")
    out.verdict = judge_checks(checks, observed, claim.level) if checks else not_run("no check could be evaluated")
    return out


# -- the figure ---------------------------------------------------------------------------------
def draw(claim: Claim, judged: Judged, out_dir: Path) -> list[Path]:
    """The rows (mean ± 95 % CI over runs per group and x, runs per point) and what the claim
    compares them with: the fitted a·xᵇ and the theorem's shape (rate, log–log), the margin
    (at_least / at_most / equivalent), the point (plateau), observed/bound (bound)."""
    from kktheory.plot import draw_groups
    from kktheory.report.style import color_marker, pyplot, save_figure

    plt = pyplot()
    d = judged.rows
    m = claim.margin
    panels = 2 if claim.shape == BOUND else 1
    fig, axes = plt.subplots(1, panels, figsize=(7.2 * panels, 4.8), squeeze=False)
    ax = axes[0, 0]
    rate = claim.shape == RATE
    agg = draw_groups(ax, d, claim.x, claim.y, claim.by, logx=rate, logy=rate, level=claim.level)
    if rate and len(d):
        xs = np.geomspace(float(d[claim.x].min()), float(d[claim.x].max()), 60)
        for i, (name, fit) in enumerate(judged.fits.items()):
            color, _ = color_marker(name, i)
            curve = fit.scale * xs ** fit.slope
            ax.plot(xs[curve > 0], curve[curve > 0], color=color, lw=0.8, alpha=0.7,
                    label=f"{name}: b = {fit.slope:.2f} [{fit.ci_low:.2f}, {fit.ci_high:.2f}]")
        if judged.slopes:
            slope = next(iter(judged.slopes.values()))
            top = float(agg["mean"].max()) if (agg["mean"] > 0).any() else 1.0
            ax.plot(xs, top * (xs / xs[0]) ** slope, color="0.3", ls="--", lw=1,
                    label=f"{THEOREM_TEXT.get(claim.against, claim.against)}: slope {slope:.2f} (scaled)")
    elif claim.shape in (AT_LEAST, AT_MOST) and not claim.reference:
        ax.axhline(m.value, color="black", lw=1.2, ls="--", label=f"claim: {claim.shape.replace('_', ' ')} {m.value:g}")
    elif claim.shape == EQUIVALENT and not claim.reference:
        ax.axhspan(claim.target - m.value, claim.target + m.value, color="0.5", alpha=0.15,
                   label=f"{claim.target:g} ± {m.value:g}")
    elif claim.shape == PLATEAU and claim.beyond is not None:
        ax.axvline(claim.beyond, color="0.35", ls=":", lw=1.2, label=f"plateau from {claim.x} = {claim.beyond:g}")
    ax.legend(fontsize=7.5, framealpha=0.85)
    ax.set_title(f"{claim.y} vs {claim.x}: mean ± {100 * claim.level:g}% CI over runs (numbers: runs)", fontsize=9.5)
    if claim.shape == BOUND and len(d):
        ax2 = axes[0, 1]
        ratio = d.assign(_ratio=d[claim.y].to_numpy(float) / bound_values(claim, d))
        draw_groups(ax2, ratio, claim.x, "_ratio", claim.by, level=claim.level)
        ax2.axhline(1.0, color="black", lw=1.2, label="observed = bound")
        ax2.set_ylabel(f"{claim.y} / {claim.bound_column or claim.expression.text}")
        ax2.legend(fontsize=7.5)
        ax2.set_title("observed / bound per run group (≤ 1: the bound holds)", fontsize=9.5)
    fig.suptitle(f"{claim.name}: {judged.verdict.status}" + (f" — {claim.text}" if claim.text else ""),
                 fontsize=10, wrap=True)
    fig.tight_layout()
    return save_figure(fig, out_dir, claim.name)


# -- the section ----------------------------------------------------------------------------------
def claim_sentence(claim: Claim) -> str:
    """The claim in words (the file's ``claim`` text, else from its shape)."""
    if claim.text:
        return claim.text
    m = claim.margin
    return {
        AT_LEAST: f"mean {claim.y} at least {m.value:g}", AT_MOST: f"mean {claim.y} at most {m.value:g}",
        EQUIVALENT: f"mean {claim.y} within {claim.target:g} ± {m.value:g}",
        PLATEAU: f"{claim.y} stays within ±{m.value:g} beyond {claim.x} = {claim.beyond}",
        RATE: f"{claim.y} decays in {claim.x} at least as fast as {THEOREM_TEXT.get(claim.against, claim.against)}",
        BOUND: f"{claim.y} ≤ {claim.bound_column or claim.against or 'the bound'} in a share ≥ {m.value:g} of runs",
    }[claim.shape]


def section(claim: Claim, judged: Judged, files: Sequence[Path], command: str, setups: Sequence[dict[str, Any]],
            out_dir: Path) -> str:
    """The INDEX-format Markdown section of the claim (:func:`~kktheory.report.index.render_index`)."""
    from kktheory.report.index import IndexRecord, render_index
    from kktheory.report.cost import compute_time
    from kktheory.reproduce.entry import describe_setup, runs_per_setting

    v = judged.verdict
    d = judged.rows
    sweep = " ".join(([f"--config-dir experiments --config-name {claim.config}"] if claim.config else [])
                     + ["-m", *claim.overrides])
    record = IndexRecord(
        name=claim.name, title=f"Your own claim ({claim.path or claim.name})", claim=claim_sentence(claim),
        status=v.status, observed=v.text,
        rule=(f"{claim.shape.replace('_', ' ')} on {claim.y} against {claim.x}"
              + (f" per {claim.by}" if claim.by else "") + f"; margin {claim.margin.value:g}: {claim.margin.why} "
              f"({claim.margin.source}); level {claim.level:g}; judged by kktheory.report.claims.Rule and "
              f"judge_checks, the catalogue's decision code"),
        scale="as the claim's sweep states", setup=describe_setup(setups) if setups else "—",
        config=claim.path or claim.name, command=command, sweep_command=f"python run.py {sweep}",
        files=[f.relative_to(out_dir).as_posix() if f.is_relative_to(out_dir) else str(f) for f in files],
        why=v.summary, runs=runs_per_setting(d) if len(d) else "", compute_s=compute_time(d) if len(d) else 0.0,
        rules=rules_table(judged.rules, judged.runs, claim.level),
        when=f"judged {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {len(d)} rows",
    )
    page = render_index({claim.name: record}, [claim.name], lambda n: "")
    return page[page.index(f"## {claim.name}"):]


def one_line(claim: Claim, verdict: Verdict) -> str:
    """``name: verdict — each check's mark, name and estimate``."""
    parts = [f"{c.mark} {c.name}: {c.detail.split(';')[0]}" for c in verdict.checks]
    return f"{claim.name}: {verdict.status}" + (f" — {' | '.join(parts)}" if parts else f" — {verdict.observed}")


# -- the command ----------------------------------------------------------------------------------
def kept_setups(claim: Claim, plan: Any) -> list[dict[str, Any]]:
    """The resolved configs of the plan's jobs whose rows the claim's filter keeps (a filter on a
    column that is not a config value keeps every job)."""
    return [j.setup for j in plan.jobs if all(j.setup.get(c) in v or str(j.setup.get(c)) in map(str, v)
                                              for c, v in claim.filter if c in j.setup)]


def plan_claim(claim: Claim, results_dir: Path) -> Any:
    """The sweep's jobs (:class:`kktheory.reproduce.plan.Plan`, composed here and not cached, so
    that a refused claim writes nothing); a column of the claim that none of the jobs the filter
    keeps writes (:func:`~kktheory.judge.carried.check_jobs`) and a rate over fewer than 3
    values of x are refused."""
    from kktheory.run.sweeps import CONFIG_DIR
    from kktheory.reproduce.plan import Plan, plan_job
    from kktheory.run.sweeps import (
        EXPERIMENTS_DIR,
        compose_jobs,
        expand_jobs,
        fixed_overrides,
        sweep_params,
    )

    name, folder = (claim.config, EXPERIMENTS_DIR) if claim.config else ("config", CONFIG_DIR)
    try:
        params = sweep_params(name, fixed_overrides(claim.overrides), folder) if claim.config else {}
        jobs = expand_jobs(name, claim.overrides, folder, params)
        cfgs = compose_jobs(name, jobs, results_dir, folder)
    except UserError:
        raise
    except Exception as exc:  # noqa: BLE001  (Hydra's and OmegaConf's composition errors: one line)
        raise ClaimError("sweep", list(claim.overrides) or claim.config,
                         f"a sweep Hydra can compose ({' '.join(str(exc).split())[:160]})") from None
    plan = Plan([plan_job(job, cfg) for job, cfg in zip(jobs, cfgs)], list(params), None, cfgs)
    kept = kept_setups(claim, plan)
    check_jobs(claim, kept)
    if claim.shape == RATE:
        xs = x_values_of_jobs(kept, claim.x)
        if xs is not None and len(xs) < 3:
            raise ClaimError("x", claim.x, f"at least 3 values of {claim.x} in the sweep for a rate (it has "
                                           f"{len(xs)}: {', '.join(fmt(x) for x in xs)})")
    return plan


def main(argv: Sequence[str] | None = None) -> int:
    from kktheory.cli import EXIT_USER_ERROR, OneLineParser

    parser = OneLineParser(prog="python -m kktheory.judge", description=__doc__.split("\n\n")[0],
                           epilog=__doc__[__doc__.index("Exit status:"):])
    parser.add_argument("claim", help="the claim file (YAML; kktheory/judge/claimfile.py documents it)")
    parser.add_argument("--results-dir", default="results", help="the results store (default results/)")
    parser.add_argument("--out", default=None, help="where the figure and the section go (default R/claims)")
    parser.add_argument("--no-run", action="store_true", help="judge the stored rows only")
    parser.add_argument("--exit-zero", action="store_true",
                        help="exit 0 after any verdict (the report alone); a bad claim still exits 2")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    results_dir = Path(args.results_dir).resolve()
    out_dir = Path(args.out).resolve() if args.out else results_dir / "claims"
    t0 = time.perf_counter()
    try:
        claim = load_claim(args.claim)
        plan = plan_claim(claim, results_dir)
    except UserError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_USER_ERROR
    from kktheory.run.sweeps import CONFIG_DIR
    from kktheory.reproduce.plan import log
    from kktheory.reproduce.sweep import run_sweep
    from kktheory.run.sweeps import EXPERIMENTS_DIR

    name, folder = (claim.config, EXPERIMENTS_DIR) if claim.config else ("config", CONFIG_DIR)
    sweep = run_sweep(name, results_dir, claim.overrides, execute=not args.no_run, log=log, plan=plan,
                      experiments_dir=folder)
    try:
        judged = judge_rows(claim, sweep.rows)
    except UserError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_USER_ERROR
    files = draw(claim, judged, out_dir)
    command = " ".join(["python -m kktheory.judge", args.claim]
                       + ([f"--results-dir {args.results_dir}"] if args.results_dir != "results" else [])
                       + ([f"--out {args.out}"] if args.out else []))
    md = out_dir / f"{claim.name}.md"
    md.write_text(section(claim, judged, files, command, sweep.setups, out_dir))
    log(f"{sweep.jobs} jobs ({sweep.ran} ran, {sweep.reused} stored, {sweep.failed} failed) in "
        f"{time.perf_counter() - t0:.1f} s; wrote {files[0]}, {files[1].name}, {md.name}")
    print(one_line(claim, judged.verdict), flush=True)
    return 0 if args.exit_zero else EXIT_STATUS[judged.verdict.status]

