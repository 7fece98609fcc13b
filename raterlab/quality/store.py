"""The rater-quality tables in the warehouse, and one study's write.

``gold.rater_quality``, ``gold.rater_item_flags`` and ``gold.promotions`` (columns: see
:mod:`raterlab.quality.table` and :mod:`raterlab.quality.drift`) are created with their types
before the first write, so a study with no ratings yet still gets typed, empty tables.
"""

from __future__ import annotations

import duckdb
import pandas as pd

from raterlab.quality.table import QualityReport
from raterlab.warehouse import replace_study_tables

DDL = {
    "gold.rater_quality": """
        study VARCHAR, annotator_id VARCHAR, metric VARCHAR, slice VARCHAR, value DOUBLE,
        target DOUBLE, comparison VARCHAR, flagged BOOLEAN, n BIGINT, ci_low DOUBLE,
        ci_high DOUBLE, p_value DOUBLE""",
    "gold.rater_item_flags": """
        study VARCHAR, annotator_id VARCHAR, task VARCHAR, item_id VARCHAR, flag VARCHAR,
        detail VARCHAR""",
    "gold.promotions": """
        study VARCHAR, item_id VARCHAR, task VARCHAR, tier VARCHAR, to_tier VARCHAR,
        week VARCHAR, reason VARCHAR""",
}


def ensure_quality_tables(con: duckdb.DuckDBPyConnection) -> None:
    for table, columns in DDL.items():
        con.execute(f"CREATE TABLE IF NOT EXISTS {table} ({columns})")


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with text columns as Python strings (an empty frame keeps its columns)."""
    out = frame.copy()
    for column in out.columns:
        if out[column].dtype == object or str(out[column].dtype).startswith("string"):
            out[column] = out[column].astype(object).where(out[column].notna(), None)
    return out


def write_quality(con: duckdb.DuckDBPyConnection, study: str, report: QualityReport) -> dict:
    """Replace ``study``'s rows of the three tables in one transaction; returns rows
    written per table."""
    ensure_quality_tables(con)
    frames = {
        "gold.rater_quality": report.table,
        "gold.rater_item_flags": report.item_flags,
        "gold.promotions": report.promotions,
    }
    return replace_study_tables(
        con, study, {table: _typed(frame) for table, frame in frames.items()}
    )
