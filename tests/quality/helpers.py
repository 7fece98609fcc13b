"""Small ``gold.labels`` tables written by hand, for metrics checked against arithmetic."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pandas as pd

from raterlab.ingest.labels import LABEL_COLUMNS

WEEK1 = datetime(2026, 11, 2, 10, tzinfo=UTC)  # a Monday: ISO week 2026-W45


def task_of(item: str) -> str:
    return "check" if item.startswith("chk") else "answer"


def rating(
    annotator: str,
    item: str,
    value: object,
    *,
    field: str = "score",
    kind: str = "item",
    copy: int = 0,
    time: float = 60.0,
    batch: str = "main-01",
    round: str = "main",
    at: datetime = WEEK1,
) -> dict:
    """One row of ``gold.labels`` (one field of one rating)."""
    number = float(value) if isinstance(value, int | float) else np.nan
    return {
        "task": task_of(item),
        "item_id": item,
        "annotator_id": annotator,
        "field": field,
        "value": str(value) if not isinstance(value, int | float) else f"{value:g}",
        "value_num": number,
        "confidence": "medium",
        "time_spent_s": time,
        "notes": None,
        "kind": kind,
        "copy": copy,
        "round": round,
        "batch": batch,
        "token": f"{annotator}-{item}-{copy}",
        "source_file": f"{annotator}.csv",
        "source_sha256": "0" * 64,
        "source_row": 1,
        "ingested_at": pd.Timestamp(at),
    }


def labels(rows: list[dict]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=list(LABEL_COLUMNS))


def ans(i: int) -> str:
    return f"ans-{i:03d}"


def row(table: pd.DataFrame, annotator: str, metric: str, slice_: str = "all") -> pd.Series:
    """The one row of ``gold.rater_quality`` for (annotator, metric, slice)."""
    found = table[
        (table["annotator_id"] == annotator)
        & (table["metric"] == metric)
        & (table["slice"] == slice_)
    ]
    assert len(found) == 1, (annotator, metric, slice_, found)
    return found.iloc[0]
