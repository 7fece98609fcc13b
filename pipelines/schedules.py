"""The nightly agreement refresh: one run per study, at 02:00."""

import dagster as dg

from pipelines.jobs import agreement_job


@dg.schedule(job=agreement_job, cron_schedule="0 2 * * *", execution_timezone="UTC")
def nightly_agreement(context: dg.ScheduleEvaluationContext) -> list[dg.RunRequest]:
    day = context.scheduled_execution_time.strftime("%Y-%m-%d")
    return [
        dg.RunRequest(run_key=f"{study}:{day}", partition_key=study)
        for study in agreement_job.partitions_def.get_partition_keys()
    ]
