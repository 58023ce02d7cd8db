"""The command line as a user meets it: default run, resume, m lists, bad input."""

from __future__ import annotations

import pandas as pd
import pytest

from kktheory.run.store import load, load_arrays
from tests.conftest import run_files
from tests.inprocess import run_inprocess

SMALL = ("n=300", "n_test=200", "k=4")


def test_default_run_writes_one_file_then_skips(cli):
    first = cli()
    assert first.returncode == 0, first.stderr
    assert len(run_files(cli.results)) == 1
    assert "test risk" in first.stdout
    second = cli()
    assert second.returncode == 0, second.stderr
    assert "skipped 1 run" in second.stdout
    assert len(run_files(cli.results)) == 1


def test_m_list_is_nested_and_equals_single_runs(cli):
    sweep = cli("-m", *SMALL, "m=[10,20,40]", "seed=0,1")
    assert sweep.returncode == 0, sweep.stderr
    rows = load(cli.results)
    assert len(rows) == 6 and rows.run_id.is_unique
    assert sorted(rows.m.tolist()) == [10, 10, 20, 20, 40, 40]
    alone = cli(*SMALL, "m=10", "seed=1", "force=true")
    assert alone.returncode == 0, alone.stderr
    again = load(cli.results)
    assert len(again) == 6  # same identity: the file was rewritten, not added
    metrics = ["train_risk", "objective", "test_risk", "train_nmi", "test_nmi", "test_accuracy"]
    before = rows[(rows.m == 10) & (rows.seed == 1)][metrics].reset_index(drop=True)
    after = again[(again.m == 10) & (again.seed == 1)][metrics].reset_index(drop=True)
    pd.testing.assert_frame_equal(before, after)


def test_row_keeps_what_recomputation_needs(cli):
    assert cli(*SMALL, "m=sqrt_n").returncode == 0
    row = load(cli.results).iloc[0]
    assert row["m_rule"] == "sqrt_n" and row["m"] == 18
    for col in ("time_embed", "time_cluster", "time_evaluate", "time_total", "peak_rss_mb",
                "version", "git_commit", "cpu_count", "kernel.name", "sketch.name"):
        assert col in row.index
    arrays = load_arrays(row["run_id"], cli.results)
    assert arrays["train_labels"].shape == (300,)
    assert arrays["test_labels"].shape == (200,)
    assert arrays["landmarks"].shape == (18,)
    assert arrays["train_idx"].shape == (300,)


@pytest.mark.parametrize(
    "arg, field",
    [("m=0", "m"), ("m=100000", "m"), ("sketch=nope", "sketch"), ("k=abc", "k"),
     ("k=5000", "k"), ("dtype=float16", "dtype"), ("kernel.sigma=-1", "kernel.sigma"),
     ("n=-5", "n"), ("gamma=0", "gamma"), ("clustering.n_init=0", "clustering.n_init"),
     ("kernel=nope", "kernel"), ("bogus=1", "bogus")],
)
def test_bad_input_one_line_exit_2_no_file(cli, arg, field):
    res = cli(arg)
    assert res.returncode == 2, (res.stdout, res.stderr)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert f"{field}=" in lines[0]
    assert run_files(cli.results) == []


def test_help_lists_options_without_schemas(tmp_path):
    res = run_inprocess("--help", results_dir=tmp_path)
    assert res.returncode == 0, res.stderr
    section = res.stdout.split("== Configuration groups ==")[1].split("== Config ==")[0]
    groups = dict(line.split(": ", 1) for line in section.splitlines() if ": " in line)
    assert groups["kernel"] == "gaussian, linear, polynomial"
    assert groups["clustering"] == "kmeanspp, localsearch, minibatch"
    assert "nystrom" in groups["sketch"].split(", ") and "yin_hypercube" in groups["dataset"].split(", ")
    assert "_schema" not in res.stdout


def test_sweep_summaries_carry_their_job_number(tmp_path):
    res = run_inprocess("-m", "n=60", "n_test=30", "k=3", "m=8", "seed=0,1", results_dir=tmp_path)
    assert res.returncode == 0, res.stderr
    written = [line for line in res.stdout.splitlines() if "row(s) written" in line]
    assert [line.split(":")[0] for line in written] == ["job 0", "job 1"]
    headers = [line for line in res.stdout.splitlines() if "kktheory · " in line]
    assert [line.split(": kktheory")[0] for line in headers] == ["job 0", "job 1"]
    single = run_inprocess("n=60", "n_test=30", "k=3", "m=8", "seed=2", results_dir=tmp_path)
    assert single.stdout.startswith("kktheory · ") or "\nkktheory · " in single.stdout
