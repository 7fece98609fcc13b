"""Importing annotations collected elsewhere into a study, without packets or batches.

The file is long (a unit column, a rater column, a column per field) or wide for one field
(a unit column and a column per rater). Units must be items of the study (``raw.generations``).
The same rules as returned files apply to the fields the file has; ``time_spent_s`` is
optional. Rows land in ``gold.labels`` with ``round = 'import'`` and ``batch = 'import:<file>'``,
so a corrected file of the same name updates the earlier import's ratings, row by row, as a
return does (:mod:`raterlab.ingest.ratings`). An import is a kind of the one path
(:func:`imported`): only how its file is read, validated and unblinded is its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

from raterlab import warehouse
from raterlab.design.packets import template_columns
from raterlab.ingest.issues import concat_issues, file_issue, issue_rows
from raterlab.ingest.labels import Labels, to_labels
from raterlab.ingest.one_file import ingest_file
from raterlab.ingest.read import ROW, read_returned
from raterlab.ingest.receive import Received, source_of
from raterlab.ingest.returns import IngestResult, Ratings, Validated
from raterlab.ingest.rules import TIME_COLUMN, task_rules
from raterlab.ingest.validate import Validation, rule_issues
from raterlab.protocol import Study
from raterlab.settings import Home


def wide_to_long(frame: pd.DataFrame, unit: str, field: str) -> pd.DataFrame:
    """A unit column plus one column per rater -> unit, rater, ``field`` (empty cells dropped)."""
    raters = [c for c in frame.columns if c not in (unit, ROW)]
    long = frame.melt(id_vars=[ROW, unit], value_vars=raters, var_name="rater", value_name=field)
    return long[long[field].str.strip() != ""].reset_index(drop=True)


def _rules_for_present(study: Study, task: str, present: set[str]):
    """Rules of ``task`` that concern only columns the file has."""
    return [r for r in task_rules(study, task) if r.column in present]


@dataclass
class ImportValidation(Validation):
    """The validation of an imported file, and the fields of its task it has (only those
    are imported)."""

    fields: tuple[str, ...] = ()


def validate_import(
    study: Study, task: str, frame: pd.DataFrame, items: set[str], file: str
) -> ImportValidation:
    """Check imported rows: known units, no (unit, rater) twice, and the task's rules on the
    fields present."""
    fields = tuple(f for f in study.tasks[task].fields if f in frame.columns)
    if not fields:
        issue = file_issue(file, "no_fields", f"the file has none of the fields of task {task}")
        return ImportValidation(file, study.name, task, frame, issue)
    present = {"annotator_id", "item", *fields} | ({TIME_COLUMN} & set(frame.columns))
    full = frame.copy()
    for column in template_columns(study, task):
        if column not in full:
            full[column] = ""
    rows = full[ROW].to_numpy()
    parts = [rule_issues(study, task, full, file, _rules_for_present(study, task, present))]
    unknown = ~full["item"].str.strip().isin(items).to_numpy()
    if unknown.any():
        parts.append(
            issue_rows(
                file,
                rows[unknown],
                "item",
                "unknown_unit",
                full["item"].to_numpy()[unknown],
                f"this unit is not an item of task {task} in study {study.name}",
            )
        )
    twice = full.duplicated(["item", "annotator_id"]).to_numpy()
    if twice.any():
        parts.append(
            issue_rows(
                file,
                rows[twice],
                "item",
                "duplicate_rating",
                full["item"].to_numpy()[twice],
                "this rater rated this unit more than once",
            )
        )
    issues = concat_issues(parts)
    joined = pd.DataFrame(
        {
            "token": None,
            "item_id": full["item"].str.strip().to_numpy(),
            "annotator_id": full["annotator_id"].str.strip().to_numpy(),
            "kind": "item",
            "copy": 0,
            "round": "import",
            "batch": f"import:{file}",
            ROW: rows,
        }
    )
    return ImportValidation(file, study.name, task, full, issues, joined, fields=fields)


def _labels(study: Study, task: str, validation: ImportValidation, source: dict) -> Labels:
    """Labels of the fields the file has; rows aligned by position (a wide file repeats rows)."""
    frame = validation.frame.reset_index(drop=True)
    joined = validation.rows.reset_index(drop=True)
    original = frame[ROW].to_numpy()
    frame[ROW] = joined[ROW] = np.arange(len(frame))
    labels = to_labels(study, task, frame, joined, source, list(validation.fields))
    return labels.with_source_rows(original[labels.table["source_row"].to_numpy()])


def validate_imported(
    study: Study,
    received: Received,
    con: duckdb.DuckDBPyConnection,
    *,
    task: str,
    unit: str,
    rater: str | None,
    field: str | None,
) -> ImportValidation:
    """Read an archived import and validate it (:func:`validate_import`): ``unit`` and
    ``rater`` name its unit and rater columns; a wide file (no rater column) holds ``field``
    in its cells. A file without the columns named is refused (``ValueError``)."""
    frame = read_returned(received.archived)
    for column in (unit, rater):
        if column and column not in frame.columns:
            known = ", ".join(frame.columns[1:])
            raise ValueError(f"{received.file}: no column {column!r} (columns: {known})")
    if rater is None:
        if field is None:
            raise ValueError("a wide file (no rater column) needs the field its cells hold")
        frame = wide_to_long(frame, unit, field)
        rater = "rater"
    frame = frame.rename(columns={unit: "item", rater: "annotator_id"})
    generations = warehouse.read_study_rows(con, "raw.generations", study.name)
    items = set(generations.loc[generations["task"] == task, "item_id"])
    return validate_import(study, task, frame, items, received.file)


def imported_labels(study: Study, files: list[Validated], *, task: str) -> list[Labels | None]:
    """The labels of validated imports: all of a file's rows, or none (``None``: reject)."""
    return [
        _labels(study, task, validation, source_of(received)) if validation.ok else None
        for received, validation in files
    ]


def imported(task: str, unit: str, rater: str | None, field: str | None = None) -> Ratings:
    """The kind of an import of ``task``'s annotations (see :func:`validate_imported`): its
    ratings are written, recorded and quarantined as a returned packet's."""
    return Ratings(
        partial(validate_imported, task=task, unit=unit, rater=rater, field=field),
        partial(imported_labels, task=task),
    )


def import_file(
    study: Study,
    task: str,
    path: Path,
    home: Home,
    con: duckdb.DuckDBPyConnection,
    unit: str,
    rater: str | None,
    field: str | None = None,
) -> IngestResult:
    """Validate and load one file of existing annotations, all of it or nothing, by the one
    path (:func:`raterlab.ingest.one_file.ingest_file`): archived by content hash first, a
    rejected file quarantined with its report, the outcome in ``staging.ingests``."""
    return ingest_file(study, path, home, con, imported(task, unit, rater, field))
