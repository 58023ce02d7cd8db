"""docs/ is the code's own documentation: the committed files equal a fresh rendering, and
every module of the package and every catalogue entry is in it."""

from __future__ import annotations

import importlib
import pkgutil

import kktheory
from kktheory import docs
from kktheory.report import catalogue


def all_modules() -> set[str]:
    names = set()
    for info in pkgutil.walk_packages(kktheory.__path__, "kktheory."):
        name = info.name.removeprefix("kktheory.")
        if not info.ispkg or name in ("dask_backend",):
            names.add(name)
    return names


def test_committed_docs_equal_their_rendering():
    assert docs.main(["--check"]) == 0, "run python -m kktheory.docs"


def test_every_module_is_documented():
    listed = {m for _, modules in docs.PIPELINE for m in modules}
    listed |= {f"report.{p}" for p in docs.PAPERS} | {"report.common", "report.decide", "__main__"}
    missing = {m for m in all_modules() - listed if not m.endswith("__main__")}
    assert missing == set(), f"add to kktheory/docs.py PIPELINE: {sorted(missing)}"


def test_every_catalogue_entry_is_in_the_verdicts():
    text = docs.verdicts_markdown()
    for name in catalogue():
        assert f"### {name}\n" in text
    assert all(importlib.import_module(f"kktheory.report.{p}").ENTRIES for p in docs.PAPERS)
