"""``make run JOB=packets_job STUDY=my_study``: one job for one study, from the shell.

The same run the UI would start (recorded in the instance under ``$RATERLAB_HOME/dagster``,
whose config this writes first, so a fresh home works), with each step shown as it finishes
and the failed steps named at the end. Exit status 0 when the run succeeded, else 1; 2 for an
unknown job or study.
"""

from __future__ import annotations

import argparse
import sys

from rich.console import Console

from pipelines.instance import instance
from raterlab.settings import Home

WARNINGS_ONLY = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}
"""Steps' debug and info events stay in the instance (``make ui``); warnings are printed."""


def main(argv: list[str] | None = None) -> int:
    from pipelines.definitions import defs

    parser = argparse.ArgumentParser(prog="make run", description=__doc__.splitlines()[0])
    parser.add_argument("job", help="annotation_job, packets_job, ingest_job or agreement_job")
    parser.add_argument("study", help="the study's name (its file in RATERLAB_STUDIES)")
    args = parser.parse_args(argv)
    console = Console(stderr=True)
    jobs = sorted(job.name for job in defs.resolve_all_job_defs() if job.partitions_def)
    if args.job not in jobs:
        console.print(f"make run: no job {args.job!r}; choose from {', '.join(jobs)}")
        return 2
    job = defs.resolve_job_def(args.job)
    studies = job.partitions_def.get_partition_keys()
    if args.study not in studies:
        console.print(
            f"make run: no study {args.study!r} in RATERLAB_STUDIES; "
            f"found: {', '.join(studies) or 'none'}"
        )
        return 2
    with console.status(f"{args.job} for {args.study}"):
        result = job.execute_in_process(
            partition_key=args.study,
            instance=instance(Home.from_env()),
            run_config=WARNINGS_ONLY,
            raise_on_error=False,
        )
    failed = sorted({event.step_key for event in result.get_step_failure_events()})
    verdict = "succeeded" if result.success else f"failed at {', '.join(failed)}"
    console.print(f"{args.job} for {args.study}: run {result.run_id[:8]} {verdict}")
    return 0 if result.success else 1


if __name__ == "__main__":
    sys.exit(main())
