"""Checks of a file's cells that hold for every column, whatever the task: a spreadsheet's
error value (``#VALUE!``, ``Err:509``: a formula that failed) and text longer than
:data:`~raterlab.design.instructions.MAX_CELL_CHARS` (:func:`cell_issues`), and the
filled-down tail the reader dropped (:func:`filled_down_issue`)."""

from __future__ import annotations

import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

from raterlab.design.instructions import MAX_CELL_CHARS
from raterlab.ingest.cells import spreadsheet_error, text_frame
from raterlab.ingest.issues import concat_issues, file_issue, issue_rows, no_issues
from raterlab.ingest.read import FILLED_DOWN, NO_ERROR_TEXT, ROW


def cell_issues(frame: pd.DataFrame, file: str) -> pd.DataFrame:
    """Cells of any column that no answer can be: a spreadsheet's error value (rule
    ``spreadsheet_error``) or a text longer than :data:`MAX_CELL_CHARS` (``too_long``).
    Only columns that may hold one are searched: a column's longest cell is measured on its
    Arrow array, and a file whose text has no ``#`` nor ``Err:`` has no error value
    (:data:`raterlab.ingest.read.NO_ERROR_TEXT`), so a million-row file costs milliseconds."""
    columns = [c for c in frame.columns if c != ROW]
    long = [c for c in columns if _may_be_longer(frame[c], MAX_CELL_CHARS)]
    erring = [] if frame.attrs.get(NO_ERROR_TEXT) else columns
    if not long and not erring:
        return no_issues()
    data = text_frame(frame, [c for c in columns if c in long or c in erring])
    checks = {
        "spreadsheet_error": {c: spreadsheet_error(c) for c in erring},
        "too_long": {c: pl.col(c).str.len_chars() > MAX_CELL_CHARS for c in long},
    }
    every = [test for tests in checks.values() for test in tests.values()]
    flagged = data.select(pl.any_horizontal(every).alias("_any"))["_any"]
    if not flagged.any():
        return no_issues()
    rows = frame[ROW].to_numpy()[flagged.to_numpy()]
    data = data.filter(flagged)
    parts = []
    for rule, tests in checks.items():
        for column, test in tests.items():
            at = data.select(test.alias("_hit"))["_hit"].to_numpy()
            if not at.any():
                continue
            values = data[column].to_numpy()[at]
            if rule == "spreadsheet_error":
                message = (
                    "a spreadsheet error, not an answer (a formula that failed): type the "
                    "value itself"
                )
            else:
                message = [
                    f"a cell holds at most {MAX_CELL_CHARS:,} characters; this one has {len(v):,}"
                    for v in values
                ]
            parts.append(issue_rows(file, rows[at], column, rule, values, message))
    return pd.concat(parts, ignore_index=True)


def _may_be_longer(values: pd.Series, limit: int) -> bool:
    """Whether a text column may hold a cell longer than ``limit`` characters: its longest
    cell in UTF-8 bytes (at least its characters), read off an Arrow array's offsets (1 ms
    per million cells) where the column has one."""
    if hasattr(values.array, "__arrow_array__"):
        longest = pc.max(pc.binary_length(pa.array(values.array))).as_py()
        return longest is not None and longest > limit
    return bool((values.astype(str).str.len() > limit).any())


def filled_down_issue(frame: pd.DataFrame, file: str) -> pd.DataFrame:
    """A warning for the filled-down tail the reader dropped
    (:func:`raterlab.ingest.read.drop_filled_down`), if it dropped one."""
    dropped = frame.attrs.get(FILLED_DOWN)
    if not dropped:
        return no_issues()
    first, last = dropped["rows"]
    values = ", ".join(f"{c} = {v}" for c, v in dropped["values"].items())
    issue = file_issue(
        file,
        "filled_down",
        f"rows {first} to {last} ({dropped['count']:,} rows) have no item and repeat the same "
        f"values ({values}): not answers, so they were dropped (a column filled down past "
        "the last item?)",
        next(iter(dropped["values"])),
        str(dropped["count"]),
    )
    return issue.assign(severity="warning")


def cell_and_tail_issues(frame: pd.DataFrame, file: str) -> pd.DataFrame:
    """:func:`filled_down_issue` and :func:`cell_issues` of a file read."""
    return concat_issues([filled_down_issue(frame, file), cell_issues(frame, file)])
