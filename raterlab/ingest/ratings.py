"""How a return changes the ratings in the warehouse: row by row, the newest version wins,
and nothing is lost.

A rating is one row of a returned file: an annotator's answer for one item (one copy of it)
of one packet, keyed by (task, annotator, batch, item, copy). A file's rating is compared
with the current rating of the same key:

- ``new``: there is none; the rating is added.
- ``unchanged``: the same values (every field, confidence, time spent, notes); nothing is
  written, except that a newer file's version becomes the rating's version: the newest file
  has confirmed it, so an older file arriving later must not replace it.
- ``replaced``: the file is at least as new as the current rating's file (its *version*,
  the file's modification time when it was received); the current rating moves to
  ``gold.rating_history`` (``change = 'replaced'``, with the replacing file) and the
  file's rating takes its place. A rating is replaced as a whole, never merged field by field
  with an older version: the study's rules (conditionals, constraints) hold for a row, and a
  merge could make a rating nobody gave.
- ``older``: the file is older than the current rating's file (a late arrival); the current
  rating stays, and the file's rating goes to history (``change = 'older_than_current'``).

Ratings a file does not contain are left alone. Withdrawing a rating is explicit
(:func:`withdraw`, ``raterlab withdraw``): the rating moves to history with
``change = 'withdrawn'`` and the reason; a file older than the withdrawal does not bring it
back (its rating is ``older``), a newer one does (``new``).
"""

from __future__ import annotations

from datetime import datetime

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from raterlab.ingest.labels import LABEL_COLUMNS, Labels, number_column, value_column
from raterlab.ingest.store import DDL, LABELS_SELECT, transaction
from raterlab.warehouse import existing_tables

CHANGES = ("new", "replaced", "unchanged", "older")
RATING_KEY = ("annotator_id", "batch", "item_id", "copy")
"""With the task, what identifies a rating (the token identifies the same for packet rows)."""
HISTORY = "gold.rating_history"


def _fingerprint(labels: Labels) -> str:
    """SQL: a hash of what a rating says (its values, confidence, time spent and notes)."""
    parts = ["w.confidence", "CAST(w.time_spent_s AS VARCHAR)", "w.notes"] + [
        f'w."{value_column(f)}"' for f in sorted(labels.fields)
    ]
    return "md5(concat_ws(chr(31), " + ", ".join(f"coalesce({p}, chr(0))" for p in parts) + "))"


def _next_id(con: duckdb.DuckDBPyConnection, tables: set[str]) -> int:
    """The highest rating id in use, current or in history (ids are never reused); ``tables``
    are those of the two that exist."""
    union = " UNION ALL ".join(
        f"SELECT max(rating_id) AS id FROM {t}" for t in ("gold.ratings", HISTORY) if t in tables
    )
    if not union:
        return 0
    return con.execute(f"SELECT coalesce(max(id), 0) FROM ({union})").fetchall()[0][0]


def plan(
    con: duckdb.DuckDBPyConnection, study: str, labels: Labels, version_at: datetime
) -> pa.Table:
    """``labels``'s ratings, each with its ``change`` (see the module docstring), the current
    rating it meets (``old_id``, ``current_file``, ``current_sha256``) and a fresh
    ``rating_id``. Reads only.

    DuckDB computes only the plan's own columns, in the ratings' order; they are appended to
    ``labels.table``, whose columns are not copied. On a task's first return there is nothing
    to meet: every rating is new, and DuckDB is not asked."""
    ratings = labels.table
    tables = existing_tables(con, ("gold.ratings", HISTORY))
    params = {"study": study, "task": labels.constants["task"], "version": version_at}
    if _meets_current(con, tables, params):
        con.register("_wide", ratings.append_column("_pos", pa.array(np.arange(len(ratings)))))
        try:
            planned = con.sql(_plan_query(labels, HISTORY in tables), params=params)
            planned = planned.to_arrow_table()
        finally:
            con.unregister("_wide")
        for name in planned.column_names:
            ratings = ratings.append_column(name, planned[name])
    else:
        ratings = ratings.append_column("change", pa.repeat("new", len(ratings)))
    first = _next_id(con, tables) + 1
    return ratings.append_column("rating_id", pa.array(np.arange(first, first + len(ratings))))


def _meets_current(con: duckdb.DuckDBPyConnection, tables: set[str], params: dict) -> bool:
    """Whether the task has current or withdrawn ratings a file's ratings could meet; if not
    (a first return), every rating is new and the plan needs no join."""
    sources = [
        f"SELECT 1 FROM {table} WHERE study = $study AND task = $task{where}"
        for table, where in (("gold.ratings", ""), (HISTORY, " AND change = 'withdrawn'"))
        if table in tables
    ]
    if not sources:
        return False
    query = " UNION ALL ".join(f"SELECT EXISTS ({s})" for s in sources)
    flags = con.execute(query, {"study": params["study"], "task": params["task"]}).fetchall()
    return any(flag for (flag,) in flags)


def _plan_query(labels: Labels, with_history: bool) -> str:
    """SQL: per rating of ``_wide`` (in its order), the current rating it meets and its
    change."""
    joined = " AND ".join(f"r.{c} = w.{c}" for c in RATING_KEY)
    fingerprint = _fingerprint(labels)
    withdrawn = (
        f"""SELECT {", ".join(RATING_KEY)}, max(replaced_at) AS withdrawn_at FROM {HISTORY}
            WHERE study = $study AND task = $task AND change = 'withdrawn' GROUP BY ALL"""
        if with_history
        else "SELECT NULL AS annotator_id, NULL AS batch, NULL AS item_id, NULL AS copy, "
        "NULL::TIMESTAMPTZ AS withdrawn_at WHERE false"
    )
    on_withdrawn = " AND ".join(f"x.{c} = w.{c}" for c in RATING_KEY)
    return f"""SELECT r.rating_id AS old_id,
                   coalesce(r.source_file, 'withdrawn') AS current_file,
                   r.source_sha256 AS current_sha256,
                   CASE WHEN r.rating_id IS NULL AND $version < x.withdrawn_at THEN 'older'
                        WHEN r.rating_id IS NULL THEN 'new'
                        WHEN r.fingerprint = {fingerprint} THEN 'unchanged'
                        WHEN r.version_at IS NULL OR $version >= r.version_at THEN 'replaced'
                        ELSE 'older' END AS change
            FROM _wide w LEFT JOIN gold.ratings r
              ON r.study = $study AND r.task = $task AND {joined}
            LEFT JOIN ({withdrawn}) x ON {on_withdrawn}
            ORDER BY w._pos"""


def count_changes(table: pa.Table) -> dict[str, int]:
    counts = {c["values"].as_py(): c["counts"].as_py() for c in pc.value_counts(table["change"])}
    return {c: int(counts.get(c, 0)) for c in CHANGES}


def _melt(fields: list[str], where: str) -> str:
    """SQL: the long form (rating_id, field, value, value_num) of ``_plan``'s rows ``where``."""
    return " UNION ALL ".join(
        f"""SELECT rating_id, '{n}' AS field, "{value_column(n)}" AS value,
                   "{number_column(n)}" AS value_num
            FROM _plan WHERE "{value_column(n)}" IS NOT NULL AND {where}"""
        for n in fields
    )


def _to_history(
    con: duckdb.DuckDBPyConnection, study: str, where: str, change: str, by: dict, params: dict
) -> None:
    """Move current ratings (``gold.ratings r`` rows matching ``where``) to history."""
    con.execute(
        f"""INSERT INTO {HISTORY} BY NAME
            SELECT {LABELS_SELECT},
                   r.version_at, $change AS change, $at AS replaced_at,
                   $by_file AS replaced_by_file, $by_sha AS replaced_by_sha256
            FROM gold.ratings r LEFT JOIN gold.rating_values v USING (study, rating_id)
            WHERE r.study = $study AND {where}""",
        {"study": study, "change": change, **by, **params},
    )
    con.execute(
        f"""DELETE FROM gold.rating_values WHERE study = $study AND rating_id IN
            (SELECT rating_id FROM gold.ratings r WHERE r.study = $study AND {where})""",
        {"study": study, **params},
    )
    con.execute(
        f"DELETE FROM gold.ratings r WHERE r.study = $study AND {where}",
        {"study": study, **params},
    )


_PER_RATING = [c for c in DDL["gold.ratings"] if c not in ("study",)]
_APPLIED = "change IN ('new', 'replaced')"


def _insert_current(
    con: duckdb.DuckDBPyConnection,
    study: str,
    labels: Labels,
    columns: list[str],
    bound: str,
    constants: dict,
) -> None:
    """``_plan``'s new and replacing ratings become current, with their fingerprints."""
    selected = ", ".join(f"w.{c}" for c in columns if c != "fingerprint")
    con.execute(
        f"""INSERT INTO gold.ratings BY NAME
            SELECT {bound}, {selected}, {_fingerprint(labels)} AS fingerprint
            FROM _plan w WHERE {_APPLIED}""",
        constants,
    )
    if labels.fields:
        con.execute(
            "INSERT INTO gold.rating_values SELECT $study AS study, * FROM "
            f"({_melt(labels.fields, _APPLIED)})",
            {"study": study},
        )


def _insert_older(
    con: duckdb.DuckDBPyConnection, fields: list[str], columns: list[str], bound: str, params
) -> None:
    """``_plan``'s ratings older than the current ones go straight to history."""
    older = [c for c in columns if c in LABEL_COLUMNS]
    older_rows = "change = 'older'"
    values = (
        f"LEFT JOIN ({_melt(fields, older_rows)}) v USING (rating_id)"
        if fields
        else "CROSS JOIN (SELECT NULL AS field, NULL AS value, NULL AS value_num) v"
    )
    con.execute(
        f"""INSERT INTO {HISTORY} BY NAME
            SELECT {bound}, p.rating_id, {", ".join(f"p.{c}" for c in older)},
                   v.field, v.value, v.value_num, 'older_than_current' AS change,
                   $now AS replaced_at, p.current_file AS replaced_by_file,
                   p.current_sha256 AS replaced_by_sha256
            FROM _plan p {values} WHERE p.change = 'older'""",
        params,
    )


def apply_labels(
    con: duckdb.DuckDBPyConnection,
    study: str,
    labels: Labels,
    version_at: datetime,
    now: datetime,
) -> dict[str, int]:
    """Apply a file's ratings (inside the caller's transaction); returns the count per change
    and ``labels``, the field values written.

    ``labels.constants`` names the file (``source_file``, ``source_sha256``)."""
    # One chunk per column: DuckDB then writes whole row groups, where many small chunks
    # leave partial ones that the checkpoint at close rewrites (1 s per million ratings).
    table = plan(con, study, labels, version_at).combine_chunks()
    counts = count_changes(table)
    file, sha = labels.constants["source_file"], labels.constants["source_sha256"]
    constants = {"study": study, **labels.constants, "version_at": version_at}
    columns = [c for c in _PER_RATING if c not in constants]
    bound = ", ".join(f"${c} AS {c}" for c in constants)
    con.register("_plan", table)
    try:
        if counts["replaced"]:
            _to_history(
                con,
                study,
                "r.rating_id IN (SELECT old_id FROM _plan WHERE change = 'replaced')",
                "replaced",
                {"at": now, "by_file": file, "by_sha": sha},
                {},
            )
        if counts["new"] or counts["replaced"]:
            _insert_current(con, study, labels, columns, bound, constants)
        if counts["older"]:
            _insert_older(con, labels.fields, columns, bound, {**constants, "now": now})
        if counts["unchanged"]:
            con.execute(
                """UPDATE gold.ratings SET version_at = $version WHERE study = $study
                   AND version_at < $version
                   AND rating_id IN (SELECT old_id FROM _plan WHERE change = 'unchanged')""",
                {"study": study, "version": version_at},
            )
    finally:
        con.unregister("_plan")
    applied_rows = pc.is_in(table["change"], pa.array(["new", "replaced"]))
    written = sum(
        int(pc.sum(pc.and_(applied_rows, table[value_column(f)].is_valid())).as_py() or 0)
        for f in labels.fields
    )
    return {**counts, "labels": written}


def mark_superseded(con: duckdb.DuckDBPyConnection, study: str, sha256: str) -> list[str]:
    """Mark accepted files none of whose ratings is current any more as superseded by the
    file ``sha256``; returns their names. Only files whose ratings ``sha256`` replaced can
    have lost their last one, so only they are looked at."""
    rows = con.execute(
        f"""WITH replaced AS (SELECT DISTINCT source_sha256 FROM {HISTORY}
                              WHERE study = $study AND replaced_by_sha256 = $sha
                              AND change = 'replaced')
           UPDATE staging.ingests SET status = 'superseded', superseded_by = $sha
           WHERE study = $study AND status = 'accepted' AND sha256 <> $sha AND n_labels > 0
           AND sha256 IN (SELECT source_sha256 FROM replaced)
           AND sha256 NOT IN (SELECT source_sha256 FROM gold.ratings WHERE study = $study
                              AND source_sha256 IN (SELECT source_sha256 FROM replaced))
           RETURNING file""",
        {"study": study, "sha": sha256},
    ).fetchall()
    return sorted(r[0] for r in rows)


def withdraw(
    con: duckdb.DuckDBPyConnection,
    study: str,
    annotator: str,
    item: str,
    reason: str,
    now: datetime,
) -> int:
    """Withdraw an annotator's current rating(s) of ``item`` (an item id or a packet token):
    they move to history with ``change = 'withdrawn'``. Returns how many were withdrawn."""
    where = "r.annotator_id = $annotator AND (r.item_id = $item OR r.token = $item)"
    params = {"annotator": annotator, "item": item}
    with transaction(con):
        found = con.execute(
            f"SELECT count(*) FROM gold.ratings r WHERE r.study = $study AND {where}",
            {"study": study, **params},
        ).fetchall()[0][0]
        if found:
            by = {"at": now, "by_file": f"withdrawn: {reason}", "by_sha": None}
            _to_history(con, study, where, "withdrawn", by, params)
    return found


def history(
    con: duckdb.DuckDBPyConnection,
    study: str,
    annotator: str | None = None,
    item: str | None = None,
) -> pd.DataFrame:
    """Every version of the matching ratings, current and past, oldest first: what each said
    (one row per field), from which file, and what became of it."""
    current = (
        f"SELECT {LABELS_SELECT}, r.version_at, 'current' AS change, "
        "NULL::TIMESTAMPTZ AS replaced_at, NULL AS replaced_by_file "
        "FROM gold.ratings r JOIN gold.rating_values v USING (study, rating_id) "
        "WHERE r.study = $study"
    )
    past = f"SELECT * EXCLUDE (replaced_by_sha256) FROM {HISTORY} WHERE study = $study"
    filters = []
    if annotator:
        filters.append("annotator_id = $annotator")
    if item:
        filters.append("(item_id = $item OR token = $item)")
    where = " AND ".join(filters) or "true"
    params = {"study": study}
    params |= {"annotator": annotator} if annotator else {}
    params |= {"item": item} if item else {}
    return con.execute(
        f"""SELECT * FROM ({current} UNION ALL BY NAME {past}) WHERE {where}
            ORDER BY annotator_id, item_id, copy, ingested_at, field""",
        params,
    ).df()
