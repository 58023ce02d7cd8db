"""End to end: python -m kktheory.reproduce on a tiny version of real catalogue entries."""

from __future__ import annotations

import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from omegaconf import OmegaConf

from kktheory import errors
from kktheory.report import rows as report_rows
from kktheory.report.cost import compute_time
from kktheory.reproduce import cli as reproduce_cli
from kktheory.reproduce import committed as reproduce_committed
from kktheory.reproduce import entry as reproduce_entry
from kktheory.reproduce import plan as reproduce_plan
from kktheory.reproduce import sweep as reproduce_sweep
from kktheory.run import sweeps
from kktheory.report import catalogue
from kktheory.run.store import load_arrays
from tests.conftest import ROOT, run_files

#: yin_fig1 shrunk: 200 points, one seed, three methods, three values of m
TINY = ["n=200", "n_test=200", "seed=0", "yin/method=exact,subgaussian,yin_nystrom", "m_sqrt_n=x0.5,x1,x2"]


def call(tmp_path, *args: str) -> int:
    return reproduce_cli.main([*args, "--results-dir", str(tmp_path / "results"), "--out", str(tmp_path / "figs")])


def test_every_entry_has_a_small_and_a_paper_config():
    for entry in catalogue().values():
        for scale in sweeps.SCALES:
            assert (sweeps.EXPERIMENTS_DIR / f"{sweeps.config_name(entry.sweep_name, scale)}.yaml").exists()


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
    sweep = reproduce_sweep.run_sweep("yin_fig1_small", tmp_path / "results", job, log=lambda _: None)
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


@pytest.mark.parametrize("every, calls", [(0.0, 3), (3600.0, 1)])
def test_rows_are_saved_as_jobs_finish_at_most_every_save_interval(tmp_path, monkeypatch, every, calls):
    """``after_job`` reads and saves the rows so far: after a job once SAVE_EVERY_S has passed
    since the last save, and after the last job — three jobs give three saves with no interval
    and one with an hour's, each holding every row run so far."""
    monkeypatch.setattr(reproduce_sweep, "SAVE_EVERY_S", every)
    saved = []
    job = ["n=200", "n_test=200", "seed=0,1,2", "yin/method=subgaussian", "m_sqrt_n=x1"]
    sweep = reproduce_sweep.run_sweep("yin_fig1_small", tmp_path / "results", job, log=lambda _: None,
                                      after_job=lambda rows: saved.append(len(rows)))
    assert sweep.ran == 3 and saved == ([1, 2, 3] if calls == 3 else [3])


def test_failure_rows_carry_the_job_config(tmp_path):
    sweep = reproduce_sweep.run_sweep("yin_fig1_small", tmp_path / "results",
                                ["n=200", "n_test=200", "seed=0", "yin/method=subgaussian", "m_sqrt_n=x1",
                                 "sketch.p=7.0"], log=lambda _: None)
    assert sweep.failed == 1 and sweep.ran == 0
    row = sweep.rows.iloc[0]
    assert row["error_kind"] == "ConfigError" and "sketch.p" in row["error"]
    assert row["sketch.name"] == "subgaussian" and row["n"] == 200
    assert isinstance(sweep.rows, pd.DataFrame)


def test_unknown_or_missing_name_is_a_one_line_error(capsys):
    assert reproduce_cli.main(["nope"]) == 2
    assert "config error: name='nope': one of all, calandriello_fig1" in capsys.readouterr().err
    assert reproduce_cli.main([]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    with pytest.raises(SystemExit) as exit_:
        reproduce_cli.main(["all", "--scale", "huge"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--scale" in err[0] and "huge" in err[0]
    assert reproduce_cli.main(["yin_fig1", "yin_table2"]) == 2  # a second name is not an override
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "yin_table2" in err[0]
    assert reproduce_cli.main(["--list"]) == 0
    assert "theory_rates" in capsys.readouterr().out
    assert reproduce_cli.main(["yin_fig1", "--scale", "paper", "--decide", "--sweep", "nope"]) == 2
    err = capsys.readouterr().err.strip().splitlines()  # the entry's own sweep is one it may name
    assert err == ["config error: --sweep=nope: with --decide, one of yin_fig1's sweeps: yin_fig1, yin_fig1_k"]


def test_no_run_reports_missing_rows_without_computing(tmp_path):
    sweep = reproduce_sweep.run_sweep("yin_fig1_small", tmp_path / "results", TINY, execute=False, log=lambda _: None)
    assert sweep.ran == 0 and sweep.failed == 7 and run_files(tmp_path / "results") == []
    assert set(sweep.rows["error_kind"]) == {"NotInStore"}


def test_paper_scale_rows_are_saved_and_read_back_from_the_committed_file(tmp_path, monkeypatch, capsys):
    """--scale paper writes <out>/rows/<entry>.parquet after every job; on a machine with an
    empty store those committed rows are used without recomputing."""
    from kktheory.report import speed

    job = ["n=200", "n_test=200", "seed=0", "yin/method=subgaussian,yin_nystrom", "m_sqrt_n=x1"]
    out = tmp_path / "figs"
    pass_file = speed.path_of(tmp_path / "r1", "yin_fig1")  # a timing pass in the store (the committed one)
    pass_file.parent.mkdir(parents=True)
    pass_file.write_bytes(speed.path_of(reproduce_committed.COMMITTED_ROWS, "yin_fig1").read_bytes())
    assert reproduce_cli.main(["yin_fig1", "--scale", "paper", *job, "--results-dir", str(tmp_path / "r1"),
                           "--out", str(out)]) == 0
    assert speed.path_of(out / "rows", "yin_fig1").read_bytes() == pass_file.read_bytes()  # committed beside the rows
    saved = out / "rows" / "yin_fig1.parquet"
    rows = pd.read_parquet(saved)
    assert len(rows) == 2 and report_rows.CONFIG_COL not in rows
    monkeypatch.setattr(reproduce_committed, "COMMITTED_ROWS", out / "rows")
    capsys.readouterr()
    fresh = tmp_path / "r2"
    assert reproduce_cli.main(["yin_fig1", "--scale", "paper", *job, "--no-run", "--results-dir", str(fresh),
                           "--out", str(tmp_path / "figs2")]) == 0
    printed = capsys.readouterr().out
    assert "2 committed row(s) read" in printed and "row(s) in" not in printed
    assert "committed timing pass" in printed and speed.path_of(fresh, "yin_fig1").exists()
    assert not run_files(fresh)  # a redraw reads the committed file and writes no run
    # the same rows as a store holding them gives: its verdict and figure equal a redraw from the store
    from kktheory.report import catalogue

    entry = catalogue()["yin_fig1"]
    direct = reproduce_entry.reproduce(entry, "paper", fresh, tmp_path / "figs3", job, execute=False, log=lambda s: None)
    reproduce_committed.import_committed("yin_fig1", tmp_path / "r4", log=lambda s: None)
    stored = reproduce_entry.reproduce(entry, "paper", tmp_path / "r4", tmp_path / "figs4", job, execute=False,
                                 log=lambda s: None)
    assert len(run_files(tmp_path / "r4")) == 2
    assert (direct.status, direct.text) == (stored.status, stored.text)
    assert (tmp_path / "figs3" / "yin_fig1.png").read_bytes() == (tmp_path / "figs4" / "yin_fig1.png").read_bytes()
    # a redraw into the folder of the committed rows leaves them as they are, byte for byte
    before = saved.read_bytes()
    assert reproduce_cli.main(["yin_fig1", "--scale", "paper", *job, "--no-run", "--results-dir", str(tmp_path / "r3"),
                           "--out", str(out)]) == 0
    assert saved.read_bytes() == before
    # a run made outside the redraw (another invocation into the store) reaches the committed rows at the next one
    other = [o.replace("seed=0", "seed=1") for o in job]
    assert reproduce_cli.main(["yin_fig1", "--scale", "paper", *other, "--results-dir", str(tmp_path / "r3"),
                               "--out", str(tmp_path / "figs5")]) == 0
    both = [o.replace("seed=0", "seed=0,1") for o in job]
    assert reproduce_cli.main(["yin_fig1", "--scale", "paper", *both, "--no-run", "--results-dir", str(tmp_path / "r3"),
                               "--out", str(out)]) == 0
    assert sorted(pd.read_parquet(saved)["seed"]) == [0, 0, 1, 1]


def test_exported_rows_leave_figure_extras_out(tmp_path):
    """Entries keep drawing extras (arrays) in DataFrame.attrs; the committed file holds rows only."""
    import numpy as np

    rows = pd.DataFrame({"run_id": ["b", "a"], "train_risk": [0.2, 0.1], report_rows.CONFIG_COL: ["x", "y"]})
    rows.attrs["features"] = {"onepass": (np.zeros((2, 2)), np.zeros(2))}
    path = reproduce_committed.export_rows("entry", rows, tmp_path)
    back = pd.read_parquet(path)
    assert list(back["run_id"]) == ["a", "b"] and report_rows.CONFIG_COL not in back and not back.attrs
    assert rows.attrs  # the caller's frame is untouched


@pytest.mark.parametrize("name", ["wang_fig3_small", "pourkamali_fig3_small", "theory_rates_small",
                                  "yin_table2_small", "calandriello_fig2_small"])
def test_composed_jobs_equal_hydra_composing_each_job(name, tmp_path):
    """Composing once per config-group choice and setting the value overrides gives, for every
    job, the config Hydra composes from all of its overrides."""
    from hydra import compose, initialize_config_dir

    jobs = sweeps.expand_jobs(name)
    picked = jobs[:: max(1, len(jobs) // 12)]  # a spread of the sweep's jobs
    fast = sweeps.compose_jobs(name, picked, tmp_path)
    with initialize_config_dir(config_dir=str(sweeps.EXPERIMENTS_DIR), version_base="1.3"):
        for job, cfg in zip(picked, fast):
            want = compose(name, overrides=[sweeps._searchpath(), *job, f"results_dir={tmp_path}"])
            assert OmegaConf.to_yaml(cfg) == OmegaConf.to_yaml(want), job


def test_exported_rows_add_to_the_file(tmp_path):
    """A part of a sweep run alone (e.g. one seed) adds its rows; a row run again replaces its copy."""
    first = pd.DataFrame({"run_id": ["a", "b"], "train_risk": [0.1, 0.2]})
    reproduce_committed.export_rows("entry", first, tmp_path)
    part = pd.DataFrame({"run_id": ["b", "c"], "train_risk": [0.25, 0.3]})
    path = reproduce_committed.export_rows("entry", part, tmp_path, merge=True)
    back = pd.read_parquet(path).sort_values("run_id")
    assert list(back["run_id"]) == ["a", "b", "c"] and list(back["train_risk"]) == [0.1, 0.25, 0.3]
    back = pd.read_parquet(reproduce_committed.export_rows("entry", part, tmp_path))  # the whole sweep: exactly its rows
    assert list(back["run_id"]) == ["b", "c"]


def test_a_run_two_sweeps_plan_is_written_once(tmp_path):
    """theory_rates' bounds seeds 40–79 are also its further sweep theory_rates_lemma5's: the
    rows saved as jobs finished held both copies (696 duplicated rows in the committed file,
    which a pivot by (seed, m) refused); each run id is written once."""
    rows = pd.DataFrame({"run_id": ["a", "b", "a"], "train_risk": [0.1, 0.2, 0.1]})
    back = pd.read_parquet(reproduce_committed.export_rows("entry", rows, tmp_path))
    assert list(back["run_id"]) == ["a", "b"]


def test_compute_time_counts_a_jobs_load_and_reference_once():
    rows = pd.DataFrame({"seed": [0, 0, 1], "time_load": [2.0, 2.0, 3.0], "time_reference": [5.0, 5.0, 0.0],
                         "time_embed": [1.0, 1.0, 1.0], "time_cluster": [0.5, 0.5, 0.5]})
    assert compute_time(rows) == 2.0 + 3.0 + 5.0 + 3 * 1.5


#: Pourkamali Table 1 shrunk: 300 points, two seeds, the three methods (Nyström with m = 20 and 100)
POURKAMALI = ["n=300", "n_test=20", "seed=0,1"]


def verdict_lines(out: str, name: str) -> list[str]:
    """The verdict printed for an entry: its status line and checks (not the files and time)."""
    lines = out.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(f"{name}: "))
    return [ln for ln in lines[start:] if ln.startswith((f"{name}: ", "  ")) and not ln.startswith("  files:")]


def test_second_no_run_reads_rows_only(tmp_path, capsys, monkeypatch):
    """A redraw neither composes Hydra configs nor validates, loads data or fits a sketch, and
    gives the same verdict, table and Fig. 2 as the run that computed the rows."""
    import hydra

    from kktheory.run import config
    from kktheory.run import experiment
    from kktheory.embeddings import Sketch

    assert call(tmp_path, "pourkamali_table1_fig2", *POURKAMALI) == 0
    first = capsys.readouterr().out
    assert "row(s) in" in first
    table = (tmp_path / "figs" / "pourkamali_table1.md").read_text()
    assert "Fig. 2 lacks" not in table

    def refuse(*_, **__):
        raise AssertionError("a redraw must only read")

    for owner, name in ((hydra, "compose"), (hydra, "initialize_config_dir"), (reproduce_plan, "compose_jobs"),
                        (reproduce_plan, "expand_jobs"), (reproduce_plan, "sweep_params"), (config, "build_spec"),
                        (experiment, "run"), (experiment, "load_data"), (Sketch, "fit_nested")):
        monkeypatch.setattr(owner, name, refuse)
    (tmp_path / "figs" / "pourkamali_fig2.png").unlink()
    assert call(tmp_path, "pourkamali_table1_fig2", *POURKAMALI, "--no-run") == 0
    second = capsys.readouterr().out
    assert verdict_lines(second, "pourkamali_table1_fig2") == verdict_lines(first, "pourkamali_table1_fig2")
    assert len(verdict_lines(first, "pourkamali_table1_fig2")) == 9  # status, observed setup, seven checks
    assert (tmp_path / "figs" / "pourkamali_table1.md").read_text() == table
    assert (tmp_path / "figs" / "pourkamali_fig2.png").stat().st_size > 10_000


def test_a_stored_plan_gives_the_ids_composing_gives(tmp_path):
    """The plan read back from its file: the jobs, run ids, configs and refusals that
    expanding and composing every job with Hydra give."""
    name, overrides = "pourkamali_fig3_small", ["seed=0,1", "m=[5,50]", "centroids=projected"]
    made = reproduce_plan.plan_sweep(name, tmp_path, overrides)
    read = reproduce_plan.plan_sweep(name, tmp_path, overrides)
    assert made.composed is not None and read.composed is None  # the second one was not composed
    jobs = sweeps.expand_jobs(name, overrides)
    cfgs = sweeps.compose_jobs(name, jobs, tmp_path)
    assert [j.overrides for j in read.jobs] == jobs and read.axes == ["pourkamali/method", "seed"]
    assert [j.config for j in read.jobs] == [OmegaConf.to_yaml(c) for c in cfgs]
    refused = 0
    for job, cfg in zip(read.jobs, cfgs):
        try:
            assert job.ids == reproduce_plan.run_ids(cfg) and job.error is None
        except errors.UserError as exc:  # one-pass features are not a projection
            assert job.ids == [] and job.error == reproduce_plan.error_of(exc)
            refused += 1
    assert refused == 2 and len({i for j in read.jobs for i in j.ids}) == 2 * 3 * 2  # seeds × methods × m


def test_a_plan_is_composed_again_when_a_yaml_file_or_module_changes(tmp_path, monkeypatch):
    """Any change of a YAML file of experiments/ or configs/, or of a kktheory module, makes
    the next plan compose again (and its ids follow the change)."""
    experiments = tmp_path / "experiments"
    configs = tmp_path / "configs"
    package = tmp_path / "package"
    shutil.copytree(sweeps.EXPERIMENTS_DIR, experiments)
    shutil.copytree(reproduce_plan.CONFIG_DIR, configs)
    package.mkdir()
    (package / "module.py").write_text("X = 1\n")
    monkeypatch.setattr(reproduce_plan, "CONFIG_DIR", configs)
    monkeypatch.setattr(reproduce_plan, "PACKAGE_DIR", package)
    name, overrides = "pourkamali_table1_fig2_small", ["seed=0"]

    def plan():
        return reproduce_plan.plan_sweep(name, tmp_path / "results", overrides, experiments)

    before = plan()
    assert before.composed is not None and plan().composed is None
    with open(experiments / "pourkamali" / "method" / "nystrom.yaml", "a") as f:
        f.write("# a comment\n")
    same = plan()
    assert same.composed is not None and [j.ids for j in same.jobs] == [j.ids for j in before.jobs]
    assert plan().composed is None
    main = experiments / "pourkamali_table1_fig2.yaml"
    main.write_text(main.read_text().replace("n: 4000", "n: 3000"))
    changed = plan()
    assert changed.composed is not None and {j.setup["n"] for j in changed.jobs} == {3000}
    assert all(a.ids != b.ids for a, b in zip(changed.jobs, before.jobs))
    assert [j.ids for j in changed.jobs] == [reproduce_plan.run_ids(c) for c in changed.composed]
    with open(configs / "sketch" / "kpca.yaml", "a") as f:
        f.write("# a comment\n")
    assert plan().composed is not None and plan().composed is None
    (package / "module.py").write_text("X = 2\n")
    assert plan().composed is not None


def test_rows_are_read_from_their_cache_until_a_run_file_changes(tmp_path, monkeypatch):
    from kktheory.run import store as run_store

    store = run_store.Store(tmp_path)
    for i, risk in enumerate((0.1, 0.2)):
        store.write(f"r{i}", {"run_id": f"r{i}", "train_risk": risk}, {})
    cache = tmp_path / "rows.parquet"
    first = reproduce_sweep.read_rows(tmp_path, ["r0", "r1", "r2"], cache)
    assert list(first["train_risk"]) == [0.1, 0.2] and cache.exists()
    with monkeypatch.context() as m:  # unchanged files: one read of the cache, no run file
        m.setattr(run_store, "read_rows", lambda *_, **__: pytest.fail("read a run file"))
        assert list(reproduce_sweep.read_rows(tmp_path, ["r0", "r1", "r2"], cache)["train_risk"]) == [0.1, 0.2]
    store.write("r1", {"run_id": "r1", "train_risk": 0.3}, {})  # a run written again (force=true)
    assert list(reproduce_sweep.read_rows(tmp_path, ["r0", "r1", "r2"], cache)["train_risk"]) == [0.1, 0.3]
    store.write("r2", {"run_id": "r2", "train_risk": 0.4}, {})  # a run finished since
    assert list(reproduce_sweep.read_rows(tmp_path, ["r0", "r1", "r2"], cache)["train_risk"]) == [0.1, 0.3, 0.4]


def test_paper_scale_commits_the_points_its_figure_plots(tmp_path, monkeypatch, capsys):
    """Pourkamali's Fig. 2 plots the features of the first seed of each method: --scale paper
    commits them as a table of points beside the rows (no .npz), and a fresh store draws the
    same Fig. 2 from that table."""
    out = tmp_path / "figs"
    job = ["n=300", "n_test=20", "seed=0,1", "pourkamali/method=nystrom,exact_eig", "m=[20]"]
    assert reproduce_cli.main(["pourkamali_table1_fig2", "--scale", "paper", *job, "--results-dir",
                           str(tmp_path / "r1"), "--out", str(out)]) == 0
    rows = pd.read_parquet(out / "rows" / "pourkamali_table1_fig2.parquet")
    first = rows[rows["seed"] == 0]
    points = pd.read_parquet(out / "rows" / "figures" / "pourkamali_table1_fig2.parquet")
    assert len(rows) == 4 and len(first) == 2 and not list(out.rglob("*.npz"))
    # of the entry's committed rows, only the planned jobs' are copied to the store (here none:
    # n = 300 is not the paper's), not one file for each of the thousands committed
    assert len(run_files(tmp_path / "r1")) == 4
    assert sorted(points["run_id"].unique()) == sorted(first["run_id"]) and len(points) == 2 * 300
    for rid in first["run_id"]:  # the points are the runs' stored features and classes
        a = load_arrays(rid, tmp_path / "r1")
        p = points[points["run_id"] == rid]
        F = a["train_features"].reshape(300, -1)
        np.testing.assert_allclose(p[["y1", "y2"]].to_numpy()[:, :F.shape[1]], F, rtol=1e-6, atol=1e-6)
        assert np.array_equal(p["class"].to_numpy(), a["train_classes"])
    monkeypatch.setattr(reproduce_committed, "COMMITTED_ROWS", out / "rows")
    capsys.readouterr()
    assert reproduce_cli.main(["pourkamali_table1_fig2", "--scale", "paper", *job, "--no-run", "--results-dir",
                           str(tmp_path / "r2"), "--out", str(tmp_path / "figs2")]) == 0
    assert "4 committed row(s)" in capsys.readouterr().out
    assert not list((tmp_path / "r2").rglob("*.npz"))  # drawn from the committed points, not arrays
    assert (tmp_path / "figs2" / "pourkamali_fig2.png").exists()
    assert "Fig. 2 lacks" not in (tmp_path / "figs2" / "pourkamali_table1.md").read_text()


def test_runs_per_setting_gives_the_range_over_settings():
    import pandas as pd

    from kktheory.reproduce.entry import runs_per_setting

    rows = pd.DataFrame({"m": [10] * 5 + [20] * 3, "seed": [0, 1, 2, 3, 4, 0, 1, 2]})
    assert runs_per_setting(rows) == "3–5"
    assert runs_per_setting(rows[rows["m"] == 10]) == "5"
    assert runs_per_setting(rows.iloc[0:0]) == ""


def test_committed_rows_are_compact_tables_of_catalogue_entries():
    """paper_figs holds rows and figure tables (Parquet), no per-run arrays, under 20 MB in all,
    one file per catalogue entry."""
    try:
        tracked = subprocess.run(["git", "ls-files", "paper_figs/rows"], cwd=ROOT, capture_output=True, text=True,
                                 check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    looks = [name for name in tracked if name.startswith("paper_figs/rows/looks/")]  # sequential decisions
    tracked = [name for name in tracked if name not in looks]
    assert tracked and all(name.endswith(".parquet") for name in tracked), tracked
    assert all(name.endswith((".json", ".pending")) for name in looks)  # a look's record, or its seeds while it runs
    assert sum((ROOT / name).stat().st_size for name in tracked) < 20 * 2**20
    names = {name.rsplit("/", 1)[1].removesuffix(".parquet") for name in tracked}
    assert names <= {e.sweep_name for e in catalogue().values()}
    assert {name.rsplit("/", 1)[1].rsplit(".", 1)[0] for name in looks} <= set(catalogue())


def test_further_sweeps_join_an_entry_at_paper_scale_when_no_override_picks_a_part(tmp_path, monkeypatch):
    """calandriello_fig2's run at mnist8m's n is a sweep of its own (extra_sweeps): reproducing
    the entry runs both sweeps and judges their rows together; overrides go to the main
    sweep alone, and the further sweep is then left out."""
    import dataclasses

    from kktheory.report.verdicts import Verdict

    calls, judged = [], []

    def fake_run(name, results_dir, overrides=(), execute=True, log=None, experiments_dir=None,
                 after_job=None, plan=None, committed=None):
        calls.append((name, tuple(overrides)))
        rows = pd.DataFrame({"run_id": [f"{name}-{i}" for i in range(2)], "n": 1, "seed": 0, "m": 1})
        return reproduce_sweep.SweepResult(rows=rows, jobs=2, reused=2)

    monkeypatch.setattr(reproduce_entry, "plan_sweep", lambda name, *a, **k: reproduce_plan.Plan([], ["seed"]))
    monkeypatch.setattr(reproduce_entry, "run_sweep", fake_run)
    monkeypatch.setattr(reproduce_entry, "import_committed", lambda *a, **k: 0)
    entry = dataclasses.replace(catalogue()["calandriello_fig2"], draw=lambda df, out: [],
                                judge=lambda df, level=0.95: judged.append(sorted(df["run_id"])) or Verdict("reproduced", "x"))
    reproduce_entry.reproduce(entry, "paper", tmp_path / "r", tmp_path / "out", log=lambda s: None)
    sweeps = ["calandriello_fig2", *entry.extra_sweeps]  # the run at mnist8m's n, the held-out setting
    assert "calandriello_fig2_mnist8m" in sweeps and calls == [(s, ()) for s in sweeps]
    assert judged[-1] == sorted(f"{s}-{i}" for s in sweeps for i in range(2))
    saved = pd.read_parquet(tmp_path / "out" / "rows" / "calandriello_fig2.parquet")
    assert len(saved) == 2 * len(sweeps)
    index = (tmp_path / "out" / "INDEX.md").read_text()
    assert "--config-name calandriello_fig2_mnist8m -m" in index and f"{2 * len(sweeps)} rows from" in index
    calls.clear()
    reproduce_entry.reproduce(entry, "paper", tmp_path / "r", tmp_path / "out", ["seed=3"], log=lambda s: None)
    assert calls == [("calandriello_fig2", ("seed=3",))]
