"""Writers at the same time: two ingests, a sensor run that meets a lock, five agreement runs.

Each writer here is its own process, as in real use (DuckDB's lock is per process: threads of
one process share one database instance and never meet it).
"""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
from pathlib import Path

import dagster as dg

import pipelines.sensors
from pipelines.demo import QUIET
from pipelines.sensors import inbox_sensor
from raterlab import warehouse
from tests.concurrency.conftest import STUDY, Session, held_lock

RATERLAB = Path(sys.executable).with_name("raterlab")
INGEST_ASSETS = [
    dg.AssetKey(k) for k in ("returned_annotations", "validated_annotations", "labels")
]


def _recorded(home) -> set[str]:
    with warehouse.connect(home.warehouse, read_only=True) as con:
        rows = con.execute("SELECT file FROM raw.returned_files").fetchall()
    return {file for (file,) in rows}


def test_two_ingests_at_once_both_get_in(home) -> None:
    files = sorted((home.inbox / STUDY).iterdir())[:2]
    with warehouse.connect(home.warehouse):
        pass
    ingests = [
        subprocess.Popen(
            [str(RATERLAB), "ingest", str(path), "--study", STUDY],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for path in files
    ]
    outputs = [p.communicate(timeout=120) for p in ingests]
    for process, (out, err) in zip(ingests, outputs, strict=True):
        assert process.returncode in (0, 1), err
        assert ": accepted" in out or ": rejected" in out
    assert _recorded(home) == {p.name for p in files}


def _ingest(
    instance: dg.DagsterInstance, request: dg.RunRequest | None = None
) -> dg.ExecuteInProcessResult:
    """What the daemon does with a sensor's request: a run of its job for its partition, with
    its run key as a tag (the ingest steps only; the rest of the job is tested elsewhere)."""
    from pipelines.definitions import defs

    return defs.resolve_job_def("ingest_job").execute_in_process(
        partition_key=request.partition_key if request else STUDY,
        tags={**request.tags, "dagster/run_key": request.run_key} if request else None,
        asset_selection=INGEST_ASSETS,
        instance=instance,
        run_config=QUIET,
        raise_on_error=False,
    )


def test_a_sensor_run_waits_out_a_lock_and_one_that_timed_out_is_retried(home, monkeypatch) -> None:
    monkeypatch.setattr(pipelines.sensors, "SETTLE_S", 0.0)  # returns written just now
    with dg.instance_for_test() as instance:
        context = dg.build_sensor_context(instance=instance)
        [request] = inbox_sensor(context).run_requests
        monkeypatch.setenv("RATERLAB_LOCK_TIMEOUT", "0.5")
        with held_lock(home.warehouse):
            failed = _ingest(instance, request)
        assert not failed.success
        [retry] = inbox_sensor(context).run_requests
        assert retry.run_key == f"{request.run_key}:retry1"

        monkeypatch.setenv("RATERLAB_LOCK_TIMEOUT", "60")
        with held_lock(home.warehouse, seconds=2.0):
            done = _ingest(instance, retry)
        assert done.success
        assert _recorded(home) == {p.name for p in (home.inbox / STUDY).iterdir()}
        assert list(inbox_sensor(context).run_requests) == []


def _agreement_run(queue: multiprocessing.Queue) -> None:
    from pipelines.definitions import defs

    result = defs.resolve_job_def("agreement_job").execute_in_process(
        partition_key=STUDY,
        instance=dg.DagsterInstance.ephemeral(),
        run_config=QUIET,
        raise_on_error=False,
    )
    failures = [e.step_key for e in result.get_step_failure_events()]
    queue.put(failures)


def test_five_agreement_runs_at_once_all_succeed(home) -> None:
    """What the nightly schedule starts, outside the run queue: the lock makes them take turns,
    while a researcher's session stays open on the published copy."""
    assert _ingest(dg.DagsterInstance.ephemeral()).success
    session = Session(home.published)
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    runs = [context.Process(target=_agreement_run, args=(queue,)) for _ in range(5)]
    for run in runs:
        run.start()
    results = [queue.get(timeout=300) for _ in runs]
    for run in runs:
        run.join(10)
    assert results == [[]] * 5
    assert session.query("SELECT count(*) > 0 FROM gold.labels") == [[True]]
    session.close()
    fresh = Session(home.published)
    assert fresh.query("SELECT count(*) > 0 FROM gold.agreement") == [[True]]
    fresh.close()
