"""Accepted rows -> long-form labels, unblinded through the sealed key.

One row per (item, annotator, copy, field) for every filled field except the confidence
field, which becomes a column of its own, as do time spent and notes. ``notes`` holds the
row's free-text fields (their text alone when the task has one text field, else
``field: text`` lines).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from raterlab.ingest.cells import Cells
from raterlab.ingest.read import ROW
from raterlab.ingest.rules import TIME_COLUMN
from raterlab.protocol import (
    LIST_SEPARATOR,
    BinaryField,
    CategoricalField,
    ConfidenceField,
    LikertField,
    ListField,
    Study,
    TextField,
)

LABEL_COLUMNS = (
    "task",
    "item_id",
    "annotator_id",
    "field",
    "value",
    "value_num",
    "confidence",
    "time_spent_s",
    "notes",
    "kind",
    "copy",
    "round",
    "batch",
    "token",
    "source_file",
    "source_sha256",
    "source_row",
    "ingested_at",
)


def _normalised(study: Study, task: str, name: str, cells: Cells) -> tuple[np.ndarray, np.ndarray]:
    """Canonical text and numeric value of a field's cells (NaN numeric for non-numbers)."""
    spec = study.tasks[task].fields[name]
    text = cells.text(name)
    number = np.full(len(cells), np.nan)
    skipped = cells.skipped(name) if spec.skip else np.zeros(len(cells), dtype=bool)
    if isinstance(spec, BinaryField):
        number = cells.binary(name)
    elif isinstance(spec, LikertField):
        number = cells.number(name)
    if isinstance(spec, BinaryField | LikertField):
        with np.errstate(invalid="ignore"):
            text = np.where(np.isnan(number), text, pd.Series(number).map(lambda v: f"{v:.0f}"))
    elif isinstance(spec, CategoricalField):
        text = np.where(
            pd.isna(cells.label(name, tuple(spec.labels))),
            text,
            cells.label(name, tuple(spec.labels)),
        )
    elif isinstance(spec, ListField):
        text = (
            pd.Series(text)
            .map(
                lambda s: f"{LIST_SEPARATOR} ".join(
                    p.strip() for p in s.split(LIST_SEPARATOR) if p.strip()
                )
            )
            .to_numpy(dtype=object)
        )
    text = np.where(skipped, "skip", text)
    number = np.where(skipped, np.nan, number)
    return text, number


def _notes(study: Study, task: str, cells: Cells) -> np.ndarray:
    texts = [n for n, s in study.tasks[task].fields.items() if isinstance(s, TextField)]
    if not texts:
        return np.full(len(cells), None, dtype=object)
    if len(texts) == 1:
        values = pd.Series(cells.text(texts[0])).str.replace("\r\n", "\n")
        return values.where(values != "", None).to_numpy(dtype=object)
    frame = pd.DataFrame({n: cells.text(n) for n in texts})
    joined = frame.apply(
        lambda r: "\n".join(f"{n}: {v}" for n, v in r.items() if v) or None, axis=1
    )
    return joined.to_numpy(dtype=object)


def to_labels(
    study: Study, task: str, frame: pd.DataFrame, joined: pd.DataFrame, source: dict
) -> pd.DataFrame:
    """Long-form labels for the rows of ``frame`` (validated text cells) that ``joined`` maps
    to the sealed key. ``source`` gives ``source_file``, ``source_sha256``, ``ingested_at``."""
    rows = frame.set_index(ROW).loc[joined[ROW]].reset_index()
    cells = Cells(rows)
    spec = study.tasks[task]
    confidence = next((n for n, s in spec.fields.items() if isinstance(s, ConfidenceField)), None)
    base = pd.DataFrame(
        {
            "task": task,
            "item_id": joined["item_id"].to_numpy(),
            "annotator_id": joined["annotator_id"].to_numpy(),
            "confidence": cells.lower(confidence) if confidence else None,
            "time_spent_s": cells.number(TIME_COLUMN),
            "notes": _notes(study, task, cells),
            "kind": joined["kind"].to_numpy(),
            "copy": joined["copy"].to_numpy(),
            "round": joined["round"].to_numpy(),
            "batch": joined["batch"].to_numpy(),
            "token": joined["token"].to_numpy(),
            "source_row": rows[ROW].to_numpy(),
        }
    )
    if confidence:
        base["confidence"] = base["confidence"].replace("", None)
    parts = []
    for name, field_spec in spec.fields.items():
        if isinstance(field_spec, ConfidenceField):
            continue
        text, number = _normalised(study, task, name, cells)
        filled = ~cells.empty(name)
        part = base[filled].copy()
        part["field"] = name
        part["value"] = text[filled]
        part["value_num"] = number[filled]
        parts.append(part)
    labels = pd.concat(parts, ignore_index=True)
    for column, value in source.items():
        labels[column] = value
    return labels[list(LABEL_COLUMNS)]
