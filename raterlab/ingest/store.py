"""Archiving, quarantine, the warehouse tables of the ingest, and the one transaction every
front end (returns, imports, adjudication decisions) commits a file in.

Tables (all keyed by ``study``):

- ``raw.returned_files``: every file received, by content hash, with where it is archived and
  ``version_at``, the file's modification time when it was received (its version).
- ``staging.ingests``: the outcome per returned or imported file: accepted (with how many of
  its ratings were new, replaced an older rating, were unchanged, or were older than the
  rating in place), rejected, or superseded (none of its ratings is current any more).
- ``staging.ingest_issues``: every error and warning reported for a file.
- ``gold.ratings``: the current rating per (task, annotator, batch, item, copy), with its
  provenance; ``gold.rating_values``: its field values.
- ``gold.labels``: the view joining the two, in long form (see :mod:`raterlab.ingest.labels`).

Their columns are declared once in :mod:`raterlab.tables.ingest`.
- ``gold.rating_history``: every rating that is no longer current, in the long form of
  ``gold.labels``, with why (``replaced``, ``older_than_current``, ``withdrawn``), when and by
  which file (see :mod:`raterlab.ingest.ratings`).
- ``staging.unpublished``: the gold tables a commit wrote, until :mod:`raterlab.publish` has
  copied them into ``published.duckdb``.
- ``staging.held_ratings``: stored ratings a study file edited since rejects
  (:mod:`raterlab.ingest.changes`).
"""

from __future__ import annotations

import os
import shutil
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pandas as pd

from raterlab.tables import ddl
from raterlab.tables import ingest as tables
from raterlab.tables.ingest import LABELS_SELECT as LABELS_SELECT
from raterlab.warehouse import table_exists as table_exists
from raterlab.warehouse import transaction as transaction

DDL: dict[str, dict[str, str]] = {
    t.name: {c.name: c.type for c in t.columns} for t in tables.TABLES if not t.view
}
"""Column types of the ingest's tables, from their declarations (:mod:`raterlab.tables.ingest`)."""


def create_table(con: duckdb.DuckDBPyConnection, table: str, columns: dict[str, str]) -> None:
    """Create ``table`` if missing, and add any column a warehouse made by an older version
    lacks (so an existing warehouse keeps working)."""
    con.execute(
        f"CREATE TABLE IF NOT EXISTS {table} ({', '.join(f'{c} {t}' for c, t in columns.items())})"
    )
    for column, kind in columns.items():
        con.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {kind}")


_ENSURED: weakref.WeakSet[duckdb.DuckDBPyConnection] = weakref.WeakSet()
"""Connections :func:`ensure_tables` has made the tables on: reading the catalog costs about
3 ms in a full warehouse, and a run commits every file on one connection, which holds the
file's only write lock (nothing else can drop a table meanwhile)."""


def ensure_tables(con: duckdb.DuckDBPyConnection) -> None:
    """The ingest's tables, and the ``gold.labels`` view, (re)made when its columns are not
    the declared ones; once per connection. Call it outside any transaction (a rollback
    would undo what it made)."""
    if con in _ENSURED:
        return
    existing = ddl.columns_in(con)
    ddl.ensure(con, *(t for t in tables.TABLES if not t.view), existing=existing)
    if existing.get(tables.LABELS.name) != {c.name for c in tables.LABELS.columns}:
        con.execute(tables.LABELS_VIEW)
    _ENSURED.add(con)


ARCHIVED_SUFFIX = 16
"""An archived copy keeps its file's suffix (the reader goes by it) up to this length; a
longer one (a name that is nearly all extension) is dropped, so the name always fits."""


def archive(path: Path, folder: Path, sha256: str) -> Path:
    """Copy ``path`` to ``folder/<sha256><suffix>`` unless that content is already there."""
    suffix = path.suffix.lower()
    target = folder / f"{sha256}{suffix if len(suffix) <= ARCHIVED_SUFFIX else ''}"
    if not target.exists():
        folder.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        shutil.copyfile(path, partial)
        os.replace(partial, target)
    return target


def archive_bytes(data: bytes, folder: Path, name: str) -> Path:
    """Write ``data`` to ``folder/name`` unless it is already there (written beside it and
    moved into place)."""
    target = folder / name
    if not target.exists():
        folder.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        partial.write_bytes(data)
        os.replace(partial, target)
    return target


def quarantine(source: Path, folder: Path, name: str) -> Path:
    """Copy a rejected file into its quarantine folder (beside its report), as ``name``."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, folder / name)
    return folder / name


def insert_rows(con: duckdb.DuckDBPyConnection, table: str, rows: list[dict]) -> None:
    """Append rows (column name to value; a column missing from a row is NULL) to ``table``
    in one statement, their values bound as parameters (registering a small DataFrame costs
    more than the insert)."""
    if not rows:
        return
    columns = list(dict.fromkeys(c for row in rows for c in row))
    names = ", ".join(f'"{c}"' for c in columns)
    width = len(columns)
    marks = ", ".join(
        "(" + ", ".join(f"${n * width + i + 1}" for i in range(width)) + ")"
        for n in range(len(rows))
    )
    values = [row.get(c) for row in rows for c in columns]
    con.execute(f"INSERT INTO {table} ({names}) VALUES {marks}", values)


def insert(con: duckdb.DuckDBPyConnection, table: str, frame: pd.DataFrame) -> None:
    """Append ``frame``'s rows to ``table`` by column name."""
    if frame.empty:
        return
    con.register("_rows", frame)
    try:
        con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _rows")
    finally:
        con.unregister("_rows")


class CorruptWarehouse(RuntimeError):
    """The warehouse file fails DuckDB's block checksums: nothing may be written onto it."""


_VERIFIED: weakref.WeakKeyDictionary[duckdb.DuckDBPyConnection, set[str]] = (
    weakref.WeakKeyDictionary()
)
"""The tables :func:`check_readable` has read through, per connection: each once per
connection (a run commits many files; reading the warehouse per file would cost files x
size)."""


def check_readable(con: duckdb.DuckDBPyConnection, tables: tuple[str, ...]) -> None:
    """Read every block of ``tables`` so that DuckDB verifies their checksums (it checks a
    block when it reads it, and offers no separate integrity check): a corrupted warehouse
    is reported before anything is committed onto it. Once per connection."""
    verified = _VERIFIED.setdefault(con, set())
    for table in tables:
        if table in verified or not table_exists(con, table):
            continue
        try:
            con.execute(f"SELECT bit_xor(hash(t)) FROM {table} t").fetchall()
        except duckdb.Error as exc:
            if "Corrupt database" not in str(exc):
                raise
            raise CorruptWarehouse(
                f"the warehouse is corrupt ({table}: {exc}); nothing was written. Restore "
                "warehouse.duckdb from a backup, or move it aside and re-run the pipeline "
                "(returned files are kept in archive/ and are ingested again)"
            ) from None
        verified.add(table)


@dataclass(frozen=True)
class Ledger:
    """Where a front end records a file's outcome and its issues, and the gold tables its
    accepted files write (recorded as unpublished in the same transaction)."""

    outcomes: str
    issues: str
    written: tuple[str, ...] = ()


WRITTEN = tuple(t.name for t in tables.TABLES if t.schema == "gold" and not t.view)
"""The gold tables a committed return or import writes (and so publishes)."""
RETURNS = Ledger("staging.ingests", "staging.ingest_issues", WRITTEN)


def mark_unpublished(con: duckdb.DuckDBPyConnection, written: Iterable[str]) -> None:
    """Record ``written`` gold tables in ``staging.unpublished`` (those not there yet), so
    that a publish that fails or never runs after a committed write is done by the next
    one (:mod:`raterlab.publish`). Inside the writer's transaction, if it has one."""
    names = sorted({t for t in written if t.startswith("gold.")})
    if names:
        con.execute(
            f"""INSERT INTO {tables.UNPUBLISHED.name}
                SELECT t, now() FROM unnest($names) u(t) WHERE t NOT IN
                (SELECT table_name FROM {tables.UNPUBLISHED.name})""",
            {"names": names},
        )


def known_outcomes(
    con: duckdb.DuckDBPyConnection, study: str, shas: list[str], ledger: Ledger = RETURNS
) -> set[str]:
    """Which of these contents have an outcome recorded in ``ledger``."""
    if not table_exists(con, ledger.outcomes):
        return set()
    rows = con.execute(
        f"SELECT sha256 FROM {ledger.outcomes} WHERE study = ? AND list_contains(?, sha256)",
        [study, shas],
    ).fetchall()
    return {sha for (sha,) in rows}


def known_outcome(
    con: duckdb.DuckDBPyConnection, study: str, sha256: str, ledger: Ledger = RETURNS
) -> str | None:
    """The recorded outcome of this content in ``ledger``, or ``None`` if it is new."""
    if not table_exists(con, ledger.outcomes):
        return None
    rows = con.execute(
        f"SELECT status FROM {ledger.outcomes} WHERE study = ? AND sha256 = ?", [study, sha256]
    ).fetchall()
    return rows[0][0] if rows else None


@dataclass(frozen=True)
class Entry:
    """A file to record: its row of ``raw.returned_files``, its outcome and its issues."""

    file_row: dict
    outcome: dict
    issues: pd.DataFrame

    @property
    def sha256(self) -> str:
        return self.file_row["sha256"]


Apply = Callable[[duckdb.DuckDBPyConnection, list[int]], dict[int, dict]]
"""Writes what the files at the positions given bring (their labels or decisions), inside the
transaction; returns, per position, columns to add to the file's outcome."""


def commit_files(
    con: duckdb.DuckDBPyConnection,
    ledger: Ledger,
    entries: list[Entry],
    apply: Apply | None = None,
) -> list[dict | None]:
    """Record files of one study in a single transaction: the files, what ``apply`` writes,
    their issues and their outcomes (each statement once for all of them).

    Whether each content is already known is decided inside the transaction, so two copies
    of one file are committed once. Returns each file's outcome, or ``None`` where the content
    had been recorded before (nothing is written for it then).
    """
    if not entries:
        return []
    study = entries[0].file_row["study"]
    check_readable(con, ("raw.returned_files", ledger.outcomes, *WRITTEN))
    with transaction(con):
        shas = [e.sha256 for e in entries]
        seen = known_outcomes(con, study, shas, ledger)
        fresh = []
        for n, sha in enumerate(shas):
            if sha not in seen:
                fresh.append(n)
                seen.add(sha)
        if not fresh:
            return [None] * len(entries)
        insert_rows(con, "raw.returned_files", [entries[n].file_row for n in fresh])
        extra = {} if apply is None else apply(con, fresh)
        outcomes = {
            n: {**entries[n].outcome, **extra.get(n, {}), "study": study, "sha256": shas[n]}
            for n in fresh
        }
        issues = [
            entries[n].issues.assign(study=study, sha256=shas[n])
            for n in fresh
            if not entries[n].issues.empty
        ]
        if issues:
            insert(con, ledger.issues, pd.concat(issues, ignore_index=True))
        insert_rows(con, ledger.outcomes, list(outcomes.values()))
        if extra:
            mark_unpublished(con, ledger.written)
    return [outcomes.get(n) for n in range(len(entries))]
