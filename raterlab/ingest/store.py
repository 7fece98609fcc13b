"""Archiving, quarantine, and the ingest's single transaction in the warehouse.

Tables (all keyed by ``study``):

- ``raw.returned_files``: every file received, by content hash, with where it is archived.
- ``staging.ingests``: the outcome per file: accepted, rejected, or superseded by a later
  corrected file for the same packet.
- ``staging.ingest_issues``: every error and warning reported for a file.
- ``gold.ratings``: one row per accepted rating (an item rated by an annotator, one copy),
  with its provenance; ``gold.rating_values``: its field values.
- ``gold.labels``: the view joining the two, in long form (see :mod:`raterlab.ingest.labels`).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa

from raterlab.ingest.labels import LABEL_COLUMNS, Labels, number_column, value_column

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
    "gold.ratings": """
        study VARCHAR, rating_id BIGINT, task VARCHAR, item_id VARCHAR, annotator_id VARCHAR,
        confidence VARCHAR, time_spent_s DOUBLE, notes VARCHAR, kind VARCHAR, copy INTEGER,
        round VARCHAR, batch VARCHAR, token VARCHAR, source_file VARCHAR,
        source_sha256 VARCHAR, source_row BIGINT, ingested_at TIMESTAMPTZ""",
    "gold.rating_values": """
        study VARCHAR, rating_id BIGINT, field VARCHAR, value VARCHAR, value_num DOUBLE""",
}


_VALUE_COLUMNS = ("field", "value", "value_num")
_LABELS_SELECT = ", ".join(
    f"{'v' if c in _VALUE_COLUMNS else 'r'}.{c}" for c in ("study", "rating_id", *LABEL_COLUMNS)
)
LABELS_VIEW = f"""
    CREATE OR REPLACE VIEW gold.labels AS SELECT {_LABELS_SELECT}
    FROM gold.ratings r JOIN gold.rating_values v USING (study, rating_id)"""
"""``gold.labels``: the long form, one row per rating and field, with the rating's provenance."""


def ensure_tables(con: duckdb.DuckDBPyConnection) -> None:
    for table, columns in DDL.items():
        con.execute(f"CREATE TABLE IF NOT EXISTS {table} ({columns})")
    con.execute(LABELS_VIEW)


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
    rows = con.execute(
        "SELECT status FROM staging.ingests WHERE study = ? AND sha256 = ?", [study, sha256]
    ).fetchall()
    return rows[0][0] if rows else None


def _insert(con: duckdb.DuckDBPyConnection, table: str, frame: pd.DataFrame) -> None:
    con.register("_rows", frame)
    try:
        con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _rows")
    finally:
        con.unregister("_rows")


def insert_labels(con: duckdb.DuckDBPyConnection, study: str, labels: Labels) -> None:
    """One row per rating in ``gold.ratings`` and one per filled field in
    ``gold.rating_values`` (melted inside DuckDB: one SELECT per field, UNION ALL). Field
    names are checked identifiers; the study is a bound parameter."""
    last = con.execute("SELECT coalesce(max(rating_id), 0) FROM gold.ratings").fetchall()[0][0]
    ids = pa.array(np.arange(last + 1, last + 1 + labels.table.num_rows))
    con.register("_wide", labels.table.append_column("rating_id", ids))
    per_rating = [c for c in labels.table.column_names if ":" not in c]
    constants = {"study": study, **labels.constants}
    selects = [
        f"""SELECT $study AS study, rating_id, '{n}' AS field, "{value_column(n)}" AS value,
                   "{number_column(n)}" AS value_num
            FROM _wide WHERE "{value_column(n)}" IS NOT NULL"""
        for n in labels.fields
    ]
    try:
        con.execute(
            f"""INSERT INTO gold.ratings BY NAME
                SELECT {", ".join(f"${c} AS {c}" for c in constants)}, rating_id,
                       {", ".join(per_rating)}
                FROM _wide""",
            constants,
        )
        con.execute(
            "INSERT INTO gold.rating_values " + " UNION ALL ".join(selects), {"study": study}
        )
    finally:
        con.unregister("_wide")


def commit_ingest(
    con: duckdb.DuckDBPyConnection,
    received: dict,
    outcome: dict,
    issues: pd.DataFrame,
    labels: Labels | None,
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
        if labels is not None and labels.table.num_rows:
            packets = labels.packets()
            con.register("_packets", packets)
            matching = """SELECT rating_id, source_file, source_sha256 FROM gold.ratings r
                WHERE r.study = ? AND EXISTS (SELECT 1 FROM _packets p
                  WHERE p.annotator_id = r.annotator_id AND p.batch = r.batch
                  AND p.task = r.task)"""
            superseded = [
                r[0]
                for r in con.execute(
                    f"SELECT DISTINCT source_file FROM ({matching}) ORDER BY 1", [study]
                ).fetchall()
            ]
            con.execute(
                f"""UPDATE staging.ingests SET superseded_by = ?, status = 'superseded'
                    WHERE study = ? AND status = 'accepted'
                    AND sha256 IN (SELECT source_sha256 FROM ({matching}))""",
                [sha, study, study],
            )
            con.execute(
                f"""DELETE FROM gold.rating_values WHERE study = ?
                    AND rating_id IN (SELECT rating_id FROM ({matching}))""",
                [study, study],
            )
            con.execute(
                f"DELETE FROM gold.ratings WHERE rating_id IN (SELECT rating_id FROM ({matching}))",
                [study],
            )
            con.unregister("_packets")
            insert_labels(con, study, labels)
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
