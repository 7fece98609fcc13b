"""Reading a returned file the way people really send them back.

Accepted: UTF-8 with or without BOM, LF or CRLF, quoted multi-line cells, columns in any
order, trailing empty rows, blank columns (no header, no values), JSONL (one object per
line), and .xlsx workbooks (:mod:`raterlab.ingest.xlsx`). Every cell is read as text; typing
is the validator's job, so that a bad cell is reported with its original value.

Rejected with one clear sentence: an empty file, a binary file, text that is not UTF-8, a
header without rows, a file delimited by something other than commas.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv

ROW = "_row"
"""Column holding each row's number as a person finds it: the spreadsheet row (header = 1)
for CSV, the line number for JSONL."""

BLANK = "(no header) column "
"""Name given to a column whose header cell is empty; dropped when its cells are empty too."""

_SNIFF_BYTES = 65536


class UnreadableFile(ValueError):
    """The file as a whole cannot be read as a table of annotations."""

    def __init__(self, path: Path, reason: str, rule: str):
        self.path = path
        self.reason = reason
        self.rule = rule
        super().__init__(f"{path.name}: {reason}")


def _head(path: Path) -> bytes:
    with path.open("rb") as handle:
        return handle.read(_SNIFF_BYTES)


def _check_text(path: Path, head: bytes) -> None:
    if not head.strip(b" \t\r\n\xef\xbb\xbf"):
        raise UnreadableFile(path, "the file is empty", "empty_file")
    if b"\x00" in head:
        raise UnreadableFile(path, "the file is binary, not a text file (CSV or JSONL)", "binary")
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 4:  # not just a character cut at the sniff boundary
            raise UnreadableFile(
                path,
                f"the file is not UTF-8 text (byte {exc.start}); save it as CSV UTF-8",
                "encoding",
            ) from None


def _check_delimiter(path: Path, head: bytes) -> None:
    header = head.decode("utf-8", errors="replace").lstrip("\ufeff").splitlines()[0]
    if "," in header:
        return
    for delimiter, name in ((";", "semicolons"), ("\t", "tabs"), ("|", "pipes")):
        if delimiter in header:
            raise UnreadableFile(
                path,
                f"the columns are separated by {name}, not commas; save as CSV (comma delimited)",
                "delimiter",
            )


def _drop_blank(frame: pd.DataFrame) -> pd.DataFrame:
    """Drop blank columns (empty header, no values) and rows whose every cell is empty."""
    blank_header = [c for c in frame.columns if c.startswith(BLANK)]
    empty_cols = [c for c in blank_header if (frame[c].str.strip() == "").all()]
    frame = frame.drop(columns=empty_cols)
    cells = frame.drop(columns=[ROW])
    filled = (cells.apply(lambda s: s.str.strip()) != "").any(axis=1)
    return frame[filled.to_numpy()].reset_index(drop=True)


def _header(path: Path) -> list[str]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        names = next(csv.reader(handle))
    return [n.strip() or f"{BLANK}{i + 1}" for i, n in enumerate(names)]


def _read_csv(path: Path) -> pd.DataFrame:
    names = _header(path)
    duplicated = sorted({n for n in names if names.count(n) > 1})
    if duplicated:
        raise UnreadableFile(
            path, f"column(s) {duplicated} appear more than once", "duplicate_column"
        )
    try:
        table = pacsv.read_csv(
            path,
            read_options=pacsv.ReadOptions(column_names=names, skip_rows=1),
            parse_options=pacsv.ParseOptions(newlines_in_values=True),
            convert_options=pacsv.ConvertOptions(
                column_types=dict.fromkeys(names, pa.string()), strings_can_be_null=False
            ),
        )
    except pa.ArrowInvalid as exc:
        raise UnreadableFile(path, f"not a well-formed CSV file: {exc}", "malformed_csv") from None
    frame = table.to_pandas()
    frame.insert(0, ROW, range(2, len(frame) + 2))
    return frame


def _read_jsonl(path: Path) -> pd.DataFrame:
    rows = []
    with path.open(encoding="utf-8-sig") as handle:
        for number, line in enumerate(handle, start=1):
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
            rows.append({ROW: number, **{k: "" if v is None else _cell(v) for k, v in obj.items()}})
    return pd.DataFrame(rows)


def _cell(value: object) -> str:
    if isinstance(value, list):
        return "; ".join(str(v) for v in value)
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def read_returned(path: str | Path) -> pd.DataFrame:
    """A returned file as text cells plus :data:`ROW`; raises :class:`UnreadableFile`."""
    path = Path(path)
    head = _head(path)
    from raterlab.ingest import xlsx  # imports this module; spreadsheet returns live there

    spreadsheet = xlsx.is_xlsx(path)
    if not spreadsheet:
        _check_text(path, head)
    is_jsonl = path.suffix.lower() in (".jsonl", ".ndjson") or head.lstrip(
        b"\xef\xbb\xbf \r\n"
    ).startswith(b"{")
    if spreadsheet:
        frame = xlsx.read_xlsx(path)
    elif is_jsonl:
        frame = _read_jsonl(path)
    else:
        _check_delimiter(path, head)
        frame = _read_csv(path)
    frame = frame.fillna("") if not frame.empty else frame
    if frame.empty or len(frame.columns) <= 1:
        raise UnreadableFile(path, "the file has a header but no rows", "no_rows")
    frame = _drop_blank(frame)
    if frame.empty:
        raise UnreadableFile(path, "the file has a header but no rows", "no_rows")
    return frame
