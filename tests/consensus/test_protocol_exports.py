"""The labeler-file export is protocol 002's, key for key and type for type; the gold tier's
samples and costs are ADR-001's."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd
import pytest

from raterlab.design.cost import tier_costs
from raterlab.design.generations import read_generations
from raterlab.design.routing import routed_items
from raterlab.design.shares import share_problems, tier_shares
from raterlab.exports.bundle import ExportBundle
from raterlab.exports.labeler_files import labeler_files
from raterlab.protocol import load_study
from raterlab.tables import names
from raterlab.tables.adjudication import ADJUDICATIONS
from raterlab.tables.consensus import CONSENSUS
from tests.conftest import STUDIES

SEEDS = STUDIES.parent.parent / "shared" / "seeds"
PROTOCOL = SEEDS / "002_a25e458ae8c8989d.txt"


def _protocol_example() -> dict:
    """The ``Data Export Format`` example of protocol 002 (its only JSON code block)."""
    text = PROTOCOL.read_text(encoding="utf-8")
    block = re.search(r"```json\n(.*?)```", text, re.DOTALL)
    assert block, "protocol 002 has no JSON example"
    return json.loads(block.group(1))


def _paths(value, prefix="") -> dict[str, type]:
    """Every key path of a JSON document with the JSON type at it (lists: their items)."""
    out = {prefix: type(value)}
    if isinstance(value, dict):
        for k, v in value.items():
            out.update(_paths(v, f"{prefix}.{k}"))
    elif isinstance(value, list):
        for v in value:
            out.update(_paths(v, f"{prefix}[]"))
    return out


def _bundle() -> ExportBundle:
    study = load_study(STUDIES / "plugin_triggers.yaml")
    items, labels = [], []
    rating = 0
    stamp = pd.Timestamp("2026-11-02T10:15:00Z")
    cards = {
        "trigger-accuracy": [
            {"triggerCorrect": "1", "confidence": "high"},
            {"triggerCorrect": "0", "triggerComponentObserved": "db-toolkit:pg-query"},
            {"triggerCorrect": "skip", "skipReason": "no captures", "confidence": "low"},
        ],
        "code-validity": [{"codeParses": "0", "codeRuns": "0", "codeIssues": "bad indent; x"}],
        "completeness": [{"completenessScore": "4", "missingElements": "rollback"}],
    }
    for task, rows in cards.items():
        for i, values in enumerate(rows, start=1):
            item_id = f"scenario-00{i}:{task}"
            record = {"scenarioId": f"scenario-00{i}", "runId": "run-abc123"}
            items.append({"item_id": item_id, "task": task, "tier": "GOLD", "record": record})
            rating += 1
            confidence = values.pop("confidence", "medium")
            for field, value in values.items():
                labels.append(
                    {
                        "rating_id": rating,
                        "task": task,
                        "item_id": item_id,
                        "annotator_id": "labeler-1",
                        "field": field,
                        "value": value,
                        "confidence": confidence,
                        "time_spent_s": 40.0,
                        "notes": None,
                        "kind": "item",
                        "copy": 0,
                        "round": "main",
                        "ingested_at": stamp,
                    }
                )
    return ExportBundle(
        study=study,
        items=pd.DataFrame(items).assign(status="resolved", adjudicated=False),
        consensus=pd.DataFrame(columns=names(CONSENSUS)[1:]),
        adjudications=pd.DataFrame(columns=names(ADJUDICATIONS)[1:]),
        labels=pd.DataFrame(labels),
        run_id="dagster-run",
        exported_at=datetime(2026, 11, 3, 12, tzinfo=UTC),
    )


@pytest.mark.skipif(not PROTOCOL.exists(), reason="../shared/seeds is not beside the repository")
def test_every_key_path_of_the_protocol_example_exists_with_its_type(tmp_path: Path) -> None:
    labeler_files(_bundle(), tmp_path)
    ours = json.loads(
        (tmp_path / "labelers" / "labeler-1" / "run-abc123" / "trigger-accuracy.json").read_text()
    )
    theirs = _paths(_protocol_example())
    mine = _paths(ours)
    for path, kind in theirs.items():
        assert path in mine, f"protocol key {path} missing from the export"
        assert mine[path] is kind, f"{path}: {mine[path].__name__}, protocol {kind.__name__}"
    assert ours["dimension"] == "trigger-accuracy" and ours["runId"] == "run-abc123"
    assert ours["exportedAt"] == "2026-11-03T12:00:00Z"
    first, wrong, skipped = ours["labels"]
    assert first == {
        "scenarioId": "scenario-001",
        "triggerCorrect": True,
        "confidence": "high",
        "timestamp": "2026-11-02T10:15:00Z",
    }
    assert wrong["triggerCorrect"] is False
    assert wrong["triggerComponentObserved"] == "db-toolkit:pg-query"
    assert skipped["skipped"] is True and "triggerCorrect" not in skipped
    assert skipped["skipReason"] == "no captures"


def test_arrays_and_scores_have_the_protocol_types(tmp_path: Path) -> None:
    labeler_files(_bundle(), tmp_path)
    folder = tmp_path / "labelers" / "labeler-1" / "run-abc123"
    code = json.loads((folder / "code-validity.json").read_text())["labels"][0]
    assert code["codeParses"] is False and code["codeIssues"] == ["bad indent", "x"]
    done = json.loads((folder / "completeness.json").read_text())["labels"][0]
    assert done["completenessScore"] == 4 and isinstance(done["completenessScore"], int)
    assert done["missingElements"] == ["rollback"]


def test_gold_tiers_routing_shares_and_cost_are_the_adrs() -> None:
    study = load_study(STUDIES / "gold_tiers.yaml")
    routed = routed_items(study, read_generations(study))
    shares = tier_shares(study, routed).set_index("tier")
    assert abs(shares.loc["GOLD", "share"] - 0.40) <= 0.05
    assert share_problems(study, shares.reset_index()) == []
    costs = tier_costs(study, routed).set_index("tier")
    gold, triage = shares.loc["GOLD", "n"], shares.loc["TRIAGE", "n"]
    assert costs.loc["all", "cost"] == pytest.approx(0.40 * gold + 0.16 * triage)
    assert costs.loc["all", "labeler_days"] == pytest.approx(gold / 30 + triage / 80)
    assert costs.loc["all", "cost_per_case"] == pytest.approx(0.26, abs=0.005)


def test_shares_far_from_target_are_named() -> None:
    study = load_study(STUDIES / "gold_tiers.yaml")
    routed = pd.DataFrame({"tier": ["GOLD"] * 69 + ["TRIAGE"] * 31, "sampled": True})
    problems = share_problems(study, tier_shares(study, routed))
    assert problems == [
        "GOLD: 69.0% of items routed, target 40% (more than 5% off)",
        "TRIAGE: 31.0% of items routed, target 60% (more than 5% off)",
    ]
    # the ADR's own split: $0.40 x 0.4 + $0.16 x 0.6 = $0.256 per case
    adr = pd.DataFrame({"tier": ["GOLD"] * 400 + ["TRIAGE"] * 600, "sampled": True})
    assert tier_costs(study, adr).set_index("tier").loc["all", "cost_per_case"] == pytest.approx(
        0.256
    )
