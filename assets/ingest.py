"""Returned files in the inbox -> archived -> validated (or quarantined) -> ``gold.labels``.

Each run ingests every pending file of one study (the inbox sensor starts one when files
arrive). The steps hand each other warehouse state, keyed by file hash, not Python objects:
``staging.inbox`` lists the archived files, ``staging.ingests`` their outcomes; a file is
pending until it has an outcome. So each asset can be materialized again alone, any number
of times, with the same result. Each file has its own outcome: a file the reader cannot
read is quarantined with a report and the others are still ingested.

The checks: coverage of the assignment, rule violations in accepted data, and quarantined
files.
"""

import dagster as dg
import pandas as pd

from assets.frames import study_frame
from assets.metadata import list_md, table_md
from assets.partitions import study_partitions
from assets.study_asset import StudyStep, study_asset
from raterlab.ingest.audit import accepted_violations, coverage, create_wide_views, pending_files
from raterlab.ingest.batches import commit_all, validate_pending
from raterlab.ingest.inbox import pending, record_inbox
from raterlab.ingest.store import WRITTEN
from raterlab.publish import publish_pending
from resources import Raterlab

GROUP = "ingest"


@study_asset(group=GROUP, deps=["pilot_packets"], kinds={"csv"}, table="staging.inbox")
def returned_annotations(step: StudyStep) -> dg.MaterializeResult:
    """Files in ``inbox/<study>/``, each archived under its content hash before parsing and
    listed in ``staging.inbox``."""
    files = pending_files(step.raterlab.paths.inbox / step.study.name)
    with step.raterlab.warehouse() as con:
        new = record_inbox(step.study, files, step.raterlab.paths, con)
        waiting = len(pending(step.study, con))
    return dg.MaterializeResult(
        metadata={"files_in_inbox": len(files), "new_files": new, "pending_files": waiting}
    )


def _by_file(results: list) -> dg.MetadataValue:
    written = pd.DataFrame(
        [(r.file, r.status, r.n_labels, r.n_warnings) for r in results],
        columns=["file", "status", "labels", "warnings"],
    )
    return table_md(written, decimals=None)


@study_asset(group=GROUP, deps=[returned_annotations], kinds={"duckdb"})
def validated_annotations(step: StudyStep) -> dg.MaterializeResult:
    """Each pending file validated by the Pandera schema generated from the study file's rules
    (:mod:`raterlab.ingest.row_checks`; files in batches, a batch's rows in one validation) and
    checked against the sealed key, then committed with its outcome in ``staging.ingests``: a
    rejected file goes to ``quarantine/`` with its report; an accepted one's ratings are
    unblinded through the sealed key and applied row by row (a newer rating of the same
    annotator and item replaces the older, which stays in ``gold.rating_history``; files of
    one task in one transaction, with the outcome of one transaction per file). Each file is
    validated once: ``labels`` only commits what is still pending."""
    study, paths = step.study, step.raterlab.paths
    with step.raterlab.warehouse() as con:
        results = commit_all(study, validate_pending(study, con), paths, con)
        if any(r.status == "accepted" for r in results):
            step.publish(con, WRITTEN)
        else:
            publish_pending(con, paths.published)
    rejected = [r for r in results if r.status == "rejected"]
    return dg.MaterializeResult(
        metadata={
            "accepted_files": sum(r.status == "accepted" for r in results),
            "rejected_files": len(rejected),
            "labels_written": sum(r.n_labels for r in results),
            "quarantined": list_md(
                f"{r.file}: {r.n_errors} error(s), report `{r.report}`" for r in rejected
            ),
            "by_file": _by_file(results),
        }
    )


@study_asset(group=GROUP, deps=[validated_annotations], kinds={"duckdb"}, table="gold.labels")
def labels(step: StudyStep) -> dg.MaterializeResult:
    """``gold.labels``, the study's ratings in long form, and the views
    ``gold.<study>__<task>`` (the wide form per task), published for researchers. Files still
    pending (when this asset is materialized alone) are validated and committed here, as
    ``validated_annotations`` does."""
    study = step.study
    with step.raterlab.warehouse() as con:
        results = commit_all(study, validate_pending(study, con), step.raterlab.paths, con)
        views = create_wide_views(con, study)
        step.publish(con, WRITTEN)
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


@dg.asset_check(asset=labels, partitions_def=study_partitions)
def assignment_coverage(
    context: dg.AssetCheckExecutionContext, raterlab: Raterlab
) -> dg.AssetCheckResult:
    """Share of assigned rows returned in accepted files, per annotator (a warning below 100%)."""
    study = context.partition_key
    table = coverage(
        study_frame(raterlab, "staging.blinding_key", study),
        study_frame(raterlab, "gold.labels", study),
    )
    share = float(table["returned"].sum() / table["assigned"].sum())
    return dg.AssetCheckResult(
        passed=bool((table["share"] >= 1).all()),
        severity=dg.AssetCheckSeverity.WARN,
        metadata={
            "overall_share": round(share, 4),
            "per_annotator": dg.MetadataValue.md(table.to_markdown(index=False)),
        },
    )


@dg.asset_check(asset=labels, partitions_def=study_partitions, blocking=True)
def no_rule_violations_in_labels(
    context: dg.AssetCheckExecutionContext, raterlab: Raterlab
) -> dg.AssetCheckResult:
    """Accepted data satisfies every rule of the study file (constraints, conditionals...)."""
    study = raterlab.study(context.partition_key)
    found = accepted_violations(study, study_frame(raterlab, "gold.labels", study.name))
    return dg.AssetCheckResult(
        passed=found.empty,
        metadata={
            "violations": len(found),
            "examples": table_md(found.head(20), decimals=None),
        },
    )


@dg.asset_check(asset=validated_annotations, partitions_def=study_partitions)
def quarantined_files(
    context: dg.AssetCheckExecutionContext, raterlab: Raterlab
) -> dg.AssetCheckResult:
    """Files rejected for this study, with their reports (a warning while any is unresolved)."""
    ingests = study_frame(raterlab, "staging.ingests", context.partition_key)
    rejected = ingests[ingests["status"] == "rejected"]
    listing = list_md(
        f"{f}: {n} error(s), `{r}`"
        for f, n, r in zip(rejected["file"], rejected["n_errors"], rejected["report"], strict=True)
    )
    return dg.AssetCheckResult(
        passed=rejected.empty,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={"quarantined": len(rejected), "reports": listing},
    )
