"""The package's import graph has no cycle, its folders are stacked in the pipeline's order,
and the report does not reach into the sketches.

The graph is read from the source (``ast``): every ``import`` of a kktheory module, at module
level, inside a function (a lazy import is still a dependency) or under ``if TYPE_CHECKING:``
(an import for annotations ties the modules as much as any other). ``from package import
name`` depends on the submodule ``package.name`` when there is one, else on the package.
"""

from __future__ import annotations

import ast
import graphlib
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "kktheory"


def modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The kktheory modules that module ``name`` (file ``path``) imports."""
    tree = ast.parse(path.read_text())
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(parent + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports_of(name, path, known) for name, path in known.items()}


def test_the_graph_reads_the_package(graph):
    assert "kktheory.run.experiment" in graph and "kktheory.embeddings.nystrom" in graph
    assert "kktheory.embeddings" in graph["kktheory.run.experiment"]
    assert "kktheory.run.config" in graph["kktheory.reproduce.plan"]  # a lazy import (in a function) counts
    assert "kktheory.run.config" in graph["kktheory.run.backends"]


def test_no_import_cycle(graph):
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as exc:
        pytest.fail(f"import cycle: {' -> '.join(exc.args[1])}")


#: the pipeline's folders, each importing only from those before it (and from the ground:
#: errors, seeding, registry, constraints, rules, version, atomic, machine/)
STAGES = ("datasets", "kernels", "cluster", "embeddings", "comparators", "evaluation", "run")


def stage(module: str) -> int | None:
    part = module.split(".")[1] if module.count(".") else None
    return STAGES.index(part) if part in STAGES else None


def test_the_stages_are_stacked_in_the_pipelines_order(graph):
    upward = sorted((m, t) for m, targets in graph.items() for t in targets
                    if stage(m) is not None and stage(t) is not None and stage(t) > stage(m))
    assert upward == []
    later = {"report", "reproduce", "judge", "cli", "estimator", "timing", "plot", "docs"}
    reaching = sorted((m, t) for m, targets in graph.items() for t in targets
                      if stage(m) is not None and t.split(".")[1] in later)
    assert reaching == []


def test_a_cycle_would_be_found():
    with pytest.raises(graphlib.CycleError):
        tuple(graphlib.TopologicalSorter({"a": {"b"}, "b": {"a"}}).static_order())


def test_the_report_imports_nothing_from_the_sketches(graph):
    reaching = {(m, t) for m, ts in graph.items() if m.startswith("kktheory.report")
                for t in ts if t.startswith("kktheory.embeddings")}
    assert not reaching


def test_the_method_holds_no_backend_branch(graph):
    """experiment.py reaches the backends only through :mod:`kktheory.run.backends` (chosen once)."""
    source = (PACKAGE / "run" / "experiment.py").read_text()
    assert "kktheory.run.dask" not in graph["kktheory.run.experiment"]
    assert not re.search(r"backend\s*[!=]=\s*[\"']", source)
