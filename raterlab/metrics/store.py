"""``gold.metrics``: the study's metric families, one row per family, metric and system
(declared in :mod:`raterlab.tables.metrics`)."""

from __future__ import annotations

import duckdb
import pandas as pd

from raterlab import warehouse
from raterlab.tables.metrics import METRICS


def write_metrics(con: duckdb.DuckDBPyConnection, study: str, frame: pd.DataFrame) -> int:
    """Replace ``study``'s rows of ``gold.metrics`` (typed table, one transaction)."""
    return warehouse.replace_study_rows(con, METRICS.name, study, frame)
