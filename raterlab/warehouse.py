"""The DuckDB warehouse: schemas ``raw``, ``staging`` and ``gold``, and idempotent writes.

Every write replaces one study's rows of a table in a single transaction, so a re-run never
appends twice and a failed write leaves the previous rows in place.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pandas as pd
import pyarrow as pa

SCHEMAS = ("raw", "staging", "gold")


@contextmanager
def connect(path: Path, read_only: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection to the warehouse file, with the three schemas present."""
    if not read_only:
        path.parent.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(str(path), read_only=read_only)
    try:
        if not read_only:
            for schema in SCHEMAS:
                con.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
        yield con
    finally:
        con.close()


def _jsonable(frame: pd.DataFrame) -> pd.DataFrame:
    """Dict and list cells as JSON text, so DuckDB stores them as one column of type JSON."""
    out = frame.copy()
    for column in out.columns:
        if any(isinstance(v, dict | list) for v in out[column]):
            out[column] = out[column].map(
                lambda v: None if v is None else json.dumps(v, ensure_ascii=False)
            )
    return out


def table_exists(con: duckdb.DuckDBPyConnection, table: str) -> bool:
    """Whether ``schema.name`` exists (as a table or a view)."""
    schema, name = table.split(".")
    found = (
        con.execute(
            "SELECT count(*) FROM duckdb_tables() WHERE schema_name = ? AND table_name = ?",
            [schema, name],
        ).fetchall()[0][0]
        or con.execute(
            "SELECT count(*) FROM duckdb_views() WHERE schema_name = ? AND view_name = ?",
            [schema, name],
        ).fetchall()[0][0]
    )
    return bool(found)


def replace_study_rows(
    con: duckdb.DuckDBPyConnection, table: str, study: str, frame: pd.DataFrame
) -> int:
    """Replace ``study``'s rows of ``table`` (``schema.name``) with ``frame``, in one transaction.

    ``frame`` gets a leading ``study`` column. The table is created from the frame's columns
    on the first write that has rows (an empty frame carries no column types); later writes
    insert by column name, and a column the table lacks (a warehouse made by an older
    version) is added first.
    """
    if frame.empty and not table_exists(con, table):
        return 0
    data = _jsonable(frame).assign(study=study)
    data = data[["study", *[c for c in data.columns if c != "study"]]]
    con.register("_incoming", data)
    try:
        con.execute("BEGIN TRANSACTION")
        con.execute(f"CREATE TABLE IF NOT EXISTS {table} AS SELECT * FROM _incoming LIMIT 0")
        if len(data):
            for name, kind in con.execute(
                "SELECT column_name, column_type FROM (DESCRIBE _incoming)"
            ).fetchall():
                con.execute(f'ALTER TABLE {table} ADD COLUMN IF NOT EXISTS "{name}" {kind}')
        con.execute(f"DELETE FROM {table} WHERE study = ?", [study])
        con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _incoming")
        con.execute("COMMIT")
    except Exception:
        con.execute("ROLLBACK")
        raise
    finally:
        con.unregister("_incoming")
    return len(data)


_STRINGS = pd.StringDtype("pyarrow", na_value=float("nan"))


def read_study_rows(
    con: duckdb.DuckDBPyConnection, table: str, study: str, columns: str = "*"
) -> pd.DataFrame:
    """``study``'s rows of ``table`` (the ``columns`` listed, default all but ``study``); an
    empty frame when the table does not exist yet.

    Read through Arrow, with text kept in Arrow-backed string columns: several times faster
    than converting every string to a Python object on large tables.
    """
    if not table_exists(con, table):
        return pd.DataFrame()
    query = f"SELECT {columns} FROM {table} WHERE study = $study"
    arrow = con.sql(query, params={"study": study}).to_arrow_table()
    frame = arrow.to_pandas(types_mapper={pa.string(): _STRINGS, pa.large_string(): _STRINGS}.get)
    return frame.drop(columns="study", errors="ignore")


def decode_json(frame: pd.DataFrame, columns: tuple[str, ...]) -> pd.DataFrame:
    """Parse JSON text columns written by :func:`replace_study_rows` back into Python values."""
    out = frame.copy()
    for column in columns:
        out[column] = out[column].map(lambda v: json.loads(v) if isinstance(v, str) else None)
    return out
