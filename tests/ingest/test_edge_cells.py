"""Cells at the edge: spreadsheet error values, cells too long for any answer, columns filled
down to the end of the sheet, and reports of files with very many broken rows."""

from __future__ import annotations

import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.design.instructions import MAX_CELL_CHARS
from raterlab.ingest import ingest_file
from raterlab.ingest.issue_report import ISSUES_PER_RULE
from tests.ingest.conftest import filled, template, write


def _ingest(study, home, path):
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, path, home, con)
        stored = con.execute(
            'SELECT row, "column", rule, value, severity FROM staging.ingest_issues'
        ).df()
    return result, stored


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("notes", "Err:509"),
        ("notes", "#NAME?"),
        ("notes", "#DIV/0!"),
        ("score", "#VALUE!"),
        ("confidence", "#N/A"),
        ("notes", " #REF! "),
        ("time_spent_s", "#NUM!"),
        ("notes", "#SPILL!"),
    ],
)
def test_a_spreadsheet_error_in_any_column_is_a_violation(issued, tmp_path, column, value):
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    frame.loc[3, column] = value
    result, stored = _ingest(study, home, write(frame, tmp_path / "a1.csv"))
    assert result.status == "rejected"
    found = stored[stored["rule"] == "spreadsheet_error"]
    assert found[["row", "column", "value"]].values.tolist() == [[5, column, value]]
    report = result.report.read_text()
    assert "spreadsheet_error" in report and value.strip() in report


def test_text_that_mentions_an_error_is_an_answer(issued, tmp_path):
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    frame.loc[0, "notes"] = "the code raised #VALUE! and Err:509 in my sheet"
    result, _ = _ingest(study, home, write(frame, tmp_path / "a1.csv"))
    assert result.status == "accepted"


def test_a_cell_longer_than_the_limit_is_a_violation_the_limit_is_not(issued, tmp_path):
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    frame.loc[0, "notes"] = "x" * MAX_CELL_CHARS
    frame.loc[1, "notes"] = "y" * (MAX_CELL_CHARS + 1)
    result, stored = _ingest(study, home, write(frame, tmp_path / "a1.csv"))
    assert result.status == "rejected"
    (issue,) = stored[stored["rule"] == "too_long"].itertuples()
    assert (issue.row, issue.column) == (3, "notes")
    assert len(issue.value) < 300 and f"{MAX_CELL_CHARS + 1:,} characters" in issue.value


def test_the_packet_instructions_state_the_cell_limit(issued):
    _, home, _, _ = issued
    text = (template(home, "a1", "main-01", "answer").parent / "INSTRUCTIONS.md").read_text()
    assert f"{MAX_CELL_CHARS:,} characters" in text
    assert "Err:509" in text


FILLED_DOWN = 200_000


def test_a_column_filled_down_to_the_end_of_the_sheet_is_dropped_and_reported(issued, tmp_path):
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    tail = pd.DataFrame({c: [""] * FILLED_DOWN for c in frame.columns})
    tail["annotator_id"], tail["time_spent_s"] = "a1", "0"
    path = write(pd.concat([frame, tail], ignore_index=True), tmp_path / "a1.csv")

    result, stored = _ingest(study, home, path)

    assert result.status == "accepted"
    assert result.n_labels > 0
    (note,) = stored[stored["rule"] == "filled_down"].itertuples()
    assert note.severity == "warning" and note.value == f"{FILLED_DOWN}"
    first, last = len(frame) + 2, len(frame) + FILLED_DOWN + 1
    message = result.validation.warnings.set_index("rule").loc["filled_down", "message"]
    assert f"rows {first} to {last} ({FILLED_DOWN:,} rows)" in message
    assert "annotator_id = a1" in message and "time_spent_s = 0" in message
    assert len(stored) < 10
    assert "filled_down" in result.report.read_text()


def test_one_trailing_row_without_an_item_is_still_checked(issued, tmp_path):
    """Only a repeated tail is taken for a filled-down column; one stray row is reported."""
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    frame.loc[len(frame)] = {**frame.iloc[0].to_dict(), "item": ""}
    result, stored = _ingest(study, home, write(frame, tmp_path / "a1.csv"))
    assert result.status == "rejected"
    assert ("item", "required") in set(zip(stored["column"], stored["rule"], strict=True))


def test_issues_are_capped_per_rule_with_the_count_of_the_rest(issued, tmp_path):
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    n = ISSUES_PER_RULE + 1_500
    extra = pd.DataFrame({c: [frame.loc[0, c]] * n for c in frame.columns})
    extra["item"] = [f"forged-{i}" for i in range(n)]
    path = write(pd.concat([frame, extra], ignore_index=True), tmp_path / "a1.csv")

    result, stored = _ingest(study, home, path)

    assert result.status == "rejected"
    assert result.n_errors == n  # the outcome counts every issue
    unknown = stored[stored["rule"] == "unknown_item"]
    assert len(unknown) == ISSUES_PER_RULE + 1
    assert unknown["row"].isna().sum() == 1
    assert unknown["value"].iloc[-1] == "1,500 more"
    written = pd.read_csv(result.report.parent / "issues.csv", dtype=str, keep_default_na=False)
    assert (written["rule"] == "unknown_item").sum() == ISSUES_PER_RULE + 1
    assert f"| error | unknown_item | item | {n} |" in result.report.read_text()
