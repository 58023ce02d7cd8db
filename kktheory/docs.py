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
                   "datasets.disk_rows", "datasets.sources", "datasets.libsvm", "datasets.segment")),
    ("Kernels and kernel blocks", ("kernels", "gram", "spectrum")),
    ("Sketches", ("sketches.base", "sketches.nystrom", "sketches.nystrom_rls", "sketches.nystrom_rr",
                  "sketches.kpca", "sketches.power", "sketches.yin", "sketches.projection", "sketches.ros",
                  "sketches.gaussian", "sketches.kernel_columns", "sketches.onepass", "sketches.rff",
                  "sketches.exact", "sketches.two_step", "sketches.approx_kkm", "sketches.spectral_nystrom",
                  "sketching_matrices")),
    ("Clustering", ("cluster", "lloyd", "kernel_kmeans", "geometry", "seeding")),
    ("Risk, reference and population optimum", ("risk", "reference", "population", "metrics")),
    ("Bound checks", ("bounds.spec", "bounds.engine", "bounds.gamma", "bounds.trace", "bounds.jl",
                      "bounds.theory")),
    ("Rows, store and runs", ("config", "constraints", "rules", "identity", "experiment", "backends", "schema", "nan_reason", "store", "memory",
                              "sweeps", "reproduce", "report.entry", "timing")),
    ("Your own claim", ("claimfile", "judge", "plot")),
    ("Beyond one process", ("estimator", "dask_backend", "dask_backend.chunks")),
    ("Command line and infrastructure", ("cli", "summary", "progress", "threads", "registry", "errors",
                                         "transforms", "datasets.table_cache", "sketches.linalg", "docs",
                                         "version")),
)
#: the report's paper modules, in catalogue order: each holds its entries (``ENTRIES``)
PAPERS = ("calandriello", "yin", "wang", "pourkamali", "theory")
#: a paper whose entries live in modules of their own: rendered after the paper's docstring
PAPER_PARTS = {"wang": ("wang_common", "wang_fig2", "wang_fig3", "wang_fig45", "wang_table2")}
#: how a claim is decided, in the order verdicts.md renders them: (title, module)
DECISION = (("How a claim is decided", "report.decide"), ("Checks declared before the data", "report.claims"),
            ("The sequential decision", "report.sequential"), ("How a verdict is put together", "report.verdicts"))


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
    from kktheory.report.claims import rules_table

    out = ["# Verdicts", "",
           "Rendered from `kktheory/report/` by `python -m kktheory.docs`; do not edit by hand. "
           "The verdicts themselves, from the committed rows, are in `paper_figs/INDEX.md`.", "",
           *[line for title, module in DECISION for line in (f"## {title}", "", _module_doc(module), "")]]
    for paper in PAPERS:
        module = importlib.import_module(f"kktheory.report.{paper}")
        out += [f"## `kktheory.report.{paper}`", "", _module_doc(f"report.{paper}"), ""]
        for part in PAPER_PARTS.get(paper, ()):
            out += [f"#### `kktheory.report.{part}`", "", _module_doc(f"report.{part}"), ""]
        for entry in module.ENTRIES:
            out += [f"### {entry.name}", "", f"**{entry.title}.** Claim: {entry.claim}.", "",
                    f"Rule: {entry.rule}", ""]
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
