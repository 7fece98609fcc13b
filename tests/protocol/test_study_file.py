"""Study files: the bundled ones load; broken ones fail with the YAML path and a plain sentence."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml

from raterlab.exports import FORMATS
from raterlab.protocol import StudyError, load_study, parse_study, study_json_schema
from raterlab.protocol.study import EXPORT_FORMATS
from tests.conftest import BUNDLED, MINI_STUDY, STUDIES


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_study_loads(name: str) -> None:
    study = load_study(STUDIES / f"{name}.yaml")
    assert study.name == name
    assert all(task.rating_fields for task in study.tasks.values())


def test_mini_study_model(mini) -> None:
    answer = mini.tasks["answer"]
    assert answer.fields["score"].domain() == (1, 2, 3, 4, 5)
    assert answer.is_required("score") and not answer.is_required("notes")
    assert mini.tasks["check"].is_required("relevant")  # no_missing
    assert mini.routing.tiers == ["GOLD", "TRIAGE"]
    assert mini.hidden_keys() == {"condition", "model", "uncertainty"}


def _broken(edit) -> list[tuple[str, str]]:
    data = copy.deepcopy(MINI_STUDY)
    edit(data)
    with pytest.raises(StudyError) as info:
        parse_study(data, "mini.yaml")
    return info.value.problems


def _set(path: str, value):
    def edit(data):
        *parents, last = path.split(".")
        node = data
        for key in parents:
            node = node[int(key)] if key.isdigit() else node[key]
        node[int(last) if last.isdigit() else last] = value

    return edit


BROKEN = [
    (
        _set("tasks.check.constraints", ["sufficient => relevent"]),
        ("tasks.check.constraints[0]", "refers to unknown field 'relevent'"),
    ),
    (
        _set("tasks.answer.constraints", ["score => notes"]),
        (
            "tasks.answer.constraints[0]",
            "field 'score' is not binary; constraints relate binary fields",
        ),
    ),
    (
        _set("tasks.check.constraints", ["sufficient implies relevant"]),
        (
            "tasks.check.constraints[0]",
            "write a constraint as 'a => b' or 'a => not b', not 'sufficient implies relevant'",
        ),
    ),
    (
        _set("tasks.answer.fields.score.type", "stars"),
        (
            "tasks.answer.fields.score",
            "type must be one of binary, likert, categorical, confidence, text, list (got 'stars')",
        ),
    ),
    (
        _set("tasks.answer.fields.score.anchors", {0: "zero", 5: "good"}),
        ("tasks.answer.fields.score", "anchors [0] lie outside the scale 1..5"),
    ),
    (
        _set("tasks.answer.fields.score.max", 1),
        ("tasks.answer.fields.score", "max (1) must be greater than min (1)"),
    ),
    (
        _set("design.overlap", {"GOLD": 5, "TRIAGE": 1}),
        ("design", "overlap for tier GOLD is 5; it must be between 1 and the 4 annotators"),
    ),
    (
        _set("design.annotators", ["a1", "a1"]),
        ("design", "annotator ids must be unique"),
    ),
    (
        _set("design.seed", "soon"),
        ("design.seed", "input should be a valid integer, unable to parse string as an integer"),
    ),
    (_set("design.colour", "red"), ("design.colour", "is not a known setting here")),
    (
        _set("design.overlap", {"GOLD": 2}),
        ("design.overlap", "tier 'TRIAGE' (from routing) has no overlap"),
    ),
    (
        _set("routing.rules.1.when.field", "uncertanity"),
        ("routing.rules[1]", "refers to unknown item key 'uncertanity'"),
    ),
    (
        _set("routing.rules.1.when", {"field": "uncertainty", "gte": 0.5, "lt": 0.9}),
        (
            "routing.rules[1].when",
            "give exactly one operator of equals, in, not_in, gte, gt, lte, lt, contains_any, not_contains_any, regex (got ['gte', 'lt'])",
        ),
    ),
    (_set("slices", ["categroy"]), ("slices[0]", "refers to unknown item key 'categroy'")),
    (
        _set("exports", ["study_jsn"]),
        (
            "exports[0]",
            f"unknown export format 'study_jsn' (known: {', '.join(sorted(FORMATS))})",
        ),
    ),
    (
        _set("tasks.answer.conditional.0.require", ["note"]),
        ("tasks.answer.conditional[0]", "refers to unknown field 'note'"),
    ),
    (
        _set("tasks.answer.conditional.0.when.in", [1, 9]),
        ("tasks.answer.conditional[0]", "values [9] are not allowed for field 'score'"),
    ),
    (
        _set("tasks.answer.fields.score.skip", {"reason": "score"}),
        (
            "tasks.answer.fields.score.skip.reason",
            "must name a text field of this task, not 'score'",
        ),
    ),
    (
        _set("tasks.answer.hidden", ["condition", "model", "uncertainty", "prompt"]),
        ("tasks.answer.hidden", "key 'prompt' is both shown and hidden"),
    ),
    (
        _set(
            "thresholds",
            {"pilot_gate": {"coefficient": "cohen_kappa", "min": 0.7, "fields": ["scor"]}},
        ),
        ("thresholds.pilot_gate", "refers to unknown rating field 'scor'"),
    ),
    (
        _set("thresholds", {"minimums": [{"coefficient": "kappa", "min": 0.4}]}),
        (
            "thresholds.minimums[0].coefficient",
            "input should be 'krippendorff_alpha', 'cohen_kappa', 'scott_pi', 'fleiss_kappa', 'conger_kappa', 'light_kappa', 'gwet_ac1', 'gwet_ac2', 'brennan_prediger', 'percent_agreement' or 'icc'",
        ),
    ),
    (
        _set(
            "edge_cases",
            [
                {
                    "task": "answer",
                    "when": {"field": "response", "equals": ""},
                    "expect": {"score": 0},
                    "message": "m",
                }
            ],
        ),
        ("edge_cases[0]", "expects 0 for 'score', which is outside its domain"),
    ),
    (
        _set("design.annotators", ["a1", "=cmd"]),
        ("design.annotators[1]", "string should match pattern '^[A-Za-z0-9][A-Za-z0-9_.-]*$'"),
    ),
    (_set("name", "Mini Study"), ("name", "string should match pattern '^[a-z][a-z0-9_]*$'")),
]


@pytest.mark.parametrize(("edit", "expected"), BROKEN)
def test_broken_study_names_path_and_problem(edit, expected) -> None:
    assert expected in _broken(edit)


def test_missing_section_is_reported() -> None:
    problems = _broken(lambda d: d.pop("design"))
    assert ("design", "is required") in problems


def test_error_message_lists_every_problem() -> None:
    data = copy.deepcopy(MINI_STUDY)
    data["slices"] = ["nope"]
    data["tasks"]["check"]["constraints"] = ["sufficient => relevent"]
    with pytest.raises(StudyError) as info:
        parse_study(data, "mini.yaml")
    text = str(info.value)
    assert text.startswith("mini.yaml is not a valid study file:")
    assert "  tasks.check.constraints[0]: refers to unknown field 'relevent'" in text
    assert "  slices[0]: refers to unknown item key 'nope'" in text


def test_file_level_errors(tmp_path: Path, mini_path: Path) -> None:
    bad_yaml = tmp_path / "bad.yaml"
    bad_yaml.write_text("name: [unclosed\n")
    with pytest.raises(StudyError, match="is not valid YAML"):
        load_study(bad_yaml)
    renamed = mini_path.with_name("other.yaml")
    renamed.write_text(mini_path.read_text())
    with pytest.raises(StudyError) as info:
        load_study(renamed)
    assert info.value.problems == [("name", "must match the file name 'other'")]
    (mini_path.parent / "mini" / "guide.md").unlink()
    with pytest.raises(StudyError) as info:
        load_study(mini_path)
    assert info.value.problems == [
        ("guide", "file 'mini/guide.md' does not exist next to the study file")
    ]


def test_committed_json_schema_is_current() -> None:
    committed = json.loads((STUDIES / "study.schema.json").read_text())
    assert committed == study_json_schema(), (
        "run: raterlab study schema --out studies/study.schema.json"
    )


def test_bundled_files_declare_the_schema() -> None:
    for name in BUNDLED:
        first = (STUDIES / f"{name}.yaml").read_text().splitlines()[0]
        assert first == "# yaml-language-server: $schema=study.schema.json"
        assert yaml.safe_load((STUDIES / f"{name}.yaml").read_text())["name"] == name


def test_every_export_format_a_study_may_name_has_an_exporter() -> None:
    """The study file's vocabulary (protocol) and the exporters (exports) name the same formats."""
    assert tuple(FORMATS) == EXPORT_FORMATS


def test_a_study_read_again_is_parsed_once_and_follows_its_files(mini_path: Path) -> None:
    first = load_study(mini_path)
    assert load_study(mini_path) is first  # the same text: parsed once per process
    data = yaml.safe_load(mini_path.read_text())
    data["title"] = "Edited"
    mini_path.write_text(yaml.safe_dump(data, sort_keys=False))
    edited = load_study(mini_path)
    assert edited.title == "Edited" and first.title != "Edited"
    mini_path.write_text(yaml.safe_dump({**data, "tasks": {}}, sort_keys=False))
    with pytest.raises(StudyError):
        load_study(mini_path)
    mini_path.write_text(yaml.safe_dump(data, sort_keys=False))
    assert load_study(mini_path) is edited
    (mini_path.parent / "mini" / "guide.md").unlink()  # the files beside it are checked each time
    with pytest.raises(StudyError, match="does not exist next to the study file"):
        load_study(mini_path)
