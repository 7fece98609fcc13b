"""Filling one template: a simulated annotator's answers for each row of a packet file.

Answers start from the item's latent truth and depart from it as the annotator's profile
says. Then the study's rules for ordinary rows are applied, so a clean file is valid:

1. ratings: Likert ``round(latent + bias + sd * N(0, 1))`` clipped to the scale; binary and
   categorical labels flipped with the profile's probabilities; a pair answered from its
   latent preference plus ``pair_sd * N(0, 1)`` (``left`` regardless with the profile's
   ``position_bias``), written as seen on the sealed sides; attention checks answered
   with their known answer (the rushed profile fails them); hidden duplicate copies of the
   inconsistent profile moved 2+ points / flipped away from the first copy; answers that the
   study's ``edge_cases`` fix given as the guide says (with the profile's ``follows_guide``);
2. ``skip`` on a field that allows it, rarely, with a reason in the field the study names;
3. binary constraints repaired (:func:`raterlab.simulate.truth.repair`);
4. confidence, then every conditionally required field (notes when a score is 1 or 5, a list
   ``a; b`` when code does not run...), then optional comments now and then;
   a rating given with confidence ``low`` carries the study's first
   ``consensus.adjudicate.notes_contain`` flag (e.g. UNCERTAIN) in its first note field;
5. ``time_spent_s``: lognormal around a median of ``max(8 + chars / 12, 3 * time_floor_s)``
   seconds (``chars`` = length of the shown text) times the annotator's speed, never below the
   floor; the rushed profile stays below the floor on every row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from raterlab.protocol import (
    CONFIDENCE_LEVELS,
    SKIP_VALUE,
    BinaryField,
    ConfidenceField,
    LikertField,
    ListField,
    PairwiseField,
    Study,
    Task,
    TextField,
)
from raterlab.protocol.pairwise import canonical, seen
from raterlab.simulate import phrases
from raterlab.simulate.profiles import Profile
from raterlab.simulate.truth import ItemTruth, pair_choice, repair

TIME_SIGMA = 0.35


@dataclass(frozen=True)
class TemplateRow:
    """One row of a template with what the lab knows about it (from the sealed key)."""

    token: str
    item_id: str
    kind: str
    copy: int
    text_length: int
    swapped: bool = False
    """A pair shown with ``system_b`` on the left (the sealed key's ``swapped``)."""


@dataclass
class Filled:
    """A filled row: the cells (column -> value, ``""`` when empty) and how it was made."""

    cells: dict[str, Any]
    row: TemplateRow
    attention_failed: bool = False


def _wrong(spec: Any, expected: Any, rng: np.random.Generator) -> Any:
    """A value of ``spec`` clearly different from ``expected``."""
    domain = list(spec.domain())
    if isinstance(spec, LikertField):
        far = [v for v in domain if abs(v - expected) >= 2] or [v for v in domain if v != expected]
        return far[int(rng.integers(len(far)))]
    others = [v for v in domain if v != expected]
    return others[int(rng.integers(len(others)))]


def _prefer(
    spec: PairwiseField, name: str, truth: ItemTruth, row: TemplateRow, p: Profile, rng
) -> str:
    """A pair's answer (canonical): ``left`` with the profile's position bias, else the
    latent preference as this rater perceives it."""
    if rng.random() < p.position_bias:
        return canonical("left", row.swapped)
    return pair_choice(spec, truth.latent[name] + p.pair_sd * float(rng.normal()))


def _perceive(spec: Any, name: str, truth: ItemTruth, p: Profile, rng: np.random.Generator):
    """The annotator's reading of one rating field of an ordinary item."""
    value = truth.values[name]
    if isinstance(spec, LikertField):
        c = truth.latent.get(name, float(value)) + p.likert_bias + p.likert_sd * rng.normal()
        return int(np.clip(round(c), spec.min, spec.max))
    if isinstance(spec, BinaryField):
        flip = p.to_one if value == 0 else p.to_zero
        return 1 - value if rng.random() < flip else value
    if rng.random() < p.categorical_flip:
        return _wrong(spec, value, rng)
    return value


def _ratings(
    task: Task,
    row: TemplateRow,
    truth: ItemTruth,
    profile: Profile,
    rng: np.random.Generator,
    first_copy: dict[str, Any] | None,
    fail_attention: bool,
) -> tuple[dict[str, Any], set[str]]:
    """Rating answers of one row, and the fields that repair must not change."""
    values: dict[str, Any] = {}
    locked: set[str] = set()
    known = [n for n in task.rating_fields if truth.source.get(n) == "expected"]
    # A failed attention check gets one answer wrong (locked); the others stay repairable,
    # so the row still satisfies the task's constraints.
    failing = known[int(rng.integers(len(known)))] if fail_attention and known else None
    for name in task.rating_fields:
        spec = task.fields[name]
        if row.kind == "attention" and name in known:
            expected = truth.values[name]
            values[name] = _wrong(spec, expected, rng) if name == failing else expected
            if name == failing or not fail_attention:
                locked.add(name)
        elif first_copy is not None and first_copy.get(name) not in (None, SKIP_VALUE):
            first = first_copy[name]
            if isinstance(spec, PairwiseField):  # written with the other sides
                first = canonical(first, not row.swapped)
            values[name] = _wrong(spec, first, rng)
        elif truth.source.get(name) == "edge_case" and rng.random() < profile.follows_guide:
            values[name] = truth.values[name]
        elif isinstance(spec, PairwiseField):
            values[name] = _prefer(spec, name, truth, row, profile, rng)
        else:
            values[name] = _perceive(spec, name, truth, profile, rng)
    return values, locked


def _time(row: TemplateRow, floor: float, profile: Profile, rng: np.random.Generator) -> int:
    median = max(8 + row.text_length / 12, 3 * floor, 5.0)
    if profile.rushed:
        if floor > 0:
            upper = floor - 1 if floor >= 3 else floor / 2
            t = min(upper, max(1.0, 0.45 * floor * float(rng.lognormal(0, 0.25))))
            return max(1, int(np.floor(t)))
        return max(1, round(0.25 * median * float(rng.lognormal(0, 0.25))))
    t = median * profile.speed * float(rng.lognormal(0, TIME_SIGMA))
    return max(int(np.ceil(floor)) + 1, round(t))


def _confidence(profile: Profile, unsure: bool, rng: np.random.Generator) -> str:
    low, medium, high = profile.confidence
    if unsure:
        low, high = low * 2.5, high * 0.6
    p = np.array([low, medium, high])
    return CONFIDENCE_LEVELS[int(rng.choice(3, p=p / p.sum()))]


def _note_fields(task: Task) -> set[str]:
    """Text fields that hold free remarks: not a named thing (a component...), and not only
    a skip reason (a reason field that a conditional rule also requires is a note field)."""
    reasons = {spec.skip.reason for spec in task.fields.values() if spec.skip}
    required = {name for rule in task.conditional for name in rule.require}
    out = set()
    for name, spec in task.fields.items():
        words = f"{name} {spec.description}".lower()
        named_thing = any(k in words for k in phrases.TEXT_BANKS)
        only_reason = name in reasons and name not in required
        if isinstance(spec, TextField) and not named_thing and not only_reason:
            out.add(name)
    return out


def _text(
    task: Task, name: str, values: dict, rng: np.random.Generator, triggers, notes: set[str]
) -> str:
    spec = task.fields[name]
    if isinstance(spec, ListField):
        return phrases.list_value(name, spec.description, rng)
    if name in notes and triggers:
        return phrases.score_note(triggers, rng)
    if name in notes:
        return phrases.comment(values, task.fields, rng)
    return phrases.text_value(name, spec.description, rng)


def fill_row(
    study: Study,
    task_name: str,
    annotator: str,
    row: TemplateRow,
    truth: ItemTruth,
    profile: Profile,
    rng: np.random.Generator,
    first_copy: dict[str, Any] | None = None,
    fail_attention: bool = False,
) -> Filled:
    """Answers of ``annotator`` for one template row (see the module doc for the steps).

    ``first_copy`` is the annotator's answers to the first copy of a hidden duplicate, given
    when the profile answers duplicates inconsistently.
    """
    task = study.tasks[task_name]
    values, locked = _ratings(task, row, truth, profile, rng, first_copy, fail_attention)
    ordinary = row.kind in ("item", "duplicate")
    skipped = []
    for name, spec in task.fields.items():
        if spec.skip and name in values and ordinary and rng.random() < profile.skip_rate:
            values[name] = SKIP_VALUE
            skipped.append(name)
    values = repair(values, task.constraints, rng, locked)
    unsure = any(
        isinstance(task.fields[n], LikertField)
        and isinstance(v, int)
        and abs(v - truth.values[n]) >= 2
        for n, v in values.items()
    )
    notes = _note_fields(task)
    cells: dict[str, Any] = {"annotator_id": annotator, "item": row.token}
    for name, spec in task.fields.items():
        if isinstance(spec, PairwiseField) and values.get(name) not in (None, SKIP_VALUE):
            cells[name] = seen(values[name], row.swapped)
        elif name in values:
            cells[name] = values[name]
        elif isinstance(spec, ConfidenceField):
            sure = row.kind == "attention" and not fail_attention
            cells[name] = "high" if sure else _confidence(profile, unsure, rng)
        else:
            cells[name] = ""
    for name in skipped:
        cells[task.fields[name].skip.reason] = phrases.skip_reason(rng)
    for name in task.fields:
        if task.is_required(name) and cells[name] == "":
            cells[name] = _text(task, name, values, rng, [], notes)
    for rule in task.conditional:
        triggers = [
            (n, cells[n], task.fields[n])
            for n in rule.when.any_of
            if cells[n] != SKIP_VALUE and cells[n] in rule.when.in_
        ]
        if triggers:
            for name in rule.require:
                if cells[name] == "":
                    cells[name] = _text(task, name, values, rng, triggers, notes)
    for name in sorted(notes):
        if cells[name] == "" and ordinary and rng.random() < profile.comment_rate:
            cells[name] = phrases.comment(values, task.fields, rng)
    flags = study.consensus.adjudicate.notes_contain
    low = any(isinstance(s, ConfidenceField) and cells[n] == "low" for n, s in task.fields.items())
    if flags and notes and ordinary and low:  # the guide's "flag it if you are uncertain"
        name = sorted(notes)[0]
        cells[name] = " ".join(
            filter(None, [flags[0] + ":", cells[name] or "not sure of this one"])
        )
    cells["time_spent_s"] = _time(row, study.design.time_floor_s, profile, rng)
    return Filled(cells=cells, row=row, attention_failed=fail_attention)


def fill_file(
    study: Study,
    task_name: str,
    annotator: str,
    rows: list[TemplateRow],
    truths: dict[str, ItemTruth],
    profile: Profile,
    rng: np.random.Generator,
) -> list[Filled]:
    """Every row of one template, in template order.

    First copies are answered before second copies, so an inconsistent annotator's second
    copy can be set against its first. With a failing profile, the first attention check of
    the file always fails and the others fail with the profile's probability.
    """
    out: list[Filled | None] = [None] * len(rows)
    first: dict[str, dict[str, Any]] = {}
    seen_attention = False
    order = sorted(range(len(rows)), key=lambda i: (rows[i].copy, i))
    for i in order:
        row = rows[i]
        fail = False
        if row.kind == "attention" and profile.attention_fail > 0:
            fail = not seen_attention or rng.random() < profile.attention_fail
            seen_attention = True
        prior = first.get(row.item_id) if row.copy > 0 and profile.duplicate_gap else None
        filled = fill_row(
            study, task_name, annotator, row, truths[row.item_id], profile, rng, prior, fail
        )
        if row.copy == 0:
            first[row.item_id] = filled.cells
        out[i] = filled
    return [f for f in out if f is not None]
