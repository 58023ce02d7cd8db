"""kktheory.judge.judging and kktheory.judge.claimfile: a user's claim judged by the catalogue's decision code.

Each claim shape on synthetic rows passes when true, fails when false and is inconclusive
when the rows are too noisy to tell; a catalogue check (theory_rates_yin's Remark 1 rate)
judged as a catalogue Rule and as a claim file gives the same result; every bad claim file
ends with one line, exit status 2, and nothing written, and so does a claim over a column its
sweep's rows will not hold; the exit status is the verdict (0, 1, 3; ``--exit-zero``: 0).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from kktheory.judge import judging as judge
from kktheory.judge.claimfile import ClaimError, load_claim, parse_claim, parse_expression
from kktheory.report.verdicts import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED, judge_checks

ROOT = Path(__file__).resolve().parent.parent
MARGIN = {"why": "the smallest difference a reader would care about", "source": "a test"}


@pytest.fixture(scope="module")
def known() -> set[str]:
    from kktheory.run import schema

    return set(schema.columns())


def rows_of(f, xs=(500, 1000, 2000, 4000), seeds=10, groups=("nystrom", "ros"), sd=0.0, seed=0, col="test_risk"):
    """Rows with y = f(x) + N(0, sd) per group, x and seed; k = 10, γ = √n."""
    rng = np.random.default_rng(seed)
    out = []
    for g in groups:
        for x in xs:
            for s in range(seeds):
                out.append({"sketch.name": g, "n": x, "seed": s, "k": 10, "gamma_value": math.sqrt(x),
                            "m_rule": "sqrt_n", col: f(x) + rng.normal(0, sd)})
    return pd.DataFrame(out)


def claim(known, shape, value, **kw):
    data = {"sweep": ["n=500"], "x": "n", "y": kw.pop("y", "test_risk"), "by": "sketch.name", "shape": shape,
            "margin": {"value": value, **MARGIN}, **kw}
    return parse_claim(data, "t", known=known)


def status(known, rows, shape, value, **kw) -> str:
    return judge.judge_rows(claim(known, shape, value, **kw), rows).verdict.status


# -- each shape: true → reproduced, false → not reproduced, noisy → inconclusive ---------------
def test_at_least(known):
    rows = rows_of(lambda x: 1.0, sd=0.02)
    assert status(known, rows, "at_least", 0.9) == REPRODUCED
    assert status(known, rows, "at_least", 1.1) == NOT_REPRODUCED
    assert status(known, rows_of(lambda x: 1.0, sd=1.0, seeds=3), "at_least", 0.9) == INCONCLUSIVE


def test_at_most_and_a_reference_group(known):
    rows = rows_of(lambda x: 1.0, sd=0.02)
    assert status(known, rows, "at_most", 1.1) == REPRODUCED
    assert status(known, rows, "at_most", 0.9) == NOT_REPRODUCED
    assert status(known, rows_of(lambda x: 1.0, sd=1.0, seeds=3), "at_most", 1.1) == INCONCLUSIVE
    # the difference to a reference group: ros − nystrom = 0 ≤ 0.1
    assert status(known, rows, "at_most", 0.1, reference="nystrom") == REPRODUCED


def test_equivalent(known):
    assert status(known, rows_of(lambda x: 0.0, sd=0.01), "equivalent", 0.05) == REPRODUCED
    assert status(known, rows_of(lambda x: 0.5, sd=0.01), "equivalent", 0.05) == NOT_REPRODUCED
    assert status(known, rows_of(lambda x: 0.0, sd=1.0, seeds=3), "equivalent", 0.05) == INCONCLUSIVE
    assert status(known, rows_of(lambda x: 0.5, sd=0.01), "equivalent", 0.05, target=0.5) == REPRODUCED


def test_plateau(known):
    assert status(known, rows_of(lambda x: 1.0, sd=0.01), "plateau", 0.05, beyond=1000) == REPRODUCED
    assert status(known, rows_of(lambda x: x / 1000, sd=0.01), "plateau", 0.05, beyond=1000) == NOT_REPRODUCED
    assert status(known, rows_of(lambda x: 1.0, sd=1.0, seeds=3), "plateau", 0.05) == INCONCLUSIVE


def test_rate_against_a_theorem_and_an_expression(known):
    fast = rows_of(lambda x: 2 * x ** -0.5, sd=0.0005, seeds=5)
    assert status(known, fast, "rate", 0.1, against="yin_thm2") == REPRODUCED  # b = −0.5 ≤ −0.22 + 0.1
    flat = rows_of(lambda x: 0.05, sd=0.0005, seeds=5)
    assert status(known, flat, "rate", 0.1, against="calandriello_thm1") == NOT_REPRODUCED  # b = 0 > −0.5 + 0.1
    noisy = rows_of(lambda x: 2 * x ** -0.5, sd=0.1, seeds=3)
    assert status(known, noisy, "rate", 0.1, against="yin_thm2") == INCONCLUSIVE
    j = judge.judge_rows(claim(known, "rate", 0.1, against="1/sqrt(n)"), fast)
    assert j.verdict.status == REPRODUCED
    assert all(r.margin.value == pytest.approx(-0.4) for r in j.rules)  # the shape's slope −0.5 + 0.1


def test_bound_by_column_and_formula(known):
    ok = rows_of(lambda x: 0.5, sd=0.01, seeds=40).assign(lemma2_bound=1.0)
    assert status(known, ok, "bound", 0.9, bound="lemma2_bound") == REPRODUCED
    half = ok.assign(lemma2_bound=np.where(ok["seed"] % 2 == 0, 1.0, 0.1))
    assert status(known, half, "bound", 0.9, bound="lemma2_bound") == NOT_REPRODUCED
    few = rows_of(lambda x: 0.5, sd=0.01, seeds=1, xs=(500, 1000)).assign(lemma2_bound=1.0)
    assert status(known, few, "bound", 0.9, bound="lemma2_bound") == INCONCLUSIVE  # 2/2 holds: CP lower < 0.9
    j = judge.judge_rows(claim(known, "bound", 0.9, bound="20*sqrt(k/n)"), ok)
    assert j.verdict.status == REPRODUCED and "observed/bound median" in j.verdict.text


def test_the_seed_is_the_unit_of_a_claim_file(known):
    """Rows of one seed share its data draw: 5 seeds × 16 values of x holding everywhere are 5
    runs (Clopper–Pearson over seeds: 5/5 does not show 0.9), not 80; a difference to a
    reference is paired by seed, so a seed's offset shared by both groups cancels."""
    xs = tuple(500 + 100 * i for i in range(16))
    many = rows_of(lambda x: 0.5, sd=0.01, seeds=5, xs=xs).assign(lemma2_bound=1.0)
    j = judge.judge_rows(claim(known, "bound", 0.9, bound="lemma2_bound"), many)
    assert j.verdict.status == INCONCLUSIVE and "holds in 5/5 seeds (16 cells each" in j.verdict.text
    offset = {s: 3.0 * math.sin(7 * s) for s in range(10)}  # a large per-seed offset, both groups
    rows = rows_of(lambda x: 1.0, seeds=10, sd=0.001)
    rows["test_risk"] += rows["seed"].map(offset) + np.where(rows["sketch.name"] == "ros", 0.01, 0.0)
    assert status(known, rows, "at_most", 0.05, reference="nystrom") == REPRODUCED  # ros − nystrom ≈ 0.01 ± 0.0014
    dup = pd.concat([rows, rows.assign(test_risk=rows["test_risk"] + 1)])
    j = judge.judge_rows(claim(known, "at_most", 0.05, reference="nystrom"), dup)
    assert j.verdict.status == INCONCLUSIVE and "not one run per seed" in j.verdict.text


# -- one decision code: a catalogue check judged both ways ----------------------------------------
def test_a_catalogue_rate_check_judged_as_a_claim_file_gives_the_same_result(known):
    from kktheory.report import theory
    from kktheory.report.entries import theory_rates_yin

    for f, sd in ((lambda x: 3 * x ** -0.45, 0.002), (lambda x: 0.02 * x ** -0.05, 0.002),
                  (lambda x: 3 * x ** -0.2, 0.02)):
        rows = rows_of(f, xs=theory.RATE_NS, seeds=5, groups=theory_rates_yin.REMARK1_SKETCHES, sd=sd,
                       col="excess_pop_risk")
        catalogue = judge_checks(theory.rate_checks(rows, "excess_pop_risk", theory_rates_yin.REMARK1_RULES,
                                                    theory_rates_yin.REMARK1_SKETCHES, "√(k/n)·log²√n")).checks
        mine = judge.judge_rows(claim(known, "rate", theory.RATE_MARGIN, against="yin_thm2", y="excess_pop_risk"),
                                rows).verdict.checks
        by_sketch = {c.name.split(" of ")[1].split()[0]: c for c in catalogue}
        assert len(mine) == len(by_sketch) == 2
        for c in mine:
            twin = by_sketch[c.name.split(" of ")[1]]
            assert c.passed == twin.passed
            assert c.detail.split(";")[0] == twin.detail.split(";")[0]  # estimate, interval, boundary
            assert c.rule.margin.value == twin.rule.margin.value and c.rule.shape == twin.rule.shape


# -- the claim file --------------------------------------------------------------------------------
def test_the_shipped_example_parses():
    c = load_claim(ROOT / "claims" / "yin_rate.yaml")
    assert (c.shape, c.against, c.x, c.y, c.by) == ("rate", "yin_thm2", "n", "excess_pop_risk", "sketch.name")


def test_expressions_are_a_whitelist():
    e = parse_expression("sqrt(k/n)*log(sqrt(n))**2 + gamma/n + d_eff")
    assert e.columns == ("k", "n", "gamma_value", "deff")
    assert e.evaluate({"k": 10.0, "n": 100.0, "gamma": 10.0, "d_eff": 1.0}) == pytest.approx(
        math.sqrt(0.1) * math.log(10) ** 2 + 0.1 + 1.0)
    for bad in ("__import__('os')", "n.real", "(lambda: 1)()", "n[0]", "'a'", "sqrt(x=n)", "n +"):
        with pytest.raises(ClaimError):
            parse_expression(bad)


BAD = [
    ({"y": "excess_pop_rsk"}, "y='excess_pop_rsk'", "excess_pop_risk"),
    ({"shape": "rising"}, "shape='rising'", "at_least"),
    ({"margin": {"value": 0.1, "source": "a test"}}, "margin.why=None", "justification"),
    ({"against": "sqrt(n"}, "against='sqrt(n'", "does not parse"),
    ({"sweep": ["sketch=nystrom", "n=500,1000", "seed=0", "population.test_n=200"]}, "x='n'", "at least 3 values"),
]


@pytest.mark.parametrize("change,field,allowed", BAD, ids=[b[1].split("=")[0] for b in BAD])
def test_a_bad_claim_file_is_one_line_exit_2_nothing_written(tmp_path, capsys, change, field, allowed):
    from omegaconf import OmegaConf

    data = {"sweep": ["sketch=nystrom", "n=500,1000,2000", "seed=0", "population.test_n=200"], "by": "sketch.name",
            "x": "n", "y": "excess_pop_risk", "shape": "rate", "against": "yin_thm2", "margin": {"value": 0.1, **MARGIN}}
    data.update(change)
    path = tmp_path / "bad.yaml"
    path.write_text(OmegaConf.to_yaml(OmegaConf.create(data)))
    results, out = tmp_path / "results", tmp_path / "out"
    code = judge.main([str(path), "--results-dir", str(results), "--out", str(out)])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1 and field in err and allowed in err, err
    assert not results.exists() and not out.exists()


#: a true claim over a tiny sweep (4 runs of a few seconds): a Gaussian kernel's risk is at most 1 < 10
TINY = {"name": "tiny", "sweep": ["sketch=nystrom", "n=120,160", "n_test=60", "seed=0,1", "k=3", "reference=none"],
        "by": "sketch.name", "x": "n", "y": "test_risk", "shape": "at_most",
        "margin": {"value": 10.0, "why": "a Gaussian kernel's risk is at most κ(x, x) = 1", "source": "a test"}}


def tiny_claim(folder: Path, **change) -> Path:
    """:data:`TINY` with ``change`` applied, written to ``folder/tiny.yaml``."""
    from omegaconf import OmegaConf

    path = folder / "tiny.yaml"
    path.write_text(OmegaConf.to_yaml(OmegaConf.create({**TINY, **change})))
    return path


def test_judge_runs_a_tiny_sweep_and_writes_figure_section_and_verdict(tmp_path, capsys):
    path = tiny_claim(tmp_path)
    out = tmp_path / "out"
    assert judge.main([str(path), "--results-dir", str(tmp_path / "r"), "--out", str(out)]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    assert line.startswith("tiny: reproduced"), line
    md = (out / "tiny.md").read_text()
    for part in ("## tiny", "**Verdict: reproduced.**", "Checks declared before the data", "margin", "Command: "):
        assert part in md, part
    assert (out / "tiny.png").stat().st_size > 0 and (out / "tiny.pdf").exists()
    # resumable: a second call runs nothing
    assert judge.main([str(path), "--results-dir", str(tmp_path / "r"), "--out", str(out)]) == 0
    assert "0 ran, 4 stored" in capsys.readouterr().out


# -- the exit status is the verdict; a column the rows do not hold is one line ---------------------
@pytest.fixture(scope="module")
def tiny_store(tmp_path_factory) -> Path:
    """A results store holding the rows of :data:`TINY`'s sweep."""
    folder = tmp_path_factory.mktemp("tiny")
    judge.main([str(tiny_claim(folder)), "--results-dir", str(folder / "results"), "--out", str(folder / "out")])
    return folder / "results"


def stored(results: Path) -> list[str]:
    """The names of the store's run files."""
    return sorted(p.name for p in (results / "runs").iterdir())


FALSE = {"shape": "at_least"}  # the risk at least 10: false
VERDICTS = [
    ({}, 0, "reproduced"),
    (FALSE, 1, "not reproduced"),
    ({"shape": "plateau", "beyond": 160}, 3, "inconclusive"),  # no x beyond the largest: undecidable
    ({"filter": {"seed": 7}}, 3, "not run"),  # no stored row passes the filter
]


def test_the_exit_status_is_the_verdict(tiny_store, tmp_path, capsys):
    for change, code, verdict in VERDICTS:
        argv = [str(tiny_claim(tmp_path, **change)), "--results-dir", str(tiny_store), "--out", str(tmp_path / "out"),
                "--no-run"]
        assert (judge.main(argv), verdict) == (code, verdict)
        assert capsys.readouterr().out.strip().splitlines()[-1].startswith(f"tiny: {verdict}")
    empty = [str(tiny_claim(tmp_path)), "--results-dir", str(tmp_path / "empty"), "--out", str(tmp_path / "out"),
             "--no-run"]
    assert judge.main(empty) == 3  # not run: no row at all (drawn empty, not a KeyError)


def test_exit_zero_reports_a_false_claim_with_status_0(tiny_store, tmp_path, capsys):
    argv = [str(tiny_claim(tmp_path, **FALSE)), "--results-dir", str(tiny_store), "--out", str(tmp_path / "out"),
            "--no-run", "--exit-zero"]
    assert judge.main(argv) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1].startswith("tiny: not reproduced")
    assert (tmp_path / "out" / "tiny.md").exists()


def test_the_help_documents_the_exit_status(capsys):
    with pytest.raises(SystemExit) as end:
        judge.main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert end.value.code == 0
    for part in ("0 reproduced", "1 not reproduced", "3 inconclusive", "2 for a bad claim", "--exit-zero"):
        assert part in text, part


def schema_words(column: str) -> str:
    """The schema's words on when ``column`` is absent (docs/schema.md's "empty when")."""
    from kktheory.run import schema

    return schema.columns()[column].empty.split(";")[0]


UNWRITTEN = [  # (change, field, column, the overrides named): no job of TINY's Nyström sweep writes it
    ({"y": "approx_fro_rel"}, "y", "approx_fro_rel", "sketch=kpca, sketch=nystrom_rr, sketch=power, sketch=onepass"),
    ({"by": "sketch.rank"}, "by", "sketch.rank", "the override sketch=onepass"),
    ({"filter": {"pop_test_risk": 0.0}}, "filter.pop_test_risk", "pop_test_risk", ""),
]


@pytest.mark.parametrize("change,field,column,overrides", UNWRITTEN, ids=[u[1] for u in UNWRITTEN])
def test_a_column_no_job_writes_is_one_line_exit_2_before_the_sweep(tmp_path, capsys, change, field, column,
                                                                     overrides):
    results, out = tmp_path / "results", tmp_path / "out"
    assert judge.main([str(tiny_claim(tmp_path, **change)), "--results-dir", str(results), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert f"{field}={column!r}" in err and schema_words(column) in err and overrides in err, err
    assert not results.exists() and not out.exists()  # no row, no figure, no section


def test_a_column_no_finished_run_holds_is_one_line_exit_2_once_the_rows_are_read(tiny_store, tmp_path, capsys):
    before, out = stored(tiny_store), tmp_path / "out"
    argv = [str(tiny_claim(tmp_path, y="ref_n_iter")), "--results-dir", str(tiny_store), "--out", str(out), "--no-run"]
    assert judge.main(argv) == 2  # reference=none: the configs cannot tell ("the reference is exact"), the rows do
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "y='ref_n_iter'" in err and schema_words("ref_n_iter") in err, err
    assert stored(tiny_store) == before and not out.exists()
