"""The shipped Dagster instance config queues runs that write the warehouse, one at a time."""

from __future__ import annotations

from pathlib import Path

import dagster as dg

from pipelines.instance import TEMPLATE, write_config
from pipelines.jobs import WRITES_WAREHOUSE


def test_the_instance_queues_warehouse_writers_one_at_a_time(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path))  # where its event log is
    write_config(tmp_path)
    instance = dg.DagsterInstance.from_config(str(tmp_path))
    try:
        assert type(instance.run_coordinator).__name__ == "QueuedRunCoordinator"
        queue = instance.get_concurrency_config().run_queue_config
        [(key, value)] = WRITES_WAREHOUSE.items()
        limits = [(t["key"], t.get("value"), t["limit"]) for t in queue.tag_concurrency_limits]
        assert limits == [(key, value, 1)]
        assert not instance.telemetry_enabled
    finally:
        instance.dispose()


def test_every_job_carries_the_writer_tag() -> None:
    from pipelines.definitions import defs

    jobs = [job for job in defs.resolve_all_job_defs() if not job.name.startswith("__")]
    assert len(jobs) >= 4
    for job in jobs:
        assert WRITES_WAREHOUSE.items() <= job.tags.items(), job.name


def test_a_users_own_config_is_kept(tmp_path: Path) -> None:
    write_config(tmp_path)
    assert (tmp_path / "dagster.yaml").read_text() == TEMPLATE.read_text()
    own = "run_storage:\n  module: dagster_postgres.run_storage\n"
    (tmp_path / "dagster.yaml").write_text(own)
    write_config(tmp_path)
    assert (tmp_path / "dagster.yaml").read_text() == own
