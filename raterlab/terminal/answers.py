"""Answers of one item as the returned file's text cells, checked with ingest's own rules, and
converted to and from the plugin protocol's ``HumanLabel`` shape.

The check builds the one-row frame a returned file would hold and validates it with the
task's Pandera schema (:func:`raterlab.ingest.row_checks.failures`): the same code ingest runs,
so an answer the tool accepts is an answer ingest accepts. The study's edge cases (guide rules
ingest reports as warnings) are checked the same way, by ingest's
:func:`raterlab.ingest.validate.edge_case_warnings` on that row.

This module imports pandas and the ingest; the tool imports it after its first screen.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from raterlab.design.packets import template_columns
from raterlab.ingest.cells import TRUE_WORDS
from raterlab.ingest.read import ROW
from raterlab.ingest.row_checks import failures
from raterlab.ingest.rules import TIME_COLUMN, task_rules
from raterlab.ingest.validate import Context, edge_case_warnings
from raterlab.protocol import (
    LIST_SEPARATOR,
    SKIP_VALUE,
    BinaryField,
    LikertField,
    ListField,
    Study,
)
from raterlab.protocol.rules import AllOf
from raterlab.terminal.names import camel

SKIPPED_FIELDS = "skippedFields"
"""Key of a label naming its skipped fields, written only when the task has several fields
that can be skipped (``skipped: true`` alone would not say which)."""


@dataclass(frozen=True)
class Problem:
    column: str
    rule: str
    message: str


def row_cells(
    study: Study, task: str, annotator: str, token: str, answers: dict[str, str], seconds: float
) -> dict[str, str]:
    """The returned file's row for one item (every template column, text cells)."""
    row = dict.fromkeys(template_columns(study, task), "")
    row.update({k: v for k, v in answers.items() if k in row})
    row.update({"annotator_id": annotator, "item": token, TIME_COLUMN: f"{seconds:.1f}"})
    return row


def problems(study: Study, task: str, row: dict[str, str]) -> list[Problem]:
    """Every rule of the task that the row breaks, in rule order."""
    found = failures(pd.DataFrame([row], dtype=str), task_rules(study, task), task)
    return [
        Problem(column, rule, message)
        for column, rule, message in found[["column", "rule", "message"]].itertuples(index=False)
    ]


def edge_warnings(study: Study, task: str, shown: dict, row: dict[str, str]) -> list[str]:
    """The study's edge-case warnings ingest would report for this row, for the edge cases
    whose condition the item's shown values decide (one on a hidden key is not checked here:
    the tool never sees hidden keys)."""
    applies = tuple(
        frozenset({"this"})
        if case.task == task and _decided_by(case.when, shown) and case.when.matches(shown)
        else frozenset()
        for case in study.edge_cases
    )
    if not any(applies):
        return []
    frame = pd.DataFrame([row], dtype=str)
    frame.insert(0, ROW, [2])
    joined = pd.DataFrame({ROW: [2], "item_id": ["this"]})
    found = edge_case_warnings(study, task, frame, joined, Context(None, applies), "this item")
    answered = found["column"].map(lambda column: bool(row.get(column, "").strip()))
    return list(dict.fromkeys(found.loc[answered, "message"]))


def _decided_by(when, shown: dict) -> bool:
    predicates = when.all_of if isinstance(when, AllOf) else [when]
    return all(p.field in shown for p in predicates)


def to_label(study: Study, task: str, answers: dict[str, str]) -> dict[str, object]:
    """Typed values keyed in camelCase (the protocol's ``HumanLabel``), from text cells: a
    skipped field is left out and the label gets ``skipped: true`` (its reason is the skip
    reason field's own key, ``skipReason``)."""
    fields = study.tasks[task].fields
    label: dict[str, object] = {}
    skipped = []
    for name, spec in fields.items():
        text = answers.get(name, "").strip()
        if not text:
            continue
        if text.lower() == SKIP_VALUE and spec.skip is not None:
            skipped.append(name)
        elif isinstance(spec, BinaryField):
            label[camel(name)] = text.lower() in TRUE_WORDS
        elif isinstance(spec, LikertField):
            label[camel(name)] = int(float(text))
        elif isinstance(spec, ListField):
            label[camel(name)] = [p.strip() for p in text.split(LIST_SEPARATOR) if p.strip()]
        else:
            label[camel(name)] = text
    if skipped:
        label["skipped"] = True
        if sum(spec.skip is not None for spec in fields.values()) > 1:
            label[SKIPPED_FIELDS] = skipped
    return label


def from_label(study: Study, task: str, label: dict[str, object]) -> dict[str, str]:
    """The text cells of a ``HumanLabel`` (inverse of :func:`to_label`)."""
    fields = study.tasks[task].fields
    skippable = [name for name, spec in fields.items() if spec.skip is not None]
    skipped = label.get(SKIPPED_FIELDS, skippable) if label.get("skipped") else []
    answers = {}
    for name in fields:
        value = label.get(camel(name))
        if value is None:
            if name in skipped:
                answers[name] = SKIP_VALUE
            continue
        if isinstance(value, bool):
            answers[name] = "1" if value else "0"
        elif isinstance(value, list):
            answers[name] = f"{LIST_SEPARATOR} ".join(str(v) for v in value)
        else:
            answers[name] = str(value)
    return answers
