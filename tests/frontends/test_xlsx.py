"""Spreadsheet packets guard input, and returned workbooks are read and ingested like CSV."""

from __future__ import annotations

import datetime as dt
import re

import openpyxl
import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.design.xlsx import write_workbook, xlsx_packet
from raterlab.ingest import ingest_file, read_returned
from raterlab.ingest.read import ROW, UnreadableFile
from raterlab.ingest.xlsx import cell_text
from tests.ingest.conftest import filled, template, write


def _validations(sheet) -> dict[str, object]:
    """Column letter -> its data validation."""
    return {
        str(dv.sqref).split(":")[0].rstrip("0123456789"): dv
        for dv in sheet.data_validations.dataValidation
    }


def _listed(book, rule) -> list[str]:
    """The values of a list validation's range (``lists!$B$2:$B$4``)."""
    sheet, cells = rule.formula1.split("!")
    return [c.value for (c,) in book[sheet][cells.replace("$", "")]]


def test_packet_workbook_guards_every_field(issued):
    study, home, _, _ = issued
    paths = xlsx_packet(home, study, "a1", "main-01")
    (answer,) = [p for p in paths if p.name == "a1_answer_annotations.xlsx"]
    book = openpyxl.load_workbook(answer)
    assert book.sheetnames == ["annotations", "reference", "instructions", "lists"]
    assert book["lists"].sheet_state == "hidden"
    sheet = book["annotations"]
    header = [c.value for c in sheet[1]]
    assert header == ["annotator_id", "item", "score", "confidence", "notes", "time_spent_s"]
    assert sheet.protection.sheet
    assert sheet["A2"].protection.locked and sheet["B2"].protection.locked
    assert not sheet["C2"].protection.locked and not sheet["F2"].protection.locked

    rules = _validations(sheet)
    score = rules["C"]  # skip allowed: a dropdown 1..5 + skip, not a whole-number rule
    assert score.type == "list"
    assert _listed(book, score) == ["1", "2", "3", "4", "5", "skip"]
    assert _listed(book, rules["D"]) == ["low", "medium", "high"]
    assert "E" not in rules  # free text
    assert rules["F"].type == "decimal" and rules["F"].formula1 == "0"
    n_rows = sheet.max_row
    assert str(score.sqref) == f"C2:C{n_rows}"

    check = openpyxl.load_workbook(answer.with_name("a1_check_annotations.xlsx"))["annotations"]
    binary = _validations(check)["C"]
    assert _listed(check.parent, binary) == ["yes", "no"]


def test_likert_without_skip_is_a_whole_number_range(issued):
    import json

    from raterlab.protocol import parse_study
    from tests.conftest import MINI_STUDY

    data = json.loads(json.dumps(MINI_STUDY))
    del data["tasks"]["answer"]["fields"]["score"]["skip"]
    study = parse_study(data)
    _, home, _, _ = issued
    path = write_workbook(
        study, "answer", [{"annotator_id": "a1", "item": "t"}], home.root / "x.xlsx"
    )
    rule = _validations(openpyxl.load_workbook(path)["annotations"])["C"]
    assert (rule.type, rule.operator, rule.formula1, rule.formula2) == (
        "whole",
        "between",
        "1",
        "5",
    )


def test_reference_is_blind_and_formulas_stay_text(issued):
    study, home, _, _ = issued
    path = xlsx_packet(home, study, "a1", "main-01")[0]
    book = openpyxl.load_workbook(path)
    reference = book["reference"]
    assert [c.value for c in reference[1]] == ["item", "prompt", "response", "category"]
    responses = [c for c in reference["C"][1:] if c.value]
    assert responses and all(c.data_type == "s" for c in responses)
    # the planted formula-like answer is the text itself, not a formula
    assert any(c.value.startswith("=SUM(A1)") for c in responses)
    every_cell = " ".join(
        str(c.value) for ws in book for row in ws.iter_rows() for c in row if c.value
    )
    assert "secret-model" not in every_cell and "uncertainty" not in every_cell


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (5.0, "5"),
        (4.5, "4.5"),
        (True, "TRUE"),
        (False, "FALSE"),
        (dt.datetime(2026, 11, 23, 14, 5), "2026-11-23 14:05:00"),
        (dt.datetime(2026, 11, 23), "2026-11-23"),
        (dt.date(2026, 11, 23), "2026-11-23"),
        (dt.time(14, 5), "14:05:00"),
        (None, ""),
        ("medium", "medium"),
    ],
)
def test_cell_text_is_what_a_csv_export_holds(value, text):
    assert cell_text(value) == text


def _excel_return(frame: pd.DataFrame, path, typed: dict[str, object] | None = None):
    """A return as Excel saves it: numbers typed as numbers, ``typed`` overriding row 2."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(list(frame.columns))
    for _, row in frame.iterrows():
        cells = []
        for name, value in row.items():
            try:
                cells.append(float(value) if name != "item" else value)
            except ValueError:
                cells.append(value)
        sheet.append(cells)
    for name, value in (typed or {}).items():
        sheet.cell(row=2, column=list(frame.columns).index(name) + 1, value=value)
    path.parent.mkdir(parents=True, exist_ok=True)
    book.save(path)
    return path


def test_excel_typed_workbook_reads_like_its_csv(issued, tmp_path):
    _, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    frame.loc[0, ["score", "notes"]] = ["5", "precise"]
    csv_path = write(frame, tmp_path / "a1_answer_annotations.csv")
    xlsx_path = _excel_return(frame, tmp_path / "a1_answer_annotations.xlsx")
    from_csv, from_xlsx = read_returned(csv_path), read_returned(xlsx_path)
    pd.testing.assert_frame_equal(from_csv.drop(columns=ROW), from_xlsx.drop(columns=ROW))
    assert list(from_xlsx[ROW]) == list(from_csv[ROW])


def test_returned_workbook_is_ingested_like_csv(issued, tmp_path):
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    path = _excel_return(frame, home.inbox / "mini" / "a1__main-01__a1_answer_annotations.xlsx")
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, path, home, con)
        stored = con.execute(
            "SELECT DISTINCT value FROM gold.labels WHERE field = 'score' AND source_file = ?",
            [path.name],
        ).fetchall()
    assert result.status == "accepted", result.validation.issues
    assert stored == [("3",)]


def test_a_date_in_a_score_cell_is_rejected_with_its_value(issued, tmp_path):
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    path = _excel_return(frame, tmp_path / "ret.xlsx", {"score": dt.datetime(2026, 3, 1)})
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, path, home, con)
    assert result.status == "rejected"
    issue = result.validation.errors.iloc[0]
    assert (issue["row"], issue["column"], issue["rule"], issue["value"]) == (
        2,
        "score",
        "type",
        "2026-03-01",
    )


def test_a_broken_workbook_is_one_clear_error(tmp_path):
    path = tmp_path / "broken.xlsx"
    path.write_bytes(b"PK\x03\x04 this is not really a zip")
    with pytest.raises(UnreadableFile, match=r"not a readable \.xlsx workbook") as caught:
        read_returned(path)
    assert caught.value.rule == "malformed_xlsx"


def test_the_packet_template_can_be_returned_as_is_after_filling(issued):
    """The packet's own workbook, filled in place (dropdown values), is accepted."""
    study, home, _, _ = issued
    path = next(p for p in xlsx_packet(home, study, "a1", "pilot") if "check" in p.name)
    book = openpyxl.load_workbook(path)
    sheet = book["annotations"]
    for row in range(2, sheet.max_row + 1):
        sheet.cell(row=row, column=3, value="yes")
        sheet.cell(row=row, column=4, value="no")
        sheet.cell(row=row, column=5, value=31.5)
    returned = home.inbox / "mini" / "a1__pilot__a1_check_annotations.xlsx"
    returned.parent.mkdir(parents=True, exist_ok=True)
    book.save(returned)
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, returned, home, con)
    assert result.status == "accepted", result.validation.issues
    assert template(home, "a1", "pilot", "check").is_file()


def _book(sheets: list[tuple[str, pd.DataFrame, str]], path):
    """A workbook of ``(name, rows, state)`` sheets, in order (state: visible or hidden)."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, frame, state in sheets:
        sheet = book.create_sheet(name)
        sheet.append(list(frame.columns))
        for row in frame.itertuples(index=False):
            sheet.append(list(row))
        sheet.sheet_state = state
    path.parent.mkdir(parents=True, exist_ok=True)
    book.save(path)
    return path


def test_a_hidden_stale_sheet_never_wins(issued, tmp_path):
    study, home, _, _ = issued
    current = filled(home, "a1", "main-01", "answer")
    stale = current.assign(score="1", notes="old backup")
    path = _book(
        [("backup", stale, "hidden"), ("annotations", current, "visible")], tmp_path / "r.xlsx"
    )
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, path, home, con)
        scores = con.execute("SELECT DISTINCT value FROM gold.labels WHERE field = 'score'")
        scores = scores.fetchall()
    assert result.status == "accepted"
    assert scores == [("3",)]


def test_a_renamed_annotations_sheet_is_read(issued, tmp_path):
    _, home, _, _ = issued
    current = filled(home, "a1", "main-01", "answer")
    reference = pd.DataFrame({"item": current["item"], "prompt": "p"})
    path = _book(
        [("reference", reference, "visible"), ("My answers", current, "visible")],
        tmp_path / "r.xlsx",
    )
    assert read_returned(path)["score"].tolist() == ["3"] * len(current)


def test_two_visible_sheets_of_annotations_are_refused_by_name(issued, tmp_path):
    _, home, _, _ = issued
    current = filled(home, "a1", "main-01", "answer")
    path = _book(
        [("annotations", current, "visible"), ("annotations (2)", current, "visible")],
        tmp_path / "r.xlsx",
    )
    with pytest.raises(UnreadableFile, match=r"'annotations', 'annotations \(2\)'") as caught:
        read_returned(path)
    assert caught.value.rule == "several_sheets"


def test_error_cells_of_a_workbook_are_reported_not_read_as_empty(issued, tmp_path):
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    path = _excel_return(frame, tmp_path / "r.xlsx")
    book = openpyxl.load_workbook(path)
    sheet = book.active
    for row, column, error in ((2, 5, "#N/A"), (3, 3, "#VALUE!")):
        cell = sheet.cell(row=row, column=column)
        cell.value, cell.data_type = error, "e"
    sheet.cell(row=4, column=5).value = "Err:509"  # LibreOffice's, as text
    book.save(path)
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, path, home, con)
    assert result.status == "rejected"
    errors = result.validation.errors
    found = errors[errors["rule"] == "spreadsheet_error"]
    assert sorted(zip(found["row"], found["column"], found["value"], strict=True)) == [
        (2, "notes", "#N/A"),
        (3, "score", "#VALUE!"),
        (4, "notes", "Err:509"),
    ]


def test_a_zip_bomb_workbook_is_refused_before_it_is_unpacked(tmp_path):
    import zipfile

    path = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as book:
        book.writestr(
            "xl/sharedStrings.xml", b"<sst><si><t>" + b"a" * (40 << 20) + b"</t></si></sst>"
        )
    assert path.stat().st_size < 200_000
    with pytest.raises(UnreadableFile, match="zip bomb") as caught:
        read_returned(path)
    assert caught.value.rule == "too_large"


def test_a_sheet_declaring_absurd_dimensions_is_refused(issued, tmp_path):
    _, home, _, _ = issued
    path = _excel_return(filled(home, "a1", "main-01", "answer"), tmp_path / "r.xlsx")
    import zipfile

    patched = tmp_path / "wide.xlsx"
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(patched, "w") as target:
        for part in source.infolist():
            data = source.read(part)
            if part.filename == "xl/worksheets/sheet1.xml":
                data = re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:XFD1048576"', data)
            target.writestr(part, data)
    with pytest.raises(UnreadableFile, match="declares 17,179,869,184 cells") as caught:
        read_returned(patched)
    assert caught.value.rule == "too_large"


def test_a_long_note_in_a_workbook_is_refused_with_a_short_value(issued, tmp_path):
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    frame.loc[0, "notes"] = "n" * 20_001
    path = _excel_return(frame, tmp_path / "r.xlsx")
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, path, home, con)
        stored = con.execute("SELECT max(length(value)) FROM staging.ingest_issues").fetchone()
    assert result.status == "rejected"
    (issue,) = result.validation.errors.itertuples()
    assert (issue.row, issue.column, issue.rule) == (2, "notes", "too_long")
    assert "20,001" in issue.message and "20,000" in issue.message
    assert stored[0] < 300


def test_a_workbook_filled_down_past_its_items_is_accepted_with_a_warning(issued, tmp_path):
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("annotations")
    sheet.append(list(frame.columns))
    for row in frame.itertuples(index=False):
        sheet.append(list(row))
    tail = 20_000
    for _ in range(tail):
        sheet.append(["a1", None, None, "medium"])
    path = tmp_path / "filled.xlsx"
    book.save(path)
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, path, home, con)
    assert result.status == "accepted"
    (warning,) = result.validation.warnings.itertuples()
    assert warning.rule == "filled_down" and f"({tail:,} rows)" in warning.message
    assert "annotator_id = a1, confidence = medium" in warning.message
