"""Returned files in the inbox -> archived -> validated (or quarantined) -> ``gold.labels``.

Each run ingests every pending file of one study (the inbox sensor starts one when files
arrive); a file already ingested, by content, is skipped.
"""

import dagster as dg
import pandas as pd

from assets.design import pilot_packets
from assets.partitions import study_partitions
from raterlab.ingest.audit import create_wide_views, pending_files
from raterlab.ingest.run import Received, commit, receive, validate_received
from raterlab.ingest.store import ensure_tables
from raterlab.ingest.validate import Validation
from raterlab.publish import publish
from resources import Raterlab

GROUP = "ingest"


@dg.asset(
    partitions_def=study_partitions,
    group_name=GROUP,
    deps=[pilot_packets],
    kinds={"csv"},
)
def returned_annotations(context: dg.AssetExecutionContext, raterlab: Raterlab) -> list[Received]:
    """New files in ``inbox/<study>/``, each archived under its content hash before parsing."""
    study = raterlab.study(context.partition_key)
    files = pending_files(raterlab.paths.inbox / study.name)
    with raterlab.warehouse() as con:
        ensure_tables(con)
        received = [receive(study, path, raterlab.paths, con) for path in files]
    new = [r for r in received if not r.known]
    context.add_output_metadata({"files_in_inbox": len(files), "new_files": len(new)})
    return new


@dg.asset(partitions_def=study_partitions, group_name=GROUP, kinds={"pandera"})
def validated_annotations(
    context: dg.AssetExecutionContext,
    raterlab: Raterlab,
    returned_annotations: list[Received],
) -> list[tuple[Received, Validation]]:
    """Each new file checked against the Pandera rules generated from the study file and
    against the sealed key; a rejected file goes to ``quarantine/`` with its report."""
    study = raterlab.study(context.partition_key)
    accepted, rejected = [], []
    with raterlab.warehouse() as con:
        for received in returned_annotations:
            validation = validate_received(study, received, con)
            if validation.ok or study.ingest.accept_valid_rows:
                accepted.append((received, validation))
            else:
                rejected.append(commit(study, received, validation, raterlab.paths, con))
    context.add_output_metadata(
        {
            "accepted_files": len(accepted),
            "rejected_files": len(rejected),
            "quarantined": dg.MetadataValue.md(
                "\n".join(
                    f"- {r.file}: {r.n_errors} error(s), report `{r.report}`" for r in rejected
                )
                or "none"
            ),
        }
    )
    return accepted


@dg.asset(partitions_def=study_partitions, group_name=GROUP, kinds={"duckdb"})
def labels(
    context: dg.AssetExecutionContext,
    raterlab: Raterlab,
    validated_annotations: list[tuple[Received, Validation]],
) -> dg.MaterializeResult:
    """Accepted rows unblinded through the sealed key into ``gold.labels`` (long form), one
    transaction per file; a corrected file replaces the earlier file for the same packet.
    Views ``gold.<study>__<task>`` give the wide form per task."""
    study = raterlab.study(context.partition_key)
    with raterlab.warehouse() as con:
        results = [commit(study, r, v, raterlab.paths, con) for r, v in validated_annotations]
        views = create_wide_views(con, study)
        publish(con, raterlab.paths.published, ["gold.ratings", "gold.rating_values"])
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
