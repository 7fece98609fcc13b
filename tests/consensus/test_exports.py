"""Exports against their documented shapes, the registry, and the one documented query."""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import pandas as pd
import pyarrow.parquet as pq
import pytest
from matplotlib.figure import Figure

from raterlab import figures, warehouse
from raterlab.adjudication.ingest import ingest_inbox
from raterlab.adjudication.packets import issue_packets
from raterlab.agreement.study import field_agreement, ratings
from raterlab.comparison.plot import comparison_plot
from raterlab.consensus.store import CONDITION_QUERY
from raterlab.design.rounds import latest_pilot_only
from raterlab.exports import exporters_for
from raterlab.exports.bundle import load_bundle
from raterlab.exports.gold_tier import gold_tier_jsonl
from raterlab.exports.labeler_files import labeler_files
from raterlab.exports.study_json import study_json
from raterlab.exports.write import write_exports
from raterlab.gold.build import build_consensus
from raterlab.protocol import Study, load_study
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
    "export_keys": {"prompt": "prompt_text", "response": "response_text"},
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


def write_agreement(con: duckdb.DuckDBPyConnection, study: Study) -> None:
    """``gold.agreement`` as the ``agreement`` asset writes it (without intervals), which the
    study JSON's kappa is read from."""
    labels = warehouse.read_table(con, "gold.labels", study.name)
    generations = warehouse.read_table(con, "raw.generations", study.name, ("record",))
    routed = warehouse.read_table(con, "staging.routed_items", study.name)
    items = generations[["item_id", "task", "record"]].merge(
        routed[["item_id", "tier", "stratum"]], on="item_id", how="left"
    )
    rows = latest_pilot_only(ratings(labels, items))
    table = field_agreement(study, rows, interval=None)
    warehouse.replace_study_rows(con, "gold.agreement", study.name, table)


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
        write_agreement(con, study)
        bundle = load_bundle(con, study, run_id="run-1")
    return study, home, bundle


@pytest.fixture(scope="module")
def mini_bundle(_built_loop):
    study, home = _built_loop
    with warehouse.connect(home.warehouse) as con:
        build_consensus(con, study)
        return study, load_bundle(con, study, run_id="run-2")


PROTOCOL = REPO.parent / "shared" / "seeds" / "000_5a446d59cbe3a9e4.txt"


def _json_type(value) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return {str: "string", list: "array", dict: "object", type(None): "null"}[type(value)]


def _paths(value, prefix: str = "") -> dict[str, str]:
    """Every key path of a JSON document and its JSON type; list elements are ``[]`` and an
    annotator id key of ``ratings`` is ``<annotator>``."""
    out = {prefix: _json_type(value)} if prefix else {}
    if isinstance(value, dict):
        for key, inner in value.items():
            name = key
            if prefix.endswith("ratings") and key not in ("consensus", "adjudicated"):
                name = "<annotator>"
            out.update(_paths(inner, f"{prefix}.{name}" if prefix else name))
    elif isinstance(value, list):
        for inner in value:
            out.update(_paths(inner, f"{prefix}[]"))
    return out


@pytest.mark.skipif(not PROTOCOL.exists(), reason="../shared/seeds is not beside the checkout")
def test_study_json_has_every_key_path_of_the_protocols_example(cab, tmp_path: Path) -> None:
    """The protocol's example export (its section 10), loaded from the protocol itself: every
    key path in it exists in ours with the same JSON type."""
    text = PROTOCOL.read_text(encoding="utf-8")
    example = json.loads(re.search(r"```json\n(.*?)```", text, re.DOTALL).group(1))
    study, _, bundle = cab
    assert study.export_keys == {"prompt": "prompt_text", "response": "response_text"}
    [path] = study_json(bundle, tmp_path)
    ours = _paths(json.loads(path.read_text()))
    wanted = _paths(example)
    assert len(wanted) == 24
    missing = {p: t for p, t in wanted.items() if ours.get(p) != t}
    assert not missing, {p: (t, ours.get(p)) for p, t in missing.items()}


def test_study_json_values(cab, tmp_path: Path) -> None:
    _, _, bundle = cab
    [path] = study_json(bundle, tmp_path)
    assert path == tmp_path / "cab.json"
    document = json.loads(path.read_text())
    assert set(document) == {"metadata", "annotations"}
    meta = document["metadata"]
    assert meta["version"] == "1" and meta["annotators"] == ["ann_kim", "ann_ortiz"]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", meta["date"])
    assert -1 <= meta["inter_rater_kappa"] <= 1
    # The study names no Cohen's kappa weights for the gate; its minimum says quadratic.
    assert meta["agreement"][0]["coefficient"] == "cohen_kappa"
    assert meta["agreement"][0]["weights"] == "quadratic"
    annotations = document["annotations"]
    assert meta["num_responses"] == len(annotations) == 60
    adjudicated = [a for a in annotations if a["ratings"]["adjudicated"]]
    assert meta["num_adjudicated"] == len(adjudicated) > 0
    first = annotations[0]
    assert first["prompt_text"].startswith("Write a paginated endpoint")
    assert "prompt" not in first and first["response_id"].endswith(("-A", "-B"))
    ratings = first["ratings"]
    annotators = [k for k in ratings if k not in ("consensus", "adjudicated")]
    assert 1 <= len(annotators) <= 3
    card = ratings[annotators[0]]
    assert {"score", "confidence", "time_spent", "correctness", "round"} <= set(card)
    assert card["score"] in (1, 2, 3, 4, 5) and card["score"] == card["correctness"]
    assert card["confidence"] in ("low", "medium", "high")
    # Consensus is a point of the scale, never a half; the mean is kept beside it.
    consensus = [a["ratings"]["consensus"] for a in annotations]
    assert all(c is None or c in (1, 2, 3, 4, 5) for c in consensus)
    assert all(isinstance(a["consensus_mean"], int | float) for a in annotations)
    for a in adjudicated:
        assert a["consensus_status"] == "adjudicated" and a["adjudication"][0]["rationale"]
        assert any(": adjudicated correctness = " in c for c in a["comments"])
    for a in annotations:
        assert all(c.split(": ", 1)[0] in a["ratings"] or "adjudicated" in c for c in a["comments"])


def test_labeler_files_shape(mini_bundle, tmp_path: Path) -> None:
    _, bundle = mini_bundle
    paths = labeler_files(bundle, tmp_path)
    assert tmp_path / "consensus" / "answer.json" in paths
    assert not (tmp_path / "labelers" / "consensus").exists()
    one = json.loads((tmp_path / "labelers" / "a1" / "check.json").read_text())
    assert set(one) == {"exportedAt", "dimension", "runId", "labelerId", "labels"}
    assert (one["dimension"], one["labelerId"], one["runId"]) == ("check", "a1", "run-2")
    assert one["exportedAt"].endswith("Z")
    label = one["labels"][0]
    assert {"itemId", "relevant", "sufficient", "confidence", "timestamp"} <= set(label)
    assert isinstance(label["relevant"], bool) and label["timestamp"].endswith("Z")
    for path in (tmp_path / "labelers").rglob("*.json"):  # every labeler file: seed 002's shape
        for entry in json.loads(path.read_text())["labels"]:
            assert {"itemId", "confidence", "timestamp"} <= set(entry), path
    consensus = json.loads((tmp_path / "consensus" / "answer.json").read_text())
    assert {"itemId", "status"} <= set(consensus["labels"][0])


def test_gold_tier_jsonl_shape(mini_bundle, tmp_path: Path) -> None:
    _, bundle = mini_bundle
    paths = gold_tier_jsonl(bundle, tmp_path)
    assert sorted(p.name for p in paths) == [
        "answer.jsonl",
        "check.jsonl",
        "sample_test_cases.json",
    ]
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
    text = (tmp_path / "data" / "sample_test_cases.json").read_text()
    samples = json.loads(text)
    # one case per line, shaped as a gold/*.jsonl line
    case_lines = [
        json.loads(t.strip().rstrip(",")) for t in text.splitlines() if t.startswith("    {")
    ]
    assert case_lines == samples["cases"]
    triage = bundle.items[
        (bundle.items["tier"] == "TRIAGE") & (bundle.items["status"] == "resolved")
    ]
    assert len(samples["cases"]) == samples["tiers"]["TRIAGE"]["n_cases"] == len(triage) > 0
    assert {c["tier"] for c in samples["cases"]} == {"TRIAGE"}
    assert "no noise floor is declared" in samples["tiers"]["TRIAGE"]["disclosure"]


def test_registry_and_parquet(cab, tmp_path: Path) -> None:
    files = (REPO / "studies").glob("*.yaml")
    names = {p.stem: [f.__name__ for f in exporters_for(load_study(p))] for p in files}
    assert names["correctness_ab"] == ["parquet_tables", "study_json", "comparison_files"]
    assert names["plugin_triggers"] == [
        "parquet_tables",
        "labeler_files",
        "judge_calibration",
        "comparison_files",
    ]
    assert names["gold_tiers"] == [
        "parquet_tables",
        "gold_tier_jsonl",
        "judge_calibration",
        "comparison_files",
    ]
    assert names["rag_triplet"] == ["parquet_tables", "system_metrics"]
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


def test_figures_of_the_previous_export_are_kept_only_when_written_again(
    cab, tmp_path: Path, monkeypatch
) -> None:
    """A re-export keeps an unchanged figure without drawing it (raterlab.figures) and drops
    a figure of the previous export that no exporter writes now."""
    _, _, bundle = cab
    table = pd.DataFrame(
        {
            "task": ["t"],
            "field": ["score"],
            "level": ["b"],
            "reference": ["a"],
            "slice": ["all"],
            "mean_diff": [0.3],
            "mean_diff_low": [0.1],
            "mean_diff_high": [0.5],
            "p_holm": [0.01],
        }
    )

    def plot_only(_bundle, folder: Path) -> list[Path]:
        return [comparison_plot("cab", table, folder / "comparison" / "plot.png")]

    monkeypatch.setattr(figures, "_SAVED", {})
    drawn: list = []
    original = Figure.savefig
    monkeypatch.setattr(
        Figure, "savefig", lambda f, *a, **k: drawn.append(a) or original(f, *a, **k)
    )
    monkeypatch.setattr("raterlab.exports.write.exporters_for", lambda study: [plot_only])
    write_exports(bundle, tmp_path)
    first = (tmp_path / "cab" / "comparison" / "plot.png").read_bytes()
    (tmp_path / "cab" / "old" / "figure.png").parent.mkdir()
    (tmp_path / "cab" / "old" / "figure.png").write_bytes(first)
    assert write_exports(bundle, tmp_path) == [Path("comparison/plot.png")]
    assert len(drawn) == 1
    assert (tmp_path / "cab" / "comparison" / "plot.png").read_bytes() == first
    assert not (tmp_path / "cab" / "old").exists()
