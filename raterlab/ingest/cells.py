"""Text cells of a returned file, typed: Polars expressions shared by every rule
(:mod:`raterlab.ingest.rules`) and by the conversion of accepted rows
(:mod:`raterlab.ingest.labels`), so that what a rule accepts is what is written.

Each function takes a column name and returns an expression over that text column: stripped,
lower-cased, empty, a placeholder, ``skip``, a number, a whole number, a yes/no answer or a
declared label. Polars evaluates them as vectorised string kernels on whole columns.

A cell's stripped text and its number are columns of their own (:func:`typed_frame`), computed
once, in parallel over the columns, for all the expressions that use them: the rules run one
by one (each a check of the Pandera schema), and would otherwise parse each cell once per rule.
"""

from __future__ import annotations

import pandas as pd
import polars as pl

from raterlab.protocol import SKIP_VALUE

PLACEHOLDERS = ("n/a", "na", "nan", "none", "null", "nil", "0", "false", "true")
"""Texts that stand for "nothing to say": they do not fill a required text."""
_INVISIBLE = "[\\s\u200b\u200c\u200d\u2060\ufeff]"
TRUE_WORDS = ("1", "1.0", "yes", "y", "true")
FALSE_WORDS = ("0", "0.0", "no", "n", "false")
_BINARY = {**dict.fromkeys(TRUE_WORDS, 1.0), **dict.fromkeys(FALSE_WORDS, 0.0)}


SPREADSHEET_ERROR = (
    r"^\s*(#(NULL!|DIV/0!|VALUE!|REF!|NAME\?|NUM!|N/A|GETTING_DATA|SPILL!|CALC!|FIELD!|"
    r"BLOCKED!|CONNECT!|BUSY!|UNKNOWN!|EXTERNAL!|PYTHON!|ERROR!)|Err:\d{3})\s*$"
)
"""A spreadsheet's error value, as Excel, LibreOffice (``Err:509``) and Google Sheets show it
in a cell and write it to CSV: a formula that failed, never an answer."""


def spreadsheet_error(column: str) -> pl.Expr:
    """Whether a text cell holds a spreadsheet error value (:data:`SPREADSHEET_ERROR`)."""
    return pl.col(column).str.contains(SPREADSHEET_ERROR).fill_null(False)


_TEXT = "::text"
_NUMBER = "::number"


def text(column: str) -> pl.Expr:
    """The cell without surrounding whitespace (a column of :func:`typed_frame`)."""
    return pl.col(column + _TEXT)


def lower(column: str) -> pl.Expr:
    return text(column).str.to_lowercase()


def empty(column: str) -> pl.Expr:
    return text(column) == ""


def skipped(column: str) -> pl.Expr:
    return lower(column) == SKIP_VALUE


def blank(column: str) -> pl.Expr:
    """Whether a text cell says nothing: empty, invisible characters only, no letter or digit
    (``-``, ``…``, ``{}``), or a placeholder word (:data:`PLACEHOLDERS`)."""
    visible = pl.col(column).cast(pl.String).fill_null("").str.replace_all(_INVISIBLE, "")
    visible = visible.str.to_lowercase()
    return ~visible.str.contains(r"[^\W_]") | visible.is_in(PLACEHOLDERS)


def number(column: str) -> pl.Expr:
    """The cell as a float; null where empty or not a number (NaN for the text ``nan``,
    which no rule accepts: see :func:`whole`). A column of :func:`typed_frame`."""
    return pl.col(column + _NUMBER)


def whole(column: str) -> pl.Expr:
    """Whether the cell holds a whole number (``5`` and ``5.0`` do; ``5.5``, ``nan`` and
    ``inf`` do not, their remainder being NaN or not 0)."""
    return ((number(column) % 1) == 0).fill_null(False)


def binary(column: str) -> pl.Expr:
    """1.0 / 0.0 for the accepted yes/no spellings, null otherwise."""
    return lower(column).replace_strict(_BINARY, default=None, return_dtype=pl.Float64)


def label(column: str, labels: tuple[str, ...]) -> pl.Expr:
    """The declared label a cell names (matched case-insensitively), null otherwise."""
    lookup = {name.lower(): name for name in labels}
    return lower(column).replace_strict(lookup, default=None, return_dtype=pl.String)


def text_frame(frame: pd.DataFrame, columns: list[str]) -> pl.DataFrame:
    """The ``columns`` of ``frame`` (those it has) as a Polars frame of text; Arrow-backed
    text columns go over as Arrow arrays (never through Python strings), others are made
    text first."""
    present = frame[[c for c in frame.columns if c in columns]]
    other = {c: str for c in present.columns if not pd.api.types.is_string_dtype(present[c])}
    return pl.from_pandas(present.astype(other) if other else present)


def typed_frame(frame: pd.DataFrame, names: set[str]) -> pl.DataFrame:
    """The text columns that ``names`` (the root names of some of this module's expressions)
    refer to, with the stripped texts and numbers among ``names`` computed."""
    return typed_cells(text_frame(frame, list(base_names(names))), names)


def base_names(names: set[str]) -> set[str]:
    """The text columns that typed cells ``names`` (stripped texts, numbers) are made of."""
    return {n.removesuffix(_TEXT).removesuffix(_NUMBER) for n in names}


def typed_cells(data: pl.DataFrame, names: set[str]) -> pl.DataFrame:
    """:func:`typed_frame` of text cells already in Polars (``data``)."""
    present = data.columns
    stripped = [c for c in present if c + _TEXT in names or c + _NUMBER in names]
    data = data.with_columns(
        pl.col(c).fill_null("").str.strip_chars().alias(c + _TEXT) for c in stripped
    )
    return data.with_columns(
        pl.col(c + _TEXT).cast(pl.Float64, strict=False).alias(c + _NUMBER)
        for c in present
        if c + _NUMBER in names
    )


def root_names(*expressions: pl.Expr) -> set[str]:
    """The columns (text and typed) that ``expressions`` read."""
    return {name for e in expressions for name in e.meta.root_names()}
