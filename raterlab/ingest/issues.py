"""The issue table every kind of ingested file is reported in.

An issue is one row of :data:`ISSUE_COLUMNS`: file, row, column, rule, value, message and
severity (``error`` rejects, ``warning`` informs). Row numbers are the ones a person finds
in the spreadsheet (header = row 1) or the JSONL line; a file-wide issue has no row. A value
longer than :data:`VALUE_CHARS` is shortened in its issue (:func:`shortened`).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import pandas as pd

ISSUE_COLUMNS = ("file", "row", "column", "rule", "value", "message", "severity")
VALUE_CHARS = 200
"""An issue shows at most this much of the value it is about."""


def issue_rows(file: str, rows, column, rule, values, message, severity="error") -> pd.DataFrame:
    """Issues of ``file`` at ``rows``; ``values`` one per row, the other columns one for all
    or one per row."""
    rows = np.atleast_1d(rows)
    return pd.DataFrame(
        {
            "file": file,
            "row": pd.array(rows, dtype="Int64"),
            "column": column,
            "rule": rule,
            "value": np.atleast_1d(values).astype(str) if len(rows) else [],
            "message": message,
            "severity": severity,
        }
    )


def file_issue(
    file: str, rule: str, message: str, column: str = "", value: str = ""
) -> pd.DataFrame:
    """An error about the whole file (no row)."""
    return issue_rows(file, [pd.NA], column, rule, [value], message)


NO_ISSUES = pd.DataFrame(columns=list(ISSUE_COLUMNS))
"""The empty issue table (copy it before changing it: :func:`no_issues`)."""


def no_issues() -> pd.DataFrame:
    return NO_ISSUES.copy()


def concat_issues(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """The issues of ``parts`` in their order (the empty ones dropped)."""
    parts = [p for p in parts if not p.empty]
    return pd.concat(parts, ignore_index=True) if parts else no_issues()


def shortened(issues: pd.DataFrame) -> pd.DataFrame:
    """``issues`` with values longer than :data:`VALUE_CHARS` shortened (a 60-million
    character cell is not copied into every report and the warehouse)."""
    values = issues["value"].astype(str)
    long = values.str.len() > VALUE_CHARS
    if not long.any():
        return issues
    short = values[long].map(lambda v: f"{v[:VALUE_CHARS]}… ({len(v):,} characters)")
    return issues.assign(value=values.mask(long, short))


class Checked(Protocol):
    """A file's validation, whatever its kind: the cells read (``None``: unreadable) and its
    issues, to which the one path adds the version's
    (:func:`~raterlab.ingest.receive.add_version_issues`)."""

    frame: pd.DataFrame | None
    issues: pd.DataFrame
