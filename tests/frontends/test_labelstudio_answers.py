"""Every front end offers exactly the answers ingest accepts, skip included: for every bundled
study and every field, what the Label Studio config, the spreadsheet's validation and the
terminal form offer passes ingest's rules, and a skip needs its reason."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree as ET

import openpyxl
import pandas as pd
import pytest

from raterlab.design.packets import template_columns
from raterlab.design.xlsx import write_workbook
from raterlab.ingest import task_rules
from raterlab.ingest.read import ROW
from raterlab.ingest.validate import rule_issues
from raterlab.labelstudio.config import label_config
from raterlab.labelstudio.pairwise import MUCH, extra_controls, other_control, pairwise_cell
from raterlab.protocol import SKIP_VALUE, PairwiseField, Study, load_study
from raterlab.protocol.answers import answer_values, answers
from raterlab.protocol.fields import PAIRWISE_SIDES
from raterlab.protocol.pairwise import canonical
from raterlab.terminal.form import questions
from tests.conftest import STUDIES
from tests.frontends.conftest import FRONT_END_STUDIES

DOMAIN_RULES = ("type", "range", "allowed_values", "skip_reason")


def _fields(study: Study):
    for task, spec in study.tasks.items():
        for name, field in spec.fields.items():
            yield task, name, field


def _issues(study: Study, task: str, cells: dict[str, str]) -> list[str]:
    """The rules of the fields in ``cells`` that one row holding ``cells`` breaks."""
    row = dict.fromkeys(template_columns(study, task), "")
    row.update(annotator_id="a1", item="tok", time_spent_s="10", **cells)
    frame = pd.DataFrame([{**row, ROW: 2}], dtype=str).astype({ROW: int})
    names = set(cells) | {f.skip.reason for f in study.tasks[task].fields.values() if f.skip}
    rules = [r for r in task_rules(study, task) if r.name in DOMAIN_RULES and r.column in names]
    found = rule_issues(study, task, frame, "f.csv", rules)
    return [f"{c}:{r}" for c, r in zip(found["column"], found["rule"], strict=True)]


def _label_studio_offers(study: Study, task: str) -> dict[str, list[str]]:
    """Per field, the values a Label Studio annotation of the generated config exports."""
    offers = {}
    view = ET.fromstring(label_config(study, task))
    for control in view.iter():
        name = control.get("name")
        if control.tag == "Pairwise":
            offers[name] = _pairwise_offers(view, name)
        elif control.tag == "Choices" and name in extra_controls(study.tasks[task]):
            continue
        elif control.tag == "Choices":
            offers[name] = [c.get("alias") or c.get("value") for c in control]
        elif control.tag == "Rating":
            offers[name] = [str(v) for v in range(1, int(control.get("maxRating")) + 1)]
        elif control.tag == "Number":
            assert control.get("step") == "1"
            offers[name] = [
                str(v) for v in range(int(control.get("min")), int(control.get("max")) + 1)
            ]
    return offers


def _pairwise_offers(view: ET.Element, name: str) -> list[str]:
    """The cells a pairwise field's annotation exports: a side clicked (alone, or with
    ``much better``), or the extra control's tie / skip alone."""
    other = [
        c.get("alias") or c.get("value")
        for control in view.iter("Choices")
        if control.get("name") == other_control(name)
        for c in control
    ]
    cells = [pairwise_cell([side], []) for side in PAIRWISE_SIDES]
    cells += [pairwise_cell([], [o]) for o in other if o != MUCH.value]
    cells += [
        pairwise_cell([side], [o]) for o in other if o == MUCH.value for side in PAIRWISE_SIDES
    ]
    return cells


def _spreadsheet_offers(study: Study, task: str, path: Path) -> dict[str, list[str]]:
    """Per field, the values the workbook's data validation lets a cell hold."""
    write_workbook(study, task, [{"annotator_id": "a1", "item": "tok"}], path)
    book = openpyxl.load_workbook(path)
    header = [c.value for c in book["annotations"][1]]
    offers = {}
    for rule in book["annotations"].data_validations.dataValidation:
        letter = str(rule.sqref).split(":")[0].rstrip("0123456789")
        name = header[openpyxl.utils.column_index_from_string(letter) - 1]
        if rule.type == "list":
            sheet, cells = rule.formula1.split("!")
            offers[name] = [c.value for (c,) in book[sheet][cells.replace("$", "")]]
        elif rule.type == "whole":
            offers[name] = [str(v) for v in range(int(rule.formula1), int(rule.formula2) + 1)]
    return offers


@pytest.mark.parametrize("name", FRONT_END_STUDIES)
def test_ingest_accepts_exactly_the_answers_and_skip_needs_its_reason(name):
    study = load_study(STUDIES / f"{name}.yaml")
    for task, field_name, field in _fields(study):
        for answer in answers(field):
            cells = {field_name: answer.value}
            if answer.value == SKIP_VALUE:
                reason = field.skip.reason
                assert f"{reason}:skip_reason" in _issues(study, task, cells)
                cells[reason] = "the scenario is cut off"
            assert _issues(study, task, cells) == [], (task, field_name, answer)
        if answers(field):
            assert _issues(study, task, {field_name: "maybe"}), (task, field_name)
            if field.skip is None:
                assert _issues(study, task, {field_name: SKIP_VALUE}), (task, field_name)
            codes = {a.code for a in answers(field)} - {SKIP_VALUE}
            if isinstance(field, PairwiseField):  # answered as seen, stored canonically
                codes = {canonical(code, swapped=False) for code in codes}
            assert codes == set(field.domain())


@pytest.mark.parametrize("front_end", ["label_studio", "spreadsheet"])
@pytest.mark.parametrize("name", FRONT_END_STUDIES)
def test_front_end_offers_exactly_what_ingest_accepts(name, front_end, tmp_path: Path):
    study = load_study(STUDIES / f"{name}.yaml")
    for task in study.tasks:
        if front_end == "label_studio":
            offers = _label_studio_offers(study, task)
        else:
            offers = _spreadsheet_offers(study, task, tmp_path / f"{task}.xlsx")
        for _, field_name, field in (f for f in _fields(study) if f[0] == task):
            if isinstance(field, PairwiseField):  # two controls: the order is not one list
                assert sorted(offers[field_name]) == sorted(answer_values(field)), field_name
            elif answers(field):
                assert offers[field_name] == list(answer_values(field)), (task, field_name)
            else:
                assert field_name not in offers


@pytest.mark.parametrize("name", FRONT_END_STUDIES)
def test_terminal_form_offers_only_what_ingest_accepts(name):
    study = load_study(STUDIES / f"{name}.yaml")
    for task, spec in study.tasks.items():
        for question in questions(spec):
            field = spec.fields[question.field]
            if question.kind != "choice":
                continue
            assert len(question.choices) == len(answers(field)), (task, question.field)
            for choice in question.choices:
                cells = {question.field: choice.value}
                if choice.value == SKIP_VALUE:
                    cells[field.skip.reason] = "the scenario is cut off"
                assert _issues(study, task, cells) == [], (task, question.field, choice)


def test_label_studio_asks_the_skip_reason_when_skip_is_chosen():
    study = load_study(STUDIES / "plugin_triggers.yaml")
    view = ET.fromstring(label_config(study, "trigger-accuracy"))
    (box,) = [v for v in view.iter("View") if v.get("visibleWhen") == "choice-selected"]
    assert (box.get("whenTagName"), box.get("whenChoiceValue")) == ("triggerCorrect", SKIP_VALUE)
    (reason,) = box.iter("TextArea")
    assert (reason.get("name"), reason.get("required")) == ("skipReason", "true")
    (trigger,) = [c for c in view.iter("Choices") if c.get("name") == "triggerCorrect"]
    assert [(c.get("value"), c.get("alias")) for c in trigger] == [
        ("yes", None),
        ("no", None),
        ("skip / unclear", SKIP_VALUE),
    ]
