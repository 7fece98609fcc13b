"""Writing accepted decisions by the ratings' version rule
(:func:`raterlab.ingest.ratings.newer_or_same`; a file's version is its modification time
capped at its arrival): a decision at least as new as the one in force for the same case and
field replaces it (the replaced one goes to ``gold.adjudication_history``, ``change =
'replaced'``; an earlier file left with no decision is marked superseded); an older one goes
to history instead (``older_than_current``) and the decision in force stays."""

from __future__ import annotations

import duckdb
import pandas as pd

from raterlab.ingest import store
from raterlab.ingest.ratings import newer_or_same
from raterlab.tables import names
from raterlab.tables.adjudication import ADJUDICATION_FILES, ADJUDICATION_HISTORY, ADJUDICATIONS

_MEETS = "a.study = d.study AND a.task = d.task AND a.item_id = d.item_id AND a.field = d.field"
"""SQL: the decision in force ``a`` for the same case and field as the decision ``d``."""


def apply_decisions(
    con: duckdb.DuckDBPyConnection, study: str, sha256: str, decisions: pd.DataFrame
) -> tuple[list[str], int]:
    """Apply a file's decisions (inside the commit's transaction) by the ratings' version
    rule: each at least as new as the decision in force for its case and field replaces it
    (:func:`_replace_decisions`); each older one goes to history as ``older_than_current``.
    Returns the files left with no decision (marked superseded) and how many were older."""
    rows = decisions.assign(study=study)[names(ADJUDICATIONS)]
    con.register("_incoming", rows)
    try:
        wins = con.execute(
            f"""SELECT {newer_or_same("d.version_at", "a.version_at")} AS wins, a.source_file,
                       a.source_sha256
                FROM _incoming d LEFT JOIN gold.adjudications a ON {_MEETS}
                ORDER BY d.source_row""",
        ).df()
    finally:
        con.unregister("_incoming")
    rows = rows.sort_values("source_row", kind="stable").reset_index(drop=True)
    win = wins.pop("wins").to_numpy(dtype=bool)
    older = rows[~win].assign(
        change="older_than_current",
        replaced_at=rows["decided_at"][~win],
        replaced_by_file=wins["source_file"][~win],
        replaced_by_sha256=wins["source_sha256"][~win],
    )
    store.insert(con, ADJUDICATION_HISTORY.name, older)
    newer = rows[win]
    return (_replace_decisions(con, study, sha256, newer) if len(newer) else []), len(older)


def _replace_decisions(
    con: duckdb.DuckDBPyConnection, study: str, sha256: str, rows: pd.DataFrame
) -> list[str]:
    """Replace the decisions in force for the same case and field as ``rows`` (inside the
    commit's transaction), keeping each replaced one in ``gold.adjudication_history``;
    returns the files left with no decision, marked superseded."""
    superseded: list[str] = []
    con.register("_decided", rows)
    try:
        before = {
            r[0]
            for r in con.execute(
                f"""SELECT DISTINCT source_sha256 FROM gold.adjudications a
                   WHERE study = ? AND EXISTS (SELECT 1 FROM _decided d WHERE {_MEETS})""",
                [study],
            ).fetchall()
        }
        con.execute(
            f"""INSERT INTO gold.adjudication_history BY NAME
               SELECT a.*, 'replaced' AS change, now() AS replaced_at,
                      (SELECT any_value(source_file) FROM _decided) AS replaced_by_file,
                      ? AS replaced_by_sha256
               FROM gold.adjudications a WHERE study = ? AND EXISTS (
               SELECT 1 FROM _decided d WHERE {_MEETS})""",
            [sha256, study],
        )
        con.execute(
            f"""DELETE FROM gold.adjudications a WHERE study = ? AND EXISTS (
               SELECT 1 FROM _decided d WHERE {_MEETS})""",
            [study],
        )
        con.execute("INSERT INTO gold.adjudications BY NAME SELECT * FROM _decided")
    finally:
        con.unregister("_decided")
    for sha in sorted(before):
        left = con.execute(
            "SELECT count(*) FROM gold.adjudications WHERE study = ? AND source_sha256 = ?",
            [study, sha],
        ).fetchall()[0][0]
        if left == 0:
            file = con.execute(
                f"""UPDATE {ADJUDICATION_FILES.name} SET status = 'superseded', superseded_by = ?
                    WHERE study = ? AND sha256 = ? RETURNING file""",
                [sha256, study, sha],
            ).fetchall()
            superseded += [f[0] for f in file]
    return superseded
