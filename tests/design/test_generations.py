"""Generations JSONL: good files load; each kind of bad line is named with file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
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


@pytest.mark.parametrize("name", ["gold_tiers", "pairwise_arena"])
def test_chunks_hold_read_generations_rows_in_order_as_stored(name: str) -> None:
    from raterlab.design import generation_chunks
    from raterlab.protocol import load_study
    from raterlab.settings import studies_dir

    study = load_study(studies_dir() / f"{name}.yaml")
    whole = read_generations(study)
    chunks = list(generation_chunks(study, size=7))
    assert all(len(c) <= 7 for c in chunks) and len(chunks) == -(-len(whole) // 7)
    got = pd.concat(chunks, ignore_index=True)
    for column in ("record", "expected"):
        whole[column] = [
            None if v is None else json.dumps(v, ensure_ascii=False) for v in whole[column]
        ]
    assert _plain(got) == _plain(whole)
    assert json.loads(got.at[0, "record"]) == read_generations(study).at[0, "record"]


def _plain(frame: pd.DataFrame) -> list[dict]:
    return [
        {k: None if pd.isna(v) else v for k, v in row.items()} for row in frame.to_dict("records")
    ]


def test_chunks_raise_every_bad_line_once_the_file_is_read(mini, tmp_path: Path) -> None:
    from raterlab.design import generation_chunks

    lines = [json.dumps(r) for r in mini_records()]
    lines[24], lines[27] = "{not json", "[1, 2]"
    path = tmp_path / "gen.jsonl"
    path.write_text("\n".join(lines) + "\n")
    chunks = generation_chunks(mini, path, size=10)
    assert len(next(chunks)) == 10
    with pytest.raises(GenerationsError) as info:
        list(chunks)
    assert [p.line for p in info.value.problems] == [25, 28]
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    with pytest.raises(GenerationsError, match="holds no records"):
        list(generation_chunks(mini, empty))


def test_a_bad_line_after_chunks_were_written_leaves_the_table_as_it_was(mini, tmp_path) -> None:
    """The chunks go into one transaction: the error raised at the end of the file rolls back
    the chunks written before it, and a good file's chunks replace the study's rows."""
    from raterlab import warehouse
    from raterlab.design import generation_chunks

    lines = [json.dumps(r) for r in mini_records()]
    good, bad = tmp_path / "good.jsonl", tmp_path / "bad.jsonl"
    good.write_text("\n".join(lines[:40]) + "\n")
    bad.write_text("\n".join([*lines, "{"]) + "\n")
    with warehouse.connect(tmp_path / "w.duckdb") as con:
        table = "raw.generations"
        written = warehouse.replace_study_tables(
            con, "mini", {table: generation_chunks(mini, good, size=15)}
        )
        assert written == {table: 40}
        with pytest.raises(GenerationsError):
            warehouse.replace_study_tables(
                con, "mini", {table: generation_chunks(mini, bad, size=15)}
            )
        stored = con.execute(f"SELECT item_id, record FROM {table} ORDER BY line").df()
    assert stored["item_id"].tolist() == [r["id"] for r in mini_records()[:40]]
    assert json.loads(stored.at[0, "record"]) == read_generations(mini, good).at[0, "record"]


def test_decode_records_keeps_the_keys_asked_for() -> None:
    """A record decoded for a few keys holds those it has; missing records stay missing."""
    from raterlab.design.generations import decode_records

    records = [json.dumps({"a": 1, "b": "x" * 100, "c": None}), None, json.dumps({"b": 2})]
    assert decode_records(records) == [{"a": 1, "b": "x" * 100, "c": None}, None, {"b": 2}]
    assert decode_records(records, ["a", "c", "d"]) == [{"a": 1, "c": None}, None, {}]
    assert decode_records(records, []) == [{}, None, {}]


def test_record_of_takes_a_record_decoded_or_as_stored() -> None:
    from raterlab.design.generations import record_of

    assert record_of('{"a": 1, "b": [2]}') == {"a": 1, "b": [2]} == record_of({"a": 1, "b": [2]})
    assert record_of(None) == {} == record_of(float("nan"))
