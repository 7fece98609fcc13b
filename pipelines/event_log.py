"""Dagster's SQLite event log with each database's connection kept open in the process.

Dagster's own SQLite event log (``SqliteEventLogStorage``) opens a new SQLite connection for
every read and write of an event and closes it after: a study's run stores about 350
events (its ~45 steps' starts, outputs, materializations, check evaluations and ends), some
in two databases (the run's own and the index), and the opening and closing (the last
connection's close checkpoints the write-ahead log) took about half of the 6 ms each event
cost on this machine: two of the six seconds of a run with nothing new at 1,000 items
(``benchmarks/README.md``, "End to end").

:class:`PooledSqliteEventLogStorage` keeps one connection per database file (the index and
the few runs this process wrote last) and is otherwise Dagster's storage: the same files,
tables and schema, so an instance can switch to it and back. One thing changes: with the
connection open, a run's writes stay in its write-ahead log until SQLite checkpoints it, so
the database file itself is not modified by each event, and the web UI, which watches that
file for a live run's new events (``SqliteEventLogStorage.watch``), would not be told. Each
write to a run's database therefore touches the file's modification time, which the watcher
sees as a modification (inotify's ``IN_ATTRIB``; a polling watcher compares the time); a read
does not (the watcher's own reads would wake it again).

Two more things differ, both for speed: a write commits without waiting for the disk
(SQLite's ``synchronous=NORMAL``, in the write-ahead-log mode Dagster puts its databases in:
safe from corruption, though a power cut may lose the last events; a commit waited for an
fsync, 0.2 ms or more, about 700 times a run), and the tables Dagster looks for before each
asset event are remembered once found.

The shipped instance config (``pipelines/dagster.yaml``) selects it; a team's own config
(Postgres, see ``docs/operations.md``) is left as it is.
"""

from __future__ import annotations

import os
import sqlite3
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import dagster as dg
from dagster._core.storage.event_log.sqlite.sqlite_event_log import (
    INDEX_SHARD_NAME,
    SqliteEventLogStorage,
)
from dagster._core.storage.sql import create_engine
from dagster._core.storage.sqlite import SQLITE_BUSY_TIMEOUT_SECONDS
from dagster._serdes import ConfigurableClassData
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import StaticPool

KEPT = 4
"""Connections kept open per process: the index and the latest run databases."""


def _synchronous_normal_in_wal(dbapi_connection: sqlite3.Connection, _record: object) -> None:
    """In write-ahead-log mode (Dagster's), commit without waiting for the disk: SQLite's
    ``synchronous=NORMAL``, safe from corruption in that mode; a power cut may lose the last
    events, not the database. A commit waited for an fsync (0.2-0.7 ms; about 700 a run)."""
    (mode,) = dbapi_connection.execute("PRAGMA journal_mode").fetchone()
    if str(mode).lower() == "wal":
        dbapi_connection.execute("PRAGMA synchronous=NORMAL")


def _changes(conn: Connection) -> int:
    """Rows the SQLite connection under ``conn`` has written since it was opened."""
    return conn.connection.dbapi_connection.total_changes


class PooledSqliteEventLogStorage(SqliteEventLogStorage):
    """``SqliteEventLogStorage`` keeping its connections open (see the module docstring).
    Config: ``dagster_home``, the instance's folder; the event logs are where Dagster's
    default storage keeps them, in its ``history/runs``."""

    def __init__(self, dagster_home: str, inst_data: ConfigurableClassData | None = None):
        self._engines: OrderedDict[str, Engine] = OrderedDict()
        self._pid = os.getpid()
        self._tables: set[str] = set()
        super().__init__(os.path.join(dagster_home, "history", "runs", ""), inst_data)

    @classmethod
    def config_type(cls) -> dict:
        return {"dagster_home": dg.StringSource}

    @classmethod
    def from_config_value(
        cls, inst_data: ConfigurableClassData | None, config_value: Mapping[str, Any]
    ) -> PooledSqliteEventLogStorage:
        return cls(inst_data=inst_data, **config_value)

    def _engine(self, shard: str) -> Engine:
        """The open engine of ``shard``'s database; the least recently used beyond
        :data:`KEPT` is closed. A forked child starts afresh (a connection is not shared
        across processes)."""
        if self._pid != os.getpid():
            self._engines, self._pid = OrderedDict(), os.getpid()
        engine = self._engines.pop(shard, None)
        if engine is None:
            engine = create_engine(
                self.conn_string_for_shard(shard),
                poolclass=StaticPool,
                connect_args={"timeout": SQLITE_BUSY_TIMEOUT_SECONDS, "check_same_thread": False},
            )
            event.listen(engine, "connect", _synchronous_normal_in_wal)
        self._engines[shard] = engine
        while len(self._engines) > KEPT:
            self._engines.popitem(last=False)[1].dispose()
        return engine

    @contextmanager
    def _connect(self, shard: str) -> Iterator[Connection]:
        with self._db_lock:
            engine = self._engine(shard)
            if shard not in self._initialized_dbs:
                self._initdb(engine)  # a new database is put in WAL mode here
                self._initialized_dbs.add(shard)
                with engine.connect() as conn:
                    _synchronous_normal_in_wal(conn.connection.dbapi_connection, None)
            with engine.connect() as conn:
                before = _changes(conn)
                with conn.begin():
                    yield conn
                wrote = _changes(conn) != before
            if wrote and shard != INDEX_SHARD_NAME:
                os.utime(self.path_for_shard(shard))

    def has_table(self, table_name: str) -> bool:
        """Whether the index database has ``table_name``, remembered once it has: Dagster
        asks before storing each asset event and check evaluation, and its own answer opens
        a new engine and connection every time (about 1 ms; 0.4 s of a 1,000-item loop).
        A table is only ever added (by a migration), so a missing one is asked again."""
        if table_name not in self._tables and super().has_table(table_name):
            self._tables.add(table_name)
        return table_name in self._tables

    def _close_all(self) -> None:
        while self._engines:
            self._engines.popitem()[1].dispose()

    def wipe(self) -> None:
        self._close_all()
        self._tables.clear()
        super().wipe()

    def dispose(self) -> None:
        self._close_all()
        super().dispose()
