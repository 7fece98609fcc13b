"""Metric families over consensus labels (what the study's ``metrics:`` declares), with
confidence intervals: ``gold.metrics`` and the ``system_metrics`` export."""

from raterlab.metrics.families import METRIC_COLUMNS, compute_metrics
from raterlab.metrics.intervals import cluster_bootstrap_interval, wilson_interval
from raterlab.metrics.store import METRICS, read_inputs, write_metrics

__all__ = [
    "METRICS",
    "METRIC_COLUMNS",
    "cluster_bootstrap_interval",
    "compute_metrics",
    "read_inputs",
    "wilson_interval",
    "write_metrics",
]
