"""The front ends' commands, run through ``raterlab.cli.main`` on an issued mini study."""

from __future__ import annotations

import json

import pytest

from raterlab.cli import main
from raterlab.terminal.model import Labeler


@pytest.fixture
def env(issued, mini_path, monkeypatch):
    study, home, _, _ = issued
    monkeypatch.setenv("RATERLAB_HOME", str(home.root))
    monkeypatch.setenv("RATERLAB_STUDIES", str(mini_path.parent))
    return study, home


def test_xlsx_and_labelstudio_export_write_beside_each_packet(env, capsys):
    _, home = env
    assert main(["xlsx", "mini", "--annotator", "a1"]) == 0
    assert main(["labelstudio", "export", "mini", "--annotator", "a1", "--batch", "pilot"]) == 0
    printed = capsys.readouterr().out.split()
    assert str(home.outbox / "mini/a1/pilot/a1_answer_annotations.xlsx") in printed
    assert str(home.outbox / "mini/a1/pilot/a1_check_annotations.labelstudio.xml") in printed
    assert main(["xlsx", "mini", "--annotator", "a1", "--batch", "nope"]) == 2
    assert "no packet 'nope' for a1" in capsys.readouterr().err


def test_label_export_and_errors(env, capsys):
    study, home = env
    lab = Labeler.start(study, home, "a1", "pilot", "check")
    lab.answer("y")
    lab.answer("y")
    assert main(["label", "--export", "--session-id", lab.session.sessionId]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported["labels"][0]["relevant"] is True and exported["runId"] == "pilot"
    assert (
        main(["label", "--export", "--session-id", lab.session.sessionId, "--format", "csv"]) == 0
    )
    assert capsys.readouterr().out.startswith(
        "annotator_id,item,relevant,sufficient,time_spent_s\n"
    )
    assert main(["label", "--resume", "--session-id", "nope"]) == 2
    assert "no session 'nope'" in capsys.readouterr().err
    assert main(["label", "mini", "--annotator", "a1", "--batch", "pilot"]) == 2
    assert "choose one with --dimension (answer, check)" in capsys.readouterr().err


def test_labelstudio_import_of_something_else_is_refused(env, tmp_path, capsys):
    path = tmp_path / "export.json"
    path.write_text('{"not": "a list"}')
    assert main(["labelstudio", "import", "mini", str(path)]) == 2
    assert "a list of tasks" in capsys.readouterr().err
