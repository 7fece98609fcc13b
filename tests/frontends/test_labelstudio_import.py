"""``raterlab labelstudio import`` as a lead runs it: values of an export never form a path,
an annotation counts only for its author, every export format is read or refused clearly,
one bad task is refused alone, and a re-run says whether anything changed."""

from __future__ import annotations

import copy
import json
import os
import urllib.request
from pathlib import Path

import pytest

from raterlab import warehouse
from raterlab.cli import main
from raterlab.labelstudio.tasks import packet_tasks


@pytest.fixture
def env(issued, mini_path, monkeypatch):
    study, home, _, _ = issued
    monkeypatch.setenv("RATERLAB_HOME", str(home.root))
    monkeypatch.setenv("RATERLAB_STUDIES", str(mini_path.parent))
    return study, home


def _result(name: str, kind: str, key: str, value: str) -> dict:
    return {"from_name": name, "to_name": "shown_prompt", "type": kind, "value": {key: [value]}}


def _export(home, study, author: object = 1) -> list[dict]:
    """A JSON export of a1's main-01 answer project, every task answered by ``author``."""
    out = []
    for n, task in enumerate(packet_tasks(home, study, "a1", "main-01")["answer"]):
        result = [
            _result("score", "choices", "choices", "3"),
            _result("confidence", "choices", "choices", "medium"),
        ]
        annotation = {
            "id": n + 1,
            "completed_by": author,
            "result": result,
            "lead_time": 12.5,
            "was_cancelled": False,
            "updated_at": "2026-03-01T10:00:00Z",
        }
        out.append({"id": 100 + n, **task, "annotations": [annotation], "drafts": []})
    return out


def _write(tmp_path: Path, export: object, name: str = "export.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(export) if not isinstance(export, str) else export)
    return str(path)


def _user_map(tmp_path: Path, rows: str = "1,a1\n2,a2\n") -> str:
    path = tmp_path / "users.csv"
    path.write_text("user,annotator_id\n" + rows)
    return str(path)


def _ratings(home) -> list[tuple]:
    with warehouse.connect(home.warehouse) as con:
        return con.execute(
            "SELECT annotator_id, count(*) FROM gold.ratings GROUP BY ALL ORDER BY ALL"
        ).fetchall()


def _files_under(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}


def test_values_of_an_export_never_form_a_path(env, tmp_path, capsys):
    study, home = env
    export = _export(home, study, author={"id": 1, "email": "a1@lab.example"})
    export[0]["data"]["annotator_id"] = "../../../escaped"
    export[1]["data"]["batch"] = str(tmp_path / "absolute")
    export[2]["data"]["item"] = "../../../../item"
    path = _write(tmp_path, export)
    before = _files_under(tmp_path)
    code = main(["labelstudio", "import", "mini", path])
    out = capsys.readouterr().out
    assert code == 1
    assert "task 100 (item " in out and "data says annotator_id '../../../escaped'" in out
    assert "task 101 (item " in out and "but the sealed key has item" in out
    assert "task 102 (item ../../../../item): item '../../../../item' is not in the sealed" in out
    new = _files_under(tmp_path) - before
    assert all(p.startswith("home/") for p in new), new
    assert not (tmp_path / "absolute").exists() and not list(tmp_path.rglob("escaped*"))
    (returned,) = [p for p in new if p.startswith("home/inbox/")]
    assert returned == "home/inbox/mini/a1__main-01__labelstudio__a1_answer_annotations.csv"
    assert _ratings(home) == [("a1", len(export) - 3)]  # the rest is imported


def test_annotation_by_another_user_is_refused_alone_and_the_viewer_listed(env, tmp_path, capsys):
    study, home = env
    export = _export(home, study)
    export[0]["annotations"][0]["completed_by"] = 2  # a2 answered in a1's project
    export[1]["annotations"].append({**export[1]["annotations"][0], "id": 99, "completed_by": 7})
    export[2]["annotations"][0]["was_cancelled"] = True  # a1 skipped it
    export[3]["drafts"] = [{"id": 1, "user": "a3@lab.example", "result": []}]
    users = _user_map(tmp_path, "1,a1\n2,a2\na3@lab.example,a3\n")
    code = main(["labelstudio", "import", "mini", _write(tmp_path, export), "--user-map", users])
    out = capsys.readouterr().out
    token = export[0]["data"]["item"]
    assert code == 1
    assert (
        f"refused: task 100 (item {token}): annotation 1 by Label Studio user 2 (a2) is not by "
        "a1, whose packet this is; refused"
    ) in out
    assert "annotation 99 by Label Studio user 7 (no annotator) is not by a1" in out
    assert "Label Studio Community shows every project to every user" in out
    assert "  a2: a1's packet main-01 (answer)" in out
    assert "  a3: a1's packet main-01 (answer)" in out  # a draft shows a3 opened it
    assert "Label Studio user 7 (no annotator): a1's packet main-01 (answer)" in out
    assert _ratings(home) == [("a1", len(export) - 2)]  # task 101 keeps a1's own answer


def test_users_named_by_email_need_no_map(env, tmp_path, capsys):
    study, home = env
    export = _export(home, study, author={"id": 1, "email": "a1@lab.example"})
    export[0]["annotations"][0]["completed_by"] = {"id": 2, "email": "a2@lab.example"}
    assert main(["labelstudio", "import", "mini", _write(tmp_path, export)]) == 1
    assert "by Label Studio user 2 (a2@lab.example) (a2) is not by a1" in capsys.readouterr().out
    assert _ratings(home) == [("a1", len(export) - 1)]


def test_users_named_by_number_without_a_map_are_refused_clearly(env, tmp_path, capsys):
    study, home = env
    assert main(["labelstudio", "import", "mini", _write(tmp_path, _export(home, study))]) == 2
    err = capsys.readouterr().err
    assert "names Label Studio users by number only (1): pass --user-map FILE" in err
    bad = _user_map(tmp_path, "1,a1\n2,a9\n")
    assert main(["labelstudio", "import", "mini", _write(tmp_path, []), "--user-map", bad]) == 2
    assert "users.csv, row 3, column annotator_id: 'a9' is not an annotator" in (
        capsys.readouterr().err
    )


def test_a_rerun_says_nothing_changed_and_exits_0_unless_something_is_refused(
    env, tmp_path, capsys
):
    study, home = env
    users = _user_map(tmp_path)
    path = _write(tmp_path, _export(home, study))
    assert main(["labelstudio", "import", "mini", path, "--user-map", users]) == 0
    assert "accepted" in capsys.readouterr().out
    assert main(["labelstudio", "import", "mini", path, "--user-map", users]) == 0
    assert "Nothing changed" in capsys.readouterr().out
    export = _export(home, study)
    export[0]["annotations"][0]["completed_by"] = 2
    path = _write(tmp_path, export, "second.json")
    for _ in range(2):
        assert main(["labelstudio", "import", "mini", path, "--user-map", users]) == 1
        assert "refused: task 100" in capsys.readouterr().out


def _json_min(export: list[dict]) -> list[dict]:
    """The JSON_MIN export Label Studio makes of the same project (one record per annotation,
    answers by control name, the user as ``annotator``)."""
    records = []
    for task in export:
        for annotation in task["annotations"]:
            record = {**task["data"], "id": task["id"]}
            for result in annotation["result"]:
                (values,) = result["value"].values()
                record[result["from_name"]] = values[0] if len(values) == 1 else result["value"]
            record.update(
                annotator=annotation["completed_by"],
                annotation_id=annotation["id"],
                created_at=annotation["updated_at"],
                updated_at=annotation["updated_at"],
                lead_time=annotation["lead_time"],
            )
            records.append(record)
    return records


def test_json_min_export_is_imported(env, tmp_path, capsys):
    study, home = env
    export = _export(home, study)
    export[0]["annotations"][0]["result"].append(_result("notes", "textarea", "text", "long"))
    path = _write(tmp_path, _json_min(export))
    assert main(["labelstudio", "import", "mini", path, "--user-map", _user_map(tmp_path)]) == 0
    assert _ratings(home) == [("a1", len(export))]
    with warehouse.connect(home.warehouse) as con:
        notes = con.execute("SELECT notes FROM gold.ratings WHERE notes <> ''").fetchall()
        seconds = con.execute("SELECT DISTINCT time_spent_s FROM gold.ratings").fetchall()
    assert notes == [("long",)] and seconds == [(12.5,)]


@pytest.mark.parametrize(
    ("break_it", "message"),
    [
        (lambda t: t.update(annotations="oops"), "annotations is str 'oops'"),
        (lambda t: t["annotations"][0].update(lead_time="n/a"), "lead_time 'n/a' is not a"),
        (lambda t: t["annotations"][0].update(result={"x": 1}), "result is not a list"),
        (lambda t: t["annotations"][0]["result"][0].update(type="polygon"), "of type 'polygon'"),
        (lambda t: t.update(data="text"), "its data is 'text', not an object"),
    ],
)
def test_a_malformed_task_is_refused_alone(env, tmp_path, capsys, break_it, message):
    study, home = env
    export = _export(home, study)
    broken = copy.deepcopy(export)
    break_it(broken[0])
    path = _write(tmp_path, broken)
    assert main(["labelstudio", "import", "mini", path, "--user-map", _user_map(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "refused: task 100" in out and message in out and "not imported" in out
    assert _ratings(home) == [("a1", len(export) - 1)]


@pytest.mark.parametrize("separator", [",", "\t"])
def test_csv_and_tsv_exports_are_refused_with_what_to_export(env, tmp_path, capsys, separator):
    header = separator.join(["annotation_id", "annotator", "item", "score"])
    path = _write(tmp_path, f"{header}\n1{separator}1{separator}abc{separator}3\n", "e.csv")
    assert main(["labelstudio", "import", "mini", path]) == 2
    err = capsys.readouterr().err
    kind = "CSV" if separator == "," else "TSV"
    assert f"e.csv is a Label Studio {kind} export" in err and "use Export > JSON" in err


LS_URL = os.environ.get("RATERLAB_LABELSTUDIO_URL")
LS_TOKENS = {
    role: os.environ.get(f"RATERLAB_LABELSTUDIO_{role.upper()}_TOKEN")
    for role in ("owner", "a1", "other")
}


def _api(token: str, method: str, path: str, body: object | None = None) -> object:
    request = urllib.request.Request(
        f"{LS_URL.rstrip('/')}{path}",
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        body = response.read()
    try:
        return json.loads(body or b"null")
    except json.JSONDecodeError:
        return body.decode()


@pytest.mark.skipif(
    not (LS_URL and all(LS_TOKENS.values())),
    reason="set RATERLAB_LABELSTUDIO_URL and legacy API tokens of three users of one "
    "organization, RATERLAB_LABELSTUDIO_{OWNER,A1,OTHER}_TOKEN, to run against a real server",
)
def test_real_label_studio_two_users_round_trip(env, tmp_path: Path, capsys):
    """a1's project made from the exported config and tasks; a1 answers (and cancels one),
    another user answers one task; the JSON export imports a1's answers and refuses the other
    user's, the JSON_MIN export changes nothing, the CSV export is refused."""
    _, home = env
    owner, mine, other = (LS_TOKENS[r] for r in ("owner", "a1", "other"))
    assert main(["labelstudio", "export", "mini", "--annotator", "a1", "--batch", "main-01"]) == 0
    folder = home.outbox / "mini/a1/main-01"
    tasks = json.loads((folder / "a1_answer_annotations.labelstudio.json").read_text())
    config = (folder / "a1_answer_annotations.labelstudio.xml").read_text()
    title = f"raterlab mini a1 main-01 {os.getpid()}"
    project = _api(owner, "POST", "/api/projects", {"title": title, "label_config": config})
    try:
        _api(owner, "POST", f"/api/projects/{project['id']}/import", tasks)
        created = _api(owner, "GET", f"/api/tasks?project={project['id']}&page_size=1000")
        created = created["tasks"] if isinstance(created, dict) else created
        assert len(created) == len(tasks)
        ids = {
            name: _api(t, "GET", "/api/current-user/whoami")["id"]
            for name, t in (("a1", mine), ("other", other))
        }
        for n, task in enumerate(created):
            result = [
                _result("score", "choices", "choices", "5: good" if n % 2 else "skip / unclear"),
                _result("confidence", "choices", "choices", "medium"),
                _result("notes", "textarea", "text", "clear and correct"),
            ]
            body = {"result": result, "lead_time": 12.5}
            if n == 1:
                body = {"result": [], "was_cancelled": True}
            _api(other if n == 0 else mine, "POST", f"/api/tasks/{task['id']}/annotations", body)
        users = _user_map(tmp_path, f"{ids['a1']},a1\n{ids['other']},a2\n")
        for kind in ("JSON", "JSON_MIN", "CSV"):
            text = _api(owner, "GET", f"/api/projects/{project['id']}/export?exportType={kind}")
            path = _write(tmp_path, text, f"export.{kind.lower()}")
            code = main(["labelstudio", "import", "mini", path, "--user-map", users])
            out, err = capsys.readouterr()
            if kind == "CSV":
                assert code == 2 and "use Export > JSON" in err
                continue
            assert code == 1, out + err
            assert (
                f"refused: task {created[0]['id']} (item {tasks[0]['data']['item']}): "
                f"annotation" in out
            )
            assert f"by Label Studio user {ids['other']} (a2) is not by a1" in out
            assert "  a2: a1's packet main-01 (answer)" in out
            assert ("accepted" if kind == "JSON" else "Nothing changed") in out
        assert _ratings(home) == [("a1", len(tasks) - 2)]
    finally:
        _api(owner, "DELETE", f"/api/projects/{project['id']}")
