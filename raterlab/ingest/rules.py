"""Validation rules generated from a study's task.

:func:`task_rules` turns the protocol into rules (type, range, allowed values, required,
conditional requirements, logical constraints, skip reasons, time spent), each a Polars
expression over the file's text cells (:mod:`raterlab.ingest.cells`) that is true where a
row passes. :mod:`raterlab.ingest.row_checks` makes them the checks of the Pandera schema that
validates every returned file.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from raterlab.ingest import cells
from raterlab.protocol import (
    SKIP_VALUE,
    BinaryField,
    CategoricalField,
    LikertField,
    ListField,
    PairwiseField,
    Study,
    Task,
    TextField,
)
from raterlab.protocol.answers import answers
from raterlab.protocol.rules import ConditionalRequirement, Constraint

TIME_COLUMN = "time_spent_s"


@dataclass(frozen=True)
class Rule:
    """A row-wise check of ``column``: ``valid`` is true where a row passes."""

    name: str
    column: str
    message: str
    valid: pl.Expr


def _domain_rules(task: Task, name: str) -> list[Rule]:
    """The rules that a choice field's cell is one of its answers
    (:func:`raterlab.protocol.answers.answers`, what every front end offers) or empty."""
    spec = task.fields[name]
    offered = answers(spec)
    codes = [a.code for a in offered if a.code != SKIP_VALUE]
    skip = len(codes) < len(offered)
    allowed = cells.empty(name) | cells.skipped(name) if skip else cells.empty(name)
    or_skip = ", or skip" if skip else ""
    if isinstance(spec, BinaryField):
        test = cells.binary(name).is_in([float(c) for c in codes]).fill_null(False)
        words = " or ".join(a.value for a in offered if a.code != SKIP_VALUE)
        listed = " or ".join(str(c) for c in codes)
        message = f"{name} must be {listed} ({words}){or_skip}"
        return [Rule("type", name, message, allowed | test)]
    if isinstance(spec, LikertField):
        whole = cells.whole(name)
        in_range = cells.number(name).is_between(codes[0], codes[-1]).fill_null(False)
        return [
            Rule("type", name, f"{name} must be a whole number", allowed | whole),
            Rule(
                "range",
                name,
                f"{name} must be between {codes[0]} and {codes[-1]}",
                ~whole | in_range,
            ),
        ]
    if codes:
        labels = tuple(str(c) for c in codes)
        listed = ", ".join(a.value for a in offered)
        test = cells.label(name, labels).is_not_null()
        return [Rule("allowed_values", name, f"{name} must be one of: {listed}", allowed | test)]
    return []


def _missing(task: Task, name: str) -> pl.Expr:
    """Where a field counts as not given: an empty cell, or for free text a placeholder
    (``N/A``, ``-``, a zero-width space; see :func:`raterlab.ingest.cells.blank`)."""
    if isinstance(task.fields[name], TextField | ListField):
        return cells.blank(name)
    return cells.empty(name)


def _required_rule(task: Task, name: str) -> Rule:
    return Rule("required", name, f"{name} is required", ~_missing(task, name))


def _skip_rule(task: Task, name: str, reason: str) -> Rule:
    return Rule(
        "skip_reason",
        reason,
        f"{name} is 'skip', so {reason} must give the reason",
        ~cells.skipped(name) | ~_missing(task, reason),
    )


def _matches(task: Task, name: str, values: list) -> pl.Expr:
    spec = task.fields[name]
    if isinstance(spec, BinaryField):
        found = cells.binary(name).is_in([float(v) for v in values])
    elif isinstance(spec, LikertField):
        found = cells.number(name).is_in([float(v) for v in values])
    elif isinstance(spec, PairwiseField):  # the answer as written: left, right, tie
        found = cells.lower(name).is_in([str(v).lower() for v in values])
    elif isinstance(spec, CategoricalField):
        found = cells.label(name, tuple(spec.labels)).is_in([str(v) for v in values])
    else:
        found = cells.lower(name).is_in([str(v).lower() for v in values])
    return found.fill_null(False)


def _conditional_rules(task: Task, rule: ConditionalRequirement) -> list[Rule]:
    values = " or ".join(str(v) for v in rule.when.in_)
    fields = ", ".join(rule.when.any_of)
    trigger = pl.any_horizontal([_matches(task, f, rule.when.in_) for f in rule.when.any_of])
    return [
        Rule(
            "conditional",
            required,
            rule.message or f"{required} is required when {fields} is {values}",
            ~trigger | ~_missing(task, required),
        )
        for required in rule.require
    ]


def _constraint_rule(constraint: Constraint) -> Rule:
    a, b, want = constraint.antecedent, constraint.consequent, float(constraint.required_consequent)
    consequent = cells.binary(b)
    return Rule(
        "constraint",
        b,
        f"{constraint}: when {a} is 1, {b} must be {int(want)}",
        cells.binary(a).ne_missing(1.0) | consequent.is_null() | consequent.eq_missing(want),
    )


def _fixed_rules(study: Study) -> list[Rule]:
    layout = study.packet
    optional = layout.time_spent != "required"
    seconds = cells.number(TIME_COLUMN)
    time_valid = (seconds.is_finite() & (seconds >= 0)).fill_null(False)
    return [
        Rule("required", "annotator_id", "annotator_id is required", ~cells.empty("annotator_id")),
        Rule("required", "item", f"{layout.item_column} is required", ~cells.empty("item")),
        Rule(
            "time_spent",
            TIME_COLUMN,
            f"{layout.time_column} must be a finite number of seconds, 0 or more"
            + (" (or empty)" if optional else ""),
            time_valid | cells.empty(TIME_COLUMN) if optional else time_valid,
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
