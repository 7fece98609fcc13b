"""Exports against their documented shapes, the registry, and the one documented query."""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import pandas as pd
import pyarrow.parquet as pq
import pytest

from raterlab import warehouse
from raterlab.adjudication.ingest import ingest_inbox
from raterlab.adjudication.packets import issue_packets
from raterlab.consensus.build import build_consensus
from raterlab.consensus.store import CONDITION_QUERY
from raterlab.exports import exporters_for, load_bundle, write_exports
from raterlab.exports.formats import gold_tier_jsonl, labeler_files, study_json
from raterlab.protocol import load_study
from raterlab.simulate.adjudicators import simulate_adjudication
from tests.conftest import REPO
from tests.consensus.conftest import SECRET, build_home

CAB = {
    "name": "cab",
    "title": "Correctness A/B, small",
    "generations": "cab/generations.jsonl",
    "tasks": {
        "correctness": {
            "unit": "response",
            "shown": ["category", "prompt", "response"],
            "hidden": ["prompt_id", "condition", "model"],
            "fields": {
                "correctness": {"type": "likert", "min": 1, "max": 5},
                "confidence": {"type": "confidence"},
                "comments": {"type": "text"},
            },
        }
    },
    "design": {
        "annotators": ["ann_kim", "ann_ortiz"],
        "overlap": {"GOLD": 2},
        "pilot": {"fraction": 0.2},
        "time_floor_s": 5,
        "seed": 3,
    },
    "slices": ["category", "condition", "round"],
    "thresholds": {
        "minimums": [{"coefficient": "cohen_kappa", "weights": "quadratic", "min": 0.4}]
    },
    "consensus": {"likert": "median", "adjudicate": {"likert_gap": 1}},
}


def cab_records(n: int = 30) -> list[dict]:
    records = []
    for i in range(n):
        for condition in ("A", "B"):
            records.append(
                {
                    "id": f"p{i:03d}-{condition}",
                    "task": "correctness",
                    "category": ["api", "sql", "tests"][i % 3],
                    "prompt": f"Write a paginated endpoint number {i}.",
                    "response": f"def handler_{i}(cursor): return page(cursor)",
                    "prompt_id": f"p{i:03d}",
                    "condition": condition,
                    "model": "assistant-v1",
                }
            )
    return records


@pytest.fixture(scope="module")
def cab(tmp_path_factory: pytest.TempPathFactory):
    """The small correctness study through the whole loop, with its consensus published."""
    study, home = build_home(tmp_path_factory.mktemp("cab"), CAB, cab_records())
    with warehouse.connect(home.warehouse) as con:
        issue_packets(study, home, con, SECRET)
    simulate_adjudication(study, home)
    with warehouse.connect(home.warehouse) as con:
        ingest_inbox(study, home, con)
        build_consensus(con, study)
        bundle = load_bundle(con, study, run_id="run-1")
    return study, home, bundle


@pytest.fixture(scope="module")
def mini_bundle(_built_loop):
    study, home = _built_loop
    with warehouse.connect(home.warehouse) as con:
        build_consensus(con, study)
        return study, load_bundle(con, study, run_id="run-2")


def test_study_json_shape(cab, tmp_path: Path) -> None:
    _, _, bundle = cab
    [path] = study_json(bundle, tmp_path)
    assert path == tmp_path / "cab.json"
    document = json.loads(path.read_text())
    assert set(document) == {"metadata", "annotations"}
    meta = document["metadata"]
    assert {
        "study",
        "title",
        "version",
        "date",
        "exported_at",
        "run_id",
        "annotators",
        "inter_rater_kappa",
        "agreement",
        "n_responses",
        "n_ratings",
        "n_adjudicated",
        "consensus_policy",
    } == set(meta)
    assert meta["version"] == "1" and meta["annotators"] == ["ann_kim", "ann_ortiz"]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", meta["date"])
    assert -1 <= meta["inter_rater_kappa"] <= 1
    assert meta["agreement"][0]["coefficient"] == "cohen_kappa"
    assert meta["agreement"][0]["weights"] == "quadratic"
    assert meta["n_responses"] == len(document["annotations"]) == 60
    assert meta["n_adjudicated"] == sum(a["adjudicated"] for a in document["annotations"]) > 0
    first = document["annotations"][0]
    for key in (
        "response_id",
        "prompt_id",
        "condition",
        "category",
        "prompt",
        "response",
        "ratings",
        "consensus",
        "consensus_status",
        "adjudicated",
        "adjudication",
        "comments",
    ):
        assert key in first
    card = first["ratings"][0]
    assert {
        "annotator_id",
        "score",
        "correctness",
        "confidence",
        "time_spent_s",
        "comments",
    } <= set(card)
    assert card["score"] in (1, 2, 3, 4, 5) and card["score"] == card["correctness"]
    adjudicated = [a for a in document["annotations"] if a["adjudicated"]]
    assert all(
        a["consensus_status"] == "adjudicated" and a["adjudication"][0]["rationale"]
        for a in adjudicated
    )


def test_labeler_files_shape(mini_bundle, tmp_path: Path) -> None:
    _, bundle = mini_bundle
    paths = labeler_files(bundle, tmp_path)
    assert tmp_path / "labelers" / "consensus" / "score.json" in paths
    one = json.loads((tmp_path / "labelers" / "a1" / "relevant.json").read_text())
    assert set(one) == {"exportedAt", "dimension", "runId", "labelerId", "task", "labels"}
    assert (one["dimension"], one["labelerId"], one["runId"]) == ("relevant", "a1", "run-2")
    assert one["exportedAt"].endswith("Z")
    label = one["labels"][0]
    assert set(label) == {"itemId", "value", "confidence", "timeSpentS", "details", "round"}
    assert label["value"] in (0, 1)
    consensus = json.loads((tmp_path / "labelers" / "consensus" / "score.json").read_text())
    assert {"itemId", "value", "status", "confidence", "nRatings"} == set(consensus["labels"][0])


def test_gold_tier_jsonl_shape(mini_bundle, tmp_path: Path) -> None:
    _, bundle = mini_bundle
    paths = gold_tier_jsonl(bundle, tmp_path)
    assert sorted(p.name for p in paths) == ["answer.jsonl", "check.jsonl"]
    lines = [json.loads(x) for x in (tmp_path / "gold" / "check.jsonl").read_text().splitlines()]
    gold = bundle.items[
        (bundle.items["tier"] == "GOLD")
        & (bundle.items["task"] == "check")
        & (bundle.items["status"] == "resolved")
    ]
    assert len(lines) == len(gold) > 0
    line = lines[0]
    assert {
        "id",
        "task_type",
        "tier",
        "query",
        "chunk",
        "labels",
        "status",
        "confidence",
        "n_ratings",
        "adjudicated",
    } <= set(line)
    assert line["tier"] == "GOLD" and line["task_type"] == "check"
    assert set(line["labels"]) == {"relevant", "sufficient"}
    assert all(v in (0, 1) for v in line["labels"].values())


def test_registry_and_parquet(cab, tmp_path: Path) -> None:
    files = (REPO / "studies").glob("*.yaml")
    names = {p.stem: [f.__name__ for f in exporters_for(load_study(p))] for p in files}
    assert names["correctness_ab"] == ["parquet_tables", "study_json", "comparison_files"]
    assert names["plugin_triggers"] == ["parquet_tables", "labeler_files", "comparison_files"]
    assert names["gold_tiers"] == ["parquet_tables", "gold_tier_jsonl", "comparison_files"]
    assert names["empathy"] == ["parquet_tables", "comparison_files"]
    _, _, bundle = cab
    files = write_exports(bundle, tmp_path)
    assert sorted(str(f) for f in files) == [
        "parquet/adjudications.parquet",
        "parquet/consensus.parquet",
        "parquet/items.parquet",
        "parquet/labels.parquet",
    ]
    table = pq.read_table(tmp_path / "cab" / "parquet" / "consensus.parquet").to_pandas()
    assert len(table) == len(bundle.consensus) and (table["study"] == "cab").all()
    (tmp_path / "cab" / "stale.txt").write_text("old")
    write_exports(bundle, tmp_path)
    assert not (tmp_path / "cab" / "stale.txt").exists()


def test_the_documented_condition_query(cab) -> None:
    _, home, _ = cab
    docs = (REPO / "docs" / "gold_tables.md").read_text()
    assert CONDITION_QUERY.strip() in docs
    con = duckdb.connect(str(home.warehouse), read_only=True)
    result = con.execute(CONDITION_QUERY.replace("'correctness_ab'", "'cab'")).df()
    expected = con.execute(
        """SELECT i.category, i.condition, avg(c.value_num) AS mean
           FROM gold.consensus c JOIN gold.items i USING (study, task, item_id)
           WHERE c.study = 'cab' AND c.field = 'correctness'
           GROUP BY ALL"""
    ).df()
    con.close()
    assert list(result.columns) == ["category", "A", "B"]
    assert sorted(result["category"]) == ["api", "sql", "tests"]
    for row in expected.itertuples():
        got = result.set_index("category").loc[row.category, row.condition]
        assert got == pytest.approx(row.mean)


def test_views(cab) -> None:
    _, home, _ = cab
    con = duckdb.connect(str(home.warehouse), read_only=True)
    wide = con.execute("SELECT * FROM gold.cab__correctness__consensus").df()
    by = con.execute("SELECT * FROM gold.consensus_by_condition WHERE study = 'cab'").df()
    con.close()
    assert len(wide) == 60 and {
        "item_id",
        "condition",
        "category",
        "correctness",
        "correctness__status",
    } <= set(wide.columns)
    assert set(by["condition"]) == {"A", "B"}
    assert by["n_items"].sum() == 60
    assert pd.api.types.is_float_dtype(by["mean_value"])
