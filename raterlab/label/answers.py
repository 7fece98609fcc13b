"""Answers of one item as the returned file's text cells, checked with ingest's own rules, and
converted to and from the plugin protocol's ``HumanLabel`` shape.

The check builds the one-row frame a returned file would hold and validates it with the
task's Pandera schema (:func:`raterlab.ingest.schema.failures`): the same code ingest runs,
so an answer the tool accepts is an answer ingest accepts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pandas as pd

from raterlab.design.packets import template_columns
from raterlab.ingest.cells import TRUE_WORDS
from raterlab.ingest.rules import TIME_COLUMN, task_rules
from raterlab.ingest.schema import failures
from raterlab.protocol import (
    LIST_SEPARATOR,
    SKIP_VALUE,
    BinaryField,
    LikertField,
    ListField,
    Study,
)


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


def id_key(unit: str) -> str:
    """The id key of an exported label: ``scenarioId`` for unit ``scenario``, else ``itemId``."""
    return f"{camel(unit)}Id" if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", unit) else "itemId"


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def to_label(study: Study, task: str, answers: dict[str, str]) -> dict[str, object]:
    """Typed values keyed in camelCase (the protocol's ``HumanLabel``), from text cells."""
    fields = study.tasks[task].fields
    label: dict[str, object] = {}
    for name, spec in fields.items():
        text = answers.get(name, "").strip()
        if not text:
            continue
        if text.lower() == SKIP_VALUE and spec.skip is not None:
            label["skipped"] = True
            label[camel(name)] = SKIP_VALUE
        elif isinstance(spec, BinaryField):
            label[camel(name)] = text.lower() in TRUE_WORDS
        elif isinstance(spec, LikertField):
            label[camel(name)] = int(float(text))
        elif isinstance(spec, ListField):
            label[camel(name)] = [p.strip() for p in text.split(LIST_SEPARATOR) if p.strip()]
        else:
            label[camel(name)] = text
    return label


def from_label(study: Study, task: str, label: dict[str, object]) -> dict[str, str]:
    """The text cells of a ``HumanLabel`` (inverse of :func:`to_label`)."""
    answers = {}
    for name in study.tasks[task].fields:
        value = label.get(camel(name))
        if value is None:
            continue
        if isinstance(value, bool):
            answers[name] = "1" if value else "0"
        elif isinstance(value, list):
            answers[name] = f"{LIST_SEPARATOR} ".join(str(v) for v in value)
        else:
            answers[name] = str(value)
    return answers
