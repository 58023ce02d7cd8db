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
import math
import os
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any


from common import ROWS_DIR, cpu_model, machine
from mnist8m_phases import D, gemm_rate

import pandas as pd
import psutil

from kktheory.machine import memory  # noqa: E402  (common puts the repository on sys.path)
from kktheory.report import benchmark  # noqa: E402
from kktheory.report.benchmark import PASS_KEY  # noqa: E402
from kktheory.report.entries.wang_fig2 import time_against_tables_4_6  # noqa: E402
from kktheory.cluster.clusterers import KMeansPP  # noqa: E402
from kktheory.embeddings import projection  # noqa: E402
from kktheory.embeddings.nystrom_rr import NystromRR  # noqa: E402

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
    ap.add_argument("--record", action="store_true",
                    help="record the pass in paper_figs/rows/benchmarks/wang_fig2.parquet (INDEX shows it)")
    ap.add_argument("overrides", nargs="*", help="further overrides of the job (e.g. memory_budget_gb=6)")
    a = ap.parse_args()
    from kktheory.run.config import build_spec
    from kktheory.run.experiment import git_commit, run
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
    nystrom = first["time_load"] + seconds["fit_streamed"] + seconds["fit_sketch"]
    block = memory.block_rows(c, 4, spec.budget, n)
    rate = gemm_rate(min(block, 65536), c)
    pass1, pass2 = seconds["row_statistic"], seconds["_features"]
    flops_pass1 = 2 * n * c * D + 2 * n * c * ell + n * ell * ell
    flops_pass2 = 2 * n * c * D + 2 * n * c * s_max
    row = {
        PASS_KEY: f"{a.job}, s = {a.s}" if a.s else a.job,
        "command": "python benchmarks/wang_mnist8m.py " + " ".join(sys.argv[1:]).replace(" --record", ""),
        "n": n, "c": c, "ell": ell, "s": str(probe.s_values(c)), "n_s": len(rows), "seed": a.seed,
        "load_s": first["time_load"], "pass1_s": pass1, "nystrom_s": nystrom, "dr_s": pass2,
        "kmeans_s": seconds["fit"], "evaluation_s": wall - nystrom - pass2 - seconds["fit"], "total_s": wall,
        "pass1_gflops": flops_pass1 / pass1 / 1e9 if pass1 else math.nan,
        "pass2_gflops": flops_pass2 / pass2 / 1e9 if pass1 and pass2 else math.nan,  # streamed: pass 2 exists
        "gemm_gflops": rate / 1e9,
        "peak_rss_gib": max(r["peak_rss_mb"] for r in rows) / 1024,
        "cpus": memory.cpu_count(), "cpu": cpu_model(), "ram_gib": psutil.virtual_memory().total / 2**30,
        "load_before": load0[0], "load_after": load1[0], "commit": git_commit(), "date": time.strftime("%Y-%m-%d"),
        "train_nmi": ", ".join(f"{r['train_nmi']:.3f} (s = {r['s']})" for r in rows),
    }
    print(f"load average before {', '.join(f'{x:.2f}' for x in load0)}; after {', '.join(f'{x:.2f}' for x in load1)}")
    print(f"peak RSS sampled every 0.1 s: {SAMPLER.peak / 2**20:.1f} GiB in {SAMPLER.peak_stage} "
          "('load' = outside the timed stages)")
    print(time_against_tables_4_6(pd.DataFrame([row])))
    for r in rows:
        print(f"  s={r['s']}: train NMI {r['train_nmi']:.4f}, test NMI {r['test_nmi']:.4f}, "
              f"k-means iterations {r['n_iter']}, run {r['run_id']}")
    if a.record:
        print(f"recorded in {benchmark.record(ROWS_DIR, 'wang_fig2', row)}")

if __name__ == "__main__":
    main()
