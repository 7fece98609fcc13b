"""Reading a returned ``.xlsx`` workbook (a spreadsheet packet, or a Google Sheets download) into
the same text cells the CSV reader returns, so validation cannot tell them apart.

Read with python-calamine (Rust's calamine): it reads the cached value of each cell, so a
formula an annotator typed yields its result, never its text. Cells Excel typed are written
back as the text a CSV export of the same sheet holds: whole numbers without ``.0``
(``5.0`` -> ``5``), other numbers in their shortest form, booleans as ``TRUE``/``FALSE``,
dates and times in ISO 8601 (``2026-11-23``, ``2026-11-23 14:05:00``, ``14:05:00``). A cell
holding a spreadsheet error (``#VALUE!``, ``#N/A``...), which calamine reads as empty, is read
as its error text, so that validation reports it (:data:`ERROR_TEXT`).

The sheet read is the one visible sheet whose header has an ``annotator_id`` column (the
packet's ``annotations`` sheet, renamed or not); hidden sheets are never read (an old copy
kept hidden must not win). A workbook with several such visible sheets is refused, naming
them; one with none is read from its visible ``annotations`` sheet, or its only visible
sheet, so that the column check says what is missing.

Before anything is unpacked, a workbook that would unpack to an absurd size (a zip bomb), or
whose sheet declares more cells than any packet has, is refused (:func:`_check_size`).
"""

from __future__ import annotations

import datetime as dt
import re
import zipfile
from pathlib import Path, PurePosixPath
from xml.etree import ElementTree

import pandas as pd
from python_calamine import CalamineError, CalamineWorkbook, SheetVisibleEnum

from raterlab.ingest.read import BLANK, ROW, UnreadableFile

XLSX_SUFFIXES = (".xlsx", ".xlsm")
OWNER_COLUMN = "annotator_id"
"""The column that marks a sheet of annotations (every packet template has it)."""
MAX_UNPACKED_BYTES = 1 << 30
"""A workbook unpacks to at most this much (a million-row packet's sheet is about 250 MB)."""
MAX_RATIO = 200
"""A part of the workbook larger than :data:`RATIO_FLOOR` unpacks to at most this many times
its packed size (a million rows of filled-down ids: about 40; a zip bomb: 1,000 and more)."""
RATIO_FLOOR = 16 << 20
MAX_CELLS = 50_000_000
"""A sheet declares at most this many cells (rows x columns; a packet of a million rows and
twenty columns has 20 million)."""
ERROR_TEXT = {
    "#NULL!",
    "#DIV/0!",
    "#VALUE!",
    "#REF!",
    "#NAME?",
    "#NUM!",
    "#N/A",
    "#GETTING_DATA",
    "#SPILL!",
    "#CALC!",
}
"""Error values an .xlsx cell can hold (``t="e"``)."""

_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_PKG_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_DIMENSION = re.compile(rb'<dimension ref="[A-Z]*[0-9]*:?([A-Z]+)([0-9]+)"')
_ERROR_CELL = re.compile(
    rb'<c [^>]*?r="([A-Z]+)([0-9]+)"[^>]*?\bt="e"[^>]*>'
    rb"(?:<f[^>]*/>|<f[^>]*>[^<]*</f>)?<v>([^<]*)</v>"
)


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


def is_xlsx(path: Path) -> bool:
    """By name: a ``.csv`` holding a zip stays a binary file, rejected as one."""
    return path.suffix.lower() in XLSX_SUFFIXES


def _column_number(letters: bytes) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + letter - 64
    return number


def _sheet_parts(book: zipfile.ZipFile) -> dict[str, str]:
    """Sheet name -> its part in the zip (``xl/worksheets/sheet1.xml``)."""
    workbook = ElementTree.fromstring(book.read("xl/workbook.xml"))
    rels = ElementTree.fromstring(book.read("xl/_rels/workbook.xml.rels"))
    targets = {r.get("Id"): r.get("Target", "") for r in rels.iter(f"{_PKG_REL}Relationship")}
    parts = {}
    for sheet in workbook.iter(f"{_MAIN}sheet"):
        target = targets.get(sheet.get(f"{_REL}id"), "")
        if target.startswith("/"):
            parts[sheet.get("name")] = target.lstrip("/")
        else:
            parts[sheet.get("name")] = str(PurePosixPath("xl") / target)
    return parts


def _check_size(path: Path, book: zipfile.ZipFile) -> None:
    """Refuse a workbook that unpacks to an absurd size, before anything is unpacked."""
    parts = book.infolist()
    total = sum(p.file_size for p in parts)
    if total > MAX_UNPACKED_BYTES:
        raise UnreadableFile(
            path,
            f"the workbook unpacks to {total:,} bytes (at most {MAX_UNPACKED_BYTES:,} are read); "
            "send the annotations sheet alone, as CSV",
            "too_large",
        )
    for part in parts:
        if part.file_size > RATIO_FLOOR and part.file_size > MAX_RATIO * max(part.compress_size, 1):
            raise UnreadableFile(
                path,
                f"the workbook's part {part.filename} unpacks from {part.compress_size:,} to "
                f"{part.file_size:,} bytes, more than {MAX_RATIO} times: not a workbook a "
                "spreadsheet saves (a zip bomb?); send the annotations sheet as CSV",
                "too_large",
            )


def _check_dimension(path: Path, book: zipfile.ZipFile, part: str, name: str) -> None:
    """Refuse a sheet that declares more cells than any packet has (read from its first
    bytes, before the sheet is unpacked)."""
    with book.open(part) as stream:
        head = stream.read(4096)
    found = _DIMENSION.search(head)
    if found is None:
        return
    cells = _column_number(found.group(1)) * int(found.group(2))
    if cells > MAX_CELLS:
        raise UnreadableFile(
            path,
            f"sheet {name!r} declares {cells:,} cells ({found.group(1).decode()}"
            f"{found.group(2).decode()}; at most {MAX_CELLS:,} are read): delete the rows "
            "and columns past your answers, or send the sheet as CSV",
            "too_large",
        )


def _error_cells(book: zipfile.ZipFile, part: str) -> dict[tuple[int, int], str]:
    """The cells of a sheet holding an error value, ``(row, column)`` (1-based) -> its text
    (calamine reads them as empty). One pass over the sheet's XML, in blocks."""
    found: dict[tuple[int, int], str] = {}
    tail = b""
    with book.open(part) as stream:
        while block := stream.read(8 << 20):
            data = tail + block
            if b't="e"' in data:
                for match in _ERROR_CELL.finditer(data):
                    letters, row, value = match.groups()
                    found[(int(row), _column_number(letters))] = value.decode(errors="replace")
            tail = data[-4096:]
    return found


def _header(book: CalamineWorkbook, name: str) -> list[str]:
    rows = book.get_sheet_by_name(name).iter_rows()
    return [cell_text(c).strip() for c in next(rows, [])]


def _pick_sheet(path: Path, book: CalamineWorkbook) -> str:
    """The name of the sheet to read (see the module's docstring)."""
    from raterlab.design.xlsx import SHEETS  # the packet writer's sheet names

    visible = [
        s.name
        for s in book.sheets_metadata
        if s.visible == SheetVisibleEnum.Visible and s.name not in SHEETS[1:]
    ]
    candidates = [name for name in visible if OWNER_COLUMN in _header(book, name)]
    if len(candidates) > 1:
        raise UnreadableFile(
            path,
            f"the workbook has {len(candidates)} sheets of annotations ("
            + ", ".join(repr(c) for c in candidates)
            + f"); keep the packet's sheet {SHEETS[0]!r} and delete the others",
            "several_sheets",
        )
    if candidates:
        return candidates[0]
    if SHEETS[0] in visible:
        return SHEETS[0]
    if len(visible) == 1:
        return visible[0]
    raise UnreadableFile(
        path,
        f"no visible sheet has an {OWNER_COLUMN} column (sheets: "
        + ", ".join(repr(s.name) for s in book.sheets_metadata)
        + f"); return the packet's sheet {SHEETS[0]!r}",
        "no_sheet",
    )


def _columns(
    rows, width: int, errors: dict[tuple[int, int], str], first_column: int
) -> list[list[str]]:
    """The sheet's body as ``width`` columns of text, ``errors`` put in their cells (calamine
    starts rows at the sheet's ``first_column``, 0-based). Equal texts of a column are one
    string object, so that a column filled down a million rows costs a pointer per row."""
    columns: list[list[str]] = [[] for _ in range(width)]
    seen: list[dict[str, str]] = [{} for _ in range(width)]
    for row in rows:
        for n in range(width):
            value = row[n] if n < len(row) else ""
            text = value if type(value) is str else cell_text(value)
            columns[n].append(seen[n].setdefault(text, text))
    for (row, column), text in errors.items():
        at = column - 1 - first_column
        if 2 <= row < len(columns[0]) + 2 and 0 <= at < width:
            columns[at][row - 2] = text
    return columns


def read_xlsx(path: Path) -> pd.DataFrame:
    """The workbook's annotation rows as text cells plus :data:`ROW` (the spreadsheet row)."""
    try:
        with zipfile.ZipFile(path) as archive:
            _check_size(path, archive)
            book = CalamineWorkbook.from_path(str(path))
            name = _pick_sheet(path, book)
            part = _sheet_parts(archive).get(name)
            if part is not None:
                _check_dimension(path, archive, part, name)
            errors = _error_cells(archive, part) if part is not None else {}
            sheet = book.get_sheet_by_name(name)
            rows = sheet.iter_rows()
            header = next(rows, None)
            if header is None:
                raise UnreadableFile(path, f"the workbook's sheet {name!r} is empty", "empty_file")
            names = [cell_text(c).strip() or f"{BLANK}{i + 1}" for i, c in enumerate(header)]
            duplicated = sorted({n for n in names if names.count(n) > 1})
            if duplicated:
                raise UnreadableFile(
                    path, f"column(s) {duplicated} appear more than once", "duplicate_column"
                )
            columns = _columns(rows, len(names), errors, (sheet.start or (0, 0))[1])
    except (CalamineError, zipfile.BadZipFile, KeyError, ElementTree.ParseError) as exc:
        raise UnreadableFile(
            path, f"not a readable .xlsx workbook ({exc}); save it again as .xlsx", "malformed_xlsx"
        ) from None
    frame = pd.DataFrame(dict(zip(names, columns, strict=True)), dtype=object)
    frame.insert(0, ROW, range(2, len(frame) + 2))
    return frame
