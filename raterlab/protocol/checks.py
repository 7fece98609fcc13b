"""Checks across a parsed study: every name a rule uses must exist, with the right type.

Each problem is a ``(yaml_path, sentence)`` pair, e.g.
``("tasks.retrieval.constraints[0]", "refers to unknown field 'topically_relevent'")``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from raterlab.protocol.fields import BinaryField, LikertField, TextField
from raterlab.protocol.rules import AllOf, ItemPredicate
from raterlab.protocol.study import BUILTIN_SLICES, RECORD_KEYS, Study, Task

RESERVED_COLUMNS = ("item", "annotator_id", "time_spent_s")
"""Columns every packet template has besides the task's fields."""

Problem = tuple[str, str]
IDENTIFIER = re.compile(r"^[a-z][a-z0-9_]*$")
IDENTIFIER_RULE = "must be lowercase letters, digits and '_', starting with a letter"


def check_study(study: Study) -> list[Problem]:
    """All reference problems in ``study`` (empty when it is consistent)."""
    return [
        *_check_names(study),
        *_check_files(study),
        *(p for name, task in study.tasks.items() for p in _check_task(f"tasks.{name}", task)),
        *_check_design(study),
        *_check_item_references(study),
        *_check_thresholds(study),
        *_check_edge_cases(study),
        *_check_exports(study),
        *_check_comparison(study),
    ]


def _check_names(study: Study) -> Iterator[Problem]:
    """Task and field names become file names, column names and SQL identifiers."""
    for task_name, task in study.tasks.items():
        if not IDENTIFIER.match(task_name):
            yield f"tasks.{task_name}", f"task name {task_name!r} {IDENTIFIER_RULE}"
        for name in task.fields:
            if not IDENTIFIER.match(name):
                yield f"tasks.{task_name}.fields.{name}", f"field name {name!r} {IDENTIFIER_RULE}"


def _unknown_field(task: Task, name: str) -> str | None:
    return None if name in task.fields else f"refers to unknown field {name!r}"


def _check_files(study: Study) -> Iterator[Problem]:
    for key in ("generations", "guide"):
        relative = getattr(study, key)
        if relative and study.source and not study.path_of(relative).is_file():
            yield key, f"file {relative!r} does not exist next to the study file"


def _check_task(path: str, task: Task) -> Iterator[Problem]:
    for key in set(task.shown) & set(task.hidden):
        yield f"{path}.hidden", f"key {key!r} is both shown and hidden"
    for key in task.item_keys:
        if key in RECORD_KEYS:
            yield f"{path}.shown", f"{key!r} is a record key, not an item key"
    for name, spec in task.fields.items():
        if name in RESERVED_COLUMNS:
            yield f"{path}.fields.{name}", f"{name!r} is a reserved packet column"
        if spec.skip is not None:
            reason = task.fields.get(spec.skip.reason)
            if not isinstance(reason, TextField):
                yield (
                    f"{path}.fields.{name}.skip.reason",
                    f"must name a text field of this task, not {spec.skip.reason!r}",
                )
    for i, rule in enumerate(task.conditional):
        where = f"{path}.conditional[{i}]"
        for name in [*rule.require, *rule.when.any_of]:
            if problem := _unknown_field(task, name):
                yield where, problem
        for name in rule.when.any_of:
            domain = task.fields[name].domain() if name in task.fields else None
            bad = [v for v in rule.when.in_ if domain is not None and v not in domain]
            if bad:
                yield where, f"values {bad} are not allowed for field {name!r}"
    for i, constraint in enumerate(task.constraints):
        where = f"{path}.constraints[{i}]"
        for name in (constraint.antecedent, constraint.consequent):
            if problem := _unknown_field(task, name):
                yield where, problem
            elif not isinstance(task.fields[name], BinaryField):
                yield where, f"field {name!r} is not binary; constraints relate binary fields"


def _check_design(study: Study) -> Iterator[Problem]:
    tiers = study.routing.tiers
    for tier in tiers:
        if tier not in study.design.overlap:
            yield "design.overlap", f"tier {tier!r} (from routing) has no overlap"
    for tier in study.design.overlap:
        if tier not in tiers:
            yield "design.overlap", f"tier {tier!r} is never assigned by routing"
    for tier in study.consensus.adjudicate.binary_disagreement_tiers:
        if tier not in tiers:
            yield "consensus.adjudicate.binary_disagreement_tiers", f"unknown tier {tier!r}"


def _predicates(when: ItemPredicate | AllOf) -> list[ItemPredicate]:
    return list(when.all_of) if isinstance(when, AllOf) else [when]


def _check_item_references(study: Study) -> Iterator[Problem]:
    keys = study.item_keys() | {"task"}
    for i, rule in enumerate(study.routing.rules):
        for pred in _predicates(rule.when):
            if pred.field not in keys:
                yield f"routing.rules[{i}]", f"refers to unknown item key {pred.field!r}"
    if study.sampling:
        for key in study.sampling.strata:
            if key not in keys:
                yield "sampling.strata", f"refers to unknown item key {key!r}"
    for i, key in enumerate(study.slices):
        if key not in keys and key not in BUILTIN_SLICES:
            yield f"slices[{i}]", f"refers to unknown item key {key!r}"


def _check_thresholds(study: Study) -> Iterator[Problem]:
    ratings = {f for task in study.tasks.values() for f in task.rating_fields}
    gate = study.thresholds.pilot_gate
    named = [("thresholds.pilot_gate", gate)] if gate else []
    named += [(f"thresholds.minimums[{i}]", t) for i, t in enumerate(study.thresholds.minimums)]
    for where, threshold in named:
        for name in threshold.fields or []:
            if name not in ratings:
                yield where, f"refers to unknown rating field {name!r}"
    if gate and not study.design.pilot:
        yield "thresholds.pilot_gate", "a pilot gate needs design.pilot"


def _check_edge_cases(study: Study) -> Iterator[Problem]:
    for i, case in enumerate(study.edge_cases):
        where = f"edge_cases[{i}]"
        task = study.tasks.get(case.task)
        if task is None:
            yield where, f"refers to unknown task {case.task!r}"
            continue
        for pred in _predicates(case.when):
            if pred.field not in task.item_keys:
                yield where, f"refers to unknown item key {pred.field!r}"
        for name, value in case.expect.items():
            if problem := _unknown_field(task, name):
                yield where, problem
            elif (domain := task.fields[name].domain()) is not None and value not in domain:
                yield where, f"expects {value!r} for {name!r}, which is outside its domain"


def _check_exports(study: Study) -> Iterator[Problem]:
    from raterlab.exports import FORMATS  # the exporters import the study model

    for i, name in enumerate(study.exports):
        if name not in FORMATS:
            known = ", ".join(sorted(FORMATS))
            yield f"exports[{i}]", f"unknown export format {name!r} (known: {known})"


def _check_comparison(study: Study) -> Iterator[Problem]:
    comparison = study.comparison
    if comparison is None:
        return
    keys = study.item_keys() | {"task", "tier"}
    named = [("by", comparison.by)]
    named += [("pair", comparison.pair)] if comparison.pair else []
    named += [(f"slices[{i}]", key) for i, key in enumerate(comparison.slices)]
    for where, key in named:
        if key not in keys:
            yield f"comparison.{where}", f"refers to unknown item key {key!r}"
    numeric = {
        name
        for task in study.tasks.values()
        for name in task.rating_fields
        if isinstance(task.fields[name], BinaryField | LikertField)
    }
    for i, name in enumerate(comparison.fields or []):
        if name not in numeric:
            yield f"comparison.fields[{i}]", f"{name!r} is not a binary or Likert rating field"
