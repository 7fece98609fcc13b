"""The labeling screen, driven in-process with Textual's Pilot, and the real command in tmux."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from textual.widgets import Static

from raterlab.terminal import session as sessions
from raterlab.terminal.app import LabelApp
from raterlab.terminal.model import Labeler


def _text(app: LabelApp, widget: str) -> str:
    return str(app.query_one(widget, Static).content)


def test_pilot_answers_refusal_back_view_quit(issued):
    study, home, _, _ = issued
    lab = Labeler.start(study, home, "a1", "main-01", "answer")

    n = len(lab.items)

    async def drive():
        app = LabelApp(lab)
        async with app.run_test(size=(110, 40)) as pilot:
            header = _text(app, "#header")
            assert header.startswith(f"Response 1/{n}") and "category:" in header
            assert "secret-model" not in _text(app, "#body")
            assert "[1] bad" in _text(app, "#question").replace("\\", "")
            await pilot.press("x")
            assert "press one of 1/2/3/4/5/S" in _text(app, "#problems")
            await pilot.press("5", "m", "enter")
            assert "notes are required" in _text(app, "#problems") or "notes is required" in (
                _text(app, "#problems")
            )
            await pilot.press(*"precise", "enter")
            assert _text(app, "#header").startswith(f"Response 2/{n}")
            await pilot.press("b")
            assert _text(app, "#header").startswith(f"Response 1/{n}")
            views = app.views()
            await pilot.press("v")
            if views:
                assert app.viewing == views[0].name and views[0].key == "v"
            else:
                assert "nothing to view in full" in _text(app, "#problems")
            await pilot.press("q")
        return app.return_value

    assert asyncio.run(drive()) == "saved"
    saved = sessions.load(home, lab.session.sessionId)
    assert saved.position == 0 and saved.draft["notes"] == "precise"


def test_pilot_finish_writes_the_return(issued):
    study, home, _, _ = issued
    lab = Labeler.start(study, home, "a1", "pilot", "check")

    async def drive():
        app = LabelApp(lab)
        async with app.run_test(size=(110, 40)) as pilot:
            for _ in lab.items:
                await pilot.press("y", "n")
            assert "All" in _text(app, "#header")
            await pilot.press("f")
        return app.return_value

    assert asyncio.run(drive()) == "finished"
    assert Path(lab.session.returnFile).is_file()


TMUX = shutil.which("tmux")


def _screen(name: str) -> str:
    return subprocess.run(
        ["tmux", "capture-pane", "-p", "-t", name], capture_output=True, text=True, check=True
    ).stdout


def _wait_for(name: str, text: str, timeout: float = 60) -> str:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        screen = _screen(name)
        if text in screen:
            return screen
        time.sleep(0.2)
    raise AssertionError(f"{text!r} never appeared; screen:\n{_screen(name)}")


def _keys(name: str, *keys: str) -> None:
    for key in keys:
        subprocess.run(["tmux", "send-keys", "-t", name, key], check=True)
        time.sleep(0.15)


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)")
def test_real_command_in_tmux_start_answer_quit_resume_finish(issued, mini_path):
    _, home, _, _ = issued
    name = f"raterlab-label-{os.getpid()}"
    raterlab = str(Path(sys.executable).with_name("raterlab"))
    env = f"RATERLAB_HOME={home.root} RATERLAB_STUDIES={mini_path.parent}"

    def run(args: str) -> None:
        command = f"env {env} {raterlab} label {args}; echo EXIT=$?; sleep 60"
        subprocess.run(
            ["tmux", "new-session", "-d", "-s", name, "-x", "110", "-y", "40", command],
            check=True,
        )

    try:
        run("mini --annotator a1 --batch pilot --dimension check")
        _wait_for(name, "1/")
        _keys(name, "y", "n")
        _wait_for(name, "2/")
        _keys(name, "q")
        _wait_for(name, "EXIT=0")
        subprocess.run(["tmux", "kill-session", "-t", name], check=True)
        (session_file,) = sessions.session_files(home)
        saved = json.loads(session_file.read_text())
        assert saved["completedScenarios"] == 1

        run(f"--resume --session-id {saved['sessionId']}")
        _wait_for(name, "2/")
        for _ in range(saved["totalScenarios"] - 1):
            _keys(name, "y", "n")
        _wait_for(name, "Finish")
        _keys(name, "f")
        _wait_for(name, "EXIT=0")
        finished = json.loads(session_file.read_text())
        assert finished["finishedAt"] and Path(finished["returnFile"]).is_file()
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)
