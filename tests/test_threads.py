"""Thread control of a run: the ``threads`` field, the joblib launcher share, the row column."""

from __future__ import annotations

import numpy as np
import pytest
from threadpoolctl import threadpool_info

from kktheory.run.config import build_spec
from kktheory.errors import ConfigError
from kktheory.run.experiment import run
from kktheory.machine.memory import cpu_count
from kktheory.run.store import load
from kktheory.machine.threads import current_threads, joblib_share, thread_limits
from tests.hydra_cfg import make_cfg

SMALL = ("n=200", "n_test=50", "k=3", "m=8", "reference=none")


def test_joblib_share_follows_joblib() -> None:
    assert joblib_share(2, 2) == 1
    assert joblib_share(1, 8) == 8
    assert joblib_share(3, 8) == 2
    assert joblib_share(16, 8) == 1
    assert joblib_share(-1, 8) == 1  # all CPUs busy with jobs
    assert joblib_share(-2, 8) == 1  # 7 workers


def test_thread_limits_apply_inside_and_restore_after() -> None:
    before = [p["num_threads"] for p in threadpool_info()]
    with thread_limits(1):
        assert current_threads() == 1
    assert [p["num_threads"] for p in threadpool_info()] == before
    with thread_limits(None):
        assert [p["num_threads"] for p in threadpool_info()] == before


@pytest.mark.parametrize("value", [0, -1])  # non-integers: OmegaConf type check
def test_threads_validated(value: object) -> None:
    with pytest.raises(ConfigError, match="threads"):
        build_spec(make_cfg(*SMALL, f"threads={value}"))


def test_run_records_the_thread_limit_and_it_is_not_identity(tmp_path) -> None:
    out1 = run(make_cfg(*SMALL, "threads=1", f"results_dir={tmp_path}"))
    assert out1.rows[0]["blas_threads"] == 1
    out2 = run(make_cfg(*SMALL, "threads=2", f"results_dir={tmp_path}"))
    assert out2.skipped == [out1.rows[0]["run_id"]]  # same run: threads do not change results


def test_joblib_launcher_shares_the_cores(cli) -> None:
    res = cli("-m", "hydra/launcher=joblib", "hydra.launcher.n_jobs=2", *SMALL, "seed=0,1")
    assert res.returncode == 0, res.stderr
    rows = load(cli.results)
    assert len(rows) == 2
    assert np.all(rows.blas_threads == max(1, cpu_count() // 2))
