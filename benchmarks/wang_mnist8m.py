"""Wang, Gittens & Mahoney's MNIST8M experiment (§6, Tables 4 and 6) timed on this machine.

    python benchmarks/wang_mnist8m.py --pass c400 --s 20 [--seed 0] [--results-dir DIR]
    python benchmarks/wang_mnist8m.py --pass c1600 [--seed 0] [--results-dir DIR]

One job of ``experiments/wang_fig2.yaml`` (8,100,000 augmented digits on disk,
100,000 augmented test digits, rank-restricted Nyström with uniform sampling, ℓ = ⌈c/2⌉,
k-means with one k-means++ start and at most 100 iterations), run end to end through the
pipeline (:func:`kktheory.run.experiment.run`, as ``python run.py`` runs it) in this process,
with the stages timed as the paper's Table 4 splits them:

- *Nyström*: loading (the bandwidth rule's passes over the rows), the landmarks' W and its
  top-ℓ eigenpairs, and pass 1 over the rows — each kernel block C_b, R_b = C_b·E and RᵀR
  (2·n·c·784 + 2·n·c·ℓ + n·ℓ² flops);
- *DR*: the top-s right singular vectors of R (from RᵀR) and pass 2 — the kernel blocks
  again and the n × s features B = C·M (2·n·c·784 + 2·n·c·s flops); the paper's DR reads
  the R it kept, this one recomputes C rather than hold 52 GB;
- *k-means*: every s of the job's list on the first s columns of B;
- *evaluation*: the rows' scores (test features, projected risks, NMI), not in the paper's.

Printed: the machine and its load average before and after, each stage's seconds and
GFLOP/s against this machine's float32 GEMM rate for the kernel block's shape, the peak
RSS, the core-seconds beside the paper's (nodes × 32 cores × seconds; Cori's nodes are two
16-core Haswells), and the rows' NMI. The rows are written to ``--results-dir`` (a
temporary folder by default): they are the sweep's rows of that job and seed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any


from common import machine
from mnist8m_phases import D, gemm_rate

from kktheory.machine import memory  # noqa: E402  (common puts the repository on sys.path)
from kktheory.cluster.clusterers import KMeansPP  # noqa: E402
from kktheory.embeddings import projection  # noqa: E402
from kktheory.embeddings.nystrom_rr import NystromRR  # noqa: E402

#: Wang et al. 2019, Table 4 (c = 400, s = 20; seconds by nodes) and Table 6 (c = 1600, 32 nodes)
TABLE4_S20 = {8: 3201.5, 16: 1532.0, 32: 867.9, 64: 734.7, 128: 828.2}
TABLE4_S20_STAGES_32 = {"Nyström": 665.2, "DR": 38.9, "k-means": 119.9}
TABLE6_TOTAL = {10: 2840.9, 20: 2785.4, 40: 3003.4, 80: 2952.2, 160: 3157.5, 320: 3537.5}
CORES_PER_NODE = 32


class RssSampler(threading.Thread):
    """The process's resident memory (VmRSS) every 0.1 s: its peak and the stage it was
    reached in (``stage``, set by :func:`timing`)."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.stage, self.peak, self.peak_stage, self.done = "load", 0.0, "", threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.1):
            with open("/proc/self/status") as f:
                kib = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
            if kib > self.peak:
                self.peak, self.peak_stage = kib, self.stage


SAMPLER = RssSampler()


@contextlib.contextmanager
def timing(cls: Any, name: str, seconds: dict[str, float], when: Callable[..., bool] = lambda *a: True) -> Iterator[None]:
    """Add the seconds of every call of ``cls.name`` (for which ``when(*args)``) to ``seconds[name]``
    (``cls`` a class or a module)."""
    original = getattr(cls, name)

    def timed(*args: Any, **kwargs: Any) -> Any:
        t0, outer = time.perf_counter(), SAMPLER.stage
        SAMPLER.stage = name
        try:
            return original(*args, **kwargs)
        finally:
            SAMPLER.stage = outer
            if when(*args):
                seconds[name] += time.perf_counter() - t0

    setattr(cls, name, timed)
    try:
        yield
    finally:
        setattr(cls, name, original)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pass", dest="job", choices=("c100", "c400", "c1600"), default="c400")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--results-dir", default=None, help="where the rows go (default: a temporary folder)")
    ap.add_argument("--n", type=int, default=None, help="fewer training digits (a quick check; default the paper's)")
    ap.add_argument("--s", default=None, help="the target ranks instead of the job's list (e.g. 20, or [10,20])")
    ap.add_argument("overrides", nargs="*", help="further overrides of the job (e.g. memory_budget_gb=6)")
    a = ap.parse_args()
    from kktheory.run.config import build_spec
    from kktheory.run.experiment import run
    from kktheory.run.method import Method
    from kktheory.run.sweeps import compose_jobs

    results = Path(a.results_dir or tempfile.mkdtemp(prefix="wang8m_")).resolve()
    job = [f"+wang_fig2/pass={a.job}", f"seed={a.seed}", *([f"n={a.n}", "n_test=2000"] if a.n else []),
           *([f"sketch.s={a.s}"] if a.s else []), *a.overrides]
    (cfg,) = compose_jobs("wang_fig2", [job], results)
    cfg.force = True
    spec = build_spec(cfg)
    n, c = spec.n, spec.ms[0][1]
    probe = NystromRR(spec.sketch, Method.of(spec).context(n))
    s_max, ell = probe.ranks(c)
    print(f"machine: {machine()}")
    print(f"job: wang_fig2 +wang_fig2/pass={a.job} seed={a.seed}: n={n}, c={c}, ell={ell}, "
          f"s={probe.s_values(c)}, dtype={spec.dtype}, budget {spec.budget / 2**30:.0f} GiB; rows in {results}")
    seconds: dict[str, float] = defaultdict(float)
    train = lambda self, X, *rest: len(X) == n  # noqa: E731 — the training rows' features
    t0 = time.perf_counter()
    with (timing(NystromRR, "fit_streamed", seconds), timing(NystromRR, "fit_sketch", seconds),
          timing(NystromRR, "row_statistic", seconds),
          timing(projection.KernelProjection, "_features", seconds, train), timing(KMeansPP, "fit", seconds)):
        load0 = os.getloadavg()
        SAMPLER.start()
        outcome = run(cfg)
        SAMPLER.done.set()
        load1 = os.getloadavg()
    wall = time.perf_counter() - t0
    rows = sorted(outcome.rows, key=lambda r: r["s"])
    first = rows[0]
    pass1 = seconds["row_statistic"]
    stages = {
        "load": first["time_load"],
        "Nyström": first["time_load"] + seconds["fit_streamed"] + seconds["fit_sketch"],
        "DR": seconds["_features"],
        "k-means": seconds["fit"],
    }
    stages["evaluation"] = wall - stages["Nyström"] - stages["DR"] - stages["k-means"]
    flops_pass1 = 2 * n * c * D + 2 * n * c * ell + n * ell * ell
    flops_pass2 = 2 * n * c * D + 2 * n * c * s_max
    block = memory.block_rows(c, 4, spec.budget, n)
    rate = gemm_rate(min(block, 65536), c)
    print(f"load average before {', '.join(f'{x:.2f}' for x in load0)}; after {', '.join(f'{x:.2f}' for x in load1)}")
    print(f"float32 GEMM (block × 784)·(784 × {c}) on this machine: {rate / 1e9:.1f} GFLOP/s")
    print("| stage | seconds | GFLOP/s | of GEMM |")
    print("|---|---:|---:|---:|")
    if pass1:  # streamed (C not held)
        print(f"| Nyström (load {stages['load']:.1f} s; pass 1 {pass1:.1f} s) | {stages['Nyström']:.1f} | "
              f"{flops_pass1 / pass1 / 1e9:.1f} (pass 1) | {flops_pass1 / pass1 / rate:.2f} |")
    else:
        print(f"| Nyström (load {stages['load']:.1f} s; C held in memory) | {stages['Nyström']:.1f} | | |")
    if pass1:
        print(f"| DR (pass 2) | {stages['DR']:.1f} | {flops_pass2 / stages['DR'] / 1e9:.1f} | "
              f"{flops_pass2 / stages['DR'] / rate:.2f} |")
    print(f"| k-means ({len(rows)} s) | {stages['k-means']:.1f} | | |")
    print(f"| evaluation | {stages['evaluation']:.1f} | | |")
    print(f"| **total** | **{wall:.1f}** ({wall / 60:.1f} min) | | |")
    cores = memory.cpu_count()
    print(f"peak RSS {max(r['peak_rss_mb'] for r in rows) / 1024:.1f} GiB (sampled: {SAMPLER.peak / 2**20:.1f} GiB "
          f"in {SAMPLER.peak_stage}, 'load' = outside the timed stages); core-seconds {cores * wall:.0f} "
          f"({cores} cores × {wall:.0f} s)")
    if c == 400:
        for nodes, t in TABLE4_S20.items():
            print(f"  paper, {nodes} nodes: {t} s, {nodes * CORES_PER_NODE * t:.0f} core-s "
                  f"(this run: {t / wall:.1f}× faster, {nodes * CORES_PER_NODE * t / (cores * wall):.0f}× fewer core-s)")
    if c == 1600:
        total = sum(TABLE6_TOTAL.values())
        print(f"  paper, 32 nodes, each s a run: {total:.0f} s for the six s of Table 6 "
              f"({32 * CORES_PER_NODE * total:.0f} core-s); this run: {total / wall:.1f}× faster")
    for r in rows:
        print(f"  s={r['s']}: train NMI {r['train_nmi']:.4f}, test NMI {r['test_nmi']:.4f}, "
              f"k-means iterations {r['n_iter']}, run {r['run_id']}")


if __name__ == "__main__":
    main()
