"""The structural check of a declared table, over a DuckDB connection: the table exists, holds
exactly its declared columns with their declared types, its key columns are never NULL, and
its key and unique column sets hold no duplicate."""

from __future__ import annotations

import duckdb

from raterlab.tables.ddl import quoted
from raterlab.tables.model import Table

EXAMPLES = 3


def _where(study: str | None) -> tuple[str, list]:
    return ("WHERE study = ?", [study]) if study is not None else ("", [])


def _duplicates(
    con: duckdb.DuckDBPyConnection, table: Table, columns: tuple[str, ...], study: str | None
) -> str | None:
    where, params = _where(study)
    listed = ", ".join(quoted(c) for c in columns)
    rows = con.execute(
        f"SELECT {listed}, count(*) AS n FROM {table.name} {where} GROUP BY ALL "
        f"HAVING count(*) > 1 ORDER BY n DESC LIMIT {EXAMPLES + 1}",
        params,
    ).fetchall()
    if not rows:
        return None
    shown = "; ".join(
        ", ".join(f"{c}={v!r}" for c, v in zip(columns, row[:-1], strict=True)) + f" ({row[-1]}x)"
        for row in rows[:EXAMPLES]
    )
    more = " ..." if len(rows) > EXAMPLES else ""
    return f"{table.name}: ({', '.join(columns)}) is not unique: {shown}{more}"


def problems(con: duckdb.DuckDBPyConnection, table: Table, study: str | None = None) -> list[str]:
    """What is wrong with ``table`` in the warehouse against its declaration, each as one
    sentence naming the table, column, rule and value (empty: none). ``study`` limits the row
    checks to one study's rows."""
    try:
        relation = con.table(table.name)  # 0.5 ms, the catalog's columns view 2-4 ms
    except duckdb.CatalogException:
        return [f"{table.name}: missing (no such table or view)"]
    found = list(zip(relation.columns, map(str, relation.types), strict=True))
    actual = dict(found)
    out = [
        f"{table.name}.{c.name}: declared column is missing (type {c.type})"
        for c in table.columns
        if c.name not in actual
    ]
    out += [
        f"{table.name}.{c.name}: type is {actual[c.name]}, declared {c.type}"
        for c in table.columns
        if c.name in actual and actual[c.name] != c.type
    ]
    declared = set(table.names)
    out += [
        f"{table.name}.{column}: column is not declared (type {kind})"
        for column, kind in found
        if column not in declared
    ]
    if out:
        return out
    out += _nulls(con, table, study)
    for columns in (table.key, *table.unique):
        if columns and (found_duplicates := _duplicates(con, table, columns, study)):
            out.append(found_duplicates)
    return out


def _nulls(con: duckdb.DuckDBPyConnection, table: Table, study: str | None) -> list[str]:
    """A sentence for each column declared not null that holds NULLs (one query)."""
    columns = [c for c in table.names if not table.nullable(c)]
    if not columns:
        return []
    where, params = _where(study)
    counts = ", ".join(f"count(*) FILTER (WHERE {quoted(c)} IS NULL)" for c in columns)
    found = con.execute(f"SELECT {counts} FROM {table.name} {where}", params).fetchone()
    return [
        f"{table.name}.{column}: {n} rows are NULL (declared not null)"
        for column, n in zip(columns, found or (), strict=True)
        if n
    ]
