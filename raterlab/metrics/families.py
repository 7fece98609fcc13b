"""Metric families over consensus labels: one rate per system, family and metric, with its
confidence interval (``gold.metrics``).

Everything is read from the study's ``metrics:`` declaration (see
:mod:`raterlab.protocol.metrics`): which task and binary fields form which family, which item
key names the system, which groups nested items, which ranks them. A unit counts once its
consensus value for the field is 0 or 1 (unresolved, excluded and pending fields are left out
and show in ``n_excluded``).

Intervals: with a cluster key, items of a cluster are not independent, so the interval is a
cluster bootstrap (:func:`cluster_bootstrap_interval`) whenever some cluster holds more than
one unit; otherwise each unit is an independent Bernoulli trial and the interval is Wilson's.
"""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pandas as pd

from raterlab.design.generations import record_of
from raterlab.metrics.intervals import cluster_bootstrap_interval, wilson_interval
from raterlab.protocol import Study
from raterlab.protocol.metrics import MetricFamily, MetricSpec

METRIC_COLUMNS = (
    "family",
    "metric",
    "task",
    "field",
    "value",
    "k",
    "over",
    "system",
    "estimate",
    "ci_low",
    "ci_high",
    "interval",
    "confidence",
    "successes",
    "n",
    "n_clusters",
    "n_excluded",
    "computed_at",
)
ALL_SYSTEMS = "(all)"


def record_keys(study: Study) -> list[str]:
    """The item keys :func:`compute_metrics` reads from the records: the systems' key
    (``metrics.by``) and each family's ``cluster`` and ``rank``."""
    if study.metrics is None:
        return []
    families = study.metrics.families.values()
    keys = [study.metrics.by, *(k for f in families for k in (f.cluster, f.rank))]
    return list(dict.fromkeys(k for k in keys if k))


def _units(
    study: Study, family: MetricFamily, field: str, items: pd.DataFrame, consensus: pd.DataFrame
) -> pd.DataFrame:
    """Items of the family's task with their consensus value of ``field`` (NaN when it has
    none), system, cluster and rank."""
    own = items[items["task"] == family.task]
    records = own["record"].map(record_of)
    keys = {"system": study.metrics.by, "cluster": family.cluster, "rank": family.rank}
    units = pd.DataFrame({"item_id": own["item_id"].to_numpy()})
    for column, key in keys.items():
        units[column] = [r.get(key) if key else None for r in records]
    units["system"] = units["system"].map(lambda v: ALL_SYSTEMS if v is None else str(v))
    units["cluster"] = [
        c if c is not None else i for c, i in zip(units["cluster"], units["item_id"], strict=True)
    ]
    mine = consensus[(consensus["task"] == family.task) & (consensus["field"] == field)]
    value = pd.to_numeric(mine.set_index("item_id")["value_num"], errors="coerce")
    units["label"] = units["item_id"].map(value)
    units.loc[~units["label"].isin([0.0, 1.0]), "label"] = np.nan
    return units


def _rate(
    units: pd.DataFrame, spec: MetricSpec, confidence: float, n_resamples: int, seed: int
) -> dict:
    if spec.k is not None:
        units = units[pd.to_numeric(units["rank"], errors="coerce") <= spec.k]
    excluded = int(units["label"].isna().sum())
    units = units.dropna(subset=["label"])
    hit = (units["label"] == spec.value).astype(float)
    by_cluster = hit.groupby(units["cluster"])
    clusters = pd.DataFrame({"num": by_cluster.sum(), "den": by_cluster.count()})
    out = {"n_clusters": len(clusters), "n_excluded": excluded}
    if spec.over == "clusters":
        per = clusters["num"] / clusters["den"] if spec.reduce == "mean" else (clusters["num"] > 0)
        per = per.astype(float)
        out.update(successes=int(per.sum()) if spec.reduce == "any" else None, n=len(per))
        estimate = float(per.mean()) if len(per) else np.nan
        if spec.reduce == "any":
            low, high = wilson_interval(int(per.sum()), len(per), confidence)
            kind = "wilson"
        else:
            low, high = cluster_bootstrap_interval(
                per.to_numpy(), np.ones(len(per)), confidence, n_resamples, seed
            )
            kind = "cluster_bootstrap"
    else:
        successes, n = int(hit.sum()), len(hit)
        out.update(successes=successes, n=n)
        estimate = successes / n if n else np.nan
        if len(clusters) and clusters["den"].max() > 1:
            low, high = cluster_bootstrap_interval(
                clusters["num"].to_numpy(),
                clusters["den"].to_numpy(),
                confidence,
                n_resamples,
                seed,
            )
            kind = "cluster_bootstrap"
        else:
            low, high = wilson_interval(successes, n, confidence)
            kind = "wilson"
    return {**out, "estimate": estimate, "ci_low": low, "ci_high": high, "interval": kind}


def compute_metrics(
    study: Study,
    items: pd.DataFrame,
    consensus: pd.DataFrame,
    computed_at: datetime | None = None,
) -> pd.DataFrame:
    """``gold.metrics`` rows: every declared metric per system (and over all systems when the
    study has several), from ``gold.items`` (``record`` decoded) and ``gold.consensus``."""
    if study.metrics is None or items.empty:
        return pd.DataFrame(columns=list(METRIC_COLUMNS))
    declared = study.metrics
    rows = []
    for family_name, family in declared.families.items():
        for metric, spec in family.metrics.items():
            units = _units(study, family, spec.field, items, consensus)
            systems = sorted(set(units["system"]))
            groups = [(s, units[units["system"] == s]) for s in systems]
            if len(systems) > 1:
                groups.append((ALL_SYSTEMS, units))
            for system, group in groups:
                result = _rate(
                    group, spec, declared.confidence, declared.n_resamples, study.design.seed
                )
                rows.append(
                    {
                        "family": family_name,
                        "metric": metric,
                        "task": family.task,
                        "field": spec.field,
                        "value": spec.value,
                        "k": spec.k,
                        "over": spec.over if spec.over == "items" else f"clusters:{spec.reduce}",
                        "system": system,
                        "confidence": declared.confidence,
                        **result,
                    }
                )
    frame = pd.DataFrame(rows)
    frame["computed_at"] = computed_at or datetime.now(UTC)
    frame["k"] = frame["k"].astype("Int64")
    frame["successes"] = frame["successes"].astype("Int64")
    return frame[list(METRIC_COLUMNS)]
