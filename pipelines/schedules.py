"""The nightly agreement refresh: one run per study, at 02:00 UTC.

Stopped by default (as Dagster's schedules are): turn it on in the UI (Automation) or with
``dagster schedule start nightly_agreement -w workspace.yaml``; it runs while the daemon does.
Its runs carry the warehouse-writer tag, so the instance queues them one after another."""

import dagster as dg

from pipelines.jobs import agreement_job


@dg.schedule(
    job=agreement_job,
    cron_schedule="0 2 * * *",
    execution_timezone="UTC",
    default_status=dg.DefaultScheduleStatus.STOPPED,
)
def nightly_agreement(context: dg.ScheduleEvaluationContext) -> list[dg.RunRequest]:
    day = context.scheduled_execution_time.strftime("%Y-%m-%d")
    return [
        dg.RunRequest(run_key=f"{study}:{day}", partition_key=study)
        for study in agreement_job.partitions_def.get_partition_keys()
    ]
