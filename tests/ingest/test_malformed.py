"""One test per kind of malformed returned file: the message a person reads, and that
nothing from the file reaches gold.labels (the file is quarantined with its report)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.ingest import ingest_file
from tests.ingest.conftest import filled, template, write


def _labels(home) -> pd.DataFrame:
    with warehouse.connect(home.warehouse) as con:
        try:
            return con.execute("SELECT * FROM gold.labels ORDER BY ALL").df()
        except Exception:
            return pd.DataFrame()


def _raw(text: bytes) -> Callable:
    def make(home, path: Path) -> Path:
        path.write_bytes(text)
        return path

    return make


def _edit(
    change: Callable[[pd.DataFrame], pd.DataFrame], task: str = "answer", **options
) -> Callable:
    def make(home, path: Path) -> Path:
        return write(change(filled(home, "a1", "main-01", task)), path, **options)

    return make


def _set(row: int, column: str, value: str, task: str = "answer") -> Callable:
    def change(frame: pd.DataFrame) -> pd.DataFrame:
        frame.loc[row, column] = value
        return frame

    return _edit(change, task)


def _jsonl(lines: list[str]) -> Callable:
    return _raw(("\n".join(lines) + "\n").encode())


def _other_annotator(home, path: Path) -> Path:
    frame = filled(home, "a1", "main-01", "answer")
    frame.loc[0, "annotator_id"] = "a2"
    return write(frame, path)


def _other_task(home, path: Path) -> Path:
    frame = filled(home, "a1", "main-01", "answer")
    check = pd.read_csv(template(home, "a1", "main-01", "check"), dtype=str, keep_default_na=False)
    frame.loc[0, "item"] = check.loc[0, "item"]
    return write(frame, path)


def _five_without_note(frame):
    frame.loc[1, "score"] = "5"
    return frame


def _sufficient_not_relevant(frame):
    frame.loc[0, ["sufficient", "relevant"]] = ["1", "0"]
    return frame


def _skip_without_reason(frame):
    frame.loc[0, "score"] = "skip"
    return frame


CASES = [
    ("empty file", _raw(b""), "empty_file", None, None, "the file is empty"),
    ("only blank lines", _raw(b"\n \r\n\n"), "empty_file", None, None, "the file is empty"),
    (
        "binary",
        _raw(b"PK\x03\x04\x00\x00binary"),
        "binary",
        None,
        None,
        "the file is an Excel workbook (.xlsx) or another zip archive, not CSV; save it from "
        "your spreadsheet as CSV UTF-8 (comma delimited) and send that",
    ),
    (
        "latin-1",
        _raw("annotator_id,item,notes\na1,x,caf\xe9 cr\xe8me\n".encode("latin-1")),
        "encoding",
        None,
        None,
        "the file is not UTF-8 text (line 2, byte 32); it looks like a legacy Windows encoding "
        "(cp1252, 'ANSI'): save it from your spreadsheet as CSV UTF-8 (comma delimited) and "
        "send that",
    ),
    (
        "semicolons",
        _raw(b"annotator_id;item;score\na1;x;3\n"),
        "delimiter",
        None,
        None,
        "the columns are separated by semicolons, not commas; save as CSV (comma delimited)",
    ),
    (
        "tabs",
        _raw(b"annotator_id\titem\tscore\na1\tx\t3\n"),
        "delimiter",
        None,
        None,
        "the columns are separated by tabs, not commas; save as CSV (comma delimited)",
    ),
    (
        "header only",
        _raw(b"annotator_id,item,score,confidence,notes,time_spent_s\r\n"),
        "no_rows",
        None,
        None,
        "the file has a header but no rows",
    ),
    (
        "ragged row",
        _raw(b"annotator_id,item,score\na1,x,3,4\n"),
        "malformed_csv",
        None,
        None,
        "not a well-formed CSV file: CSV parse error: Expected 3 columns, got 4: a1,x,3,4",
    ),
    (
        "duplicate column",
        _raw(b"annotator_id,item,score,score\na1,x,3,4\n"),
        "duplicate_column",
        None,
        None,
        "column(s) ['score'] appear more than once",
    ),
    (
        "missing column",
        _edit(lambda f: f.drop(columns="confidence")),
        "missing_column",
        None,
        "confidence",
        "column confidence is missing (the template has it)",
    ),
    (
        "unknown column",
        _edit(lambda f: f.assign(rating="4")),
        "unknown_column",
        None,
        "rating",
        "column rating is not in the template for task answer",
    ),
    (
        "values without header",
        _edit(lambda f: f.rename(columns={"notes": " "}).assign(**{" ": "stray", "notes": ""})),
        "unknown_column",
        None,
        "(no header) column 5",
        "(no header) column 5 has values but no header",
    ),
    ("out of range", _set(0, "score", "7"), "range", 2, "score", "score must be between 1 and 5"),
    ("not a number", _set(1, "score", "good"), "type", 3, "score", "score must be a whole number"),
    ("not whole", _set(2, "score", "3.5"), "type", 4, "score", "score must be a whole number"),
    (
        "label not allowed",
        _set(0, "confidence", "sure"),
        "allowed_values",
        2,
        "confidence",
        "confidence must be one of: low, medium, high",
    ),
    ("required empty", _set(3, "score", ""), "required", 5, "score", "score is required"),
    (
        "5 without a note",
        _edit(_five_without_note),
        "conditional",
        3,
        "notes",
        "notes is required when score is 1 or 5",
    ),
    (
        "skip without reason",
        _edit(_skip_without_reason),
        "skip_reason",
        2,
        "notes",
        "score is 'skip', so notes must give the reason",
    ),
    (
        "constraint",
        _edit(_sufficient_not_relevant, task="check"),
        "constraint",
        2,
        "relevant",
        "sufficient => relevant: when sufficient is 1, relevant must be 1",
    ),
    (
        "binary word",
        _set(0, "relevant", "maybe", task="check"),
        "type",
        2,
        "relevant",
        "relevant must be 1 or 0 (yes or no)",
    ),
    (
        "negative time",
        _set(0, "time_spent_s", "-4"),
        "time_spent",
        2,
        "time_spent_s",
        "time_spent_s must be a finite number of seconds, 0 or more",
    ),
    (
        "missing time",
        _set(1, "time_spent_s", ""),
        "time_spent",
        3,
        "time_spent_s",
        "time_spent_s must be a finite number of seconds, 0 or more",
    ),
    (
        "altered id",
        _set(0, "item", "abcdefghijk2"),
        "unknown_item",
        2,
        "item",
        "this item id is not in any packet of the study; was it changed?",
    ),
    (
        "id twice",
        _edit(lambda f: pd.concat([f.iloc[[0]], f], ignore_index=True)),
        "duplicate_item",
        3,
        "item",
        "this item appears more than once in the file",
    ),
    (
        "another annotator",
        _other_annotator,
        "not_assigned",
        2,
        "annotator_id",
        "this item was assigned to a1, not to this annotator",
    ),
    (
        "another task's item",
        _other_task,
        "wrong_task",
        2,
        "item",
        "this item belongs to another task's file, not answer",
    ),
    (
        "annotator id empty",
        _set(0, "annotator_id", ""),
        "required",
        2,
        "annotator_id",
        "annotator_id is required",
    ),
    (
        "bad JSONL line",
        _jsonl(['{"annotator_id": "a1"}', '{"annotator_id": "a1",']),
        "malformed_jsonl",
        None,
        None,
        "line 2 is not valid JSON: Expecting property name enclosed in double quotes",
    ),
    (
        "JSONL array",
        _jsonl(['["a1", "x"]']),
        "malformed_jsonl",
        None,
        None,
        "line 1 is not a JSON object",
    ),
    (
        "unrecognisable",
        _raw(b"name,grade\nbob,A\n"),
        "unknown_task",
        None,
        None,
        "cannot tell which task this file answers: no known item ids and the columns match no single task's template",
    ),
]


@pytest.mark.parametrize(
    ("kind", "make", "rule", "row", "column", "message"), CASES, ids=[c[0] for c in CASES]
)
def test_malformed_file_is_rejected_with_its_reason(
    issued, tmp_path, kind, make, rule, row, column, message
) -> None:
    study, home, _, _ = issued
    before = _labels(home)
    path = make(home, tmp_path / ("returned.jsonl" if "JSONL" in kind else "returned.csv"))
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, path, home, con)
    assert result.status == "rejected"
    errors = result.validation.errors
    hit = errors[(errors["rule"] == rule) & (errors["message"] == message)]
    assert not hit.empty, errors[["row", "column", "rule", "message"]].to_string()
    first = hit.iloc[0]
    assert pd.isna(first["row"]) if row is None else first["row"] == row
    if column is not None:
        assert first["column"] == column
    pd.testing.assert_frame_equal(_labels(home), before)
    folder = Path(result.report).parent
    assert (folder / path.name).read_bytes() == path.read_bytes()
    report = json.loads((folder / "report.json").read_text())
    assert report["status"] == "rejected" and report["errors"] == len(errors)
    assert any(e["rule"] == rule and e["message"] == message for e in report["examples"])
    assert (folder / "issues.csv").is_file()


def test_there_are_at_least_25_kinds() -> None:
    assert len({c[2] for c in CASES}) >= 20 and len(CASES) >= 25


def test_the_offending_value_is_reported(issued, tmp_path) -> None:
    study, home, _, _ = issued
    path = _set(0, "score", "7")(home, tmp_path / "r.csv")
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, path, home, con)
    issue = result.validation.errors.iloc[0]
    assert (issue["file"], issue["row"], issue["column"], issue["rule"], issue["value"]) == (
        "r.csv",
        2,
        "score",
        "range",
        "7",
    )
