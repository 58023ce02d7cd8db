"""The timing pass (kktheory.timing): methods called alternately, loads recorded, speed claims
judged on the median per-round ratio and never failed under load. No test asserts a real time:
clocks and loads are injected, and the one real pass only checks what it records."""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np
import pandas as pd
import pytest

from kktheory import timing
from kktheory.report import entry as report_entry, speed
from kktheory.report.entries import yin_table2
from kktheory.report.verdicts import CAUSE_CLAIM, CAUSE_INCONCLUSIVE, CAUSE_READING, CAUSE_SCALE, REPRODUCED
from kktheory.report.decide import Estimate
from tests.test_report_yin import PAPER, table_from


class FakeClock:
    """A clock that advances by the duration the called method sets."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def fake_calls(durations: dict[str, float], clock: FakeClock, log: list):
    def make(name):
        def call(seed):
            log.append((name, seed))
            clock.now += durations[name]
        return call
    return {name: make(name) for name in durations}


def test_alternate_calls_every_method_once_per_round_in_order_and_records_loads():
    clock, log = FakeClock(), []
    loads = itertools.count(0.1, 0.1)
    recs = timing.alternate(fake_calls({"A": 1.0, "B": 2.0, "C": 3.0}, clock, log), rounds=3, warmup=1, seed=7,
                            clock=clock, load=lambda: (next(loads), 0.0, 0.0))
    assert [name for name, _ in log] == ["A", "B", "C"] * 4  # one warm-up round, then 3 rounds
    assert [seed for _, seed in log] == [7] * 3 + [7] * 3 + [8] * 3 + [9] * 3  # a round pairs the methods
    assert len(recs) == 9 and [r["round"] for r in recs] == [1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert [r["seconds"] for r in recs] == [1.0, 2.0, 3.0] * 3
    # loads before and after each round (the warm-up round read 0.1 and 0.2)
    assert [x for r in recs[::3] for x in (r["load_before"], r["load_after"])] == pytest.approx(
        [0.3, 0.4, 0.5, 0.6, 0.7, 0.8])
    assert [r["order"] for r in recs] == list(range(4, 13))  # after the 3 warm-up calls


def test_a_method_over_the_cutoff_is_stopped():
    clock, log = FakeClock(), []
    recs = timing.alternate(fake_calls({"fast": 1.0, "slow": 100.0}, clock, log), rounds=2, warmup=1,
                            cutoff_s=90.0, clock=clock, load=lambda: (0.5, 0.0, 0.0))
    assert [n for n, _ in log] == ["fast", "slow", "fast", "fast"]
    assert [(r["method"], r["round"], r["status"]) for r in recs] == [
        ("slow", 0, timing.CUTOFF), ("fast", 1, timing.OK), ("fast", 2, timing.OK)]


PLAN = report_entry.TimingPlan(
    method_key="yin/method", methods=("a", "b", "base"), fix=(),
    claims=(report_entry.SpeedClaim("faster: a and b than base", ("a", "b"), ("base",)),),
)


def pass_table(seconds: dict[str, list[float]], loads: float | list[float] = 0.8, scale="paper", group="g",
               status: dict[str, str] | None = None) -> pd.DataFrame:
    """A stored pass: seconds[method][round − 1]; one load per round (before = after)."""
    rows = []
    rounds = len(next(iter(seconds.values())))
    load = [loads] * rounds if np.isscalar(loads) else loads
    for method, secs in seconds.items():
        for r, s in enumerate(secs, 1):
            rows.append({"round": r, "method": method, "seconds": s, "status": (status or {}).get(method, "ok"),
                         "load_before": load[r - 1], "load_after": load[r - 1]})
    return pd.DataFrame(rows).assign(group=group, scale=scale, n=10000, rounds=rounds, threads=1, cpu_count=2,
                                     created="2026-01-01T00:00:00")


def jitter(t: float, rounds: int = 10, rel: float = 0.05, shift: int = 0) -> list[float]:
    """``rounds`` times around t, spread ±rel (an assumed run-to-run spread: the paper gives none)."""
    return list(t * (1 + rel * np.roll(np.linspace(-1, 1, rounds), shift)))


def test_faster_passes_slower_fails_on_a_quiet_machine():
    (ok,) = speed.judge(PLAN, pass_table({"a": jitter(1), "b": jitter(2, shift=3), "base": jitter(4, shift=5)}), "e")
    assert ok.passed is True and "timing pass timing/e.parquet" in ok.detail and "load 0.80–0.80 on 2 CPUs" in ok.detail
    (bad,) = speed.judge(PLAN, pass_table({"a": jitter(1), "b": jitter(5, shift=3), "base": jitter(4, shift=5)}), "e")
    assert bad.passed is False and bad.cause == CAUSE_CLAIM


def test_the_ratio_is_the_median_over_paired_rounds_with_its_order_statistic_interval():
    a, base = [1.0, 2.0, 1.5, 1.2, 0.9, 3.0, 1.1, 1.3, 1.0, 1.4], [2.0, 2.5, 2.0, 3.0, 2.0, 2.0, 2.2, 2.6, 2.0, 2.8]
    plan = report_entry.TimingPlan("m", ("a", "base"), (report_entry.SpeedClaim("s", ("a",), ("base",)),))
    (c,) = speed.judge(plan, pass_table({"a": a, "base": base}), "e")
    r = np.sort(np.array(a) / np.array(base))
    assert c.detail.startswith(Estimate.median_of(r).text())
    assert Estimate.median_of(r).interval() == (r[1], r[8])  # [x(2), x(9)] for 10 rounds
    assert c.passed is bool(r[8] < 1)


def test_a_loaded_pass_is_inconclusive_never_failed():
    slower = {"a": jitter(1), "b": jitter(5, shift=3), "base": jitter(4, shift=5)}
    loads = [0.9] * 9 + [1.6]  # one reading above 0.75 × 2 CPUs
    (c,) = speed.judge(PLAN, pass_table(slower, loads), "e")
    assert c.passed is None and c.cause == CAUSE_INCONCLUSIVE and "load 1.60 above 1.5" in c.cause_detail
    (q,) = speed.judge(PLAN, pass_table(slower, 1.5), "e")  # at the limit: judged
    assert q.passed is False


def test_no_pass_few_rounds_small_scale_and_stopped_baselines():
    (none,) = speed.judge(PLAN, None, "yin_fig1")
    assert none.passed is None and "python -m kktheory.timing yin_fig1" in none.detail
    (few,) = speed.judge(PLAN, pass_table({"a": [1] * 5, "b": [1] * 5, "base": [4] * 5}), "e")
    assert few.passed is None and "fewer than 6 rounds" in few.detail
    (small,) = speed.judge(PLAN, pass_table({"a": jitter(1), "b": jitter(5), "base": jitter(4)}, scale="small"), "e")
    assert small.passed is False and small.cause == CAUSE_SCALE
    stopped = pass_table({"a": jitter(1), "b": jitter(2), "base": [95.0] + [math.nan] * 9}, status={"base": "cutoff"})
    (c,) = speed.judge(PLAN, stopped.dropna(subset=["seconds"]), "e")
    assert c.passed is True and "cutoff" in c.detail
    late = pass_table({"a": [95.0] + [math.nan] * 9, "b": jitter(2), "base": jitter(4)}, status={"a": "cutoff"})
    (d,) = speed.judge(PLAN, late.dropna(subset=["seconds"]), "e")
    assert d.passed is False


def test_yin_table2_speed_reproduced_on_the_papers_times():
    """Each data set a group with the paper's mean times (10 rounds, ±5 % assumed spread,
    load 0.8 on 2 CPUs); covtype's baselines are stopped ("/" in the paper)."""
    frames = []
    methods = ("exact", "gaussian", "nystrom_liu", "subgaussian", "ros", "yin_nystrom")
    for ds, cells in PAPER.items():
        secs = {m: jitter(c[0], shift=i) for i, (m, c) in enumerate(zip(methods, cells)) if c and m != "exact"}
        status = {}
        if ds == "covtype":
            secs.update(gaussian=[95.0], nystrom_liu=[95.0])
            status = {"gaussian": "cutoff", "nystrom_liu": "cutoff"}
        rows = [{"round": r, "method": m, "seconds": s, "status": status.get(m, "ok"), "load_before": 0.8,
                 "load_after": 0.8} for m, ss in secs.items() for r, s in enumerate(ss, 1)]
        frames.append(pd.DataFrame(rows).assign(group=ds, scale="paper", n=1000, rounds=10, threads=1,
                                                cpu_count=2, created="x"))
    checks = speed.judge(yin_table2.TABLE2_TIMING, pd.concat(frames, ignore_index=True), "yin_table2")
    claims = [c for c in checks if not c.name.startswith("control")]  # one per (sketch, baseline) pair
    assert len(claims) == 6 * 9 and all(c.passed for c in claims), "\n".join(c.detail for c in claims)
    controls = [c for c in checks if c.name.startswith("control")]  # Nyström (Liu) at m = 150: not in the paper
    assert len(controls) == 3 * 9 and all(c.passed is None for c in controls)


def test_each_group_of_a_pass_is_judged_at_the_level_its_own_stamp_maps_to():
    """A group timed again is new data; the other groups keep the level of the look that first
    judged them (``level`` a function of the group's creation stamp)."""
    times = {"a": jitter(1), "b": jitter(2, shift=3), "base": jitter(4, shift=5)}
    old = pass_table(times, group="old")
    new = pass_table(times, group="new").assign(created="2026-02-01T00:00:00")
    levels = {"2026-01-01T00:00:00": 0.99, "2026-02-01T00:00:00": 0.999}
    plan = dataclasses.replace(PLAN, group="dataset.name")
    checks = speed.judge(plan, pd.concat([old, new], ignore_index=True), "e", levels.__getitem__)
    assert {c.name: c.decision.level for c in checks} == {
        "faster: a and b than base [old]": 0.99, "faster: a and b than base [new]": 0.999}
    (fixed, _) = speed.judge(plan, pd.concat([old, new], ignore_index=True), "e", 0.97)
    assert fixed.decision.level == 0.97


def test_a_pass_of_fewer_methods_leaves_the_fuller_pass_for_the_claims_it_did_not_time(tmp_path):
    """A claim is judged on the newest pass of its group that timed all its methods: a second
    pass of only a and base decides "a faster than base" on its rounds and leaves "b faster
    than base" on the first pass, which it does not replace; a pass of every method does."""
    plan = dataclasses.replace(PLAN, claims=(report_entry.SpeedClaim("a than base", ("a",), ("base",)),
                                             report_entry.SpeedClaim("b than base", ("b",), ("base",))))
    full = pass_table({"a": jitter(5), "b": jitter(1, shift=3), "base": jitter(4, shift=5)})
    timing.store(tmp_path, "e", full)
    few = pass_table({"a": jitter(1), "base": jitter(4, shift=5)}).assign(created="2026-02-01T00:00:00")
    timing.store(tmp_path, "e", few)
    stored = speed.load(tmp_path, "e")
    assert sorted(stored["created"].unique()) == ["2026-01-01T00:00:00", "2026-02-01T00:00:00"]
    a, b = speed.judge(plan, stored, "e")
    assert a.passed and "of 2026-02-01T00:00:00" in a.detail  # the new pass's rounds
    assert b.passed and "of 2026-01-01T00:00:00" in b.detail  # the only pass that timed b
    drawn = speed.newest(stored)
    assert dict(drawn.groupby("method")["created"].first()) == {
        "a": "2026-02-01T00:00:00", "b": "2026-01-01T00:00:00", "base": "2026-02-01T00:00:00"}
    timing.store(tmp_path, "e", full.assign(created="2026-03-01T00:00:00"))
    assert list(speed.load(tmp_path, "e")["created"].unique()) == ["2026-03-01T00:00:00"]
    _, lacking = speed.judge(plan, few, "e")  # no pass timed b: the check names it
    assert lacking.passed is None and "not in the pass: b" in lacking.detail


def test_an_undecided_speed_check_names_the_rounds_and_the_pass_that_would_decide_it():
    noise = np.random.default_rng(3).lognormal(0.0, 0.2, (3, 12))
    close = pass_table({"a": list(0.95 * noise[0]), "b": list(0.95 * noise[1]), "base": list(noise[2])})
    (c,) = speed.judge(PLAN, close, "e")
    assert c.passed is None and c.runs_needed and "seeds" not in c.detail
    assert f"about {c.runs_needed} rounds per arm would decide it" in c.detail
    assert "rounds per arm" in dataclasses.replace(c.decision, level=0.999).text  # redrawn (Holm's level): still rounds
    assert f"python -m kktheory.timing e --rounds {c.runs_needed} --methods a,b,base" in c.detail


def test_methods_outside_the_plan_get_one_line_and_nothing_is_written(tmp_path, capsys):
    assert timing.main(["yin_fig1", "--methods", "subgaussian,nope", "--results-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("config error: methods=nope: each one of")
    assert not (tmp_path / "timing").exists()


def test_a_failure_against_a_baseline_read_otherwise_than_the_paper_is_caused_by_our_reading():
    """Yin's Nyström (Liu) runs here without the n²k term the paper states for it: a claim
    against it that fails is ours (cause *reading*), one against Gaussian is the claim's."""
    slower = pass_table({"a": jitter(5), "b": jitter(5, shift=3), "base": jitter(4, shift=5)})
    (plain,) = speed.judge(PLAN, slower, "e")
    assert plain.passed is False and plain.cause == CAUSE_CLAIM
    read = dataclasses.replace(PLAN, claims=(dataclasses.replace(PLAN.claims[0], reading="ours differs"),))
    (ours,) = speed.judge(read, slower, "e")
    assert ours.passed is False and ours.cause == CAUSE_READING and ours.why == "reading (ours differs)"
    liu = [c for c in yin_table2.TABLE2_TIMING.claims if "nystrom_liu" in c.slow[0]]
    assert len(liu) == 6 and all(c.reading for c in liu)  # the three claims and the three controls
    assert not any(c.reading for c in yin_table2.TABLE2_TIMING.claims if c.slow == ("gaussian",))


def test_a_rule_judged_per_group_shows_its_power_at_each_groups_rounds_and_level():
    """One speed rule, five data sets timed with 40 to 320 rounds and judged at their own
    looks' levels: the declared-checks table gives the power at each, not one group's count."""
    from kktheory.report.claims import rules_table
    from kktheory.reproduce.entry import judged_at

    plan = dataclasses.replace(PLAN, group="dataset.name")
    old = pass_table({"a": jitter(1, 40), "b": jitter(2, 40, shift=3), "base": jitter(4, 40, shift=5)}, group="dna")
    new = pass_table({"a": jitter(1, 8), "b": jitter(2, 8, shift=3), "base": jitter(4, 8, shift=5)},
                     group="a8a").assign(created="2026-02-01T00:00:00")
    levels = {"2026-01-01T00:00:00": 0.95, "2026-02-01T00:00:00": 0.99}
    checks = speed.judge(plan, pd.concat([old, new], ignore_index=True), "e", levels.__getitem__)
    verdict = speed.add_checks(yin_table2.judge_table2(table_from(PAPER)), checks)
    assert judged_at(verdict, 0.999)[PLAN.claims[0].name] == {(40, 0.95), (8, 0.99)}
    row = next(ln for ln in rules_table([PLAN.claims[0].rule], judged_at(verdict, 0.999), 0.999).splitlines()
               if ln.startswith("| faster"))
    assert " at 8 runs at 99%, " in row and " at 40 runs at 95% (effect" in row


def test_add_checks_rejudges_the_verdict():
    v = yin_table2.judge_table2(table_from(PAPER))
    assert v.status == REPRODUCED
    (none,) = speed.judge(yin_table2.TABLE2_TIMING, None, "yin_table2")
    assert speed.add_checks(v, [none]).status == "inconclusive"


def test_a_real_pass_alternates_the_methods_and_stores_config_machine_threads_and_loads(tmp_path):
    """A tiny pass on yin_fig1's small config (n = 200): what is stored, not how long it took."""
    plan = report_entry.TimingPlan("yin/method", ("exact", "subgaussian", "yin_nystrom"), (
        report_entry.SpeedClaim("s", ("subgaussian",), ("exact",)),), fix=("seed=0", "m_sqrt_n=x1"))
    t = timing.run_pass("yin_fig1", plan, "small", tmp_path, rounds=2, warmup=0, threads=1,
                        overrides=["n=200", "n_test=50"], log=lambda _: None)
    stored = speed.load(tmp_path, "yin_fig1")
    assert (tmp_path / "timing" / "yin_fig1.parquet").exists() and len(stored) == len(t) == 6
    s = stored.sort_values("order")
    assert list(s["method"]) == ["exact", "subgaussian", "yin_nystrom"] * 2 and list(s["round"]) == [1, 1, 1, 2, 2, 2]
    assert (s["seconds"] > 0).all() and s[["load_before", "load_after"]].notna().all().all()
    assert set(s["threads"]) == {1} and set(s["n"]) == {200} and set(s["scale"]) == {"small"}
    assert s["machine"].iloc[0] and s["host"].iloc[0] and s["cpu_count"].iloc[0] >= 1
    assert "n: 200" in s["config"].iloc[0] and "yin/method=exact" in s["job"].iloc[0]
    assert s["m"].nunique() == 1  # m = √n for every method (kernel k-means ignores it)
    few = timing.run_pass("yin_fig1", plan, "small", tmp_path / "few", rounds=2, warmup=0, threads=1,
                          overrides=["n=200", "n_test=50"], log=lambda _: None, methods=["subgaussian", "exact"])
    assert list(few.sort_values("order")["method"]) == ["exact", "subgaussian"] * 2  # in the plan's order

    # reproduce judges the entry's speed on this pass (here: too few rounds to decide)
    from kktheory.reproduce import cli as reproduce_cli
    from tests.test_reproduce import TINY

    assert reproduce_cli.main(["yin_fig1", "--scale", "small", *TINY, "--results-dir", str(tmp_path),
                           "--out", str(tmp_path / "figs")]) == 0
    section = (tmp_path / "figs" / "INDEX.md").read_text().split("## yin_fig1")[1].split("\n## ")[0]
    line = next(ln for ln in section.splitlines() if "faster: Sub-Gaussian" in ln and not ln.startswith("|"))
    assert "timing pass timing/yin_fig1.parquet" in line and "n = 200, 2 rounds" in line and "load " in line
    assert "fewer than 6 rounds" in line and line.lstrip().startswith("?")
