"""kktheory Nyström + k-means against scikit-learn's Nystroem + KMeans on MNIST.

    python benchmarks/vs_sklearn.py [--n 60000] [--ms sqrt_n,1000] [--n-init 1,5] [--seeds 3]

Both pipelines embed the same n MNIST training images (pixels / 255) with the same
Gaussian kernel exp(−‖x − y‖²/(2σ²)) (σ = 5, scikit-learn's gamma = 1/(2σ²)) and m
uniformly sampled landmarks, then run k-means++ + Lloyd (scikit-learn ``KMeans``, the same
``n_init``, ``max_iter`` 300 and ``tol`` 1e-4 on both sides) with k = 10. Both compute the
same thing: features φ̃ = K_nm U Λ^{-1/2} (Calandriello eq. 3; scikit-learn's
``Nystroem`` uses K_mm^{-1/2} = U Λ^{-1/2} Uᵀ, the same features up to a rotation, which
k-means does not see) and Lloyd's algorithm on them. What differs is how:

- kktheory at the runner's defaults, through the sketch's ``partition`` as a run does
  (its embedding and clustering; the row's evaluation, here not timed, adds the risks and
  the feature-space diagnostics) (``RunConfig.dtype``, float32: kernel blocks through
  one float32 GEMM per row block, the whitening fused per block, features and k-means in
  float32; the default ``clustering.algorithm``, scikit-learn's Lloyd iterations after
  :func:`kktheory.cluster.clusterers.kmeanspp_init`'s seeding); the same with ``dtype=float64`` (the
  default until float32 replaced it); and float32 with Hamerly's bounds
  (``clustering.algorithm=hamerly``, :mod:`kktheory.cluster.lloyd`);
- the estimator at its defaults (``SketchedKernelKMeans(k, m=m, bandwidth="fixed",
  sigma=σ, clustering_params={"n_init": …}).fit_predict(X)``: float32, its own landmark
  draw and k-means seeds, so its NMI is not paired with the others');
- scikit-learn: ``Nystroem.fit_transform`` then ``KMeans`` in float64 (what the data's
  dtype gives). A second scikit-learn line feeds it float32 data, for reference.

Paired randomness: for each seed both sides use the same landmarks (scikit-learn's
``Nystroem`` draw) and the same k-means ``random_state``; since the features differ only
by a rotation (and rounding), both runs of k-means++ and Lloyd follow nearly the same
path, so the NMI difference measures what the precision changes, not seed noise.
Times are wall-clock of the whole pipeline (embedding + clustering), median over seeds,
measured alternately in one process; NMI against the digit labels, mean over seeds.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from common import machine, mnist_train, timed

SIGMA = 5.0


def draws(n: int, m: int, seed: int) -> tuple[np.ndarray, np.random.Generator, int]:
    """Paired randomness: scikit-learn's landmark indices for this seed, and the k-means
    random_state kktheory's clusterer will draw (so both sides start k-means alike)."""
    landmarks = np.random.RandomState(seed).permutation(n)[:m]  # Nystroem's basis_inds
    km_seed = int(np.random.default_rng(seed).integers(2**31 - 1))  # KMeansPP's draw
    return landmarks, np.random.default_rng(seed), km_seed


def kktheory_pipeline(X: np.ndarray, m: int, k: int, n_init: int, seed: int, dtype: str,
                      algorithm: str) -> np.ndarray:
    from kktheory.cluster.clusterers import KMeansPP, KMeansPPConfig
    from kktheory.kernels.functions import Kernel
    from kktheory.machine.memory import default_budget_bytes
    from kktheory.embeddings.base import SketchContext
    from kktheory.embeddings.nystrom import Nystrom, NystromConfig

    landmarks, rng, _ = draws(len(X), m, seed)
    kernel = Kernel("gaussian", sigma=SIGMA, dtype=dtype)
    ctx = SketchContext(n=len(X), k=k, gamma=math.sqrt(len(X)), budget=default_budget_bytes(), dtype=dtype)
    sketch = Nystrom(NystromConfig(), ctx).fit_landmarks(X, kernel, landmarks, None)
    km = KMeansPP(KMeansPPConfig(n_init=n_init, max_iter=300, tol=1e-4, algorithm=algorithm))
    return sketch.partition(X, k, km, rng).labels


def estimator_pipeline(X: np.ndarray, m: int, k: int, n_init: int, seed: int) -> np.ndarray:
    from kktheory.estimator import SketchedKernelKMeans

    est = SketchedKernelKMeans(k, m=m, bandwidth="fixed", sigma=SIGMA, clustering_params={"n_init": n_init},
                               random_state=seed)
    return est.fit_predict(X)


def sklearn_pipeline(X: np.ndarray, m: int, k: int, n_init: int, seed: int) -> np.ndarray:
    from sklearn.cluster import KMeans
    from sklearn.kernel_approximation import Nystroem

    _, _, km_seed = draws(len(X), m, seed)
    F = Nystroem(kernel="rbf", gamma=1.0 / (2 * SIGMA**2), n_components=m, random_state=seed).fit_transform(X)
    km = KMeans(n_clusters=k, n_init=n_init, max_iter=300, tol=1e-4, algorithm="lloyd", random_state=km_seed)
    return km.fit(F).labels_


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=60000)
    ap.add_argument("--ms", default="sqrt_n,1000")
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--n-init", default="1,5", help="comma-separated n_init values")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--no-float32-sklearn", action="store_true", help="skip the float32 scikit-learn line")
    a = ap.parse_args()
    from sklearn.metrics import normalized_mutual_info_score as nmi

    from kktheory.cluster.clusterers import KMeansPPConfig
    from kktheory.run.config import RunConfig

    X, y = mnist_train(a.n)
    X32 = X.astype(np.float32)
    print(f"machine: {machine()}")
    print(f"MNIST n={a.n}, d={X.shape[1]}, k={a.k}, sigma={SIGMA}, n_init={a.n_init}, seeds={a.seeds}")
    pipelines = {
        "kktheory defaults": lambda m, r, s: kktheory_pipeline(X, m, a.k, r, s, RunConfig.dtype,
                                                               KMeansPPConfig.algorithm),
        "kktheory float64": lambda m, r, s: kktheory_pipeline(X, m, a.k, r, s, "float64", "lloyd"),
        "kktheory float32 hamerly": lambda m, r, s: kktheory_pipeline(X, m, a.k, r, s, "float32", "hamerly"),
        "kktheory estimator": lambda m, r, s: estimator_pipeline(X, m, a.k, r, s),
        "sklearn float64": lambda m, r, s: sklearn_pipeline(X, m, a.k, r, s),
    }
    if not a.no_float32_sklearn:
        pipelines["sklearn float32 input"] = lambda m, r, s: sklearn_pipeline(X32, m, a.k, r, s)
    for item, n_init in ((i, int(r)) for i in a.ms.split(",") for r in a.n_init.split(",")):
        m = math.ceil(math.sqrt(a.n)) if item == "sqrt_n" else int(item)
        times = {name: [] for name in pipelines}
        scores = {name: [] for name in pipelines}
        for seed in range(a.seeds):
            for name, fn in pipelines.items():
                labels, t = timed(lambda: fn(m, n_init, seed))
                times[name].append(t)
                scores[name].append(nmi(y, labels))
        base = float(np.median(times["sklearn float64"]))
        print(f"\nm = {m} ({item}), n_init = {n_init}")
        print(f"{'pipeline':<24}{'median s':>10}{'NMI mean':>10}{'NMI sd':>8}{'speed-up vs sklearn float64':>30}")
        for name in pipelines:
            t = float(np.median(times[name]))
            print(f"{name:<24}{t:10.2f}{np.mean(scores[name]):10.4f}{np.std(scores[name]):8.4f}{base / t:30.2f}")
        gaps = ", ".join(f"{name} {np.mean(scores[name]) - np.mean(scores['sklearn float64']):+.4f}"
                         for name in pipelines if name.startswith("kktheory"))
        print(f"NMI − sklearn float64: {gaps}; per-seed times (s): "
              + "; ".join(f"{k}: {', '.join(f'{x:.1f}' for x in v)}" for k, v in times.items()))
    print(f"\nload at the end: {machine().rsplit('load average', 1)[1]}")


if __name__ == "__main__":
    main()
