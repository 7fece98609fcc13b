"""A task's Label Studio labeling config (XML), generated from the study file.

What to read: one ``Header`` + ``Text`` per shown key (``$<key>`` in the task data). What to
answer, per field type:

=============  =====================================================================
binary         ``Choices`` (yes / no)
likert         ``Rating`` when the scale is 1..max (max <= 10) without anchors or skip, else
               ``Choices`` with one choice per point, shown with its anchor text and exported
               as the number (``alias``), and ``skip``; ``Number`` over 10 points
categorical    ``Choices`` (the labels, and ``skip`` where allowed)
confidence     ``Choices`` (low / medium / high)
text, list     ``TextArea`` (a list: one entry per submitted box)
=============  =====================================================================

``required="true"`` where the study requires the field. A field that only explains a skip is
shown when that field's ``skip`` is chosen (``visibleWhen``). Rules Label Studio cannot
express (conditional requirements, constraints between fields) are checked when the export
comes back through ingest, like any returned file.
"""

from __future__ import annotations

from xml.etree import ElementTree as ET

from raterlab.label.form import offered_values
from raterlab.protocol import SKIP_VALUE, LikertField, ListField, Study, TextField

OBJECT_PREFIX = "shown_"
"""Object tags are named ``shown_<key>``; control tags by their field name, so an exported
``from_name`` is the field it answers."""
MAX_RATING = 10
MAX_CHOICE_POINTS = 10


def _control(parent: ET.Element, study: Study, task: str, name: str, to_name: str) -> None:
    spec = study.tasks[task].fields[name]
    required = "true" if study.tasks[task].is_required(name) else "false"
    ET.SubElement(parent, "Header", value=spec.description or name.replace("_", " "), size="5")
    common = {"name": name, "toName": to_name, "required": required}
    if isinstance(spec, TextField | ListField):
        extra = {"placeholder": "one entry per box"} if isinstance(spec, ListField) else {}
        submissions = {} if isinstance(spec, ListField) else {"maxSubmissions": "1"}
        ET.SubElement(
            parent, "TextArea", **common, rows="2", editable="true", **submissions, **extra
        )
        return
    if isinstance(spec, LikertField):
        points = spec.max - spec.min + 1
        if not spec.anchors and spec.skip is None and spec.min == 1 and spec.max <= MAX_RATING:
            ET.SubElement(parent, "Rating", **common, maxRating=str(spec.max), icon="star")
            return
        if points > MAX_CHOICE_POINTS:
            ET.SubElement(parent, "Number", **common, min=str(spec.min), max=str(spec.max))
            return
    choices = ET.SubElement(parent, "Choices", **common, choice="single", showInline="true")
    anchors = spec.anchors if isinstance(spec, LikertField) else {}
    for value in offered_values(spec):
        anchor = anchors.get(int(value)) if value.lstrip("-").isdigit() else None
        if anchor:  # shown with its anchor text, exported as the number (alias)
            ET.SubElement(choices, "Choice", value=f"{value}: {anchor}", alias=value)
        else:
            ET.SubElement(choices, "Choice", value=value)


def _skip_reasons(study: Study, task: str) -> dict[str, str]:
    fields = study.tasks[task].fields
    return {spec.skip.reason: name for name, spec in fields.items() if spec.skip is not None}


def label_config(study: Study, task: str) -> str:
    """The ``<View>`` XML of one task."""
    spec = study.tasks[task]
    view = ET.Element("View")
    if spec.description:
        ET.SubElement(view, "Header", value=spec.description, size="4")
    for key in spec.shown:
        ET.SubElement(view, "Header", value=key.replace("_", " ").upper(), size="6")
        ET.SubElement(view, "Text", name=f"{OBJECT_PREFIX}{key}", value=f"${key}")
    to_name = f"{OBJECT_PREFIX}{spec.shown[0]}"
    reasons = _skip_reasons(study, task)
    for name in spec.fields:
        conditional = any(name in rule.require for rule in spec.conditional)
        if name in reasons and not spec.is_required(name) and not conditional:
            box = ET.SubElement(
                view,
                "View",
                visibleWhen="choice-selected",
                whenTagName=reasons[name],
                whenChoiceValue=SKIP_VALUE,
            )
            _control(box, study, task, name, to_name)
        else:
            _control(view, study, task, name, to_name)
    ET.indent(view)
    return ET.tostring(view, encoding="unicode") + "\n"
