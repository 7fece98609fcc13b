"""The drift rule on spot checks, week by week, and the promotions it makes."""

from __future__ import annotations

from datetime import timedelta

import pandas as pd
import pytest

from raterlab.design import read_generations
from raterlab.protocol.study import Drift, Quality
from raterlab.quality import assess, drift_failure, drift_runs, flag_summary
from raterlab.quality.drift import iso_week
from tests.quality.helpers import WEEK1, labels, rating, row


@pytest.mark.parametrize(
    ("shares", "k", "fails_at"),
    [
        ([0.10, 0.14, 0.13], 2, "w3"),  # over in weeks 2 and 3: two weeks running
        ([0.14, 0.09, 0.14], 2, None),  # never two weeks running
        ([0.13, 0.13], 2, "w2"),
        ([0.12, 0.12, 0.12], 1, None),  # at the maximum is not over it
        ([0.13, 0.13, 0.05, 0.13, 0.13, 0.13], 3, "w6"),  # the first run is too short
        ([0.20], 1, "w1"),
    ],
)
def test_drift_rule_on_weekly_series(shares, k, fails_at) -> None:
    weeks = [f"w{i + 1}" for i in range(len(shares))]
    weekly = pd.DataFrame({"week": weeks, "share": shares})
    assert drift_failure(weekly, 0.12, k) == fails_at


def test_runs_list_every_week_over_the_maximum() -> None:
    runs = drift_runs(["a", "b", "c", "d"], [0.2, 0.2, 0.0, 0.3], 0.12, 2)
    assert [(r.weeks, r.failed_at) for r in runs] == [(("a", "b"), "b"), (("d",), None)]


def test_iso_weeks() -> None:
    stamps = pd.Series(
        pd.to_datetime(["2026-11-02T10:00Z", "2026-11-08T23:00Z", "2027-01-01T00:00Z"])
    )
    assert iso_week(stamps).tolist() == ["2026-W45", "2026-W45", "2026-W53"]


def _spot_checked_weeks(study, disagreements: list[tuple[int, int]], singles_per_week: int = 2):
    """Labels and assignments for TRIAGE items over consecutive weeks: in week w, ``n`` items
    rated by a single annotator (s1) and a spot-checker (s2), ``bad`` of them 3 points apart
    (disagreeing), plus ``singles_per_week`` items nobody spot-checked."""
    rows, plan = [], []
    for w, (n, bad) in enumerate(disagreements):
        at = WEEK1 + timedelta(weeks=w)
        for i in range(n):
            item = f"t{w}-{i:03d}"
            rows.append(rating("s1", item, 1, at=at))
            rows.append(rating("s2", item, 4 if i < bad else 2, at=at + timedelta(hours=2)))
            plan += [(item, "s1", False), (item, "s2", True)]
        for i in range(singles_per_week):
            item = f"u{w}-{i:03d}"
            rows.append(rating("s1", item, 3, at=at))
            plan.append((item, "s1", False))
    assignments = pd.DataFrame(
        [
            {
                "annotator_id": a,
                "round": "main",
                "batch": "main-01",
                "task": "answer",
                "item_id": i,
                "tier": "TRIAGE",
                "kind": "item",
                "copy": 0,
                "spot_check": s,
            }
            for i, a, s in plan
        ]
    )
    return labels(rows), assignments


def _drift_study(mini):
    return mini.model_copy(
        update={"quality": Quality(drift=Drift(max_disagreement=0.12, consecutive_weeks=2))}
    )


def test_drift_fails_at_week_three_and_promotes_the_weeks_items(mini) -> None:
    # Week 1 (2026-W45): 1 of 10 spot checks disagree = 10%; week 2: 7/50 = 14%;
    # week 3: 13/100 = 13%. Over 12% in weeks 2 and 3 -> the rule fails at week 3, and every
    # TRIAGE item single-rated in weeks 2 and 3 (50 + 100 spot-checked + 2 + 2 others) is
    # promoted to GOLD; week 1's twelve are not.
    study = _drift_study(mini)
    table, assignments = _spot_checked_weeks(study, [(10, 1), (50, 7), (100, 13)])
    report = assess(study, table, read_generations(mini), assignments=assignments)
    assert report.drift_failed_at == "2026-W47"
    assert report.weekly["share"].round(2).tolist() == [0.10, 0.14, 0.13]
    t = report.table
    weeks = {
        w: row(t, "*", "spot_check_disagreement", f"week={w}")
        for w in ("2026-W45", "2026-W46", "2026-W47")
    }
    assert [weeks[w]["flagged"] for w in sorted(weeks)] == [False, True, True]
    assert weeks["2026-W46"]["n"] == 50 and weeks["2026-W46"]["value"] == pytest.approx(0.14)
    # the single annotator's overall disagreement: 21 / 160 = 13.1% on 160 comparisons
    single = row(t, "s1", "spot_check_disagreement")
    assert single["value"] == pytest.approx(21 / 160) and single["flagged"]
    promoted = report.promotions
    assert len(promoted) == 154
    assert set(promoted["week"]) == {"2026-W46", "2026-W47"}
    assert not promoted["item_id"].str.startswith("t0-").any()
    assert {"u1-000", "u2-001", "t1-000", "t2-099"} <= set(promoted["item_id"])
    assert set(promoted["to_tier"]) == {"GOLD"} and set(promoted["tier"]) == {"TRIAGE"}
    assert promoted["reason"].iloc[0] == (
        "spot-check drift: disagreement 14%, 13% > 12% in 2 weeks running (2026-W46..2026-W47)"
    )
    assert "all raters: spot-check drift" in flag_summary(t)


def test_no_drift_when_the_excess_does_not_last(mini) -> None:
    # 14%, 9%, 14% (7/50, 9/100, 7/50): never two weeks running -> passes, nothing promoted
    study = _drift_study(mini)
    table, assignments = _spot_checked_weeks(study, [(50, 7), (100, 9), (50, 7)])
    report = assess(study, table, read_generations(mini), assignments=assignments)
    assert report.weekly["share"].round(2).tolist() == [0.14, 0.09, 0.14]
    assert report.drift_failed_at is None and report.promotions.empty
    weekly = report.table[report.table["slice"].str.startswith("week=")]
    assert len(weekly) == 3 and not weekly["flagged"].any()


def test_spot_checks_without_a_drift_rule_are_reported_not_judged(mini) -> None:
    table, assignments = _spot_checked_weeks(mini, [(10, 5)])
    report = assess(mini, table, read_generations(mini), assignments=assignments)
    week = row(report.table, "*", "spot_check_disagreement", "week=2026-W45")
    assert week["value"] == 0.5 and not week["flagged"]
    assert report.promotions.empty and report.drift_failed_at is None
