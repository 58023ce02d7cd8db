"""End to end: python -m kktheory.reproduce on a tiny version of real catalogue entries."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest
from omegaconf import OmegaConf

from kktheory import reproduce
from kktheory.report import catalogue
from tests.conftest import ROOT, run_files

#: yin_fig1 shrunk: 200 points, one seed, three methods, three values of m
TINY = ["n=200", "n_test=200", "seed=0", "yin/method=exact,subgaussian,yin_nystrom", "m_sqrt_n=x0.5,x1,x2"]


def call(tmp_path, *args: str) -> int:
    return reproduce.main([*args, "--results-dir", str(tmp_path / "results"), "--out", str(tmp_path / "figs")])


def test_every_entry_has_a_small_and_a_paper_config():
    for name in catalogue():
        for scale in reproduce.SCALES:
            assert (reproduce.EXPERIMENTS_DIR / f"{reproduce.config_name(name, scale)}.yaml").exists()


def test_yin_fig1_tiny_runs_draws_judges_then_only_redraws(tmp_path, capsys):
    assert call(tmp_path, "yin_fig1", "--scale", "small", *TINY) == 0
    out = capsys.readouterr().out
    files = run_files(tmp_path / "results")
    assert len(files) == 7  # exact once (m plays no role), 2 sketches × 3 m
    figs = tmp_path / "figs"
    assert (figs / "yin_fig1.png").stat().st_size > 10_000 and (figs / "yin_fig1.pdf").exists()
    # no k-means on kernel columns in TINY and no timing pass: the target and speed checks are undecided
    assert "yin_fig1: INCONCLUSIVE" in out and "no timing pass stored" in out
    index = (figs / "INDEX.md").read_text()
    section = index.split("## yin_fig1")[1].split("\n## ")[0]
    assert "**Verdict: " in section and "n = 200" in section
    assert "Command: `python -m kktheory.reproduce yin_fig1 --scale small n=200" in section
    pending = index.split("## calandriello_fig1")[1].split("## ")[0]
    assert "**Verdict: not run**" in pending and "Rule: " in pending and "Claim: " in pending
    stamps = {f: f.stat().st_mtime_ns for f in files}

    assert call(tmp_path, "yin_fig1", "--scale", "small", *TINY) == 0
    out = capsys.readouterr().out
    assert "row(s) in" not in out  # no job ran
    assert {f: f.stat().st_mtime_ns for f in run_files(tmp_path / "results")} == stamps
    assert "7 rows from 9 jobs (9 reused, 0 run, 0 could not run)" in (figs / "INDEX.md").read_text()


def test_rows_written_by_run_py_are_reused(tmp_path):
    job = ["n=200", "n_test=200", "seed=0", "yin/method=subgaussian", "m_sqrt_n=x1"]
    proc = subprocess.run(
        [sys.executable, str(ROOT / "run.py"), "--config-dir", "experiments", "--config-name", "yin_fig1_small",
         "-m", *job, f"results_dir={tmp_path / 'results'}"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    (written,) = run_files(tmp_path / "results")
    sweep = reproduce.run_sweep("yin_fig1_small", tmp_path / "results", job, log=lambda _: None)
    assert (sweep.jobs, sweep.reused, sweep.ran) == (1, 1, 0)
    assert list(sweep.rows["run_id"]) == [written.stem]


def test_missing_data_is_reported_as_not_run_with_the_files(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("KKTHEORY_DATA", str(tmp_path / "empty"))
    (tmp_path / "empty").mkdir()
    assert call(tmp_path, "yin_table2", "--scale", "small", "yin_table2/data=covtype", "yin/method=ros",
                "seed=0") == 0
    out = capsys.readouterr().out
    assert "yin_table2: NOT RUN" in out and "covtype" in out
    section = (tmp_path / "figs" / "INDEX.md").read_text().split("## yin_table2")[1].split("\n## ")[0]
    assert "**Verdict: not run.**" in section and "covtype" in section
    assert run_files(tmp_path / "results") == []


def test_failure_rows_carry_the_job_config(tmp_path):
    sweep = reproduce.run_sweep("yin_fig1_small", tmp_path / "results",
                                ["n=200", "n_test=200", "seed=0", "yin/method=subgaussian", "m_sqrt_n=x1",
                                 "sketch.p=7.0"], log=lambda _: None)
    assert sweep.failed == 1 and sweep.ran == 0
    row = sweep.rows.iloc[0]
    assert row["error_kind"] == "ConfigError" and "sketch.p" in row["error"]
    assert row["sketch.name"] == "subgaussian" and row["n"] == 200
    assert isinstance(sweep.rows, pd.DataFrame)


def test_unknown_or_missing_name_is_a_one_line_error(capsys):
    assert reproduce.main(["nope"]) == 2
    assert "config error: name='nope': one of all, calandriello_fig1" in capsys.readouterr().err
    assert reproduce.main([]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    with pytest.raises(SystemExit) as exit_:
        reproduce.main(["all", "--scale", "huge"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--scale" in err[0] and "huge" in err[0]
    assert reproduce.main(["yin_fig1", "yin_table2"]) == 2  # a second name is not an override
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "yin_table2" in err[0]
    assert reproduce.main(["--list"]) == 0
    assert "theory_rates" in capsys.readouterr().out


def test_no_run_reports_missing_rows_without_computing(tmp_path):
    sweep = reproduce.run_sweep("yin_fig1_small", tmp_path / "results", TINY, execute=False, log=lambda _: None)
    assert sweep.ran == 0 and sweep.failed == 7 and run_files(tmp_path / "results") == []
    assert set(sweep.rows["error_kind"]) == {"NotInStore"}


def test_paper_scale_rows_are_saved_and_read_back_from_the_committed_file(tmp_path, monkeypatch, capsys):
    """--scale paper writes <out>/rows/<entry>.parquet after every job; on a machine with an
    empty store those committed rows are used without recomputing."""
    from kktheory import timing

    job = ["n=200", "n_test=200", "seed=0", "yin/method=subgaussian,yin_nystrom", "m_sqrt_n=x1"]
    out = tmp_path / "figs"
    pass_file = timing.path_of(tmp_path / "r1", "yin_fig1")  # a timing pass in the store (the committed one)
    pass_file.parent.mkdir(parents=True)
    pass_file.write_bytes(timing.path_of(reproduce.COMMITTED_ROWS, "yin_fig1").read_bytes())
    assert reproduce.main(["yin_fig1", "--scale", "paper", *job, "--results-dir", str(tmp_path / "r1"),
                           "--out", str(out)]) == 0
    assert timing.path_of(out / "rows", "yin_fig1").read_bytes() == pass_file.read_bytes()  # committed beside the rows
    saved = out / "rows" / "yin_fig1.parquet"
    rows = pd.read_parquet(saved)
    assert len(rows) == 2 and reproduce.CONFIG_COL not in rows
    monkeypatch.setattr(reproduce, "COMMITTED_ROWS", out / "rows")
    capsys.readouterr()
    fresh = tmp_path / "r2"
    assert reproduce.main(["yin_fig1", "--scale", "paper", *job, "--no-run", "--results-dir", str(fresh),
                           "--out", str(tmp_path / "figs2")]) == 0
    printed = capsys.readouterr().out
    assert "2 committed row(s)" in printed and "row(s) in" not in printed
    assert "committed timing pass" in printed and timing.path_of(fresh, "yin_fig1").exists()
    again = pd.concat([pd.read_parquet(f) for f in run_files(fresh)], ignore_index=True)
    cols = ["run_id", "train_risk", "test_risk", "train_nmi"]
    pd.testing.assert_frame_equal(again[cols].sort_values("run_id").reset_index(drop=True),
                                  rows[cols].sort_values("run_id").reset_index(drop=True))


def test_exported_rows_leave_figure_extras_out(tmp_path):
    """Entries keep drawing extras (arrays) in DataFrame.attrs; the committed file holds rows only."""
    import numpy as np

    rows = pd.DataFrame({"run_id": ["b", "a"], "train_risk": [0.2, 0.1], reproduce.CONFIG_COL: ["x", "y"]})
    rows.attrs["features"] = {"onepass": (np.zeros((2, 2)), np.zeros(2))}
    path = reproduce.export_rows("entry", rows, tmp_path)
    back = pd.read_parquet(path)
    assert list(back["run_id"]) == ["a", "b"] and reproduce.CONFIG_COL not in back and not back.attrs
    assert rows.attrs  # the caller's frame is untouched


@pytest.mark.parametrize("name", ["wang_fig3_small", "pourkamali_fig3_small", "theory_rates_small",
                                  "yin_table2_small", "calandriello_fig2_small"])
def test_composed_jobs_equal_hydra_composing_each_job(name, tmp_path):
    """Composing once per config-group choice and setting the value overrides gives, for every
    job, the config Hydra composes from all of its overrides."""
    from hydra import compose, initialize_config_dir

    jobs = reproduce.expand_jobs(name)
    picked = jobs[:: max(1, len(jobs) // 12)]  # a spread of the sweep's jobs
    fast = reproduce.compose_jobs(name, picked, tmp_path)
    with initialize_config_dir(config_dir=str(reproduce.EXPERIMENTS_DIR), version_base="1.3"):
        for job, cfg in zip(picked, fast):
            want = compose(name, overrides=[reproduce._searchpath(), *job, f"results_dir={tmp_path}"])
            assert OmegaConf.to_yaml(cfg) == OmegaConf.to_yaml(want), job


def test_exported_rows_add_to_the_file(tmp_path):
    """A part of a sweep run alone (e.g. one seed) adds its rows; a row run again replaces its copy."""
    first = pd.DataFrame({"run_id": ["a", "b"], "train_risk": [0.1, 0.2]})
    reproduce.export_rows("entry", first, tmp_path)
    part = pd.DataFrame({"run_id": ["b", "c"], "train_risk": [0.25, 0.3]})
    path = reproduce.export_rows("entry", part, tmp_path, merge=True)
    back = pd.read_parquet(path).sort_values("run_id")
    assert list(back["run_id"]) == ["a", "b", "c"] and list(back["train_risk"]) == [0.1, 0.25, 0.3]
    back = pd.read_parquet(reproduce.export_rows("entry", part, tmp_path))  # the whole sweep: exactly its rows
    assert list(back["run_id"]) == ["b", "c"]


def test_compute_time_counts_a_jobs_load_and_reference_once():
    rows = pd.DataFrame({"seed": [0, 0, 1], "time_load": [2.0, 2.0, 3.0], "time_reference": [5.0, 5.0, 0.0],
                         "time_embed": [1.0, 1.0, 1.0], "time_cluster": [0.5, 0.5, 0.5]})
    assert reproduce._compute_time(rows) == 2.0 + 3.0 + 5.0 + 3 * 1.5
