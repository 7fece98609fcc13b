"""Repeated pilot rounds: names, the rule for starting one, the assignment that gives the same
pilot again, superseded ratings, and ``raterlab pilot again``."""

from __future__ import annotations

from datetime import UTC, datetime

import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.cli import main
from raterlab.design import assign, read_generations, routed_items, seal
from raterlab.design.rounds import (
    RepilotError,
    latest_pilot_only,
    next_pilot_round,
    pilot_name,
    pilot_number,
    pilot_rounds,
    round_labels,
)
from raterlab.protocol import load_study
from tests.conftest import STUDIES

NOW = datetime(2026, 11, 23, tzinfo=UTC)


@pytest.fixture(scope="module")
def cab():
    study = load_study(STUDIES / "correctness_ab.yaml")
    generations = read_generations(study)
    return study, generations, routed_items(study, generations)


def test_round_names() -> None:
    assert [pilot_name(n) for n in (1, 2, 3)] == ["pilot", "pilot-2", "pilot-3"]
    assert [pilot_number(r) for r in ("pilot", "pilot-2", "main", "pilot-x")] == [1, 2, None, None]
    assert pilot_rounds(["main", "pilot-3", "pilot", "pilot-2", "tiebreak"]) == [
        "pilot",
        "pilot-2",
        "pilot-3",
    ]


def test_a_later_pilot_round_supersedes_the_earlier_ratings() -> None:
    rows = pd.DataFrame(
        [
            ("a", "t", "i1", "pilot", 3),
            ("a", "t", "i1", "pilot-2", 4),
            ("b", "t", "i1", "pilot", 5),
            ("a", "t", "i2", "main", 2),
        ],
        columns=["annotator_id", "task", "item_id", "round", "value"],
    )
    kept = latest_pilot_only(rows)
    assert kept[["annotator_id", "round", "value"]].values.tolist() == [
        ["a", "pilot-2", 4],
        ["b", "pilot", 5],
        ["a", "main", 2],
    ]


def test_next_round_only_after_a_complete_failed_pilot(cab) -> None:
    study = cab[0]
    none = pd.DataFrame(columns=["round"])
    failed = {"passed": False, "message": "main round held back: ...", "round": "pilot"}
    row = next_pilot_round(study, none, failed, "abc", NOW)
    assert (row["round"], row["number"], row["study_version"]) == ("pilot-2", 2, "1.0")
    assert row["reason"] == failed["message"] and row["guide_sha256"] == "abc"
    with pytest.raises(RepilotError, match="passed the gate"):
        next_pilot_round(study, none, {**failed, "passed": True}, None, NOW)
    with pytest.raises(RepilotError, match="not complete"):
        next_pilot_round(study, none, {**failed, "message": "pilot incomplete: 3 of 40"}, None, NOW)
    # pilot-2 was started but not yet judged: the gate row still speaks of pilot.
    with pytest.raises(RepilotError, match="pilot-2 has not been judged"):
        next_pilot_round(study, pd.DataFrame({"round": ["pilot-2"]}), failed, None, NOW)
    two = pd.DataFrame({"round": ["pilot-2", "pilot-3"]})
    with pytest.raises(RepilotError, match=r"design\.pilot\.rounds is 3"):
        next_pilot_round(study, two, {**failed, "round": "pilot-3"}, None, NOW)


def test_a_repeated_pilot_gives_the_same_items_again_and_changes_nothing_else(cab) -> None:
    study, generations, routed = cab
    once = assign(study, routed, generations)
    twice = assign(study, routed, generations, pilot_rounds=2)
    again = twice[twice["round"] == "pilot-2"]
    first = once[once["round"] == "pilot"]
    for kind in ("item", "duplicate", "attention"):
        assert len(again[again["kind"] == kind]) == len(first[first["kind"] == kind])
    items = ["annotator_id", "item_id"]
    assert again.loc[again["kind"] == "item", items].sort_values(items).values.tolist() == (
        first.loc[first["kind"] == "item", items].sort_values(items).values.tolist()
    )
    assert (again["kind"] != "calibration").all()  # training examples come once, first
    kept = twice[twice["round"] != "pilot-2"].reset_index(drop=True)
    pd.testing.assert_frame_equal(kept, once)
    key = seal(study, twice, b"s" * 32)
    assert not key["token"].duplicated().any()
    thrice = assign(study, routed, generations, pilot_rounds=3)
    pd.testing.assert_frame_equal(
        thrice[thrice["round"] != "pilot-3"].reset_index(drop=True), twice
    )
    # The packets already sent keep their tokens and order when the key is sealed again.
    sealed_once = seal(study, once, b"s" * 32)
    pd.testing.assert_frame_equal(
        key[key["round"] != "pilot-2"].reset_index(drop=True), sealed_once
    )


def test_pilot_again_command(cab, tmp_path, monkeypatch, capsys) -> None:
    study = cab[0]
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("RATERLAB_HOME", str(home))
    monkeypatch.setenv("RATERLAB_STUDIES", str(STUDIES))
    assert main(["pilot", "again", "correctness_ab"]) == 2  # no warehouse yet
    gate = pd.DataFrame([{"passed": False, "message": "main round held back", "round": "pilot"}])
    with warehouse.connect(home / "warehouse.duckdb") as con:
        warehouse.replace_study_rows(con, "staging.pilot_gate", study.name, gate)
    assert main(["pilot", "again", "correctness_ab"]) == 0
    assert "pilot-2 started" in capsys.readouterr().out
    assert main(["pilot", "again", "correctness_ab"]) == 1  # pilot-2 not judged yet
    assert "pilot-2 has not been judged" in capsys.readouterr().out
    with warehouse.connect(home / "warehouse.duckdb", read_only=True) as con:
        rounds = warehouse.read_study_rows(con, "staging.pilot_rounds", study.name)
    assert rounds["round"].tolist() == ["pilot-2"]
    assert main(["pilot", "status", "correctness_ab"]) == 0
    assert "no pilot gate attempt yet" in capsys.readouterr().out


def test_an_older_warehouse_gains_the_gate_round_column() -> None:
    """``staging.pilot_gate`` written before it had ``round`` takes the new rows."""
    import duckdb

    con = duckdb.connect()
    con.execute("CREATE SCHEMA staging")
    old = pd.DataFrame([{"passed": False, "message": "held back"}])
    warehouse.replace_study_rows(con, "staging.pilot_gate", "s", old)
    warehouse.replace_study_rows(con, "staging.pilot_gate", "s", old.assign(round="pilot"))
    assert con.execute("SELECT study, passed, round FROM staging.pilot_gate").fetchall() == [
        ("s", False, "pilot")
    ]


def test_an_empty_frame_replaces_a_studys_rows_of_a_typed_table() -> None:
    """A study without pilot rounds empties its rows of a table other studies filled."""
    import duckdb

    con = duckdb.connect()
    con.execute("CREATE SCHEMA gold")
    full = pd.DataFrame({"round": ["pilot"], "count": [2]}).astype({"round": "string"})
    warehouse.replace_study_rows(con, "gold.pilot_matrices", "a", full)
    warehouse.replace_study_rows(con, "gold.pilot_matrices", "b", full.iloc[:0])
    assert con.execute("SELECT study FROM gold.pilot_matrices").fetchall() == [("a",)]


def test_round_labels_reads_one_round_or_every_pilot_round(tmp_path) -> None:
    """``pilot`` stands for every pilot round, another name for itself; other studies' rows
    and other rounds are left out, and a warehouse without ratings gives none."""
    with warehouse.connect(tmp_path / "w.duckdb") as con:
        assert round_labels(con, "s", "pilot").empty
        con.execute(
            """CREATE TABLE gold.labels AS SELECT * FROM (VALUES
                   ('s', 'pilot', 'i1'), ('s', 'pilot-2', 'i2'), ('s', 'main', 'i3'),
                   ('s', NULL, 'i4'), ('t', 'pilot', 'i5')) v(study, round, item_id)"""
        )
        pilots = round_labels(con, "s", "pilot")
        main_round = round_labels(con, "s", "main")
        nothing = round_labels(con, "s", "extra")
    assert sorted(pilots["item_id"]) == ["i1", "i2"]
    assert main_round["item_id"].tolist() == ["i3"]
    assert nothing.empty
