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
        if out[column].map(lambda v: isinstance(v, dict | list)).any():
            out[column] = out[column].map(
                lambda v: None if v is None else json.dumps(v, ensure_ascii=False)
            )
    return out


def replace_study_rows(
    con: duckdb.DuckDBPyConnection, table: str, study: str, frame: pd.DataFrame
) -> int:
    """Replace ``study``'s rows of ``table`` (``schema.name``) with ``frame``, in one transaction.

    ``frame`` gets a leading ``study`` column. The table is created from the frame's columns
    on first write; later writes insert by column name.
    """
    data = _jsonable(frame).assign(study=study)
    data = data[["study", *[c for c in data.columns if c != "study"]]]
    con.register("_incoming", data)
    try:
        con.execute("BEGIN TRANSACTION")
        con.execute(f"CREATE TABLE IF NOT EXISTS {table} AS SELECT * FROM _incoming LIMIT 0")
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
    """``study``'s rows of ``table`` (the ``columns`` listed, default all but ``study``).

    Read through Arrow, with text kept in Arrow-backed string columns: several times faster
    than converting every string to a Python object on large tables.
    """
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
