"""Every consensus status from a constructed case, and the rules that lead to it."""

from __future__ import annotations

import pandas as pd
import pytest

from raterlab.consensus.policy import compute_consensus, find_disputes, item_status
from raterlab.ingest.study_tables import counting_ratings
from raterlab.protocol import StudyError
from raterlab.tables import names
from raterlab.tables.consensus import CONSENSUS, STATUSES
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
    # 3.5 is not a point of the scale: the default rule takes the nearest point, a half down.
    between = _one(median, "i1", "score")
    assert (between["value"], between["value_num"], between["status"]) == ("3", 3.0, "majority")
    assert between["method"] == "nearest_down"
    assert between["rating_mean"] == pytest.approx(3.5)
    assert _one(median, "i2", "score")["value"] == "3"
    assert _one(median, "i2", "score")["method"] == "median"
    mean = _consensus(tiny(likert="mean"), rows)
    # 8/3 = 2.67 is settled onto the scale; the mean itself stays in rating_mean.
    assert _one(mean, "i2", "score")["value"] == "3"
    assert _one(mean, "i2", "score")["rating_mean"] == pytest.approx(8 / 3)
    assert _one(mean, "i2", "score")["method"] == "nearest_down"
    assert _one(mean, "i1", "score")["value"] == "3"


def _pair(study, first: tuple, second: tuple) -> dict:
    rows = [("i1", "r1", "score", *first), ("i1", "r2", "score", *second)]
    return _one(_consensus(study, rows), "i1", "score")


def test_a_one_point_gap_resolves_by_the_declared_rule() -> None:
    """The protocol's own example: 5 (high) and 4 (medium) give consensus 5, never 4.5."""
    confident = tiny(likert_between=["higher_confidence", "nearest_down"])
    row = _pair(confident, (5, "high"), (4, "medium"))
    assert (row["value"], row["method"], row["rating_mean"]) == ("5", "higher_confidence", 4.5)
    row = _pair(confident, (4, "high"), (5, "low"))
    assert (row["value"], row["method"]) == ("4", "higher_confidence")
    # Equal confidence: the next rule decides.
    row = _pair(confident, (5, "medium"), (4, "medium"))
    assert (row["value"], row["method"]) == ("4", "nearest_down")
    row = _pair(tiny(likert_between=["nearest_up"]), (5, "high"), (4, "high"))
    assert (row["value"], row["method"]) == ("5", "nearest_up")
    # adjudicate: the field is disputed and waits for a decision.
    row = _pair(tiny(likert_between=["higher_confidence", "adjudicate"]), (5, "low"), (4, "low"))
    assert (row["value"], row["status"]) == (None, "unresolved")
    assert row["reason"].startswith("likert_between")


def test_no_likert_consensus_is_ever_between_points() -> None:
    rows = [
        (f"i{i}", f"r{j + 1}", "score", v, conf)
        for i, values in enumerate([(1, 2), (2, 5), (3, 4, 4), (1, 2, 4, 5), (5, 4)])
        for j, (v, conf) in enumerate(zip(values, ["high", "low", "medium", "low"], strict=False))
    ]
    for likert in ("median", "mean"):
        for rule in (["nearest_down"], ["nearest_up"], ["higher_confidence", "nearest_up"]):
            out = _consensus(tiny(likert=likert, likert_between=rule), rows)
            values = out.loc[(out["field"] == "score") & out["value_num"].notna(), "value_num"]
            assert len(values) and (values == values.round()).all(), (likert, rule)


def test_a_flagged_note_sends_the_item_to_adjudication() -> None:
    frame = ratings([("i1", "r1", "score", 4), ("i1", "r2", "score", 4), ("i1", "r1", "ok", 1)])
    frame.loc[0, "notes"] = "UNCERTAIN: not my area"
    study = tiny(adjudicate={"likert_gap": 2, "notes_contain": ["UNCERTAIN"]})
    disputes = find_disputes(study, frame, {"i1": "GOLD"})
    assert set(disputes["field"]) == {"score", "ok"}
    assert (disputes["reasons"] == "flagged").all()
    out = compute_consensus(study, frame, items_of(frame))
    assert _one(out, "i1", "score")["status"] == "unresolved"
    # Case-sensitive, as the protocol writes it: "uncertain" in prose is not the flag.
    frame.loc[0, "notes"] = "I am not uncertain at all"
    assert find_disputes(study, frame, {"i1": "GOLD"}).empty


def test_the_last_between_rule_must_decide() -> None:
    with pytest.raises(StudyError, match=r"consensus.likert_between\[0\]"):
        tiny(likert_between=["higher_confidence"])


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
    row = _one(model, "i2", "ok")  # every rater said 1: their value stays, by default
    assert (row["method"], row["value"], row["status"]) == ("majority", "1", "unanimous")
    disputed = _one(model, "i1", "ok")
    assert (disputed["method"], disputed["status"]) == ("dawid_skene", "majority")
    assert disputed["confidence"] == disputed["ds_confidence"]
    assert disputed["policy_value"] == "0"
    overriding = _consensus(
        tiny(method="dawid_skene", dawid_skene_overrides_unanimous=True),
        rows,
        tiers={"i1": "TRIAGE", "i2": "TRIAGE"},
    )
    row = _one(overriding, "i2", "ok")  # the model agrees with the raters: still unanimous
    assert (row["method"], row["value"], row["status"]) == ("dawid_skene", "1", "unanimous")
    assert row["confidence"] == row["ds_confidence"]


def _unanimous_but_outvoted() -> list[tuple]:
    """30 items where r1 says 1 and r2 and r3 say 0, 10 where all say 1, and one item (u) that
    r1 alone rated 1: Dawid-Skene learns that r1 says 1 for class 0 and flips u."""
    rows = []
    for i in range(30):
        rows += [(f"i{i}", "r1", "ok", 1), (f"i{i}", "r2", "ok", 0), (f"i{i}", "r3", "ok", 0)]
    for i in range(30, 40):
        rows += [(f"i{i}", "r1", "ok", 1), (f"i{i}", "r2", "ok", 1), (f"i{i}", "r3", "ok", 1)]
    rows += [("u", "r1", "ok", 1)]
    return rows


def test_dawid_skene_never_calls_a_value_no_rater_gave_unanimous() -> None:
    rows = _unanimous_but_outvoted()
    tiers = {item: "TRIAGE" for item, *_ in rows}
    default = _one(_consensus(tiny(method="dawid_skene"), rows, tiers=tiers), "u", "ok")
    assert default["ds_value"] == "0"  # the model would say 0: r1's lone 1 is its habit
    assert (default["value"], default["status"]) == ("1", "single")  # but r1 said 1
    declared = tiny(method="dawid_skene", dawid_skene_overrides_unanimous=True)
    overridden = _one(_consensus(declared, rows, tiers=tiers), "u", "ok")
    assert (overridden["value"], overridden["status"]) == ("0", "model_override")
    assert overridden["method"] == "dawid_skene"


def test_a_dawid_skene_fit_that_did_not_converge_gives_no_value(monkeypatch) -> None:
    from raterlab.consensus import policy

    def two_iterations(*args, **kwargs):
        return policy_fit(*args, **{**kwargs, "max_iter": 2})

    policy_fit = policy.dawid_skene
    monkeypatch.setattr(policy, "dawid_skene", two_iterations)
    rows = _unanimous_but_outvoted()
    tiers = {item: "TRIAGE" for item, *_ in rows}
    out = _consensus(tiny(method="dawid_skene"), rows, tiers=tiers)
    disputed = _one(out, "i0", "ok")
    assert disputed["ds_value"] is None and disputed["method"] != "dawid_skene"
    assert disputed["value"] == disputed["policy_value"] == "0"
    assert "Dawid-Skene did not converge in 2 iterations" in disputed["reason"]


def test_with_pending_says_where_each_open_dispute_stands() -> None:
    """Only unresolved rows awaiting adjudication with an open dispute get its place in the
    queue; every other row and column is left as it was."""
    from raterlab.consensus.policy import AWAITING_ADJUDICATION, AWAITING_THIRD, with_pending

    consensus = pd.DataFrame(
        {
            "task": ["t"] * 4,
            "item_id": ["a", "b", "c", "d"],
            "field": ["f"] * 4,
            "status": ["unresolved", "unresolved", "majority", "unresolved"],
            "reason": [f"{AWAITING_ADJUDICATION}; split 1-1"] * 3 + [None],
            "value": [None, None, "1", None],
        }
    ).astype({"reason": "string", "status": "string"})
    pending = {("t", "a", "f"): AWAITING_THIRD, ("t", "c", "f"): "x", ("t", "d", "f"): "y"}
    out = with_pending(consensus, pending)
    assert out["reason"].tolist()[:3] == [
        f"{AWAITING_THIRD}; split 1-1",
        f"{AWAITING_ADJUDICATION}; split 1-1",
        f"{AWAITING_ADJUDICATION}; split 1-1",
    ]
    assert pd.isna(out["reason"].iloc[3]) and out["reason"].dtype == consensus["reason"].dtype
    pd.testing.assert_frame_equal(out.drop(columns="reason"), consensus.drop(columns="reason"))
    pd.testing.assert_frame_equal(with_pending(consensus, {}), consensus)


def test_fields_with_the_same_ratings_keep_their_own_decision_tier_and_wait() -> None:
    """A field's result is worked out once per distinct set of what it depends on: fields
    with the same ratings still get their own decision, tier and pending state."""
    study = tiny()
    rows = [
        (i, r, "ok", v) for i in ("i1", "i2", "i3", "i4", "i5") for r, v in (("r1", 1), ("r2", 0))
    ]
    frame = ratings(rows)
    tiers = {"i1": "GOLD", "i2": "GOLD", "i3": "GOLD", "i4": "TRIAGE", "i5": "PILOT"}
    decisions = pd.DataFrame(
        {
            "task": ["t"],
            "item_id": ["i1"],
            "field": ["ok"],
            "value": ["0"],
            "decided_at": pd.Timestamp("2026-01-01", tz="UTC"),
        }
    )
    out = compute_consensus(
        study,
        frame,
        items_of(frame, tiers=tiers),
        decisions,
        pending={("t", "i3", "ok"): "awaiting a third annotator"},
    )
    got = {i: _one(out, i, "ok") for i in ("i1", "i2", "i3", "i4", "i5")}
    assert (got["i1"]["status"], got["i1"]["value"]) == ("adjudicated", "0")
    assert got["i2"]["reason"] == "binary_disagreement; awaiting adjudication"
    assert got["i3"]["reason"] == "binary_disagreement; awaiting a third annotator"
    assert got["i4"]["reason"] == "tie; tier TRIAGE is not adjudicated"
    assert got["i5"]["reason"] == "tie; tier PILOT is not adjudicated"
    assert all(got[i]["status"] == "unresolved" for i in ("i2", "i3", "i4", "i5"))
