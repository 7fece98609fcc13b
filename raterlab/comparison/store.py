"""Writing ``gold.condition_comparison`` and ``gold.condition_means`` (typed, per study)."""

from __future__ import annotations

import duckdb
import pandas as pd

from raterlab import warehouse
from raterlab.comparison.table import COMPARISON, MEANS
from raterlab.consensus.schema import ddl

TABLES = {"gold.condition_comparison": COMPARISON, "gold.condition_means": MEANS}


def write_comparison(
    con: duckdb.DuckDBPyConnection, study: str, table: pd.DataFrame, means: pd.DataFrame
) -> None:
    """Replace the study's rows of both tables (created typed on first use), in one
    transaction."""
    con.execute("CREATE SCHEMA IF NOT EXISTS gold")
    for name, columns in TABLES.items():
        con.execute(f"CREATE TABLE IF NOT EXISTS {name} ({ddl(columns)})")
    warehouse.replace_study_tables(
        con, study, {"gold.condition_comparison": table, "gold.condition_means": means}
    )
