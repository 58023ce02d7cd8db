"""What deciding an undecided check costs this machine (kktheory.report.cost)."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd

from kktheory.report.cost import MACHINE_HOURS, design_plan, priced, seed_seconds
from kktheory.report.verdicts import INCONCLUSIVE, Check, Verdict


def _verdict(runs_needed: int = 100) -> Verdict:
    return Verdict(INCONCLUSIVE, "", (Check("a", None, "0.1 [-0.1, 0.3] (95% CI)", runs_needed=runs_needed, runs=10),
                                      Check("b", True, "0.5 [0.2, 0.8] (95% CI)", runs=10)))


def test_an_unaffordable_check_is_not_decidable_here_and_the_overview_says_so():
    v = priced(_verdict(), 600.0)  # 90 more seeds × 600 s = 15 h
    a = v.checks[0]
    assert 15 > MACHINE_HOURS and a.beyond == "needs about 100 runs, 15 hours"
    assert v.text.splitlines()[0].startswith("not decidable on this machine: needs about 100 runs, 15 hours — a: ")
    assert v.summary == "not decidable on this machine: a" and v.checks[1] == _verdict().checks[1]
    assert priced(v, 1.0) == v  # priced once


def test_an_affordable_check_carries_its_hours_and_stays_undecided():
    v = priced(_verdict(), 10.0)  # 90 more seeds × 10 s
    assert v.checks[0].mark == "?" and v.checks[0].detail.endswith("; ≈ 0.25 h of this machine (90 more seeds × 10 s)")
    assert v.summary == "undecided: a" and priced(v, 600.0) == v


def test_seed_seconds_is_the_median_over_seeds_of_a_seeds_compute():
    rows = pd.DataFrame({"seed": [0, 0, 1, 1, 2], "time_embed": [1.0, 2.0, 4.0, 4.0, 30.0],
                         "m_rule": ["a", "b", "a", "b", "a"]})
    assert seed_seconds(rows) == 8.0 and seed_seconds(rows, ["a"]) == 4.0
    # a job's reference and population scoring are part of what a further seed costs; the reference once per job
    more = rows.assign(time_reference=[5.0, 5.0, 5.0, 5.0, 5.0], time_population=[1.0, 1.0, 1.0, 1.0, 1.0])
    assert seed_seconds(more) == 8.0 + 5.0 + 2.0 and seed_seconds(more, ["a"]) == 4.0 + 5.0 + 1.0
    assert seed_seconds(rows.drop(columns="time_embed")) != seed_seconds(rows.drop(columns="time_embed"))  # nan


def test_a_check_without_rows_is_priced_at_its_design_only_where_its_jobs_are_known():
    from kktheory.report.claims import AT_LEAST, Design, Margin, Rule
    rule = Rule("r", "a mean", AT_LEAST, Margin(0.9, "why", "src"), Design("paired", 1.0, 0.9, (0.1,), 12, "src"))
    v = Verdict(INCONCLUSIVE, "", (Check("r", None, "no runs after the declaration", rule=rule),))
    runs = design_plan(rule, 0.95)[0]  # its design on the doubling schedule (tests/test_planning.py)
    assert runs > 12 and priced(v, 3600.0).checks[0].beyond == f"needs about {runs} runs, {runs:.2g} hours"
    assert priced(v, 3600.0, without_rows=False) == v
    named = Verdict(INCONCLUSIVE, "", (Check("r", None, "no runs after the declaration", rule=rule, runs_needed=12),))
    assert priced(named, 3600.0, without_rows=False) == named  # a design's runs named by the entry: still no rows
    parted = Verdict(INCONCLUSIVE, "", (Check("r", None, "no runs after the declaration",
                                              rule=replace(rule, part=("pass=c1600",))),))
    assert priced(parted, 3600.0, without_rows=False).checks[0].beyond == f"needs about {runs} runs, {runs:.2g} hours"


def test_each_check_is_priced_at_one_seed_of_the_jobs_it_reads():
    """A check is priced at the jobs of its rule's sweep and part, not at the median seed of
    the entry: where seeds hold different jobs (wang_fig4_5's objective seeds hold two data
    sets, its NMI seeds three; theory_rates' added seeds one part) the entry's median seed
    is the price of neither."""
    import types

    from kktheory.reproduce.entry import check_seconds, picks
    from kktheory.report.claims import AT_LEAST, Margin, Rule

    assert picks(("d=x,y", "p=1"), ["d=y", "p=1", "seed=3"]) and not picks(("d=x",), ["d=z", "seed=3"])
    assert picks((), ["d=z"]) and not picks(("d=x",), ["seed=3"])  # a job without the key is not picked
    assert picks(("kernel.beta=1",), ["kernel.beta=1.0"]) and picks(("p=c100",), ["+p=c100"])  # numbers, prefixes
    job = lambda ids, *over: types.SimpleNamespace(ids=list(ids), overrides=list(over))  # noqa: E731
    own = [job([f"{d}{s}"], f"d={d}", f"seed={s}") for s in range(3) for d in "xyz"]  # seeds 0-2: x, y, z
    further = [job([f"o{d}{s}"], f"d={d}", f"seed={s}") for s in range(3, 6) for d in "xy"]
    rows = pd.DataFrame({"run_id": [j.ids[0] for j in own + further],
                         "seed": [int(j.overrides[1][5:]) for j in own + further],
                         "time_embed": [{"x": 1.0, "y": 10.0, "z": 100.0}[j.overrides[0][2]] for j in own + further]})
    rule = lambda name, **where: Rule(name, "q", AT_LEAST, Margin(0.9, "why", "src"), **where)  # noqa: E731
    checks = (Check("all", None, "", rule=rule("all")), Check("x", None, "", rule=rule("x", part=("d=x",))),
              Check("further", None, "", rule=rule("further", sweep="f")), Check("plain", None, ""))
    got = check_seconds(Verdict(INCONCLUSIVE, "", checks), rows,
                        [(("s", ()), types.SimpleNamespace(jobs=own)), (("f", ()), types.SimpleNamespace(jobs=further))],
                        "s")
    assert got == {"all": (111.0, ""), "x": (1.0, ""), "further": (11.0, ""), "plain": (111.0, "")}
    assert seed_seconds(rows) == 61.0  # the entry's median seed, what every check was priced at before: neither


def test_every_rule_names_a_sweep_of_its_entry_and_a_part_its_sweep_has():
    """A rule's ``sweep`` is one of its entry's further sweeps and each override of its
    ``part`` names an axis of that sweep's config (hydra.sweeper.params) and values on it:
    a part that picked no job would price its check at nothing (NaN: not priced) and give
    a decision's seeds to no job."""
    import yaml

    from kktheory.report import catalogue
    from kktheory.reproduce.entry import override_value
    from kktheory.run.sweeps import EXPERIMENTS_DIR, config_name

    named = 0
    for entry in catalogue().values():
        for rule in entry.rules:
            if not (rule.sweep or rule.part):
                continue
            assert not rule.sweep or rule.sweep in entry.extra_sweeps, (entry.name, rule.name)
            cfg = rule.sweep or config_name(entry.sweep_name, "paper")
            params = yaml.safe_load((EXPERIMENTS_DIR / f"{cfg}.yaml").read_text())["hydra"]["sweeper"]["params"]
            for key, _, want in (o.partition("=") for o in rule.part):
                axis = [override_value(str(v).strip()) for v in str(params[key]).split(",")]
                assert all(override_value(v) in axis for v in want.split(",")), (entry.name, rule.name, key, want, axis)
            named += 1
    assert named > 60  # yin_table2's, wang_fig3's, wang_fig4_5's and theory_rates' checks name theirs


def test_a_failure_holm_set_aside_is_priced_after_the_whole_family_is_judged():
    """A failure that Holm's correction over the whole family (timing checks added last) sets
    aside is undecided with its runs; priced after that correction, its line carries its hours
    (priced before it, the second correction rewrote the line and the hours were lost)."""
    from kktheory.report.claims import AT_LEAST, Margin, Rule
    from kktheory.report.decide import Estimate
    from kktheory.report.verdicts import judge_checks

    rule = Rule("r", "a mean", AT_LEAST, Margin(0.45, "why", "src"))
    x = [0.40, 0.44, 0.41, 0.43, 0.42, 0.46, 0.39, 0.445]  # below 0.45 at 95 %, not after Holm over 5
    first = judge_checks([rule.check(Estimate.mean_of(x)), Check("b", True, "y", p_fail=0.9)])
    whole = judge_checks([*first.checks, *(Check(f"t{i}", True, "z", p_fail=0.9) for i in range(3))])
    (c,) = priced(whole, {"r": 10.0}).checks[:1]
    assert c.passed is None and "Holm" in c.detail and "h of this machine" in c.detail


def test_a_price_that_leaves_out_jobs_no_seed_has_run_says_it_is_a_lower_bound():
    """The overlap sweep's seeds had run n ≤ 8,000 only: a seed's compute from its rows leaves out
    n = 16,000 and 32,000, its costliest jobs — the price is a lower bound and names them."""
    v = priced(_verdict(), {"a": (10.0, "theory_rates/n=n16000; theory_rates/n=n32000")})
    assert v.checks[0].detail.endswith("; ≈ at least 0.25 h of this machine (90 more seeds × 10 s; not priced, no "
                                       "seed has run them yet: theory_rates/n=n16000; theory_rates/n=n32000)")
    assert priced(_verdict(), {"a": (10.0, "")}) == priced(_verdict(), 10.0)


def test_check_seconds_names_the_planned_jobs_that_no_seed_has_run():
    import types

    from kktheory.reproduce.entry import check_seconds

    def job(n: int, s: int) -> types.SimpleNamespace:
        return types.SimpleNamespace(overrides=[f"n={n}", f"seed={s}"], ids=[f"r{n}-{s}"])

    plan = types.SimpleNamespace(jobs=[job(n, s) for n in (1000, 2000, 4000) for s in range(3)])
    rows = pd.DataFrame({"run_id": [f"r{n}-{s}" for n in (1000, 2000) for s in range(2)], "seed": [0, 1, 0, 1],
                         "time_embed": [1.0, 1.0, 2.0, 2.0]})
    out = check_seconds(_verdict(), rows, [(("sweep", ()), plan)], "sweep")
    assert out["a"] == out["b"] == (3.0, "n=4000")  # seeds 0 and 1 ran n = 1000 and 2000: 1 + 2 s each
