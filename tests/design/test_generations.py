"""Generations JSONL: good files load; each kind of bad line is named with file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from raterlab.design import GenerationsError, read_generations
from tests.conftest import mini_records


def test_loads_items_and_quality_items(mini) -> None:
    items = read_generations(mini)
    assert items["role"].value_counts().to_dict() == {"item": 90, "attention": 3, "calibration": 2}
    first = items.iloc[0]
    assert first["item_id"] == "ans-000" and first["line"] == 1
    assert set(first["record"]) == {
        "prompt",
        "response",
        "category",
        "condition",
        "model",
        "uncertainty",
    }
    assert items.set_index("item_id").at["cal-1", "expected"] == {"score": 5}


def _problems(mini, tmp_path: Path, lines: list[str]) -> list[str]:
    path = tmp_path / "gen.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(GenerationsError) as info:
        read_generations(mini, path)
    return [str(p) for p in info.value.problems]


GOOD = json.dumps(mini_records()[0])


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "{not json",
            "gen.jsonl:2: not valid JSON: Expecting property name enclosed in double quotes",
        ),
        ("[1, 2]", "gen.jsonl:2: expected a JSON object, got list"),
        ('{"task": "answer"}', "gen.jsonl:2: missing 'id'"),
        (
            '{"id": "x", "task": "rank"}',
            "gen.jsonl:2: unknown task 'rank' (the study has answer, check)",
        ),
        (
            json.dumps({**mini_records()[1], "judge": "pass"}),
            "gen.jsonl:2: key 'judge' is not declared in tasks.answer.shown or .hidden",
        ),
        (
            json.dumps({k: v for k, v in mini_records()[1].items() if k != "model"}),
            "gen.jsonl:2: missing key 'model'",
        ),
        (GOOD, "gen.jsonl:2: duplicate id 'ans-000' (first on line 1)"),
        (
            json.dumps({**mini_records()[1], "role": "attention"}),
            "gen.jsonl:2: a attention item needs 'expected': the known answer per field",
        ),
        (
            json.dumps({**mini_records()[1], "role": "gold"}),
            "gen.jsonl:2: unknown role 'gold' (use one of item, attention, calibration)",
        ),
        (
            json.dumps({**mini_records()[1], "role": "calibration", "expected": {"score": 7}}),
            "gen.jsonl:2: 'expected' value 7 for 'score' is outside [1, 2, 3, 4, 5]",
        ),
        (
            json.dumps({**mini_records()[1], "expected": {"score": 3}}),
            "gen.jsonl:2: 'expected' is only for attention and calibration items",
        ),
    ],
)
def test_bad_line_is_reported(mini, tmp_path: Path, line: str, message: str) -> None:
    assert message in _problems(mini, tmp_path, [GOOD, line])


def test_every_bad_line_is_reported_not_just_the_first(mini, tmp_path: Path) -> None:
    problems = _problems(mini, tmp_path, ["{", GOOD, "[]", "{"])
    assert [p.split(":")[1] for p in problems] == ["1", "3", "4"]


def test_empty_file(mini, tmp_path: Path) -> None:
    assert _problems(mini, tmp_path, [""]) == ["gen.jsonl:0: the file holds no records"]
