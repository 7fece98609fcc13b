"""The policy consensus computed once per set of inputs, kept in ``staging.consensus_draft``.

One annotation run reads the same consensus four times: the adjudication queue, the
packets that issue it, the adjudication backlog check and the ``consensus`` asset (the last
two after new decisions may have arrived). :func:`policy_consensus` computes it
(:func:`raterlab.consensus.policy.compute_consensus`, Dawid-Skene included) when the stored
draft was computed from other inputs, and otherwise reads the draft back. The inputs are
fingerprinted (SHA-256 of the code, the study model, the counting ratings, the rated items
with their tiers and the decisions), so a draft is only ever reused for exactly the inputs it was
computed from, and any asset re-materialized alone gets what a fresh computation gives. The
adjudication queue built from a draft is kept the same way, keyed by the draft's inputs
(:func:`raterlab.adjudication.stored_queue.current_queue`).
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb
import pandas as pd

from raterlab import memo, warehouse
from raterlab.consensus.policy import compute_consensus
from raterlab.ingest.study_tables import StudyTables
from raterlab.protocol import Study
from raterlab.tables import names
from raterlab.tables.consensus import CONSENSUS, CONSENSUS_DRAFT

COLUMNS = names(CONSENSUS)[1:]


def fingerprint(study: Study, tables: StudyTables, items: pd.DataFrame) -> str:
    """:func:`raterlab.memo.fingerprint` of everything :func:`compute_consensus` reads: the
    study model, the counting ratings, the rated items with their tiers and the decisions
    (with the code version; each frame by its column names and sorted row hashes, since
    DuckDB may return an unchanged table's rows in another order: at 100,000 items every
    reader recomputed the draft, 16 times in four runs, before the rows were sorted)."""
    return memo.fingerprint(study, tables.ratings, items, tables.adjudications)


def _stored(con: duckdb.DuckDBPyConnection, study: str, inputs: str) -> pd.DataFrame | None:
    """The draft computed from ``inputs``, typed as :func:`compute_consensus` returns it, or
    ``None`` when the stored draft is of other inputs or absent."""
    draft = warehouse.read_study_rows(con, CONSENSUS_DRAFT.name, study)
    if draft.empty or not (draft["inputs"] == inputs).all():
        return None
    out = draft[COLUMNS].astype({"n_ratings": "int64"})
    out["computed_at"] = out["computed_at"].dt.tz_convert("UTC")
    return out


@dataclass(frozen=True)
class Draft:
    """A study's policy consensus and the fingerprint of the inputs it was computed from
    (what a result derived from it, such as the adjudication queue, is keyed by)."""

    consensus: pd.DataFrame
    inputs: str


def policy_consensus(con: duckdb.DuckDBPyConnection, study: Study, tables: StudyTables) -> Draft:
    """The study's policy consensus of ``tables`` (``gold.consensus`` rows without ``study``,
    before open disputes' reasons and the hold on promoted items are applied): read back from
    ``staging.consensus_draft`` when it was computed from the same inputs, else computed and
    kept there (``con`` must be writable)."""
    items = tables.rated_items()
    inputs = fingerprint(study, tables, items)
    stored = _stored(con, study.name, inputs)
    if stored is not None:
        return Draft(stored, inputs)
    consensus = compute_consensus(study, tables.ratings, items, tables.adjudications)
    warehouse.replace_study_rows(
        con, CONSENSUS_DRAFT.name, study.name, consensus.assign(inputs=inputs)
    )
    return Draft(consensus, inputs)
