"""The pairwise field type and the task's pairwise block: what the study file accepts, what
an annotator may answer, and how an answer is re-expressed in the pair's orientation."""

from __future__ import annotations

import itertools

import pandas as pd
import pytest
from pydantic import TypeAdapter, ValidationError

from raterlab.ingest.row_checks import failures
from raterlab.ingest.rules import task_rules
from raterlab.protocol import PairwiseField, StudyError, load_study
from raterlab.protocol.answers import answer_values
from raterlab.protocol.fields import FieldSpec
from raterlab.protocol.pairwise import canonical, seen, stored_as_answer
from tests.conftest import STUDIES, write_study

FIELD = TypeAdapter(FieldSpec)


def test_answers_and_canonical_domain_follow_tie_and_strength() -> None:
    plain = FIELD.validate_python({"type": "pairwise"})
    assert isinstance(plain, PairwiseField)
    assert answer_values(plain) == ("left", "right", "tie")
    assert plain.domain() == ("a", "b", "tie")
    no_tie = FIELD.validate_python({"type": "pairwise", "tie": False})
    assert answer_values(no_tie) == ("left", "right")
    assert no_tie.domain() == ("a", "b")
    strong = FIELD.validate_python({"type": "pairwise", "strength": True})
    assert answer_values(strong) == ("left", "right", "tie", "much_left", "much_right")
    assert strong.domain() == ("a", "b", "tie", "much_a", "much_b")


def test_a_pairwise_field_takes_no_labels() -> None:
    with pytest.raises(ValidationError, match="takes no labels"):
        FIELD.validate_python({"type": "pairwise", "labels": ["x", "y"]})


@pytest.mark.parametrize("swapped", [False, True])
def test_seen_and_canonical_are_inverse_and_mirror_the_sides(swapped: bool) -> None:
    answers = ("left", "right", "tie", "much_left", "much_right")
    for answer in answers:
        assert seen(canonical(answer, swapped), swapped) == answer
    # With the sides swapped, the answer names the other system: a left pick is b.
    mirrored = {a: canonical(a, True) for a in answers}
    assert mirrored == {
        "left": "b",
        "right": "a",
        "tie": "tie",
        "much_left": "much_b",
        "much_right": "much_a",
    }
    assert all(canonical(a, False) != canonical(a, True) for a in answers if a != "tie")
    assert stored_as_answer("a") == "left" and stored_as_answer("skip") == "skip"


def _arena() -> dict:
    import yaml

    return yaml.safe_load((STUDIES / "pairwise_arena.yaml").read_text(encoding="utf-8"))


def _problems(tmp_path, change) -> str:
    study = _arena()
    change(study["tasks"]["preference"])
    study["generations"] = "pairwise_arena/generations.jsonl"
    path = write_study(tmp_path, study, [{"id": "x", "task": "preference"}])
    with pytest.raises(StudyError) as caught:
        load_study(path)
    return str(caught.value)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t["shown"].remove("response_left"), "shows 'response_left'"),
        (lambda t: t["hidden"].remove("system"), "'system' must be a hidden key"),
        (lambda t: t["pairwise"].update(prompt="query_id"), "'query_id' is not a shown"),
        (lambda t: t.pop("pairwise"), "needs the task's pairwise: block"),
        (
            lambda t: t["fields"].update(preference={"type": "categorical", "labels": ["x", "y"]}),
            "needs a field of type pairwise",
        ),
        (lambda t: t["pairwise"].update(pairs={"budget": 0}), "greater than 0"),
    ],
)
def test_study_checks_name_what_is_wrong(tmp_path, change, message: str) -> None:
    assert message in _problems(tmp_path, change)


def test_a_returned_cell_must_be_an_offered_answer() -> None:
    study = load_study(STUDIES / "pairwise_arena.yaml")
    rules = [r for r in task_rules(study, "preference") if r.name == "allowed_values"]
    cells = ["left", "RIGHT", " tie ", "", "a", "b", "much_left", "skip"]
    frame = pd.DataFrame({"preference": cells, "_row": range(len(cells))})
    broken = failures(frame, rules)
    refused = frame["preference"].iloc[broken["position"]]
    assert sorted(refused) == ["a", "b", "much_left", "skip"]
    # Without ties `tie` is refused; with strength, much_left is accepted.
    for tie, strength in itertools.product([False, True], [False, True]):
        field = {"type": "pairwise", "tie": tie, "strength": strength}
        task = study.tasks["preference"].model_copy(
            update={"fields": {"preference": FIELD.validate_python(field)}}
        )
        changed = study.model_copy(update={"tasks": {"preference": task}})
        rules = [r for r in task_rules(changed, "preference") if r.name == "allowed_values"]
        cells = pd.DataFrame({"preference": ["tie", "much_left"], "_row": [0, 1]})
        refused = set(cells["preference"].iloc[failures(cells, rules)["position"]])
        assert ("tie" in refused) is not tie
        assert ("much_left" in refused) is not strength
