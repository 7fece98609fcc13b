"""A task's Label Studio labeling config (XML), generated from the study file.

What to read: one ``Header`` + ``Text`` per shown key (``$<key>`` in the task data). What to
answer, per field type:

=============  =====================================================================
binary         ``Choices`` (yes / no)
likert         ``Rating`` when the scale is 1..max (max <= 10) without anchors or skip;
               ``Number`` (whole numbers) over 10 points without skip; else ``Choices``
categorical    ``Choices`` (the labels)
confidence     ``Choices`` (low / medium / high)
text, list     ``TextArea`` (a list: one entry per submitted box)
pairwise       ``Pairwise`` on the two responses (shown side by side, LEFT and RIGHT),
               plus ``Choices`` ``<field>_other`` for tie / much better / skip
               (:mod:`raterlab.labelstudio.pairwise`)
=============  =====================================================================

The choices are the field's answers (:func:`raterlab.protocol.answers.answers`), ``skip``
last where the field allows it, so an annotation exports exactly the cells ingest accepts: a
choice shown with other text than its cell (a Likert point's anchor, ``skip / unclear``)
exports the cell (``alias``).

``required="true"`` where the study requires the field. A field that only explains a skip is
shown when that field's ``skip`` is chosen (``visibleWhen``), and is then required (Label
Studio does not require a control its view hides). Rules Label Studio cannot
express (conditional requirements, constraints between fields) are checked when the export
comes back through ingest, like any returned file.
"""

from __future__ import annotations

from collections.abc import Iterable
from xml.etree import ElementTree as ET

from raterlab.labelstudio.pairwise import extra_controls, other_answers, other_control
from raterlab.protocol import (
    SKIP_VALUE,
    LikertField,
    ListField,
    PairwiseField,
    Study,
    TextField,
)
from raterlab.protocol.answers import Answer, answers
from raterlab.protocol.pairwise import LEFT, RIGHT, SHOWN_SIDES

OBJECT_PREFIX = "shown_"
"""Object tags are named ``shown_<key>``; control tags by their field name, so an exported
``from_name`` is the field it answers."""
MAX_RATING = 10
MAX_CHOICE_POINTS = 10


def _control(
    parent: ET.Element, study: Study, task: str, name: str, to_name: str, required: bool
) -> None:
    """The question of one field: a header with its description, then its control."""
    spec = study.tasks[task].fields[name]
    ET.SubElement(parent, "Header", value=spec.description or name.replace("_", " "), size="5")
    common = {"name": name, "toName": to_name, "required": "true" if required else "false"}
    if isinstance(spec, TextField | ListField):
        extra = {"placeholder": "one entry per box"} if isinstance(spec, ListField) else {}
        submissions = {} if isinstance(spec, ListField) else {"maxSubmissions": "1"}
        ET.SubElement(
            parent, "TextArea", **common, rows="2", editable="true", **submissions, **extra
        )
        return
    if isinstance(spec, PairwiseField):
        _pairwise(parent, spec, common)
        return
    if isinstance(spec, LikertField):
        points = spec.max - spec.min + 1
        if not spec.anchors and spec.skip is None and spec.min == 1 and spec.max <= MAX_RATING:
            ET.SubElement(parent, "Rating", **common, maxRating=str(spec.max), icon="star")
            return
        if points > MAX_CHOICE_POINTS and spec.skip is None:
            ET.SubElement(
                parent, "Number", **common, min=str(spec.min), max=str(spec.max), step="1"
            )
            return
    _choices(parent, common, answers(spec))


def _choices(parent: ET.Element, common: dict[str, str], offered: Iterable[Answer]) -> None:
    choices = ET.SubElement(parent, "Choices", **common, choice="single", showInline="true")
    for answer in offered:
        if answer.label == answer.value:
            ET.SubElement(choices, "Choice", value=answer.value)
        else:  # shown as its label, exported as the cell (alias)
            ET.SubElement(choices, "Choice", value=answer.label, alias=answer.value)


def _pairwise(parent: ET.Element, spec: PairwiseField, common: dict[str, str]) -> None:
    """Click the better response (``Pairwise``: no ``required``, which Label Studio cannot
    check across two controls; ingest does), or pick tie / much better / skip."""
    sides = ",".join(f"{OBJECT_PREFIX}{key}" for key in SHOWN_SIDES)
    ET.SubElement(parent, "Header", value="Click the better response, LEFT or RIGHT", size="6")
    ET.SubElement(parent, "Pairwise", name=common["name"], toName=sides)
    offered = other_answers(spec)
    if offered:
        name = other_control(common["name"])
        ET.SubElement(parent, "Header", value="or:", size="6")
        _choices(parent, {**common, "name": name, "required": "false"}, offered)


def _sides(view: ET.Element) -> None:
    """A pair's two responses side by side, each under its side's name."""
    row = ET.SubElement(view, "View", style="display: flex; gap: 1em;")
    for key, title in ((LEFT, "LEFT"), (RIGHT, "RIGHT")):
        side = ET.SubElement(row, "View", style="flex: 1; min-width: 0;")
        ET.SubElement(side, "Header", value=title, size="5")
        ET.SubElement(side, "Text", name=f"{OBJECT_PREFIX}{key}", value=f"${key}")


def control_names(study: Study) -> set[str]:
    """Every control name the study's configs use: the fields and the extra pairwise ones."""
    return {name for task in study.tasks.values() for name in [*task.fields, *extra_controls(task)]}


def _skip_reasons(study: Study, task: str) -> dict[str, str]:
    """Each text field that only explains one field's skip -> the control offering that
    ``skip`` (the field, or a pairwise field's extra control): shown, and then required, when
    ``skip`` is chosen. A reason the study requires, that some answer makes required, or that
    explains several fields' skips is always shown instead (Label Studio shows a box for one
    choice of one control; ingest checks the rest)."""
    spec = study.tasks[task]
    skipped: dict[str, list[str]] = {}
    for name, field in spec.fields.items():
        if field.skip is not None:
            skipped.setdefault(field.skip.reason, []).append(name)
    return {
        reason: other_control(names[0])
        if isinstance(spec.fields[names[0]], PairwiseField)
        else names[0]
        for reason, names in skipped.items()
        if len(names) == 1
        and not spec.is_required(reason)
        and not any(reason in rule.require for rule in spec.conditional)
    }


def label_config(study: Study, task: str) -> str:
    """The ``<View>`` XML of one task."""
    spec = study.tasks[task]
    view = ET.Element("View")
    if spec.description:
        ET.SubElement(view, "Header", value=spec.description, size="4")
    pair = spec.pairwise is not None
    for key in spec.shown:
        if pair and key in SHOWN_SIDES:
            continue
        ET.SubElement(view, "Header", value=key.replace("_", " ").upper(), size="6")
        ET.SubElement(view, "Text", name=f"{OBJECT_PREFIX}{key}", value=f"${key}")
    if pair:
        _sides(view)
    to_name = f"{OBJECT_PREFIX}{spec.shown[0]}"
    reasons = _skip_reasons(study, task)
    for name in spec.fields:
        if name in reasons:
            box = ET.SubElement(
                view,
                "View",
                visibleWhen="choice-selected",
                whenTagName=reasons[name],
                whenChoiceValue=SKIP_VALUE,
            )
            _control(box, study, task, name, to_name, required=True)
        else:
            _control(view, study, task, name, to_name, required=spec.is_required(name))
    ET.indent(view)
    return ET.tostring(view, encoding="unicode") + "\n"
