"""Reading a returned file the way people really send them back.

Accepted: UTF-8 with or without BOM, UTF-16 with a byte-order mark (what Excel's "Unicode
text" and some exports write), LF or CRLF, quoted multi-line cells, columns in any order,
blank lines and trailing empty rows, blank columns (no header, no values), JSONL (one
object per line), and .xlsx workbooks by name (:mod:`raterlab.ingest.xlsx`). Every cell is
read as text; typing is the validator's job, so that a bad cell is reported with its original
value. A JSON string is its text; ``true``/``false``
become the words ``true``/``false`` (a yes/no answer, never a number), lists are joined
with ``;``, objects stay JSON text.

Rejected with one sentence that says what the file is and what to do: an empty file, an
Excel workbook not named .xlsx, another binary file, a NUL byte anywhere, text that is not
UTF-8 (a legacy Windows encoding is named as such), a header without rows, a file delimited
by something other than commas, a malformed CSV or JSONL line, a symbolic link out of
``RATERLAB_HOME`` (never followed: :func:`refused_link`). Whatever else goes wrong while
reading is still one :class:`UnreadableFile`, so one bad file never stops the others.

A cell that comes back as raterlab's CSV writers neutralised it (``'=...``, see
:mod:`raterlab.csvsafe`) is read as the text it stood for. Trailing rows with no item that
repeat one row (a column filled down to the end of the sheet) are not answers: they are
dropped, and the validation says so (:func:`drop_filled_down`).
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.csv as pacsv

from raterlab.csvsafe import restore_column
from raterlab.ingest.cells import text_frame

ROW = "_row"
"""Column holding each row's number as a person finds it: the spreadsheet row (header = 1,
blank rows counted) for CSV, the line number for JSONL."""

BLANK = "(no header) column "
"""Name given to a column whose header cell is empty; dropped when its cells are empty too."""

LINK_SUFFIX = ".symlink"
"""Suffix of the note archived in place of a symbolic link out of the home
(:func:`refused_link`); reading it is refusing the link."""

ITEM = "item"
"""The item column as a packet names it by default (a study that renames it has its
filled-down rows reported by the rules instead: the item is required)."""
FILLED_DOWN = "filled_down"
"""Key of a read frame's ``attrs``: the trailing rows :func:`drop_filled_down` dropped."""
FILLED_DOWN_MIN = 2
"""Rows that repeat one row, with no item: at least this many make a filled-down tail."""
NO_ERROR_TEXT = "no_error_text"
"""Key of a read frame's ``attrs``: true when the file's text holds neither ``#`` nor
``Err:``, so no cell can hold a spreadsheet error value (its cells need no search)."""

_UTF8_BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_SAVE_AS = "save it from your spreadsheet as CSV UTF-8 (comma delimited) and send that"


class UnreadableFile(ValueError):
    """The file as a whole cannot be read as a table of annotations."""

    def __init__(self, path: Path, reason: str, rule: str):
        self.path = path
        self.reason = reason
        self.rule = rule
        super().__init__(f"{path.name}: {reason}")


def _link_out_of_home(path: Path, root: Path) -> Path | None:
    """Where ``path`` leads, if it is a symbolic link inside ``root`` to a file outside it."""
    root = root.resolve()
    if not path.is_symlink() or not path.parent.resolve().is_relative_to(root):
        return None
    target = path.resolve()
    return None if target.is_relative_to(root) else target


def refused_link(path: Path, root: Path) -> bytes | None:
    """For a symbolic link inside ``root`` (RATERLAB_HOME: the inbox) to a file outside it,
    the note archived in its place (as ``<sha256 of the note>.symlink``): what it is and where
    it points, never the content it points to. ``None`` for anything else. Such a link is
    never followed, or raterlab would copy any file it can read into its archive and
    quarantine; a link given from elsewhere (on the command line) is the operator's choice."""
    target = _link_out_of_home(Path(path), Path(root))
    if target is None:
        return None
    return (
        f"{Path(path).name} is a symbolic link to {target}, outside RATERLAB_HOME; raterlab "
        "does not follow links out of its home: put the file itself in the inbox\n"
    ).encode()


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def _text_bytes(path: Path, data: bytes) -> bytes:
    """The file's content as UTF-8 bytes without BOM; raises for anything that is not text."""
    if data.startswith(b"PK\x03\x04"):
        raise UnreadableFile(
            path,
            f"the file is an Excel workbook (.xlsx) or another zip archive, not CSV; {_SAVE_AS}",
            "binary",
        )
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        raise UnreadableFile(
            path, f"the file is an old Excel workbook (.xls), not CSV; {_SAVE_AS}", "binary"
        )
    if data.startswith(_UTF16_BOMS):
        try:
            data = data.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError:
            raise UnreadableFile(
                path, f"the file starts like UTF-16 text but is not; {_SAVE_AS}", "encoding"
            ) from None
    data = data.removeprefix(_UTF8_BOM)
    if _CONTENT.search(data) is None:
        raise UnreadableFile(path, "the file is empty", "empty_file")
    nul = data.find(b"\x00")
    if nul >= 0:
        head = data[:2000]
        if head.count(b"\x00") * 3 >= len(head):
            reason = f"the file looks like UTF-16 text without a byte-order mark; {_SAVE_AS}"
        else:
            reason = (
                f"the file is binary, not a text file (CSV or JSONL): a NUL byte at line "
                f"{_line_of(data, nul)} (byte {nul}); {_SAVE_AS}"
            )
        raise UnreadableFile(path, reason, "binary")
    try:
        if not data.isascii():  # ASCII is UTF-8; telling costs 1 ms per 37 MB, decoding 23
            data.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = f"line {_line_of(data, exc.start)}, byte {exc.start}"
        try:
            data.decode("cp1252")
            kind = "it looks like a legacy Windows encoding (cp1252, 'ANSI')"
        except UnicodeDecodeError:
            kind = "its encoding is unknown"
        raise UnreadableFile(
            path, f"the file is not UTF-8 text ({where}); {kind}: {_SAVE_AS}", "encoding"
        ) from None
    return data


def _check_delimiter(path: Path, data: bytes) -> None:
    header = data[:65536].decode("utf-8", errors="replace").splitlines()[0]
    if "," in header:
        return
    for delimiter, name in ((";", "semicolons"), ("\t", "tabs"), ("|", "pipes")):
        if delimiter in header:
            raise UnreadableFile(
                path,
                f"the columns are separated by {name}, not commas; save as CSV (comma delimited)",
                "delimiter",
            )


def _filled(column: pl.Series) -> pl.Series:
    return column.str.strip_chars() != ""


_CONTENT = re.compile(rb"[^ \t\r\n]")
_QUOTED_CELL = re.compile(rb"'[=+\-@\t\r]")
"""What a cell starts with when :func:`raterlab.csvsafe.neutralise` made it (``'=``...):
one scan in C (20 ms per million rows; anchoring it to a cell's start made it 50 times
slower); the cells are looked at only in a file where it is found."""
_BLANK_LINE = re.compile(r'^[\s,"]*$', re.MULTILINE)
_BLANK_START = re.compile(rb'\n[\s,"\x1c-\x1f\xc2\xe1\xe2\xe3]')
"""A line starting with what a line of empty cells starts with: whitespace, a comma, a quote,
or the first byte of a Unicode space in UTF-8 (U+0085, U+00A0; U+1680; U+2000-U+205F;
U+3000)."""


def _content_end(data: bytes) -> int:
    """Where the file's content ends: before its trailing line breaks (found without copying
    the file, as ``rstrip`` would)."""
    end = len(data)
    while end and data[end - 1] in b"\r\n":
        end -= 1
    return end


def _blank_line_start(data: bytes) -> bool:
    """Whether some line starts as a blank line or a line of empty cells would: whitespace, a
    comma, a quote (one scan in C, 20 ms per million rows). Most files have none, and are
    spared the searches for blank lines (:func:`_read_csv`) and rows of empty cells
    (:func:`_may_have_blank_rows`)."""
    return _BLANK_START.search(data, 0, _content_end(data)) is not None


def _may_have_blank_rows(data: bytes, line_start: bool) -> bool:
    """Whether some line of a CSV file has nothing but whitespace, commas and quotes: the
    only lines that can be a row of empty cells. Files without such a line are spared
    :func:`_drop_blank` (4 ms per file, which a study's thousands of small returns pay
    twice). Lines are looked at only when one starts as such a line would (``line_start``,
    :func:`_blank_line_start`). A false alarm (such a line inside a quoted value) only costs
    the search."""
    if not line_start:
        return False
    body = data[: _content_end(data)]
    return _BLANK_LINE.search(body.decode("utf-8", errors="replace")) is not None


def _drop_blank(frame: pd.DataFrame) -> pd.DataFrame:
    """Drop blank columns (empty header, no values) and rows whose every cell is empty.

    A row is kept at its first filled cell, so each further column is looked at only in the
    rows still empty (usually none after the first column)."""
    text = text_frame(frame, [c for c in frame.columns if c != ROW])
    empty_cols = [c for c in text.columns if c.startswith(BLANK) and not _filled(text[c]).any()]
    text = text.drop(empty_cols)
    empty = np.arange(len(text))
    for column in text.columns:
        empty = empty[~_filled(text[column].gather(empty)).to_numpy()]
        if not len(empty):
            break
    frame = frame.drop(columns=empty_cols)
    return frame.drop(index=frame.index[empty]).reset_index(drop=True)


def drop_filled_down(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` without its filled-down tail: the trailing rows (at least
    :data:`FILLED_DOWN_MIN`) that have no item and all hold the same values, such as an
    ``annotator_id`` filled down to row 1,048,576. They answer nothing; kept, each would
    break the rules (a million rows, millions of issues). What was dropped is kept in
    ``attrs[FILLED_DOWN]`` (first and last row, how many, the values repeated) for the
    validation to report. Costs one look at the last row when the file ends with an item."""
    if ITEM not in frame.columns or len(frame) < FILLED_DOWN_MIN:
        return frame
    if str(frame[ITEM].iloc[-1]).strip():
        return frame
    columns = [c for c in frame.columns if c != ROW]
    text = text_frame(frame, columns)
    last = text.row(-1, named=True)
    differs = pl.any_horizontal(
        [pl.col(c).fill_null("") != (last[c] or "") for c in columns]
        + [pl.col(ITEM).fill_null("").str.strip_chars() != ""]
    )
    before = text.select(differs.arg_true().max()).item()
    start = 0 if before is None else before + 1
    count = len(frame) - start
    repeated = {c: v for c, v in last.items() if v and v.strip()}
    if count < FILLED_DOWN_MIN or not repeated:
        return frame
    rows = frame[ROW].iloc[[start, -1]].tolist()
    kept = frame.iloc[:start].reset_index(drop=True)
    kept.attrs[FILLED_DOWN] = {"rows": rows, "count": count, "values": repeated}
    return kept


def _names(path: Path, header: list[str]) -> list[str]:
    names = [n.strip() or f"{BLANK}{i + 1}" for i, n in enumerate(header)]
    duplicated = sorted({n for n in names if names.count(n) > 1})
    if duplicated:
        raise UnreadableFile(
            path, f"column(s) {duplicated} appear more than once", "duplicate_column"
        )
    return names


def _records(path: Path, text: str) -> list[list[str]]:
    try:
        return list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as exc:
        raise UnreadableFile(path, f"not a well-formed CSV file: {exc}", "malformed_csv") from None


def _read_csv_rows(path: Path, data: bytes) -> pd.DataFrame:
    """Record by record (Python's csv module): used when the file has blank lines, which
    a person counts as rows and the fast reader skips."""
    records = _records(path, data.decode("utf-8"))
    names = _names(path, records[0])
    rows, numbers = [], []
    for number, record in enumerate(records[1:], start=2):
        if not record:
            continue
        if len(record) != len(names):
            raise UnreadableFile(
                path,
                f"not a well-formed CSV file: row {number} has {len(record)} cells, "
                f"the header {len(names)}",
                "malformed_csv",
            )
        rows.append(record)
        numbers.append(number)
    frame = pd.DataFrame(rows, columns=names, dtype=object)
    frame.insert(0, ROW, numbers)
    return frame


def _read_csv(path: Path, data: bytes, line_start: bool) -> pd.DataFrame:
    """``line_start``: :func:`_blank_line_start` of ``data`` (without it, no blank lines)."""
    if line_start and (b"\n\n" in data or b"\n\r\n" in data):
        return _read_csv_rows(path, data)
    stream = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline="")
    try:
        header = next(csv.reader(stream))
    except csv.Error as exc:
        raise UnreadableFile(
            path, f"not a well-formed CSV file: the header row: {exc}", "malformed_csv"
        ) from None
    names = _names(path, header)
    try:
        table = pacsv.read_csv(
            io.BytesIO(data),
            read_options=pacsv.ReadOptions(column_names=names, skip_rows=1),
            parse_options=pacsv.ParseOptions(newlines_in_values=True),
            convert_options=pacsv.ConvertOptions(
                column_types=dict.fromkeys(names, pa.large_string()), strings_can_be_null=False
            ),
        )
    except pa.ArrowInvalid as exc:
        raise UnreadableFile(path, f"not a well-formed CSV file: {exc}", "malformed_csv") from None
    # One chunk per column, so that Polars (rules, key join) takes each column in one piece.
    frame = table.combine_chunks().to_pandas()
    frame.insert(0, ROW, range(2, len(frame) + 2))
    return frame


def _read_jsonl(path: Path, data: bytes) -> pd.DataFrame:
    rows = []
    for number, line in enumerate(data.decode("utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UnreadableFile(
                path, f"line {number} is not valid JSON: {exc.msg}", "malformed_jsonl"
            ) from None
        if not isinstance(obj, dict):
            raise UnreadableFile(path, f"line {number} is not a JSON object", "malformed_jsonl")
        rows.append({ROW: number, **{k: _cell(v) for k, v in obj.items()}})
    return pd.DataFrame(rows, dtype=object)


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "; ".join(_cell(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value)
    return str(value)


def _read(path: Path) -> pd.DataFrame:
    from raterlab.ingest import xlsx  # imports this module; spreadsheet returns live there

    if path.suffix == LINK_SUFFIX:
        raise UnreadableFile(path, path.read_text(encoding="utf-8").strip(), "symlink")
    maybe_blank = maybe_quoted = maybe_error = True
    if xlsx.is_xlsx(path):
        frame = xlsx.read_xlsx(path)
    else:
        data = _text_bytes(path, path.read_bytes())
        line_start = _blank_line_start(data)
        frame = _read_text(path, data, line_start)
        maybe_blank = _is_jsonl(path, data) or _may_have_blank_rows(data, line_start)
        maybe_quoted = _QUOTED_CELL.search(data) is not None
        maybe_error = b"#" in data or b"Err:" in data
    if frame.empty or len(frame.columns) <= 1:
        raise UnreadableFile(path, "the file has a header but no rows", "no_rows")
    frame = frame.fillna("")
    frame[frame.columns[1:]] = frame[frame.columns[1:]].astype(str)
    if maybe_quoted:
        for column in frame.columns[1:]:
            frame[column] = restore_column(frame[column])
    if maybe_blank or any(str(c).startswith(BLANK) for c in frame.columns):
        frame = _drop_blank(frame)
    frame = drop_filled_down(frame)
    if frame.empty:
        raise UnreadableFile(path, "the file has a header but no rows", "no_rows")
    frame.attrs[NO_ERROR_TEXT] = not maybe_error
    return frame


def _is_jsonl(path: Path, data: bytes) -> bool:
    return path.suffix.lower() in (".jsonl", ".ndjson") or data.lstrip(b" \r\n").startswith(b"{")


def _read_text(path: Path, data: bytes, line_start: bool) -> pd.DataFrame:
    if _is_jsonl(path, data):
        return _read_jsonl(path, data)
    _check_delimiter(path, data)
    return _read_csv(path, data, line_start)


def read_returned(path: str | Path) -> pd.DataFrame:
    """A returned file as text cells plus :data:`ROW`; raises :class:`UnreadableFile`."""
    path = Path(path)
    try:
        return _read(path)
    except UnreadableFile:
        raise
    except Exception as exc:  # any reader failure is this file's problem only
        raise UnreadableFile(
            path, f"the file cannot be read ({type(exc).__name__}: {exc}); {_SAVE_AS}", "unreadable"
        ) from exc
