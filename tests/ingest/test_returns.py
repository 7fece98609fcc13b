"""What a return does to the ratings already in the warehouse: row by row, newest wins, nothing
lost (replaced values go to ``gold.rating_history``), other annotators' packets untouched."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from raterlab import warehouse
from raterlab.cli import main
from raterlab.ingest import ingest_file, ratings
from raterlab.protocol import parse_study
from tests.conftest import MINI_STUDY
from tests.ingest.conftest import filled, write

T0 = 1_790_000_000


def _ingest(study, home, path):
    with warehouse.connect(home.warehouse) as con:
        return ingest_file(study, path, home, con)


def _query(home, sql, params=()):
    with warehouse.connect(home.warehouse, read_only=True) as con:
        return con.execute(sql, list(params)).df()


def _at(path: Path, seconds: int) -> Path:
    """Give ``path`` the modification time ``T0 + seconds`` (its version)."""
    os.utime(path, (T0 + seconds, T0 + seconds))
    return path


def _scores(home, annotator="a1") -> dict[str, str]:
    rows = _query(
        home,
        "SELECT token, value FROM gold.labels WHERE field = 'score' AND annotator_id = ?",
        [annotator],
    )
    return dict(zip(rows["token"], rows["value"], strict=True))


def test_a_one_row_fix_keeps_the_other_ratings(issued, tmp_path) -> None:
    study, home, _, _ = issued
    packet = filled(home, "a1", "main-01", "answer")
    _ingest(study, home, _at(write(packet, tmp_path / "a1.csv"), 0))
    fix = packet.iloc[[3]].assign(score="2")
    result = _ingest(study, home, _at(write(fix, tmp_path / "a1_fix.csv"), 60))
    assert result.status == "accepted"
    scores = _scores(home)
    assert len(scores) == len(packet)
    assert scores[packet.loc[3, "item"]] == "2"
    assert sorted(set(scores.values())) == ["2", "3"]
    history = _query(home, "SELECT * FROM gold.rating_history WHERE field = 'score'")
    assert history[
        ["token", "value", "source_file", "replaced_by_file", "change"]
    ].values.tolist() == [[packet.loc[3, "item"], "3", "a1.csv", "a1_fix.csv", "replaced"]]


def test_a_return_in_two_halves_keeps_both(issued, tmp_path) -> None:
    study, home, _, _ = issued
    packet = filled(home, "a1", "main-01", "answer")
    half = len(packet) // 2
    _ingest(study, home, _at(write(packet.iloc[:half], tmp_path / "first.csv"), 0))
    _ingest(study, home, _at(write(packet.iloc[half:], tmp_path / "second.csv"), 10))
    assert set(_scores(home)) == set(packet["item"])
    assert _query(home, "SELECT count(*) AS n FROM gold.rating_history")["n"][0] == 0


def test_a_row_pasted_from_a_colleague_is_rejected_and_leaves_their_packet(
    issued, tmp_path
) -> None:
    study, home, _, _ = issued
    mine, theirs = (filled(home, a, "main-01", "answer") for a in ("a1", "a2"))
    _ingest(study, home, _at(write(theirs, tmp_path / "a2.csv"), 0))
    pasted = pd.concat([mine, theirs.iloc[[0]].assign(score="5", notes="copied")])
    result = _ingest(study, home, _at(write(pasted, tmp_path / "a1.csv"), 10))
    assert result.status == "rejected"
    errors = result.validation.errors
    assert errors[["row", "column", "rule"]].values.tolist() == [
        [len(pasted) + 1, "annotator_id", "other_packet"]
    ]
    assert _scores(home, "a2") == dict.fromkeys(theirs["item"], "3")


def test_accept_valid_rows_updates_only_the_valid_rows(issued, tmp_path) -> None:
    study, home, _, _ = issued
    lenient = parse_study({**MINI_STUDY, "ingest": {"accept_valid_rows": True}})
    lenient = lenient.model_copy(update={"source": study.source})
    packet = filled(home, "a1", "main-01", "answer")
    _ingest(lenient, home, _at(write(packet, tmp_path / "a1.csv"), 0))
    broken = packet.assign(score="9")
    broken.loc[0, "score"] = "4"
    result = _ingest(lenient, home, _at(write(broken, tmp_path / "a1_v2.csv"), 10))
    assert result.status == "accepted" and result.n_errors == len(packet) - 1
    scores = _scores(home)
    assert len(scores) == len(packet)
    assert scores[packet.loc[0, "item"]] == "4"
    assert sum(v == "3" for v in scores.values()) == len(packet) - 1


def test_an_older_version_arriving_late_does_not_win(issued, tmp_path) -> None:
    study, home, _, _ = issued
    packet = filled(home, "a1", "main-01", "answer")
    newer = packet.assign(score="4")
    _ingest(study, home, _at(write(newer, tmp_path / "a1_v2.csv"), 100))
    result = _ingest(study, home, _at(write(packet, tmp_path / "a1_v1.csv"), 0))
    assert result.status == "accepted" and result.changes["older"] == len(packet)
    assert set(_scores(home).values()) == {"4"}
    kept = _query(
        home, "SELECT DISTINCT value, change FROM gold.rating_history WHERE field = 'score'"
    )
    assert kept.values.tolist() == [["3", "older_than_current"]]


def test_resending_the_same_ratings_changes_nothing(issued, tmp_path) -> None:
    study, home, _, _ = issued
    packet = filled(home, "a1", "main-01", "answer")
    _ingest(study, home, _at(write(packet, tmp_path / "a1.csv"), 0))
    again = _ingest(study, home, _at(write(packet.iloc[::-1], tmp_path / "a1_again.csv"), 50))
    assert again.changes == {"new": 0, "replaced": 0, "unchanged": len(packet), "older": 0}
    assert _query(home, "SELECT count(*) AS n FROM gold.rating_history")["n"][0] == 0


def test_a_changed_confidence_time_or_note_is_a_replacement(issued, tmp_path) -> None:
    """What a rating says beside its scores counts: a resend that changes only the
    confidence, the time spent or the notes replaces the rating; one that changes nothing
    leaves it."""
    study, home, _, _ = issued
    packet = filled(home, "a1", "main-01", "answer")
    _ingest(study, home, _at(write(packet, tmp_path / "a1.csv"), 0))
    changed = packet.copy()
    changed.loc[changed.index[0], "confidence"] = "high"
    changed.loc[changed.index[1], "time_spent_s"] = "43"
    changed.loc[changed.index[2], "notes"] = "on reflection"
    again = _ingest(study, home, _at(write(changed, tmp_path / "a1_v2.csv"), 50))
    assert again.changes == {"new": 0, "replaced": 3, "unchanged": len(packet) - 3, "older": 0}


def test_ratings_fingerprinted_by_md5_before_are_still_recognised(issued, tmp_path) -> None:
    """A warehouse written when fingerprints were MD5 hashes of the same text: resending the
    same ratings changes nothing, and a changed one is still a replacement."""
    study, home, _, _ = issued
    packet = filled(home, "a1", "main-01", "answer")
    _ingest(study, home, _at(write(packet, tmp_path / "a1.csv"), 0))
    with warehouse.connect(home.warehouse) as con:
        con.execute(  # what raterlab wrote then: the MD5 of all a rating says
            """UPDATE gold.ratings SET fingerprint = md5(concat_ws(chr(31),
                   coalesce(confidence, chr(0)), coalesce(CAST(time_spent_s AS VARCHAR), chr(0)),
                   coalesce(notes, chr(0)), fingerprint))"""
        )
        hashed = con.execute("SELECT fingerprint FROM gold.ratings").fetchall()
    assert all(len(f) == 32 and "\x1f" not in f for (f,) in hashed)
    again = _ingest(study, home, _at(write(packet.iloc[::-1], tmp_path / "a1_again.csv"), 50))
    assert again.changes == {"new": 0, "replaced": 0, "unchanged": len(packet), "older": 0}
    fixed = packet.assign(score=["2", *packet["score"].iloc[1:]])
    third = _ingest(study, home, _at(write(fixed, tmp_path / "a1_fixed.csv"), 100))
    assert third.status == "accepted"
    assert third.changes == {"new": 0, "replaced": 1, "unchanged": len(packet) - 1, "older": 0}


def test_a_newer_file_that_confirms_a_rating_keeps_an_older_one_from_winning(
    issued, tmp_path
) -> None:
    """Found by the property test: v0 says 3, v50 says 3 again (unchanged), then a v10 file
    saying 4 arrives late; v50 is the newest version, so 3 stays."""
    study, home, _, _ = issued
    packet = filled(home, "a1", "main-01", "answer")
    _ingest(study, home, _at(write(packet, tmp_path / "a1.csv"), 0))
    again = _ingest(study, home, _at(write(packet.iloc[::-1], tmp_path / "a1_again.csv"), 50))
    assert again.changes["unchanged"] == len(packet)
    late = _ingest(study, home, _at(write(packet.assign(score="4"), tmp_path / "late.csv"), 10))
    assert late.changes == {"new": 0, "replaced": 0, "unchanged": 0, "older": len(packet)}
    assert set(_scores(home).values()) == {"3"}


def test_withdraw_history_and_validate_from_the_cli(issued, tmp_path, monkeypatch, capsys) -> None:
    study, home, key, _ = issued
    monkeypatch.setenv("RATERLAB_HOME", str(home.root))
    monkeypatch.setenv("RATERLAB_STUDIES", str(study.source.parent))
    packet = filled(home, "a1", "main-01", "answer")
    first = _at(write(packet, tmp_path / "a1.csv"), 0)
    fix_path = _at(
        write(packet.iloc[[1]].assign(score="5", notes="better"), tmp_path / "fix.csv"), 9
    )
    assert main(["validate", str(fix_path), "--study", "mini"]) == 0
    assert "would be accepted: 1 new, 0 replaced" in capsys.readouterr().out
    assert main(["ingest", str(first), "--study", "mini"]) == 0
    capsys.readouterr()
    assert main(["validate", str(first), "--study", "mini"]) == 0
    assert "unchanged: this exact file was ingested before" in capsys.readouterr().out
    assert main(["validate", str(fix_path), "--study", "mini"]) == 0
    out = capsys.readouterr().out
    assert "would be accepted: 0 new, 1 replaced, 0 unchanged, 0 older" in out
    assert main(["ingest", str(fix_path), "--study", "mini"]) == 0
    token = packet.loc[1, "item"]
    item = key.set_index("token").at[token, "item_id"]
    capsys.readouterr()
    assert main(["history", "--study", "mini", "--annotator", "a1", "--item", token]) == 0
    out = capsys.readouterr().out
    assert "a1.csv" in out and "fix.csv" in out and "replaced" in out
    code = main(
        [
            "withdraw",
            "--study",
            "mini",
            "--annotator",
            "a1",
            "--item",
            item,
            "--reason",
            "wrong item",
        ]
    )
    assert code == 0
    assert token not in _scores(home)
    withdrawn = _query(
        home,
        "SELECT DISTINCT change, replaced_by_file FROM gold.rating_history "
        "WHERE token = ? AND source_file = 'fix.csv'",
        [token],
    )
    assert withdrawn.values.tolist() == [["withdrawn", "withdrawn: wrong item"]]


def test_a_withdrawn_rating_comes_back_only_with_a_newer_file(issued, tmp_path) -> None:
    study, home, _, _ = issued
    packet = filled(home, "a1", "main-01", "answer")
    token = packet.loc[0, "item"]
    _ingest(study, home, _at(write(packet, tmp_path / "a1.csv"), 0))
    with warehouse.connect(home.warehouse) as con:
        assert ratings.withdraw(con, "mini", "a1", token, "wrong item", datetime.now(UTC)) == 1
    late = _ingest(study, home, _at(write(packet.iloc[[0]], tmp_path / "old_copy.csv"), 5))
    assert late.changes["older"] == 1 and token not in _scores(home)
    fresh = packet.iloc[[0]].assign(score="4")
    now = int(datetime.now(UTC).timestamp()) + 60 - T0
    again = _ingest(study, home, _at(write(fresh, tmp_path / "redo.csv"), now))
    assert again.changes["new"] == 1 and _scores(home)[token] == "4"
