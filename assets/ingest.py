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
    commit_all,
    pending,
    record_inbox,
    validate_pending,
)
from raterlab.ingest.store import WRITTEN
from raterlab.publish import publish, publish_pending
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


def _by_file(results: list) -> dg.MetadataValue:
    written = pd.DataFrame(
        [(r.file, r.status, r.n_labels, r.n_warnings) for r in results],
        columns=["file", "status", "labels", "warnings"],
    )
    return dg.MetadataValue.md(written.to_markdown(index=False) if len(written) else "none")


@dg.asset(
    partitions_def=study_partitions, group_name=GROUP, kinds={"duckdb"}, deps=[returned_annotations]
)
def validated_annotations(context: dg.AssetExecutionContext, raterlab: Raterlab) -> None:
    """Each pending file validated by the Pandera schema generated from the study file's rules
    (:mod:`raterlab.ingest.schema`; files in batches, a batch's rows in one validation) and
    checked against the sealed key, then committed with its outcome in ``staging.ingests``: a
    rejected file goes to ``quarantine/`` with its report; an accepted one's ratings are
    unblinded through the sealed key and applied row by row (a newer rating of the same
    annotator and item replaces the older, which stays in ``gold.rating_history``; files of
    one task in one transaction, with the outcome of one transaction per file). Each file is
    validated once: ``labels`` only commits what is still pending."""
    study = raterlab.study(context.partition_key)
    with raterlab.warehouse() as con:
        results = commit_all(study, validate_pending(study, con), raterlab.paths, con)
        if any(r.status == "accepted" for r in results):
            publish(con, raterlab.paths.published, WRITTEN)
        else:
            publish_pending(con, raterlab.paths.published)
    rejected = [r for r in results if r.status == "rejected"]
    context.add_output_metadata(
        {
            "accepted_files": sum(r.status == "accepted" for r in results),
            "rejected_files": len(rejected),
            "labels_written": sum(r.n_labels for r in results),
            "quarantined": dg.MetadataValue.md(
                "\n".join(
                    f"- {r.file}: {r.n_errors} error(s), report `{r.report}`" for r in rejected
                )
                or "none"
            ),
            "by_file": _by_file(results),
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
    """``gold.labels``, the study's ratings in long form, and the views
    ``gold.<study>__<task>`` (the wide form per task), published for researchers. Files still
    pending (when this asset is materialized alone) are validated and committed here, as
    ``validated_annotations`` does."""
    study = raterlab.study(context.partition_key)
    with raterlab.warehouse() as con:
        results = commit_all(study, validate_pending(study, con), raterlab.paths, con)
        views = create_wide_views(con, study)
        publish(con, raterlab.paths.published, WRITTEN)
        total = con.execute(
            "SELECT count(*) FROM gold.labels WHERE study = ?", [study.name]
        ).fetchall()[0][0]
    return dg.MaterializeResult(
        metadata={
            "files": len(results),
            "labels_written": sum(r.n_labels for r in results),
            "labels_in_study": int(total),
            "views": ", ".join(views),
            "by_file": _by_file(results),
        }
    )


ingest_assets = [returned_annotations, validated_annotations, labels]
