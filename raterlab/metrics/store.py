"""``gold.metrics``: the study's metric families, one row per family, metric and system."""

from __future__ import annotations

import duckdb
import pandas as pd

from raterlab import warehouse
from raterlab.consensus.schema import Column, ddl

TABLE = "gold.metrics"

METRICS = (
    Column("study", "VARCHAR", "Study name."),
    Column("family", "VARCHAR", "Metric family (a key of the study's `metrics.families`)."),
    Column("metric", "VARCHAR", "Metric name (a key of the family's `metrics`)."),
    Column("task", "VARCHAR", "Task whose consensus labels the metric reads."),
    Column("field", "VARCHAR", "Binary field counted."),
    Column("value", "INTEGER", "The field value that counts as a success (1 unless declared)."),
    Column("k", "BIGINT", "Only items ranked 1..k (NULL: every item)."),
    Column("over", "VARCHAR", "`items` (pooled) or `clusters:mean` / `clusters:any`."),
    Column("system", "VARCHAR", "Value of the study's `metrics.by` key; `(all)` pools systems."),
    Column("estimate", "DOUBLE", "The rate."),
    Column("ci_low", "DOUBLE", "Lower bound of the confidence interval."),
    Column("ci_high", "DOUBLE", "Upper bound of the confidence interval."),
    Column("interval", "VARCHAR", "`wilson` (independent units) or `cluster_bootstrap`."),
    Column("confidence", "DOUBLE", "Confidence level of the interval."),
    Column("successes", "BIGINT", "Units counted as successes (NULL for a mean over clusters)."),
    Column("n", "BIGINT", "Units in the denominator (items, or clusters for `over: clusters`)."),
    Column("n_clusters", "BIGINT", "Clusters those units fall in."),
    Column("n_excluded", "BIGINT", "Units left out: no 0/1 consensus value (unresolved...)."),
    Column("computed_at", "TIMESTAMPTZ", "When the metrics were computed."),
)


def write_metrics(con: duckdb.DuckDBPyConnection, study: str, frame: pd.DataFrame) -> int:
    """Replace ``study``'s rows of ``gold.metrics`` (typed table, one transaction)."""
    con.execute("CREATE SCHEMA IF NOT EXISTS gold")
    con.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} ({ddl(METRICS)})")
    return warehouse.replace_study_rows(con, TABLE, study, frame)
