"""Labels -> adjudication queue -> adjudication and third-annotator packets -> returned
decisions -> consensus (gold.items, gold.consensus, views) -> exports.

Each run advances the loop by one step: it issues whatever is newly disputed, ingests the
decisions that came back, and recomputes consensus from everything known so far.

Its checks: the gold-table contract (blocking: nothing is exported from tables that break
it), unresolved fields, and the adjudication backlog.
"""

import dagster as dg
import pandas as pd

from assets.memo import unchanged
from assets.metadata import list_md, table_md
from assets.partitions import study_partitions
from assets.study_asset import StudyStep, study_asset
from raterlab import memo
from raterlab.adjudication.ingest import ensure_tables, inbox_dir, ingest_inbox
from raterlab.adjudication.packets import issue_packets
from raterlab.adjudication.queue import OPEN_STATES, backlog
from raterlab.adjudication.staging import read_adjudication_key
from raterlab.adjudication.stored_queue import current_queue, refresh_queue
from raterlab.adjudication.third_annotator import restore_tiebreak_key
from raterlab.consensus.draft import policy_consensus
from raterlab.consensus.recovery import overall
from raterlab.design.blinding import KEY_COLUMNS
from raterlab.exports import exporters_for
from raterlab.exports.bundle import load_bundle
from raterlab.exports.write import write_exports
from raterlab.gold.build import CONSENSUS_TABLES, build_consensus
from raterlab.gold.contract import ITEM_COLUMNS, REPORT_FOLDER, validate_gold
from raterlab.ingest.study_tables import LABELS_READ, counting_ratings, load_tables
from raterlab.warehouse import read_table
from resources import Raterlab

GROUP = "consensus"
CONTRACT = "gold_table_contract"
CONTRACT_COLUMNS = (
    "table",
    "expectation",
    "column",
    "condition",
    "success",
    "unexpected_count",
    "examples",
)


def _md(frame: pd.DataFrame) -> dg.MetadataValue:
    """``frame`` as a Markdown table, numbers as they are, or ``none``."""
    return table_md(frame, decimals=None)


@study_asset(
    group=GROUP,
    deps=["labels", "rater_quality"],
    kinds={"duckdb"},
    table="staging.adjudication_queue",
)
def adjudication_queue(step: StudyStep) -> dg.MaterializeResult:
    """Disputed fields by the study's ``consensus.adjudicate`` rule, lowest agreement first,
    with their route (adjudicator or third annotator) and state, in
    ``staging.adjudication_queue``."""
    with step.raterlab.warehouse() as con:
        restore_tiebreak_key(con, step.study, step.raterlab.blinding_secret())
        queue = refresh_queue(con, step.study)
    return dg.MaterializeResult(
        metadata={
            "disputed_fields": len(queue),
            "disputed_items": int(queue["item_id"].nunique()) if len(queue) else 0,
            "backlog": _md(backlog(queue)),
            "lowest_agreement": _md(queue.head(10)),
        }
    )


@study_asset(
    group=GROUP, deps=[adjudication_queue], kinds={"csv"}, table="staging.adjudication_key"
)
def adjudication_packets(step: StudyStep) -> dg.MaterializeResult:
    """New open disputes issued: an adjudication packet in
    ``outbox/<study>/adjudication/<batch>/`` (blind to condition, model, judge and rater),
    and, where the study breaks ties with a third annotator, normal packets for an annotator
    who has not rated the item (round ``tiebreak``)."""
    with step.raterlab.warehouse() as con:
        issued = issue_packets(
            step.study, step.raterlab.paths, con, step.raterlab.blinding_secret()
        )
    return dg.MaterializeResult(
        metadata={
            "adjudication_batch": issued["adjudication_batch"] or "none",
            "cases": issued["cases"],
            "fields": issued["fields"],
            "tiebreak_batch": issued["tiebreak_batch"] or "none",
            "tiebreak_items": issued["tiebreak_items"],
            "packets": list_md(f"`{p}`" for p in issued["packets"]),
        }
    )


@study_asset(
    group=GROUP,
    deps=[adjudication_packets],
    kinds={"csv", "duckdb"},
    table="gold.adjudications",
)
def adjudications(step: StudyStep) -> dg.MaterializeResult:
    """Returned decisions from ``inbox/<study>/adjudication/`` into ``gold.adjudications``:
    archived by hash, validated (field domains from the study, required rationale), a bad
    file quarantined with its report; one transaction per file."""
    study = step.study
    with step.raterlab.warehouse() as con:
        ensure_tables(con)
        results = ingest_inbox(study, step.raterlab.paths, con)
        step.publish(con, ["gold.adjudications", "gold.adjudication_history"])
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
            "inbox": dg.MetadataValue.path(str(inbox_dir(step.raterlab.paths, study.name))),
            "new_files": len(table),
            "decisions_in_study": int(total),
            "files": _md(table),
        }
    )


@study_asset(group=GROUP, deps=[adjudications], kinds={"duckdb"}, table="gold.consensus")
def consensus(step: StudyStep) -> dg.MaterializeResult:
    """``gold.consensus`` (a value and status per item and rating field, by the study's
    policy, with Dawid-Skene beside it) and ``gold.items`` (the unblinded items), replaced
    for the study in one transaction, and the views ``gold.consensus_items``,
    ``gold.consensus_by_condition`` and ``gold.<study>__<task>__consensus``."""
    study = step.study
    if step.warehouse_unchanged():
        return step.skipped()
    with step.raterlab.warehouse() as con:
        built = build_consensus(con, study)
        step.publish(con, CONSENSUS_TABLES)
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


@study_asset(
    group=GROUP,
    deps=[consensus, "agreement", "judge_calibration", "condition_comparison"],
    kinds={"json", "parquet"},
)
def exports(step: StudyStep) -> dg.MaterializeResult:
    """What the study promises, in ``exports/<study>/``: Parquet of its gold tables, plus the
    study's own formats (``exports:`` in the study file). Written again only when a table of
    the study changed (or the folder is gone)."""
    study = step.study
    root = step.raterlab.paths.root / "exports"
    if step.warehouse_unchanged(outputs=[root / study.name]):
        return step.skipped()
    with step.raterlab.warehouse(read_only=True) as con:
        bundle = load_bundle(con, study, run_id=step.context.run_id)
    files = write_exports(bundle, root)
    return dg.MaterializeResult(
        metadata={
            "folder": dg.MetadataValue.path(str(root / study.name)),
            "exporters": ", ".join(f.__name__ for f in exporters_for(study)),
            "files": list_md((f"`{f}`" for f in files), empty=""),
        }
    )


def _row_condition(condition) -> str:
    """The rows an expectation applies to, as its filter text ('' for every row)."""
    if isinstance(condition, dict):
        return str(condition.get("pass_through_filter", condition))
    return "" if condition in (None, "") else str(condition)


@dg.asset_check(asset=consensus, partitions_def=study_partitions, blocking=True)
def gold_table_contract(
    context: dg.AssetCheckExecutionContext, raterlab: Raterlab
) -> dg.AssetCheckResult:
    """Great Expectations suite on gold.consensus and gold.items: statuses allowed, one row per
    item and field, a value for every resolved field, values inside each field's domain,
    counts consistent with the ratings and the assignment. The results are kept in
    ``staging.gold_contract`` for the study report; Data Docs in
    ``reports/<study>/gold_contract/``. Great Expectations runs again only when the study,
    the gold tables, the counting ratings or the sealed key differ from those of the stored
    results (or the Data Docs are gone); otherwise the stored results are the verdict."""
    study = raterlab.study(context.partition_key)
    with raterlab.warehouse(read_only=True) as con:
        labels = read_table(con, "gold.labels", study.name, columns=LABELS_READ)
        key = read_table(con, "staging.blinding_key", study.name)
        gold = read_table(con, "gold.consensus", study.name)
        items = read_table(con, "gold.items", study.name, columns=ITEM_COLUMNS)
    ratings = counting_ratings(study, labels)
    key = pd.DataFrame(columns=list(KEY_COLUMNS)) if key is None else key
    reports = raterlab.paths.reports / study.name
    inputs = memo.fingerprint(study, gold, items, ratings, key)
    docs = reports / REPORT_FOLDER / "index.html"
    recompute = not (docs.is_file() and unchanged(raterlab, study.name, CONTRACT, inputs))
    if recompute:
        result = validate_gold(study, gold, items, ratings, key, reports)
        shown = result.results[list(CONTRACT_COLUMNS)]
        shown = shown.assign(
            condition=shown["condition"].map(_row_condition),
            unexpected_count=shown["unexpected_count"].astype("Int64"),
        )
        with raterlab.warehouse() as con:
            memo.write_tables(con, study.name, {"staging.gold_contract": shown}, CONTRACT, inputs)
    else:
        with raterlab.warehouse(read_only=True) as con:
            stored = read_table(con, "staging.gold_contract", study.name)
        shown = stored[list(CONTRACT_COLUMNS)].astype({"unexpected_count": "Int64"})
    return dg.AssetCheckResult(
        passed=bool(shown["success"].all()),
        metadata={
            "expectations": len(shown),
            "failed": int((~shown["success"].astype(bool)).sum()),
            "recomputed": recompute,
            "data_docs": dg.MetadataValue.path(str(docs)),
            "results": _md(shown.sort_values("success", kind="stable")),
        },
    )


@dg.asset_check(asset=consensus, partitions_def=study_partitions)
def unresolved_consensus(
    context: dg.AssetCheckExecutionContext, raterlab: Raterlab
) -> dg.AssetCheckResult:
    """Fields without a consensus value (``unresolved``; ``excluded`` are counted apart): a
    warning while any remains."""
    with raterlab.warehouse(read_only=True) as con:
        gold = read_table(con, "gold.consensus", context.partition_key)
    gold = pd.DataFrame(columns=["task", "field", "status", "reason"]) if gold is None else gold
    open_rows = gold[gold["status"] == "unresolved"]
    why = (
        open_rows.assign(reason=open_rows["reason"].fillna("").str.split("; ").str[-1])
        .groupby(["task", "field", "reason"])
        .size()
        .rename("fields")
        .reset_index()
    )
    return dg.AssetCheckResult(
        passed=open_rows.empty,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={
            "unresolved": len(open_rows),
            "excluded": int((gold["status"] == "excluded").sum()),
            "by_reason": _md(why),
        },
    )


@dg.asset_check(asset=adjudications, partitions_def=study_partitions)
def adjudication_backlog(
    context: dg.AssetCheckExecutionContext, raterlab: Raterlab
) -> dg.AssetCheckResult:
    """Disputes not yet settled (open, in a packet awaiting its decision, or awaiting a third
    annotator) and quarantined decision files: a warning while any remains. The consensus and
    queue it needs after new decisions are kept (``staging.consensus_draft``,
    ``staging.adjudication_queue``) for the ``consensus`` asset (a writable connection for
    that)."""
    study = raterlab.study(context.partition_key)
    with raterlab.warehouse() as con:
        tables = load_tables(con, study)
        draft = policy_consensus(con, study, tables)
        queue = current_queue(con, study, tables, draft, read_adjudication_key(con, study.name))
        files = read_table(con, "staging.adjudication_files", study.name)
    rejected = 0 if files is None else int((files["status"] == "rejected").sum())
    pending = queue[queue["state"].isin(OPEN_STATES)]
    return dg.AssetCheckResult(
        passed=pending.empty and rejected == 0,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={
            "open_fields": len(pending),
            "open_items": int(pending["item_id"].nunique()) if len(pending) else 0,
            "quarantined_files": rejected,
            "backlog": _md(backlog(queue)),
        },
    )
