"""Study-file features for bringing a protocol as it is: its own task and field names, units
rated in several tasks, thresholds that the design can compute, per-coefficient bands."""

from __future__ import annotations

import copy

import pytest

from raterlab.protocol import parse_study
from raterlab.protocol.load import StudyError
from tests.conftest import MINI_STUDY


def _problems(**changes) -> list[tuple[str, str]]:
    data = copy.deepcopy(MINI_STUDY)
    for path, value in changes.items():
        node = data
        *parents, last = path.split("__")
        for part in parents:
            node = node[part]
        node[last] = value
    try:
        parse_study(data)
    except StudyError as exc:
        return exc.problems
    return []


def test_protocol_names_are_accepted() -> None:
    data = copy.deepcopy(MINI_STUDY)
    data["tasks"]["trigger-accuracy"] = data["tasks"].pop("check")
    task = data["tasks"]["trigger-accuracy"]
    task["fields"] = {"triggerCorrect": {"type": "binary"}, "codeParses": {"type": "binary"}}
    task["constraints"] = ["codeParses => triggerCorrect"]
    data["routing"]["rules"][0]["when"]["in"] = ["trigger-accuracy"]
    study = parse_study(data)
    assert study.tasks["trigger-accuracy"].rating_fields == ["triggerCorrect", "codeParses"]


def test_names_that_break_files_or_sql_are_refused() -> None:
    fields = {
        "relevant": {"type": "binary"},
        "Relevant": {"type": "binary"},
        "a b": {"type": "binary"},
    }
    problems = _problems(tasks__check__fields=fields, tasks__check__constraints=[])
    assert (
        "tasks.check.fields.Relevant",
        "field name 'Relevant' differs from 'relevant' only in case",
    ) in problems
    assert (
        "tasks.check.fields.a b",
        "field name 'a b' must be letters, digits and '_', starting with a letter",
    ) in problems


def test_threshold_the_design_cannot_compute_is_a_load_error() -> None:
    problems = _problems(thresholds={"minimums": [{"coefficient": "cohen_kappa", "min": 0.6}]})
    assert problems and problems[0][0] == "thresholds.minimums[0]"
    assert "this design has 4 annotators" in problems[0][1]
    assert "fleiss_kappa" in problems[0][1]


def test_threshold_that_can_never_be_computed_on_its_field_is_a_load_error() -> None:
    minimums = [
        {"coefficient": "fleiss_kappa", "weights": "quadratic", "fields": ["score"], "min": 0.6},
        {"coefficient": "krippendorff_alpha", "level": "ratio", "fields": ["score"], "min": 0.6},
        {"coefficient": "fleiss_kappa", "slice": "tier", "min": 0.6},
        {"coefficient": "gwet_ac2", "weights": "linear", "fields": ["relevant"], "min": 0.6},
        {"coefficient": "fleiss_kappa", "fields": ["score"], "min": 0.6},
    ]
    problems = _problems(thresholds={"minimums": minimums})
    assert ("thresholds.minimums[0]", "score: fleiss_kappa takes no weights") in problems
    assert (
        "thresholds.minimums[1]",
        "score: alpha at level ratio is not computed for ordinal fields",
    ) in problems
    assert (
        "thresholds.minimums[2].slice",
        "must be 'key=value' with a key of slices, not 'tier'",
    ) in problems
    assert ("thresholds.minimums[3]", "relevant: linear weights need a Likert scale") in problems
    # Fleiss' kappa of Likert scores taken as categories is computed when a field is named.
    assert not [p for p in problems if p[0] == "thresholds.minimums[4]"]


def test_unit_and_run_keys_must_be_item_keys_of_every_task() -> None:
    problems = _problems(unit_key="prompt", run_key="model")
    assert ("unit_key", "'prompt' is not an item key of task 'check'") in problems
    assert not [p for p in problems if p[0] == "run_key"]


def test_coefficient_bands_parse_from_yaml_infinity() -> None:
    import yaml

    text = "fleiss_kappa: [[-.inf, below], [0.6, acceptable], [0.75, good], [0.85, excellent]]"
    data = copy.deepcopy(MINI_STUDY)
    data["thresholds"] = {"coefficient_bands": yaml.safe_load(text)}
    study = parse_study(data)
    assert study.thresholds.coefficient_bands["fleiss_kappa"][0] == (float("-inf"), "below")


@pytest.mark.parametrize("name", ["rag_triplet", "plugin_triggers", "gold_tiers"])
def test_bundled_guides_hold_no_hidden_value(name: str) -> None:
    """A guide goes into every packet: a hidden value in it (a stratum name, say) would fail
    the blocking leak check and hold the whole study back."""
    from raterlab.design.generations import read_generations
    from raterlab.design.verify import hidden_needles
    from raterlab.protocol import load_study
    from tests.conftest import STUDIES

    study = load_study(STUDIES / f"{name}.yaml")
    text = study.path_of(study.guide).read_text(encoding="utf-8")
    assert not sorted(n for n in hidden_needles(study, read_generations(study)) if n in text)
