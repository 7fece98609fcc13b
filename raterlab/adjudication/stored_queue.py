"""The adjudication queue as the warehouse keeps it (``staging.adjudication_queue``): built
once per draft consensus and its inputs, read back while they are unchanged.

A run asks for the queue four or five times (the queue asset, the packets before and after
issuing, the backlog check, consensus), mostly of the same inputs; at 100,000 items a build
(:func:`raterlab.adjudication.queue.build_queue`) costs several seconds.
"""

from __future__ import annotations

import duckdb
import pandas as pd

from raterlab import memo, warehouse
from raterlab.adjudication.queue import (
    QUEUE_COLUMNS,
    QUEUE_TYPES,
    build_queue,
    empty_queue,
    ordered,
    returned_tiebreaks,
)
from raterlab.adjudication.staging import ensure_staging, read_adjudication_key
from raterlab.consensus.draft import Draft, policy_consensus
from raterlab.ingest.study_tables import StudyTables, load_tables
from raterlab.protocol import Study
from raterlab.tables.adjudication import ADJUDICATION_QUEUE

QUEUE_TABLE = ADJUDICATION_QUEUE.name
QUEUE_STEP = "adjudication_queue"
"""The queue's record in ``staging.step_inputs`` (:mod:`raterlab.memo`)."""


def _queue_inputs(tables: StudyTables, draft: Draft, adjudication_key: pd.DataFrame) -> str:
    """:func:`raterlab.memo.fingerprint` of what :func:`build_queue` reads: the draft's own
    inputs (study, counting ratings, items and tiers, decisions), the sealed key, the
    adjudication key, the items whose third rating came back and the promoted items."""
    returned = pd.DataFrame({"item_id": sorted(returned_tiebreaks(tables))}, dtype=object)
    promoted = pd.DataFrame({"item_id": sorted(tables.promoted)}, dtype=object)
    return memo.fingerprint(draft.inputs, tables.key, adjudication_key, returned, promoted)


def _stored_queue(con: duckdb.DuckDBPyConnection, study: str) -> pd.DataFrame:
    """``staging.adjudication_queue`` read back as :func:`build_queue` returns it (types and
    order)."""
    stored = warehouse.read_study_rows(con, QUEUE_TABLE, study)
    if stored.empty:
        return empty_queue()
    return ordered(stored[list(QUEUE_COLUMNS)].astype(QUEUE_TYPES)).reset_index(drop=True)


def current_queue(
    con: duckdb.DuckDBPyConnection,
    study: Study,
    tables: StudyTables,
    draft: Draft,
    adjudication_key: pd.DataFrame,
) -> pd.DataFrame:
    """The adjudication queue of ``tables``: read back from ``staging.adjudication_queue``
    when it was built from the same inputs (:func:`_queue_inputs`), else built
    (:func:`build_queue`) and stored with its record in one transaction."""
    inputs = _queue_inputs(tables, draft, adjudication_key)
    if memo.unchanged(con, study.name, QUEUE_STEP, inputs):
        return _stored_queue(con, study.name)
    queue = build_queue(study, tables, adjudication_key, draft.consensus)
    ensure_staging(con)
    memo.write_tables(con, study.name, {QUEUE_TABLE: queue}, QUEUE_STEP, inputs)
    return queue


def refresh_queue(
    con: duckdb.DuckDBPyConnection, study: Study, draft: Draft | None = None
) -> pd.DataFrame:
    """The queue of the warehouse as it is (:func:`current_queue`), kept in
    ``staging.adjudication_queue``. ``draft`` (of the same ratings and decisions) spares
    reading it again (:func:`raterlab.consensus.draft.policy_consensus`)."""
    tables = load_tables(con, study)
    draft = draft or policy_consensus(con, study, tables)
    return current_queue(con, study, tables, draft, read_adjudication_key(con, study.name))
