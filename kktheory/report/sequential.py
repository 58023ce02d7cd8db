"""The sequential decision: more runs for undecided checks, with the error it may add stated.

``python -m kktheory.reproduce NAME --scale paper --decide [--budget-min B] [OVERRIDE ...]``
judges an entry and, while a counted check is undecided, adds seeds to the entry's sweep —
or to the part of it the overrides select (e.g. ``yin_table2/data=pendigits``) — and judges
again, always on all of the entry's rows (:mod:`kktheory.reproduce.sequential`).

What is guaranteed. Look 1 is the fixed-design judgement at 95 % — the one INDEX publishes
without ``--decide`` — and look j ≥ 2 tests at level 1 − α_j, α_j = 0.05/(j(j + 1)):
99.17 % at look 2, 99.58 % at look 3, 99.75 % at look 4, … (Σ_{j≥2} α_j = 0.025;
:func:`~kktheory.report.decide.look_level`). By the union bound, the probability that any
look makes a false decision on a check is at most 0.05 + 0.025 = 0.075 on the two-sided p
scale, i.e. at most 0.0375 in each direction: a false pass at most 0.025 from look 1 plus
0.0125 from all later looks together, and the same for a false failure — whatever the data
and whatever rule decided whether to look again, because every look's run count is fixed
before its data are seen (next paragraph). A false *reproduced* needs a false pass of some
check, and a false *not reproduced* a false failure surviving Holm's correction at the
look's level, so each is bounded by 0.0375 too. This is the cost of looking again: a
fixed design at 95 % would give 0.025 per direction. tests/test_sequential_looks.py
simulates it with this module's functions and
:meth:`~kktheory.report.claims.Rule.decide` on a null effect at the boundary of an
``exceeds`` and of an ``at least`` rule, up to 5 looks from 10 runs, and checks that the
same simulation with no spending (every look at 95 %) or with doubled spending breaks the
bound.

Look sizes are fixed in advance (:func:`next_runs`): look j has R₁·2^(j−1) runs per setting,
R₁ the runs of look 1 (10, 20, 40, 80, … from 10). When the rows already hold that many
(seeds another entry's looks added, or looks recorded before this schedule), the next look
asks for the first size of the schedule R₁·2^k above what they hold. No size is chosen from
the estimates: a size chosen from the data (e.g. from the "runs needed" at look 1) would
lift a later look's error above its α_j.

Continuing on both sides (:func:`waiting`): every counted check that is undecided and that
more runs could decide asks for the next look, whether its estimate points to the claim or
against it — an estimate pointing against the claim is decided by more runs as well (a
failure, or a pass after all). So an *inconclusive* verdict means the budget ran out, or
no undecided check can be decided by more runs of the sweep (no rows for it; a speed claim,
judged on its own timing pass), never "it pointed against the claim and we stopped".

Shared sweeps and pinning. Each look records the hash of the rows it judged
(:func:`rows_hash`: every run id and every value, as the judge reads them) and of the
entry's declared rules (:func:`rules_hash`). Whenever an entry is judged — a redraw or a
look — on rows that are not those of its last look (another run count per setting, or
another rows hash), that judgement is a new look for it, recorded at the next look's level
(:func:`next_look`): the seeds one entry's looks add to a shared sweep spend a look for
every entry judging them (two entries, theory_rates_calandriello and theory_rates_yin,
judge one sweep). A redraw of unchanged rows spends nothing: it judges at the last look's
level. Such a look's size follows the other entry's schedule, and whether it happens
follows that entry's undecided checks: the bound above holds for it only as far as that
decision does not depend on this entry's estimates. When the rules hash of a judgement
differs from the one recorded, the looks' text says "rules changed after look j" and what
that means: a rule re-declared after its rows were seen judges only the seeds run after it
(``Rule.fresh_from``, said in its line); a rule corrected without fresh seeds — its unit of
analysis, a stricter test — judges all its runs (the rows are not judged again with the old
rules). Nothing else enforces the pin: the hash records that the rules changed, not which.

Rerunning a decision with a larger budget. ``--budget-min B`` bounds the predicted compute
of the seeds to add (the selected rows' compute per job times the jobs of the next look), not
the wall time; a look whose prediction exceeds what is left is not started, and the log says
what it would cost ("look j needs N runs (J jobs), predicted M min > L min left"). Run the
same command again with a larger ``B`` — e.g. ``python -m kktheory.reproduce wang_fig2 --scale
paper --decide --budget-min 600 +wang_fig2/pass=c100,c400`` — and the decision resumes from the recorded
looks: the committed rows are judged at the last look's level (nothing spent when they did not
change), and the next size of the schedule is added while the budget lasts. A decision stopped
part-way through a look (a session's end) is resumed by the same command: the look's seeds were
named in ``rows/looks/<entry>.pending`` before they ran, so the rest of them run first and the
look is judged on the seeds it planned — never on those that happened to be done when it
stopped (a rate fit over the n that the first seeds reached would be another claim's slope;
:func:`kktheory.report.theory.covering` also refuses one). A speed claim is decided by its timing
pass, not by seeds: ``python -m kktheory.timing NAME --scale paper --rounds R`` on an idle machine
times it again with R rounds, and the next judgement is a new look (the pass's creation stamp is
recorded with each look), so a pass timed again spends its level like seeds added. A check re-declared after its rows
were seen reads the seeds run after its declaration, often in a further sweep of its own
(wang_fig4_5's objective over the kernel columns: experiments/wang_fig4_5_objective.yaml);
``--sweep NAME`` gives the seeds to that sweep — ``python -m kktheory.reproduce wang_fig4_5
--scale paper --decide --sweep wang_fig4_5_objective`` — numbered on from its last seed, and
the look records which sweep got them. A look spends its level on the checks whose data it
changed: each look records every counted check's estimate, level aside (:func:`fingerprints`),
and a check whose estimate the last looks saw unchanged is judged at the level of the first of
them (:func:`first_levels`) — seeds that another check's look added to other parts of the sweep,
or to a sweep shared with another entry, leave its decision as it was (Holm's correction stays
at the new look's level). INDEX's overview
shows per entry the compute stored in its rows and, of it, the part its looks added; each
look's line says the compute of the seeds it added.

The looks of an entry are recorded in ``paper_figs/rows/looks/<entry>.json`` (look, runs,
level, undecided checks, status, when, the seeds added before it and the compute their rows
took, rows and rules hashes, the commit and the judging code's hash it was judged by (since
2026-12-08), and each counted check's mark and interval after the look — so that two
consecutive looks give a check's interval before and after the runs added) and
printed in INDEX (:func:`looks_text`). The files written before this design (for
calandriello_fig2, theory_rates_yin, wang_fig3, yin_fig1, yin_table2) were rewritten to it:
look 1 is the published fixed judgement at 95 % (the first recorded look's runs and status,
no seeds added), the looks recorded then follow as looks 2, 3, … at those looks' levels,
and their ``rows_hash`` and ``rules_hash`` are empty — they were not recorded; a look
without a rows hash is compared by its run count alone.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from kktheory.report.claims import Rule
from kktheory.report.decide import BINOMIAL, RESAMPLED, look_level, pct
from kktheory.report.rows import CONFIG_COL
from kktheory.report.verdicts import Check, Verdict

JUDGING = "this judgement"  # the status of the look being judged, in the text INDEX prints with it
UNRECORDED = "not recorded"  # the status of a fixed judgement that no look file recorded


@dataclass(frozen=True)
class Look:
    """One look of a sequential decision: its number, runs per setting, level, what was
    still undecided after it, the seeds added before it, and the hashes of the rows and of
    the declared rules it judged ("" where they were not recorded)."""

    look: int
    runs: int
    level: float
    undecided: int
    status: str
    when: str = ""
    part: list[str] = field(default_factory=list)  # overrides of the seeds added before this look
    rows_hash: str = ""
    rules_hash: str = ""
    compute_s: float = 0.0  # compute stored in the rows of the seeds added before this look, seconds
    checks: dict[str, str] = field(default_factory=dict)  # each counted check after this look: mark, estimate
    sweep: str = ""  # the config the seeds were added to, where it is one of the entry's further sweeps
    timing: str = ""  # the newest creation stamp of the timing pass judged ("" none, or not recorded)
    #: each counted check's estimate at this look, level aside (:func:`fingerprints`): a later look judging
    #: the very estimate by the same rule takes the level of the first look that did (:func:`first_looks`)
    seen: dict[str, str] = field(default_factory=dict)
    #: each counted check's rule at this look, the fields that decide (:func:`rule_prints`): an
    #: estimate unchanged under another rule (a margin moved, a selection widened) is a new decision
    seen_rules: dict[str, str] = field(default_factory=dict)
    #: the declared rules' fields that decide (:func:`decision_hash`): a change of them is a new
    #: look, a change of their wording (why, source, the power design) is not
    decision_hash: str = ""
    #: the checks whose judgement at this look was withdrawn (their rule re-declared because it had read
    #: rows seen before it): no later look takes its level from this one for them, whatever the data
    withdrawn: list[str] = field(default_factory=list)
    #: the definition of :func:`fingerprints` ``seen`` was recorded under (:data:`PRINTS`; 1: before a
    #: resampled estimate's print held the runs it was drawn from — such a look matches it on value and runs)
    prints: int = 1
    #: the hash of the entry's attribution rules this look judged by (``Entry.attribution``; "" none
    #: recorded): a change of them is a new look, as a change of the declared rules is
    attribution: str = ""
    #: the commit of the checkout that judged this look ("+dirty" with uncommitted edits), and the hash of
    #: the judging code's source (:func:`code_hash`; "" where not recorded): what the verdict was computed by
    commit: str = ""
    code: str = ""


#: the definition of :func:`fingerprints` a look records (``Look.prints``): 2 since 2026-12-07
PRINTS = 2


def fingerprints(verdict: Verdict, version: int = PRINTS) -> dict[str, str]:
    """Each counted check's estimate, level aside: a hash of what its interval is computed
    from at any level (value, standard error, runs, successes, the runs' values) — of a
    bootstrap, its value, runs and the hash of the runs it resamples (``Estimate.source``), not
    its draws, whose number follows the level (``version`` 1, looks recorded before: value and
    runs alone, which other data can give, e.g. a statistic of grid points) — for the checks
    judged on an :class:`~kktheory.report.decide.Estimate`; of a check judged without one (a
    share of cells), the hash of its data it carries (``Check.data_hash``)."""
    out = {}
    for c in verdict.checks:
        if c.counted and c.decision is not None:
            e = c.decision.estimate
            drawn = e.kind == RESAMPLED  # its draws, and the standard error read from them, follow the level
            key = (e.kind, e.value, e.dof, e.runs, e.successes) + (
                ((e.source,) if version >= 2 else ()) if drawn else (e.se, e.data))
            out[c.name] = hashlib.sha256(repr(key).encode()).hexdigest()[:16]
        elif c.counted and c.data_hash:
            out[c.name] = c.data_hash
    return out


def first_levels(looks: Sequence[Look], verdict: Verdict, rules: str = "") -> dict[str, float]:
    """The level of each check's first look (:func:`first_looks`)."""
    return {name: x.level for name, x in first_looks(looks, verdict, rules).items()}


def first_looks(looks: Sequence[Look], verdict: Verdict, rules: str = "") -> dict[str, Look]:
    """For each counted check of ``verdict`` whose very estimate (:func:`fingerprints`) under
    the same rule (:func:`rule_prints`) a recorded look judged, the first such look. The same data judged again by the same rule at a stricter level is a sub-event of
    that look's error, so its decision there stands — whatever later looks judged in between
    (seeds added to other checks, or to this one and withdrawn): they spend nothing of it
    (a check whose data or rule is new is judged at the new look's level). A look recorded before the rules' prints were matches a check's rule where
    its hash of the declared rules is ``rules``, the current one (nothing of any rule changed
    since; not given: not compared); rules all the look's (their hash ``rules``) are its rules
    whatever print it recorded. A look recorded before the estimates were is matched by
    the check's line it recorded, for a share of seeds only (value k/n and its exact interval
    at the look's level, which name k and n): other estimates print too few digits to tell a
    changed one. A look's judgement of a check it withdrew (``Look.withdrawn``) lends no level."""
    prints = {v: fingerprints(verdict, v) for v in {PRINTS, *(x.prints for x in looks)}}
    ruled = rule_prints(verdict)
    shares = {c.name: c.decision.estimate for c in verdict.checks
              if c.name in prints[PRINTS] and c.decision is not None and c.decision.estimate.kind == BINOMIAL}
    out = {}
    for name in prints[PRINTS]:
        for x in looks:  # the first that judged this very estimate by this very rule, whatever came between
            same = x.seen.get(name) == prints[x.prints][name] if x.seen else (
                name in shares and x.checks.get(name, "").partition(" ")[2] == shares[name].text(level=x.level))
            same_rule = (bool(rules) and x.rules_hash == rules) or (
                x.seen_rules.get(name) == ruled.get(name) if x.seen_rules else not rules or not x.rules_hash)
            if same and same_rule and name not in x.withdrawn:
                out[name] = x
                break
    return out


def waiting(verdict: Verdict, apart: Collection[Rule] = ()) -> list[Check]:
    """Counted checks that more runs could decide: undecided, with an estimate from runs
    behind them (decidable or not yet) on either side of the claim — not those without rows,
    nor those of the rules in ``apart`` (a speed claim's, judged on its own timing pass)."""
    return [c for c in verdict.checks
            if c.counted and c.passed is None and (c.runs > 0 or c.runs_needed) and c.rule not in apart]


def next_runs(checks: Sequence[Check], first: int, have: int) -> int | None:
    """Runs per setting of the next look: R₁·2^k with R₁ = ``first`` (look 1's runs), the
    first size of the doubling schedule above ``have`` — R₁·2^(j−1) at look j when the looks
    followed the schedule; None when no check waits (``checks``: :func:`waiting`)."""
    if not checks:
        return None
    size = max(first, 1)
    while size <= have:
        size *= 2
    return size


def next_look(looks: Sequence[Look], runs: int, rows: str, rules: str, part: Sequence[str] = (),
              sweep: str = "", timing: str = "", decision: str = "", attribution: str = "") -> Look | None:
    """The look that judging rows with ``runs`` runs per setting and hash ``rows`` adds to
    ``looks``: None when they are the last look's rows (same run count, and same hash where
    one was recorded) — a redraw of unchanged rows spends nothing; else look j + 1 at
    :func:`~kktheory.report.decide.look_level` (j + 1), whoever added the rows; with no look
    yet, look 1 (the fixed judgement at 95 %). Rows judged after seeds were added (``part``)
    are always a new look, even when the most seeds of a setting did not grow (seeds added to
    the settings that had fewer); ``sweep`` names the further sweep they were added to. A
    timing pass (``timing``: its newest creation stamp) made after the last look is new data
    too — a speed claim timed again with more rounds spends a look like a check given more
    seeds (a look recorded before the stamps were: a pass created after its time). Rules other
    than the last look's (``rules``: their hash) are a new look too: a rule that now reads other
    rows (a selection widened) or judges them otherwise would else be judged at a level already
    spent — unless all of them are the last look's (``rules``) or what they decide by is
    (``decision``, :func:`decision_hash`, where the last look recorded it): a rule reworded is
    no new look. Attribution rules other than the last look's (``attribution``, the hash of
    ``Entry.attribution``; a look that recorded none had none) are a new look too."""
    last = looks[-1] if looks else None
    same_pass = last is not None and (timing == last.timing or (
        not last.timing and timing <= last.when.replace(" ", "T")))
    same_rules = last is not None and (not last.rules_hash or rules == last.rules_hash
                                       or bool(decision) and decision == last.decision_hash)
    if last and not part and runs == last.runs and (not last.rows_hash or rows == last.rows_hash) and same_pass \
            and same_rules and attribution == last.attribution:
        return None
    j = last.look + 1 if last else 1
    return Look(j, runs, look_level(j), 0, JUDGING, "", list(part), rows, rules, sweep=sweep, timing=timing,
                decision_hash=decision, attribution=attribution)


#: the package's parts that compute a verdict from the rows (the estimators, the rules, the judges)
JUDGING_CODE = ("report", "judge", "reproduce", "resampling.py", "seeding.py", "evaluation/bounds/theory.py")


def code_hash(parts: Sequence[str] = JUDGING_CODE) -> str:
    """sha256 of the judging code's source: every ``.py`` file under ``parts`` of the package,
    by path relative to it, in sorted order — an edit of an estimator the declared rules do not
    name (a bootstrap's unit, an interval's tails) changes it, where the rules' hash does not."""
    root = Path(__file__).resolve().parent.parent
    files = sorted(f for p in parts for f in ((root / p).rglob("*.py") if (root / p).is_dir() else [root / p]))
    h = hashlib.sha256()
    for f in files:
        h.update(str(f.relative_to(root)).encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def attribution_hash(rules: Sequence[str]) -> str:
    """sha256 of an entry's dated attribution rules ("" for none: entries without them keep their looks)."""
    return hashlib.sha256(repr(tuple(rules)).encode()).hexdigest() if rules else ""


def rows_hash(rows: pd.DataFrame) -> str:
    """sha256 of the judged rows: every run id and every value, row order and column order
    aside. Each value is written in one form whichever way the rows were read (the store's
    run files or the committed file, whose types may differ): a number as repr(float), a
    boolean as True/False, a missing value empty, text as it is; the job's composed config
    and the columns empty in every row are left out."""
    cells = rows.drop(columns=[CONFIG_COL], errors="ignore").map(_cell)
    cells = cells.loc[:, (cells != "").any()]
    cells = cells[sorted(cells.columns, key=str)]
    lines = sorted("\x1f".join(r) for r in cells.itertuples(index=False, name=None))
    return hashlib.sha256("\x1e".join(["\x1f".join(map(str, cells.columns)), *lines]).encode()).hexdigest()


def _cell(v: object) -> str:
    if v is None or v is pd.NA or v is pd.NaT:
        return ""
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    try:
        x = float(v)  # numbers, and numbers the committed file wrote as text
    except (TypeError, ValueError):
        return str(v)
    return "" if math.isnan(x) else repr(x)


def decision_hash(rules: Sequence[Rule]) -> str:
    """sha256 of what the declared rules decide by, in order (:func:`_decision_fields`): a
    change of it makes the next judgement a new look (:func:`next_look`); the wording of a
    margin's reason and source and the power design are left out (they decide nothing)."""
    return hashlib.sha256(repr([_decision_fields(r) for r in rules]).encode()).hexdigest()


def rule_prints(verdict: Verdict) -> dict[str, str]:
    """Each counted check's rules (its own and those it stands for), the fields they decide
    by (:func:`_decision_fields`) but the selection, hashed: beside its estimate's
    :func:`fingerprints`, which hold the rows the selection picked (a selection reworded or
    widened to rows not yet run leaves the decision as it was)."""
    return {c.name: hashlib.sha256(repr([_decision_fields(r, selection=False) for r in c.rules]).encode())
            .hexdigest()[:16]
            for c in verdict.checks if c.counted and c.rules}


def _decision_fields(rule: Rule, selection: bool = True) -> tuple:
    """What a rule decides by: its name, quantity (the estimator), shape, margin, sign, role
    (sanity, control) and which rows it reads — its selection and the seeds it judges (left
    out with ``selection`` false: the estimate's fingerprint holds the rows read)."""
    rows = (rule.selection, rule.fresh_from, rule.kept_below, rule.fresh_column) if selection else ()
    return (rule.name, rule.quantity, rule.shape, float(rule.margin.value), float(rule.sign), bool(rule.sanity),
            bool(rule.control), *rows)


def rules_hash(rules: Sequence[Rule]) -> str:
    """sha256 of the declared rules, in order: of each its name, quantity, shape, margin
    (value, why, source), selection, sign, sanity, control and power design (kind, effect,
    null, spreads, runs) — what the rule is, not where it sits in memory (a design's
    ``sample`` function is left out)."""
    return hashlib.sha256(repr([_rule_fields(r) for r in rules]).encode()).hexdigest()


def _rule_fields(rule: Rule) -> tuple:
    d, m = rule.design, rule.margin
    design = None if d is None else (d.kind, float(d.effect), float(d.null), tuple(map(float, d.sd)), int(d.runs))
    return (rule.name, rule.quantity, rule.shape, (float(m.value), m.why, m.source), rule.selection,
            float(rule.sign), bool(rule.sanity), bool(rule.control), design, rule.fresh_from,
            *((rule.kept_below,) if rule.kept_below is not None else ()))


def looks_path(folder: Path, name: str) -> Path:
    return folder / "looks" / f"{name}.json"


def read_looks(folder: Path, name: str) -> list[Look]:
    """The recorded looks of an entry (empty: never judged sequentially; records without
    the hashes load with them empty)."""
    path = looks_path(folder, name)
    if not path.exists():
        return []
    return [Look(**d) for d in json.loads(path.read_text())]


def write_looks(folder: Path, name: str, looks: Sequence[Look]) -> Path:
    path = looks_path(folder, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([asdict(x) for x in looks], indent=1, ensure_ascii=False) + "\n")
    return path


def pending_path(folder: Path, name: str) -> Path:
    """Where a look's seeds are named before they run (``<entry>.pending``, JSON, beside the looks)."""
    return folder / "looks" / f"{name}.pending"


def read_pending(folder: Path, name: str) -> tuple[str, tuple[str, ...]] | None:
    """The part (sweep, overrides) of a look whose seeds started and were not all judged:
    a decision stopped part-way resumes by running what is left of it before it judges,
    so that a look is judged on the seeds it planned, not on those that were done when the
    run stopped."""
    path = pending_path(folder, name)
    if not path.exists():
        return None
    d = json.loads(path.read_text())
    return d["sweep"], tuple(d["part"])


def write_pending(folder: Path, name: str, part: tuple[str, tuple[str, ...]] | None) -> None:
    """Name the part a look is about to run (None: the look was judged; the note is removed)."""
    path = pending_path(folder, name)
    if part is None:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"sweep": part[0], "part": list(part[1])}, ensure_ascii=False) + "\n")


def verdict_history(looks: Sequence[Look], status: str, rules: str = "", decision: str = "",
                    attribution: str = "") -> str:
    """What earlier recorded looks said where it differs from ``status``, this judgement's:
    each other verdict with the looks that gave it, and whether the rules changed since in
    what they decide by (``decision``, :func:`decision_hash`, where the look recorded it; else
    their hash ``rules``: a rule reworded is no change), or in the attribution rules
    (``attribution``) — a verdict that moved without new data says so where its reason is
    read ("" where every recorded look agrees)."""
    said: dict[str, list[int]] = {}
    for x in looks:
        if x.status not in (status, UNRECORDED, JUDGING, ""):
            said.setdefault(x.status, []).append(x.look)
    if not said:
        return ""
    moved = any(((x.decision_hash != decision) if x.decision_hash and decision
                 else bool(x.rules_hash and rules and x.rules_hash != rules)) or x.attribution != attribution
                for x in looks if x.status != status)

    def span(ns: list[int]) -> str:
        return f"look {ns[0]}" if len(ns) == 1 else f"looks {ns[0]}–{ns[-1]}" if ns[-1] - ns[0] == len(ns) - 1 \
            else "looks " + ", ".join(map(str, ns))
    return ("earlier " + "; ".join(f"{v} at {span(ns)}" for v, ns in said.items())
            + (" (the rules changed since: see each check's line for what and when)" if moved else ""))


def looks_text(looks: Sequence[Look], rules: str = "") -> str:
    """INDEX's line: the design, every look, and whether the rules (hash ``rules``) changed
    after a recorded look."""
    if not looks:
        return ""
    parts = [f"look {x.look}" + (f" (added {x.sweep + ': ' if x.sweep else ''}{' '.join(x.part)}" + (f"; {x.compute_s / 60:.0f} min of compute"
                                                                  if x.compute_s else "") + ")" if x.part else "")
             + f": {x.runs} runs per setting at level {pct(x.level)} → {x.status}"
             + (f", {x.undecided} check(s) undecided" if x.undecided else "") for x in looks]
    changed = [x.look for x in looks if rules and x.rules_hash and x.rules_hash != rules]
    if changed:
        parts.append(f"rules changed after look {changed[-1]}: a rule re-declared on fresh seeds judges only the runs "
                     "made after it, as its line says; a rule corrected without fresh seeds (its unit of analysis, a "
                     "stricter test) judges all its runs")
    unhashed = [x.look for x in looks if not x.rules_hash]
    if unhashed and len(unhashed) < len(looks):
        parts.append(f"look(s) {', '.join(map(str, unhashed))} recorded no hash of the rules: whether a rule changed "
                     "before the first look that did is not recorded")
    return ("sequential decision (look 1 the fixed judgement at 95 %, look j ≥ 2 at 1 − 0.05/(j(j+1)), "
            "R₁·2^(j−1) runs per setting; at most 0.0375 false decisions per direction where the entry's own schedule "
            "sets its looks' run counts and the interval's tails are exact — the measured exceptions, the rate fits' "
            "bootstrap and shared sweeps, are in docs/verdicts.md; a check keeps the level of "
            "the first look that judged its very estimate by the same rule and recorded the mark it gets there; "
            "kktheory/report/sequential.py); " + "; ".join(parts))
