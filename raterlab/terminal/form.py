"""The labeling form of a task, generated from the study file: one question per field.

Every front end (the terminal tool, Label Studio, the spreadsheet) asks the same questions
with the same answers, so they are derived here once: which cell texts a field accepts, which
key answers each choice, which questions only appear when another answer calls for them.
Nothing in this module knows a study by name.
"""

from __future__ import annotations

from dataclasses import dataclass

from raterlab.protocol import (
    CONFIDENCE_LEVELS,
    SKIP_VALUE,
    BinaryField,
    CategoricalField,
    ConfidenceField,
    LikertField,
    ListField,
    Task,
)
from raterlab.protocol.answers import PAIRWISE_WORDS
from raterlab.protocol.fields import FieldSpec, PairwiseField

RESERVED_KEYS = frozenset("qvb")
"""Keys the tool keeps for itself: quit and save, view in full, back."""
SKIP_KEY = "s"
PAIRWISE_ORDER = ("much_left", "left", "tie", "right", "much_right")
"""A pairwise field's answers as offered: from left to right, as the responses are shown (with
``strength: true`` the digits 1-5 then follow the screen: 1 left much better ... 5 right)."""
ARROW_KEYS = {"left": "left", "right": "right"}
"""On a pairwise question the arrow keys answer too: the arrow points at the better side."""


@dataclass(frozen=True)
class Choice:
    """One answer to a question: the key that gives it, the cell text written, a label."""

    key: str
    value: str
    label: str


@dataclass(frozen=True)
class Question:
    field: str
    prompt: str
    kind: str
    """``choice`` (one key per answer) or ``text`` (typed; numbers on wide scales too)."""
    choices: tuple[Choice, ...]
    required: bool
    skip_reason_of: str | None
    """The field whose ``skip`` this text explains."""
    conditional: bool = False
    """Some answers make this field required (a conditional requirement names it)."""
    hint: str = ""
    arrows: bool = False
    """The arrow keys answer ``left`` / ``right`` (a pairwise question)."""


def choice_values(spec: FieldSpec) -> list[tuple[str, str]]:
    """The (cell text, label) pairs a choice field accepts, ``skip`` last when allowed;
    empty for free text, lists and Likert scales too wide for one key per point."""
    if isinstance(spec, BinaryField):
        pairs = [("1", "yes"), ("0", "no")]
    elif isinstance(spec, LikertField):
        pairs = [(str(v), spec.anchors.get(v, "")) for v in spec.domain()]
    elif isinstance(spec, PairwiseField):  # as the annotator sees the sides
        offered = spec.answers_seen()
        pairs = [(v, PAIRWISE_WORDS[v]) for v in PAIRWISE_ORDER if v in offered]
    elif isinstance(spec, CategoricalField):
        pairs = [(label, label) for label in spec.labels]
    elif isinstance(spec, ConfidenceField):
        pairs = [(level, level) for level in CONFIDENCE_LEVELS]
    else:
        return []
    if spec.skip is not None:
        pairs.append((SKIP_VALUE, "skip / unclear"))
    return pairs


def offered_values(spec: FieldSpec) -> list[str]:
    """The values a dropdown or choice list offers (binary as yes/no, which ingest reads as
    1/0: people pick words, not codes)."""
    pairs = choice_values(spec)
    if isinstance(spec, BinaryField):
        return [label for _, label in pairs]
    return [value for value, _ in pairs]


def _keys(spec: FieldSpec, pairs: list[tuple[str, str]]) -> list[str] | None:
    """One key per choice: digits for scales, else first letters (digits if they clash)."""
    values = [v for v, _ in pairs if v != SKIP_VALUE]
    if isinstance(spec, LikertField):
        digits = all(len(v) == 1 and v.isdigit() for v in values)
        return values if digits else None
    words = [label if isinstance(spec, BinaryField) else value for value, label in pairs]
    letters = [w[0].lower() for w, (v, _) in zip(words, pairs, strict=True) if v != SKIP_VALUE]
    taken = RESERVED_KEYS | ({SKIP_KEY} if spec.skip is not None else set())
    if len(set(letters)) == len(letters) and not set(letters) & taken and all(letters):
        return letters
    return [str(i) for i in range(1, len(values) + 1)] if len(values) <= 9 else None


def _question(task: Task, name: str, skip_reasons: dict[str, str]) -> Question:
    spec = task.fields[name]
    prompt = spec.description or name.replace("_", " ")
    pairs = choice_values(spec)
    keys = _keys(spec, pairs) if pairs else None
    required = task.is_required(name)
    conditional = any(name in rule.require for rule in task.conditional)
    if keys is None:
        hint = ""
        if isinstance(spec, LikertField):
            hint = f"a whole number from {spec.min} to {spec.max}"
        elif isinstance(spec, ListField):
            hint = "items separated by ';'"
        return Question(
            name, prompt, "text", (), required, skip_reasons.get(name), conditional, hint
        )
    choices = [Choice(k, v, lbl) for k, (v, lbl) in zip(keys, pairs, strict=False)]
    if spec.skip is not None:
        choices.append(Choice(SKIP_KEY, SKIP_VALUE, "skip / unclear"))
    arrows = isinstance(spec, PairwiseField)
    return Question(
        name, prompt, "choice", tuple(choices), required, None, conditional, arrows=arrows
    )


def questions(task: Task) -> list[Question]:
    """The task's questions in the study's field order."""
    skip_reasons = {
        spec.skip.reason: name for name, spec in task.fields.items() if spec.skip is not None
    }
    return [_question(task, name, skip_reasons) for name in task.fields]


def is_asked(question: Question, answers: dict[str, str]) -> bool:
    """A field that only explains a skip is asked when that field was skipped; every other
    question (a required or conditionally required skip reason too) always."""
    if question.skip_reason_of is None or question.required or question.conditional:
        return True
    return answers.get(question.skip_reason_of, "").strip().lower() == SKIP_VALUE
