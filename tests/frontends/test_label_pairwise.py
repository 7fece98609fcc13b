"""The terminal tool on a pairwise task (issue #29): both responses readable, side by side or
stacked, keys for left / right / tie (arrows too), answers written as the packet's cells and
taken by the one ingest path into the pair's canonical orientation."""

from __future__ import annotations

import asyncio
import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from raterlab import warehouse
from raterlab.ingest import ingest_file
from raterlab.protocol import load_study
from raterlab.protocol.pairwise import canonical
from raterlab.terminal import session as sessions
from raterlab.terminal.answers import problems, row_cells
from raterlab.terminal.app import LabelApp, PairView
from raterlab.terminal.form import questions
from raterlab.terminal.model import Labeler
from tests.conftest import STUDIES
from tests.frontends.test_label_app import TMUX, _keys, _wait_for


def _arena_with(**options):
    study = load_study(STUDIES / "pairwise_arena.yaml")
    task = study.tasks["preference"]
    field = task.fields["preference"].model_copy(update=options)
    fields = {**task.fields, "preference": field}
    tasks = {"preference": task.model_copy(update={"fields": fields})}
    return study.model_copy(update={"tasks": tasks})


def test_keys_follow_the_screen_and_every_answer_passes_ingest():
    study = load_study(STUDIES / "pairwise_arena.yaml")
    (pref, _reason) = questions(study.tasks["preference"])
    assert [(c.key, c.value) for c in pref.choices] == [("l", "left"), ("t", "tie"), ("r", "right")]
    assert pref.arrows
    strong = _arena_with(strength=True, tie=False, labels=["a", "b", "much_a", "much_b"])
    (pref, _reason) = questions(strong.tasks["preference"])
    assert [(c.key, c.value) for c in pref.choices] == [
        ("1", "much_left"),
        ("2", "left"),
        ("3", "right"),
        ("4", "much_right"),
    ]
    for study_, question in ((study, questions(study.tasks["preference"])[0]), (strong, pref)):
        for choice in question.choices:
            row = row_cells(
                study_, "preference", "rater_ana", "tok", {"preference": choice.value}, 12
            )
            assert problems(study_, "preference", row) == [], choice
        row = row_cells(study_, "preference", "rater_ana", "tok", {"preference": "a"}, 12)
        assert [p.column for p in problems(study_, "preference", row)] == ["preference"]


def _lines(view: PairView, width: int) -> list[str]:
    console = Console(width=width, record=True, color_system=None)
    console.print(view)
    return console.export_text().splitlines()


def test_pair_side_by_side_when_wide_and_stacked_when_narrow():
    view = PairView("the left answer\nsecond line", "the right answer")
    wide = _lines(view, 150)
    (heading,) = [line for line in wide if "LEFT" in line]
    assert "RIGHT" in heading  # one heading line, the two sides beside each other
    (row,) = [line for line in wide if "the left answer" in line]
    assert "the right answer" in row
    narrow = _lines(view, 76)
    left, right = narrow.index("◀ LEFT"), narrow.index("RIGHT ▶")
    assert narrow[left + 1] == "the left answer" and left < right
    assert narrow[right + 1] == "the right answer"


def _screen_text(app: LabelApp) -> str:
    return app.export_screenshot().replace("&#160;", " ")


def test_pilot_labels_a_pairwise_packet_that_ingest_takes(arena):
    study, home, key, generations = arena
    lab = Labeler.start(study, home, "rater_ana", "main", "preference")
    n = len(lab.items)
    records = generations["record"]
    systems = {r[k] for r in records for k in ("system_a", "system_b")}
    keys = [("right",), ("l",), ("t",), ("left",), ("r",)]

    async def drive(width: int, height: int) -> str:
        app = LabelApp(lab)
        async with app.run_test(size=(width, height)) as pilot:
            await pilot.pause()
            screen = _screen_text(app)
            assert "LEFT" in screen and "RIGHT" in screen and f"Pair 1/{n}" in screen
            assert not any(system in screen for system in systems)
            await pilot.press("x")
            assert "press one of L/T/R" in _screen_text(app)
            for index in range(n):
                await pilot.press(*keys[index % len(keys)])
                await pilot.press(*"why", "enter") if index == 0 else await pilot.press("enter")
            await pilot.press("f")
        return app.return_value

    assert asyncio.run(drive(80, 24)) == "finished"
    with open(lab.session.returnFile, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    seen = ["right", "left", "tie", "left", "right"]
    assert [r["preference"] for r in rows] == [seen[i % 5] for i in range(n)]
    assert rows[0]["reason"] == "why"
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, lab.session.returnFile, home, con)
        stored = dict(
            con.execute(
                "SELECT item_id, value FROM gold.labels WHERE annotator_id = 'rater_ana' "
                "AND field = 'preference' AND round = 'main'"
            ).fetchall()
        )
    assert result.status == "accepted", result.validation.issues
    mine = key[key["annotator_id"] == "rater_ana"].set_index("token")
    once = mine["item_id"].map(mine["item_id"].value_counts()) == 1  # no hidden duplicate
    checked = set()
    for row in rows:
        sealed = mine.loc[row["item"]]
        if sealed["kind"] == "item" and once[row["item"]]:
            expected = canonical(row["preference"], bool(sealed["swapped"]))
            assert stored[sealed["item_id"]] == expected
            checked.add((row["preference"], bool(sealed["swapped"])))
    assert {side for side, _ in checked} == {"left", "right", "tie"}
    assert {swapped for _, swapped in checked} == {True, False}


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)")
@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
def test_real_command_in_tmux_shows_both_sides_and_takes_arrows(arena, size):
    _, home, _, _ = arena
    name = f"raterlab-pairwise-{os.getpid()}-{size[0]}"
    raterlab = str(Path(sys.executable).with_name("raterlab"))
    env = f"RATERLAB_HOME={home.root} RATERLAB_STUDIES={STUDIES}"
    command = (  # without COLUMNS / LINES from pytest, which would fix the tool's size
        f"env -u COLUMNS -u LINES {env} {raterlab} label pairwise_arena --annotator rater_ana --run-id main; "
        "echo EXIT=$?; sleep 60"
    )
    width, height = size
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", name, "-x", str(width), "-y", str(height), command],
        check=True,
    )
    try:
        screen = _wait_for(name, "Pair 1/")
        lines = screen.splitlines()
        (left,) = [line for line in lines if "◀ LEFT" in line]
        assert ("RIGHT ▶" in left) == (width >= 100)  # side by side only when wide
        assert "[L/←] left is better" in screen and "[R/→] right is better" in screen
        _keys(name, "Right", "Enter")
        _wait_for(name, "Pair 2/")
        _keys(name, "q")
        _wait_for(name, "EXIT=0")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)
    (session_file,) = sessions.session_files(home)
    (label,) = json.loads(session_file.read_text())["labels"]
    assert label["preference"] == "right"
