"""Metric families a study declares over its consensus labels (``metrics:`` in the study file).

A family reads one task's binary fields and reports, per value of the study's ``by`` key
(the system under evaluation), one rate per metric with a confidence interval::

    metrics:
      by: system
      families:
        retrieval:
          task: retrieval
          cluster: query_id      # items nested in queries: cluster bootstrap
          rank: rank             # for metrics with k
          metrics:
            relevance_precision_at_k: {field: topically_relevant, k: 5, over: clusters}
            misleading_rate: {field: misleading}
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MetricSpec(_Strict):
    """One rate: the share of units whose consensus ``field`` equals ``value``.

    ``over: items`` pools the items (within the top ``k`` by rank, if ``k``). ``over: clusters``
    first reduces each cluster: ``mean`` is the cluster's share (precision@k when ``k``),
    ``any`` is 1 when any of its items has the value (e.g. a query with a sufficient chunk);
    the rate is then the mean over clusters.
    """

    field: str
    value: int = Field(default=1, ge=0, le=1)
    k: int | None = Field(default=None, gt=0, description="Only items ranked 1..k.")
    over: Literal["items", "clusters"] = "items"
    reduce: Literal["mean", "any"] = "mean"
    description: str = ""


class MetricFamily(_Strict):
    """Metrics of one task (retrieval, grounding, generation...)."""

    task: str
    cluster: str | None = Field(
        default=None,
        description="Item key grouping nested items (e.g. query_id); intervals then resample "
        "clusters (cluster bootstrap) instead of treating items as independent.",
    )
    rank: str | None = Field(default=None, description="Item key holding the rank (for k).")
    metrics: dict[str, MetricSpec] = Field(min_length=1)


class Metrics(_Strict):
    """Metric families computed per value of ``by`` (``gold.metrics``, export ``metrics``)."""

    by: str | None = Field(default=None, description="Item key naming the system evaluated.")
    confidence: float = Field(default=0.95, gt=0, lt=1)
    n_resamples: int = Field(default=2000, ge=100)
    families: dict[str, MetricFamily] = Field(min_length=1)
