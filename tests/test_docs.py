"""docs/ is the code's own documentation: the committed files equal a fresh rendering, and
every module of the package and every catalogue entry is in it."""

from __future__ import annotations

import pkgutil
from pathlib import Path

import kktheory
from kktheory import docs
from kktheory.report import catalogue


def all_modules() -> set[str]:
    names = set()
    for info in pkgutil.walk_packages(kktheory.__path__, "kktheory."):
        name = info.name.removeprefix("kktheory.")
        if not info.ispkg or name in ("run.dask", "reproduce"):
            names.add(name)
    return names


def test_committed_docs_equal_their_rendering():
    assert docs.main(["--check"]) == 0, "run python -m kktheory.docs"


def test_every_module_is_documented():
    listed = {m for _, modules in docs.PIPELINE for m in modules}
    listed |= {f"report.{p}" for p in docs.PAPERS} | {f"report.entries.{name}" for name in catalogue()}
    listed |= {m for _, m in docs.DECISION} | {"__main__"}
    missing = {m for m in all_modules() - listed if not m.endswith("__main__")}
    assert missing == set(), f"add to kktheory/docs.py PIPELINE: {sorted(missing)}"


def test_every_catalogue_entry_is_in_the_verdicts():
    text = docs.verdicts_markdown()
    for name in catalogue():
        assert f"### {name}\n" in text
    places = [e.place[0] for e in catalogue().values()]
    assert set(places) == set(range(1, len(docs.PAPERS) + 1))  # every paper module has its entries


def test_the_extending_page_names_what_exists():
    """docs/extending.md (written by hand): its files exist, the hooks and the backend
    protocol it lists are the code's, and both backends implement every step."""
    import re
    import typing

    from kktheory.constraints import BACKENDS
    from kktheory.run import backends, method
    from kktheory.run.dask import DaskBackend
    from kktheory.run.method import Method
    from kktheory.embeddings import Sketch, landmark_rows
    from kktheory.embeddings.gaussian import GaussianProjection

    root = Path(docs.__file__).resolve().parent.parent
    text = (root / "docs" / "extending.md").read_text()
    for path in set(re.findall(r"`((?:kktheory|configs|tests)/[\w/.]+\.(?:py|yaml))`", text)):
        assert (root / path).is_file(), path
    hooks = ("validate", "nested", "partition", "arrays", "jl_scale", "m_used", "not_from_landmark_rows", "capabilities")
    for hook in hooks:
        assert hook in text and hasattr(Sketch, hook), hook
    for hook in ("FromLandmarkRows", "RowPass", "landmark_rows_only", "draw_landmark_rows", "fit_on_landmark_rows",
                 "row_statistic", "finish_fit"):
        assert hook in text, hook
        assert hasattr(landmark_rows, hook) or hasattr(landmark_rows.RowPass, hook), hook
    assert "nested" in vars(GaussianProjection) and hasattr(GaussianProjection, "redraw")
    protocol = {name for name in vars(method.Backend) if not name.startswith("_")}
    protocol |= set(typing.get_type_hints(method.Backend))
    assert protocol == {"name", "exact_lifted_risks", "features_in_memory", "reads_sources", "check", "session", "inputs",
                        "fit_kernel", "fit", "lifted_risks", "native_input", "rows", "features", "distances",
                        "cluster_means"}
    for step in protocol - {"name"}:
        assert f"`{step}" in text, step
        assert hasattr(backends.NumpyBackend, step) and hasattr(DaskBackend, step), step
    assert set(BACKENDS) == {"numpy", "dask"} and hasattr(Method, "ops")


def test_the_extending_page_examples_are_the_codes():
    """Each worked example of docs/extending.md (sketch, comparator, data set, kernel,
    catalogue entry) names classes, registrations and fields that exist as it says."""
    from dataclasses import fields

    from kktheory.comparators.approx_kkm import ApproxKernelKMeans
    from kktheory.comparators.nystrom_based import NystromComparator
    from kktheory.embeddings.nystrom import Nystrom
    from kktheory.datasets import DATASETS, TABLES
    from kktheory.datasets.segment import SegmentConfig
    from kktheory.embeddings import SKETCHES
    from kktheory.embeddings.base import Capabilities
    from kktheory.embeddings.nystrom import UniformLandmarks
    from kktheory.embeddings.nystrom_rls import NystromRLS, RidgeLeverageLandmarks
    from kktheory.kernels.functions import KERNELS, KernelFamily
    from kktheory.kernels.polynomial import Polynomial
    from kktheory.report.entries import wang_fig3

    text = (Path(docs.__file__).resolve().parent.parent / "docs" / "extending.md").read_text()
    assert SKETCHES.get("approx_kkm").impl is ApproxKernelKMeans
    assert ApproxKernelKMeans.capabilities == Capabilities(embedding=False, runs_clusterer=False)
    assert "partition" in vars(ApproxKernelKMeans) and ApproxKernelKMeans.held_arrays == 2
    assert issubclass(ApproxKernelKMeans, NystromComparator) and not issubclass(ApproxKernelKMeans, Nystrom)
    assert isinstance(NystromRLS.selection, RidgeLeverageLandmarks) and UniformLandmarks().reads_rows is False
    assert {"source", "split"} <= {f.name for f in fields(SegmentConfig)} and "segment" in TABLES
    assert DATASETS.get("segment").config_cls is SegmentConfig
    assert isinstance(KERNELS.get("polynomial").impl, Polynomial) and Polynomial.fields == ("degree", "coef0")
    for step in ("validate", "make", "prepare", "finish", "paired", "diag", "used"):
        assert hasattr(KernelFamily, step) and f"{step}(" in text, step
    entry = wang_fig3.FIG3
    assert (entry.name, entry.place, entry.paper_runs) == ("wang_fig3", (3, 2), 100)
    assert entry.draw is wang_fig3.draw_fig3 and entry.judge is wang_fig3.judge_fig3
    for const in ("TITLE", "CLAIM", "RULE", "CHANGES"):
        assert hasattr(wang_fig3, const) and f"`{const}`" in text, const
