"""Values that must never reach gold: infinite times, placeholder notes, JSON booleans as
scores, NUL bytes anywhere; notes never hold a literal ``nan``; row numbers count blank rows."""

from __future__ import annotations

import json

import pytest

from raterlab import warehouse
from raterlab.ingest import ingest_file
from raterlab.protocol import parse_study
from tests.conftest import MINI_STUDY
from tests.ingest.conftest import filled, write


def _ingest(study, home, path):
    with warehouse.connect(home.warehouse) as con:
        return ingest_file(study, path, home, con)


def _errors(result) -> list[tuple]:
    errors = result.validation.errors
    return list(zip(errors["row"], errors["column"], errors["rule"], strict=True))


@pytest.mark.parametrize("value", ["inf", "1e400", "-inf", "Infinity", "nan"])
def test_time_spent_must_be_a_finite_number(issued, tmp_path, value) -> None:
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    frame.loc[0, "time_spent_s"] = value
    result = _ingest(study, home, write(frame, tmp_path / "a1.csv"))
    assert result.status == "rejected"
    assert _errors(result) == [(2, "time_spent_s", "time_spent")]


def test_json_infinity_is_not_a_time(issued, tmp_path) -> None:
    study, home, _, _ = issued
    rows = filled(home, "a1", "main-01", "answer").to_dict(orient="records")
    path = tmp_path / "a1.jsonl"
    lines = [json.dumps(r) for r in rows]
    lines[0] = lines[0].replace('"time_spent_s": "42"', '"time_spent_s": Infinity')
    path.write_text("\n".join(lines) + "\n")
    result = _ingest(study, home, path)
    assert _errors(result) == [(1, "time_spent_s", "time_spent")]


@pytest.mark.parametrize("note", ["N/A", "-", "nan", "\u200b", " n/a ", "none", "--", "…"])
def test_a_placeholder_does_not_satisfy_a_required_note(issued, tmp_path, note) -> None:
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    frame.loc[0, ["score", "notes"]] = ["5", note]
    result = _ingest(study, home, write(frame, tmp_path / "a1.csv"))
    assert result.status == "rejected"
    assert _errors(result) == [(2, "notes", "conditional")]


@pytest.mark.parametrize("note", ["0", "false", "{}", "[]", "true"])
def test_a_json_non_text_does_not_satisfy_a_required_note(issued, tmp_path, note) -> None:
    study, home, _, _ = issued
    rows = filled(home, "a1", "main-01", "answer").to_dict(orient="records")
    rows[0].update(score=5, notes=json.loads(note))
    path = tmp_path / "a1.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    result = _ingest(study, home, path)
    assert result.status == "rejected"
    assert (1, "notes", "conditional") in _errors(result)


@pytest.mark.parametrize("value", [True, False])
def test_json_booleans_are_not_likert_scores(issued, tmp_path, value) -> None:
    study, home, _, _ = issued
    rows = filled(home, "a1", "main-01", "answer").to_dict(orient="records")
    rows[0]["score"] = value
    path = tmp_path / "a1.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    result = _ingest(study, home, path)
    assert (1, "score", "type") in _errors(result)


def test_json_booleans_are_yes_no_answers(issued, tmp_path) -> None:
    study, home, _, _ = issued
    rows = filled(home, "a1", "main-01", "check").to_dict(orient="records")
    for r in rows:
        r["relevant"], r["sufficient"] = True, False
    path = tmp_path / "a1.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    assert _ingest(study, home, path).status == "accepted"


@pytest.mark.parametrize("at", [10, 70_000])
def test_a_nul_byte_rejects_the_file_wherever_it_is(issued, tmp_path, at) -> None:
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    frame["notes"] = "x" * 7000
    data = bytearray(frame.to_csv(index=False).encode())
    assert len(data) > 70_000
    data[at] = 0
    path = tmp_path / "a1.csv"
    path.write_bytes(bytes(data))
    result = _ingest(study, home, path)
    assert result.status == "rejected"
    assert result.validation.errors["rule"].tolist() == ["binary"]


def test_empty_text_fields_never_become_nan_in_notes(issued, tmp_path) -> None:
    """Two text fields: the notes join the filled ones only (with the pandas of the lock)."""
    study, home, _, _ = issued
    spec = json.loads(json.dumps(MINI_STUDY))
    spec["tasks"]["answer"]["fields"]["issues"] = {"type": "text"}
    two = parse_study(spec).model_copy(update={"source": study.source})
    frame = filled(home, "a1", "main-01", "answer")
    frame.insert(frame.columns.get_loc("time_spent_s"), "issues", "")
    frame.loc[0, "notes"] = "fine"
    frame.loc[1, "issues"] = "typo"
    assert _ingest(two, home, write(frame, tmp_path / "a1.csv")).status == "accepted"
    with warehouse.connect(home.warehouse, read_only=True) as con:
        notes = dict(con.execute("SELECT source_row, notes FROM gold.ratings").fetchall())
    assert notes[2] == "notes: fine" and notes[3] == "issues: typo"
    assert {notes[r] for r in notes if r > 3} == {None}


def test_rows_after_a_blank_line_keep_their_spreadsheet_number(issued, tmp_path) -> None:
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    frame.loc[4, "score"] = "9"
    lines = frame.to_csv(index=False).splitlines()
    lines.insert(3, "")
    path = tmp_path / "a1.csv"
    path.write_text("\n".join(lines) + "\n")
    result = _ingest(study, home, path)
    assert _errors(result) == [(7, "score", "range")]


def test_a_utf16_file_is_read(issued, tmp_path) -> None:
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    frame.loc[0, ["score", "notes"]] = ["5", "très clair"]
    path = tmp_path / "a1.csv"
    path.write_bytes(frame.to_csv(index=False).encode("utf-16"))
    assert _ingest(study, home, path).status == "accepted"
    with warehouse.connect(home.warehouse, read_only=True) as con:
        notes = con.execute("SELECT notes FROM gold.ratings WHERE source_row = 2").fetchall()
    assert notes == [("très clair",)]


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"PK\x03\x04" + b"\x00" * 40, "Excel workbook (.xlsx)"),
        ("annotator_id,item\na1,caf\xe9\n".encode("cp1252"), "legacy Windows encoding (cp1252"),
        ("annotator_id,item\na1,x\n".encode("utf-16-le"), "UTF-16 text without a byte-order"),
    ],
)
def test_workbooks_and_other_encodings_say_what_they_are(issued, tmp_path, data, says) -> None:
    study, home, _, _ = issued
    path = tmp_path / "a1.csv"
    path.write_bytes(data)
    result = _ingest(study, home, path)
    assert result.status == "rejected"
    (message,) = result.validation.errors["message"]
    assert says in message and "save it from your spreadsheet as CSV UTF-8" in message
