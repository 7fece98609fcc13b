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
  :func:`file_version`); the current rating moves to
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

import itertools
from dataclasses import dataclass
from datetime import datetime

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from raterlab.ingest.labels import (
    LABEL_COLUMNS,
    RATING_CONSTANTS,
    Labels,
    WideLabels,
    limited,
    number_column,
    value_column,
)
from raterlab.ingest.store import DDL, LABELS_SELECT, transaction
from raterlab.warehouse import existing_tables

CHANGES = ("new", "replaced", "unchanged", "older")
RATING_KEY = ("annotator_id", "batch", "item_id", "copy")
"""With the task, what identifies a rating (the token identifies the same for packet rows)."""
HISTORY = "gold.rating_history"


SAID_BESIDE = ("confidence", "time_spent_s", "notes")
"""What a rating says besides its field values: columns of ``gold.ratings``, compared as they
are when a rating meets the current one."""


def file_version(modified_at: datetime, received_at: datetime) -> datetime:
    """A file's version: its modification time, but never later than its arrival. A file
    stamped in the future (a zip's timestamps, a wrong clock) would otherwise stay the newest
    for good, and every later correction would be older than it."""
    return min(modified_at, received_at)


def newer_or_same(incoming: str, current: str) -> str:
    """SQL: whether the version ``incoming`` wins over ``current`` (``NULL``: nothing in
    place): the newer version wins, a tie goes to the one that arrives later. The one rule
    of ratings and adjudication decisions alike."""
    return f"({current} IS NULL OR {incoming} >= {current})"


def _fingerprint(labels: Labels | WideLabels) -> str:
    """SQL: a rating's field values (in field name order) as one text, the unit separator
    between them: with :data:`SAID_BESIDE`, what tells an unchanged rating.

    Stored as it is, not hashed, and without what ``gold.ratings`` holds anyway: hashing a
    million ratings' confidence, time spent, notes and values cost 0.2 s more to write, and
    the texts, few of them distinct, compress to less than their hashes (the million-row
    benchmark's warehouse: 22 MB against 33 MB). Warehouses written before hold the MD5 of
    all of them (:func:`_md5_fingerprint`), which :func:`_same_as_current` accepts too."""
    values = [f'coalesce(w."{value_column(f)}", chr(0))' for f in sorted(labels.fields)]
    return "concat_ws(chr(31), " + ", ".join(values or ["''"]) + ")"


def _md5_fingerprint(labels: Labels) -> str:
    """SQL: the fingerprint of warehouses written before 2026-11-26: the MD5 of the rating's
    confidence, time spent, notes and field values as one text."""
    parts = ["w.confidence", "CAST(w.time_spent_s AS VARCHAR)", "w.notes"] + [
        f'w."{value_column(f)}"' for f in sorted(labels.fields)
    ]
    return "md5(concat_ws(chr(31), " + ", ".join(f"coalesce({p}, chr(0))" for p in parts) + "))"


def _same_as_current(labels: Labels) -> str:
    """SQL: whether the current rating ``r`` says what ``w`` says."""
    beside = " AND ".join(f"r.{c} IS NOT DISTINCT FROM w.{c}" for c in SAID_BESIDE)
    return (
        f"(({beside} AND r.fingerprint = {_fingerprint(labels)}) "
        f"OR r.fingerprint = {_md5_fingerprint(labels)})"
    )


def _next_id(con: duckdb.DuckDBPyConnection, tables: set[str]) -> int:
    """The highest rating id in use, current or in history (ids are never reused); ``tables``
    are those of the two that exist."""
    union = " UNION ALL ".join(
        f"SELECT max(rating_id) AS id FROM {t}" for t in ("gold.ratings", HISTORY) if t in tables
    )
    if not union:
        return 0
    return con.execute(f"SELECT coalesce(max(id), 0) FROM ({union})").fetchall()[0][0]


@dataclass(frozen=True)
class Return:
    """One file's ratings to apply: its labels, its version (the file's modification time
    when received) and when it was received (the time of the history rows it writes)."""

    labels: Labels | WideLabels
    version_at: datetime
    now: datetime


PER_FILE = (*RATING_CONSTANTS, "version_at", "_now")
"""Columns the same for every rating of one file: per row of a group's table, as Arrow
dictionaries of one entry per file (as cheap to insert as bound parameters)."""


def _group_table(files: list[Return]) -> pa.Table:
    """The files' ratings in one table, in file order: each file's ``labels.table`` with
    :data:`PER_FILE`, its position in the group (``_file``) and each row's (``_pos``)."""
    sizes = [len(f.labels.table) for f in files]
    index = pa.array(np.repeat(np.arange(len(files), dtype=np.int32), sizes))
    tables = [f.labels.table for f in files]
    table = (pa.concat_tables(tables) if len(tables) > 1 else tables[0]).combine_chunks()
    per_file = {c: [f.labels.constants[c] for f in files] for c in RATING_CONSTANTS} | {
        "version_at": [f.version_at for f in files],
        "_now": [f.now for f in files],
    }
    for name, values in per_file.items():
        table = table.append_column(name, pa.DictionaryArray.from_arrays(index, pa.array(values)))
    table = table.append_column("_file", index)
    return table.append_column("_pos", pa.array(np.arange(len(table))))


def plan(con: duckdb.DuckDBPyConnection, study: str, files: list[Return]) -> pa.Table:
    """The ratings of ``files`` (one task, the same fields; no rating in two of them), each
    with its ``change`` (see the module docstring) and the current rating it meets
    (``old_id``, ``current_file``, ``current_sha256``). Reads only.

    No rating is in two of the files, so each file meets exactly what it would meet if the
    files before it had been applied first: one query plans them all. DuckDB computes only
    the plan's own columns, in the ratings' order; they are appended to the group's table.
    On a task's first return there is nothing to meet: every rating is new, and DuckDB is not
    asked."""
    ratings = _group_table(files)
    tables = existing_tables(con, ("gold.ratings", HISTORY))
    params = {"study": study, "task": files[0].labels.constants["task"]}
    if _meets_current(con, tables, params):
        con.register("_wide", ratings)
        try:
            planned = con.sql(_plan_query(files[0].labels, HISTORY in tables), params=params)
            planned = planned.to_arrow_table()
        finally:
            con.unregister("_wide")
        for name in planned.column_names:
            ratings = ratings.append_column(name, planned[name])
    else:
        ratings = ratings.append_column("change", pa.repeat("new", len(ratings)))
    return ratings


def _rating_ids(table: pa.Table, n_files: int, last: int) -> pa.Array:
    """A fresh id per rating, file after file, as if each file were applied alone: a file's
    ratings are numbered from one past the highest id in use (``last`` before the group),
    and of its ids only those written (all but ``unchanged`` ratings) are then in use."""
    files = table["_file"].to_numpy()
    kept = pc.not_equal(table["change"], "unchanged").to_numpy(zero_copy_only=False)
    ids = np.empty(len(table), dtype=np.int64)
    bounds = np.searchsorted(files, np.arange(n_files + 1))
    for start, end in itertools.pairwise(bounds):
        ids[start:end] = np.arange(last + 1, last + 1 + end - start)
        written = np.flatnonzero(kept[start:end])
        if len(written):
            last = int(ids[start + written[-1]])
    return pa.array(ids)


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
    change, by the rating's own file's version."""
    joined = " AND ".join(f"r.{c} = w.{c}" for c in RATING_KEY)
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
                   CASE WHEN r.rating_id IS NULL AND w.version_at < x.withdrawn_at THEN 'older'
                        WHEN r.rating_id IS NULL THEN 'new'
                        WHEN {_same_as_current(labels)} THEN 'unchanged'
                        WHEN {newer_or_same("w.version_at", "r.version_at")} THEN 'replaced'
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
    con: duckdb.DuckDBPyConnection,
    study: str,
    where: str,
    change: str,
    by: tuple[str, dict],
    params: dict,
) -> None:
    """Move current ratings (``gold.ratings r`` rows matching ``where``, with ``params``) to
    history; ``by`` is SQL of the ``replaced_at``, ``replaced_by_file`` and
    ``replaced_by_sha256`` columns (from what ``where`` joins in, or its own parameters)."""
    con.execute(
        f"""INSERT INTO {HISTORY} BY NAME
            SELECT {LABELS_SELECT}, r.version_at, $change AS change, {by[0]}
            FROM gold.ratings r LEFT JOIN gold.rating_values v USING (study, rating_id)
            {where}""",
        {"study": study, "change": change, **params, **by[1]},
    )
    con.execute(
        f"""DELETE FROM gold.rating_values WHERE study = $study AND rating_id IN
            (SELECT r.rating_id FROM gold.ratings r {where})""",
        {"study": study, **params},
    )
    con.execute(
        f"""DELETE FROM gold.ratings WHERE study = $study AND rating_id IN
            (SELECT r.rating_id FROM gold.ratings r {where})""",
        {"study": study, **params},
    )


_PER_RATING = [c for c in DDL["gold.ratings"] if c not in ("study",)]
_APPLIED = "change IN ('new', 'replaced')"


def _insert_current(con: duckdb.DuckDBPyConnection, study: str, labels: Labels | WideLabels) -> int:
    """``_plan``'s new and replacing ratings become current, with their fingerprints and
    values. Returns the count of field values inserted."""
    _insert_ratings(con, study, labels)
    if not labels.fields:
        return 0
    inserted = con.execute(
        "INSERT INTO gold.rating_values SELECT $study AS study, * FROM "
        f"({_melt(labels.fields, _APPLIED)})",
        {"study": study},
    ).fetchall()
    return int(inserted[0][0])


def _insert_ratings(
    con: duckdb.DuckDBPyConnection, study: str, labels: Labels | WideLabels
) -> None:
    """``_plan``'s new and replacing ratings become current, with their fingerprints."""
    selected = ", ".join(f"w.{c}" for c in _PER_RATING if c != "fingerprint")
    con.execute(
        f"""INSERT INTO gold.ratings BY NAME
            SELECT $study AS study, {selected}, {_fingerprint(labels)} AS fingerprint
            FROM _plan w WHERE {_APPLIED}""",
        {"study": study},
    )


def _insert_older(con: duckdb.DuckDBPyConnection, study: str, fields: list[str]) -> None:
    """``_plan``'s ratings older than the current ones go straight to history."""
    older = [c for c in _PER_RATING if c in LABEL_COLUMNS]
    older_rows = "change = 'older'"
    values = (
        f"LEFT JOIN ({_melt(fields, older_rows)}) v USING (rating_id)"
        if fields
        else "CROSS JOIN (SELECT NULL AS field, NULL AS value, NULL AS value_num) v"
    )
    con.execute(
        f"""INSERT INTO {HISTORY} BY NAME
            SELECT $study AS study, p.rating_id, {", ".join(f"p.{c}" for c in older)},
                   p.version_at, v.field, v.value, v.value_num,
                   'older_than_current' AS change, p._now AS replaced_at,
                   p.current_file AS replaced_by_file, p.current_sha256 AS replaced_by_sha256
            FROM _plan p {values} WHERE p.change = 'older'""",
        {"study": study},
    )


def apply_returns(
    con: duckdb.DuckDBPyConnection, study: str, files: list[Return]
) -> list[dict[str, int]]:
    """Apply the ratings of ``files`` (inside the caller's transaction), with the same
    outcome as applying them one by one in their order: they are of one task with the same
    fields, and no rating is in two of them (see :func:`plan`). Returns, per file, the
    count per change and ``labels``, the field values written.

    Each file's ``labels.constants`` names it (``source_file``, ``source_sha256``). A file
    whose labels are still in DuckDB (:class:`~raterlab.ingest.labels.WideLabels`) and meet
    no current rating is inserted from there (:func:`_insert_wide`)."""
    tables = existing_tables(con, ("gold.ratings", HISTORY))
    wide = files[0].labels
    if len(files) == 1 and isinstance(wide, WideLabels):
        params = {"study": study, "task": wide.constants["task"]}
        if not _meets_current(con, tables, params):
            return [_insert_wide(con, study, files[0], _next_id(con, tables))]
    table = plan(con, study, files)
    table = table.append_column("rating_id", _rating_ids(table, len(files), _next_id(con, tables)))
    per_file = _per_file(table, files[0].labels.fields, len(files))
    counts = {c: sum(p[c] for p in per_file) for c in CHANGES}
    labels = files[0].labels
    con.register("_plan", table)
    try:
        if counts["replaced"]:
            _to_history(
                con,
                study,
                """JOIN (SELECT old_id, _now, source_file, source_sha256 FROM _plan
                         WHERE change = 'replaced') p ON r.rating_id = p.old_id
                   WHERE r.study = $study""",
                "replaced",
                (
                    "p._now AS replaced_at, p.source_file AS replaced_by_file, "
                    "p.source_sha256 AS replaced_by_sha256",
                    {},
                ),
                {},
            )
        if counts["new"] or counts["replaced"]:
            _insert_current(con, study, labels)
        if counts["older"]:
            _insert_older(con, study, labels.fields)
        if counts["unchanged"]:
            con.execute(
                """UPDATE gold.ratings r SET version_at = p.version_at FROM _plan p
                   WHERE r.study = $study AND p.change = 'unchanged'
                   AND r.rating_id = p.old_id AND r.version_at < p.version_at""",
                {"study": study},
            )
    finally:
        con.unregister("_plan")
    return per_file


def _insert_wide(
    con: duckdb.DuckDBPyConnection, study: str, file: Return, last: int
) -> dict[str, int]:
    """A task's first return whose labels are in DuckDB: every rating new, numbered from one
    past ``last`` in the file's row order (as :func:`_rating_ids` numbers them: the file's
    rows are its lines 2, 3 ...: the lean path reads no file that drops one): its ratings by
    :func:`_insert_ratings` from the labels' query, its values from each field's query;
    its temporary tables dropped after. DuckDB's memory is limited meanwhile
    (:func:`raterlab.ingest.labels.limited`)."""
    with limited(con):
        return _insert_from(con, study, file, last)


def _insert_from(
    con: duckdb.DuckDBPyConnection, study: str, file: Return, last: int
) -> dict[str, int]:
    """:func:`_insert_wide` within its memory limit."""
    labels = file.labels
    constants = {c: [labels.constants[c]] for c in RATING_CONSTANTS}
    constants |= {"version_at": [file.version_at], "_now": [file.now]}
    con.register("_file", pa.table(constants))
    try:
        con.execute(
            f"""CREATE OR REPLACE TEMP VIEW _plan AS
                SELECT w.*, c.*, {last} + w.source_row - 1 AS rating_id, 'new' AS change
                FROM ({labels.select}) w CROSS JOIN _file c"""
        )
        _insert_ratings(con, study, labels)
        values = " UNION ALL ".join(
            f"SELECT {last} + source_row - 1, '{field}', value, value_num FROM ({query})"
            for field, query in labels.values.items()
        )
        inserted = (
            con.execute(
                f"INSERT INTO gold.rating_values SELECT $study AS study, * FROM ({values})",
                {"study": study},
            ).fetchall()[0][0]
            if values
            else 0
        )
    finally:
        con.execute("DROP VIEW IF EXISTS _plan")
        con.unregister("_file")
    labels.drop()
    return dict.fromkeys(CHANGES, 0) | {"new": labels.rows, "labels": int(inserted)}


def _per_file(table: pa.Table, fields: list[str], n_files: int) -> list[dict[str, int]]:
    """The count per change and of field values written, per file of the group (the group's
    rows are in file order; the changes as codes, since as Python strings they cost 0.2 s per
    million ratings)."""
    files = table["_file"].to_numpy()
    code = pc.index_in(table["change"], value_set=pa.array(CHANGES)).to_numpy()
    counts = np.bincount(files * len(CHANGES) + code, minlength=n_files * len(CHANGES))
    counts = counts.reshape(n_files, len(CHANGES))
    applied = code <= CHANGES.index("replaced")  # new or replaced
    bounds = np.searchsorted(files, np.arange(n_files + 1))
    labels = np.zeros(n_files, dtype=np.int64)
    for f in fields:
        filled = applied & table[value_column(f)].is_valid().to_numpy(zero_copy_only=False)
        running = np.concatenate([[0], np.cumsum(filled)])
        labels += running[bounds[1:]] - running[bounds[:-1]]
    return [
        dict(zip(CHANGES, map(int, counts[n]), strict=True)) | {"labels": int(labels[n])}
        for n in range(n_files)
    ]


def mark_superseded(
    con: duckdb.DuckDBPyConnection, study: str, shas: list[str]
) -> dict[str, list[str]]:
    """Mark accepted files none of whose ratings is current any more as superseded by the
    file of ``shas`` (a group's files, in order) that replaced the last of them, as applying
    the files one by one would: a file's ratings are replaced by the group's files and no
    file of the group adds to them. Returns each marking file's marked files' names. Only
    files whose ratings the group replaced can have lost their last one, so only they are
    looked at."""
    rows = con.execute(
        f"""WITH files AS (SELECT * FROM unnest($shas) WITH ORDINALITY AS f(sha, n)),
           replaced AS (SELECT h.source_sha256, arg_max(f.sha, f.n) AS by_sha
                        FROM {HISTORY} h JOIN files f ON h.replaced_by_sha256 = f.sha
                        WHERE h.study = $study AND h.change = 'replaced' GROUP BY ALL)
           UPDATE staging.ingests g SET status = 'superseded', superseded_by = x.by_sha
           FROM replaced x
           WHERE g.study = $study AND g.status = 'accepted' AND g.n_labels > 0
           AND g.sha256 = x.source_sha256 AND g.sha256 NOT IN (SELECT sha FROM files)
           AND g.sha256 NOT IN (SELECT source_sha256 FROM gold.ratings WHERE study = $study
                                AND source_sha256 IN (SELECT source_sha256 FROM replaced))
           RETURNING g.file, g.superseded_by""",
        {"study": study, "shas": shas},
    ).fetchall()
    marked: dict[str, list[str]] = {}
    for file, by in sorted(rows):
        marked.setdefault(by, []).append(file)
    return marked


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
            by = (
                "$at AS replaced_at, $by_file AS replaced_by_file, NULL AS replaced_by_sha256",
                {"at": now, "by_file": f"withdrawn: {reason}"},
            )
            _to_history(con, study, f"WHERE r.study = $study AND {where}", "withdrawn", by, params)
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
