"""Label Studio on a pairwise task (issue #29): the ``Pairwise`` tag on the two responses, an
extra choice for tie / much better / skip, blind tasks, and exports (JSON and JSON_MIN) read
back into left / right / tie cells that the one ingest path takes."""

from __future__ import annotations

import json
import os
from xml.etree import ElementTree as ET

import pytest

from raterlab import warehouse
from raterlab.cli import main
from raterlab.ingest import ingest_file
from raterlab.labelstudio.config import control_names, label_config
from raterlab.labelstudio.exports import convert, sealed_packets, write_returns
from raterlab.labelstudio.formats import tasks_of
from raterlab.labelstudio.pairwise import pairwise_cell
from raterlab.labelstudio.tasks import packet_tasks
from raterlab.labelstudio.users import Users
from raterlab.protocol import load_study
from raterlab.protocol.pairwise import canonical
from tests.conftest import STUDIES
from tests.frontends.test_labelstudio_import import LS_TOKENS, LS_URL, _api


def _arena(**options):
    study = load_study(STUDIES / "pairwise_arena.yaml")
    task = study.tasks["preference"]
    raw = task.fields["preference"].model_dump(exclude={"labels"})
    field = type(task.fields["preference"]).model_validate({**raw, **options})
    fields = {**task.fields, "preference": field}
    return study.model_copy(
        update={"tasks": {"preference": task.model_copy(update={"fields": fields})}}
    )


@pytest.mark.parametrize(
    ("options", "offered"),
    [
        ({}, ["tie (equally good)"]),
        ({"tie": False}, None),
        ({"strength": True}, ["tie (equally good)", "much better"]),
        ({"skip": {"reason": "reason"}}, ["tie (equally good)", "skip / unclear"]),
    ],
)
def test_config_uses_pairwise_on_the_two_sides(options, offered):
    interface = pytest.importorskip("label_studio_sdk.label_interface").LabelInterface
    study = _arena(**options)
    config = label_config(study, "preference")
    interface(config).validate()  # what the server checks: tags, unique names, toName targets
    view = ET.fromstring(config)
    (pairwise,) = view.iter("Pairwise")
    assert pairwise.get("name") == "preference"
    assert pairwise.get("toName") == "shown_response_left,shown_response_right"
    (row,) = [v for v in view.iter("View") if "display: flex" in (v.get("style") or "")]
    sides = [[h.get("value") for h in side.iter("Header")] for side in row]
    assert sides == [["LEFT"], ["RIGHT"]]
    other = [c for c in view.iter("Choices") if c.get("name") == "preference_other"]
    if offered is None:
        assert other == [] and control_names(study) == {"preference", "reason"}
    else:
        assert [c.get("value") for c in other[0]] == offered
        assert control_names(study) == {"preference", "preference_other", "reason"}


@pytest.mark.parametrize(
    ("side", "other", "cell"),
    [
        (["left"], [], "left"),
        (["right"], [], "right"),
        ([], ["tie"], "tie"),
        ([], ["skip"], "skip"),
        (["right"], ["much"], "much_right"),
        ([], [], ""),
        (["left"], ["tie"], "left; tie"),  # both: ingest rejects the value
        ([], ["much"], "much"),
    ],
)
def test_side_and_other_choice_become_one_cell(side, other, cell):
    assert pairwise_cell(side, other) == cell


def _pairwise(side: str) -> dict:
    return {
        "from_name": "preference",
        "to_name": "shown_response_left,shown_response_right",
        "type": "pairwise",
        "value": {"selected": side},
    }


def _tie() -> dict:
    return {
        "from_name": "preference_other",
        "to_name": "shown_category",
        "type": "choices",
        "value": {"choices": ["tie (equally good)"]},
    }


ANSWERS = ("left", "right", "tie")


def _json_export(tasks: list[dict]) -> list[dict]:
    out = []
    for n, task in enumerate(tasks):
        answer = ANSWERS[n % 3]
        result = [_tie()] if answer == "tie" else [_pairwise(answer)]
        annotation = {"id": n + 1, "result": result, "lead_time": 20.5, "completed_by": 1}
        out.append({"id": 100 + n, **task, "annotations": [annotation]})
    return out


def _json_min_export(tasks: list[dict]) -> list[dict]:
    out = []
    for n, task in enumerate(tasks):
        answer = ANSWERS[n % 3]
        value = (
            {"preference_other": "tie (equally good)"}
            if answer == "tie"
            else {"preference": [{"selected": answer}]}
        )
        record = {**task["data"], "id": 100 + n, "annotator": 1, "annotation_id": n + 1}
        out.append({**record, **value, "lead_time": 20.5})
    return out


@pytest.mark.parametrize("shape", [_json_export, _json_min_export])
def test_export_becomes_left_right_tie_rows_that_ingest_unblinds(arena, shape):
    study, home, key, generations = arena
    tasks = packet_tasks(home, study, "rater_ana", "main")["preference"]
    text = json.dumps(tasks)
    systems = {r[k] for r in generations["record"] for k in ("system_a", "system_b")}
    assert not any(system in text for system in systems)  # the tasks are blind
    assert {"response_left", "response_right"} <= set(tasks[0]["data"])
    parsed = tasks_of(shape(tasks), control_names(study))
    with warehouse.connect(home.warehouse) as con:
        packets = sealed_packets(con, study, [t.token for t in parsed if t.token])
    users = Users({"1": "rater_ana"}, frozenset(study.design.annotators))
    converted = convert(study, parsed, packets, users)
    assert converted.refused == [] and converted.notes == []
    (rows,) = converted.rows.values()
    assert [r["preference"] for r in rows] == [ANSWERS[n % 3] for n in range(len(tasks))]
    (path,) = write_returns(home, study, converted).values()
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, path, home, con)
        stored = dict(
            con.execute(
                "SELECT item_id, value FROM gold.labels WHERE field = 'preference' "
                "AND annotator_id = 'rater_ana'"
            ).fetchall()
        )
    assert result.status == "accepted", result.validation.issues
    mine = key[key["annotator_id"] == "rater_ana"].set_index("token")
    once = mine["item_id"].map(mine["item_id"].value_counts()) == 1
    swaps = set()
    for row in rows:
        sealed = mine.loc[row["item"]]
        if sealed["kind"] == "item" and once[row["item"]]:
            swaps.add(bool(sealed["swapped"]))
            expected = canonical(row["preference"], bool(sealed["swapped"]))
            assert stored[sealed["item_id"]] == expected
    assert swaps == {True, False}


@pytest.mark.skipif(
    not (LS_URL and LS_TOKENS["owner"] and LS_TOKENS["a1"]),
    reason="set RATERLAB_LABELSTUDIO_URL and legacy API tokens RATERLAB_LABELSTUDIO_OWNER_TOKEN "
    "and RATERLAB_LABELSTUDIO_A1_TOKEN to run against a real server",
)
def test_real_label_studio_pairwise_round_trip(arena, tmp_path, monkeypatch, capsys):
    """A project from rater_ana's exported config and tasks; the A1 user answers every pair
    (Pairwise side clicked, or the tie choice) through the API; the JSON and JSON_MIN exports
    import as rater_ana's left / right / tie."""
    study, home, _, _ = arena
    monkeypatch.setenv("RATERLAB_HOME", str(home.root))
    monkeypatch.setenv("RATERLAB_STUDIES", str(STUDIES))
    owner, mine = LS_TOKENS["owner"], LS_TOKENS["a1"]
    assert main(["labelstudio", "export", study.name, "--annotator", "rater_ana"]) == 0
    folder = home.outbox / study.name / "rater_ana" / "main"
    tasks = json.loads((folder / "rater_ana_annotations.labelstudio.json").read_text())
    config = (folder / "rater_ana_annotations.labelstudio.xml").read_text()
    title = f"raterlab pairwise_arena rater_ana {os.getpid()}"
    project = _api(owner, "POST", "/api/projects", {"title": title, "label_config": config})
    try:
        _api(owner, "POST", f"/api/projects/{project['id']}/import", tasks)
        created = _api(owner, "GET", f"/api/tasks?project={project['id']}&page_size=1000")
        created = created["tasks"] if isinstance(created, dict) else created
        by_item = {t["data"]["item"]: t["id"] for t in created}
        for n, task in enumerate(tasks):
            answer = ANSWERS[n % 3]
            result = [_tie()] if answer == "tie" else [_pairwise(answer)]
            body = {"result": result, "lead_time": 14.5}
            _api(mine, "POST", f"/api/tasks/{by_item[task['data']['item']]}/annotations", body)
        me = _api(mine, "GET", "/api/current-user/whoami")["id"]
        users = tmp_path / "users.csv"
        users.write_text(f"user,annotator_id\n{me},rater_ana\n")
        for kind in ("JSON", "JSON_MIN"):
            text = _api(owner, "GET", f"/api/projects/{project['id']}/export?exportType={kind}")
            path = tmp_path / f"export.{kind.lower()}.json"
            path.write_text(json.dumps(text))
            code = main(["labelstudio", "import", study.name, str(path), "--user-map", str(users)])
            out = capsys.readouterr().out
            assert code == 0, out
            assert ("accepted" if kind == "JSON" else "Nothing changed") in out
    finally:
        _api(owner, "DELETE", f"/api/projects/{project['id']}")
    with warehouse.connect(home.warehouse) as con:
        values = con.execute(
            "SELECT DISTINCT value FROM gold.labels WHERE field = 'preference' ORDER BY 1"
        ).fetchall()
    assert values == [("a",), ("b",), ("tie",)]
