"""What the ingest checks look at: pending files, coverage of the assignment, and rule
violations in accepted data (there must be none), plus the wide view per task."""

from __future__ import annotations

from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

from raterlab.design.packets import template_columns
from raterlab.ingest.read import ROW
from raterlab.ingest.row_checks import failures
from raterlab.ingest.rules import TIME_COLUMN, task_rules
from raterlab.protocol import ConfidenceField, PairwiseField, Study
from raterlab.protocol.pairwise import stored_as_answer


def pending_files(inbox: Path) -> list[Path]:
    """Files in a study's inbox folder (hidden and partial files excluded), oldest first."""
    if not inbox.is_dir():
        return []
    files = [p for p in inbox.iterdir() if p.is_file() and not p.name.startswith((".", "~$"))]
    return sorted(files, key=lambda p: (p.stat().st_mtime, p.name))


def coverage(key: pd.DataFrame, labels: pd.DataFrame) -> pd.DataFrame:
    """Per annotator: assigned rows, rows returned in accepted files, and the share."""
    assigned = key.groupby("annotator_id").size().rename("assigned")
    returned = labels.drop_duplicates("token").groupby("annotator_id").size().rename("returned")
    table = pd.concat([assigned, returned], axis=1).fillna(0).astype(int)
    table["share"] = (table["returned"] / table["assigned"]).round(4)
    return table.reset_index()


def wide_text(study: Study, task: str, labels: pd.DataFrame) -> pd.DataFrame:
    """Accepted labels of one task back in the shape of a returned file (text cells); a
    pairwise value (stored canonically) written as an answer to the pair shown unswapped."""
    rows = labels[labels["task"] == task]
    wide = rows.pivot_table(index="rating_id", columns="field", values="value", aggfunc="first")
    meta = rows.groupby("rating_id")[
        ["token", "annotator_id", "time_spent_s", "confidence", "round"]
    ].first()
    wide = meta.join(wide).reset_index(drop=True).rename(columns={"token": "item"})
    confidence = [n for n, s in study.tasks[task].fields.items() if isinstance(s, ConfidenceField)]
    for name in confidence:
        wide[name] = wide["confidence"]
    wide[TIME_COLUMN] = wide["time_spent_s"].map(lambda v: "" if pd.isna(v) else f"{v:g}")
    for column in template_columns(study, task):
        if column not in wide:
            wide[column] = ""
    for name, spec in study.tasks[task].fields.items():
        if isinstance(spec, PairwiseField):
            wide[name] = wide[name].map(stored_as_answer)
    imported = (wide["round"] == "import").to_numpy()
    wide = wide[template_columns(study, task)].fillna("").astype(str)
    wide.insert(0, ROW, np.arange(len(wide)))
    wide.attrs["imported"] = imported
    return wide


FILE_COLUMNS = ("annotator_id", "item", TIME_COLUMN)
"""Columns whose rules concern how a file was filled in, not the labels themselves."""


def accepted_violations(study: Study, labels: pd.DataFrame) -> pd.DataFrame:
    """Ratings in accepted data that break a rule of their task (there should be none).

    Imported ratings may carry only some fields, so ``required`` is not applied to them.
    """
    found = []
    for task in study.tasks:
        if not (labels["task"] == task).any():
            continue
        wide = wide_text(study, task, labels)
        rules = [r for r in task_rules(study, task) if r.column not in FILE_COLUMNS]
        broken = failures(wide, rules, f"{study.name}.{task}")
        at = broken["position"].to_numpy(dtype=np.int64)
        broken = broken[~((broken["rule"] == "required").to_numpy() & wide.attrs["imported"][at])]
        first = broken.groupby(["rule", "column"], sort=False).head(20)
        items = wide["item"].to_numpy()[first["position"].to_numpy(dtype=np.int64)]
        found.append(first.assign(task=task, item=items))
    columns = ["task", "item", "rule", "column", "message"]
    return (
        pd.concat([f[columns] for f in found], ignore_index=True)
        if found
        else pd.DataFrame(columns=columns)
    )


def create_wide_views(con: duckdb.DuckDBPyConnection, study: Study) -> list[str]:
    """``gold.<study>__<task>``: one row per rating (item, annotator, copy), a column per field.

    Study, task and field names are checked names (letters, digits, ``_``, ``-`` in task
    names), written quoted into the view's SQL; no value is.
    """
    names = []
    for task_name, task in study.tasks.items():
        fields = [n for n, s in task.fields.items() if not isinstance(s, ConfidenceField)]
        view = f'gold."{study.name}__{task_name}"'
        columns = ", ".join(f"max(value) FILTER (WHERE field = '{f}') AS \"{f}\"" for f in fields)
        con.execute(
            f"""CREATE OR REPLACE VIEW {view} AS
                SELECT item_id, annotator_id, kind, copy, round, batch,
                       any_value(confidence) AS confidence,
                       any_value(time_spent_s) AS time_spent_s, {columns},
                       any_value(source_file) AS source_file
                FROM gold.labels
                WHERE study = '{study.name}' AND task = '{task_name}'
                GROUP BY item_id, annotator_id, kind, copy, round, batch"""
        )
        names.append(view)
    return names
