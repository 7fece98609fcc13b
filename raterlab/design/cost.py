"""What a study's labeling costs, from its routed items and ``tiers:`` (cost per case and
labeler throughput per tier).

Per tier: ``cost = n * cost_per_case`` and ``labeler_days = n / cases_per_labeler_day``; the
``all`` row sums them, and its ``cost_per_case`` is the mean over cases, i.e. the tier costs
weighted by the routed shares (ADR-001: $0.40 x 0.4 + $0.16 x 0.6 = $0.256 per case).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from raterlab.protocol import Study

COST_COLUMNS = (
    "tier",
    "n",
    "share",
    "cost_per_case",
    "cost",
    "cases_per_labeler_day",
    "labeler_days",
    "noise_floor",
)


def tier_costs(study: Study, routed: pd.DataFrame) -> pd.DataFrame:
    """One row per routed tier and an ``all`` row (NaN where the study declares no figure)."""
    sampled = routed[routed["sampled"].astype(bool)] if "sampled" in routed else routed
    counts = sampled["tier"].value_counts()
    rows = []
    for tier in study.routing.tiers:
        policy = study.tiers.get(tier)
        n = int(counts.get(tier, 0))
        cost = policy.cost_per_case if policy and policy.cost_per_case is not None else np.nan
        speed = policy.cases_per_labeler_day if policy else None
        rows.append(
            {
                "tier": tier,
                "n": n,
                "cost_per_case": cost,
                "cost": n * cost,
                "cases_per_labeler_day": speed if speed else np.nan,
                "labeler_days": n / speed if speed else np.nan,
                "noise_floor": policy.noise_floor if policy and policy.noise_floor else np.nan,
            }
        )
    frame = pd.DataFrame(rows)
    total = int(frame["n"].sum())
    frame["share"] = frame["n"] / max(total, 1)
    whole = {
        "tier": "all",
        "n": total,
        "share": 1.0,
        "cost": frame["cost"].sum(min_count=len(frame)),
        "labeler_days": frame["labeler_days"].sum(min_count=len(frame)),
        "cases_per_labeler_day": np.nan,
        "noise_floor": np.nan,
    }
    whole["cost_per_case"] = whole["cost"] / total if total else np.nan
    frame = pd.concat([frame, pd.DataFrame([whole])], ignore_index=True)
    return frame[list(COST_COLUMNS)]
