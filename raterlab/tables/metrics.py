"""``gold.metrics``: the study's metric families over the consensus labels."""

from __future__ import annotations

from raterlab.tables import fields as f
from raterlab.tables.model import Column, Table

_METRICS = (
    f.STUDY,
    Column("family", f.VARCHAR, "Metric family (a key of the study's `metrics.families`)."),
    Column("metric", f.VARCHAR, "Metric name (a key of the family's `metrics`)."),
    Column("task", f.VARCHAR, "Task whose consensus labels the metric reads."),
    Column("field", f.VARCHAR, "Binary field counted."),
    Column("value", f.INTEGER, "The field value that counts as a success (1 unless declared)."),
    Column("k", f.BIGINT, "Only items ranked 1..k (NULL: every item)."),
    Column("over", f.VARCHAR, "`items` (pooled) or `clusters:mean` / `clusters:any`."),
    Column("system", f.VARCHAR, "Value of the study's `metrics.by` key; `(all)` pools systems."),
    Column("estimate", f.DOUBLE, "The rate."),
    Column("ci_low", f.DOUBLE, "Lower bound of the confidence interval."),
    Column("ci_high", f.DOUBLE, "Upper bound of the confidence interval."),
    Column("interval", f.VARCHAR, "`wilson` (independent units) or `cluster_bootstrap`."),
    Column("confidence", f.DOUBLE, "Confidence level of the interval."),
    Column("successes", f.BIGINT, "Units counted as successes (NULL for a mean over clusters)."),
    Column("n", f.BIGINT, "Units in the denominator (items, or clusters for `over: clusters`)."),
    Column("n_clusters", f.BIGINT, "Clusters those units fall in."),
    Column("n_excluded", f.BIGINT, "Units left out: no 0/1 consensus value (unresolved...)."),
    f.COMPUTED_AT.described("When the metrics were computed."),
)


METRICS = Table(
    "gold.metrics",
    "The study's metric families (`metrics:` in the study file) over the consensus labels.",
    grain="metric family, metric and system",
    written_by="system_metrics",
    columns=_METRICS,
    unique=(("study", "family", "metric", "system"),),
    details="`(all)` pools the systems when there are several. Intervals: `wilson` is the "
    "Wilson score interval (independent units: one per query); `cluster_bootstrap` resamples "
    "the family's clusters (queries) with replacement, percentile interval, so chunks of one "
    "query are not counted as independent evidence.",
)

TABLES = (METRICS,)
