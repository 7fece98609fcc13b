"""CSV files a person may open in a spreadsheet, made inert against formula injection.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return as a formula (``=HYPERLINK(...)`` links out, ``=WEBSERVICE(...)`` sends data away).
Following OWASP's CSV-injection advice, every CSV raterlab writes for people puts a single
``'`` before such a text cell (:func:`neutralise`); a spreadsheet shows the text, and runs
nothing. Numbers (cells of a number column) are written as they are: ``-3`` is a number
there, not a formula.

All of raterlab's CSV writers go through this module (:func:`write_csv`, :func:`csv_text`,
or :func:`neutralise` per cell for the ``csv`` module's writers). A file raterlab reads
back takes the ``'`` off again (:func:`restore`); the warehouse keeps the raw values.
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pandas as pd
from pandas.api.types import is_string_dtype

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
"""A text cell starting with one of these is read as a formula by spreadsheets."""
QUOTE = "'"
"""What :func:`neutralise` puts before such a cell: a spreadsheet's "this is text" mark."""
_QUOTED = tuple(QUOTE + p for p in FORMULA_PREFIXES)


def neutralise(cell: object) -> str:
    """A cell's text, made inert for spreadsheets (a leading ``'`` before formula characters)."""
    text = "" if cell is None else str(cell)
    return QUOTE + text if text.startswith(FORMULA_PREFIXES) else text


def restore(text: str) -> str:
    """The text :func:`neutralise` was given: the ``'`` before formula characters dropped."""
    return text[1:] if text.startswith(_QUOTED) else text


def restore_column(values: pd.Series) -> pd.Series:
    """:func:`restore` of a text column (vectorised; missing cells stay missing; a column
    that holds no text is returned as it is)."""
    if not is_string_dtype(values):
        return values
    quoted = values.str.startswith(_QUOTED, na=False)
    return values.mask(quoted, values.str.slice(1)) if quoted.any() else values


def _inert(value: object) -> object:
    """One cell of an object column: missing stays missing; text, and values written as text
    (a list of list-field entries), are neutralised."""
    if pd.api.types.is_scalar(value) and pd.isna(value):
        return value
    return neutralise(value)


def for_people(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with every text cell neutralised (numbers, booleans, dates and missing cells
    as they are), ready for a CSV that a person opens."""
    out = frame.copy()
    for column in out.columns:
        values = out[column]
        if is_string_dtype(values):  # text or missing: one vectorised test, no per-cell call
            formula = values.str.startswith(FORMULA_PREFIXES, na=False)
            out[column] = values.mask(formula, QUOTE + values)
        elif values.dtype == object:  # text mixed with lists or other values
            out[column] = values.map(_inert)
    return out


def csv_text(frame: pd.DataFrame) -> str:
    """``frame`` as CSV text (no index), neutralised (:func:`for_people`)."""
    return for_people(frame).to_csv(index=False)


def write_csv(frame: pd.DataFrame, path: Path) -> Path:
    """Write ``frame`` to ``path`` as CSV (no index), neutralised (:func:`for_people`); the
    file is written beside ``path`` and moved into place, so it is never seen half written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    for_people(frame).to_csv(partial, index=False)
    os.replace(partial, path)
    return path


def rows_csv(columns: list[str], rows: list[dict[str, str]]) -> bytes:
    """The returned-file CSV, its cells neutralised for spreadsheets (:mod:`raterlab.csvsafe`;
    the ingest takes the mark off again)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows({key: neutralise(value) for key, value in row.items()} for row in rows)
    return buffer.getvalue().encode("utf-8")
