"""The terminal tool on the bundled plugin_triggers study, as seed 002 describes it: keys typed
fast or slowly, sessions shared by two terminals or broken, going back, the seed's three
commands, the views, the guide, time per item and the JSON export's types."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from textual import events
from textual.widgets import Static

from raterlab.cli import build_parser
from raterlab.cli import label as label_cli
from raterlab.protocol import load_study, parse_study
from raterlab.settings import Home
from raterlab.terminal import session as sessions
from raterlab.terminal.app import LabelApp
from raterlab.terminal.model import Labeler
from raterlab.terminal.session import SessionError
from tests.conftest import MINI_STUDY, STUDIES
from tests.ingest.conftest import issue

TASK = "trigger-accuracy"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self):
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture(scope="module")
def plugin_packets(tmp_path_factory) -> Path:
    """plugin_triggers packets issued once into a home, copied by :func:`plugin`."""
    home = Home(tmp_path_factory.mktemp("plugin") / "home")
    issue(load_study(STUDIES / "plugin_triggers.yaml"), home)
    return home.root


@pytest.fixture
def plugin(plugin_packets: Path, tmp_path: Path):
    """(study, home) with ann_dube's and ann_fox's plugin_triggers packets, fresh per test."""
    import shutil

    root = tmp_path / "home"
    shutil.copytree(plugin_packets, root)
    return load_study(STUDIES / "plugin_triggers.yaml"), Home(root)


def _start(plugin, clock=None) -> Labeler:
    study, home = plugin
    return Labeler.start(study, home, "ann_dube", "pilot", TASK, clock=clock or Clock())


def _text(app: LabelApp, widget: str) -> str:
    return str(app.query_one(widget, Static).content)


def _burst(app: LabelApp, *keys: str) -> None:
    """Keys as a terminal delivers a fast burst: all sent before the app handles any."""
    for key in keys:
        character = {"enter": "\r", "escape": "\x1b"}.get(key, key if len(key) == 1 else None)
        app._driver.send_message(events.Key(key, character))


def _drive(lab: Labeler, script, size=(80, 24)):
    async def run():
        app = LabelApp(lab)
        async with app.run_test(size=size) as pilot:
            await script(app, pilot)
        return app

    return asyncio.run(run())


# -- type-ahead --------------------------------------------------------------------------------


@pytest.mark.parametrize("paced", [False, True], ids=["burst", "with pauses"])
def test_choice_enter_choice_enter_fills_the_item_as_typed(plugin, paced):
    """``Y Enter M Enter``: yes, nothing observed, medium confidence, no notes; fast or slow."""
    lab = _start(plugin)

    async def script(app, pilot):
        if paced:
            await pilot.press("y", "enter", "m", "enter")
        else:
            _burst(app, "y", "enter", "m", "enter")
            await pilot.pause(0.5)
        assert _text(app, "#header").startswith("Scenario 2/")

    _drive(lab, script)
    (label,) = lab.session.labels
    assert label["triggerCorrect"] is True and label["confidence"] == "medium"
    assert "triggerComponentObserved" not in label and "notes" not in label


def test_a_burst_over_several_items_is_queued_not_dropped(plugin):
    lab = _start(plugin)

    async def script(app, pilot):
        _burst(app, "n", "enter", "h", "enter", "y", "enter", "l", "enter")
        await pilot.pause(0.5)
        assert _text(app, "#header").startswith("Scenario 3/")
        assert _text(app, "#problems") == ""

    _drive(lab, script)
    first, second = lab.session.labels
    assert first["triggerCorrect"] is False and first["confidence"] == "high"
    assert second["triggerCorrect"] is True and second["confidence"] == "low"


def test_a_letter_typed_before_the_text_question_appeared_is_refused_visibly(plugin):
    """``Y M Enter`` in one burst: ``m`` meant confidence, not the observed component; it is
    not typed in, and the Enter typed with it does not submit: the question waits, saying so."""
    lab = _start(plugin)

    async def script(app, pilot):
        _burst(app, "y", "m", "enter")
        await pilot.pause(0.5)
        assert lab.question.field == "triggerComponentObserved"
        assert app.typed == ""
        assert "2 keys ignored (m, enter)" in _text(app, "#problems")
        await pilot.press(*"skill", "enter")  # typed once the question is on screen
        assert lab.question.field == "confidence"

    _drive(lab, script)
    assert lab.answers["triggerComponentObserved"] == "skill"


def test_keys_typed_before_a_refusal_appeared_are_ignored_visibly(plugin):
    lab = _start(plugin)

    async def script(app, pilot):
        _burst(app, "x", "y", "enter")
        await pilot.pause(0.5)
        problems = _text(app, "#problems")
        assert "press one of Y/N/S" in problems and "2 keys ignored (y, enter)" in problems
        assert lab.question.field == "triggerCorrect" and lab.answers == {}

    _drive(lab, script)


# -- sessions ----------------------------------------------------------------------------------


def test_a_second_process_on_an_open_session_is_refused_naming_the_first(plugin):
    study, home = plugin
    first = _start(plugin)
    session = sessions.load(home, first.session.sessionId)
    with pytest.raises(SessionError, match=rf"pid {os.getpid()} on \S+"):
        Labeler.resume(study, home, session)
    first.close()
    Labeler.resume(study, home, session).close()


def test_resume_in_another_process_is_refused_while_the_session_is_open(plugin):
    """The CLI's ``--resume`` in a second process, while this one holds the session."""
    _, home = plugin
    first = _start(plugin)
    env = {**os.environ, "RATERLAB_HOME": str(home.root)}
    command = ["label", "--resume", "--session-id", first.session.sessionId]
    code = f"import sys; from raterlab.cli import main; sys.exit(main({command!r}))"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode == 2
    assert f"is open in pid {os.getpid()} on" in done.stderr
    first.close()


def test_saves_that_overlap_do_not_share_a_temporary_file(plugin, monkeypatch):
    """A save that starts while another one of the same session is being written (two
    terminals did this) must not clobber or lose the other's temporary file."""
    lab = _start(plugin)
    home = lab.home
    real_fsync = os.fsync
    nested = []

    def fsync_with_a_second_writer(fd):
        real_fsync(fd)
        if not nested:
            nested.append(True)
            sessions.save(home, lab.session)  # the other terminal's write, mid-way

    monkeypatch.setattr(os, "fsync", fsync_with_a_second_writer)
    sessions.save(home, lab.session)
    monkeypatch.undo()
    assert sessions.load(home, lab.session.sessionId).sessionId == lab.session.sessionId
    assert not list(sessions.sessions_dir(home).glob(".*.tmp"))
    lab.close()


def test_a_broken_session_file_resumes_from_its_last_good_copy(plugin):
    study, home = plugin
    lab = _start(plugin)
    for key in ("y", "", "h", ""):
        assert lab.answer(key) == []
    assert lab.answer("n") == []
    lab.close()
    path = sessions.session_path(home, lab.session.sessionId)
    path.write_text('{"sessionId": "half written', encoding="utf-8")

    with pytest.raises(SessionError, match="resumes its last good copy"):
        sessions.load(home, lab.session.sessionId)
    session, note = sessions.recover(home, lab.session.sessionId)
    assert len(session.labels) == 1 and session.draft == {}
    assert "last good copy" in note and "1 label(s)" in note
    assert not path.samefile(sessions.previous_path(home, lab.session.sessionId))
    (aside,) = sessions.sessions_dir(home).glob("*.broken-*.json")
    assert aside.read_text(encoding="utf-8") == '{"sessionId": "half written'
    resumed = Labeler.resume(study, home, session)
    assert resumed.session.position == 1
    resumed.notice = note

    async def script(app, pilot):
        assert "resumed from its last good copy" in _text(app, "#problems")

    _drive(resumed, script)
    resumed.close()


def test_a_broken_session_without_a_good_copy_is_refused_clearly(plugin):
    _, home = plugin
    lab = _start(plugin)
    lab.close()
    sessions.previous_path(home, lab.session.sessionId).unlink(missing_ok=True)
    sessions.session_path(home, lab.session.sessionId).write_text("{", encoding="utf-8")
    with pytest.raises(SessionError, match=r"not a labeling session file.*no earlier copy"):
        sessions.recover(home, lab.session.sessionId)
    assert sessions.session_path(home, lab.session.sessionId).read_text() == "{"


# -- going back --------------------------------------------------------------------------------


def test_going_back_keeps_the_current_items_draft_and_seconds(plugin):
    clock = Clock()
    lab = _start(plugin, clock)
    for key in ("y", "", "h", ""):
        lab.answer(key)
    clock.t += 12
    lab.answer("n")  # item 2: triggerCorrect = 0, then 12 s on it
    clock.t += 3
    assert lab.back() is None and lab.back() is None  # to item 2's first question, to item 1
    assert lab.session.position == 0
    for key in ("y", "", "h", ""):
        lab.answer(key)
    assert lab.session.position == 1
    assert lab.answers == {"triggerCorrect": "0"}
    assert lab.question.field == "triggerComponentObserved"
    assert lab.session.draftSeconds == pytest.approx(15.0)


# -- the seed's three commands -------------------------------------------------------------------


def _args(*argv: str):
    return build_parser("label").parse_args(["label", *argv])


def test_the_seeds_start_command_on_an_annotators_machine(plugin, monkeypatch):
    """``label --dimension trigger-accuracy --run-id <run-id>``: the only packet that fits."""
    _, home = plugin
    import shutil

    shutil.rmtree(home.outbox / "plugin_triggers" / "ann_fox")
    shutil.rmtree(home.outbox / "plugin_triggers" / "ann_eze")
    monkeypatch.delenv("RATERLAB_ANNOTATOR", raising=False)
    lab = label_cli._labeler(_args("--dimension", TASK, "--run-id", "pilot"), home)
    assert (lab.session.labelerId, lab.session.runId, lab.task_name) == ("ann_dube", "pilot", TASK)
    lab.close()


def test_the_start_command_names_the_packets_when_several_fit(plugin, monkeypatch):
    _, home = plugin
    monkeypatch.delenv("RATERLAB_ANNOTATOR", raising=False)
    with pytest.raises(SessionError, match=r"ann_dube.*ann_fox.*--annotator"):
        label_cli._labeler(_args("--dimension", TASK, "--run-id", "pilot"), home)
    monkeypatch.setenv("RATERLAB_ANNOTATOR", "ann_fox")
    lab = label_cli._labeler(_args("--dimension", TASK, "--run-id", "pilot"), home)
    assert lab.session.labelerId == "ann_fox"
    lab.close()


def test_the_seeds_resume_and_export_commands(plugin, monkeypatch, capsys):
    _, home = plugin
    monkeypatch.setenv("RATERLAB_HOME", str(home.root))
    lab = _start(plugin)
    for key in ("y", "", "h", ""):
        lab.answer(key)
    for key in ("s", "", "l", "", "captures are empty"):
        assert lab.answer(key) == [], key
    lab.close()
    session_id = lab.session.sessionId

    resumed = label_cli._labeler(_args("--resume", "--session-id", session_id), home)
    assert resumed.session.position == 2
    resumed.close()

    from raterlab.cli import main

    assert main(["label", "--export", "--session-id", session_id, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert set(document) == {"exportedAt", "dimension", "runId", "labelerId", "labels"}
    yes, skipped = document["labels"]
    assert yes["triggerCorrect"] is True and yes["confidence"] == "high"
    assert isinstance(yes["scenarioId"], str) and isinstance(yes["timestamp"], str)
    assert "triggerCorrect" not in skipped
    assert skipped["skipped"] is True and skipped["skipReason"] == "captures are empty"
    assert main(["label", "--export", "--session-id", session_id, "--format", "csv"]) == 0
    assert ",skip," in capsys.readouterr().out  # the returned file keeps the protocol's cell


# -- views, scrolling, guide ---------------------------------------------------------------------


def test_tool_captures_view_beside_the_response_view_and_scrolling_at_80x24(plugin):
    lab = _start(plugin)

    async def script(app, pilot):
        keys = _text(app, "#keys")
        assert "[V] View full response" in keys and "[T] View full tool captures" in keys
        assert "PgUp/PgDn" in keys
        reading = app.query_one("#item")
        assert reading.size.height >= 8  # the reading area is most of an 80x24 screen
        await pilot.press("t")
        assert app.viewing == "tool_captures"
        captures = lab.item.shown["tool_captures"][0]["tool"]
        assert captures in _text(app, "#body") and "reading tool captures" in _text(app, "#header")
        await pilot.press("escape")
        assert app.viewing is None
        await pilot.press("y")  # on to the text question
        assert lab.question.kind == "text"
        keys = _text(app, "#keys")
        assert "PgUp/PgDn" in keys and "[Ctrl+T] View full tool captures" in keys
        await pilot.press("ctrl+v")
        assert app.viewing == "response"
        before = reading.scroll_y
        await pilot.press("pagedown")
        assert reading.scroll_y > before or reading.max_scroll_y == 0
        await pilot.press("ctrl+v")
        assert app.viewing is None and app.typed == ""  # view keys never become text

    _drive(lab, script)


def test_guide_and_edge_cases_open_from_the_tool(plugin):
    lab = _start(plugin)

    async def script(app, pilot):
        assert "[G] Guide" in _text(app, "#keys")
        await pilot.press("g")
        assert "Label YES (1) if" in _text(app, "#body")
        await pilot.press("g")
        assert app.viewing is None

    _drive(lab, script)


def test_an_edge_case_warning_shows_while_the_answer_can_change(issued):
    """The ingest's own edge-case check, on the answers given so far: ``good`` responses of
    category ``api`` should score 5 here (a rule of this test's study)."""
    _, home, _, _ = issued
    data = json.loads(json.dumps(MINI_STUDY))
    data["edge_cases"] = [
        {
            "task": "answer",
            "when": {"field": "category", "equals": "api"},
            "expect": {"score": 5},
            "message": "an api answer scores 5",
        }
    ]
    study = parse_study(data)
    lab = Labeler.start(study, home, "a1", "main-01", "answer", clock=Clock())
    while lab.item.shown.get("category") != "api":
        for key in ("3", "m", ""):
            assert lab.answer(key) == []
    assert lab.warnings() == []

    async def script(app, pilot):
        await pilot.press("3")
        assert "an api answer scores 5 (expected score = 5)" in _text(app, "#warnings")
        await pilot.press("b", "5")  # changed while still on the item: the warning goes
        assert _text(app, "#warnings") == ""

    _drive(lab, script, size=(110, 40))


# -- start-up ------------------------------------------------------------------------------------


def test_time_on_an_item_starts_when_it_is_shown(plugin):
    clock = Clock()
    lab = _start(plugin, clock)
    clock.t += 30  # start-up: imports, reading the packet, drawing

    async def script(app, pilot):
        clock.t += 7
        await pilot.press("y", "enter", "m", "enter")

    _drive(lab, script)
    assert lab.session.labels[0]["timeSpentS"] == 7.0


def test_the_first_screen_needs_no_pandas_polars_scipy_dagster(plugin):
    """Everything the first screen needs (the study, the packet, the session, the form, the
    screen) is imported without the pipeline's heavy libraries."""
    _, home = plugin
    code = textwrap.dedent(
        f"""
        import sys
        from raterlab.cli import build_parser
        from raterlab.cli.label import _labeler
        from raterlab.terminal.app import LabelApp
        from pathlib import Path
        from raterlab.settings import Home
        args = build_parser("label").parse_args(
            ["label", "plugin_triggers", "--annotator", "ann_dube", "--run-id", "pilot",
             "--dimension", "{TASK}"])
        lab = _labeler(args, Home(Path({str(home.root)!r})))
        LabelApp(lab)
        heavy = {{"pandas", "polars", "scipy", "dagster", "matplotlib", "pandera", "duckdb"}}
        print(sorted(heavy & set(sys.modules)))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
