"""Achieved GFLOP/s of the Nyström embedding against a plain float32 GEMM.

    python benchmarks/embedding_gflops.py [--n 60000] [--m 1000] [--d 784] [--repeat 3]

The embedding φ̃(X) = κ(X, L) · U Λ^{-1/2} does two products: the kernel block's GEMM
X·Lᵀ (2·n·m·d flops) and the whitening K_nm·A (2·n·m·r flops, r ≤ m kept directions),
plus an O(m³) eigendecomposition of K_mm and O(nm) element-wise work. Timed in one
process on the same random float32 data (best of ``repeat``):

(a) a plain float32 GEMM X·Lᵀ — the machine's rate for this shape;
(b) kktheory's blocked Gaussian kernel matrix κ(X, L) in float32;
(c) the whitening GEMM (n × m)·(m × r) alone;
(d) the eigendecomposition of K_mm with the default threads and with one thread;
(e) the whole embedding (Nyström fit + transform, float32, one m: no n × m block held).

Rates are flops / time with the flops each step does ((e) counts both GEMMs, not the
eigendecomposition); "of GEMM" is that rate over (a)'s. (e)'s time over (a)+(c)'s says how
close the embedding comes to the two GEMMs it cannot avoid.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from threadpoolctl import threadpool_limits

from common import machine

from kktheory.machine import memory  # noqa: E402  (common puts the repository on sys.path)
from kktheory.kernels.functions import Kernel  # noqa: E402
from kktheory.embeddings.base import SketchContext  # noqa: E402
from kktheory.embeddings.nystrom import Nystrom, NystromConfig  # noqa: E402


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
    ap.add_argument("--sigma", type=float, default=5.0)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    rng = np.random.default_rng(0)
    X = rng.random((a.n, a.d), dtype=np.float32)
    idx = rng.permutation(a.n)[: a.m]
    L = X[idx]
    budget = memory.default_budget_bytes()
    kernel = Kernel("gaussian", sigma=a.sigma, dtype="float32")
    ctx = SketchContext(n=a.n, k=10, gamma=1.0, budget=budget, dtype="float32")

    def embed() -> np.ndarray:
        return Nystrom(NystromConfig(), ctx).fit(X, kernel, a.m, np.random.default_rng(0)).transform(X)

    sketch = Nystrom(NystromConfig(), ctx).fit(X, kernel, a.m, np.random.default_rng(0))
    A = sketch.coef_.astype(np.float32)
    r = A.shape[1]
    K_nm = kernel.matrix(X, L, budget)
    K_mm = np.asarray(kernel(L, L), dtype=np.float64)

    t_gemm = best_time(lambda: X @ L.T, a.repeat)
    t_kernel = best_time(lambda: kernel.matrix(X, L, budget), a.repeat)
    t_white = best_time(lambda: K_nm @ A, a.repeat)
    t_eigh = best_time(lambda: np.linalg.eigh(K_mm), a.repeat)
    with threadpool_limits(1):
        t_eigh1 = best_time(lambda: np.linalg.eigh(K_mm), a.repeat)
    t_embed = best_time(embed, a.repeat)

    f_gemm = 2.0 * a.n * a.m * a.d
    f_white = 2.0 * a.n * a.m * r
    rate = f_gemm / t_gemm
    print(f"machine: {machine()}")
    print(f"shape n={a.n} m={a.m} d={a.d} (r={r} kept directions), float32, "
          f"2nmd = {f_gemm / 1e9:.1f} GFLOP, 2nmr = {f_white / 1e9:.1f} GFLOP")
    print(f"{'step':<44}{'time s':>8}{'GFLOP/s':>9}{'of GEMM':>9}")
    for name, t, flops in (
        ("(a) plain GEMM X·Lᵀ", t_gemm, f_gemm),
        ("(b) Gaussian kernel block κ(X, L)", t_kernel, f_gemm),
        ("(c) whitening GEMM K_nm·A", t_white, f_white),
        ("(e) embedding fit+transform (both GEMMs)", t_embed, f_gemm + f_white),
    ):
        print(f"{name:<44}{t:8.3f}{flops / t / 1e9:9.1f}{flops / t / rate:9.1%}")
    print(f"(d) eigh of K_mm ({a.m}×{a.m}, float64): {t_eigh:.3f} s default threads, "
          f"{t_eigh1:.3f} s one thread")
    print(f"embedding time / (GEMM + whitening GEMM) = {t_embed / (t_gemm + t_white):.2f}; "
          f"embedding time / GEMM alone = {t_embed / t_gemm:.2f}")
    print(f"load at the end: {machine().rsplit('load average', 1)[1]}")


if __name__ == "__main__":
    main()
