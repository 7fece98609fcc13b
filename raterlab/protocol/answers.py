"""The answers a choice field accepts, derived once from the study file.

Every front end offers exactly these answers (the Label Studio config's choices, the
spreadsheet's drop-downs) and ingest's rules accept exactly these values
(:mod:`raterlab.ingest.rules`), so a value one front end offers is never one ingest rejects.
A binary, Likert, categorical or confidence field answers one of its domain's values, then
``skip`` where the study lets the field be skipped (its reason is then required in the text
field the study names). A pairwise field answers the side the annotator prefers as they saw
it (``left``, ``right``, ``tie``...), which ingest re-expresses in the pair's canonical
orientation. Free text and lists have no fixed answers.
"""

from __future__ import annotations

from dataclasses import dataclass

from raterlab.protocol.fields import (
    CONFIDENCE_LEVELS,
    SKIP_VALUE,
    BinaryField,
    CategoricalField,
    ConfidenceField,
    FieldSpec,
    LikertField,
    PairwiseField,
)

BINARY_WORDS = {1: "yes", 0: "no"}
"""A binary answer as people pick it (ingest reads ``yes``/``no`` as 1/0)."""


PAIRWISE_WORDS = {
    "left": "left is better",
    "right": "right is better",
    "tie": "tie (equally good)",
    "much_left": "left is much better",
    "much_right": "right is much better",
}
"""A pairwise answer as people pick it."""


@dataclass(frozen=True)
class Answer:
    """One answer of a choice field."""

    value: str
    """The cell text a front end writes for it."""
    label: str
    """What a person reads (a Likert point with its anchor text)."""
    code: int | str
    """What the study stores: the field's domain value, or ``skip``."""


SKIP_ANSWER = Answer(SKIP_VALUE, "skip / unclear", SKIP_VALUE)


def _domain_answers(spec: FieldSpec) -> list[Answer]:
    if isinstance(spec, BinaryField):
        return [Answer(BINARY_WORDS[v], BINARY_WORDS[v], v) for v in sorted(spec.domain())[::-1]]
    if isinstance(spec, LikertField):
        return [
            Answer(str(v), f"{v}: {spec.anchors[v]}" if v in spec.anchors else str(v), v)
            for v in spec.domain()
        ]
    if isinstance(spec, PairwiseField):  # as seen; ingest stores it canonically
        return [Answer(value, PAIRWISE_WORDS[value], value) for value in spec.answers_seen()]
    if isinstance(spec, CategoricalField):
        return [Answer(label, label, label) for label in spec.domain()]
    if isinstance(spec, ConfidenceField):
        return [Answer(level, level, level) for level in CONFIDENCE_LEVELS]
    return []


def answers(spec: FieldSpec) -> tuple[Answer, ...]:
    """The field's answers in the order they are offered: its domain (binary ``yes`` before
    ``no``), then ``skip`` where the field allows it; empty for free text and lists."""
    found = _domain_answers(spec)
    if found and spec.skip is not None:
        found.append(SKIP_ANSWER)
    return tuple(found)


def answer_values(spec: FieldSpec) -> tuple[str, ...]:
    """The cell texts of :func:`answers`: what a drop-down or choice list offers."""
    return tuple(answer.value for answer in answers(spec))
