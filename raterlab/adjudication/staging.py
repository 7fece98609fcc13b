"""The staging tables adjudication keeps: the adjudication key, the third-annotator
assignments and packet files, the stored queue; and how a new batch is numbered.

``staging.adjudication_key`` maps each case token of an adjudication packet to its item and
field; it never leaves the warehouse.
"""

from __future__ import annotations

import duckdb
import pandas as pd

from raterlab import warehouse
from raterlab.tables import adjudication as tables
from raterlab.tables import ddl, names
from raterlab.warehouse import read_table

ADJUDICATION_KEY_TABLE = tables.ADJUDICATION_KEY.name
ADJUDICATION_KEY_COLUMNS = tuple(names(tables.ADJUDICATION_KEY)[1:])
"""The adjudication key's columns (without ``study``): what a case token stands for. Not the
sealed key's (:data:`raterlab.design.blinding.KEY_COLUMNS`)."""


def ensure_staging(con: duckdb.DuckDBPyConnection) -> None:
    """Create the staging tables of adjudication typed from their declarations, so an
    all-null column keeps its type."""
    ddl.ensure(
        con,
        tables.ADJUDICATION_QUEUE,
        tables.ADJUDICATION_KEY,
        tables.TIEBREAK_ASSIGNMENTS,
        tables.TIEBREAK_PACKET_FILES,
    )


def read_adjudication_key(con: duckdb.DuckDBPyConnection, study: str) -> pd.DataFrame:
    """The study's ``staging.adjudication_key`` rows (empty, with its columns, when none)."""
    key = read_table(con, ADJUDICATION_KEY_TABLE, study)
    return pd.DataFrame(columns=list(ADJUDICATION_KEY_COLUMNS)) if key is None else key


def append_rows(
    con: duckdb.DuckDBPyConnection, table: str, study: str, frame: pd.DataFrame
) -> None:
    """Add ``frame`` to the study's rows of a staging table (the rows already there kept)."""
    ensure_staging(con)
    previous = read_table(con, table, study)
    both = (
        frame
        if previous is None or previous.empty
        else pd.concat([previous, frame], ignore_index=True)
    )
    warehouse.replace_study_rows(con, table, study, both)


def next_batch(existing: pd.Series, prefix: str, width: int) -> str:
    """The batch after the highest ``<prefix>-NN`` among ``existing`` (``adj-001``,
    ``extra-01``...; the first when there is none)."""
    numbers = [
        int(b.rsplit("-", 1)[1])
        for b in existing.dropna().unique()
        if str(b).startswith(prefix + "-") and str(b).rsplit("-", 1)[1].isdigit()
    ]
    return f"{prefix}-{(max(numbers) if numbers else 0) + 1:0{width}d}"
