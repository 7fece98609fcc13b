"""Returned files in the inbox -> archived -> validated (or quarantined) -> ``gold.labels``.

Each run ingests every pending file of one study (the inbox sensor starts one when files
arrive). The steps hand each other warehouse state, keyed by file hash, not Python objects:
``staging.inbox`` lists the archived files, ``staging.ingests`` their outcomes; a file is
pending until it has an outcome. So each asset can be materialized again alone, any number
of times, with the same result. Each file has its own outcome: a file the reader cannot
read is quarantined with a report and the others are still ingested.
"""

import dagster as dg
import pandas as pd

from assets.design import pilot_packets
from assets.partitions import study_partitions
from assets.tables import table_metadata
from raterlab.ingest.audit import create_wide_views, pending_files
from raterlab.ingest.run import (
    accepted_rows,
    commit_all,
    pending,
    record_inbox,
    validate_pending,
)
from raterlab.ingest.store import WRITTEN
from raterlab.publish import publish
from resources import Raterlab

GROUP = "ingest"


@dg.asset(
    partitions_def=study_partitions,
    group_name=GROUP,
    deps=[pilot_packets],
    kinds={"csv"},
    metadata=table_metadata("returned_annotations", "staging.inbox"),
)
def returned_annotations(context: dg.AssetExecutionContext, raterlab: Raterlab) -> None:
    """Files in ``inbox/<study>/``, each archived under its content hash before parsing and
    listed in ``staging.inbox``."""
    study = raterlab.study(context.partition_key)
    files = pending_files(raterlab.paths.inbox / study.name)
    with raterlab.warehouse() as con:
        new = record_inbox(study, files, raterlab.paths, con)
        waiting = len(pending(study, con))
    context.add_output_metadata(
        {"files_in_inbox": len(files), "new_files": new, "pending_files": waiting}
    )


@dg.asset(
    partitions_def=study_partitions, group_name=GROUP, kinds={"duckdb"}, deps=[returned_annotations]
)
def validated_annotations(context: dg.AssetExecutionContext, raterlab: Raterlab) -> None:
    """Each pending file validated by the Pandera schema generated from the study file's rules
    (:mod:`raterlab.ingest.schema`; files in batches, a batch's rows in one validation) and
    checked against the sealed key; a rejected file goes
    to ``quarantine/`` with its report (and its outcome to ``staging.ingests``), an accepted
    one waits for ``labels``."""
    study = raterlab.study(context.partition_key)
    with raterlab.warehouse() as con:
        waiting = len(pending(study, con))
        failed = (
            (r, v) for r, v in validate_pending(study, con) if accepted_rows(study, v) is None
        )
        rejected = commit_all(study, failed, raterlab.paths, con)
    accepted = waiting - len(rejected)
    context.add_output_metadata(
        {
            "accepted_files": accepted,
            "rejected_files": len(rejected),
            "quarantined": dg.MetadataValue.md(
                "\n".join(
                    f"- {r.file}: {r.n_errors} error(s), report `{r.report}`" for r in rejected
                )
                or "none"
            ),
        }
    )


@dg.asset(
    partitions_def=study_partitions,
    group_name=GROUP,
    kinds={"duckdb"},
    deps=[validated_annotations],
    metadata=table_metadata("labels", "gold.labels"),
)
def labels(context: dg.AssetExecutionContext, raterlab: Raterlab) -> dg.MaterializeResult:
    """Pending accepted files' ratings, unblinded through the sealed key, applied to
    ``gold.labels`` row by row (consecutive files in one transaction, with the outcome of one
    transaction per file; a newer rating of the same annotator and item replaces the older,
    which stays in ``gold.rating_history``).
    Views ``gold.<study>__<task>`` give the wide form per task."""
    study = raterlab.study(context.partition_key)
    with raterlab.warehouse() as con:
        results = commit_all(study, validate_pending(study, con), raterlab.paths, con)
        views = create_wide_views(con, study)
        publish(con, raterlab.paths.published, WRITTEN)
        total = con.execute(
            "SELECT count(*) FROM gold.labels WHERE study = ?", [study.name]
        ).fetchall()[0][0]
    written = pd.DataFrame(
        [(r.file, r.status, r.n_labels, r.n_warnings) for r in results],
        columns=["file", "status", "labels", "warnings"],
    )
    return dg.MaterializeResult(
        metadata={
            "files": len(results),
            "labels_written": int(written["labels"].sum()),
            "labels_in_study": int(total),
            "views": ", ".join(views),
            "by_file": dg.MetadataValue.md(
                written.to_markdown(index=False) if len(written) else "none"
            ),
        }
    )


ingest_assets = [returned_annotations, validated_annotations, labels]
