"""The DuckDB warehouse: schemas ``raw``, ``staging`` and ``gold``, and idempotent writes.

Every write replaces one study's rows of one or more tables in a single transaction, so a
re-run never appends twice and a failed write leaves the previous rows in place.

DuckDB lets one process write a database file, and no other process read it meanwhile. Every
connection is opened by :func:`connect`, which waits for another process's lock with bounded
retries (``RATERLAB_LOCK_TIMEOUT`` seconds in all) and then raises :class:`WarehouseBusy`.
"""

from __future__ import annotations

import atexit
import ctypes
import json
import os
import random
import re
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa

from raterlab import jsontext, tables
from raterlab.errors import WarehouseBusy
from raterlab.tables import ddl

SCHEMAS = ("raw", "staging", "gold")
LOCK_TIMEOUT_ENV = "RATERLAB_LOCK_TIMEOUT"
DEFAULT_LOCK_TIMEOUT_S = 120.0
"""Long enough to wait out another run's write (seconds per connection), short enough that a
stuck holder is reported the same day rather than never."""
_HOLDER = re.compile(r"held in (?P<program>.+?) \(PID (?P<pid>\d+)\)")


def lock_timeout() -> float:
    """Seconds a connection waits for another process's lock: ``RATERLAB_LOCK_TIMEOUT``."""
    text = os.environ.get(LOCK_TIMEOUT_ENV, "")
    if not text:
        return DEFAULT_LOCK_TIMEOUT_S
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise ValueError(f"{LOCK_TIMEOUT_ENV}={text!r}: expected a number of seconds >= 0")
    return value


def _holder(message: str) -> str:
    """Who holds the lock, as DuckDB reports it, with the holder's command line if readable."""
    found = _HOLDER.search(message)
    if not found:
        return "another process"
    pid = found["pid"]
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
        command = " ".join(part.decode(errors="replace") for part in raw.split(b"\0") if part)
    except OSError:
        command = found["program"]
    return f"process {pid} ({command[:200]})"


def _busy(path: Path, message: str, waited: float) -> WarehouseBusy:
    return WarehouseBusy(
        f"the warehouse {path} is locked by {_holder(message)}; waited {waited:.0f} s "
        f"({LOCK_TIMEOUT_ENV}). DuckDB allows one process to write it and none to read it "
        "meanwhile. Let that process finish (a pipeline run or another raterlab command) or "
        "close it if it is an open DuckDB session (query published.duckdb instead), then retry; "
        f"or set {LOCK_TIMEOUT_ENV} to wait longer."
    )


class _Host:
    """The process's in-memory DuckDB database, into which warehouse files are attached.

    Starting a DuckDB database costs about 11 ms (its catalog of built-in functions), and
    every pipeline step and command opens the warehouse a few times: :func:`connect` attaches
    the file to this one database instead (about 4 ms) and detaches it when the last
    connection to it closes. ``ATTACH`` takes the file's lock and ``DETACH`` releases it
    exactly as opening and closing a database of its own does, so other processes wait and
    retry as before. A child process made by ``fork`` starts a host of its own.

    Within a pipeline run (:func:`linger`), a file whose last connection closes stays attached
    for :attr:`linger_s` seconds more, and a connection opened meanwhile takes it over: the
    steps of a run open the warehouse about 200 times in a row, most of them within 50 ms of
    the last close, and attaching and detaching cost about 8 ms a time (13% of a
    1,000-item study's loop). Other processes still find the file free whenever the run
    leaves it alone for longer."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.database: duckdb.DuckDBPyConnection | None = None
        self.attached: dict[str, list] = {}
        """Resolved path -> [alias, read_only, connections open]."""
        self.linger_s = 0.0
        self.timers: dict[str, threading.Timer] = {}
        """Resolved path -> the timer that detaches it (a file attached with none open)."""

    def after_fork(self) -> None:
        """In a child made by ``fork``: forget the parent's database. Destroying it here would
        join threads this process does not have (a crash), so it is never destroyed."""
        if self.database is not None:
            ctypes.pythonapi.Py_IncRef(ctypes.py_object(self.database))
        self.lock = threading.Lock()
        self.database, self.attached, self.timers = None, {}, {}

    def open(self, path: Path, read_only: bool, timeout: float | None) -> str:
        """Attach ``path`` (or count one more connection to it); returns its alias."""
        key = str(path.resolve())
        with self.lock:
            if self.database is None:
                self.database = duckdb.connect(":memory:")
            entry = self.attached.get(key)
            if entry is not None and entry[2] == 0:  # lingering: taken over
                self.timers.pop(key).cancel()
                if entry[1] and not read_only:
                    self._detach(key)
                    entry = None
            if entry is not None:
                if entry[1] and not read_only:
                    raise duckdb.ConnectionException(
                        f"{path} is open read-only in this process; close those connections "
                        "before writing"
                    )
                entry[2] += 1
                return entry[0]
            alias = f"warehouse_{len(self.attached)}_{os.getpid()}"
            while any(e[0] == alias for e in self.attached.values()):
                alias += "_"
            _attach(self.database, path, alias, read_only, timeout)
            self.attached[key] = [alias, read_only, 1]
            return alias

    def cursor(self) -> duckdb.DuckDBPyConnection:
        with self.lock:  # a timer's DETACH may use the database meanwhile
            assert self.database is not None
            return self.database.cursor()

    def close(self, path: Path) -> None:
        """One connection to ``path`` fewer; the last one detaches it, at once or after
        :attr:`linger_s` seconds."""
        key = str(path.resolve())
        with self.lock:
            entry = self.attached[key]
            entry[2] -= 1
            if entry[2] > 0:
                return
            if self.linger_s <= 0:
                self._detach(key)
                return
            timer = threading.Timer(self.linger_s, self._expire, (key,))
            timer.daemon = True
            self.timers[key] = timer
            timer.start()

    def _expire(self, key: str) -> None:
        """A timer's end (in its thread): detach ``key`` unless a connection took it over
        meanwhile (and so dropped this timer)."""
        with self.lock:
            if self.timers.get(key) is threading.current_thread():
                del self.timers[key]
                self._detach(key)

    def _detach(self, key: str) -> None:
        """``DETACH`` the file of ``key`` (with the lock held): its file lock is let go."""
        entry = self.attached.pop(key)
        assert self.database is not None
        self.database.execute(f"DETACH {entry[0]}")

    def release(self) -> None:
        """Stop lingering: detach at once every file no connection has open."""
        with self.lock:
            self.linger_s = 0.0
            for key, timer in list(self.timers.items()):
                timer.cancel()
                del self.timers[key]
                self._detach(key)


_HOST = _Host()
os.register_at_fork(after_in_child=_HOST.after_fork)
atexit.register(_HOST.release)

LINGER_S = 0.05
"""Seconds a pipeline run keeps the warehouse attached after its last connection closes
(:func:`linger`)."""


def linger(seconds: float | None = None) -> None:
    """From now on, keep a warehouse attached ``seconds`` (default :data:`LINGER_S`) after
    its last connection closes, for the next connection to take over (see :class:`_Host`):
    for a pipeline run, whose steps open it hundreds of times. :func:`release` ends it. Not
    for a process that opens the file directly with ``duckdb.connect`` meanwhile: DuckDB
    refuses a file attached twice in one process."""
    with _HOST.lock:
        _HOST.linger_s = LINGER_S if seconds is None else seconds


def release() -> None:
    """End :func:`linger`: every warehouse no connection has open is detached at once."""
    _HOST.release()


def _attach(
    database: duckdb.DuckDBPyConnection,
    path: Path,
    alias: str,
    read_only: bool,
    timeout: float | None,
) -> None:
    """``ATTACH path AS alias``, retried while another process holds the file's lock: waits
    with jittered exponential backoff (50 ms doubling to 1 s) for at most ``timeout``
    seconds (default :func:`lock_timeout`), then raises :class:`WarehouseBusy`. Any other
    error is raised at once."""
    timeout = lock_timeout() if timeout is None else timeout
    literal = "'" + str(path).replace("'", "''") + "'"
    mode = " (READ_ONLY)" if read_only else ""
    start = time.monotonic()
    delay = 0.05
    while True:
        try:
            database.execute(f"ATTACH {literal} AS {alias}{mode}")
            return
        except duckdb.IOException as exc:
            if "Could not set lock" not in str(exc):
                raise
            waited = time.monotonic() - start
            if waited >= timeout:
                raise _busy(path, str(exc), waited) from exc
            time.sleep(min(delay * random.uniform(0.5, 1.0), timeout - waited))
            delay = min(delay * 2, 1.0)


@contextmanager
def connect(
    path: Path, read_only: bool = False, timeout: float | None = None
) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection to the warehouse file, with the three schemas present; waits for another
    process's lock (at most ``timeout`` seconds, default :func:`lock_timeout`), then raises
    :class:`WarehouseBusy`.

    The file is attached to the process's in-memory DuckDB database (:class:`_Host`) and is
    the connection's default database (``USE``), so queries name its tables as
    ``schema.table``; connections open at once in one process share the attachment, and a
    read-only request is served by a writable one."""
    if not read_only:
        path.parent.mkdir(parents=True, exist_ok=True)
    alias = _HOST.open(path, read_only, timeout)
    try:
        con = _HOST.cursor()
        try:
            con.execute(f"USE {alias}")
            if not read_only:
                for schema in SCHEMAS:
                    con.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
            yield con
        finally:
            con.close()
    finally:
        _HOST.close(path)


def jsonable(frame: pd.DataFrame) -> pd.DataFrame:
    """Dict and list cells as JSON text, so DuckDB stores them as one column of type JSON."""
    out = frame.copy()
    for column in out.columns:
        # infer_dtype scans in C; "mixed" is what dicts and lists (and little else) give
        if out[column].dtype != object or pd.api.types.infer_dtype(out[column]) != "mixed":
            continue
        if any(isinstance(v, dict | list) for v in out[column]):
            out[column] = out[column].map(
                lambda v: None if v is None else json.dumps(v, ensure_ascii=False)
            )
    return out


def table_exists(con: duckdb.DuckDBPyConnection, table: str) -> bool:
    """Whether ``schema.name`` exists (as a table or a view).

    Asked of the catalog by name (``con.table``), about 0.1 ms: ``duckdb_tables()`` builds a
    row per table of the warehouse (about 2.5 ms in a full study's), and ingest asks per
    file."""
    try:
        con.table(table)
    except duckdb.CatalogException:
        return False
    return True


def existing_tables(con: duckdb.DuckDBPyConnection, tables: Iterable[str]) -> set[str]:
    """Those of ``tables`` (``schema.name``) that exist, as tables or views."""
    return {table for table in tables if table_exists(con, table)}


Rows = pd.DataFrame | Iterable[pd.DataFrame]
"""A table's new rows for a study: one frame, or frames of the same columns written one after
the other (a table too large to hold at once, such as a million items' generations)."""


def _replace(con: duckdb.DuckDBPyConnection, table: str, study: str, rows: Rows) -> int:
    """Delete and insert ``study``'s rows of one table, inside the caller's transaction.

    A declared table (:mod:`raterlab.tables`) is created from its declaration, typed even when
    ``rows`` is empty, and a frame column it does not declare is an error. An undeclared
    table is created from the frame's columns, and a column it lacks is added."""
    chunks = iter([rows] if isinstance(rows, pd.DataFrame) else rows)
    written = _insert(con, table, study, next(chunks, pd.DataFrame()), first=True)
    for chunk in chunks:
        written += _insert(con, table, study, chunk, first=False)
    return written


def _insert(
    con: duckdb.DuckDBPyConnection, table: str, study: str, frame: pd.DataFrame, first: bool
) -> int:
    """Insert ``frame`` as rows of ``study`` (see :func:`_replace`); the ``first`` frame
    deletes the study's rows before."""
    declaration = tables.declared(table)
    if declaration is not None:
        extra = sorted(set(frame.columns) - set(declaration.names))
        if extra:
            raise ValueError(f"{table}: columns {extra} are not declared in raterlab.tables")
        if first:
            ddl.ensure(con, declaration)
    elif frame.empty and not table_exists(con, table):
        return 0
    data = jsonable(frame).assign(study=study)
    data = data[["study", *[c for c in data.columns if c != "study"]]]
    con.register("_incoming", data)
    try:
        con.execute(f"CREATE TABLE IF NOT EXISTS {table} AS SELECT * FROM _incoming LIMIT 0")
        if len(data) and declaration is None:
            for name, kind in con.execute(
                "SELECT column_name, column_type FROM (DESCRIBE _incoming)"
            ).fetchall():
                con.execute(f'ALTER TABLE {table} ADD COLUMN IF NOT EXISTS "{name}" {kind}')
        if first:
            con.execute(f"DELETE FROM {table} WHERE study = ?", [study])
        con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _incoming")
    finally:
        con.unregister("_incoming")
    return len(data)


def replace_study_tables(
    con: duckdb.DuckDBPyConnection, study: str, frames: Mapping[str, Rows]
) -> dict[str, int]:
    """Replace ``study``'s rows of every table in ``frames`` (``schema.name`` -> a frame, or
    frames written one after the other: :data:`Rows`), all in one transaction: a reader sees
    all the new rows or none, and a failure (raised by the frames' generator too) leaves
    every table as it was. Returns rows written per table.

    Each frame gets a leading ``study`` column. A declared table is created from its
    declaration; any other table from its frame's columns on the first write that has rows
    (an empty frame carries no column types). Writes insert by column name.
    """
    with transaction(con):
        return replace_in_transaction(con, study, frames)


def replace_in_transaction(
    con: duckdb.DuckDBPyConnection, study: str, frames: Mapping[str, Rows]
) -> dict[str, int]:
    """:func:`replace_study_tables` inside the caller's transaction (:func:`transaction`)."""
    return {table: _replace(con, table, study, frame) for table, frame in frames.items()}


@contextmanager
def transaction(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """One transaction: committed if the block succeeds, rolled back otherwise.

    The error raised is the real cause: when ``COMMIT`` itself fails (a full disk), DuckDB
    has already ended the transaction and the rollback's own complaint ("no transaction is
    active") is not what went wrong, so it is not what is reported.
    """
    con.execute("BEGIN TRANSACTION")
    try:
        yield
        con.execute("COMMIT")
    except BaseException:
        with suppress(duckdb.Error):
            con.execute("ROLLBACK")
        raise


def replace_study_rows(
    con: duckdb.DuckDBPyConnection, table: str, study: str, frame: pd.DataFrame
) -> int:
    """Replace ``study``'s rows of one table with ``frame``, in one transaction (see
    :func:`replace_study_tables`)."""
    return replace_study_tables(con, study, {table: frame})[table]


_STRINGS = pd.StringDtype("pyarrow", na_value=float("nan"))


def read_study_rows(
    con: duckdb.DuckDBPyConnection,
    table: str,
    study: str,
    columns: str = "*",
    among: tuple[str, list] | None = None,
) -> pd.DataFrame:
    """``study``'s rows of ``table`` (the ``columns`` listed, default all but ``study``); an
    empty frame when the table does not exist yet. ``among`` = ``(column, values)`` keeps
    the rows whose ``column`` is one of ``values`` (filtered in the query).

    Read through Arrow, with text kept in Arrow-backed string columns: several times faster
    than converting every string to a Python object on large tables.
    """
    if not table_exists(con, table):
        return pd.DataFrame()
    arrow = _study_arrow(con, table, study, columns, among)
    frame = arrow.to_pandas(types_mapper={pa.string(): _STRINGS, pa.large_string(): _STRINGS}.get)
    return frame.drop(columns="study", errors="ignore")


def _study_arrow(
    con: duckdb.DuckDBPyConnection,
    table: str,
    study: str,
    columns: str = "*",
    among: tuple[str, list] | None = None,
) -> pa.Table:
    query = f"SELECT {columns} FROM {table} WHERE study = $study"
    params: dict = {"study": study}
    if among is not None:
        query += f' AND "{among[0]}" IN (SELECT unnest($values))'
        params["values"] = list(among[1])
    return con.sql(query, params=params).to_arrow_table()


def decode_json(frame: pd.DataFrame, columns: tuple[str, ...]) -> pd.DataFrame:
    """Parse JSON text columns written by :func:`replace_study_rows` back into Python values
    (a new frame; the other columns are shared with ``frame`` until either is changed)."""
    return frame.assign(
        **{
            column: frame[column].map(lambda v: jsontext.loads(v) if isinstance(v, str) else None)
            for column in columns
        }
    )


def text_objects(column: pa.ChunkedArray | pa.Array) -> np.ndarray:
    """A text column as a NumPy array of Python strings (NaN where null), one string object
    per distinct value: a table's repeated values (task, field, annotator, file, round...)
    share it, where converting value by value makes one object per row (about 60 bytes
    each)."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    encoded = column.dictionary_encode()
    values = np.array([*encoded.dictionary.to_pylist(), float("nan")], dtype=object)
    codes = encoded.indices.fill_null(len(encoded.dictionary)).to_numpy(zero_copy_only=False)
    return values[codes]


def shared_text(values: pd.Series) -> pd.Series:
    """A text column as Python strings (NaN where missing), one object per distinct value,
    as :func:`text_objects` makes them: an Arrow-backed column's ``astype(object)`` makes
    one per row (about 60 bytes a cell: 400 MB for seven columns of a million rows). Other
    columns are only cast."""
    if not isinstance(values.dtype, pd.StringDtype):
        return values.astype(object)
    codes, uniques = pd.factorize(values)
    table = np.array([*uniques, float("nan")], dtype=object)
    return pd.Series(table[codes], index=values.index, dtype=object, name=values.name)


def read_table(
    con: duckdb.DuckDBPyConnection,
    table: str,
    study: str,
    json_columns: tuple[str, ...] = (),
    columns: Sequence[str] | None = None,
    among: tuple[str, list] | None = None,
) -> pd.DataFrame | None:
    """``study``'s rows of ``table`` (only ``columns``, when given; ``among`` as
    :func:`read_study_rows` takes it), or ``None`` when the table does not exist yet."""
    if not table_exists(con, table):
        return None
    listed = "*" if columns is None else ", ".join(f'"{c}"' for c in columns)
    arrow = _study_arrow(con, table, study, listed, among)
    text = [
        f.name
        for f in arrow.schema
        if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)
    ]
    # Python objects: consensus and adjudication walk these columns value by value, which
    # costs about ten times more on Arrow-backed strings (read_study_rows' dtype)
    frame = arrow.drop_columns(text).to_pandas().drop(columns="study", errors="ignore")
    for name in text:
        if name != "study":
            frame[name] = pd.Series(text_objects(arrow.column(name)), frame.index, object)
    frame = frame[[c for c in arrow.column_names if c != "study"]]
    return decode_json(frame, json_columns) if json_columns else frame
