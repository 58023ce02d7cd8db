"""A 10-point linear m-grid against its largest point alone, through kktheory.run.experiment.run.

    python benchmarks/m_grid.py [--points 10] [--m-max 1000] [overrides ...]

Default config: MNIST, n = 20000 (the largest n with exact lifted risks by default),
n_test = 2000, k = 10, Gaussian σ = 5, uniform Nyström, k-means++ (n_init 5), float32,
no reference (it is cached on disk and shared by both). Extra arguments are run.py
overrides applied to all three runs. The grid m = m_max/points, 2·m_max/points, …, m_max
runs in one call (nested landmarks: one K_{n,m_max}; the lifted risks of all m in one pass
over the kernel blocks), once with independent k-means per m and once with
``clustering.warm_start=true`` (each smaller m one Lloyd start from the next larger m's
partition); the single point is m = m_max alone. All are run with ``force=true`` into
fresh result folders; each row's time_* columns give the breakdown."""

from __future__ import annotations

import argparse
import tempfile

import pandas as pd

from common import compose, machine, timed

DEFAULTS = ("dataset=mnist", "n=20000", "n_test=2000", "k=10", "kernel.sigma=5.0", "sketch=nystrom",
            "clustering=kmeanspp", "dtype=float32", "reference=none", "force=true")
COLUMNS = ["m", "time_embed", "time_cluster", "time_evaluate", "n_iter", "objective", "test_risk", "test_nmi"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--points", type=int, default=10)
    ap.add_argument("--m-max", type=int, default=1000)
    ap.add_argument("overrides", nargs="*")
    a = ap.parse_args()
    from kktheory.run.experiment import run

    grid = [a.m_max * (i + 1) // a.points for i in range(a.points)]
    print(f"machine: {machine()}")
    print(f"config: {' '.join(DEFAULTS + tuple(a.overrides))}")
    results = {}
    runs = (("single", (f"m={a.m_max}",)), ("grid", (f"m=[{','.join(map(str, grid))}]",)),
            ("warm grid", (f"m=[{','.join(map(str, grid))}]", "clustering.warm_start=true")))
    for name, extra in runs:
        with tempfile.TemporaryDirectory() as tmp:
            cfg = compose(*DEFAULTS, *a.overrides, *extra, f"results_dir={tmp}")
            out, t = timed(lambda: run(cfg))
        results[name] = (t, pd.DataFrame(out.rows).sort_values("m"))
        print(f"\n{name} ({' '.join(extra)}): {t:.1f} s wall-clock")
        print(results[name][1][COLUMNS].to_string(index=False, float_format=lambda x: f"{x:.4g}"))
    t_single, single = results["single"]
    print()
    for name in ("grid", "warm grid"):
        t_grid, rows = results[name]
        last = rows[rows.m == a.m_max].iloc[0]
        print(f"{name} / single = {t_grid / t_single:.2f} (target ≤ 1.3); totals: embed "
              f"{rows.time_embed.sum():.1f} s, cluster {rows.time_cluster.sum():.1f} s, evaluate "
              f"{rows.time_evaluate.sum():.1f} s; m={a.m_max} test_risk {last.test_risk:.6g} "
              f"(alone {single.test_risk.iloc[0]:.6g})")
    cold, warm = results["grid"][1].set_index("m"), results["warm grid"][1].set_index("m")
    diff = (warm.test_risk - cold.test_risk).abs()
    print(f"warm vs independent k-means per m: |test_risk difference| max {diff.max():.2g}, "
          f"mean {diff.mean():.2g}; test NMI mean {warm.test_nmi.mean():.4f} vs {cold.test_nmi.mean():.4f}")
    print(f"load at the end: {machine().rsplit('load average', 1)[1]}")


if __name__ == "__main__":
    main()
