"""The labeling tool's logic without a terminal: questions from the study, answers checked by
ingest's rules, going back, sessions saved and resumed, time recorded, the return ingested."""

from __future__ import annotations

import json

import pytest

from raterlab import warehouse
from raterlab.ingest import ingest_file
from raterlab.protocol import parse_study
from raterlab.terminal import session as sessions
from raterlab.terminal.form import questions
from raterlab.terminal.model import Labeler, export
from raterlab.terminal.session import SessionError
from tests.conftest import MINI_STUDY
from tests.frontends.conftest import FRONT_END_STUDIES


class Clock:
    """A clock the test moves by hand."""

    def __init__(self):
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def _start(issued, task="answer", clock=None, batch="main-01"):
    study, home, _, _ = issued
    return Labeler.start(study, home, "a1", batch, task, clock=clock or Clock())


def test_questions_come_from_the_study_file(mini):
    answer = questions(mini.tasks["answer"])
    assert [q.field for q in answer] == ["score", "confidence", "notes"]
    score = answer[0]
    assert [(c.key, c.value) for c in score.choices] == [
        ("1", "1"),
        ("2", "2"),
        ("3", "3"),
        ("4", "4"),
        ("5", "5"),
        ("s", "skip"),
    ]
    assert score.choices[0].label == "bad" and score.choices[4].label == "good"
    assert [c.key for c in answer[1].choices] == ["l", "m", "h"]
    assert answer[2].kind == "text" and answer[2].skip_reason_of == "score"
    check = questions(mini.tasks["check"])
    assert [(c.key, c.value) for c in check[0].choices] == [("y", "1"), ("n", "0")]
    assert all(q.required for q in check)


def test_clashing_first_letters_fall_back_to_digits():
    data = json.loads(json.dumps(MINI_STUDY))
    data["tasks"]["answer"]["fields"]["verdict"] = {
        "type": "categorical",
        "labels": ["valid", "vague", "broken"],
    }
    study = parse_study(data)
    verdict = next(q for q in questions(study.tasks["answer"]) if q.field == "verdict")
    assert [c.key for c in verdict.choices] == ["1", "2", "3"]


def test_answers_are_checked_with_ingest_rules(issued):
    lab = _start(issued)
    assert lab.answer("x")[0].message == "press one of 1/2/3/4/5/S"
    assert lab.answer("5") == []
    assert lab.answer("m") == []
    problems = lab.answer("")
    assert [(p.column, p.rule) for p in problems] == [("notes", "conditional")]
    assert lab.session.position == 0
    assert lab.answer("cites the rule") == []
    assert lab.session.position == 1


def test_constraint_refuses_the_answer_that_breaks_it(issued):
    lab = _start(issued, task="check", batch="pilot")
    assert lab.answer("n") == []  # relevant = 0
    problems = lab.answer("y")  # sufficient = 1 while relevant = 0
    assert [(p.column, p.rule) for p in problems] == [("relevant", "constraint")]
    assert "sufficient => relevant" in problems[0].message
    assert lab.question.field == "sufficient" and "sufficient" not in lab.answers


def test_skip_asks_for_the_reason_only_when_skipped(issued):
    lab = _start(issued)
    lab.answer("s")
    lab.answer("l")
    assert lab.question.field == "notes"
    assert lab.answer("")[0].rule in ("skip_reason", "conditional")
    lab.answer("cannot judge")
    label = lab.session.labels[0]
    assert label["skipped"] is True and "score" not in label and label["notes"] == "cannot judge"
    assert lab.session.skippedScenarios == 1


def test_time_is_recorded_per_item_across_quit_and_resume(issued):
    study, home, _, _ = issued
    clock = Clock()
    lab = _start(issued, clock=clock)
    clock.t += 20
    lab.answer("3")
    clock.t += 5
    lab.save()  # quit mid-item
    lab.close()
    resumed = Labeler.resume(study, home, sessions.load(home, lab.session.sessionId), clock)
    assert resumed.question.field == "confidence" and resumed.answers == {"score": "3"}
    clock.t += 7
    resumed.answer("h")
    resumed.answer("")
    label = resumed.session.labels[0]
    assert label["timeSpentS"] == 32.0
    assert label["responseId"] == resumed.items[0].token
    assert {"sessionId", "labelerId", "dimension", "runId", "startedAt", "lastUpdatedAt"} <= set(
        json.loads(sessions.session_path(home, lab.session.sessionId).read_text())
    )


def test_going_back_where_the_study_allows_it(issued, mini):
    lab = _start(issued)
    lab.answer("3")
    lab.answer("h")
    lab.answer("")
    assert lab.session.position == 1
    assert lab.back() is None  # first question of item 2: back to item 1
    assert lab.session.position == 0 and lab.answers == {"score": "3", "confidence": "high"}
    assert lab.session.completedScenarios == 0

    data = json.loads(json.dumps(MINI_STUDY))
    data["tasks"]["answer"]["allow_back"] = False
    strict = Labeler(parse_study(data), lab.home, lab.session, lab.items, Clock())
    strict.answer("4")
    strict.answer("h")
    strict.answer("")
    assert strict.back() == (
        "this study does not allow going back to an item once you have moved on"
    )
    strict.answer("2")
    assert strict.back() is None and strict.question.field == "score"  # within the item: fine


def test_empathy_forbids_going_back():
    from raterlab.protocol import load_study
    from tests.conftest import STUDIES

    assert load_study(STUDIES / "empathy.yaml").tasks["reply"].allow_back is False


def test_a_second_session_on_the_same_packet_is_refused(issued):
    first = _start(issued)
    with pytest.raises(SessionError, match=first.session.sessionId):
        _start(issued)


def test_hidden_keys_never_reach_the_tool(issued):
    lab = _start(issued)
    for item in lab.items:
        assert set(item.shown) <= {"prompt", "response", "category"}
    saved = sessions.session_path(lab.home, lab.session.sessionId).read_text()
    assert "secret-model" not in saved and "condition" not in saved


def _label_all(lab):
    while not lab.done:
        for key in ("4", "m", "ok") if lab.task_name == "answer" else ("y", "n"):
            assert lab.answer(key) == []


def test_finished_session_is_ingested_like_a_csv_return(issued):
    study, home, _, _ = issued
    lab = _start(issued)
    _label_all(lab)
    path = lab.finish()
    assert path.parent == home.inbox / "mini" and path.name.startswith("a1__main-01__")
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, path, home, con)
        n = con.execute("SELECT count(*) FROM gold.ratings WHERE annotator_id = 'a1'").fetchone()
    assert result.status == "accepted", result.validation.issues
    assert n[0] == len(lab.items)

    exported = json.loads(export(lab, "json"))
    assert set(exported) == {"exportedAt", "dimension", "runId", "labelerId", "labels"}
    assert exported["labels"][0]["score"] == 4 and exported["labels"][0]["confidence"] == "medium"
    assert export(lab, "csv").encode() == path.read_bytes()


def test_finish_refuses_an_unfinished_session(issued):
    lab = _start(issued)
    with pytest.raises(SessionError, match="not labelled yet"):
        lab.finish()


@pytest.mark.parametrize("name", FRONT_END_STUDIES)
def test_every_bundled_study_gets_a_usable_form(name):
    """One key per answer, no clash with the tool's own keys, every field asked somewhere."""
    from raterlab.protocol import load_study
    from raterlab.terminal.form import RESERVED_KEYS
    from tests.conftest import STUDIES

    study = load_study(STUDIES / f"{name}.yaml")
    for task in study.tasks.values():
        asked = questions(task)
        assert [q.field for q in asked] == list(task.fields)
        for q in asked:
            keys = [c.key for c in q.choices]
            assert len(set(keys)) == len(keys)
            assert not set(keys) & RESERVED_KEYS
            assert q.kind == "text" or keys
