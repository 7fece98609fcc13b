"""One study's consensus end to end: read, resolve, write the gold tables and views.

:func:`build_consensus` is what the ``consensus`` asset and ``raterlab adjudicate consensus``
run. ``gold.items``, ``gold.consensus`` and, for a simulated study, how often each method
recovers the planted truth (``staging.consensus_recovery``) are replaced for the study in one
transaction.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb
import pandas as pd

from raterlab.adjudication.queue import pending_reasons
from raterlab.adjudication.staging import read_adjudication_key
from raterlab.adjudication.stored_queue import current_queue
from raterlab.consensus.draft import policy_consensus
from raterlab.consensus.items import build_items
from raterlab.consensus.policy import with_pending
from raterlab.consensus.recovery import truth_recovery
from raterlab.consensus.store import create_views, replace_rows
from raterlab.heap import return_freed_memory
from raterlab.ingest.study_tables import StudyTables, load_tables
from raterlab.protocol import Study
from raterlab.tables import ddl
from raterlab.tables.consensus import CONSENSUS_RECOVERY
from raterlab.warehouse import read_table

CONSENSUS_TABLES = ("gold.items", "gold.consensus")
"""The gold tables :func:`build_consensus` writes."""
RECOVERY_TABLE = CONSENSUS_RECOVERY.name


@dataclass
class ConsensusBuild:
    items: pd.DataFrame
    consensus: pd.DataFrame
    queue: pd.DataFrame
    views: list[str]
    recovery: pd.DataFrame
    """Empty unless the study was simulated (``staging.sim_truth`` has rows)."""


def compute(
    study: Study, tables: StudyTables, queue: pd.DataFrame, policy: pd.DataFrame
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Consensus and items of one study, from its tables, their adjudication queue and their
    policy consensus (:func:`raterlab.consensus.draft.policy_consensus`); nothing written."""
    consensus = with_pending(policy, pending_reasons(queue))
    consensus = hold_promoted(consensus, queue)
    items = build_items(
        study, tables.generations, tables.routed, tables.key, tables.ratings, consensus
    )
    return consensus, items


PROMOTED_PENDING = "promoted: awaiting its second annotator"


def hold_promoted(consensus: pd.DataFrame, queue: pd.DataFrame) -> pd.DataFrame:
    """Fields of promoted items still waiting for their new tier's annotators are
    ``unresolved`` (a single rating is not gold), whatever their one rating says."""
    waiting = queue[
        queue["reasons"].fillna("").str.contains("promoted")
        & queue["state"].isin(["open", "awaiting_rating"])
    ]
    if waiting.empty:
        return consensus
    keys = set(zip(waiting["task"], waiting["item_id"], waiting["field"], strict=True))
    rows = zip(consensus["task"], consensus["item_id"], consensus["field"], strict=True)
    hold = pd.Series([k in keys for k in rows], index=consensus.index)
    out = consensus.astype({c: object for c in ("value", "status", "method", "reason")})
    out.loc[hold, ["value", "method"]] = None
    out.loc[hold, "value_num"] = float("nan")
    out.loc[hold, "status"] = "unresolved"
    out.loc[hold, "reason"] = PROMOTED_PENDING
    return out


def build_consensus(con: duckdb.DuckDBPyConnection, study: Study) -> ConsensusBuild:
    """Compute and write one study's ``gold.items``, ``gold.consensus`` and, for a simulated
    study, its truth recovery (one transaction), then the views."""
    tables = load_tables(con, study)
    draft = policy_consensus(con, study, tables)
    queue = current_queue(con, study, tables, draft, read_adjudication_key(con, study.name))
    consensus, items = compute(study, tables, queue, draft.consensus)
    # what it was computed from (the labels, ratings, key and records: about 500 MB at
    # 100,000 items) goes before DuckDB takes the rows written, which it holds until the commit
    del tables, draft
    return_freed_memory()
    truth = read_table(con, "staging.sim_truth", study.name)
    recovery = truth_recovery(consensus, truth)
    frames = dict(zip(CONSENSUS_TABLES, (items, consensus), strict=True))
    if truth is not None and len(truth):
        ddl.ensure(con, CONSENSUS_RECOVERY)
        frames[RECOVERY_TABLE] = recovery
    replace_rows(con, study.name, frames)
    views = create_views(con, study)
    return ConsensusBuild(items, consensus, queue, views, recovery)
