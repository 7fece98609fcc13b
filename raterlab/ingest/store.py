"""Archiving, quarantine, and the ingest's single transaction in the warehouse.

Tables (all keyed by ``study``):

- ``raw.returned_files``: every file received, by content hash, with where it is archived.
- ``staging.ingests``: the outcome per file: accepted, rejected, or superseded by a later
  corrected file for the same packet.
- ``staging.ingest_issues``: every error and warning reported for a file.
- ``gold.labels``: accepted ratings in long form (see :mod:`raterlab.ingest.labels`).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import duckdb
import pandas as pd

from raterlab.ingest.labels import LABEL_COLUMNS

DDL = {
    "raw.returned_files": """
        study VARCHAR, sha256 VARCHAR, file VARCHAR, archived_path VARCHAR,
        size_bytes BIGINT, received_at TIMESTAMPTZ""",
    "staging.ingests": """
        study VARCHAR, sha256 VARCHAR, file VARCHAR, task VARCHAR, status VARCHAR,
        n_rows BIGINT, n_labels BIGINT, n_errors BIGINT, n_warnings BIGINT, packets JSON,
        report VARCHAR, ingested_at TIMESTAMPTZ, superseded_by VARCHAR""",
    "staging.ingest_issues": """
        study VARCHAR, sha256 VARCHAR, file VARCHAR, "row" BIGINT, "column" VARCHAR,
        rule VARCHAR, value VARCHAR, message VARCHAR, severity VARCHAR""",
    "gold.labels": """
        study VARCHAR, task VARCHAR, item_id VARCHAR, annotator_id VARCHAR, field VARCHAR,
        value VARCHAR, value_num DOUBLE, confidence VARCHAR, time_spent_s DOUBLE,
        notes VARCHAR, kind VARCHAR, copy INTEGER, round VARCHAR, batch VARCHAR,
        token VARCHAR, source_file VARCHAR, source_sha256 VARCHAR, source_row BIGINT,
        ingested_at TIMESTAMPTZ""",
}


def ensure_tables(con: duckdb.DuckDBPyConnection) -> None:
    for table, columns in DDL.items():
        con.execute(f"CREATE TABLE IF NOT EXISTS {table} ({columns})")


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def archive(path: Path, folder: Path, sha256: str) -> Path:
    """Copy ``path`` to ``folder/<sha256><suffix>`` unless that content is already there."""
    target = folder / f"{sha256}{path.suffix.lower()}"
    if not target.exists():
        folder.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        shutil.copyfile(path, partial)
        os.replace(partial, target)
    return target


def quarantine(source: Path, folder: Path, name: str) -> Path:
    """Copy a rejected file into its quarantine folder (beside its report), as ``name``."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, folder / name)
    return folder / name


def known_outcome(con: duckdb.DuckDBPyConnection, study: str, sha256: str) -> str | None:
    row = con.execute(
        "SELECT status FROM staging.ingests WHERE study = ? AND sha256 = ?", [study, sha256]
    ).fetchone()
    return row[0] if row else None


def _insert(con: duckdb.DuckDBPyConnection, table: str, frame: pd.DataFrame) -> None:
    con.register("_rows", frame)
    try:
        con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _rows")
    finally:
        con.unregister("_rows")


def commit_ingest(
    con: duckdb.DuckDBPyConnection,
    received: dict,
    outcome: dict,
    issues: pd.DataFrame,
    labels: pd.DataFrame | None,
) -> list[str]:
    """Record one file's ingest in a single transaction; returns files it supersedes.

    For an accepted file, the labels of the packets it answers (annotator, batch, task)
    replace whatever an earlier file gave for them, and that earlier ingest is marked as
    superseded by this one.
    """
    study, sha = received["study"], received["sha256"]
    superseded: list[str] = []
    con.execute("BEGIN TRANSACTION")
    try:
        _insert(con, "raw.returned_files", pd.DataFrame([received]))
        if labels is not None and not labels.empty:
            packets = labels[["annotator_id", "batch", "task"]].drop_duplicates()
            con.register("_packets", packets)
            superseded = [
                r[0]
                for r in con.execute(
                    """SELECT DISTINCT source_file FROM gold.labels l JOIN _packets p
                       USING (annotator_id, batch, task) WHERE l.study = ?""",
                    [study],
                ).fetchall()
            ]
            con.execute(
                """UPDATE staging.ingests SET superseded_by = ?, status = 'superseded'
                   WHERE study = ? AND status = 'accepted' AND sha256 IN (
                     SELECT DISTINCT source_sha256 FROM gold.labels l JOIN _packets p
                     USING (annotator_id, batch, task) WHERE l.study = ?)""",
                [sha, study, study],
            )
            con.execute(
                """DELETE FROM gold.labels l WHERE l.study = ? AND EXISTS (
                     SELECT 1 FROM _packets p WHERE p.annotator_id = l.annotator_id
                     AND p.batch = l.batch AND p.task = l.task)""",
                [study],
            )
            con.unregister("_packets")
            _insert(con, "gold.labels", labels.assign(study=study)[["study", *LABEL_COLUMNS]])
        if not issues.empty:
            _insert(con, "staging.ingest_issues", issues.assign(study=study, sha256=sha))
        _insert(
            con,
            "staging.ingests",
            pd.DataFrame(
                [
                    {
                        **outcome,
                        "study": study,
                        "sha256": sha,
                        "packets": json.dumps(outcome["packets"]),
                    }
                ]
            ),
        )
        con.execute("COMMIT")
    except Exception:
        con.execute("ROLLBACK")
        raise
    return superseded
