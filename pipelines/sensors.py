"""The inbox sensor: when new returned files arrive in ``inbox/<study>/``, ingest that study.

"New" is by content (:mod:`raterlab.arrivals`): files already recorded in the warehouse start
nothing, so an inbox the demo already ingested stays quiet, and a file modified in the last
:data:`SETTLE_S` seconds waits for the next tick. The run key is the set of new
contents; while it stays the same, Dagster starts one run for it. When that run failed (a
lock held past ``RATERLAB_LOCK_TIMEOUT``, a crash), the next tick asks again under a retry
key, up to :data:`MAX_RETRIES` times, so a file never waits unseen for another to arrive.

Stopped by default (as Dagster's sensors are): turn it on in the UI (Automation) or with
``dagster sensor start inbox_sensor -w workspace.yaml``; it runs while the daemon does.
"""

import time

import dagster as dg

from pipelines.jobs import ingest_job
from raterlab import warehouse
from raterlab.arrivals import arrival_key, ingested_hashes, new_files
from raterlab.settings import Home

MAX_RETRIES = 3
"""Failed runs for one set of new files that are retried before the sensor gives up on it
(it logs a warning; a new file, or a run started by hand, goes on from there)."""
SETTLE_S = 10.0
"""A file modified less than this many seconds ago is left for a later tick (it may still be
being copied in)."""
LOCK_WAIT_S = 5.0
"""How long a tick waits for the warehouse lock before skipping to the next tick."""
_FAILED = (dg.DagsterRunStatus.FAILURE, dg.DagsterRunStatus.CANCELED)


def run_key(instance: dg.DagsterInstance, base: str) -> str | None:
    """``base``, or its next retry key when every run under the earlier keys failed; ``None``
    after :data:`MAX_RETRIES` failed retries."""
    for attempt in range(MAX_RETRIES + 1):
        key = base if attempt == 0 else f"{base}:retry{attempt}"
        runs = instance.get_runs(dg.RunsFilter(tags={"dagster/run_key": key}), limit=1)
        if not runs or runs[0].status not in _FAILED:
            return key
    return None


@dg.sensor(
    job=ingest_job,
    minimum_interval_seconds=30,
    default_status=dg.DefaultSensorStatus.STOPPED,
)
def inbox_sensor(context: dg.SensorEvaluationContext) -> dg.SensorResult | dg.SkipReason:
    """One ingest run per study whose inbox holds files not yet in the warehouse (returned
    packets, or adjudication decisions in ``inbox/<study>/adjudication/``); a failed run is
    retried under a new run key."""
    home = Home.from_env()
    studies = ingest_job.partitions_def.get_partition_keys()
    ingested: dict[str, set[str]] = {study: set() for study in studies}
    if home.warehouse.exists():
        try:
            with warehouse.connect(home.warehouse, read_only=True, timeout=LOCK_WAIT_S) as con:
                ingested = {study: ingested_hashes(con, study) for study in studies}
        except warehouse.WarehouseBusy as exc:
            return dg.SkipReason(f"warehouse busy, looking again at the next tick: {exc}")
    requests = []
    for study in studies:
        new = new_files(home, study, ingested[study], time.time() - SETTLE_S)
        if not new:
            continue
        key = run_key(context.instance, arrival_key(study, list(new.values())))
        if key is None:
            context.log.warning(
                f"{study}: {len(new)} new file(s) failed to ingest {MAX_RETRIES + 1} times; "
                "see the failed ingest_job runs, fix the cause, then run ingest_job by hand"
            )
            continue
        requests.append(dg.RunRequest(run_key=key, partition_key=study))
    return dg.SensorResult(run_requests=requests)
