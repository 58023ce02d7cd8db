"""The row columns the reports read by name are columns a row has (docs/schema.md).

Checked statically on each report module's source: every module-level ``*_COL`` constant, and
every column a report declares it needs (the list given to ``require_columns``, as literals or
module constants), must be documented by kktheory.run.schema or be one of the columns the
redraw adds to its rows (``REPORT_COLUMNS``). A misspelt column would otherwise only show as a
report that never runs ("column(s) ... absent from the rows").
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from kktheory.report.rows import REPORT_COLUMNS
from kktheory.run.schema import columns

REPORT = Path(__file__).resolve().parents[1] / "kktheory" / "report"


def named_columns(source: str) -> list[tuple[str, str]]:
    """The column names a report module reads by name: (where, column)."""
    tree = ast.parse(source)
    constants = {
        t.id: node.value.value
        for node in tree.body if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        for t in node.targets if isinstance(t, ast.Name)
    }
    out = [(name, value) for name, value in constants.items() if name.endswith("_COL")]
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "require_columns" and len(node.args) > 1:
            listed = node.args[1]
            for item in getattr(listed, "elts", []):
                if isinstance(item, ast.Constant) and isinstance(item.value, str):
                    out.append((f"require_columns line {item.lineno}", item.value))
                elif isinstance(item, ast.Name) and item.id in constants:
                    out.append((f"require_columns line {item.lineno} ({item.id})", constants[item.id]))
    return out


def unknown(source: str) -> list[tuple[str, str]]:
    known = set(columns()) | set(REPORT_COLUMNS)
    return [(where, col) for where, col in named_columns(source) if col not in known]


@pytest.mark.parametrize("module", sorted(str(p.relative_to(REPORT)) for p in REPORT.rglob("*.py")))
def test_every_column_a_report_names_is_a_row_column(module: str) -> None:
    assert unknown((REPORT / module).read_text()) == []


def test_the_reports_name_columns_at_all() -> None:
    found = {col for p in REPORT.rglob("*.py") for _, col in named_columns(p.read_text())}
    assert {"sketch.name", "dataset.name", "kernel.beta", "train_nmi", "test_accuracy"} <= found


def test_a_misspelt_column_is_caught() -> None:
    source = 'SKETCH_COL = "sketch.nmae"\nERR = "approx_fro_rell"\ndef f(d):\n    return require_columns(d, [ERR, "train_nmi", "test_acuracy", "objectiv"])\n'
    assert unknown(source) == [
        ("SKETCH_COL", "sketch.nmae"),
        ("require_columns line 4 (ERR)", "approx_fro_rell"),
        ("require_columns line 4", "test_acuracy"),
        ("require_columns line 4", "objectiv"),
    ]
