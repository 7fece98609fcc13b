"""The inbox sensor: when files arrive in ``inbox/<study>/``, ingest that study's pending files."""

import hashlib

import dagster as dg

from pipelines.jobs import ingest_job
from raterlab.ingest.audit import pending_files
from raterlab.settings import Home


@dg.sensor(
    job=ingest_job, minimum_interval_seconds=30, default_status=dg.DefaultSensorStatus.RUNNING
)
def inbox_sensor(context: dg.SensorEvaluationContext) -> dg.SensorResult:
    """One run per study whose inbox (returned packets, or adjudication decisions in
    ``inbox/<study>/adjudication/``) changed; the run key is the files' name/size/mtime list,
    so an unchanged inbox never starts a run twice (content already ingested is skipped)."""
    home = Home.from_env()
    studies = ingest_job.partitions_def.get_partition_keys()
    requests = []
    for study in studies:
        files = pending_files(home.inbox / study) + pending_files(
            home.inbox / study / "adjudication"
        )
        if not files:
            continue
        fingerprint = "\n".join(
            f"{p.name}:{p.stat().st_size}:{p.stat().st_mtime_ns}" for p in files
        )
        digest = hashlib.sha256(fingerprint.encode()).hexdigest()[:16]
        requests.append(dg.RunRequest(run_key=f"{study}:{digest}", partition_key=study))
    return dg.SensorResult(run_requests=requests)
