"""DDL generated from the declarations: what every writer runs before it writes a table.

Keys and nullability are not DDL constraints: DuckDB checks a primary key eagerly, so the
delete-then-insert that replaces a study's rows in one transaction would fail on it (DuckDB's
"over-eager constraint checking"); they are checked after the write instead
(:mod:`raterlab.tables.structure`).
"""

from __future__ import annotations

import duckdb

from raterlab.tables.model import Table


def quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def create_sql(table: Table) -> str:
    """``CREATE TABLE IF NOT EXISTS`` for a declared table."""
    if table.view:
        raise ValueError(f"{table.name} is a view: it is created by its own SELECT")
    columns = ", ".join(f"{quoted(c.name)} {c.type}" for c in table.columns)
    return f"CREATE TABLE IF NOT EXISTS {table.name} ({columns})"


def columns_in(con: duckdb.DuckDBPyConnection) -> dict[str, set[str]]:
    """Every table and view of the warehouse (``schema.name``) with its column names."""
    found: dict[str, set[str]] = {}
    rows = con.execute(
        "SELECT schema_name || '.' || table_name, column_name FROM duckdb_columns() "
        "WHERE database_name = current_database()"
    ).fetchall()
    for table, column in rows:
        found.setdefault(table, set()).add(column)
    return found


def _columns_of(con: duckdb.DuckDBPyConnection, name: str) -> set[str] | None:
    """The column names of the table or view ``name`` (``schema.name``), ``None`` if there is
    none."""
    try:
        return set(con.table(name).columns)
    except duckdb.CatalogException:
        return None


def ensure(
    con: duckdb.DuckDBPyConnection, *tables: Table, existing: dict[str, set[str]] | None = None
) -> None:
    """Create each table (typed, empty) if missing, and add any declared column a warehouse
    made by an older version lacks, so an existing warehouse keeps working. ``existing`` is
    the catalog (:func:`columns_in`) of a caller that ensures many tables; otherwise each
    table is looked up by name (0.2 ms, against 2-3 ms for the whole catalog of a study's
    warehouse: writers call this before every write). Only what is missing is created."""
    for table in tables:
        have = existing.get(table.name) if existing is not None else _columns_of(con, table.name)
        if have is None:
            con.execute(f"CREATE SCHEMA IF NOT EXISTS {table.schema}")
            con.execute(create_sql(table))
            continue
        for c in table.columns:
            if c.name not in have:
                con.execute(
                    f"ALTER TABLE {table.name} ADD COLUMN IF NOT EXISTS {quoted(c.name)} {c.type}"
                )
