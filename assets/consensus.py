"""Labels -> adjudication queue -> adjudication and third-annotator packets -> returned
decisions -> consensus (gold.items, gold.consensus, views) -> exports.

Each run advances the loop by one step: it issues whatever is newly disputed, ingests the
decisions that came back, and recomputes consensus from everything known so far.
"""

import dagster as dg
import pandas as pd

from assets.ingest import labels
from assets.partitions import study_partitions
from assets.tables import table_metadata
from raterlab.adjudication.ingest import ensure_tables, inbox_dir, ingest_inbox
from raterlab.adjudication.packets import issue_packets, refresh_queue, restore_tiebreak_key
from raterlab.adjudication.queue import backlog
from raterlab.consensus.recovery import overall
from raterlab.exports import exporters_for
from raterlab.exports.bundle import load_bundle
from raterlab.exports.write import write_exports
from raterlab.gold.build import CONSENSUS_TABLES, build_consensus
from raterlab.publish import publish
from resources import Raterlab

GROUP = "consensus"


def _md(frame: pd.DataFrame) -> dg.MetadataValue:
    return dg.MetadataValue.md(frame.to_markdown(index=False) if len(frame) else "none")


@dg.asset(
    partitions_def=study_partitions,
    group_name=GROUP,
    deps=[labels],
    kinds={"duckdb"},
    metadata=table_metadata("adjudication_queue", "staging.adjudication_queue"),
)
def adjudication_queue(
    context: dg.AssetExecutionContext, raterlab: Raterlab
) -> dg.MaterializeResult:
    """Disputed fields by the study's ``consensus.adjudicate`` rule, lowest agreement first,
    with their route (adjudicator or third annotator) and state, in
    ``staging.adjudication_queue``."""
    study = raterlab.study(context.partition_key)
    with raterlab.warehouse() as con:
        restore_tiebreak_key(con, study, raterlab.blinding_secret())
        queue = refresh_queue(con, study)
    return dg.MaterializeResult(
        metadata={
            "disputed_fields": len(queue),
            "disputed_items": int(queue["item_id"].nunique()) if len(queue) else 0,
            "backlog": _md(backlog(queue)),
            "lowest_agreement": _md(queue.head(10)),
        }
    )


@dg.asset(
    partitions_def=study_partitions,
    group_name=GROUP,
    deps=[adjudication_queue],
    kinds={"csv"},
    metadata=table_metadata("adjudication_packets", "staging.adjudication_key"),
)
def adjudication_packets(
    context: dg.AssetExecutionContext, raterlab: Raterlab
) -> dg.MaterializeResult:
    """New open disputes issued: an adjudication packet in
    ``outbox/<study>/adjudication/<batch>/`` (blind to condition, model, judge and rater),
    and, where the study breaks ties with a third annotator, normal packets for an annotator
    who has not rated the item (round ``tiebreak``)."""
    study = raterlab.study(context.partition_key)
    with raterlab.warehouse() as con:
        issued = issue_packets(study, raterlab.paths, con, raterlab.blinding_secret())
    return dg.MaterializeResult(
        metadata={
            "adjudication_batch": issued["adjudication_batch"] or "none",
            "cases": issued["cases"],
            "fields": issued["fields"],
            "tiebreak_batch": issued["tiebreak_batch"] or "none",
            "tiebreak_items": issued["tiebreak_items"],
            "packets": dg.MetadataValue.md(
                "\n".join(f"- `{p}`" for p in issued["packets"]) or "none"
            ),
        }
    )


@dg.asset(
    partitions_def=study_partitions,
    group_name=GROUP,
    deps=[adjudication_packets],
    kinds={"csv", "duckdb"},
    metadata=table_metadata("adjudications", "gold.adjudications"),
)
def adjudications(context: dg.AssetExecutionContext, raterlab: Raterlab) -> dg.MaterializeResult:
    """Returned decisions from ``inbox/<study>/adjudication/`` into ``gold.adjudications``:
    archived by hash, validated (field domains from the study, required rationale), a bad
    file quarantined with its report; one transaction per file."""
    study = raterlab.study(context.partition_key)
    with raterlab.warehouse() as con:
        ensure_tables(con)
        results = ingest_inbox(study, raterlab.paths, con)
        publish(con, raterlab.paths.published, ["gold.adjudications", "gold.adjudication_history"])
        total = con.execute(
            "SELECT count(*) FROM gold.adjudications WHERE study = ?", [study.name]
        ).fetchall()[0][0]
    table = pd.DataFrame(
        [
            (r.file, r.status, r.n_decisions, r.n_errors, r.n_warnings, r.report or "")
            for r in results
            if r.status != "unchanged"
        ],
        columns=["file", "status", "decisions", "errors", "warnings", "report"],
    )
    return dg.MaterializeResult(
        metadata={
            "inbox": dg.MetadataValue.path(str(inbox_dir(raterlab.paths, study.name))),
            "new_files": len(table),
            "decisions_in_study": int(total),
            "files": _md(table),
        }
    )


@dg.asset(
    partitions_def=study_partitions,
    group_name=GROUP,
    deps=[adjudications],
    kinds={"duckdb"},
    metadata=table_metadata("consensus", "gold.consensus"),
)
def consensus(context: dg.AssetExecutionContext, raterlab: Raterlab) -> dg.MaterializeResult:
    """``gold.consensus`` (a value and status per item and rating field, by the study's
    policy, with Dawid-Skene beside it) and ``gold.items`` (the unblinded items), replaced
    for the study in one transaction, and the views ``gold.consensus_items``,
    ``gold.consensus_by_condition`` and ``gold.<study>__<task>__consensus``."""
    study = raterlab.study(context.partition_key)
    with raterlab.warehouse() as con:
        built = build_consensus(con, study)
        publish(con, raterlab.paths.published, CONSENSUS_TABLES)
    statuses = built.consensus["status"].value_counts().rename_axis("status").reset_index()
    metadata = {
        "rows": len(built.consensus),
        "items": len(built.items),
        "method": study.consensus.method,
        "statuses": _md(statuses),
        "views": ", ".join(built.views),
    }
    if len(built.recovery):
        metadata["truth_recovery"] = _md(overall(built.recovery))
    return dg.MaterializeResult(metadata=metadata)


@dg.asset(
    partitions_def=study_partitions,
    group_name=GROUP,
    deps=[consensus, dg.AssetKey("judge_calibration"), dg.AssetKey("condition_comparison")],
    kinds={"json", "parquet"},
)
def exports(context: dg.AssetExecutionContext, raterlab: Raterlab) -> dg.MaterializeResult:
    """What the study promises, in ``exports/<study>/``: Parquet of its gold tables, plus the
    study's own formats (``exports:`` in the study file)."""
    study = raterlab.study(context.partition_key)
    with raterlab.warehouse(read_only=True) as con:
        bundle = load_bundle(con, study, run_id=context.run_id)
    root = raterlab.paths.root / "exports"
    files = write_exports(bundle, root)
    return dg.MaterializeResult(
        metadata={
            "folder": dg.MetadataValue.path(str(root / study.name)),
            "exporters": ", ".join(f.__name__ for f in exporters_for(study)),
            "files": dg.MetadataValue.md("\n".join(f"- `{f}`" for f in files)),
        }
    )


consensus_assets = [adjudication_queue, adjudication_packets, adjudications, consensus, exports]
