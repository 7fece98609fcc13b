"""A pairwise field in Label Studio: its ``Pairwise`` tag, and the extra choices it needs.

Label Studio's ``<Pairwise name=... toName="left,right"/>`` makes the two responses clickable
and records which was clicked: a result ``{"type": "pairwise", "value": {"selected": "left"}}``
(``"right"``). It has no tie, no strength and no skip, so a field that allows any of them
gets one more control, ``<field>_other``: a single-choice ``Choices`` offering ``tie (equally
good)`` (``tie: true``), ``much better`` (``strength: true``, said together with the side
clicked) and ``skip / unclear`` (where the field can be skipped).

An annotation's two answers become the one cell the packet's CSV holds (:func:`pairwise_cell`):

=====================  ===================  =============================================
side clicked           other choice         cell
=====================  ===================  =============================================
left / right           (none)               ``left`` / ``right``
(none)                 tie / skip           ``tie`` / ``skip``
left / right           much better          ``much_left`` / ``much_right``
(none)                 (none)               empty (ingest: the field is required)
anything else                               both, ``left; tie``: ingest rejects the value
=====================  ===================  =============================================
"""

from __future__ import annotations

from raterlab.protocol import SKIP_VALUE, PairwiseField, Task
from raterlab.protocol.answers import PAIRWISE_WORDS, SKIP_ANSWER, Answer
from raterlab.protocol.fields import PAIRWISE_SIDES

OTHER_SUFFIX = "_other"
MUCH = Answer("much", "much better", "much")
"""Said with a clicked side: that side is much better (``strength: true``)."""


def other_control(field: str) -> str:
    """The name of a pairwise field's extra ``Choices`` control."""
    return f"{field}{OTHER_SUFFIX}"


def other_answers(spec: PairwiseField) -> list[Answer]:
    """The extra control's choices (empty: the field needs no extra control)."""
    found = [Answer("tie", PAIRWISE_WORDS["tie"], "tie")] if spec.tie else []
    found += [MUCH] if spec.strength else []
    return found + ([SKIP_ANSWER] if spec.skip is not None else [])


def extra_controls(task: Task) -> dict[str, str]:
    """Each extra control of the task's pairwise fields -> its field."""
    return {
        other_control(name): name
        for name, spec in task.fields.items()
        if isinstance(spec, PairwiseField) and other_answers(spec)
    }


def pairwise_cell(side: list[str], other: list[str]) -> str:
    """The returned cell of one pairwise answer: the side clicked and the extra choice's
    cells (``alias``), combined as in the module docstring's table."""
    side_text, other_text = "; ".join(side), "; ".join(other)
    if not other_text:
        return side_text
    if not side_text and other_text in ("tie", SKIP_VALUE):
        return other_text
    if other_text == MUCH.value and side_text in PAIRWISE_SIDES:
        return f"much_{side_text}"
    return "; ".join(t for t in (side_text, other_text) if t)


def merged(
    task: Task, answers: dict[str, list[str | float]], shown: dict[str, dict[str, str]]
) -> dict[str, list[str | float]]:
    """An annotation's answers (control -> values) with each pairwise field's side and extra
    choice merged into the field's one cell; ``shown`` maps a ``Choices`` control's shown
    values to their cells (aliases)."""
    out = dict(answers)
    for control, name in extra_controls(task).items():
        if control in out or name in out:
            side = [str(v) for v in out.pop(name, [])]
            other = [shown.get(control, {}).get(str(v), str(v)) for v in out.pop(control, [])]
            cell = pairwise_cell(side, other)
            out[name] = [cell] if cell else []
    return out
