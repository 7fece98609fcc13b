"""Routed tier shares against the shares the study intends (``routing.targets``)."""

from __future__ import annotations

import pandas as pd

from raterlab.protocol import Study


def tier_shares(study: Study, routed: pd.DataFrame) -> pd.DataFrame:
    """``tier, n, share, target, off`` over the sampled items of ``staging.routed_items``;
    ``off`` is ``share - target`` (NaN for a tier without a target)."""
    sampled = routed[routed["sampled"].astype(bool)] if "sampled" in routed else routed
    counts = sampled["tier"].value_counts()
    tiers = list(dict.fromkeys([*study.routing.targets, *counts.index]))
    total = max(len(sampled), 1)
    frame = pd.DataFrame({"tier": tiers})
    frame["n"] = [int(counts.get(t, 0)) for t in tiers]
    frame["share"] = frame["n"] / total
    frame["target"] = [study.routing.targets.get(t, float("nan")) for t in tiers]
    frame["off"] = frame["share"] - frame["target"]
    return frame


def share_problems(study: Study, shares: pd.DataFrame) -> list[str]:
    """A sentence per tier whose share is more than ``routing.target_tolerance`` off."""
    tolerance = study.routing.target_tolerance
    return [
        f"{r.tier}: {r.share:.1%} of items routed, target {r.target:.0%} "
        f"(more than {tolerance:.0%} off)"
        for r in shares.itertuples(index=False)
        if pd.notna(r.off) and abs(r.off) > tolerance + 1e-12
    ]
