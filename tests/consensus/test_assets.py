"""The Dagster layer: the consensus assets and checks materialize a (shortened) bundled study,
the blocking contract passes and the exports are written."""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
import yaml

from assets import consensus
from raterlab.simulate.adjudicators import simulate_adjudication
from resources import Raterlab
from tests.conftest import STUDIES
from tests.consensus.conftest import build_home, ingest_pending


def _records(n_items: int) -> list[dict]:
    lines = (STUDIES / "correctness_ab" / "generations.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    items = [r for r in records if r.get("role", "item") == "item"][:n_items]
    return items + [r for r in records if r.get("role", "item") != "item"]


def _materialize(resource: Raterlab) -> dg.ExecuteInProcessResult:
    return dg.materialize(
        [
            *dg.load_assets_from_modules([consensus]),
            *dg.load_asset_checks_from_modules([consensus]),
        ],
        partition_key="correctness_ab",
        resources={"raterlab": resource},
        instance=dg.DagsterInstance.ephemeral(),
        raise_on_error=False,
    )


def test_consensus_group_materializes(tmp_path: Path) -> None:
    data = yaml.safe_load((STUDIES / "correctness_ab.yaml").read_text())
    data["consensus"]["adjudicate"]["likert_gap"] = 1
    study, home = build_home(tmp_path, data, _records(30))
    resource = Raterlab(home=str(home.root), studies=str(tmp_path / "studies"))

    first = _materialize(resource)
    assert first.success
    materialized = {m.asset_key.to_user_string() for m in first.get_asset_materialization_events()}
    assert materialized == {
        "adjudication_queue",
        "adjudication_packets",
        "adjudications",
        "consensus",
        "exports",
    }
    checks = {e.check_name: e.passed for e in first.get_asset_check_evaluations()}
    assert checks["gold_table_contract"] is True
    assert checks["adjudication_backlog"] is False  # the packet is out, nothing came back
    assert (home.outbox / "correctness_ab" / "adjudication" / "adj-001").is_dir()
    assert (home.reports / "correctness_ab" / "gold_contract" / "index.html").is_file()

    simulate_adjudication(study, home)
    ingest_pending(study, home)
    second = _materialize(resource)
    assert second.success
    checks = {e.check_name: e.passed for e in second.get_asset_check_evaluations()}
    structure = {n: p for n, p in checks.items() if n.endswith("_structure")}
    assert structure and all(structure.values())
    checks = {n: p for n, p in checks.items() if n not in structure}
    assert checks == {
        "gold_table_contract": True,
        "unresolved_consensus": True,
        "adjudication_backlog": True,
    }
    export = json.loads(
        (home.root / "exports" / "correctness_ab" / "correctness_ab.json").read_text()
    )
    assert export["metadata"]["num_adjudicated"] > 0
    assert export["metadata"]["run_id"] == second.run_id
    [spec] = consensus.consensus.specs
    columns = spec.metadata["dagster/column_schema"].columns
    assert [c.name for c in columns][:4] == ["study", "task", "item_id", "field"]


def _contract(result: dg.ExecuteInProcessResult) -> dg.AssetCheckEvaluation:
    [evaluation] = [
        e for e in result.get_asset_check_evaluations() if e.check_name == "gold_table_contract"
    ]
    return evaluation


def test_contract_runs_again_only_when_its_inputs_change(tmp_path: Path) -> None:
    """A run with nothing new takes the stored verdict; new decisions or lost Data Docs run
    Great Expectations again, and the stored rows are those a fresh run gives."""
    data = yaml.safe_load((STUDIES / "correctness_ab.yaml").read_text())
    data["consensus"]["adjudicate"]["likert_gap"] = 1
    study, home = build_home(tmp_path, data, _records(30))
    resource = Raterlab(home=str(home.root), studies=str(tmp_path / "studies"))
    docs = home.reports / "correctness_ab" / "gold_contract" / "index.html"

    first = _contract(_materialize(resource))
    assert first.metadata["recomputed"].value is True
    again = _contract(_materialize(resource))
    assert again.metadata["recomputed"].value is False
    assert again.passed and again.metadata["results"] == first.metadata["results"]

    simulate_adjudication(study, home)
    ingest_pending(study, home)
    assert _contract(_materialize(resource)).metadata["recomputed"].value is True
    docs.unlink()
    rebuilt = _contract(_materialize(resource))
    assert rebuilt.metadata["recomputed"].value is True and docs.is_file()
