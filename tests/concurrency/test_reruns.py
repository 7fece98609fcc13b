"""A second run on unchanged ratings (the nightly schedule, a re-materialization) leaves
agreement and rater quality as they are, and new ratings make them compute again."""

from __future__ import annotations

import shutil
from pathlib import Path

import dagster as dg
import duckdb

from tests.concurrency.conftest import STUDY

ANALYSES = ("agreement", "rater_quality")
INGEST = ("returned_annotations", "validated_annotations", "labels")


def _ingest_and_analyse(home) -> dict[str, dict]:
    """The inbox ingested, then agreement and rater quality: each analysis's metadata."""
    from pipelines.definitions import defs
    from pipelines.demo import QUIET

    result = defs.resolve_job_def("ingest_job").execute_in_process(
        partition_key=STUDY,
        asset_selection=[dg.AssetKey(k) for k in (*INGEST, *ANALYSES)],
        instance=dg.DagsterInstance.ephemeral(),
        run_config=QUIET,
    )
    events = [e.materialization for e in result.get_asset_materialization_events()]
    return {m.asset_key.to_user_string(): m.metadata for m in events}


def _table(home: Path, table: str) -> list[tuple]:
    with duckdb.connect(str(home / "warehouse.duckdb"), read_only=True) as con:
        return con.sql(f"SELECT * EXCLUDE (study) FROM {table} ORDER BY ALL").fetchall()


def test_analyses_skip_when_the_ratings_they_read_did_not_change(home, tmp_path: Path) -> None:
    later = tmp_path / "later"
    later.mkdir()
    inbox = sorted((home.inbox / STUDY).iterdir())
    for path in inbox[: len(inbox) // 2]:
        shutil.move(path, later / path.name)
    first = _ingest_and_analyse(home)
    assert first["agreement"]["recomputed"].value is True
    assert "unchanged" not in first["rater_quality"]
    agreement = _table(home.root, "gold.agreement")

    again = _ingest_and_analyse(home)
    assert again["agreement"]["recomputed"].value is False
    assert again["agreement"]["rows"].value == first["agreement"]["rows"].value
    assert "unchanged" in again["rater_quality"]
    assert _table(home.root, "gold.agreement") == agreement

    for path in later.iterdir():
        shutil.move(path, home.inbox / STUDY / path.name)
    more = _ingest_and_analyse(home)
    assert more["agreement"]["recomputed"].value is True
    assert more["agreement"]["ratings"].value > first["agreement"]["ratings"].value
    assert "unchanged" not in more["rater_quality"]
