"""Achieved GFLOP/s of the Nyström embedding's kernel block vs a plain GEMM (issue 10, item 4).

K_nm = κ(X, landmarks) costs 2·n·m·d flops in its GEMM; the Gaussian kernel adds O(nm)
element-wise work (norms, exp). This script times, in one process and on the same shapes:
(a) a plain float32 GEMM X·Lᵀ, (b) kktheory's blocked Gaussian kernel block in float32,
(c) the whole Nyström embedding (kernel block + whitening) in float32, and prints each
rate as 2nmd / time and the ratios to the GEMM.

    python benchmarks/embedding_gflops.py [--n 60000] [--m 1000] [--d 784] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from kktheory import memory
from kktheory.kernels import Kernel
from kktheory.sketches.nystrom import Nystrom, NystromConfig
from kktheory.sketches.base import SketchContext


def best_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=60000)
    ap.add_argument("--m", type=int, default=1000)
    ap.add_argument("--d", type=int, default=784)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    rng = np.random.default_rng(0)
    X = rng.random((a.n, a.d), dtype=np.float32)
    L = X[rng.permutation(a.n)[: a.m]]
    flops = 2.0 * a.n * a.m * a.d
    budget = memory.default_budget_bytes()
    kernel = Kernel("gaussian", sigma=float(np.sqrt(a.d) * 0.5), dtype="float32")
    ctx = SketchContext(n=a.n, k=10, gamma=1.0, budget=budget, dtype="float32")

    t_gemm = best_time(lambda: X @ L.T, a.repeat)
    t_kernel = best_time(lambda: kernel.matrix(X, L, budget), a.repeat)
    t_embed = best_time(
        lambda: Nystrom(NystromConfig(), ctx).fit(X, kernel, a.m, np.random.default_rng(0)).transform(X),
        a.repeat,
    )
    print(f"shape n={a.n} m={a.m} d={a.d}, float32, {memory.cpu_count()} CPUs, 2nmd = {flops / 1e9:.1f} GFLOP")
    for name, t in (("plain GEMM X·Lᵀ", t_gemm), ("Gaussian kernel block", t_kernel),
                    ("Nyström embedding (fit+transform)", t_embed)):
        print(f"{name:36s} {t:8.3f} s  {flops / t / 1e9:7.1f} GFLOP/s  {t_gemm / t:6.1%} of GEMM rate")


if __name__ == "__main__":
    main()
