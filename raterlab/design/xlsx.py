"""Spreadsheet packets: the CSV template of a packet as an ``.xlsx`` workbook that guards input.

One workbook per task template (``<annotator>[_<task>]_annotations.xlsx`` beside the CSV):

- sheet ``annotations``: the template's columns; ``annotator_id`` and ``item`` are locked
  (the sheet is protected, every other cell unlocked), each field column carries Excel data
  validation generated from the study (a dropdown for binary, categorical and confidence
  fields; whole numbers in range for a Likert scale; a dropdown with ``skip`` where the field
  may be skipped; a number of seconds, 0 or more, for ``time_spent_s``);
- sheet ``reference``: what to read for each item (token and the task's shown keys only);
- sheet ``instructions``: the packet instructions (the same text as ``INSTRUCTIONS.md``);
- sheet ``lists`` (hidden): the dropdown values, referenced by the validations.

Every text cell is written as a string cell, never as a formula, whatever it starts with
(OWASP's CSV-injection advice, without changing the text).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from openpyxl import Workbook
from openpyxl.cell import Cell
from openpyxl.styles import Alignment, Font, Protection
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from raterlab.design.instructions import packet_instructions
from raterlab.design.items import Item, display, packet_items
from raterlab.design.packets import (
    FIXED_COLUMNS,
    TRAILING_COLUMNS,
    internal_names,
    packet_dir,
    public_row,
    return_columns,
    template_name,
)
from raterlab.protocol import LikertField, Study
from raterlab.protocol.answers import answer_values
from raterlab.settings import Home

SHEETS = ("annotations", "reference", "instructions", "lists")
LOCKED = Protection(locked=True)
UNLOCKED = Protection(locked=False)


def _text(sheet: Worksheet, row: int, column: int, value: object, **style) -> Cell:
    """A string cell (never a formula, whatever the text starts with)."""
    cell = sheet.cell(row=row, column=column)
    cell.value = "" if value is None else str(value)
    cell.data_type = "s"
    for name, setting in style.items():
        setattr(cell, name, setting)
    return cell


def _typed(value: str) -> object:
    """A returned text cell as Excel would store it when typed: numbers as numbers."""
    try:
        number = float(value)
    except ValueError:
        return value
    return int(number) if number.is_integer() and "." not in value else number


def _validation(study: Study, task: str, name: str, lists: Worksheet) -> DataValidation | None:
    spec = study.tasks[task].fields[name]
    if isinstance(spec, LikertField) and spec.skip is None:
        return DataValidation(
            type="whole",
            operator="between",
            formula1=str(spec.min),
            formula2=str(spec.max),
            error=f"{name} must be a whole number from {spec.min} to {spec.max}",
            errorTitle=name,
            showErrorMessage=True,
        )
    values = answer_values(spec)
    if not values:
        return None
    column = lists.max_column + 1 if lists.max_row > 1 or lists["A1"].value else 1
    _text(lists, 1, column, name, font=Font(bold=True))
    for row, value in enumerate(values, start=2):
        _text(lists, row, column, value)
    letter = get_column_letter(column)
    return DataValidation(
        type="list",
        formula1=f"lists!${letter}$2:${letter}${len(values) + 1}",
        error=f"{name} must be one of: {', '.join(values)}",
        errorTitle=name,
        showErrorMessage=True,
    )


def _annotations(
    sheet: Worksheet, lists: Worksheet, study: Study, task: str, rows: list[dict[str, str]]
) -> None:
    columns = return_columns(study, task)
    internal = internal_names(study)
    rows = [public_row(study, row) for row in rows]
    for c, name in enumerate(columns, start=1):
        _text(sheet, 1, c, name, font=Font(bold=True), protection=LOCKED)
        sheet.column_dimensions[get_column_letter(c)].width = max(12, len(name) + 2)
    last = max(len(rows), 1) + 1
    for r, row in enumerate(rows, start=2):
        for c, name in enumerate(columns, start=1):
            value = row.get(name, "")
            if internal.get(name, name) in FIXED_COLUMNS:
                _text(sheet, r, c, value, protection=LOCKED)
            else:
                cell = sheet.cell(row=r, column=c, value=_typed(value) if value else None)
                if isinstance(cell.value, str):
                    cell.data_type = "s"
                cell.protection = UNLOCKED
    for c, name in enumerate(columns, start=1):
        letter = get_column_letter(c)
        rule = None
        if name in study.tasks[task].fields:
            rule = _validation(study, task, name, lists)
        elif internal.get(name, name) in TRAILING_COLUMNS:
            rule = DataValidation(
                type="decimal",
                operator="greaterThanOrEqual",
                formula1="0",
                error=f"{name} must be a number of seconds, 0 or more",
                showErrorMessage=True,
            )
        if rule is not None:
            description = study.tasks[task].fields.get(name)
            if description is not None and description.description:
                rule.prompt, rule.promptTitle = description.description[:255], name[:32]
                rule.showInputMessage = True
            sheet.add_data_validation(rule)
            rule.add(f"{letter}2:{letter}{last}")
    sheet.freeze_panes = "C2"
    sheet.protection.sheet = True
    sheet.protection.formatColumns = False  # annotators may still widen columns


def _reference(sheet: Worksheet, study: Study, task: str, items: Iterable[Item]) -> None:
    shown = study.tasks[task].shown
    for c, name in enumerate([study.packet.item_column, *shown], start=1):
        _text(sheet, 1, c, name, font=Font(bold=True))
        sheet.column_dimensions[get_column_letter(c)].width = 14 if c == 1 else 60
    wrap = Alignment(wrap_text=True, vertical="top")
    for r, item in enumerate((i for i in items if i.task == task), start=2):
        _text(sheet, r, 1, item.token, alignment=wrap)
        for c, key in enumerate(shown, start=2):
            _text(sheet, r, c, display(item.shown.get(key)), alignment=wrap)
    sheet.freeze_panes = "B2"


def write_workbook(
    study: Study,
    task: str,
    rows: list[dict[str, str]],
    path: Path,
    items: list[Item] | None = None,
    instructions: str = "",
) -> Path:
    """Write one task's workbook: ``rows`` are the template's rows as text cells (ids only for
    a fresh packet; filled ones for a return), ``items`` what the reference sheet shows."""
    book = Workbook()
    sheet = book.active
    sheet.title = SHEETS[0]
    reference, guide, lists = (book.create_sheet(name) for name in SHEETS[1:])
    _annotations(sheet, lists, study, task, rows)
    _reference(reference, study, task, items or [])
    for r, line in enumerate(instructions.splitlines(), start=1):
        _text(guide, r, 1, line)
    guide.column_dimensions["A"].width = 110
    lists.sheet_state = "hidden"
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    book.save(partial)
    partial.replace(path)
    return path


def xlsx_packet(home: Home, study: Study, annotator: str, batch: str) -> list[Path]:
    """Write the ``.xlsx`` version of each CSV template of one packet, beside it."""
    folder = packet_dir(home.outbox, study, annotator, batch)
    items = packet_items(home, study, annotator, batch)
    tasks = list(dict.fromkeys(i.task for i in items))
    text = packet_instructions(
        study,
        annotator,
        batch,
        {t: template_name(study, annotator, t) for t in tasks},
        {t: sum(i.task == t for i in items) for t in tasks},
    )
    written = []
    for task in tasks:
        rows = [{"annotator_id": annotator, "item": i.token} for i in items if i.task == task]
        name = Path(template_name(study, annotator, task)).with_suffix(".xlsx").name
        written.append(write_workbook(study, task, rows, folder / name, items, text))
    return written
