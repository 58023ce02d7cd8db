"""What every paper module of the report shares.

- :class:`Verdict` and :class:`Check`: a claim rule is a pure function
  ``DataFrame → Verdict``; a verdict is made of named checks, each with the numbers
  behind it and the declared rule it applies (:mod:`kktheory.report.claims`). An entry's
  counted checks are one family (:func:`judge_checks`): *reproduced* when every one passes
  (an intersection–union test, each at its own level), *not reproduced* when a failure
  survives Holm's step-down correction over the family (family-wise error ≤ 5 %),
  *inconclusive* otherwise, and *not run* when the rows it needs are absent (with the
  reason); sanity checks (true by construction) are shown and never counted.
- Rows: the DataFrame handed to draw and judge functions holds the stored rows of the
  entry's sweep plus one pseudo-row per job that could not run, with the job's config
  columns and ``error_kind`` / ``error`` set (:func:`ok_rows`, :func:`failed_rows`).
- Confidence intervals over seeds (:func:`mean_ci`, Student t), trend and comparison
  helpers used by several claim rules.
- Plotting style and :func:`save_figure` (PNG and PDF side by side).
- The index of reproduced figures, ``paper_figs/INDEX.md``, rendered from
  ``paper_figs/index.json`` so that reproducing one entry rewrites the whole page
  without losing the other entries (:func:`update_index`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from scipy import stats

from kktheory.report.decide import FAIL, LEVEL, PASS, Decision, Estimate, holm

if TYPE_CHECKING:
    from kktheory.report.claims import Rule

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
INCONCLUSIVE = "inconclusive"
NOT_RUN = "not run"
STATUSES = (REPRODUCED, NOT_REPRODUCED, INCONCLUSIVE, NOT_RUN)

#: why a check is not reproduced (the fixed vocabulary shown in INDEX.md's "why" column)
CAUSE_SCALE = "scale"  # only a smaller scale than the paper's was run
CAUSE_STAND_IN = "stand-in data"  # the paper's data are not available here; which stand-in
CAUSE_READING = "reading"  # the paper is ambiguous; which reading was used, what the other gives
CAUSE_CLAIM = "claim fails"  # faithful method at the paper's scale: the claim does not hold
CAUSE_INCONCLUSIVE = "inconclusive"  # more runs needed (how many)
CAUSES = (CAUSE_SCALE, CAUSE_STAND_IN, CAUSE_READING, CAUSE_CLAIM, CAUSE_INCONCLUSIVE)


# -- verdicts ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Check:
    """One part of a paper's claim: whether the rows satisfy it, and the numbers.

    ``passed`` is True, False, or None for an inconclusive test (the confidence interval
    straddles the margin; ``runs_needed`` then says how many runs would decide it).
    ``cause`` says why a check that is not passed is not (one of :data:`CAUSES`, with
    ``cause_detail``); a failed check without an explicit cause is *claim fails*, which
    :func:`with_scale` turns into *scale* when the entry ran below the paper's scale.
    """

    name: str
    passed: bool | None
    detail: str
    cause: str = ""
    cause_detail: str = ""
    runs_needed: int | None = None
    rule: Rule | None = None  # the declared rule the check applies (kktheory.report.claims)
    p_fail: float = math.nan  # the failure's p-value (two-sided scale), for Holm's correction
    runs: int = 0  # runs per arm behind the estimate (the rows' run count)

    def __post_init__(self) -> None:
        if self.passed is not None:  # numpy booleans are not the singletons True / False
            object.__setattr__(self, "passed", bool(self.passed))
        if self.cause and self.cause not in CAUSES:
            raise ValueError(f"cause must be one of {CAUSES}, got {self.cause!r}")
        if self.passed is None and not self.cause:
            object.__setattr__(self, "cause", CAUSE_INCONCLUSIVE)
        elif self.passed is False and not self.cause:
            object.__setattr__(self, "cause", CAUSE_CLAIM)
        elif self.passed:
            object.__setattr__(self, "cause", "")

    @classmethod
    def of(cls, name: str, decision: Decision, detail: str = "", cause: str = "",
           cause_detail: str = "", rule: Rule | None = None) -> Check:
        """A check from a confidence-interval decision (:mod:`kktheory.report.decide`)."""
        passed = {PASS: True, FAIL: False}.get(decision.status)
        text = decision.text + (f"; {detail}" if detail else "")
        return cls(name, passed, text, cause if passed is not True else "", cause_detail,
                   decision.runs_needed if passed is None else None, rule, decision.p_fail,
                   decision.estimate.runs)

    @property
    def sanity(self) -> bool:
        """A check that holds by construction: shown, never counted toward a verdict."""
        return self.rule is not None and self.rule.sanity

    @property
    def counted(self) -> bool:
        """Whether the check counts toward the verdict (not a sanity check, not a control)."""
        return self.rule is None or self.rule.counted

    @property
    def mark(self) -> str:
        role = "sanity " if self.sanity else "" if self.counted else "control "
        return role + {True: "✓", False: "✗", None: "?"}[self.passed]

    @property
    def why(self) -> str:
        """The cause with its detail ('' for a passed check)."""
        if self.passed:
            return ""
        return self.cause + (f" ({self.cause_detail})" if self.cause_detail else "")


@dataclass(frozen=True)
class Verdict:
    """The outcome of a claim rule on a table of rows."""

    status: str
    observed: str
    checks: tuple[Check, ...] = ()

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {self.status!r}")

    @property
    def text(self) -> str:
        """The observed numbers, one check per line (with the cause of each one not passed)."""
        if not self.checks:
            return self.observed
        lines = [f"{c.mark} {c.name}: {c.detail}" + (f" — why: {c.why}" if c.why else "") for c in self.checks]
        return "\n".join(([self.observed] if self.observed else []) + lines)

    @property
    def why(self) -> str:
        """The distinct causes of the checks not passed, in order ('' when reproduced)."""
        causes = dict.fromkeys(c.cause for c in self.checks if not c.passed and c.cause)
        return ", ".join(causes)


FAMILY_RULE = ("the entry's counted checks are one family: *reproduced* when every one passes (an "
               "intersection–union test: each at its own 95 % level, no correction needed); *not reproduced* "
               "when a failure survives Holm's step-down correction over the family (family-wise error ≤ 5 %); "
               "else *inconclusive*; sanity checks are shown and not counted")


def judge_checks(checks: Sequence[Check], observed: str = "", level: float = LEVEL) -> Verdict:
    """The entry's verdict from its checks as one family (:data:`FAMILY_RULE`).

    A counted check's failure stands only when Holm's correction at family-wise level
    1 − ``level`` over the counted checks' failure p-values rejects it; a failure that does
    not survive becomes undecided, saying so. A check without a p-value (a share of cells,
    a vacuous bound) keeps its own status. Sanity checks never change the verdict.
    """
    if not checks:
        return not_run("no check could be evaluated")
    counted = [i for i, c in enumerate(checks) if c.counted]
    tested = [i for i in counted if math.isfinite(checks[i].p_fail)]
    keep = dict(zip(tested, holm([checks[i].p_fail for i in tested], 1 - level)))
    out = list(checks)
    for i in tested:
        c = checks[i]
        if c.passed is False and not keep[i]:
            out[i] = replace(c, passed=None, cause=CAUSE_INCONCLUSIVE, cause_detail="",
                             detail=f"{c.detail}; fails alone (p = {c.p_fail:.2g}) but not after Holm's "
                                    f"correction over {len(tested)} checks")
    broken = [c.name for c in out if c.sanity and c.passed is False]
    if broken:  # true by construction, yet failed: the implementation or the setting is wrong
        observed = (f"⚠ sanity check(s) failed — {', '.join(broken)}: they hold by construction, so the "
                    f"implementation or the setting is wrong; the verdict below is not to be trusted"
                    + (f"\n{observed}" if observed else ""))
    judged = [out[i] for i in counted]
    if not judged:
        return Verdict(NOT_RUN, observed or "only sanity checks", tuple(out))
    if any(c.passed is False for c in judged):
        status = NOT_REPRODUCED
    elif any(c.passed is None for c in judged):
        status = INCONCLUSIVE
    else:
        status = REPRODUCED
    return Verdict(status, observed, tuple(out))


def attribute_shortfall(verdict: Verdict, cause: str | None, detail: str) -> Verdict:
    """The verdict with every *claim fails* attributed to ``cause`` (*scale* or *stand-in
    data*, with ``detail``) when the rows fall short of the paper's setup: a claim can only
    be said to fail with the paper's data at the paper's scale. ``cause`` None: no shortfall."""
    if cause is None:
        return verdict
    checks = tuple(
        replace(c, cause=cause, cause_detail=detail) if c.passed is False and c.cause == CAUSE_CLAIM else c
        for c in verdict.checks
    )
    return replace(verdict, checks=checks)


def not_run(reason: str) -> Verdict:
    """The verdict of a claim whose rows are missing."""
    return Verdict(NOT_RUN, reason)


# -- the papers' own numbers ------------------------------------------------------------------
@dataclass(frozen=True)
class PaperNumber:
    """A value a paper reports: what it is, the value, and where the paper gives it.

    ``key`` names the same quantity in the entry's ``observe(rows)`` (empty when nothing
    here measures it, e.g. a baseline the catalogue does not run). ``beside`` names other
    observed quantities to read the number against (e.g. the majority-class rate of the
    data beside an accuracy), shown in a last column under their keys' last part.
    """

    quantity: str
    value: float
    source: str  # table, figure or section of the paper
    key: str = ""
    beside: tuple[str, ...] = ()


def paper_table(numbers: Sequence[PaperNumber], observed: dict[str, Estimate]) -> str:
    """Markdown: the paper's numbers beside kktheory's (mean and 95 % CI), with the difference."""
    if not numbers:
        return ""
    extra = any(p.beside for p in numbers)
    lines = ["| quantity | paper | source | kktheory (95% CI) | kktheory − paper |" + (" beside it, here |" if extra else ""),
             "|---|---|---|---|---|" + ("---|" if extra else "")]
    for p in numbers:
        est = observed.get(p.key) if p.key else None
        if est is None or not math.isfinite(est.value):
            ours, diff = "not measured" if not p.key else "—", "—"
        else:
            ours, diff = est.text(), f"{est.value - p.value:+.3g}"
        line = f"| {p.quantity} | {p.value:g} | {p.source} | {ours} | {diff} |"
        if extra:
            found = [(k.rsplit("/", 1)[-1], observed[k]) for k in p.beside if k in observed]
            line += " " + (", ".join(f"{label} {e.value:.3g}" for label, e in found) or "—") + " |"
        lines.append(line)
    return "\n".join(lines)


# -- rows -------------------------------------------------------------------------------
#: the identity columns (docs/schema.md) every report selects and groups by; a paper module
#: names the config columns it reads in its own ``*_COL`` constants, and tests/test_report_columns.py
#: checks those, and what each report requires (``require_columns``), against the schema
SKETCH_COL = "sketch.name"
DATASET_COL = "dataset.name"
#: columns of the rows a sweep's redraw adds (kktheory.reproduce), not of a run's row
ERROR_KIND = "error_kind"
ERROR = "error"
CONFIG_COL = "job_config"  # the composed config of the row's job (YAML)
REPORT_COLUMNS = (ERROR_KIND, ERROR, CONFIG_COL)


def ok_rows(df: pd.DataFrame) -> pd.DataFrame:
    """Rows of runs that finished (pseudo-rows of failed jobs removed)."""
    if df.empty or ERROR_KIND not in df:
        return df
    return df[df[ERROR_KIND].isna()]


def failed_rows(df: pd.DataFrame) -> pd.DataFrame:
    """Pseudo-rows of jobs that could not run (error_kind, error and their config)."""
    if df.empty or ERROR_KIND not in df:
        return df.iloc[0:0]
    return df[df[ERROR_KIND].notna()]


def require_columns(df: pd.DataFrame, columns: Iterable[str], why: str = "") -> str | None:
    """None when all columns exist with at least one value, else a not-run reason."""
    missing = [c for c in columns if c not in df or df[c].isna().all()]
    if not missing:
        return None
    return f"column(s) {', '.join(missing)} absent from the rows" + (f" ({why})" if why else "")


def failure_summary(df: pd.DataFrame, by: str | None = None) -> str:
    """One line per distinct failure message (with how many jobs hit it)."""
    bad = failed_rows(df)
    if bad.empty:
        return ""
    counts = bad.groupby(ERROR, sort=False).size()
    return "; ".join(f"{msg} ({n} job{'s' if n > 1 else ''})" for msg, n in counts.items())


# -- statistics over seeds ----------------------------------------------------------------
def mean_ci(
    df: pd.DataFrame, by: str | Sequence[str], col: str, level: float = 0.95, log: bool = False
) -> pd.DataFrame:
    """Mean of ``col`` per group with a Student-t confidence interval over the runs.

    Returns columns ``by…, mean, sd, se, count, lo, hi``; with one run the interval is
    the point itself (no spread is claimed). ``log=True`` (positive quantities such as
    times, drawn on log axes): the geometric mean with the interval computed on log
    values and mapped back (``sd`` and ``se`` then refer to the logs).
    """
    keys = [by] if isinstance(by, str) else list(by)
    if log:
        d = df.dropna(subset=[col])
        d = d[d[col] > 0].assign(**{col: lambda x: np.log(x[col])})
        out = mean_ci(d, keys, col, level)
        for c in ("mean", "lo", "hi"):
            out[c] = np.exp(out[c])
        return out
    g = df.dropna(subset=[col]).groupby(keys, sort=True)[col]
    out = g.agg(mean="mean", sd="std", count="count").reset_index()
    out["sd"] = out["sd"].fillna(0.0)
    out["se"] = out["sd"] / np.sqrt(out["count"])
    q = np.array([stats.t.ppf(0.5 + level / 2, c - 1) if c > 1 else 0.0 for c in out["count"]])
    out["lo"] = out["mean"] - q * out["se"]
    out["hi"] = out["mean"] + q * out["se"]
    return out


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman rank correlation (nan with fewer than 3 distinct points)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if len(x) < 3 or np.unique(x).size < 3:
        return float("nan")
    return float(stats.spearmanr(x, y).statistic)


def diff_se(se_a: float, se_b: float) -> float:
    """Standard error of a difference of two independent means."""
    return float(math.hypot(se_a, se_b))


def fmt(x: float, digits: int = 3) -> str:
    """A number for INDEX.md with ``digits`` significant digits (— for nan)."""
    if x is None or not np.isfinite(x):
        return "—"
    return f"{x:,.0f}" if abs(x) >= 10**digits else f"{x:.{digits}g}"


# -- figures ------------------------------------------------------------------------------
STYLE = {
    "figure.dpi": 100,
    "savefig.dpi": 130,
    "font.size": 10,
    "axes.titlesize": 10.5,
    "axes.labelsize": 10,
    "legend.fontsize": 8.5,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "pdf.fonttype": 42,
}

#: one colour and marker per method across every figure of the report
PALETTE = {
    "exact": ("black", "s"),
    "kernel k-means": ("black", "s"),
    "nystrom": ("tab:blue", "o"),
    "nystrom_rls": ("tab:cyan", "v"),
    "nystrom_rr": ("tab:blue", "o"),
    "nystrom_liu": ("tab:purple", "D"),
    "yin_nystrom": ("tab:green", "^"),
    "subgaussian": ("tab:orange", "P"),
    "ros": ("tab:red", "X"),
    "gaussian": ("tab:brown", "*"),
    "kpca": ("black", "s"),
    "onepass": ("tab:red", "X"),
    "rff": ("tab:orange", "P"),
    "two_step": ("tab:gray", "d"),
    "spectral_nystrom": ("tab:olive", "v"),
    "kernel_columns": ("tab:pink", "h"),
}


def color_marker(key: str, i: int = 0) -> tuple[str, str]:
    """Colour and marker of a method (fallback: matplotlib's cycle)."""
    if key in PALETTE:
        return PALETTE[key]
    return f"C{i % 10}", "os^vDPX*dh"[i % 10]


def pyplot():
    """matplotlib.pyplot with the non-interactive Agg backend and the report style."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update(STYLE)
    return plt


def save_figure(fig: Any, out_dir: Path, name: str) -> list[Path]:
    """Write ``name.png`` and ``name.pdf`` into out_dir; close the figure."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [out_dir / f"{name}.png", out_dir / f"{name}.pdf"]
    for p in paths:
        fig.savefig(p, bbox_inches="tight", metadata={"CreationDate": None} if p.suffix == ".pdf" else None)
    import matplotlib.pyplot as plt

    plt.close(fig)
    return paths


def band(ax: Any, x: np.ndarray, s: pd.DataFrame, label: str, key: str, i: int = 0,
         errorbars: bool = False) -> None:
    """Mean line with its confidence band (or error bars) from a :func:`mean_ci` frame."""
    color, marker = color_marker(key, i)
    if errorbars:
        ax.errorbar(x, s["mean"], yerr=[s["mean"] - s["lo"], s["hi"] - s["mean"]], color=color,
                    marker=marker, ms=5, capsize=3, label=label, lw=1.4)
    else:
        ax.plot(x, s["mean"], color=color, marker=marker, ms=5, label=label, lw=1.4)
        ax.fill_between(x, s["lo"], s["hi"], color=color, alpha=0.18, lw=0)


def grid_ticks(ax: Any, values: Any, axis: str = "x") -> None:
    """Major ticks at the grid values with plain integer labels (for log axes), no minor ticks."""
    from matplotlib.ticker import NullLocator

    vals = sorted({int(round(v)) for v in values if np.isfinite(v) and v > 0})
    if len(vals) > 9:  # keep labels apart: every other value
        vals = vals[::2]
    kept: list[int] = []
    for v in reversed(vals):  # and no two labels closer than a factor 1.35 (e.g. 400 beside 500):
        if not kept or 1.35 * v <= kept[-1]:  # from the largest down, so a grid's ends keep theirs
            kept.append(v)
    vals = kept[::-1]
    set_ticks, set_labels, ax_obj = (
        (ax.set_xticks, ax.set_xticklabels, ax.xaxis) if axis == "x" else (ax.set_yticks, ax.set_yticklabels, ax.yaxis)
    )
    set_ticks(vals)
    set_labels([f"{v:,}" for v in vals])
    ax_obj.set_minor_locator(NullLocator())


def sqrt_n_line(ax: Any, n: float, label: bool = True) -> None:
    """The vertical line at m = √n."""
    ax.axvline(math.sqrt(n), color="0.35", ls="--", lw=1.1,
               label=f"m = √n = {math.sqrt(n):.0f}" if label else None)


# -- the index ----------------------------------------------------------------------------
@dataclass
class IndexRecord:
    """What INDEX.md says about one catalogue entry."""

    name: str
    title: str
    claim: str
    status: str
    observed: str
    rule: str
    scale: str
    setup: str
    config: str
    command: str
    sweep_command: str = ""
    files: list[str] = field(default_factory=list)
    rows: str = ""
    when: str = ""
    tables: str = ""  # Markdown tables of the entry, shown inline
    why: str = ""  # causes of the checks not passed
    paper: str = ""  # Markdown table: the paper's numbers beside kktheory's
    runs: int | str = ""  # seeds (independent runs) per setting: "r" or "lo–hi"
    compute_s: float = 0.0  # run time stored in the rows (their time_total), seconds
    rules: str = ""  # Markdown table: the checks declared before the data, with their power
    looks: str = ""  # the sequential decision's looks (empty: one look, the fixed design)
    setting: str = ""  # the setting check: do the baselines behave as in the paper?
    label: str = ""  # the overview's scale column: data and n against the paper's, runs of the paper's


INDEX_JSON = "index.json"
INDEX_MD = "INDEX.md"


def read_index(out_dir: Path) -> dict[str, IndexRecord]:
    """The records of index.json (empty when absent)."""
    path = out_dir / INDEX_JSON
    if not path.exists():
        return {}
    data = json.loads(path.read_text())
    return {k: IndexRecord(**v) for k, v in data.items()}


def render_index(records: dict[str, IndexRecord], order: Sequence[str],
                 pending: Callable[[str], str]) -> str:
    """INDEX.md: a summary table, then one section per entry in catalogue order."""
    lines = [
        "# Reproduced figures and tables",
        "",
        "Generated by `python -m kktheory.reproduce NAME|all [--scale small|paper]`; do not "
        "edit by hand. Each entry states the paper's claim, the rule that judges it on the "
        "stored rows (kktheory/report/), the numbers observed, and the exact command.",
        "",
        "| entry | paper | verdict | why | scale | runs | compute time | command |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name in order:
        r = records.get(name)
        if r is None:
            lines.append(f"| [{name}](#{name}) | | not run yet | | | | | |")
        else:
            lines.append(f"| [{name}](#{name}) | {r.title} | **{r.status}** | {r.why} | {r.label or r.scale.split(':')[0]} | "
                         f"{r.runs or '—'} | {_duration(r.compute_s)} | `{r.command}` |")
    for name in order:
        lines += ["", f"## {name}", ""]
        r = records.get(name)
        if r is None:
            lines.append(pending(name))
            continue
        lines += [
            f"**{r.title}.** Claim: {r.claim}",
            "",
            f"**Verdict: {r.status}.**" + (f" Why: {r.why}." if r.why else ""),
            "",
            *([f"Setting: {r.setting}", ""] if r.setting else []),
            *(["The paper's numbers beside ours:", "", r.paper, ""] if r.paper else []),
            *(["Checks declared before the data:", "", r.rules, "", f"Family: {FAMILY_RULE}.", ""]
              if r.rules else []),
            *([f"Looks: {r.looks}", ""] if r.looks else []),
            "Observed:",
            "",
            *[f"    {ln}" for ln in r.observed.splitlines()],
            "",
            f"Rule: {r.rule}",
            "",
            f"Scale: {r.scale}",
            "",
            f"Setup: {r.setup}",
            "",
            f"Config: `{r.config}`",
            "",
            f"Command: `{r.command}`",
        ]
        if r.sweep_command:
            lines += ["", f"The sweep alone: `{r.sweep_command}`"]
        if r.rows:
            lines += ["", f"Rows: {r.rows}"]
        pics = [f for f in r.files if f.endswith(".png")]
        others = [f for f in r.files if not f.endswith(".png")]
        if others:
            lines += ["", "Files: " + ", ".join(f"[{f}]({f})" for f in others)]
        if r.tables:
            lines += ["", r.tables.strip()]
        for p in pics:
            lines += ["", f"![{name}]({p})"]
        if r.when:
            lines += ["", f"_{r.when}_"]
    return "\n".join(lines) + "\n"


def _duration(seconds: float) -> str:
    """'—', '42 s', '17 min' or '2.1 h'."""
    if not seconds:
        return "—"
    if seconds < 120:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min" if seconds < 7200 else f"{seconds / 3600:.1f} h"


def update_index(out_dir: Path, record: IndexRecord, order: Sequence[str],
                 pending: Callable[[str], str]) -> Path:
    """Store one entry's record in index.json and rewrite INDEX.md from all records."""
    out_dir.mkdir(parents=True, exist_ok=True)
    records = read_index(out_dir)
    records[record.name] = record
    keep = [*order, *([record.name] if record.name not in order else [])]  # an entry gone from the catalogue goes
    ordered = {k: asdict(records[k]) for k in keep if k in records}
    (out_dir / INDEX_JSON).write_text(json.dumps(ordered, indent=1, ensure_ascii=False) + "\n")
    path = out_dir / INDEX_MD
    path.write_text(render_index(records, order, pending))
    return path
