"""Checks across a parsed study: every name a rule uses must exist, with the right type.

Each problem is a ``(yaml_path, sentence)`` pair, e.g.
``("tasks.retrieval.constraints[0]", "refers to unknown field 'topically_relevent'")``.
"""

from __future__ import annotations

from collections.abc import Iterator

from raterlab.protocol.coefficients import (
    ORDERED_ONLY,
    WEIGHTED_COEFFICIENTS,
    design_problem,
    field_problem,
)
from raterlab.protocol.fields import (
    BinaryField,
    CategoricalField,
    LikertField,
    PairwiseField,
    TextField,
)
from raterlab.protocol.names import FIELD_NAME, FIELD_NAME_RULE, TASK_NAME, TASK_NAME_RULE
from raterlab.protocol.pairwise import SHOWN_SIDES, pairwise_fields
from raterlab.protocol.rules import AllOf, ItemPredicate
from raterlab.protocol.study import (
    BUILTIN_SLICES,
    DECISIVE_BETWEEN_RULES,
    EXPORT_FORMATS,
    RECORD_KEYS,
    Study,
    Task,
    Threshold,
)

RESERVED_COLUMNS = ("item", "annotator_id", "time_spent_s")
"""Columns every packet template has besides the task's fields."""

Problem = tuple[str, str]


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
        *_check_packet(study),
        *_check_metrics(study),
        *_check_threshold_design(study),
        *_check_keys(study),
        *_check_judges(study),
        *_check_comparison(study),
    ]


def _check_packet(study: Study) -> Iterator[Problem]:
    """Packet column names must be identifiers distinct from every field, and an explicit
    column order must list exactly the columns a template has."""
    layout = study.packet
    fields = {name for task in study.tasks.values() for name in task.fields}
    named = {"item_column": layout.item_column, "time_column": layout.time_column}
    for key, name in named.items():
        if not FIELD_NAME.match(name):
            yield f"packet.{key}", f"column name {name!r} {FIELD_NAME_RULE}"
        elif name in fields or name == "annotator_id":
            yield f"packet.{key}", f"{name!r} is already a field or packet column"
    if layout.item_column == layout.time_column:
        yield "packet.time_column", "must differ from packet.item_column"
    hidden = study.hidden_keys()
    for name in layout.guide_may_name:
        if name not in hidden:
            yield "packet.guide_may_name", f"{name!r} is not a hidden key of any task"
    if layout.columns is None:
        return
    want = {layout.item_column, "annotator_id", *fields}
    if layout.time_spent != "optional":
        want.add(layout.time_column)
    listed = layout.columns
    for name in sorted({n for n in listed if listed.count(n) > 1}):
        yield "packet.columns", f"column {name!r} is listed more than once"
    for name in [n for n in listed if n not in want]:
        yield "packet.columns", f"{name!r} is not a column of the template"
    for name in sorted(want - set(listed)):
        yield "packet.columns", f"column {name!r} is missing"


def _check_names(study: Study) -> Iterator[Problem]:
    """Task and field names become file names, column names and (quoted) SQL identifiers, so
    a protocol's own names fit (``trigger-accuracy``, ``triggerCorrect``). SQL identifiers are
    case-insensitive, so two fields of a task may not differ only in case."""
    for task_name, task in study.tasks.items():
        if not TASK_NAME.match(task_name):
            yield f"tasks.{task_name}", f"task name {task_name!r} {TASK_NAME_RULE}"
        seen: dict[str, str] = {}
        for name in task.fields:
            if not FIELD_NAME.match(name):
                yield f"tasks.{task_name}.fields.{name}", f"field name {name!r} {FIELD_NAME_RULE}"
            if name.lower() in seen:
                yield (
                    f"tasks.{task_name}.fields.{name}",
                    f"field name {name!r} differs from {seen[name.lower()]!r} only in case",
                )
            seen.setdefault(name.lower(), name)


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
            spec = task.fields.get(name)
            domain = spec.domain() if spec is not None else None
            if isinstance(spec, PairwiseField):  # a rule reads the answer as written
                domain = spec.answers_seen()
            bad = [v for v in rule.when.in_ if domain is not None and v not in domain]
            if bad:
                yield where, f"values {bad} are not allowed for field {name!r}"
    yield from _check_renamed(f"{path}.renamed", task)
    yield from _check_pairwise(path, task)
    for i, constraint in enumerate(task.constraints):
        where = f"{path}.constraints[{i}]"
        for name in (constraint.antecedent, constraint.consequent):
            if problem := _unknown_field(task, name):
                yield where, problem
            elif not isinstance(task.fields[name], BinaryField):
                yield where, f"field {name!r} is not binary; constraints relate binary fields"


def _check_pairwise(path: str, task: Task) -> Iterator[Problem]:
    """A pairwise field only in a pairwise task; a pairwise task shows both sides, hides
    its ``by`` key, declares its prompt key and has a pairwise field."""
    block = task.pairwise
    if block is None:
        for name in pairwise_fields(task):
            yield f"{path}.fields.{name}", "a pairwise field needs the task's pairwise: block"
        return
    for side in SHOWN_SIDES:
        if side not in task.shown:
            yield f"{path}.shown", f"a pairwise task shows {side!r}"
    if block.by not in task.hidden:
        yield f"{path}.pairwise.by", f"{block.by!r} must be a hidden key of the task"
    if block.prompt not in task.item_keys:
        yield f"{path}.pairwise.prompt", f"{block.prompt!r} is not a shown or hidden key"
    if block.response in task.item_keys:
        yield (
            f"{path}.pairwise.response",
            f"{block.response!r} is shown as response_left/response_right; do not declare it",
        )
    if not pairwise_fields(task):
        yield f"{path}.fields", "a pairwise task needs a field of type pairwise"


def _check_renamed(path: str, task: Task) -> Iterator[Problem]:
    """Each rename maps a name the task no longer has to one of its fields, one old name per
    field."""
    for old, new in task.renamed.items():
        if old in task.fields:
            yield (
                f"{path}.{old}",
                f"{old!r} is still a field of this task; a renamed field's old name must be gone",
            )
        if problem := _unknown_field(task, new):
            yield f"{path}.{old}", problem
    twice = sorted({n for n in task.renamed.values() if list(task.renamed.values()).count(n) > 1})
    for new in twice:
        yield path, f"several old fields are renamed to {new!r}; one field's ratings per field"


def _check_design(study: Study) -> Iterator[Problem]:
    tiers = study.routing.tiers
    for tier in tiers:
        if tier not in study.design.overlap:
            yield "design.overlap", f"tier {tier!r} (from routing) has no overlap"
    for tier in study.design.overlap:
        if tier not in tiers:
            yield "design.overlap", f"tier {tier!r} is never assigned by routing"
    target = study.quality.target_time_s
    if target and not 0 <= target[0] <= target[1]:
        yield "quality.target_time_s", f"must be [low, high], 0 <= low <= high: {list(target)}"
    between = study.consensus.likert_between
    if between[-1] not in DECISIVE_BETWEEN_RULES:
        yield (
            f"consensus.likert_between[{len(between) - 1}]",
            f"{between[-1]!r} may leave a value between two points; end with one of "
            + ", ".join(DECISIVE_BETWEEN_RULES),
        )
    for tier in study.routing.targets:
        if tier not in tiers:
            yield "routing.targets", f"tier {tier!r} is never assigned by routing"
    for tier in study.tiers:
        if tier not in tiers:
            yield f"tiers.{tier}", f"tier {tier!r} is never assigned by routing"
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
    pilot = study.design.pilot
    if pilot and pilot.by and pilot.by not in keys:
        yield "design.pilot.by", f"refers to unknown item key {pilot.by!r}"
    if study.sampling:
        for key in study.sampling.strata:
            if key not in keys:
                yield "sampling.strata", f"refers to unknown item key {key!r}"
    for key in study.export_keys:
        if key not in keys - {"task"}:
            yield f"export_keys.{key}", f"refers to unknown item key {key!r}"
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
    if gate:
        yield from _check_gate(study, gate)


PAIR_COEFFICIENTS = ("cohen_kappa", "scott_pi")
"""Coefficients defined for exactly two raters."""


def _check_gate(study: Study, gate: Threshold) -> Iterator[Problem]:
    """The gate's coefficient must be computable on the pilot the design produces, exactly as
    declared: the gate never falls back to another coefficient or stays shut for want of one."""
    where = "thresholds.pilot_gate"
    n = len(study.design.annotators)
    if gate.coefficient in PAIR_COEFFICIENTS and n != 2:
        yield (
            where,
            (
                f"{gate.coefficient} is defined for two raters, but the pilot gives every item to "
                f"all {n} annotators of design.annotators"
            ),
        )
    if gate.weights and gate.coefficient not in WEIGHTED_COEFFICIENTS:
        yield f"{where}.weights", f"{gate.coefficient} takes no weights"
    if gate.level and gate.coefficient != "krippendorff_alpha":
        yield f"{where}.level", f"{gate.coefficient} takes no level (krippendorff_alpha does)"
    for task_name, task in study.tasks.items():
        for name in task.rating_fields:
            if gate.fields and name not in gate.fields:
                continue
            spec = task.fields[name]
            field = f"field {task_name}.{name}"
            likert = isinstance(spec, LikertField)
            if gate.coefficient in WEIGHTED_COEFFICIENTS and likert and gate.weights is None:
                yield (
                    f"{where}.weights",
                    (
                        f"{gate.coefficient} on Likert {field} needs weights: unweighted, linear, "
                        "quadratic or ordinal"
                    ),
                )
            if gate.weights not in (None, "unweighted") and not likert:
                yield (
                    f"{where}.weights",
                    f"{gate.weights} weights need a Likert scale; {field} is not",
                )
            if isinstance(spec, CategoricalField) and (
                gate.coefficient in ORDERED_ONLY or gate.level not in (None, "nominal")
            ):
                yield where, f"{gate.coefficient} needs an ordered scale; {field} is categorical"


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
    for i, name in enumerate(study.exports):
        if name not in EXPORT_FORMATS:
            known = ", ".join(sorted(EXPORT_FORMATS))
            yield f"exports[{i}]", f"unknown export format {name!r} (known: {known})"


def _check_metrics(study: Study) -> Iterator[Problem]:
    if study.metrics is None:
        return
    if study.metrics.by and study.metrics.by not in study.item_keys():
        yield "metrics.by", f"refers to unknown item key {study.metrics.by!r}"
    for name, family in study.metrics.families.items():
        where = f"metrics.families.{name}"
        task = study.tasks.get(family.task)
        if task is None:
            yield f"{where}.task", f"refers to unknown task {family.task!r}"
            continue
        for key in ("cluster", "rank"):
            value = getattr(family, key)
            if value and value not in task.item_keys:
                yield (
                    f"{where}.{key}",
                    f"refers to unknown item key {value!r} of task {family.task!r}",
                )
        for metric, spec in family.metrics.items():
            here = f"{where}.metrics.{metric}"
            if not isinstance(task.fields.get(spec.field), BinaryField):
                yield here, f"field {spec.field!r} is not a binary field of task {family.task!r}"
            if spec.k and not family.rank:
                yield here, "k needs the family's rank key"
            if spec.over == "clusters" and not family.cluster:
                yield here, "over: clusters needs the family's cluster key"


def _check_threshold_design(study: Study) -> Iterator[Problem]:
    """A threshold on a coefficient the design or the named fields never produce is an
    error here, not a row that fails forever (see :mod:`raterlab.protocol.coefficients`)."""
    gate = study.thresholds.pilot_gate
    named = [("thresholds.pilot_gate", gate)] if gate else []
    named += [(f"thresholds.minimums[{i}]", t) for i, t in enumerate(study.thresholds.minimums)]
    specs = {n: t.fields[n] for t in study.tasks.values() for n in t.rating_fields}
    for where, threshold in named:
        if problem := design_problem(threshold, study.design):
            yield where, problem
        if threshold.per == "task":
            continue
        for name in threshold.fields or []:
            if name in specs and (problem := field_problem(threshold, specs[name])):
                yield where, f"{name}: {problem}"
        if threshold.slice:
            key = threshold.slice.split("=", 1)[0]
            if "=" not in threshold.slice or key not in [*study.slices, "round"]:
                yield (
                    f"{where}.slice",
                    f"must be 'key=value' with a key of slices, not {threshold.slice!r}",
                )


def _check_keys(study: Study) -> Iterator[Problem]:
    for setting in ("unit_key", "run_key"):
        key = getattr(study, setting)
        if key is None:
            continue
        for name, task in study.tasks.items():
            if key not in task.item_keys:
                yield setting, f"{key!r} is not an item key of task {name!r}"


def _check_judges(study: Study) -> Iterator[Problem]:
    """Judge fields must be rating fields; generations verdicts must be hidden item keys."""
    if study.judges is None:
        return
    shown = {key for task in study.tasks.values() for key in task.shown}
    hidden = study.hidden_keys()
    ratings = {f for task in study.tasks.values() for f in task.rating_fields}
    for key_name in ("group", "system"):
        key = getattr(study.judges, key_name)
        if key is not None and key not in study.item_keys():
            yield f"judges.{key_name}", f"refers to unknown item key {key!r}"
    for name, judge in study.judges.panel.items():
        where = f"judges.panel.{name}"
        keys = [(f"{where}.fields.{f}", k) for f, k in judge.fields.items()]
        if judge.confidence is not None:
            if judge.source == "import":
                yield f"{where}.confidence", "an imported judge's confidence is a file column"
            keys.append((f"{where}.confidence", judge.confidence))
        for field in judge.fields:
            if field not in ratings:
                yield f"{where}.fields.{field}", f"refers to unknown rating field {field!r}"
        if judge.source != "generations":
            continue
        for path, key in keys:
            if key in shown:
                yield path, f"key {key!r} is shown to annotators; a judge verdict must be hidden"
            elif key not in hidden:
                yield path, f"key {key!r} is not a hidden key of any task"


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
