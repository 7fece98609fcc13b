"""The shipped instance's event log keeps its SQLite connections open
(``pipelines.event_log``) and is otherwise Dagster's: same files, a live run's events still
reach a watcher (the web UI's), and Dagster's own storage reads what it wrote."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import dagster as dg
from dagster._core.storage.event_log.sqlite.sqlite_event_log import SqliteEventLogStorage

from pipelines.event_log import KEPT, PooledSqliteEventLogStorage
from pipelines.instance import write_config


@dg.op
def one() -> int:
    return 1


@dg.job
def tiny() -> None:
    one()


def _instance(home: Path, monkeypatch) -> dg.DagsterInstance:
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    write_config(home)
    return dg.DagsterInstance.from_config(str(home))


def test_the_shipped_instance_stores_events_where_dagster_does(tmp_path: Path, monkeypatch):
    instance = _instance(tmp_path, monkeypatch)
    try:
        assert type(instance.event_log_storage) is PooledSqliteEventLogStorage
        result = tiny.execute_in_process(instance=instance)
        ours = [e.dagster_event_type for e in instance.all_logs(result.run_id)]
    finally:
        instance.dispose()
    assert {dg.DagsterEventType.STEP_SUCCESS, dg.DagsterEventType.RUN_SUCCESS} <= set(ours)
    assert (tmp_path / "history" / "runs" / f"{result.run_id}.db").is_file()
    dagsters = SqliteEventLogStorage(str(tmp_path / "history" / "runs"))
    try:
        assert [e.dagster_event_type for e in dagsters.get_logs_for_run(result.run_id)] == ours
    finally:
        dagsters.dispose()


def test_a_watcher_of_a_live_run_is_told_of_each_new_event(tmp_path: Path, monkeypatch):
    """The web UI watches a live run's database file; events written through the open
    connection touch it, as Dagster's own storage's closing connection did."""
    instance = _instance(tmp_path, monkeypatch)
    watcher = SqliteEventLogStorage(str(tmp_path / "history" / "runs"))
    seen: list[str] = []
    arrived = threading.Event()

    def callback(event, cursor) -> None:
        seen.append(event.message)
        arrived.set()

    try:
        run = instance.create_run_for_job(tiny)
        instance.report_engine_event("first", run)
        watcher.watch(run.run_id, None, callback)
        time.sleep(0.5)  # the watch is set up by a thread
        for n in range(3):
            arrived.clear()
            instance.report_engine_event(f"event {n}", run)
            assert arrived.wait(10), f"the watcher was not told of event {n}"
        assert seen[-1] == "event 2"
    finally:
        watcher.dispose()
        instance.dispose()


def test_reads_do_not_touch_the_file(tmp_path: Path, monkeypatch):
    """A watcher reads the run's events when told; a read that touched the file would tell it
    again, without end."""
    instance = _instance(tmp_path, monkeypatch)
    try:
        result = tiny.execute_in_process(instance=instance)
        path = tmp_path / "history" / "runs" / f"{result.run_id}.db"
        stamp = path.stat().st_mtime_ns
        time.sleep(0.01)
        assert instance.all_logs(result.run_id)
        assert path.stat().st_mtime_ns == stamp
    finally:
        instance.dispose()


def test_at_most_a_few_connections_stay_open(tmp_path: Path, monkeypatch):
    instance = _instance(tmp_path, monkeypatch)
    storage = instance.event_log_storage
    try:
        for _ in range(KEPT + 2):
            tiny.execute_in_process(instance=instance)
        assert len(storage._engines) == KEPT
    finally:
        instance.dispose()
    assert not storage._engines


def test_a_table_is_looked_for_until_found_then_remembered(tmp_path: Path, monkeypatch):
    instance = _instance(tmp_path, monkeypatch)
    storage = instance.event_log_storage
    asked: list[str] = []
    original = SqliteEventLogStorage.has_table

    def counting(self, name: str) -> bool:
        asked.append(name)
        return original(self, name)

    monkeypatch.setattr(SqliteEventLogStorage, "has_table", counting)
    try:
        assert storage.has_table("asset_check_executions")
        assert storage.has_table("asset_check_executions")
        assert not storage.has_table("no_such_table")
        assert not storage.has_table("no_such_table")
        assert asked == ["asset_check_executions", "no_such_table", "no_such_table"]
        storage.wipe()
        assert storage.has_table("asset_check_executions")
        assert asked[-1] == "asset_check_executions"
    finally:
        instance.dispose()


def test_events_are_committed_without_waiting_for_the_disk_in_wal_mode(tmp_path: Path, monkeypatch):
    instance = _instance(tmp_path, monkeypatch)
    try:
        result = tiny.execute_in_process(instance=instance)
        storage = instance.event_log_storage
        for shard in ("index", result.run_id):
            with storage._connect(shard) as conn:
                assert conn.exec_driver_sql("PRAGMA journal_mode").fetchall() == [("wal",)]
                assert conn.exec_driver_sql("PRAGMA synchronous").fetchall() == [(1,)]  # NORMAL
    finally:
        instance.dispose()
