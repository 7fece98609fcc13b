"""One study's write of the rater-quality tables.

``gold.rater_quality``, ``gold.rater_item_flags`` and ``gold.promotions`` are declared in
:mod:`raterlab.tables.quality`; the write creates them typed from there, so a study with no
ratings yet still gets typed, empty tables.
"""

from __future__ import annotations

import duckdb
import pandas as pd

from raterlab.quality.table import QualityReport
from raterlab.tables.quality import PROMOTIONS, RATER_ITEM_FLAGS, RATER_QUALITY
from raterlab.warehouse import replace_study_tables


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
    frames = {
        RATER_QUALITY.name: report.table,
        RATER_ITEM_FLAGS.name: report.item_flags,
        PROMOTIONS.name: report.promotions,
    }
    return replace_study_tables(
        con, study, {table: _typed(frame) for table, frame in frames.items()}
    )
