"""Judges in a study: the study file's section, blinding, imported judge files, the bundled
sample verdicts."""

from __future__ import annotations

import copy
import importlib.util
import json
import random
from pathlib import Path

import pandas as pd
import pytest

from raterlab.design import assign, read_generations, routed_items, seal, write_packets
from raterlab.design.verify import verify_no_hidden_values
from raterlab.judges.verdicts import (
    JudgeFileError,
    generation_verdicts,
    imported_verdicts,
    read_judge_file,
    store_imported,
)
from raterlab.protocol import StudyError, load_study, parse_study
from tests.conftest import MINI_STUDY, STUDIES

JUDGED = {
    **MINI_STUDY,
    "tasks": {
        **MINI_STUDY["tasks"],
        "answer": {
            **MINI_STUDY["tasks"]["answer"],
            "hidden": ["condition", "model", "uncertainty", "judge_score", "judge_conf"],
        },
    },
    "judges": {
        "group": "category",
        "system": "model",
        "panel": {
            "llm": {"fields": {"score": "judge_score"}, "confidence": "judge_conf"},
            "external": {"source": "import", "fields": {"score": "score_1to5", "relevant": "rel"}},
        },
    },
}


def _problems(edit) -> list[tuple[str, str]]:
    data = copy.deepcopy(JUDGED)
    edit(data)
    with pytest.raises(StudyError) as info:
        parse_study(data, "mini.yaml")
    return info.value.problems


def test_judges_section_loads() -> None:
    study = parse_study(copy.deepcopy(JUDGED), "mini.yaml")
    assert study.judges.panel["llm"].fields == {"score": "judge_score"}
    assert study.judges.bounds.max_alpha_drop == 0.1


def test_judges_section_errors_name_their_path() -> None:
    panel = "judges.panel.llm"
    assert (
        f"{panel}.fields.scor",
        "refers to unknown rating field 'scor'",
    ) in _problems(lambda d: d["judges"]["panel"]["llm"].update(fields={"scor": "judge_score"}))
    shown = _problems(lambda d: d["judges"]["panel"]["llm"].update(fields={"score": "prompt"}))
    assert (
        f"{panel}.fields.score",
        "key 'prompt' is shown to annotators; a judge verdict must be hidden",
    ) in shown
    assert (f"{panel}.confidence", "key 'judge_cnf' is not a hidden key of any task") in _problems(
        lambda d: d["judges"]["panel"]["llm"].update(confidence="judge_cnf")
    )
    assert ("judges.group", "refers to unknown item key 'prompt_id'") in _problems(
        lambda d: d["judges"].update(group="prompt_id")
    )
    assert (
        "judges.panel.external.confidence",
        "an imported judge's confidence is a file column",
    ) in _problems(lambda d: d["judges"]["panel"]["external"].update(confidence="x"))


@pytest.mark.parametrize("name", ["gold_tiers", "plugin_triggers"])
def test_judge_verdicts_never_reach_a_packet(name: str, tmp_path: Path) -> None:
    """Every judge key is hidden, so packets carry neither the keys nor their values (the
    rationales, in particular), checked by the pipeline's own leak check and by a plain
    search of every packet file."""
    study = load_study(STUDIES / f"{name}.yaml")
    judge_keys = {
        key
        for judge in study.judges.panel.values()
        for key in [*judge.fields.values(), judge.confidence]
        if key
    }
    assert judge_keys <= study.hidden_keys()
    generations = read_generations(study)
    key = seal(study, assign(study, routed_items(study, generations), generations), b"k" * 32)
    files = write_packets(study, key, generations, tmp_path)
    problems, numbers = verify_no_hidden_values(study, generations, files, tmp_path)
    assert problems == []
    assert numbers["files_scanned"] > 0
    text = "\n".join((tmp_path / f).read_text(encoding="utf-8") for f in files["file"])
    assert not any(k in text for k in judge_keys | {"judge_rationale"})
    rationales = [r.get("judge_rationale") for r in generations["record"]]
    assert not any(r and r in text for r in rationales)


def test_unparseable_generation_verdicts_are_counted() -> None:
    study = load_study(STUDIES / "gold_tiers.yaml")
    verdicts = generation_verdicts(study, read_generations(study))
    counts = verdicts.groupby("judge").agg(
        given=("raw", lambda s: s.notna().sum()), valid=("value", lambda s: s.notna().sum())
    )
    assert (counts["given"] == counts["given"].iloc[0]).all()
    assert counts.loc["judge_a", "valid"] == counts.loc["judge_a", "given"]
    assert 0.9 < counts.loc["judge_c", "valid"] / counts.loc["judge_c", "given"] < 1
    unsure = verdicts[(verdicts["judge"] == "judge_c") & verdicts["value"].isna()]
    assert set(unsure["raw"]) == {"unsure"}


def _judge_file(tmp_path: Path, rows: list[dict]) -> Path:
    path = tmp_path / "external.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


def test_judge_file_import_round_trip(tmp_path: Path) -> None:
    study = parse_study(copy.deepcopy(JUDGED), "mini.yaml")
    tasks_of = {"ans-001": "answer", "chk-001": "check"}
    path = _judge_file(
        tmp_path,
        [
            {
                "item_id": "ans-001",
                "judge": "external",
                "field": "score_1to5",
                "value": "4",
                "confidence": 0.8,
                "rationale": "fine",
            },
            {
                "item_id": "chk-001",
                "judge": "external",
                "field": "rel",
                "value": "yes",
                "confidence": None,
                "rationale": None,
            },
            {
                "item_id": "ans-001",
                "judge": "external",
                "field": "rel",
                "value": "no",
                "confidence": None,
                "rationale": None,
            },
        ],
    )
    with pytest.raises(JudgeFileError) as info:
        read_judge_file(study, path, tasks_of)
    assert info.value.problems == [
        "row 4, column field: item 'ans-001' is a answer item, which has no rating field 'relevant'"
    ]
    path = _judge_file(
        tmp_path,
        [
            {
                "item_id": "ans-001",
                "judge": "external",
                "field": "score_1to5",
                "value": "9",
                "confidence": 0.8,
                "rationale": "out of scale",
            },
            {
                "item_id": "chk-001",
                "judge": "external",
                "field": "rel",
                "value": "yes",
                "confidence": None,
                "rationale": None,
            },
        ],
    )
    verdicts = read_judge_file(study, path, tasks_of)
    assert verdicts["value"].tolist() == [None, "1"]  # 9 is outside 1..5: counted, unreadable
    assert verdicts["raw"].tolist() == ["9", "yes"]
    store_imported(verdicts, tmp_path / "store")
    back = imported_verdicts(tmp_path / "store")
    assert back[["item_id", "field", "value", "raw"]].values.tolist() == [
        ["ans-001", "score", None, "9"],
        ["chk-001", "relevant", "1", "yes"],
    ]


def test_judge_file_errors_name_row_column_rule_and_value(tmp_path: Path) -> None:
    study = parse_study(copy.deepcopy(JUDGED), "mini.yaml")
    path = _judge_file(
        tmp_path,
        [
            {
                "item_id": "ans-001",
                "judge": "llm",
                "field": "score_1to5",
                "value": 3,
                "confidence": 0.5,
            },
            {
                "item_id": "nope",
                "judge": "external",
                "field": "score_1to5",
                "value": 3,
                "confidence": 0.5,
            },
            {
                "item_id": "ans-001",
                "judge": "external",
                "field": "score",
                "value": 3,
                "confidence": 0.5,
            },
            {
                "item_id": "ans-001",
                "judge": "external",
                "field": "score_1to5",
                "value": 3,
                "confidence": 1.5,
            },
        ],
    )
    with pytest.raises(JudgeFileError) as info:
        read_judge_file(study, path, {"ans-001": "answer"})
    assert info.value.problems == [
        "row 2, column judge: 'llm' is not a judge declared with source: import in "
        "judges.panel (declared: external)",
        "row 3, column item_id: 'nope' is not an item of the study",
        "row 4, column field: 'score' is not a field of judge 'external' (its fields: rel, "
        "score_1to5)",
        "row 5, column confidence: '1.5' is not a number between 0 and 1",
    ]
    assert str(path) in str(info.value)


def _samples_module():
    path = STUDIES / "_generate" / "judges.py"
    spec = importlib.util.spec_from_file_location("sample_judges", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_sample_verdicts_depend_only_on_the_record() -> None:
    """Verdicts are a function of the record and the seed: the generated file holds them,
    and a subset in another order gets the same ones (so they compose with other changes to
    the sample material)."""
    samples = _samples_module()
    lines = (STUDIES / "gold_tiers" / "generations.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    judge_keys = [k for k in records[0] if k.startswith("judge_")]
    plain = [{k: v for k, v in r.items() if k not in judge_keys} for r in records]
    subset = random.Random(1).sample(plain, 60)
    again = samples.add_verdicts("gold_tiers", subset, 20261105)
    by_id = {r["id"]: r for r in records}
    assert all(r == by_id[r["id"]] for r in again)
    assert samples.add_verdicts("empathy", plain[:3], 1) == plain[:3]


def test_judges_import_command(tmp_path: Path, monkeypatch, capsys) -> None:
    from raterlab.cli import main
    from tests.conftest import mini_records, write_study

    records = [
        {**r, "judge_score": 3, "judge_conf": 0.7} if r["task"] == "answer" else r
        for r in mini_records()
    ]
    write_study(tmp_path / "studies", copy.deepcopy(JUDGED), records)
    monkeypatch.setenv("RATERLAB_STUDIES", str(tmp_path / "studies"))
    monkeypatch.setenv("RATERLAB_HOME", str(tmp_path / "home"))
    good = _judge_file(
        tmp_path,
        [
            {"item_id": "ans-001", "judge": "external", "field": "score_1to5", "value": "4"},
            {"item_id": "ans-002", "judge": "external", "field": "score_1to5", "value": "n/a"},
        ],
    )
    assert main(["judges", "import", "mini", str(good)]) == 0
    out = capsys.readouterr().out
    assert "external: 2 verdicts (1 unreadable)" in out
    stored = imported_verdicts(tmp_path / "home" / "judges" / "mini")
    assert stored["raw"].tolist() == ["4", "n/a"]
    bad = _judge_file(
        tmp_path, [{"item_id": "zzz", "judge": "external", "field": "score_1to5", "value": 1}]
    )
    assert main(["judges", "import", "mini", str(bad)]) == 2
    assert "row 2, column item_id: 'zzz' is not an item of the study" in capsys.readouterr().err


def _verdicts_row_by_row(study, generations: pd.DataFrame) -> pd.DataFrame:
    """The generations' verdicts as the specification says, one row at a time: per item in
    order, per judge and field in declared order, where the item's record has the key."""
    from raterlab.judges.verdicts import VERDICT_COLUMNS, parse_verdict

    rows = []
    for task_name, item_id, role, record in zip(
        generations["task"],
        generations["item_id"],
        generations["role"],
        generations["record"],
        strict=True,
    ):
        if role != "item":
            continue
        task = study.tasks[task_name]
        for judge, spec in study.judges.panel.items():
            if spec.source != "generations":
                continue
            confidence = float("nan")
            if spec.confidence:
                try:
                    confidence = float(record.get(spec.confidence))
                except (TypeError, ValueError):
                    confidence = float("nan")
                confidence = confidence if 0 <= confidence <= 1 else float("nan")
            for field, key in spec.fields.items():
                if field not in task.rating_fields or key not in task.hidden or key not in record:
                    continue
                raw = record[key]
                rows.append(
                    {
                        "task": task_name,
                        "item_id": str(item_id),
                        "judge": judge,
                        "field": field,
                        "value": parse_verdict(task.fields[field], raw),
                        "raw": None if raw is None else str(raw),
                        "confidence": confidence,
                        "source": "generations",
                        "run": "1",
                    }
                )
    frame = pd.DataFrame(rows, columns=list(VERDICT_COLUMNS), dtype=object)
    return frame.astype({"confidence": float}).where(frame.notna(), None)


@pytest.mark.parametrize("name", ["gold_tiers", "plugin_triggers"])
def test_generation_verdicts_match_the_row_by_row_reading(name: str) -> None:
    """Items of several tasks interleaved, keys missing, null, unparseable, out of range or
    of another JSON type: the verdicts built a column at a time are the row-by-row ones, in
    the same order."""
    study = load_study(STUDIES / f"{name}.yaml")
    generations = read_generations(study).sample(frac=1, random_state=3).reset_index(drop=True)
    keys = sorted({k for s in study.judges.panel.values() for k in s.fields.values()})
    odd = [None, "unsure", 3.0, True, " 1 ", 7, "", [1], {"a": 1}, 0.5, "-2"]
    rng = random.Random(5)
    records = []
    for record in generations["record"]:
        record = dict(record)
        for key in [*keys, "judge_a_confidence", "judge_confidence"]:
            roll = rng.random()
            if roll < 0.1:
                record.pop(key, None)
            elif roll < 0.3:
                record[key] = rng.choice(odd)
        records.append(record)
    generations["record"] = records
    expected = _verdicts_row_by_row(study, generations)
    found = generation_verdicts(study, generations)
    assert len(found) > 100
    pd.testing.assert_frame_equal(found, expected)
    none = generations.iloc[:0]
    pd.testing.assert_frame_equal(
        generation_verdicts(study, none), _verdicts_row_by_row(study, none)
    )
