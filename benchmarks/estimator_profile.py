"""Where ``SketchedKernelKMeans().fit(X)`` spends its time on MNIST, by cProfile.

    python benchmarks/estimator_profile.py [--n 60000] [--repeats 3] [estimator keyword=value ...]

Profiles the estimator at its defaults (Nyström, m = √n, Wang's bandwidth rule, float32,
k-means++ and Lloyd with 5 restarts, n_clusters 8) on the n MNIST training images
(pixels / 255, float64 as loaded) and splits the time of ``fit`` into

- embedding: the sketch's fit (landmarks, K_mm and its whitening) and the training
  features (``fit_nested`` and ``transform`` of the sketch class),
- k-means: the partition of the features (``Sketch.partition``: seeding, Lloyd, labels),
- outside: everything else (input checks, the bandwidth rule, configuration),

and lists the direct callees of ``fit`` and of the backend's ``fit`` with their cumulative time, so
that whatever is outside is named. Keyword arguments after the options are passed to the
estimator (``n_clusters=10 dtype=float64``). Each repeat is a new estimator with
random_state = repeat; the table reports every repeat and the share outside.
"""

from __future__ import annotations

import argparse
import ast
import cProfile
import pstats

from common import machine, mnist_train

EMBEDDING = ("fit_nested", "transform")  # methods of the sketch class
KMEANS = ("partition",)  # Sketch.partition


def cumulative(stats: pstats.Stats, where: str, names: tuple[str, ...]) -> float:
    """Sum of the cumulative times of the functions ``names`` defined in files under ``where``."""
    return sum(ct for (file, _, name), (_, _, _, ct, _) in stats.stats.items()
               if name in names and where in file.replace("\\", "/"))


def callees(stats: pstats.Stats, file_part: str, name: str) -> list[tuple[str, float]]:
    """(callee, cumulative seconds within this caller) of the function ``name`` in ``file_part``."""
    stats.calc_callees()
    for (file, line, func), called in stats.all_callees.items():
        if func == name and file.replace("\\", "/").endswith(file_part):
            return sorted(((f"{f.rsplit('/', 1)[-1]}:{fn}", v[3]) for (f, _, fn), v in called.items()),
                          key=lambda x: -x[1])
    return []


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=60000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("params", nargs="*", help="estimator keyword=value")
    a = ap.parse_args()
    from kktheory.estimator import SketchedKernelKMeans

    from inspect import signature

    allowed = set(signature(SketchedKernelKMeans).parameters)
    params = {}
    for item in a.params:
        key, sep, value = item.partition("=")
        if not sep or key not in allowed:
            ap.error(f"{item!r}: keyword=value with keyword one of {', '.join(sorted(allowed))}")
        try:
            params[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            params[key] = value
    X, _ = mnist_train(a.n)
    print(f"machine: {machine()}")
    print(f"MNIST n={a.n}, d={X.shape[1]}; SketchedKernelKMeans({', '.join(f'{k}={v!r}' for k, v in params.items())})"
          ".fit(X)")
    print(f"{'repeat':>6}{'fit s':>9}{'embedding s':>13}{'k-means s':>11}{'outside s':>11}{'outside':>9}")
    for repeat in range(a.repeats):
        est = SketchedKernelKMeans(**{"random_state": repeat, **params})
        prof = cProfile.Profile()
        try:
            prof.runcall(est.fit, X)
        except ValueError as exc:  # the estimator's own refusal of a parameter value
            ap.error(str(exc))
        stats = pstats.Stats(prof)
        total = cumulative(stats, "kktheory/estimator.py", ("fit",))
        embed = cumulative(stats, "kktheory/embeddings/", EMBEDDING)
        kmeans = cumulative(stats, "kktheory/embeddings/base.py", KMEANS)
        outside = total - embed - kmeans
        print(f"{repeat:>6}{total:9.2f}{embed:13.2f}{kmeans:11.2f}{outside:11.2f}{outside / total:9.1%}")
    print("\nlast repeat, direct callees of SketchedKernelKMeans.fit (cumulative s):")
    for name, t in callees(stats, "kktheory/estimator.py", "fit")[:8]:
        print(f"  {t:8.3f}  {name}")
    print("direct callees of the backend's fit (kktheory/run/backends.py):")
    for name, t in callees(stats, "kktheory/run/backends.py", "fit")[:8]:
        print(f"  {t:8.3f}  {name}")
    print(f"m_ = {est.m_}, sigma = {est.kernel_.sigma:.4g}, n_iter = {est.info_.get('n_iter')}")
    print(f"load at the end: {machine().rsplit('load average', 1)[1]}")


if __name__ == "__main__":
    main()
