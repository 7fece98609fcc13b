"""Checks on consensus: the gold-table contract (blocking: nothing is exported from tables
that break it), unresolved fields, and the adjudication backlog."""

import dagster as dg
import pandas as pd

from assets.consensus import adjudications, consensus
from assets.partitions import study_partitions
from raterlab.adjudication.packets import current_queue, read_adjudication_key
from raterlab.adjudication.queue import OPEN_STATES, backlog
from raterlab.consensus.draft import policy_consensus
from raterlab.consensus.inputs import counting_ratings, load_tables
from raterlab.design.blinding import KEY_COLUMNS
from raterlab.gold.contract import validate_gold
from raterlab.warehouse import read_table, replace_study_rows
from resources import Raterlab


def _md(frame: pd.DataFrame) -> dg.MetadataValue:
    return dg.MetadataValue.md(frame.to_markdown(index=False) if len(frame) else "none")


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
    ``reports/<study>/gold_contract/``."""
    study = raterlab.study(context.partition_key)
    with raterlab.warehouse(read_only=True) as con:
        labels = read_table(con, "gold.labels", study.name)
        key = read_table(con, "staging.blinding_key", study.name)
        gold = read_table(con, "gold.consensus", study.name)
        items = read_table(con, "gold.items", study.name, ("record",))
    result = validate_gold(
        study,
        gold,
        items,
        counting_ratings(study, labels),
        pd.DataFrame(columns=list(KEY_COLUMNS)) if key is None else key,
        raterlab.paths.reports / study.name,
    )
    shown = result.results[
        ["table", "expectation", "column", "condition", "success", "unexpected_count", "examples"]
    ]
    shown = shown.assign(
        condition=shown["condition"].map(_row_condition),
        unexpected_count=shown["unexpected_count"].astype("Int64"),
    )
    with raterlab.warehouse() as con:
        replace_study_rows(con, "staging.gold_contract", study.name, shown)
    return dg.AssetCheckResult(
        passed=result.success,
        metadata={
            "expectations": len(shown),
            "failed": int((~shown["success"]).sum()),
            "data_docs": dg.MetadataValue.path(str(result.docs)),
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


consensus_checks = [gold_table_contract, unresolved_consensus, adjudication_backlog]
