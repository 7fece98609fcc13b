"""Validation rules generated from a study's task: one list, two uses.

:func:`task_rules` turns the protocol into rules (type, range, allowed values, required,
conditional requirements, logical constraints, skip reasons, time spent). :func:`task_schema`
wraps the same rules as a Pandera ``DataFrameSchema`` (the published contract of a returned
file); :func:`raterlab.ingest.validate.evaluate` evaluates them directly, vectorized, so that a
file where every row is broken is summarised in seconds (Pandera's lazy mode builds a failure
case object per cell, which is what makes it slow on large broken files).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pandera.pandas as pa

from raterlab.design.packets import template_columns
from raterlab.ingest.cells import Cells
from raterlab.protocol import (
    BinaryField,
    CategoricalField,
    ConfidenceField,
    LikertField,
    ListField,
    Study,
    Task,
    TextField,
)
from raterlab.protocol.fields import CONFIDENCE_LEVELS
from raterlab.protocol.rules import ConditionalRequirement, Constraint

TIME_COLUMN = "time_spent_s"


@dataclass(frozen=True)
class Rule:
    """A row-wise check: ``valid(cells)`` is True where a row passes."""

    name: str
    column: str
    message: str
    valid: Callable[[Cells], np.ndarray]


def _domain_rules(task: Task, name: str) -> list[Rule]:
    spec = task.fields[name]
    skip = spec.skip is not None

    def ok_or(cells: Cells, test: np.ndarray) -> np.ndarray:
        allowed = cells.empty(name) | test
        return allowed | cells.skipped(name) if skip else allowed

    if isinstance(spec, BinaryField):
        return [
            Rule(
                "type",
                name,
                f"{name} must be 1 or 0 (yes or no)",
                lambda c: ok_or(c, ~np.isnan(c.binary(name))),
            ),
        ]
    if isinstance(spec, LikertField):
        low, high = spec.min, spec.max
        return [
            Rule("type", name, f"{name} must be a whole number", lambda c: ok_or(c, c.whole(name))),
            Rule(
                "range",
                name,
                f"{name} must be between {low} and {high}",
                lambda c: ~c.whole(name) | ((c.number(name) >= low) & (c.number(name) <= high)),
            ),
        ]
    if isinstance(spec, CategoricalField | ConfidenceField):
        labels = tuple(spec.labels) if isinstance(spec, CategoricalField) else CONFIDENCE_LEVELS
        listed = ", ".join(labels) + (", skip" if skip else "")
        return [
            Rule(
                "allowed_values",
                name,
                f"{name} must be one of: {listed}",
                lambda c: ok_or(c, pd.notna(c.label(name, labels))),
            ),
        ]
    return []


def _missing(task: Task, name: str) -> Callable[[Cells], np.ndarray]:
    """Where a field counts as not given: an empty cell, or for free text a placeholder
    (``N/A``, ``-``, a zero-width space; see :meth:`Cells.blank`)."""
    if isinstance(task.fields[name], TextField | ListField):
        return lambda c: c.blank(name)
    return lambda c: c.empty(name)


def _required_rule(task: Task, name: str) -> Rule:
    missing = _missing(task, name)
    return Rule("required", name, f"{name} is required", lambda c: ~missing(c))


def _skip_rule(task: Task, name: str, reason: str) -> Rule:
    missing = _missing(task, reason)
    return Rule(
        "skip_reason",
        reason,
        f"{name} is 'skip', so {reason} must give the reason",
        lambda c: ~c.skipped(name) | ~missing(c),
    )


def _matches(task: Task, cells: Cells, name: str, values: list) -> np.ndarray:
    spec = task.fields[name]
    if isinstance(spec, BinaryField):
        return np.isin(cells.binary(name), [float(v) for v in values])
    if isinstance(spec, LikertField):
        return np.isin(cells.number(name), [float(v) for v in values])
    if isinstance(spec, CategoricalField):
        return np.isin(cells.label(name, tuple(spec.labels)), values)
    return np.isin(cells.lower(name), [str(v).lower() for v in values])


def _conditional_rules(task: Task, rule: ConditionalRequirement) -> list[Rule]:
    values = " or ".join(str(v) for v in rule.when.in_)
    fields = ", ".join(rule.when.any_of)

    def trigger(cells: Cells) -> np.ndarray:
        return np.logical_or.reduce(
            [_matches(task, cells, f, rule.when.in_) for f in rule.when.any_of]
        )

    def rule_for(required: str) -> Rule:
        missing = _missing(task, required)
        return Rule(
            "conditional",
            required,
            rule.message or f"{required} is required when {fields} is {values}",
            lambda c: ~trigger(c) | ~missing(c),
        )

    return [rule_for(required) for required in rule.require]


def _constraint_rule(constraint: Constraint) -> Rule:
    a, b, want = constraint.antecedent, constraint.consequent, float(constraint.required_consequent)
    return Rule(
        "constraint",
        b,
        f"{constraint}: when {a} is 1, {b} must be {int(want)}",
        lambda c: (c.binary(a) != 1) | np.isnan(c.binary(b)) | (c.binary(b) == want),
    )


def _time_valid(c: Cells, optional: bool) -> np.ndarray:
    """A finite number of seconds, 0 or more; with optional time, an empty cell or no column too."""
    if TIME_COLUMN not in c.frame:
        return np.full(len(c), optional)
    number = c.number(TIME_COLUMN)
    seconds = np.isfinite(number) & (np.nan_to_num(number, nan=-1) >= 0)
    return seconds | c.empty(TIME_COLUMN) if optional else seconds


def _fixed_rules(study: Study) -> list[Rule]:
    layout = study.packet
    optional = layout.time_spent == "optional"
    return [
        Rule(
            "required",
            "annotator_id",
            "annotator_id is required",
            lambda c: ~c.empty("annotator_id"),
        ),
        Rule("required", "item", f"{layout.item_column} is required", lambda c: ~c.empty("item")),
        Rule(
            "time_spent",
            TIME_COLUMN,
            f"{layout.time_column} must be a finite number of seconds, 0 or more"
            + (" (or empty)" if optional else ""),
            lambda c: _time_valid(c, optional),
        ),
    ]


def task_rules(study: Study, task_name: str) -> list[Rule]:
    """Every row rule of a task's returned file, in a stable order."""
    task = study.tasks[task_name]
    rules = _fixed_rules(study)
    for name, spec in task.fields.items():
        rules += _domain_rules(task, name)
        if task.is_required(name):
            rules.append(_required_rule(task, name))
        if spec.skip is not None:
            rules.append(_skip_rule(task, name, spec.skip.reason))
    for conditional in task.conditional:
        rules += _conditional_rules(task, conditional)
    rules += [_constraint_rule(c) for c in task.constraints]
    return rules


def task_schema(study: Study, task_name: str) -> pa.DataFrameSchema:
    """The Pandera schema of a task's returned file (text cells, as read from the file, with
    the item and time columns under their internal names)."""
    rules = task_rules(study, task_name)
    optional = {TIME_COLUMN} if study.packet.time_spent == "optional" else set()
    columns = {
        name: pa.Column(str, nullable=False, required=name not in optional)
        for name in template_columns(study, task_name)
    }
    checks = [
        pa.Check(
            lambda frame, rule=rule: pd.Series(rule.valid(Cells(frame)), index=frame.index),
            name=f"{rule.name}:{rule.column}",
            error=rule.message,
        )
        for rule in rules
    ]
    return pa.DataFrameSchema(
        columns, checks=checks, strict=False, name=f"{study.name}.{task_name}"
    )
