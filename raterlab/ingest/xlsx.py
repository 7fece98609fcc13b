"""Reading a returned ``.xlsx`` workbook (a spreadsheet packet, or a Google Sheets download) into
the same text cells the CSV reader returns, so validation cannot tell them apart.

Read with python-calamine (Rust's calamine): it reads the cached value of each cell, so a
formula an annotator typed yields its result, never its text. Cells Excel typed are written
back as the text a CSV export of the same sheet holds: whole numbers without ``.0``
(``5.0`` -> ``5``), other numbers in their shortest form, booleans as ``TRUE``/``FALSE``,
dates and times in ISO 8601 (``2026-11-23``, ``2026-11-23 14:05:00``, ``14:05:00``).

The sheet read is the first whose header row has an ``item`` column (a spreadsheet packet's
``annotations`` sheet), else the first sheet.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pandas as pd
from python_calamine import CalamineError, CalamineWorkbook

from raterlab.ingest.read import BLANK, ROW, UnreadableFile

XLSX_SUFFIXES = (".xlsx", ".xlsm")


def cell_text(value: object) -> str:
    """The CSV text of one cell as calamine returns it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ", timespec="seconds").removesuffix(" 00:00:00")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return str(value)
    return str(value)


def _rows(book: CalamineWorkbook) -> list[list[object]]:
    first = None
    for name in book.sheet_names:
        rows = book.get_sheet_by_name(name).to_python(skip_empty_area=False)
        if first is None:
            first = rows
        if rows and "item" in [cell_text(c).strip() for c in rows[0]]:
            return rows
    return first or []


def is_xlsx(path: Path) -> bool:
    """By name: a ``.csv`` holding a zip stays a binary file, rejected as one."""
    return path.suffix.lower() in XLSX_SUFFIXES


def read_xlsx(path: Path) -> pd.DataFrame:
    """The workbook's annotation rows as text cells plus :data:`ROW` (the spreadsheet row)."""
    try:
        rows = _rows(CalamineWorkbook.from_path(str(path)))
    except CalamineError as exc:
        raise UnreadableFile(
            path, f"not a readable .xlsx workbook ({exc}); save it again as .xlsx", "malformed_xlsx"
        ) from None
    if not rows:
        raise UnreadableFile(path, "the workbook's sheet is empty", "empty_file")
    names = [cell_text(c).strip() or f"{BLANK}{i + 1}" for i, c in enumerate(rows[0])]
    duplicated = sorted({n for n in names if names.count(n) > 1})
    if duplicated:
        raise UnreadableFile(
            path, f"column(s) {duplicated} appear more than once", "duplicate_column"
        )
    width = len(names)
    body = [[cell_text(c) for c in row[:width]] + [""] * (width - len(row)) for row in rows[1:]]
    frame = pd.DataFrame(body, columns=names).astype("str")
    frame.insert(0, ROW, range(2, len(frame) + 2))
    return frame
