"""``published.duckdb``: the gold tables as a read-only copy researchers open.

DuckDB lets one process write a database file and no other process read it meanwhile, so a
researcher's session on ``warehouse.duckdb`` would stop the pipeline. Instead, every step
that writes gold tables calls :func:`publish` with its open warehouse connection: each
``gold`` table is copied into a new DuckDB file beside the target, the ``gold`` views are
recreated there (they read the copied tables), and the file is renamed over
``published.duckdb``. The rename is atomic, so a researcher opens either the previous copy
or the new one, never half of one; a session already open keeps reading the copy it opened
(on POSIX the old file lives until its last reader closes it) and sees new rows when it
reconnects. Nobody ever opens ``published.duckdb`` to write it, so no reader can block the
pipeline, and the pipeline's own lock on the warehouse serialises publishers.

A publish that fails after its write was committed (a full disk) must not leave the copy stale
for good: the gold tables a write changed are recorded in ``staging.unpublished``, in the
write's own transaction for returns, imports and decisions (:func:`raterlab.ingest.store.
mark_unpublished`) and by :func:`publish` itself before it copies; they are cleared only once
the new copy is in place. Every publish copies what is recorded, and :func:`publish_pending`
lets a command that wrote nothing (a file already ingested) publish what an earlier one could
not. A failed copy raises :class:`~raterlab.errors.PublishFailed`, saying the write itself was
committed.

Why a copy rather than views over Parquet files: the copy is one self-contained file any
DuckDB client opens with no paths to resolve (views over Parquet need absolute paths, which
break when ``RATERLAB_HOME`` moves). Copying everything costs 1.2 to 2x what writing the large
tables as Parquet does, but a step names the tables it wrote and the rest come from the
previous copy byte for byte, so only an ingest pays for the large tables
(``benchmarks/README.md``, "Publishing").
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

import duckdb

from raterlab.errors import PublishFailed
from raterlab.ingest.store import mark_unpublished
from raterlab.tables import ddl
from raterlab.tables.ingest import UNPUBLISHED
from raterlab.warehouse import table_exists

ALIAS = "_published"
SCHEMA = "gold"


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    """A SQL string literal (ATTACH takes no bound parameters)."""
    return "'" + text.replace("'", "''") + "'"


def _create_views(con: duckdb.DuckDBPyConnection, views: list[str]) -> list[str]:
    """Run the ``CREATE VIEW`` statements in the attached copy, dependencies first (a view
    that reads another view fails until that one exists); returns those that never bind,
    such as a view over a table outside ``gold``."""
    pending = views
    while pending:
        failed = []
        for sql in pending:
            try:
                con.execute(sql)
            except duckdb.CatalogException:
                failed.append(sql)
        if len(failed) == len(pending):
            return failed
        pending = failed
    return []


def _names(con: duckdb.DuckDBPyConnection, database: str, kind: str) -> list[str]:
    column = "table_name" if kind == "tables" else "view_name"
    return [
        name
        for (name,) in con.execute(
            f"SELECT {column} FROM duckdb_{kind}() WHERE database_name = ? AND schema_name = ?"
            f" AND NOT internal ORDER BY {column}",
            [database, SCHEMA],
        ).fetchall()
    ]


def _views(con: duckdb.DuckDBPyConnection, database: str) -> dict[str, str]:
    """The ``gold`` views of ``database``: name -> ``CREATE VIEW`` statement."""
    return dict(
        con.execute(
            "SELECT view_name, sql FROM duckdb_views() WHERE database_name = ? AND schema_name = ?"
            " AND NOT internal ORDER BY view_name",
            [database, SCHEMA],
        ).fetchall()
    )


def _unpublished(con: duckdb.DuckDBPyConnection) -> set[str]:
    """The gold tables written since they were last published (``staging.unpublished``)."""
    if not table_exists(con, UNPUBLISHED.name):
        return set()
    return {
        name for (name,) in con.execute(f"SELECT table_name FROM {UNPUBLISHED.name}").fetchall()
    }


def publish_pending(con: duckdb.DuckDBPyConnection, target: Path) -> bool:
    """Publish the gold tables an earlier write left unpublished (its publish failed or
    never ran), if any; returns whether it published. For a command that wrote nothing
    itself, such as the ingest of a file already in."""
    pending = _unpublished(con)
    if not pending:
        return False
    publish(con, target, pending)
    return True


def publish(
    con: duckdb.DuckDBPyConnection, target: Path, tables: Iterable[str] | None = None
) -> Path:
    """Copy the warehouse's ``gold`` tables and views (``con``: an open warehouse connection)
    into ``target`` (``$RATERLAB_HOME/published.duckdb``), swapped in atomically.

    ``tables`` (``schema.name``; those outside ``gold`` are ignored, so a caller can pass
    every table it wrote) says which gold tables the caller just wrote: the others
    are taken from the previous published file, copied byte for byte, which spares copying
    the large ``gold.ratings`` and ``gold.rating_values`` after, say, an agreement run
    (figures in ``benchmarks/README.md``). ``None`` (the default, and what a caller unsure of
    what it wrote should pass) copies every table. Views are created again where their statement
    changed (a kept view reads the tables copied beside it by name), and tables no
    longer in the warehouse dropped.

    The tables recorded in ``staging.unpublished`` (an earlier publish failed) are copied
    too; the ones copied are cleared from it once the copy is in place. The copy also holds
    ``main.published``: one row with when it was published and how many tables and views it
    holds. Raises ``RuntimeError`` naming any gold view that reads something outside
    ``gold`` (it could not work in the copy), and :class:`~raterlab.errors.PublishFailed`
    when the copy cannot be written (a full disk); the previous copy stays either way.
    """
    database = con.execute("SELECT current_database()").fetchall()[0][0]
    current = _names(con, database, "tables")
    named = None if tables is None else {t for t in tables if t.startswith(f"{SCHEMA}.")}
    every = {f"{SCHEMA}.{n}" for n in current}
    ddl.ensure(con, UNPUBLISHED)
    mark_unpublished(con, every if named is None else named)
    written = None if named is None else _unpublished(con)
    try:
        _copy(con, database, current, target, written)
    except (OSError, duckdb.IOException) as exc:
        raise PublishFailed(
            f"the write was committed to the warehouse, but {target} could not be refreshed "
            f"({exc}); researchers see the previous copy until the next command or pipeline "
            "run that publishes (run this command again once there is room)"
        ) from exc
    con.execute(
        f"DELETE FROM {UNPUBLISHED.name} WHERE list_contains($names, table_name)",
        {"names": sorted(every if written is None else written)},
    )
    return target


def _copy(
    con: duckdb.DuckDBPyConnection,
    database: str,
    current: list[str],
    target: Path,
    written: set[str] | None,
) -> None:
    """Write the copy (see :func:`publish`): ``written`` (``gold.name``; ``None``: every
    table) copied from the warehouse, the other tables from the previous copy."""
    views = _views(con, database)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    partial.unlink(missing_ok=True)
    try:
        if written is not None and target.exists():
            shutil.copyfile(target, partial)
        con.execute(f"ATTACH {_literal(str(partial))} AS {ALIAS}")
        con.execute(f"CREATE SCHEMA IF NOT EXISTS {ALIAS}.{SCHEMA}")
        copied = {t.split(".", 1)[1] for t in written or ()}
        kept = set(_names(con, ALIAS, "tables")) - copied
        same = {n for n, sql in _views(con, ALIAS).items() if views.get(n) == sql}
        for name in _names(con, ALIAS, "views"):
            if name not in same:
                con.execute(f"DROP VIEW {ALIAS}.{SCHEMA}.{_quoted(name)}")
        for name in _names(con, ALIAS, "tables"):
            if name not in kept or name not in current:
                con.execute(f"DROP TABLE {ALIAS}.{SCHEMA}.{_quoted(name)}")
        for name in current:
            if name not in kept:
                con.execute(
                    f"CREATE TABLE {ALIAS}.{SCHEMA}.{_quoted(name)} AS "
                    f"SELECT * FROM {_quoted(database)}.{SCHEMA}.{_quoted(name)}"
                )
        con.execute(f"USE {ALIAS}")
        try:
            unbound = _create_views(con, [v for n, v in views.items() if n not in same])
        finally:
            con.execute(f"USE {_quoted(database)}")
        if unbound:
            raise RuntimeError(
                "gold views that read outside gold cannot be published: " + "; ".join(unbound)
            )
        con.execute(
            f"CREATE OR REPLACE TABLE {ALIAS}.main.published AS SELECT ?::TIMESTAMPTZ AS "
            "published_at, ?::INTEGER AS tables, ?::INTEGER AS views",
            [datetime.now(UTC), len(current), len(views)],
        )
        con.execute(f"DETACH {ALIAS}")
        os.replace(partial, target)
    except BaseException:
        con.execute(f"DETACH DATABASE IF EXISTS {ALIAS}")
        partial.unlink(missing_ok=True)
        raise
