"""Label Studio: configs Label Studio's own parser accepts, blind task files, and exports read
back through the one ingest path (the opt-in run against a real server is in
test_labelstudio_import.py)."""

from __future__ import annotations

import json
from xml.etree import ElementTree as ET

import pytest

from raterlab import warehouse
from raterlab.ingest import ingest_file
from raterlab.labelstudio.config import label_config
from raterlab.labelstudio.exports import convert, sealed_packets, write_returns
from raterlab.labelstudio.formats import ExportError, tasks_of
from raterlab.labelstudio.pairwise import extra_controls
from raterlab.labelstudio.tasks import export_packet, packet_tasks
from raterlab.labelstudio.users import Users
from raterlab.protocol import PairwiseField, load_study
from tests.conftest import STUDIES
from tests.frontends.conftest import FRONT_END_STUDIES


@pytest.mark.parametrize("name", FRONT_END_STUDIES)
def test_generated_config_passes_label_studios_parser(name):
    interface = pytest.importorskip("label_studio_sdk.label_interface").LabelInterface
    study = load_study(STUDIES / f"{name}.yaml")
    for task, spec in study.tasks.items():
        config = label_config(study, task)
        parsed = interface(config)
        parsed.validate()  # schema, unique names, toName targets (what the server checks)
        extra = extra_controls(spec)  # a pairwise field's tie / much better / skip
        assert {c.name for c in parsed.controls} == set(spec.fields) | set(extra)
        shown_on_skip = {  # a skip reason, required when its box is shown
            control.get("name")
            for box in ET.fromstring(config).iter("View")
            if box.get("visibleWhen") == "choice-selected"
            for control in box
            if control.get("name")
        }
        for field_name in spec.fields:
            if isinstance(spec.fields[field_name], PairwiseField):
                continue  # a side or the tie: two controls, required is checked by ingest
            required = parsed.get_control(field_name).attr.get("required") == "true"
            assert required == (spec.is_required(field_name) or field_name in shown_on_skip)
        broken = config.replace('toName="shown_', 'toName="nowhere_')
        with pytest.raises(Exception, match="nowhere_"):
            interface(broken).validate()  # the parser does reject what the server would


def test_config_choices_and_skip_reason(mini):
    config = label_config(mini, "answer")
    assert '<Choice value="1: bad" alias="1" />' in config
    assert '<Choice value="skip / unclear" alias="skip" />' in config
    assert 'visibleWhen="choice-selected" whenTagName="score" whenChoiceValue="skip"' not in (
        config
    )  # notes is also required for a 1 or 5, so it is always shown
    check = label_config(mini, "check")
    assert check.count('<Choice value="yes" />') == 2


def test_tasks_are_blind_and_use_packet_tokens(issued):
    study, home, key, _ = issued
    tasks = packet_tasks(home, study, "a1", "main-01")
    answer = tasks["answer"]
    mine = key[(key["annotator_id"] == "a1") & (key["batch"] == "main-01")]
    assert {t["data"]["item"] for t in answer} == set(mine[mine["task"] == "answer"]["token"])
    for t in answer:
        assert set(t["data"]) == {"prompt", "response", "category", "item", "annotator_id", "batch"}
    text = json.dumps(tasks)
    assert "secret-model" not in text and "ans-0" not in text
    paths = export_packet(home, study, "a1", "main-01")
    assert {p.name for p in paths} >= {
        "a1_answer_annotations.labelstudio.xml",
        "a1_answer_annotations.labelstudio.json",
    }


USERS = {"1": "a1", "2": "a2"}
"""The Label Studio users of these tests: user 1 is annotator a1, user 2 is a2."""


def _annotation(result: list[dict], **extra) -> dict:
    return {"id": 1, "result": result, "lead_time": 37.25, "completed_by": 1, **extra}


def _choice(name, value):
    return {
        "from_name": name,
        "to_name": "shown_prompt",
        "type": "choices",
        "value": {"choices": [value]},
    }


def _text(name, text):
    return {
        "from_name": name,
        "to_name": "shown_prompt",
        "type": "textarea",
        "value": {"text": [text]},
    }


def _export(issued, cancel_first=False):
    study, home, _, _ = issued
    tasks = packet_tasks(home, study, "a1", "main-01")["answer"]
    out = []
    for n, task in enumerate(tasks):
        result = [_choice("score", "5: good"), _choice("confidence", "high"), _text("notes", "ok")]
        annotations = [_annotation(result, id=n + 1)]
        if cancel_first and n == 0:
            annotations = [_annotation([], was_cancelled=True)]
        out.append({"id": 100 + n, **task, "annotations": annotations})
    return out


def _convert(issued, export: object, users: dict[str, str] | None = USERS):
    """The export converted as ``raterlab labelstudio import`` does, against the sealed key."""
    study, home, _, _ = issued
    controls = {f for task in study.tasks.values() for f in task.fields}
    tasks = tasks_of(export, controls)
    with warehouse.connect(home.warehouse) as con:
        key = sealed_packets(con, study, [t.token for t in tasks if t.token])
    return convert(study, tasks, key, Users(users, frozenset(study.design.annotators)))


def test_export_becomes_a_return_that_ingest_accepts(issued):
    study, home, _, _ = issued
    converted = _convert(issued, _export(issued))
    assert converted.notes == [] and converted.refused == []
    (path,) = write_returns(home, study, converted).values()
    assert path.parent == home.inbox / "mini"
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, path, home, con)
        scores = con.execute(
            "SELECT DISTINCT value, time_spent_s FROM gold.labels WHERE field = 'score'"
        ).fetchall()
    assert result.status == "accepted", result.validation.issues
    assert scores == [("5", 37.25)]


def test_cancelled_and_foreign_tasks_are_reported(issued):
    export = _export(issued, cancel_first=True)
    export.append({"id": 999, "data": {"text": "other project"}, "annotations": []})
    converted = _convert(issued, export)
    token = export[0]["data"]["item"]
    assert f"task 100 (item {token}): skipped (cancelled) by a1" in converted.notes
    assert any(n.startswith("task 999: no packet token in its data") for n in converted.refused)
    ((_, rows),) = converted.rows.items()
    assert token not in {r["item"] for r in rows}


def test_a_bad_answer_in_label_studio_is_quarantined_by_ingest(issued):
    study, home, _, _ = issued
    export = _export(issued)
    export[0]["annotations"][0]["result"][2] = _text("notes", "")  # a 5 without notes
    (path,) = write_returns(home, study, _convert(issued, export)).values()
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, path, home, con)
    assert result.status == "rejected"
    assert list(result.validation.errors["rule"]) == ["conditional"]


def test_not_an_export_is_a_clear_error(mini):
    with pytest.raises(ExportError, match="a list of tasks"):
        tasks_of({"tasks": []}, [])
