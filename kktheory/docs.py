"""The repository's own documentation, rendered from the code into ``docs/``.

Each method is specified in its module's docstring (equations and sources); each verdict
rule in its report entry. This module renders them into Markdown so that a reader of the
repository finds them in one place, and so that the text cannot drift from the code
(``tests/test_docs.py`` compares the committed files with a fresh rendering):

- ``docs/methods.md``: the pipeline's modules in their order (data → kernel → sketch →
  clustering → risk and bounds → row → store), each with its docstring;
- ``docs/verdicts.md``: how a claim is decided (:mod:`kktheory.report.decide`) and, per
  catalogue entry, the paper's claim, the rule that judges it, what each scale changes and
  the paper's own numbers.

    python -m kktheory.docs            # rewrite docs/methods.md and docs/verdicts.md
    python -m kktheory.docs --check    # exit 1 when a file differs from its rendering
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import sys
from pathlib import Path

DOCS_DIR = Path(__file__).resolve().parent.parent / "docs"

#: (section title, modules) in the order a run goes through them
PIPELINE: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Data sets", ("datasets.base", "datasets.synthetic", "datasets.mnist", "datasets.augmented_mnist",
                   "datasets.disk_rows", "datasets.sources", "datasets.libsvm", "datasets.segment",
                   "datasets.array_file", "datasets.table_cache")),
    ("Kernels and kernel blocks", ("kernels.functions", "kernels.gaussian", "kernels.polynomial", "kernels.linear",
                                   "kernels.gram", "kernels.spectrum", "kernels.geometry")),
    ("Clustering", ("cluster.clusterers", "cluster.lloyd", "cluster.kernel_kmeans", "seeding")),
    ("Embeddings", ("embeddings.base", "embeddings.nystrom", "embeddings.nystrom_rls", "embeddings.nystrom_rr",
                    "embeddings.kpca", "embeddings.power", "embeddings.yin", "embeddings.projection",
                    "embeddings.ros", "embeddings.gaussian", "embeddings.kernel_columns", "embeddings.onepass",
                    "embeddings.rff", "embeddings.sketching_matrices", "embeddings.transforms",
                    "embeddings.linalg", "embeddings.landmark_rows")),
    ("Comparators", ("comparators.exact", "comparators.nystrom_based", "comparators.two_step", "comparators.approx_kkm",
                     "comparators.spectral_nystrom")),
    ("Risk, reference and population optimum", ("evaluation.risk", "evaluation.column_objective",
                                                "evaluation.reference", "evaluation.population", "evaluation.cache",
                                                "evaluation.metrics", "evaluation.nan_reason")),
    ("Bound checks", ("evaluation.bounds.spec", "evaluation.bounds.engine", "evaluation.bounds.gamma",
                      "evaluation.bounds.trace", "evaluation.bounds.jl", "evaluation.bounds.theory")),
    ("Runs, rows and store", ("run.config", "constraints", "rules", "run.identity", "run.method", "run.experiment",
                              "run.backends", "run.schema", "atomic", "run.store", "run.sweeps", "run.summary")),
    ("Reproducing the catalogue", ("reproduce", "reproduce.plan", "reproduce.sweep", "reproduce.committed",
                                   "reproduce.entry", "reproduce.sequential", "reproduce.cli", "report.entry",
                                   "report.speed", "report.benchmark", "timing")),
    ("Your own claim", ("judge.claimfile", "judge.carried", "judge.judging", "plot")),
    ("Beyond one process", ("estimator", "run.dask", "run.dask.chunks")),
    ("Command line and infrastructure", ("cli", "machine.memory", "machine.threads", "machine.progress",
                                         "registry", "plugins", "errors", "docs", "version")),
)
#: the report's paper modules (what a paper's entries share), in catalogue order
#: (``Entry.place[0]``); each entry is rendered after its paper, with its module's docstring
PAPERS = ("calandriello", "yin", "wang", "pourkamali", "theory")
#: how a claim is decided, in the order verdicts.md renders them: (title, module)
DECISION = (("How a verdict is put together, and what it guarantees", "report.verdicts"),
            ("How a claim is decided", "report.decide"), ("The percentile interval of resampled values", "resampling"),
            ("Checks declared before the data", "report.claims"),
            ("The sequential decision", "report.sequential"),
            ("What deciding a check costs this machine", "report.cost"),
            ("The papers' numbers beside the observed", "report.paper_numbers"), ("Rows", "report.rows"),
            ("Statistics over seeds", "report.stats"), ("Figures", "report.style"), ("The index", "report.index"))


def _module_doc(name: str) -> str:
    module = importlib.import_module(f"kktheory.{name}")
    return inspect.cleandoc(module.__doc__ or "(no docstring)")


def methods_markdown() -> str:
    """docs/methods.md: every pipeline module's docstring, section by section."""
    out = ["# Methods", "",
           "Rendered from the modules' docstrings by `python -m kktheory.docs`; do not edit by hand.", ""]
    for title, modules in PIPELINE:
        out += [f"## {title}", ""]
        for name in modules:
            out += [f"### `kktheory.{name}`", "", _module_doc(name), ""]
    return "\n".join(out)


def verdicts_markdown() -> str:
    """docs/verdicts.md: the decision rules, then every catalogue entry's claim, rule and
    declared checks (their designs; the powers at the rows' run counts are in INDEX.md)."""
    from kktheory.report import catalogue
    from kktheory.report.claims import rules_table

    out = ["# Verdicts", "",
           "Rendered from `kktheory/report/` by `python -m kktheory.docs`; do not edit by hand. "
           "The verdicts themselves, from the committed rows, are in `paper_figs/INDEX.md`.", "",
           *[line for title, module in DECISION for line in (f"## {title}", "", _module_doc(module), "")]]
    entries = list(catalogue().values())
    for place, paper in enumerate(PAPERS, start=1):
        out += [f"## `kktheory.report.{paper}`", "", _module_doc(f"report.{paper}"), ""]
        for entry in (e for e in entries if e.place[0] == place):
            out += [f"### {entry.name}", "", _module_doc(f"report.entries.{entry.name}"), "",
                    f"**{entry.title}.** Claim: {entry.claim}.", "", f"Rule: {entry.rule}", ""]
            out += [f"- scale {scale}: {change}" for scale, change in entry.changes.items()]
            out += [""] if entry.changes else []
            if entry.rules:
                out += ["Checks declared before the data:", "", rules_table(entry.rules, power=False), ""]
            if entry.paper_numbers:
                out += ["| the paper's number | value | source |", "|---|---|---|"]
                out += [f"| {p.quantity} | {p.value:g} | {p.source} |" for p in entry.paper_numbers]
                out.append("")
    return "\n".join(out)


RENDERERS = {"methods.md": methods_markdown, "verdicts.md": verdicts_markdown}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kktheory.docs", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a file differs from its rendering")
    args = parser.parse_args(argv)
    stale = []
    for name, render in RENDERERS.items():
        path, text = DOCS_DIR / name, render()
        if args.check:
            if not path.is_file() or path.read_text() != text:
                stale.append(name)
        else:
            DOCS_DIR.mkdir(exist_ok=True)
            path.write_text(text)
    if stale:
        print(f"docs out of date: {', '.join(stale)} (run python -m kktheory.docs)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
