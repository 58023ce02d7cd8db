"""Where the time of the run at mnist8m's size goes, against what bounds each phase.

    python benchmarks/mnist8m_phases.py [--results-dir results] [--n 8100000]

Reads the rows of ``experiments/calandriello_fig2_mnist8m.yaml`` (n augmented digits on
disk, the m-list up to 400) from the store — run it first:
``python run.py --config-dir experiments --config-name calandriello_fig2_mnist8m -m`` —
then measures on this machine, in this process:

- the read rate of the training images: one pass over the uint8 file through
  :class:`kktheory.datasets.disk_rows.DiskRows` in the kernel's row blocks (file read and
  conversion to float32 pixels / 255), in GB of uint8 per second;
- the float32 GEMM rate for the embedding's shape, (block × 784)·(784 × 400), in GFLOP/s.

and prints, per phase, the measured time beside its bound:

- load (once per run): two passes over the images (the bandwidth rule's mean, then its
  centred squares, in float64 chunks) — bound: 2 × the read time; the 100,000 test
  images are generated on the first run only;
- embedding of m: one pass over the images, the kernel block's GEMM (2·n·m·784 flops)
  and the whitening (2·n·m·r, r ≤ m kept directions) — bound: max(read time, flops /
  GEMM rate), the two overlapping at best;
- clustering and evaluation: MiniBatchKMeans on the n × m features and the projected
  risks of the training and test points (no bound computed: their work depends on the
  number of mini-batch steps, printed beside).

The load average is printed with the machine: time nothing while another job runs.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from common import machine

from kktheory.datasets.disk_rows import DiskRows  # noqa: E402  (common puts the repository on sys.path)
from kktheory.machine.memory import block_rows  # noqa: E402
from kktheory.run.store import Store  # noqa: E402

D = 784


def read_rate(path: str, n: int, m: int, budget: int) -> float:
    """uint8 bytes per second of one pass over n rows in the kernel's row blocks."""
    rows = DiskRows(path, n)
    step = block_rows(m, 4, budget, n)
    t0 = time.perf_counter()
    for s in range(0, n, step):
        rows[s:s + step]
    return n * D / (time.perf_counter() - t0)


def gemm_rate(block: int, m: int, repeat: int = 3) -> float:
    """float32 flops per second of (block × 784)·(784 × m), best of ``repeat``."""
    rng = np.random.default_rng(0)
    X = rng.random((block, D), dtype=np.float32)
    L = rng.random((m, D), dtype=np.float32)
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        X @ L.T
        best = min(best, time.perf_counter() - t0)
    return 2.0 * block * m * D / best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results-dir", default="results")
    ap.add_argument("--n", type=int, default=8_100_000)
    ap.add_argument("--budget-gb", type=float, default=16.0, help="the run's memory_budget_gb (its row blocks)")
    a = ap.parse_args()
    from kktheory.datasets.augmented_mnist import AugmentedMnistConfig, generate
    from kktheory.datasets.mnist import N_TRAIN, mnist_arrays

    rows = Store(a.results_dir).load()
    rows = rows[(rows["n"] == a.n) & (rows["dataset.name"] == "augmented_mnist")].sort_values("m")
    if rows.empty:
        raise SystemExit(f"no augmented_mnist row with n = {a.n} in {a.results_dir}/ (run the config first)")
    print(f"machine: {machine()}")
    budget = int(a.budget_gb * 2**30)
    images, _, _ = mnist_arrays(None, False)
    path = generate(images[:N_TRAIN], AugmentedMnistConfig(), a.n).path  # the run's file (found, not made)
    m_max = int(rows["m"].max())
    rate = read_rate(path, a.n, m_max, budget)
    block = block_rows(m_max, 4, budget, a.n)
    gflops = gemm_rate(block, m_max)
    read_s = a.n * D / rate
    print(f"read: {rate / 1e9:.2f} GB/s of uint8 ({read_s:.1f} s per pass over {a.n * D / 1e9:.2f} GB); "
          f"float32 GEMM ({block}×{D})·({D}×{m_max}): {gflops / 1e9:.1f} GFLOP/s")
    load = float(rows["time_load"].iloc[0])
    out = [{"phase": "load (bandwidth rule: 2 passes)", "m": "", "seconds": load, "bound s": 2 * read_s}]
    for _, r in rows.iterrows():
        m, kept = int(r["m"]), int(r.get("rank_Kmm", r["m"]))
        flops = 2.0 * a.n * m * D + 2.0 * a.n * m * kept
        bound = max(read_s, flops / gflops)
        out.append({"phase": "embedding", "m": m, "seconds": float(r["time_embed"]), "bound s": bound,
                    "GFLOP/s": flops / float(r["time_embed"]) / 1e9})
        out.append({"phase": f"clustering ({int(r['n_steps'])} mini-batch steps)", "m": m,
                    "seconds": float(r["time_cluster"]), "bound s": np.nan})
        out.append({"phase": "evaluation", "m": m, "seconds": float(r["time_evaluate"]), "bound s": np.nan})
    table = pd.DataFrame(out)
    table["measured / bound"] = table["seconds"] / table["bound s"]
    print(table.to_string(index=False, float_format=lambda x: f"{x:.3g}"))
    total = load + rows[["time_embed", "time_cluster", "time_evaluate"]].to_numpy().sum()
    print(f"sum of the phases: {total:.0f} s; peak RSS {rows['peak_rss_mb'].max() / 1024:.2f} GiB; "
          f"wall time of the run (time_wall of its last row): {rows['time_wall'].max():.0f} s")
    print(f"load at the end: {machine().rsplit('load average', 1)[1]}")


if __name__ == "__main__":
    main()
