"""``docs/gold_tables.md`` is generated from the declarations and committed as generated."""

from __future__ import annotations

from raterlab.cli import main
from raterlab.tables import TABLES
from raterlab.tables.docs import COMMAND, HEADER, render
from tests.conftest import REPO

DOC = REPO / "docs" / "gold_tables.md"


def test_committed_doc_is_the_generated_one() -> None:
    assert DOC.read_text(encoding="utf-8") == render(), (
        f"{DOC.relative_to(REPO)} differs from the table declarations in raterlab/tables/ "
        f"(or its header {HEADER.name}); regenerate it with `{COMMAND}`"
    )


def test_every_table_and_column_is_documented() -> None:
    text = render("# header\n")
    assert text.startswith("# header\n\n## Table reference")
    for table in TABLES.values():
        assert f"## `{table.name}`" in text
        for column in table.columns:
            assert f"| `{column.name}` | {column.type} |" in text


def test_cli_writes_the_doc(tmp_path) -> None:
    out = tmp_path / "gold_tables.md"
    assert main(["tables", "docs", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == render()
