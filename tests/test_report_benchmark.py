"""Benchmark passes shown beside an entry (kktheory.report.benchmark): one row per pass,
replaced by a new pass of the same name; wang_fig2 renders them beside Tables 4 and 6 and
INDEX shows them in the entry's section."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from kktheory.report import benchmark
from kktheory.report.entries import wang_fig2
from kktheory.reproduce.entry import benchmark_tables


def a_pass(name: str = "c400, s = 20", c: int = 400, total: float = 250.0, n: int = 8_100_000, **over) -> dict:
    row = {"pass": name, "command": f"python benchmarks/wang_mnist8m.py --pass c{c}", "n": n, "c": c, "ell": c // 2,
           "s": "[20]", "n_s": 1, "seed": 0, "load_s": 38.0, "pass1_s": 88.0, "nystrom_s": 126.0, "dr_s": 70.0,
           "kmeans_s": 26.0, "evaluation_s": total - 222.0, "total_s": total, "pass1_gflops": 76.0,
           "pass2_gflops": 74.0, "gemm_gflops": 168.0, "peak_rss_gib": 2.8, "cpus": 2, "cpu": "AMD EPYC",
           "ram_gib": 23.5, "load_before": 0.26, "load_after": 1.51, "commit": "f" * 40, "date": "2026-11-26",
           "train_nmi": "0.392 (s = 20)"}
    return {**row, **over}


def test_a_pass_replaces_the_row_of_its_name_and_keeps_the_others(tmp_path: Path):
    assert benchmark.load(tmp_path, "e") is None
    benchmark.record(tmp_path, "e", a_pass(total=300.0))
    benchmark.record(tmp_path, "e", a_pass("c1600", c=1600, total=1400.0))
    benchmark.record(tmp_path, "e", a_pass(total=250.0))
    rec = benchmark.load(tmp_path, "e")
    assert sorted(rec["pass"]) == ["c1600", "c400, s = 20"] and len(rec) == 2
    assert rec.set_index("pass").loc["c400, s = 20", "total_s"] == 250.0
    with pytest.raises(ValueError, match="names its pass"):
        benchmark.record(tmp_path, "e", {"total_s": 1.0})


def test_wang_fig2_shows_each_pass_beside_the_papers_tables():
    text = wang_fig2.time_against_tables_4_6(pd.DataFrame([
        a_pass(total=250.0),
        a_pass("c1600", c=1600, total=1500.0, s="[10, 20, 40, 80, 127, 160, 320]", n_s=7),
    ]))
    # Table 4 at 32 / 64 nodes (Wang et al. 2019), stage by stage, and its best total
    for paper in ("665.2 / 369.7", "38.9 / 87.3", "119.9 / 223.2", "867.9 / 734.7"):
        assert paper in text
    assert f"{734.7 / 250.0:.1f}× this run's time" in text
    assert f"{64 * 32 * 734.7 / 500.0:,.0f}× its core-seconds" in text
    # Table 6: each s a run of 32 nodes; the six totals summed against one run of seven s
    assert "2634.5–2849.9 each" in text and "21.1–570.5 each" in text
    assert f"{18277.0 / 1500.0:.1f}× the wall time of this one run of 7 values of s" in text
    assert f"{76.0:.1f} ({76.0 / 168.0:.2f})" in text  # pass 1 against the machine's GEMM rate
    assert "load average 0.26 before, 1.51 after; commit fffffff" in text
    small = wang_fig2.time_against_tables_4_6(pd.DataFrame([a_pass(n=20000)]))
    assert "not compared" in small and "× this run's time" not in small


def test_index_shows_the_record_only_for_an_entry_that_renders_one(tmp_path: Path):
    from kktheory.report.entries.wang_fig3 import FIG3

    benchmark.record(tmp_path / "rows", "wang_fig2", a_pass())
    benchmark.record(tmp_path / "rows", "wang_fig3", a_pass())
    (shown,) = benchmark_tables(wang_fig2.FIG2, tmp_path)
    assert shown.startswith("Time against Tables 4 and 6")
    assert benchmark_tables(wang_fig2.FIG2, tmp_path / "elsewhere") == []  # no record
    assert benchmark_tables(FIG3, tmp_path) == []  # no renderer
