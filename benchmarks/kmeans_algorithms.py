"""Lloyd's iterations three ways: Hamerly's bounds (the default), scikit-learn's Lloyd, Elkan.

    python benchmarks/kmeans_algorithms.py [--n 20000] [--ms 50,200,1000] [--ks 2,10,50]

Nyström features (m uniform landmarks, Gaussian kernel, σ from Wang's rule with β = 1) of
two data sets: n MNIST training digits (well separated classes) and Yin's hypercube
mixture (8-D, unit spread around ±1 vertices, so neighbouring components overlap: the
hard case for bounds). For each (m, k) one k-means++ start (:func:`kktheory.cluster.clusterers.kmeanspp_init`,
the same for the three) is iterated to convergence by ``clustering.algorithm`` = hamerly
(:mod:`kktheory.cluster.lloyd`), lloyd (scikit-learn ``KMeans``) and elkan (scikit-learn), float64
features, ``max_iter`` 300, ``tol`` 1e-4. Printed: each algorithm's time (best of 2), the
ratios Lloyd / Hamerly and Lloyd / Elkan (above 1: faster than Lloyd), and how many labels
differ from Lloyd's.
"""

from __future__ import annotations

import argparse
import functools

import numpy as np

from common import machine, mnist_train, timed

ALGORITHMS = ("hamerly", "lloyd", "elkan")


def hypercube(n: int, seed: int = 0) -> np.ndarray:
    """Yin's §5.1 mixture: 10 vertices of {−1, 1}^8, N(vertex, I) points."""
    from kktheory.datasets.synthetic import YinHypercubeConfig, yin_hypercube
    from kktheory.seeding import component_rng

    return yin_hypercube(YinHypercubeConfig(), 10, component_rng(seed, "data")).sample(n, component_rng(seed, "draw"))[0]


def features(X: np.ndarray, m: int) -> np.ndarray:
    """Nyström features of X with m uniform landmarks (Gaussian kernel, Wang's bandwidth)."""
    import math

    from kktheory.kernels.functions import KernelConfig, make_kernel
    from kktheory.machine.memory import default_budget_bytes
    from kktheory.seeding import component_rng
    from kktheory.embeddings.base import SketchContext
    from kktheory.embeddings.nystrom import Nystrom, NystromConfig

    kernel = make_kernel(KernelConfig(name="gaussian", bandwidth="wang", beta=1.0), X)
    ctx = SketchContext(n=len(X), k=10, gamma=math.sqrt(len(X)), budget=default_budget_bytes(), dtype="float64")
    return Nystrom(NystromConfig(), ctx).fit(X, kernel, m, component_rng(0, "sketch")).transform(X)


def run(F: np.ndarray, k: int, algorithm: str) -> np.ndarray:
    from kktheory.cluster.clusterers import KMeansPP, KMeansPPConfig
    from kktheory.seeding import component_rng

    cfg = KMeansPPConfig(n_init=1, max_iter=300, tol=1e-4, algorithm=algorithm)
    return KMeansPP(cfg).fit(F, k, component_rng(1, "kmeans")).labels


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20000)
    ap.add_argument("--ms", default="50,200,1000")
    ap.add_argument("--ks", default="2,10,50")
    a = ap.parse_args()
    print(f"machine: {machine()}")
    data = {"mnist": mnist_train(a.n)[0], "yin_hypercube": hypercube(a.n)}
    print(f"n = {a.n}, float64 features, one k-means++ start, best of 2 timings")
    print(f"{'data':<15}{'m':>6}{'k':>5}" + "".join(f"{x + ' s':>11}" for x in ALGORITHMS)
          + f"{'lloyd/hamerly':>15}{'lloyd/elkan':>13}{'labels ≠ lloyd (h, e)':>24}")
    for name, X in data.items():
        for m in (int(x) for x in a.ms.split(",")):
            F = features(X, m)
            for k in (int(x) for x in a.ks.split(",")):
                labels, secs = {}, {}
                for alg in ALGORITHMS:
                    runs = [timed(functools.partial(run, F, k, alg)) for _ in range(2)]
                    labels[alg], secs[alg] = runs[0][0], min(t for _, t in runs)
                diff = [int((labels[x] != labels["lloyd"]).sum()) for x in ("hamerly", "elkan")]
                print(f"{name:<15}{m:>6}{k:>5}" + "".join(f"{secs[x]:>11.3f}" for x in ALGORITHMS)
                      + f"{secs['lloyd'] / secs['hamerly']:>15.2f}{secs['lloyd'] / secs['elkan']:>13.2f}"
                      + f"{str(tuple(diff)):>24}", flush=True)
    print(f"\nload at the end: {machine().rsplit('load average', 1)[1]}")


if __name__ == "__main__":
    main()
