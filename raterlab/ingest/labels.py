"""Accepted rows -> long-form labels, unblinded through the sealed key.

One row per (item, annotator, copy, field) for every filled field except the confidence
field, which becomes a column of its own, as do time spent and notes. ``notes`` holds the
row's free-text fields (their text alone when the task has one text field, else
``field: text`` lines).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa

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


def _canonical_number(values: pd.Series) -> pd.Series:
    number = pd.to_numeric(values.str.strip(), errors="coerce")
    return number.map(lambda v: None if pd.isna(v) else f"{v:.0f}")


def _canonical_list(values: pd.Series) -> pd.Series:
    return values.map(
        lambda s: f"{LIST_SEPARATOR} ".join(p.strip() for p in s.split(LIST_SEPARATOR) if p.strip())
    )


def normalised(study: Study, task: str, name: str, cells: Cells) -> tuple[np.ndarray, np.ndarray]:
    """Canonical text and numeric value of a field's cells (NaN numeric for non-numbers);
    ``None`` text where the cell is empty."""
    spec = study.tasks[task].fields[name]
    text = cells.text(name)
    number = np.full(len(cells), np.nan)
    if isinstance(spec, BinaryField):
        number = cells.binary(name)
        text = np.where(np.isnan(number), text, np.where(number == 1, "1", "0"))
    elif isinstance(spec, LikertField):
        number = cells.number(name)
        canonical = cells.per_value("canonical_number", name, _canonical_number, object)
        text = np.where(np.isnan(number), text, canonical)
    elif isinstance(spec, CategoricalField):
        label = cells.label(name, tuple(spec.labels))
        text = np.where(pd.isna(label), text, label)
    elif isinstance(spec, ListField):
        text = cells.per_value("canonical_list", name, _canonical_list, object)
    elif isinstance(spec, TextField):
        text = cells.per_value(
            "text_lf", name, lambda u: u.str.strip().str.replace("\r\n", "\n"), object
        )
    if spec.skip is not None:
        skipped = cells.skipped(name)
        text = np.where(skipped, "skip", text)
        number = np.where(skipped, np.nan, number)
    text = np.where(cells.empty(name), None, text)
    return text, number


def _notes(study: Study, task: str, cells: Cells) -> np.ndarray:
    """The row's free text: the one text field's, or ``field: text`` lines of the filled ones
    (an empty field is left out, never written as ``nan``)."""
    texts = [n for n, s in study.tasks[task].fields.items() if isinstance(s, TextField)]
    if not texts:
        return np.full(len(cells), None, dtype=object)
    if len(texts) == 1:
        return normalised(study, task, texts[0], cells)[0]
    lines = [
        [None if v is None else f"{name}: {v}" for v in normalised(study, task, name, cells)[0]]
        for name in texts
    ]
    joined = ["\n".join(p for p in parts if p is not None) for parts in zip(*lines, strict=True)]
    return np.array([j or None for j in joined], dtype=object)


def value_column(field: str) -> str:
    return f"value:{field}"


def number_column(field: str) -> str:
    return f"number:{field}"


RATING_CONSTANTS = ("task", "source_file", "source_sha256", "ingested_at")
"""Columns of a rating that are the same for every row of one file (bound as parameters)."""


@dataclass
class Labels:
    """Accepted rows, one per rating, as an Arrow table ready for DuckDB.

    Per rating: item, annotator, confidence, time spent, notes, kind, copy, round, batch,
    token and source row; per field its canonical text (``value:<field>``) and number
    (``number:<field>``). ``constants`` holds :data:`RATING_CONSTANTS`. The warehouse melts
    the fields into long form as it inserts.
    """

    table: pa.Table
    constants: dict
    fields: list[str]

    def __len__(self) -> int:
        """Filled field values (the rows this adds to the long form)."""
        return sum(
            self.table[value_column(f)].length() - self.table[value_column(f)].null_count
            for f in self.fields
        )

    def packets(self) -> pd.DataFrame:
        """The (annotator, batch, task) packets these ratings answer."""
        pairs = self.table.select(["annotator_id", "batch"]).group_by(["annotator_id", "batch"])
        return pairs.aggregate([]).to_pandas().assign(task=self.constants["task"])

    def with_source_rows(self, rows: np.ndarray) -> Labels:
        index = self.table.schema.get_field_index("source_row")
        table = self.table.set_column(index, "source_row", pa.array(rows))
        return Labels(table, self.constants, self.fields)


def _array(values: pd.Series) -> pa.Array:
    return pa.array(values, from_pandas=True)


def to_labels(
    study: Study,
    task: str,
    frame: pd.DataFrame,
    joined: pd.DataFrame,
    source: dict,
    fields: list[str] | None = None,
) -> Labels:
    """Labels for the rows of ``frame`` (validated text cells) that ``joined`` maps to the
    sealed key. ``source`` gives ``source_file``, ``source_sha256``, ``ingested_at``;
    ``fields`` limits the fields kept (default: all but the confidence field)."""
    position = pd.Index(frame[ROW].to_numpy()).get_indexer(joined[ROW].to_numpy())
    rows = frame.iloc[position].reset_index(drop=True)
    cells = Cells(rows)
    spec = study.tasks[task]
    confidence = next((n for n, s in spec.fields.items() if isinstance(s, ConfidenceField)), None)
    n = len(rows)
    columns = {
        "item_id": _array(joined["item_id"]),
        "annotator_id": _array(joined["annotator_id"]),
        "confidence": pa.array(
            pd.Series(normalised(study, task, confidence, cells)[0]).str.lower()
            if confidence
            else [None] * n,
            type=pa.string(),
        ),
        "time_spent_s": pa.array(
            cells.number(TIME_COLUMN) if TIME_COLUMN in rows else np.full(n, np.nan),
            from_pandas=True,
        ),
        "notes": pa.array(_notes(study, task, cells), type=pa.string()),
        "kind": _array(joined["kind"]),
        "copy": _array(joined["copy"]),
        "round": _array(joined["round"]),
        "batch": _array(joined["batch"]),
        "token": pa.array(joined["token"], type=pa.string(), from_pandas=True),
        "source_row": pa.array(rows[ROW].to_numpy()),
    }
    keep = [f for f in spec.fields if f != confidence and (fields is None or f in fields)]
    for name in keep:
        text, number = normalised(study, task, name, cells)
        columns[value_column(name)] = pa.array(text, type=pa.string())
        columns[number_column(name)] = pa.array(number, from_pandas=True)
    return Labels(pa.table(columns), {"task": task, **source}, keep)
