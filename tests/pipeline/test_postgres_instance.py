"""The team instance config (``pipelines/dagster.team.yaml``) against a real Postgres server.

Opt-in: set ``RATERLAB_TEST_POSTGRES_URL`` to an empty database's URL (docs/operations.md, "For
a team: Postgres", says how to start a throwaway server on 127.0.0.1).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import dagster as dg
import pytest

from pipelines.instance import TEMPLATE
from pipelines.jobs import WRITES_WAREHOUSE

URL = os.environ.get("RATERLAB_TEST_POSTGRES_URL", "")
TEAM = TEMPLATE.with_name("dagster.team.yaml")

pytestmark = pytest.mark.skipif(
    not URL, reason="no Postgres server: set RATERLAB_TEST_POSTGRES_URL to run this test"
)


def test_runs_are_stored_in_postgres_and_queued_by_the_writer_tag(
    tmp_path: Path, monkeypatch
) -> None:
    from dagster_postgres import PostgresRunStorage

    from pipelines.definitions import defs
    from pipelines.demo import QUIET

    shutil.copyfile(TEAM, tmp_path / "dagster.yaml")
    monkeypatch.setenv("DAGSTER_POSTGRES_URL", URL)
    monkeypatch.setenv("RATERLAB_HOME", str(tmp_path / "home"))
    instance = dg.DagsterInstance.from_config(str(tmp_path))
    try:
        assert isinstance(instance.run_storage, PostgresRunStorage)
        limits = instance.get_concurrency_config().run_queue_config.tag_concurrency_limits
        [(key, value)] = WRITES_WAREHOUSE.items()
        assert [(t["key"], t["value"], t["limit"]) for t in limits] == [(key, value, 1)]
        result = defs.resolve_job_def("packets_job").execute_in_process(
            partition_key="correctness_ab", instance=instance, run_config=QUIET
        )
        assert result.success
        [record] = instance.get_run_records(dg.RunsFilter(run_ids=[result.run_id]))
        assert record.dagster_run.tags[key] == value
        assert instance.get_latest_materialization_event(dg.AssetKey("pilot_packets"))
    finally:
        instance.dispose()
