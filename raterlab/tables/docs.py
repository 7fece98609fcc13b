"""``docs/gold_tables.md`` generated from the table declarations: the hand-written prose
(``docs_header.md`` beside this module) followed by a reference section per table."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from raterlab.tables import TABLES
from raterlab.tables.model import Table

HEADER = Path(__file__).with_name("docs_header.md")
COMMAND = "raterlab tables docs --out docs/gold_tables.md"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _anchor(name: str) -> str:
    """GitHub's anchor of a heading that is ``name`` in backticks."""
    return "".join(ch for ch in name.lower() if ch.isalnum() or ch in "_-")


def _columns(columns: Iterable[str]) -> str:
    return ", ".join(f"`{c}`" for c in columns)


def column_table(table: Table) -> str:
    """The Markdown table of ``table``'s columns: name, type, NULL allowed, meaning."""
    lines = ["| column | type | null | meaning |", "|---|---|---|---|"]
    lines += [
        f"| `{c.name}` | {c.type} | {'yes' if table.nullable(c.name) else 'no'} | "
        f"{_cell(c.description)} |"
        for c in table.columns
    ]
    return "\n".join(lines)


def _writer(table: Table) -> str:
    if table.written_by.startswith("raterlab "):
        return f"`{table.written_by}`"
    return f"the `{table.written_by}` asset"


def table_section(table: Table) -> str:
    kind = "View" if table.view else "Table"
    parts = [
        f"## `{table.name}`",
        f"{table.description} {kind}, one row per {table.grain}; written by {_writer(table)}.",
    ]
    keys = []
    if table.key:
        keys.append(f"Key: {_columns(table.key)} (unique, never NULL).")
    keys += [f"Unique: {_columns(group)} (NULL counts as a value)." for group in table.unique]
    if keys:
        parts.append(" ".join(keys))
    if table.details:
        parts.append(table.details)
    parts.append(column_table(table))
    if table.study_columns:
        parts.append(table.study_columns)
    return "\n\n".join(parts)


def index(tables: Iterable[Table]) -> str:
    lines = ["| table | one row per | written by |", "|---|---|---|"]
    lines += [
        f"| [`{t.name}`](#{_anchor(t.name)}){' (view)' if t.view else ''} | {_cell(t.grain)} | "
        f"`{t.written_by}` |"
        for t in tables
    ]
    return "\n".join(lines)


def render(header: str | None = None) -> str:
    """The whole page: ``header`` (default: ``docs_header.md``), then the table reference,
    gold tables first, each schema's tables in declaration order."""
    text = HEADER.read_text(encoding="utf-8") if header is None else header
    order = {"gold": 0, "staging": 1, "raw": 2}
    tables = sorted(TABLES.values(), key=lambda t: order[t.schema])
    reference = [
        "## Table reference",
        f"Generated from `raterlab/tables/` by `{COMMAND}`.",
        index(tables),
        *(table_section(t) for t in tables),
    ]
    return text.rstrip("\n") + "\n\n" + "\n\n".join(reference) + "\n"
