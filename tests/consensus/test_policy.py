"""Every consensus status from a constructed case, and the rules that lead to it."""

from __future__ import annotations

import pandas as pd
import pytest

from raterlab.consensus.inputs import counting_ratings
from raterlab.consensus.policy import compute_consensus, find_disputes, item_status
from raterlab.consensus.schema import CONSENSUS, STATUSES, names
from tests.consensus.conftest import items_of, ratings, tiny


def _one(frame: pd.DataFrame, item: str, field: str) -> dict:
    rows = frame[(frame["item_id"] == item) & (frame["field"] == field)]
    assert len(rows) == 1
    return rows.iloc[0].to_dict()


def _consensus(study, rows, adjudications=None, tiers=None):
    frame = ratings(rows)
    return compute_consensus(study, frame, items_of(frame, tiers=tiers), adjudications)


def test_unanimous_majority_single() -> None:
    study = tiny()
    out = _consensus(
        study,
        [
            ("i1", "r1", "ok", 1),
            ("i1", "r2", "ok", 1),
            ("i2", "r1", "ok", 1),
            ("i2", "r2", "ok", 0),
            ("i2", "r3", "ok", 1),
            ("i3", "r1", "score", 4),
        ],
        tiers={"i2": "TRIAGE"},
    )
    assert list(out.columns) == names(CONSENSUS)[1:]
    unanimous = _one(out, "i1", "ok")
    assert (unanimous["status"], unanimous["value"], unanimous["value_num"]) == (
        "unanimous",
        "1",
        1,
    )
    assert unanimous["confidence"] == 1.0 and unanimous["method"] == "majority"
    majority = _one(out, "i2", "ok")
    assert (majority["status"], majority["value"], majority["n_ratings"]) == ("majority", "1", 3)
    assert majority["confidence"] == pytest.approx(2 / 3)
    single = _one(out, "i3", "score")
    assert (single["status"], single["value"], single["method"]) == ("single", "4", "single_rating")
    # Every rating field of a rated item gets a row, even one nobody filled in.
    assert set(out.loc[out["item_id"] == "i3", "field"]) == {"score", "ok", "kind"}
    assert _one(out, "i3", "ok")["status"] == "unresolved"
    assert set(out["status"]) <= set(STATUSES)


def test_likert_within_the_gap_takes_the_median_or_mean() -> None:
    rows = [
        ("i1", "r1", "score", 3),
        ("i1", "r2", "score", 4),
        ("i2", "r1", "score", 2),
        ("i2", "r2", "score", 3),
        ("i2", "r3", "score", 3),
    ]
    median = _consensus(tiny(), rows)
    assert _one(median, "i1", "score")["value"] == "3.5"
    assert _one(median, "i1", "score")["status"] == "majority"
    assert _one(median, "i1", "score")["method"] == "median"
    assert _one(median, "i2", "score")["value"] == "3"
    mean = _consensus(tiny(likert="mean"), rows)
    assert _one(mean, "i2", "score")["value_num"] == pytest.approx(8 / 3, abs=1e-4)
    assert _one(mean, "i2", "score")["method"] == "mean"


def test_disputes_follow_the_study_rule() -> None:
    study = tiny(
        adjudicate={"likert_gap": 2, "binary_disagreement_tiers": ["GOLD"], "uncertain": True}
    )
    frame = ratings(
        [
            ("gap", "r1", "score", 2),
            ("gap", "r2", "score", 4),
            ("close", "r1", "score", 3),
            ("close", "r2", "score", 4),
            ("gold", "r1", "ok", 1),
            ("gold", "r2", "ok", 0),
            ("triage", "r1", "ok", 1),
            ("triage", "r2", "ok", 0),
            ("unsure", "r1", "kind", "a", "low"),
            ("unsure", "r2", "kind", "a"),
        ]
    )
    tiers = {
        "gold": "GOLD",
        "triage": "TRIAGE",
        "gap": "TRIAGE",
        "close": "GOLD",
        "unsure": "TRIAGE",
    }
    disputes = find_disputes(study, frame, tiers)
    found = {
        (i, f): r
        for i, f, r in zip(disputes["item_id"], disputes["field"], disputes["reasons"], strict=True)
    }
    assert found == {
        ("gap", "score"): "likert_gap",
        ("gold", "ok"): "binary_disagreement",
        ("unsure", "kind"): "uncertain",
    }
    assert disputes.set_index("item_id").loc["gap", "agreement"] == pytest.approx(0.5)


def test_unresolved_until_adjudicated() -> None:
    study = tiny()
    rows = [
        ("i1", "r1", "score", 1),
        ("i1", "r2", "score", 4),
        ("i2", "r1", "ok", 1),
        ("i2", "r2", "ok", 0),
    ]
    before = _consensus(study, rows)
    pending = _one(before, "i1", "score")
    assert pending["status"] == "unresolved" and pending["value"] is None
    assert pending["reason"] == "likert_gap; awaiting adjudication"
    assert _one(before, "i2", "ok")["reason"] == "binary_disagreement; awaiting adjudication"
    decisions = pd.DataFrame(
        {
            "task": ["t", "t"],
            "item_id": ["i1", "i2"],
            "field": ["score", "ok"],
            "value": ["2", "0"],
            "decided_at": pd.Timestamp("2026-01-01", tz="UTC"),
        }
    )
    after = _consensus(study, rows, decisions)
    decided = _one(after, "i1", "score")
    assert (decided["status"], decided["value"], decided["method"]) == (
        "adjudicated",
        "2",
        "adjudicator",
    )
    assert decided["confidence"] == 0.0  # neither rater gave a 2
    assert _one(after, "i2", "ok")["confidence"] == 0.5


def test_tie_broken_by_a_third_annotator() -> None:
    study = tiny(tie_break="third_annotator")
    rows = [
        ("i1", "r1", "ok", 1),
        ("i1", "r2", "ok", 0),
        ("i2", "r1", "score", 2),
        ("i2", "r2", "score", 5),
    ]
    before = _consensus(study, rows)
    assert _one(before, "i1", "ok")["status"] == "unresolved"
    third = [
        *rows,
        ("i1", "r3", "ok", 0, "high", "tiebreak"),
        ("i2", "r3", "score", 4, "high", "tiebreak"),
    ]
    after = _consensus(study, third)
    assert (_one(after, "i1", "ok")["status"], _one(after, "i1", "ok")["value"]) == (
        "tie_broken",
        "0",
    )
    assert (_one(after, "i2", "score")["status"], _one(after, "i2", "score")["value"]) == (
        "tie_broken",
        "4",
    )
    # Three different labels: no majority, so it still waits for the adjudicator.
    split = _consensus(
        study, [("i3", "r1", "kind", "a"), ("i3", "r2", "kind", "b"), ("i3", "r3", "kind", "c")]
    )
    assert _one(split, "i3", "kind")["status"] == "unresolved"


def test_excluded_when_the_study_says_so() -> None:
    rows = [
        ("i1", "r1", "ok", 1),
        ("i1", "r2", "ok", 0),
        ("i2", "r1", "score", 1),
        ("i2", "r2", "score", 5),
    ]
    tiers = {"i1": "TRIAGE", "i2": "TRIAGE"}
    kept = _consensus(tiny(), rows, tiers=tiers)
    assert _one(kept, "i1", "ok")["status"] == "unresolved"
    assert _one(kept, "i1", "ok")["reason"] == "tie; tier TRIAGE is not adjudicated"
    excluded = _consensus(tiny(unresolved="exclude"), rows, tiers=tiers)
    row = _one(excluded, "i1", "ok")
    assert (row["status"], row["value"]) == ("excluded", None)
    assert "not adjudicated" in row["reason"]
    # A dispute still on its way to the adjudicator is not excluded.
    assert _one(excluded, "i2", "score")["status"] == "unresolved"
    status = item_status(excluded).set_index("item_id")["status"]
    assert status["i1"] == "excluded"


def test_only_first_copies_of_ordinary_items_count() -> None:
    study = tiny()
    labels = pd.DataFrame(
        {
            "rating_id": [1, 2, 3, 4, 5, 6],
            "task": "t",
            "item_id": ["i1", "i1", "i1", "i1", "i1", "att"],
            "annotator_id": ["r1", "r2", "r1", "r3", "r4", "r1"],
            "field": ["ok", "ok", "ok", "ok", "ok", "ok"],
            "value": ["1", "1", "0", "0", "skip", "0"],
            "value_num": [1.0, 1.0, 0.0, 0.0, None, 0.0],
            "confidence": "high",
            "time_spent_s": 10.0,
            "notes": None,
            "kind": ["item", "item", "duplicate", "calibration", "item", "attention"],
            "copy": [0, 0, 1, 0, 0, 0],
            "round": "main",
            "batch": "main",
        }
    )
    counted = counting_ratings(study, labels)
    assert sorted(counted["rating_id"]) == [1, 2]
    out = compute_consensus(study, counted, items_of(counted))
    assert (_one(out, "i1", "ok")["status"], _one(out, "i1", "ok")["n_ratings"]) == ("unanimous", 2)


def test_dawid_skene_method_and_comparison_column() -> None:
    rows = [
        ("i1", "r1", "ok", 1),
        ("i1", "r2", "ok", 0),
        ("i1", "r3", "ok", 0),
        ("i2", "r1", "ok", 1),
        ("i2", "r2", "ok", 1),
        ("i2", "r3", "ok", 1),
    ]
    policy = _consensus(tiny(), rows, tiers={"i1": "TRIAGE", "i2": "TRIAGE"})
    assert _one(policy, "i1", "ok")["ds_value"] in ("0", "1")
    assert 0.5 <= _one(policy, "i1", "ok")["ds_confidence"] <= 1
    model = _consensus(tiny(method="dawid_skene"), rows, tiers={"i1": "TRIAGE", "i2": "TRIAGE"})
    row = _one(model, "i2", "ok")
    assert (row["method"], row["value"], row["status"]) == ("dawid_skene", "1", "unanimous")
    assert row["confidence"] == row["ds_confidence"]
    assert _one(model, "i1", "ok")["policy_value"] == "0"
