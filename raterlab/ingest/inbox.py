"""The inbox's ledger: files archived from ``inbox/<study>/`` are recorded in
``staging.inbox`` (by content hash), so each step of the asset chain reads what the step
before left in the warehouse and can be run again alone: a file is pending until
``staging.ingests`` holds its outcome."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd

from raterlab.ingest import store
from raterlab.ingest.receive import Received, file_row, receive
from raterlab.protocol import Study
from raterlab.settings import Home

INBOX_TABLE = "staging.inbox"
INBOX_DDL = {
    "study": "VARCHAR",
    "sha256": "VARCHAR",
    "file": "VARCHAR",
    "archived_path": "VARCHAR",
    "received_at": "TIMESTAMPTZ",
    "version_at": "TIMESTAMPTZ",
    "modified_at": "TIMESTAMPTZ",
}
"""Files archived from an inbox, waiting for (or past) their ingest."""


def record_inbox(
    study: Study, paths: list[Path], home: Home, con: duckdb.DuckDBPyConnection
) -> int:
    """Archive the inbox's files, then record in ``staging.inbox`` those not seen before, in
    one transaction; returns how many were new. A file archived and not yet recorded (the
    process stopped in between) is archived again, to the same name, on the next run."""
    store.create_table(con, INBOX_TABLE, INBOX_DDL)
    rows: dict[str, dict] = {}
    for path in paths:
        received = receive(study, path, home)
        if received.sha256 not in rows:
            row = file_row(study, received)
            rows[received.sha256] = {c: row[c] for c in INBOX_DDL}
    if not rows:
        return 0
    frame = pd.DataFrame(list(rows.values()))
    with store.transaction(con):
        con.register("_received", frame)
        try:
            new = con.execute(
                f"""INSERT INTO {INBOX_TABLE} BY NAME
                    SELECT * FROM _received r WHERE NOT EXISTS (SELECT 1 FROM {INBOX_TABLE} i
                      WHERE i.study = r.study AND i.sha256 = r.sha256)"""
            ).fetchall()[0][0]
        finally:
            con.unregister("_received")
    return int(new)


def pending(study: Study, con: duckdb.DuckDBPyConnection) -> list[Received]:
    """Files of ``staging.inbox`` with no outcome in ``staging.ingests`` yet, oldest first."""
    store.ensure_tables(con)
    store.create_table(con, INBOX_TABLE, INBOX_DDL)
    rows = con.execute(
        f"""SELECT file, sha256, archived_path, received_at, version_at, modified_at
            FROM {INBOX_TABLE} i
            WHERE study = ? AND NOT EXISTS (SELECT 1 FROM staging.ingests g
              WHERE g.study = i.study AND g.sha256 = i.sha256)
            ORDER BY version_at, file""",
        [study.name],
    ).fetchall()
    return [Received(f, s, Path(a), r, v, m) for f, s, a, r, v, m in rows]
