"""Tier spot checks and drift: does the single annotator of a one-annotator tier (TRIAGE)
still agree with the spot-checker, week after week?

A spot check is an item of a tier with overlap 1 that ``staging.assignments`` also gave to a
second annotator (``spot_check = True``). Per item and rating field the single annotator
and the spot-checker *disagree* when their Likert ratings are more than one point apart or
their labels differ. The week of a comparison is the ISO week (``2026-W47``) of the later
of the two ratings' ``ingested_at``.

``spot_check_disagreement`` = disagreeing comparisons / comparisons:

- per week for the panel (annotator ``*``, slice ``week=...``), flagged in the weeks of a
  drift run (below);
- over all weeks for the panel (``all``) and per single annotator (whose work is checked),
  the latter flagged above ``max_disagreement`` with at least :data:`MIN_COMPARISONS`.

The drift rule ``quality.drift`` (``max_disagreement``, ``consecutive_weeks``): the rule
fails as soon as the weekly disagreement is above ``max_disagreement`` for
``consecutive_weeks`` weeks running. Weeks are the weeks that had spot checks, in order; a
week without spot checks neither extends nor breaks a run. Every item of a one-annotator
tier whose rating was ingested in a week of a failing run is promoted to the study's
most-covered tier (``gold.promotions``: item_id, task, tier, to_tier, week, reason).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from raterlab.design.kinds import ordinary
from raterlab.membership import is_in
from raterlab.protocol import Study
from raterlab.quality.ratings import ALL, EVERYONE, key_slice, metric, within_one

MIN_COMPARISONS = 20
PROMOTION_COLUMNS = ("item_id", "task", "tier", "to_tier", "week", "reason")


def iso_week(timestamps: pd.Series) -> pd.Series:
    """``YYYY-Www`` of each timestamp (ISO 8601 week; sorts in time order)."""
    stamps = pd.to_datetime(timestamps, utc=True)
    calendar = stamps.dt.isocalendar()
    return calendar["year"].astype(str) + "-W" + calendar["week"].astype(int).map("{:02d}".format)


def single_tiers(study: Study) -> list[str]:
    return sorted(t for t, k in study.design.overlap.items() if k == 1)


def promotion_tier(study: Study) -> str:
    """The tier items are promoted to: the one with the most annotators per item."""
    return max(study.design.overlap.items(), key=lambda kv: (kv[1], kv[0] == "GOLD"))[0]


def spot_check_comparisons(
    study: Study, rows: pd.DataFrame, assignments: pd.DataFrame
) -> pd.DataFrame:
    """One row per spot-checked item and field: ``single`` and ``checker`` annotators, their
    values, ``disagree``, ``week``. ``rows`` is :func:`ratings.prepare` output."""
    columns = ["task", "item_id", "field", "single", "checker", "disagree", "week", "tier"]
    if assignments is None or assignments.empty or "spot_check" not in assignments:
        return pd.DataFrame(columns=columns)
    plain = assignments[ordinary(assignments)]
    plain = plain[plain["tier"].isin(single_tiers(study))]
    spot = plain["spot_check"].astype(bool)
    checkers = plain.loc[spot, ["task", "item_id", "annotator_id", "tier"]]
    singles = plain.loc[
        ~spot & is_in(plain["item_id"], checkers["item_id"]), ["task", "item_id", "annotator_id"]
    ]
    who = checkers.rename(columns={"annotator_id": "checker"}).merge(
        singles.rename(columns={"annotator_id": "single"}), on=["task", "item_id"]
    )
    values = rows[ordinary(rows)]
    values = values[["task", "item_id", "field", "annotator_id", "x", "likert", "ingested_at"]]
    a = who.merge(
        values.rename(columns={"annotator_id": "single"}), on=["task", "item_id", "single"]
    )
    pairs = a.merge(
        values.drop(columns="likert").rename(columns={"annotator_id": "checker"}),
        on=["task", "item_id", "field", "checker"],
        suffixes=("_single", "_checker"),
    )
    if pairs.empty:
        return pd.DataFrame(columns=columns)
    pairs["disagree"] = ~within_one(pairs["x_single"], pairs["x_checker"], pairs["likert"])
    later = pd.concat(
        [
            pd.to_datetime(pairs["ingested_at_single"], utc=True),
            pd.to_datetime(pairs["ingested_at_checker"], utc=True),
        ],
        axis=1,
    ).max(axis=1)
    pairs["week"] = iso_week(later)
    return pairs[[*columns[:5], "x_single", "x_checker", "disagree", "week", "tier"]]


def weekly_disagreement(comparisons: pd.DataFrame) -> pd.DataFrame:
    """``week, n, disagreements, share`` in week order."""
    if comparisons.empty:
        return pd.DataFrame(columns=["week", "n", "disagreements", "share"])
    grouped = comparisons.groupby("week", sort=True)["disagree"]
    out = pd.DataFrame({"n": grouped.size(), "disagreements": grouped.sum().astype(int)})
    out["share"] = out["disagreements"] / out["n"]
    return out.reset_index()


@dataclass(frozen=True)
class DriftRun:
    """Weeks in a row above the maximum; ``failed`` once it is ``consecutive_weeks`` long."""

    weeks: tuple[str, ...]
    failed_at: str | None

    @property
    def failed(self) -> bool:
        return self.failed_at is not None


def drift_runs(
    weeks: list[str], shares: list[float], max_disagreement: float, consecutive_weeks: int
) -> list[DriftRun]:
    """Runs of weeks with ``share > max_disagreement``; a run fails at its
    ``consecutive_weeks``-th week (``failed_at``).

    >>> [r.failed_at for r in drift_runs(["w1", "w2", "w3"], [0.10, 0.14, 0.13], 0.12, 2)]
    ['w3']
    >>> [r.failed_at for r in drift_runs(["w1", "w2", "w3"], [0.14, 0.09, 0.14], 0.12, 2)]
    [None, None]
    """
    runs, current = [], []
    for week, share in zip(weeks, shares, strict=True):
        if share > max_disagreement:
            current.append(week)
            continue
        if current:
            runs.append(current)
        current = []
    if current:
        runs.append(current)
    return [
        DriftRun(tuple(r), r[consecutive_weeks - 1] if len(r) >= consecutive_weeks else None)
        for r in runs
    ]


def drift_failure(
    weekly: pd.DataFrame, max_disagreement: float, consecutive_weeks: int
) -> str | None:
    """The first week at which the drift rule fails, or ``None``."""
    runs = drift_runs(
        list(weekly["week"]), list(weekly["share"]), max_disagreement, consecutive_weeks
    )
    return next((r.failed_at for r in runs if r.failed), None)


def spot_check_metrics(study: Study, comparisons: pd.DataFrame) -> list[dict]:
    if comparisons.empty:
        return []
    drift = study.quality.drift
    target = drift.max_disagreement if drift else float("nan")
    weekly = weekly_disagreement(comparisons)
    failing: set[str] = set()
    if drift:
        for run in drift_runs(
            list(weekly["week"]), list(weekly["share"]), target, drift.consecutive_weeks
        ):
            if run.failed:
                failing.update(run.weeks)
    comparison = "<=" if drift else ""
    out = [
        metric(
            EVERYONE,
            "spot_check_disagreement",
            key_slice(week=w),
            share,
            n,
            target=target,
            comparison=comparison,
            flagged=w in failing,
        )
        for w, share, n in zip(weekly["week"], weekly["share"], weekly["n"], strict=True)
    ]
    out.append(
        metric(
            EVERYONE,
            "spot_check_disagreement",
            ALL,
            comparisons["disagree"].mean(),
            len(comparisons),
            target=target,
            comparison=comparison,
            flagged=False,
        )
    )
    for single, part in comparisons.groupby("single", sort=True):
        out.append(
            metric(
                single,
                "spot_check_disagreement",
                ALL,
                part["disagree"].mean(),
                len(part),
                target=target,
                comparison=comparison,
                flagged=None if len(part) >= MIN_COMPARISONS else False,
            )
        )
    return out


def promotions(
    study: Study, rows: pd.DataFrame, assignments: pd.DataFrame, comparisons: pd.DataFrame
) -> pd.DataFrame:
    """``gold.promotions``: one-annotator-tier items rated in the weeks of a failing run."""
    drift = study.quality.drift
    empty = pd.DataFrame(columns=list(PROMOTION_COLUMNS))
    if drift is None or comparisons.empty:
        return empty
    weekly = weekly_disagreement(comparisons)
    runs = drift_runs(
        list(weekly["week"]),
        list(weekly["share"]),
        drift.max_disagreement,
        drift.consecutive_weeks,
    )
    failed = [r for r in runs if r.failed]
    if not failed:
        return empty
    week_reason = {}
    for run in failed:
        shares = weekly.set_index("week").loc[list(run.weeks), "share"]
        reason = (
            "spot-check drift: disagreement "
            + ", ".join(f"{s:.0%}" for s in shares)
            + f" > {drift.max_disagreement:.0%} in {len(run.weeks)} weeks running "
            f"({run.weeks[0]}..{run.weeks[-1]})"
        )
        week_reason.update(dict.fromkeys(run.weeks, reason))
    plain = assignments[ordinary(assignments)]
    single = plain[plain["tier"].isin(single_tiers(study)) & ~plain["spot_check"].astype(bool)]
    rated = rows[ordinary(rows)][
        ["task", "item_id", "annotator_id", "ingested_at"]
    ].drop_duplicates(["task", "item_id", "annotator_id"])
    items = single[["task", "item_id", "annotator_id", "tier"]].merge(
        rated, on=["task", "item_id", "annotator_id"]
    )
    items["week"] = iso_week(items["ingested_at"])
    items = items[items["week"].isin(week_reason)]
    out = items.assign(
        to_tier=promotion_tier(study), reason=items["week"].map(week_reason)
    ).sort_values(["week", "task", "item_id"])
    return out[list(PROMOTION_COLUMNS)].drop_duplicates(["task", "item_id"]).reset_index(drop=True)
