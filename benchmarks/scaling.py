"""Scaling on augmented MNIST: time and peak RSS per n, each n in its own process.

    python benchmarks/scaling.py [--ns 125000,...,8100000] [--m 400] [overrides ...]

Each n runs ``python run.py dataset=augmented_mnist n=<n> m=<m> k=10 sketch=nystrom
clustering=minibatch centroids=projected reference=none force=true ...`` (Calandriello &
Rosasco's mnist8m setting: uniform Nyström, MiniBatchKMeans, the centroids of H_m; float32
by default) in a fresh subprocess (so ru_maxrss is that run's own peak) into a temporary
results folder, and prints the row's timings, its peak RSS and the ratios of time and peak
RSS between consecutive n (×2 on the default grid, ×2.03 to 8.1M). The augmented images
must exist (``python -m kktheory.datasets --n <max n>`` generates them once; the first n
rows of a larger file are reused); generation is not part of the timed run. Up to
``dataset.in_memory_max`` (2,000,000) images the training set is read into an n × 784
float32 array (pixels / 255); above it the rows stay on disk and are read in blocks, so
the features (n × m float32: 13 GB at 8.1M and m = 400) dominate the memory.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time

import pandas as pd

from common import ROOT, machine

DEFAULTS = ("dataset=augmented_mnist", "k=10", "kernel.bandwidth=fixed", "kernel.sigma=5.0", "sketch=nystrom",
            "clustering=minibatch", "centroids=projected", "reference=none", "force=true", "n_test=10000",
            "memory_budget_gb=16")
COLUMNS = ["n", "m", "time_load", "time_embed", "time_cluster", "time_evaluate", "time_total",
           "time_wall", "peak_rss_mb", "n_iter", "test_nmi", "train_nmi"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ns", default="125000,250000,500000,1000000,2000000,4000000,8100000")
    ap.add_argument("--m", type=int, default=400)
    ap.add_argument("overrides", nargs="*")
    a = ap.parse_args()
    from kktheory.run.store import load

    print(f"machine: {machine()}")
    print(f"config: {' '.join(DEFAULTS + tuple(a.overrides))} m={a.m}")
    rows = []
    for n in (int(x) for x in a.ns.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            args = [sys.executable, str(ROOT / "run.py"), *DEFAULTS, *a.overrides, f"n={n}", f"m={a.m}",
                    f"results_dir={tmp}"]
            t0 = time.perf_counter()
            res = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
            wall = time.perf_counter() - t0
            if res.returncode != 0:
                print(f"n={n}: failed ({res.returncode}): {res.stderr.strip().splitlines()[-1:]}")
                continue
            row = load(tmp).iloc[0]
        rows.append({**{c: row[c] for c in COLUMNS if c in row.index}, "process_s": wall})
        print(pd.DataFrame(rows[-1:]).to_string(index=False, float_format=lambda x: f"{x:.4g}"), flush=True)
    table = pd.DataFrame(rows)
    table["rss_ratio"] = table.peak_rss_mb / table.peak_rss_mb.shift(1)
    table["time_ratio"] = table.time_total / table.time_total.shift(1)
    print("\n" + table.to_string(index=False, float_format=lambda x: f"{x:.4g}"))
    print(f"load at the end: {machine().rsplit('load average', 1)[1]}")


if __name__ == "__main__":
    main()
