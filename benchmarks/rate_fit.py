"""The bootstrap of a rate fit two ways: every resampled curve fitted at once by the profile
search of :func:`kktheory.evaluation.bounds.theory.fit_rate`, against one Levenberg–Marquardt
fit per curve (``scipy.optimize.leastsq`` from (mean at the smallest n, −0.5), the fit before).

    python benchmarks/rate_fit.py [--boot 2000] [--per-n 5]

Curves: a·n^−0.6 with 10 % multiplicative noise per run over theory_rates' grid n = 1,000 …
32,000 (``per_n`` runs per n), the shape of the committed excess-risk rows. Printed: each path's
time (best of 2), the ratio, and the largest difference of the bootstrap slopes over the curves
where both fits converge; the machine line with the load average before and after.
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
from common import machine, timed
from scipy import optimize

from kktheory.evaluation.bounds import theory
from kktheory.seeding import component_rng

NS = np.array([1000.0, 2000, 4000, 8000, 16000, 32000])


def one_by_one(n: np.ndarray, y: np.ndarray, boot: int) -> np.ndarray:
    """The bootstrap slopes with one leastsq fit per resampled curve (the same resamples)."""
    order = np.lexsort((y, n))
    n, y = n[order], y[order]
    groups = [y[n == v] for v in NS]
    rng = component_rng(0, "rate-fit-bootstrap")
    draws = [[rng.integers(len(g), size=len(g)) for g in groups] for _ in range(boot)]
    x = NS / NS.min()
    out = []
    for d in draws:
        gs = [g[i] for g, i in zip(groups, d)]
        mean = np.array([g.mean() for g in gs])
        se = np.array([g.std(ddof=1) / np.sqrt(len(g)) for g in gs])
        se = np.maximum(np.where(se > 0, se, np.median(se)), 1e-12 * np.abs(mean).max())
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            p, ier = optimize.leastsq(lambda q: (q[0] * x ** q[1] - mean) / se, [mean[0], -0.5], maxfev=20000)
        out.append(p[1] if ier in (1, 2, 3, 4) else np.nan)
    return np.sort(np.asarray(out))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boot", type=int, default=2000)
    ap.add_argument("--per-n", type=int, default=5)
    args = ap.parse_args()
    print(machine())
    rng = np.random.default_rng(0)
    n = np.repeat(NS, args.per_n)
    y = 0.02 * (n / 1000) ** -0.6 * np.exp(0.1 * rng.standard_normal(n.size))
    batched, t_batched = min((timed(lambda: theory.fit_rate(n, y, boot=args.boot)) for _ in range(2)),
                             key=lambda r: r[1])
    looped, t_looped = min((timed(lambda: one_by_one(n, y, args.boot)) for _ in range(2)), key=lambda r: r[1])
    both = np.isfinite(looped)
    gap = np.max(np.abs(np.asarray(batched.draws) - looped[both])) if both.all() else float("nan")
    print("| resampled curves | one leastsq per curve s | batched s | ratio | largest |Δ slope| |")
    print("|---:|---:|---:|---:|---:|")
    print(f"| {args.boot} | {t_looped:.2f} | {t_batched:.2f} | {t_looped / t_batched:.1f}× | {gap:.1e} |")
    print(machine())


if __name__ == "__main__":
    main()
