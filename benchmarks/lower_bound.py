"""The spectral lower bound of the k-means objective two ways: dense ``eigh`` of the d × d Gram
against Lanczos on F_cᵀF_c applied as products with F (:func:`kktheory.cluster.clusterers.kmeans_lower_bound`).

    python benchmarks/lower_bound.py [--n 5245] [--k 10] [--d 3000]

Kernel columns of Yin's hypercube mixture (8-D, Gaussian kernel with Wang's bandwidth rule,
β = 1): F = K, n × n, the features of ``kernel_columns`` (n = 5,245 is PenDigits' training
split in yin_table2, where the bound took 66 s of a 228 s job), and a wide case, n points of
d > ``LANCZOS_MIN_D`` random features. Printed: each path's time (best of 2), the ratio dense /
Lanczos, and the two bounds' relative difference; the machine line with the load average.
"""

from __future__ import annotations

import argparse

import numpy as np
from common import machine, timed

from kktheory.cluster import clusterers


def kernel_columns(n: int, seed: int = 0) -> np.ndarray:
    """K of n points of Yin's §5.1 mixture (Gaussian kernel, σ by Wang's rule with β = 1)."""
    from kktheory.datasets.synthetic import YinHypercubeConfig, yin_hypercube
    from kktheory.kernels.functions import KernelConfig, make_kernel
    from kktheory.seeding import component_rng

    X = yin_hypercube(YinHypercubeConfig(), 10, component_rng(seed, "data")).sample(n, component_rng(seed, "draw"))[0]
    kernel = make_kernel(KernelConfig(name="gaussian", bandwidth="wang"), X)
    return kernel.matrix(X, X, 2**40)


def both(F: np.ndarray, k: int) -> tuple[float, float, float, float]:
    """(dense bound, its best time of 2, Lanczos bound, its best time of 2)."""
    out = []
    for threshold in (F.shape[1] + 1, 0):  # above d: the dense path; 0: Lanczos
        clusterers.LANCZOS_MIN_D = threshold
        runs = [timed(lambda: clusterers.kmeans_lower_bound(F, k)) for _ in range(2)]
        out += [runs[0][0], min(t for _, t in runs)]
    return tuple(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=5245)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--d", type=int, default=3000, help="features of the wide case (n = 1000 points)")
    args = ap.parse_args()
    print(machine())
    rng = np.random.default_rng(0)
    cases = {f"kernel columns, n = d = {args.n}": kernel_columns(args.n),
             f"wide, n = 1000, d = {args.d}": rng.normal(size=(1000, args.d)) + rng.normal(size=args.d)}
    print("| features | dense s | Lanczos s | dense / Lanczos | relative difference of the bounds |")
    print("|---|---:|---:|---:|---:|")
    for name, F in cases.items():
        dense, t_dense, lanczos, t_lanczos = both(F, args.k)
        print(f"| {name} | {t_dense:.2f} | {t_lanczos:.2f} | {t_dense / t_lanczos:.1f}× | "
              f"{abs(dense - lanczos) / dense:.1e} |")
    print(machine())


if __name__ == "__main__":
    main()
