"""Importing annotations collected elsewhere into a study, without packets or batches.

The file is long (a unit column, a rater column, a column per field) or wide for one field
(a unit column and a column per rater). Units must be items of the study (``raw.generations``).
The same rules as returned files apply to the fields the file has; ``time_spent_s`` is
optional. Rows land in ``gold.labels`` with ``round = 'import'`` and ``batch = 'import:<file>'``,
so a corrected file of the same name updates the earlier import's ratings, row by row, as a
return does (:mod:`raterlab.ingest.ratings`).
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

from raterlab import warehouse
from raterlab.design.packets import template_columns
from raterlab.ingest import store
from raterlab.ingest.labels import Labels, to_labels
from raterlab.ingest.read import ROW, read_returned
from raterlab.ingest.rules import TIME_COLUMN, task_rules
from raterlab.ingest.run import IngestResult, Validated, commit, receive, source_of
from raterlab.ingest.validate import (
    ISSUE_COLUMNS,
    Validation,
    file_issue,
    issue_rows,
    rule_issues,
)
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


def validate_import(
    study: Study, task: str, frame: pd.DataFrame, items: set[str], file: str
) -> Validation:
    """Check imported rows: known units, no (unit, rater) twice, and the task's rules on the
    fields present."""
    fields = [f for f in study.tasks[task].fields if f in frame.columns]
    if not fields:
        issue = file_issue(file, "no_fields", f"the file has none of the fields of task {task}")
        return Validation(file, study.name, task, frame, issue)
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
    issues = (
        pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=list(ISSUE_COLUMNS))
    )
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
    return Validation(file, study.name, task, full, issues, joined)


def _labels(
    study: Study, task: str, validation: Validation, source: dict, fields: list[str]
) -> Labels:
    """Labels of the fields the file has; rows aligned by position (a wide file repeats rows)."""
    frame = validation.frame.reset_index(drop=True)
    joined = validation.rows.reset_index(drop=True)
    original = frame[ROW].to_numpy()
    frame[ROW] = joined[ROW] = np.arange(len(frame))
    labels = to_labels(study, task, frame, joined, source, fields)
    return labels.with_source_rows(original[labels.table["source_row"].to_numpy()])


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
    """Validate and load one file of existing annotations, all of it or nothing, through the
    returns' commit (:func:`raterlab.ingest.run.commit`): archived by content hash first, a
    rejected file quarantined with its report, the outcome in ``staging.ingests``."""
    store.ensure_tables(con)
    received = receive(study, path, home)
    if store.known_outcome(con, study.name, received.sha256) is not None:
        return IngestResult(received.file, received.sha256, "unchanged")
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
    validation = validate_import(study, task, frame, items, received.file)

    def labels_from(study: Study, files: list[Validated]) -> list[Labels | None]:
        fields = [f for f in study.tasks[task].fields if f in frame.columns]
        return [
            _labels(study, task, validation, source_of(received), fields) if validation.ok else None
            for received, validation in files
        ]

    return commit(study, received, validation, home, con, labels_from)
