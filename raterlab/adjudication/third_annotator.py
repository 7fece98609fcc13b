"""Third annotators: a disputed item goes to an annotator who was never assigned it.

The packet is a normal packet (``outbox/<study>/<annotator>/extra-NN/``, the normal template,
reference file and instructions: nothing in its name or text says the item was disputed) whose
rows are added to the sealed key with ``round = 'tiebreak'`` (which never leaves the
warehouse), so the normal ingest reads the return and the rating joins the item's ratings. The
assignments are kept in ``staging.tiebreak_assignments`` and merged into
``staging.blinding_key`` again whenever the design re-seals it.
"""

from __future__ import annotations

from datetime import datetime

import duckdb
import pandas as pd

from raterlab import warehouse
from raterlab.adjudication.staging import append_rows, next_batch
from raterlab.design.assignment import COLUMNS as ASSIGNMENT_COLUMNS
from raterlab.design.blinding import seal
from raterlab.design.packets import packet_dir, write_packet
from raterlab.design.rounds import TIEBREAK_ROUND
from raterlab.hashing import stable_int
from raterlab.ingest.study_tables import StudyTables
from raterlab.membership import is_in
from raterlab.protocol import Study
from raterlab.settings import Home
from raterlab.tables.adjudication import TIEBREAK_ASSIGNMENTS, TIEBREAK_PACKET_FILES
from raterlab.warehouse import read_table

TIEBREAK_TABLE = TIEBREAK_ASSIGNMENTS.name
PACKET_FILES_TABLE = TIEBREAK_PACKET_FILES.name
EXTRA_BATCH = "extra"
"""Prefix of third-annotator packets' batch names (``extra-01``...): a neutral name, so the
third annotator does not learn that the items were disputed."""


def _pick_annotator(item: str, candidates: set[str], load: dict[str, int]) -> str:
    return min(sorted(candidates), key=lambda a: (load.get(a, 0), stable_int("tiebreak", item, a)))


def tiebreak_rows(
    study: Study, queue: pd.DataFrame, key: pd.DataFrame, previous: pd.DataFrame, batch: str
) -> pd.DataFrame:
    """New third-annotator assignments (:data:`ASSIGNMENT_COLUMNS`) for the open
    ``third_annotator`` rows of ``queue``: the least-loaded annotator never assigned the item."""
    wanted = queue[(queue["route"] == "third_annotator") & (queue["state"] == "open")]
    items = wanted[["task", "item_id", "tier"]].drop_duplicates(["task", "item_id"])
    # the key rows of those items alone: a set per item of the whole key took 2.4 s a run
    # at 100,000 items, most runs for no item at all
    mine = key[is_in(key["item_id"], items["item_id"])] if len(key) and len(items) else key[:0]
    assigned = mine.groupby("item_id")["annotator_id"].agg(set).to_dict() if len(mine) else {}
    load = previous.groupby("annotator_id").size().to_dict() if len(previous) else {}
    rows = []
    for task, item, tier in items.itertuples(index=False):
        free = set(study.design.annotators) - assigned.get(item, set())
        if not free:
            continue
        annotator = _pick_annotator(item, free, load)
        load[annotator] = load.get(annotator, 0) + 1
        rows.append((annotator, TIEBREAK_ROUND, batch, task, item, tier, "item", 0, False))
    return pd.DataFrame(rows, columns=list(ASSIGNMENT_COLUMNS))


def merge_tiebreak_key(
    con: duckdb.DuckDBPyConnection, study: Study, assignments: pd.DataFrame, secret: bytes
) -> pd.DataFrame:
    """Seal the third-annotator assignments and make them the key's ``tiebreak`` rows (the
    rest of the sealed key is left alone), in one transaction."""
    if assignments.empty:
        return pd.DataFrame()
    sealed = seal(study, assignments[list(ASSIGNMENT_COLUMNS)].copy(), secret)
    sealed["copy"] = sealed["copy"].astype("int64")
    sealed["position"] = sealed["position"].astype("int64")
    data = sealed.assign(study=study.name)
    con.register("_tiebreak", data)
    try:
        con.execute("BEGIN TRANSACTION")
        con.execute(
            "DELETE FROM staging.blinding_key WHERE study = ? AND round = ?",
            [study.name, TIEBREAK_ROUND],
        )
        con.execute("INSERT INTO staging.blinding_key BY NAME SELECT * FROM _tiebreak")
        con.execute("COMMIT")
    except Exception:
        con.execute("ROLLBACK")
        raise
    finally:
        con.unregister("_tiebreak")
    return sealed


def sealed_tiebreak_rows(
    con: duckdb.DuckDBPyConnection, study: Study, secret: bytes
) -> pd.DataFrame:
    """The third-annotator rows of the sealed key (same tokens and positions every time), for
    the design's ``blinding_key`` asset to keep when it re-seals the key: append them to
    what :func:`raterlab.design.seal` returns. Empty when no third annotator was assigned."""
    previous = read_table(con, TIEBREAK_TABLE, study.name)
    if previous is None or previous.empty:
        return pd.DataFrame()
    sealed = seal(study, previous[list(ASSIGNMENT_COLUMNS)].copy(), secret)
    return sealed.astype({"copy": "int64", "position": "int64"})


def restore_tiebreak_key(con: duckdb.DuckDBPyConnection, study: Study, secret: bytes) -> int:
    """Put the third-annotator rows back into the sealed key if a re-run of the design
    dropped them; returns the rows restored."""
    previous = read_table(con, TIEBREAK_TABLE, study.name)
    if previous is None or previous.empty:
        return 0
    key = read_table(con, "staging.blinding_key", study.name)
    present = 0 if key is None else int((key["round"] == TIEBREAK_ROUND).sum())
    if present == len(previous):
        return 0
    merge_tiebreak_key(con, study, previous[list(ASSIGNMENT_COLUMNS)], secret)
    return len(previous)


def _previous_assignments(con: duckdb.DuckDBPyConnection, study: str) -> pd.DataFrame:
    previous = read_table(con, TIEBREAK_TABLE, study)
    if previous is None:
        return pd.DataFrame(columns=[*ASSIGNMENT_COLUMNS, "issued_at"])
    return previous


def issue_third_annotator_packets(
    study: Study,
    home: Home,
    con: duckdb.DuckDBPyConnection,
    secret: bytes,
    queue: pd.DataFrame,
    tables: StudyTables,
    now: datetime,
) -> dict | None:
    """Give the queue's open ``third_annotator`` items to annotators never assigned them
    (:func:`tiebreak_rows`), in a new batch (``extra-NN``): the assignments kept in
    ``staging.tiebreak_assignments`` and sealed into the key (:func:`merge_tiebreak_key`),
    one normal packet per annotator written, its files recorded in
    ``staging.tiebreak_packet_files``. Returns ``batch``, ``items`` and ``packets``
    (relative to the outbox); None when no item found an annotator."""
    previous = _previous_assignments(con, study.name)
    batch = next_batch(previous["batch"], EXTRA_BATCH, 2)
    new = tiebreak_rows(study, queue, tables.key, previous, batch)
    if new.empty:
        return None
    fresh_rows = new.assign(issued_at=now)
    everything = (
        fresh_rows if previous.empty else pd.concat([previous, fresh_rows], ignore_index=True)
    )
    warehouse.replace_study_rows(con, TIEBREAK_TABLE, study.name, everything)
    sealed = merge_tiebreak_key(con, study, everything[list(ASSIGNMENT_COLUMNS)], secret)
    fresh = sealed[sealed["batch"] == batch]
    files, packets = [], []
    records = tables.records_of(fresh["item_id"])
    for (annotator, b), rows in fresh.groupby(["annotator_id", "batch"], sort=True):
        target = packet_dir(home.outbox, study, annotator, b)
        for entry in write_packet(study, rows, records, target):
            files.append(
                {
                    "annotator_id": annotator,
                    "batch": b,
                    "round": TIEBREAK_ROUND,
                    **entry,
                    "file": str((target / entry["file"]).relative_to(home.outbox)),
                }
            )
        packets.append(str(target.relative_to(home.outbox)))
    append_rows(con, PACKET_FILES_TABLE, study.name, pd.DataFrame(files))
    return {"batch": batch, "items": len(new), "packets": packets}
