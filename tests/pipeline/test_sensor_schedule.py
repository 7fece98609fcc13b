"""The inbox sensor starts one ingest run per study with files not yet in the warehouse, and
retries one whose run failed; the nightly schedule refreshes agreement for every study. Both
are stopped until a data engineer turns them on."""

from __future__ import annotations

import datetime as dt
import os
import time
from pathlib import Path

import dagster as dg
import pytest

import pipelines.sensors
from pipelines.schedules import nightly_agreement
from pipelines.sensors import MAX_RETRIES, SETTLE_S, inbox_sensor
from raterlab import warehouse
from raterlab.files import sha256_of
from raterlab.ingest.store import ensure_tables
from raterlab.settings import Home
from tests.concurrency.conftest import held_lock
from tests.conftest import STUDIES


def _requests(context) -> list[dg.RunRequest]:
    return list(inbox_sensor(context).run_requests)


@dg.op
def _boom() -> None:
    raise RuntimeError("the run failed")


@dg.job
def _failing() -> None:
    _boom()


def _fail_run(instance: dg.DagsterInstance, run_key: str) -> None:
    """A failed run under ``run_key`` in the instance, as a sensor-launched run leaves one."""
    _failing.execute_in_process(
        instance=instance, tags={"dagster/run_key": run_key}, raise_on_error=False
    )


@pytest.fixture
def instance(tmp_path: Path, monkeypatch) -> dg.DagsterInstance:
    monkeypatch.setenv("RATERLAB_HOME", str(tmp_path / "home"))
    with dg.instance_for_test() as instance:
        yield instance


def _settled(path: Path) -> Path:
    """Back-date ``path`` past the sensor's settling time."""
    then = time.time() - SETTLE_S - 1
    os.utime(path, (then, then))
    return path


def _return(name: str) -> Path:
    inbox = Home.from_env().inbox / "empathy"
    inbox.mkdir(parents=True, exist_ok=True)
    (inbox / name).write_text(f"annotator_id,item\n{name},x\n")
    return _settled(inbox / name)


def test_inbox_sensor_asks_once_per_set_of_new_contents(instance) -> None:
    context = dg.build_sensor_context(instance=instance)
    assert _requests(context) == []
    first_file = _return("ann_gray__pilot__ann_gray_annotations.csv")
    (first_file.parent / ".~lock.file#").write_text("")  # an editor's lock file is not a return
    first = _requests(context)
    assert [(r.partition_key, r.job_name) for r in first] == [("empathy", None)]
    assert _requests(context)[0].run_key == first[0].run_key  # unchanged inbox, same key
    second_file = _return("ann_hale__pilot__ann_hale_annotations.csv")
    assert _requests(context)[0].run_key != first[0].run_key

    # Files whose content the warehouse already holds start nothing, whatever their names.
    with warehouse.connect(Home.from_env().warehouse) as con:
        ensure_tables(con)
        for path in (first_file, second_file):
            con.execute(
                "INSERT INTO raw.returned_files (study, sha256, file) VALUES (?, ?, ?)",
                ["empathy", sha256_of(path), "renamed.csv"],
            )
    assert _requests(context) == []
    _settled(first_file)
    assert _requests(context) == []


def test_a_file_still_being_written_waits_for_the_next_tick(instance) -> None:
    context = dg.build_sensor_context(instance=instance)
    arriving = _return("ann_gray__pilot__ann_gray_annotations.csv")
    arriving.write_text("annotator_id,item\nhalf")
    assert _requests(context) == []
    _settled(arriving)
    assert len(_requests(context)) == 1


def test_a_failed_run_is_retried_under_a_new_key_a_bounded_number_of_times(instance) -> None:
    context = dg.build_sensor_context(instance=instance)
    _return("ann_gray__pilot__ann_gray_annotations.csv")
    key = _requests(context)[0].run_key
    for attempt in range(1, MAX_RETRIES + 1):
        _fail_run(instance, _requests(context)[0].run_key)
        assert _requests(context)[0].run_key == f"{key}:retry{attempt}"
    _fail_run(instance, f"{key}:retry{MAX_RETRIES}")
    assert _requests(context) == []
    # A new file is a new set of contents: asked for again from the first key.
    _return("ann_hale__pilot__ann_hale_annotations.csv")
    assert ":retry" not in _requests(context)[0].run_key


def test_the_sensor_skips_a_tick_while_the_warehouse_is_locked(instance, monkeypatch) -> None:
    monkeypatch.setattr(pipelines.sensors, "LOCK_WAIT_S", 0.2)
    home = Home.from_env()
    with warehouse.connect(home.warehouse):
        pass
    _return("ann_gray__pilot__ann_gray_annotations.csv")
    with held_lock(home.warehouse, read_only=False):
        result = inbox_sensor(dg.build_sensor_context(instance=instance))
    assert isinstance(result, dg.SkipReason)
    assert "warehouse busy" in result.skip_message


def test_sensor_and_schedule_are_stopped_until_turned_on() -> None:
    assert inbox_sensor.default_status == dg.DefaultSensorStatus.STOPPED
    assert nightly_agreement.default_status == dg.DefaultScheduleStatus.STOPPED


def test_nightly_schedule_requests_every_study() -> None:
    context = dg.build_schedule_context(
        scheduled_execution_time=dt.datetime(2026, 11, 22, 2, 0, tzinfo=dt.UTC)
    )
    requests = nightly_agreement(context)
    keys = sorted(r.partition_key for r in requests)
    assert keys == sorted(p.stem for p in STUDIES.glob("*.yaml"))
    assert "pairwise_arena" in keys
    assert {r.run_key for r in requests} == {f"{k}:2026-11-22" for k in keys}
