"""Packets -> simulated returns -> ingest: the labels are exactly what the annotators wrote,
planted mistakes are quarantined, and the guide's edge cases come back as warnings."""

from __future__ import annotations

import json

import pandas as pd

from raterlab import warehouse
from raterlab.ingest import ingest_file
from raterlab.ingest.audit import pending_files
from raterlab.protocol import parse_study
from raterlab.simulate import simulate
from tests.conftest import MINI_STUDY
from tests.ingest.conftest import filled, write


def _returned_values(path) -> pd.DataFrame:
    frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")
    frame = frame.loc[:, [c for c in frame.columns if c.strip() and not c.startswith("Unnamed")]]
    return frame[frame["item"].str.strip() != ""]


def test_simulated_returns_round_trip_into_labels(issued) -> None:
    study, home, _, _ = issued
    summary = simulate(study, home)
    planted = {row.file: json.loads(row.mistakes) for row in summary.written.itertuples()}
    with warehouse.connect(home.warehouse) as con:
        results = {
            p.name: ingest_file(study, p, home, con) for p in pending_files(home.inbox / "mini")
        }
        labels = warehouse.read_study_rows(con, "gold.labels", "mini")
    for name, result in results.items():
        rejecting = [m for m in planted[name] if m["kind"] != "missing_row"]
        assert (result.status == "rejected") == bool(rejecting), (name, result.validation.errors)
    accepted = [n for n, r in results.items() if r.status == "accepted"]
    assert accepted
    compared = 0
    for name in accepted:
        returned = _returned_values(home.inbox / "mini" / name)
        task = "answer" if "_answer_" in name else "check"
        mine = labels[labels["source_file"] == name].set_index(["token", "field"])["value"]
        for field in study.tasks[task].fields:
            if field == "confidence":
                got = (
                    labels[labels["source_file"] == name]
                    .drop_duplicates("token")
                    .set_index("token")["confidence"]
                )
                want = returned.set_index("item")[field].str.strip().str.lower()
                assert (got.reindex(want.index) == want).all()
                continue
            for token, value in zip(returned["item"], returned[field], strict=True):
                value = value.strip()
                if value == "":
                    assert (token, field) not in mine.index
                    continue
                stored = mine[(token, field)]
                if field in ("score", "relevant", "sufficient") and value != "skip":
                    assert float(stored) == float(value), (name, token, field)
                else:
                    assert stored == value.replace("\r\n", "\n"), (name, token, field)
                compared += 1
    assert compared > 100


def test_edge_case_rules_are_warnings_not_rejections(issued, tmp_path) -> None:
    _, home, key, _ = issued
    study = parse_study(
        {
            **MINI_STUDY,
            "edge_cases": [
                {
                    "task": "answer",
                    "when": {"field": "response", "contains_any": ["=SUM"]},
                    "expect": {"score": 1},
                    "message": "a spreadsheet formula as an answer scores 1",
                }
            ],
        }
    ).model_copy(update={"source": issued[0].source})
    frame = filled(home, "a1", "pilot", "answer")  # every score 3
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, write(frame, tmp_path / "a1.csv"), home, con)
    assert result.status == "accepted"
    warnings = result.validation.warnings
    edge = warnings[warnings["rule"] == "edge_case"]
    ordinary = key[
        (key["annotator_id"] == "a1")
        & (key["batch"] == "pilot")
        & (key["task"] == "answer")
        & key["item_id"].str.startswith("ans-")
    ]
    assert len(edge) == len(ordinary) > 0
    assert set(edge["message"]) == {
        "a spreadsheet formula as an answer scores 1 (expected score = 1)"
    }
    assert set(edge["value"]) == {"3"}
