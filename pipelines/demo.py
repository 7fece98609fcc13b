"""``make demo``: run the annotation job for every bundled study, then say where to look.

Runs are recorded in the Dagster instance under ``$RATERLAB_HOME/dagster``, so ``make ui``
shows them afterwards.
"""

from __future__ import annotations

import os
import sys

import dagster as dg
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from raterlab import warehouse
from raterlab.settings import Home

QUIET = {"loggers": {"console": {"config": {"log_level": "ERROR"}}}}


def instance(home: Home) -> dg.DagsterInstance:
    """The persistent Dagster instance in ``$RATERLAB_HOME/dagster`` (telemetry off)."""
    home.dagster.mkdir(parents=True, exist_ok=True)
    config = home.dagster / "dagster.yaml"
    if not config.exists():
        config.write_text("telemetry:\n  enabled: false\n")
    os.environ["DAGSTER_HOME"] = str(home.dagster)
    return dg.DagsterInstance.get()


def summary(home: Home) -> Table:
    table = Table(title="raterlab demo")
    for column in ("study", "items", "pilot packets", "main packets", "packet rows"):
        table.add_column(column)
    with warehouse.connect(home.warehouse, read_only=True) as con:
        rows = con.execute(
            """
            SELECT r.study, count(*) AS items,
              (SELECT count(DISTINCT (annotator_id, batch)) FROM staging.blinding_key k
                 WHERE k.study = r.study AND k.round = 'pilot') AS pilot,
              (SELECT count(DISTINCT (annotator_id, batch)) FROM staging.blinding_key k
                 WHERE k.study = r.study AND k.round = 'main') AS main,
              (SELECT count(*) FROM staging.blinding_key k WHERE k.study = r.study) AS packet_rows
            FROM staging.routed_items r WHERE r.sampled GROUP BY r.study ORDER BY r.study
            """
        ).fetchall()
    for row in rows:
        table.add_row(*(str(v) for v in row))
    return table


def main() -> int:
    from pipelines.definitions import defs

    home = Home.from_env()
    console = Console()
    job = defs.resolve_job_def("annotation_job")
    studies = job.partitions_def.get_partition_keys()
    failed = []
    with Progress(console=console) as progress:
        task = progress.add_task("running the annotation job", total=len(studies))
        for study in studies:
            progress.update(task, description=f"{study}")
            result = job.execute_in_process(
                partition_key=study, instance=instance(home), run_config=QUIET, raise_on_error=False
            )
            if not result.success:
                failed.append(study)
            progress.advance(task)
    console.print(summary(home))
    console.print(f"Packets:   {home.outbox}/<study>/<annotator>/<batch>/")
    console.print(f"Warehouse: duckdb {home.warehouse}")
    console.print("Dagster UI with these runs: make ui")
    if failed:
        console.print(f"[red]failed: {', '.join(failed)}[/red]")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
