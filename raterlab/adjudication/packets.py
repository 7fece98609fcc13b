"""Issuing the open disputes: third-annotator packets
(:mod:`raterlab.adjudication.third_annotator`), then one adjudication packet
(:mod:`raterlab.adjudication.adjudicator_packet`), from the queue as it stands
(:mod:`raterlab.adjudication.stored_queue`).
"""

from __future__ import annotations

from datetime import UTC, datetime

import duckdb

from raterlab.adjudication.adjudicator_packet import (
    issue_adjudication_packet,
)
from raterlab.adjudication.staging import ensure_staging, read_adjudication_key
from raterlab.adjudication.stored_queue import current_queue
from raterlab.adjudication.third_annotator import (
    issue_third_annotator_packets,
)
from raterlab.consensus.draft import policy_consensus
from raterlab.ingest.study_tables import load_tables
from raterlab.protocol import Study
from raterlab.settings import Home


def issue_packets(
    study: Study,
    home: Home,
    con: duckdb.DuckDBPyConnection,
    secret: bytes,
    now: datetime | None = None,
) -> dict:
    """Issue every open dispute: third-annotator packets and one new adjudication packet.

    Returns what was issued: ``adjudication_batch``, ``cases``, ``fields``,
    ``tiebreak_batch``, ``tiebreak_items``, ``packets`` (paths relative to the outbox).
    """
    now = now or datetime.now(UTC)
    ensure_staging(con)
    tables = load_tables(con, study)
    # Issuing packets changes the keys, not the ratings or decisions: one consensus serves
    # the queue before and after.
    draft = policy_consensus(con, study, tables)
    queue = current_queue(con, study, tables, draft, read_adjudication_key(con, study.name))
    issued = {
        "adjudication_batch": None,
        "cases": 0,
        "fields": 0,
        "tiebreak_batch": None,
        "tiebreak_items": 0,
        "packets": [],
    }
    third = issue_third_annotator_packets(study, home, con, secret, queue, tables, now)
    if third is not None:
        issued.update(tiebreak_batch=third["batch"], tiebreak_items=third["items"])
        issued["packets"] += third["packets"]
    adjudication = issue_adjudication_packet(study, home, con, secret, queue, tables, now)
    if adjudication is not None:
        issued.update(
            adjudication_batch=adjudication["batch"],
            cases=adjudication["cases"],
            fields=adjudication["fields"],
        )
        issued["packets"].append(adjudication["packet"])
    if third is not None:
        tables = load_tables(con, study)  # the sealed key has the third annotators' rows
    if issued["packets"]:
        current_queue(con, study, tables, draft, read_adjudication_key(con, study.name))
    return issued
