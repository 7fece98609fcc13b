"""After a run of the asset graph, the warehouse holds every declared table exactly as
declared, each structural check passes, and each writing asset carries its column schema."""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
import duckdb
import yaml

from assets import (
    agreement,
    comparison,
    consensus,
    judge_verdicts,
    judges,
    metrics,
    pairwise,
    pairwise_ranking,
    quality,
)
from assets.design import routed_items_asset
from assets.ingest import labels
from assets.tables import column_schema
from pipelines.definitions import defs
from raterlab.tables import TABLES
from resources import Raterlab
from tests.conftest import STUDIES
from tests.consensus.conftest import build_home

WRITERS = [
    routed_items_asset,
    labels,
    *dg.load_assets_from_modules(
        [
            agreement,
            quality,
            consensus,
            metrics,
            judges,
            judge_verdicts,
            comparison,
            pairwise,
            pairwise_ranking,
        ]
    ),
]


def _records(n_items: int) -> list[dict]:
    lines = (STUDIES / "correctness_ab" / "generations.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    items = [r for r in records if r.get("role", "item") == "item"][:n_items]
    return items + [r for r in records if r.get("role", "item") != "item"]


def _declared_columns(con: duckdb.DuckDBPyConnection, name: str) -> list[tuple[str, str]]:
    schema, table = name.split(".")
    return con.execute(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position",
        [schema, table],
    ).fetchall()


def test_a_run_writes_every_table_as_declared(tmp_path: Path) -> None:
    data = yaml.safe_load((STUDIES / "correctness_ab.yaml").read_text())
    study, home = build_home(tmp_path, data, _records(24))
    resource = Raterlab(home=str(home.root), studies=str(tmp_path / "studies"))
    result = dg.materialize(
        WRITERS,
        partition_key=study.name,
        resources={"raterlab": resource},
        instance=dg.DagsterInstance.ephemeral(),
    )
    assert result.success
    checks = {e.check_name: e for e in result.get_asset_check_evaluations()}
    failed = {n: e.metadata["problems"].value for n, e in checks.items() if not e.passed}
    assert failed == {}
    gold = [t for t in TABLES.values() if t.schema == "gold" and "<" not in t.name]
    assert sorted(checks) == sorted(f"{t.name.split('.')[1]}_structure" for t in gold)

    con = duckdb.connect(str(home.warehouse), read_only=True)
    compared = []
    for table in TABLES.values():
        if "<" in table.name:
            continue
        actual = _declared_columns(con, table.name)
        if not actual:  # written by assets or commands outside this run
            assert table.schema != "gold", table.name
            continue
        compared.append(table.name)
        assert actual == [(c.name, c.type) for c in table.columns], table.name
    task = next(iter(study.tasks))
    for pattern in ("gold.<study>__<task>__consensus", "gold.<study>__<task>"):
        view = pattern.replace("<study>", study.name).replace("<task>", task)
        fixed = [(c.name, c.type) for c in TABLES[pattern]]
        assert _declared_columns(con, view)[: len(fixed)] == fixed, pattern
    present = con.execute(
        "SELECT DISTINCT table_schema || '.' || table_name FROM information_schema.tables "
        "WHERE table_schema IN ('raw', 'staging', 'gold') AND table_name NOT LIKE '%\\_\\_%' "
        "ESCAPE '\\'"
    ).fetchall()
    con.close()
    assert {"raw.generations", "staging.blinding_key", "staging.sim_files"} < set(compared)
    assert sorted(name for (name,) in present if name not in TABLES) == []


def test_each_writing_asset_carries_the_column_schema_of_its_tables() -> None:
    graph = defs.get_repository_def().asset_graph
    by_assets = [t for t in TABLES.values() if not t.written_by.startswith("raterlab ")]
    specs = {key.to_user_string(): graph.get(key) for key in graph.get_all_asset_keys()}
    assert {t.written_by for t in by_assets} <= set(specs)
    for table in by_assets:
        metadata = specs[table.written_by].metadata
        schema = column_schema(table)
        entry = metadata.get(f"{table.name} columns")
        shown = entry.schema if entry is not None else metadata["dagster/column_schema"]
        assert shown == schema, table.name
    consensus = specs["consensus"].metadata["dagster/column_schema"]
    assert [c.name for c in consensus.columns][:4] == ["study", "task", "item_id", "field"]
    status = next(c for c in consensus.columns if c.name == "status")
    assert status.constraints.nullable is False
    assert "key: study, task, item_id, field" in consensus.constraints.other
