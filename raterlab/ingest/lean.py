"""The lean path of a big returned file: a CSV file of at least :data:`MIN_BYTES` is read,
checked and unblinded inside DuckDB, whose memory is its buffer manager's (limited meanwhile:
:data:`~raterlab.ingest.labels.MEMORY_LIMIT`), so that a million-row return is never held
as Python frames (issue #28, goal 4).

It is a screen, never a second validation: :func:`lean_validation` says a file is clean
only when the full validation (:mod:`raterlab.ingest.validate`) would find nothing in it,
and returns ``None`` otherwise, whereupon the file goes the full way, which builds its
report. Clean means:

- **Read**: the file's parse cannot differ from :func:`raterlab.ingest.read.read_returned`'s:
  UTF-8 without byte-order mark, no quote, no ``#`` nor ``Err:`` (no spreadsheet error), no
  cell as raterlab's CSV writers neutralise one, no line starting as a blank line would,
  every line break ``\\n`` or ``\\r\\n``, a header of distinct names with commas and no blank
  name, as many rows as lines, the last row with an item (no filled-down tail), no cell
  longer than :data:`~raterlab.design.instructions.MAX_CELL_CHARS` bytes.
- **Columns**: those of the task's template
  (:func:`raterlab.ingest.validate.column_issues` finds nothing).
- **Row rules**: every rule of the task (:func:`raterlab.ingest.rules.task_rules`, the
  checks of its Pandera schema) holds, evaluated as the same Polars expression on each
  distinct combination of the cells it reads (a rule is a function of one row's cells);
  item and annotator cells have no surrounding whitespace.
- **Against the sealed key**: each item exactly a token of the key, once in the file (the
  rows are first taken as a run of the key, as a packet returned as issued is, which
  needs no hash join; else each token is looked up); all of one task and one annotator,
  the annotator id given the key's; the packets answered complete; no item that one of
  the study's edge cases matches. No pairwise task in the study.

Its labels are :mod:`raterlab.ingest.labels`' expressions evaluated the same way, on each
distinct combination of the cells they read, mapped back to the rows in DuckDB (a ``CASE``
or a join: :class:`~raterlab.ingest.labels.WideLabels`). A task's first return is then
inserted from DuckDB (:func:`raterlab.ingest.ratings.apply_returns`); a file that meets
current ratings brings its labels to Arrow for the plan, as the full way does.
"""

from __future__ import annotations

import duckdb
import pandas as pd
import polars as pl

from raterlab import warehouse
from raterlab.design.instructions import MAX_CELL_CHARS
from raterlab.design.packets import internal_names
from raterlab.ingest import cells
from raterlab.ingest.context import edge_items
from raterlab.ingest.issues import no_issues
from raterlab.ingest.labels import (
    WideLabels,
    label_expressions,
    limited,
    number_column,
    value_column,
)
from raterlab.ingest.read import (
    _QUOTED_CELL,
    _UTF8_BOM,
    _UTF16_BOMS,
    BLANK,
    ROW,
    UnreadableFile,
    _blank_line_start,
    _content_end,
    _names,
    _text_bytes,
)
from raterlab.ingest.receive import Received, source_of
from raterlab.ingest.row_checks import optional_columns
from raterlab.ingest.rules import TIME_COLUMN, task_rules
from raterlab.ingest.validate import Validation, column_issues
from raterlab.protocol import PairwiseField, Study

MIN_BYTES = 8_000_000
"""Files smaller than this go the full way (about 200,000 rows of a five-score task)."""
INLINE = 64
"""At most this many distinct cells make a value a ``CASE`` over them, more a join."""
MAX_DISTINCT = 100_000
"""A column whose labels are made from more distinct cells than this (free text, mostly)
sends the file the full way."""
_EXACT = ("item", "annotator_id")
"""Cells compared as they are with the key's: they must have no surrounding whitespace."""
_KEY = "_k:"
"""Prefix of the key's columns kept beside a file's rows."""
_FROM_KEY = ("item_id", "kind", "copy", "round", "batch", "task")
"""The sealed key's columns kept beside a row (its token and annotator are the row's)."""


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _plain_csv(received: Received) -> tuple[list[str], int, list[str], list[str]] | None:
    """The header's names, the count of rows and the first and last rows' cells of a file
    whose parse cannot differ from the reader's (see the module docstring); ``None``
    otherwise."""
    path = received.archived
    data = path.read_bytes()
    if data.startswith((_UTF8_BOM, *_UTF16_BOMS)):
        return None
    try:
        data = _text_bytes(path, data)
    except UnreadableFile:
        return None
    if (
        b'"' in data
        or b"#" in data
        or b"Err:" in data
        or (b"\r" in data and data.count(b"\r") != data.count(b"\r\n"))
        or _QUOTED_CELL.search(data) is not None
        or _blank_line_start(data)
    ):
        return None
    end = _content_end(data)
    header_end = data.find(b"\n", 0, end)
    if header_end < 0:
        return None
    first_end = data.find(b"\n", header_end + 1, end)
    first_end = end if first_end < 0 else first_end
    header, first = (
        data[a:b].removesuffix(b"\r").decode()
        for a, b in ((0, header_end), (header_end + 1, first_end))
    )
    try:
        names = _names(path, header.split(","))
    except UnreadableFile:
        return None
    if len(names) < 2 or any(n.startswith(BLANK) for n in names):
        return None
    last = data[data.rfind(b"\n", 0, end) + 1 : end].removesuffix(b"\r").decode()
    return names, data.count(b"\n", 0, end), first.split(","), last.split(",")


def _key_start(con: duckdb.DuckDBPyConnection, study: str, token: str) -> int | None:
    """The key row (its ``rowid``) of ``token``; ``None``: no such token (the file's rows
    are then not a run of the key)."""
    found = con.execute(
        "SELECT min(rowid) FROM staging.blinding_key WHERE study = $study AND token = $token",
        {"study": study, "token": token},
    ).fetchall()
    return found[0][0]


def _key(study: str, start: int | None, rows: int) -> str:
    """SQL: the key rows of ``study`` (each with its ``rowid``, ``_krow``); given ``start``,
    only the ``rows`` from that row on, in their order."""
    where = f"study = {_quoted(study)}"
    if start is None:
        return f"(SELECT rowid AS _krow, * FROM staging.blinding_key WHERE {where})"
    return (
        f"(SELECT rowid AS _krow, * FROM staging.blinding_key "
        f"WHERE {where} AND rowid >= {start} LIMIT {rows})"
    )


def _read(
    con: duckdb.DuckDBPyConnection,
    received: Received,
    table: str,
    columns: list[str],
    study: str,
    run: tuple[int, int | None],
) -> None:
    """The file's cells (empty cells as ``''``, columns under ``columns``' names) as the
    temporary ``table``, each with its place in the file (``_i``, from 0) and its key row:
    that row's ``rowid`` (``_krow``), whether the row's item and annotator are exactly its
    token and annotator (``_same``), and its :data:`_FROM_KEY` (named ``_k:<column>``).
    ``run``: the file's rows and, if they may be a run of the key from a row on, that row:
    the key rows are then the rows at the same places from there (no hash join), else the
    rows of the same token."""
    rows, start = run
    raw = {f"c{i}": "VARCHAR" for i in range(len(columns))}
    cells_ = ", ".join(f"coalesce(c{i}, '') AS \"{c}\"" for i, c in enumerate(columns))
    join = "POSITIONAL JOIN" if start is not None else "LEFT JOIN"
    on = "" if start is not None else "ON k.token = f.item"
    con.execute(
        f"""CREATE OR REPLACE TEMP TABLE {table} AS
            SELECT f.*, k._krow, f.item = k.token AND f.annotator_id = k.annotator_id AS _same,
                   {", ".join(f'k.{c} AS "{_KEY}{c}"' for c in _FROM_KEY)}
            FROM (SELECT * FROM (SELECT {cells_} FROM read_csv($path, header = true,
                  auto_detect = false, delim = ',', columns = {raw}, strict_mode = true,
                  null_padding = false))
                  POSITIONAL JOIN (SELECT range AS _i FROM range({rows}))) f
            {join} {_key(study, start, rows)} k {on}""",
        {"path": str(received.archived)},
    )


def _across(
    con: duckdb.DuckDBPyConnection, table: str, columns: list[str], study: str, start: int | None
) -> tuple[int, str | None]:
    """The rows of ``table`` and its task, if its rows pass the checks against the key
    (see the module docstring; ``None``: they do not). ``start``: the key row where the
    file's rows are to be a run of the key (:func:`_read`)."""
    longest = ", ".join(f'max(strlen("{c}"))' for c in columns)
    placed = "true" if start is None else f"_krow = _i + {start}"
    (n, misplaced, items, owners, tasks, task, too_long) = con.execute(
        f"""SELECT count(*),
                   count(*) FILTER (WHERE _i IS NULL OR NOT coalesce(_same AND {placed}, false)),
                   {"count(*)" if start is not None else "count(DISTINCT item)"},
                   count(DISTINCT annotator_id),
                   count(DISTINCT "{_KEY}task"), any_value("{_KEY}task"),
                   greatest({longest}) > {MAX_CELL_CHARS}
            FROM {table}"""
    ).fetchall()[0]
    if misplaced or items != n or owners != 1 or tasks != 1 or too_long:
        return n, None
    assigned = con.execute(
        f"""SELECT count(*) FROM {_key(study, None, 0)} k
            JOIN (SELECT DISTINCT annotator_id, "{_KEY}batch" AS batch, "{_KEY}task" AS task
                  FROM {table}) p
            ON k.annotator_id = p.annotator_id AND k.batch = p.batch AND k.task = p.task"""
    ).fetchall()[0][0]
    return n, task if assigned == n else None


def _packets(con: duckdb.DuckDBPyConnection, table: str) -> list[tuple[str, str]]:
    """The (annotator, batch) packets the rows of ``table`` answer."""
    return con.execute(
        f'SELECT DISTINCT annotator_id, "{_KEY}batch" FROM {table} ORDER BY ALL'
    ).fetchall()


def _edge_items_in(con: duckdb.DuckDBPyConnection, study: Study, task: str, table: str) -> bool:
    """Whether an item of the file is one that an edge case of ``task`` matches."""
    items = sorted(
        {
            i
            for case, found in zip(study.edge_cases, edge_items(con, study), strict=True)
            if case.task == task
            for i in found
        }
    )
    if not items:
        return False
    hits = con.execute(
        f'SELECT count(*) FROM {table} WHERE "{_KEY}item_id" IN (SELECT unnest($items))',
        {"items": items},
    ).fetchall()[0][0]
    return hits > 0


def _distinct(
    con: duckdb.DuckDBPyConnection, table: str, columns: list[str], names: set[str]
) -> pl.DataFrame:
    """The distinct combinations of ``columns`` of ``table``, typed as ``names`` say
    (:func:`raterlab.ingest.cells.typed_cells`)."""
    listed = ", ".join(f'"{c}"' for c in columns)
    data = (
        con.sql(f"SELECT DISTINCT {listed} FROM {table}").pl()
        if columns
        else pl.DataFrame({"_one": [""]})
    )
    return cells.typed_cells(data, names)


def _groups(expressions: dict[str, pl.Expr]) -> dict[tuple[str, ...], dict[str, pl.Expr]]:
    """``expressions`` grouped by the cells (text columns) they read."""
    groups: dict[tuple[str, ...], dict[str, pl.Expr]] = {}
    for name, expression in expressions.items():
        bases = tuple(sorted(cells.base_names(cells.root_names(expression))))
        groups.setdefault(bases, {})[name] = expression
    return groups


def _rules_hold(
    con: duckdb.DuckDBPyConnection, study: Study, task: str, table: str, columns: list[str]
) -> bool:
    """Whether every row rule of ``task`` holds on every row of ``table`` (see the module
    docstring); a rule of an optional column the file leaves out does not run, as in the
    Pandera schema."""
    optional = optional_columns(study)
    rules = [r for r in task_rules(study, task) if r.column in columns or r.column not in optional]
    checks = {f"{n}": r.valid for n, r in enumerate(rules)}
    checks |= {f"exact:{c}": pl.col(c) == pl.col(c).str.strip_chars() for c in _EXACT}
    for bases, group in _groups(checks).items():
        if any(b not in columns for b in bases):
            return False
        names = cells.root_names(*group.values())
        data = _distinct(con, table, list(bases), names)
        if not data.select(pl.all_horizontal(list(group.values()))).to_series().all():
            return False
    return True


def _literal(value: object, dtype: pl.DataType) -> str:
    """SQL: ``value`` (text or a float; ``None``) as a constant of its column's type."""
    if value is None:
        return "CAST(NULL AS VARCHAR)" if dtype == pl.String else "CAST(NULL AS DOUBLE)"
    if dtype == pl.String:
        return _quoted(str(value))
    return f"CAST('{float(value)!r}' AS DOUBLE)"


def _mapped(column: str, data: pl.DataFrame, name: str) -> str:
    """SQL: the value of ``name`` for the cell in ``column``, by a ``CASE`` over the
    distinct cells in ``data`` (with their values)."""
    dtype = data.schema[name]
    arms = " ".join(
        f"WHEN {_quoted(cell)} THEN {_literal(value, dtype)}"
        for cell, value in data.select(column, name).iter_rows()
    )
    return f'CASE f."{column}" {arms} ELSE {_literal(None, dtype)} END'


def _wide(
    con: duckdb.DuckDBPyConnection,
    study: Study,
    task: str,
    table: str,
    columns: list[str],
) -> tuple[str, dict[str, str], list[str]] | None:
    """The query of the file's labels (:class:`~raterlab.ingest.labels.WideLabels`), the
    query of each kept field's values and the temporary tables of typed values they join;
    ``None``: a group of cells has more than :data:`MAX_DISTINCT` combinations. A row's
    number in the file (header = 1) is its place plus 2 (the lean path reads no file with a
    blank line).

    A value made of one column's cells, of at most :data:`INLINE` distinct ones, is a
    ``CASE`` over them (no join); others join a temporary table of the distinct cells and
    their values."""
    keep, expressions = label_expressions(study, task, TIME_COLUMN in columns)
    joins: dict[str, str] = {}
    selected: dict[str, tuple[str, str | None]] = {}
    made: list[str] = []
    for n, (bases, group) in enumerate(_groups(expressions).items()):
        names = cells.root_names(*group.values())
        data = _distinct(con, table, list(bases), names)
        if len(data) > MAX_DISTINCT:
            for name in made:
                con.execute(f"DROP TABLE IF EXISTS {name}")
            return None
        values = data.select(*bases, **{f"={c}": e for c, e in group.items()})
        if len(bases) <= 1 and len(values) <= INLINE:
            for column in group:
                sql = (
                    _mapped(bases[0], values, f"={column}")
                    if bases
                    else _literal(values[f"={column}"][0], values.schema[f"={column}"])
                )
                selected[column] = (sql, None)
            continue
        name = f"{table}_m{n}"
        con.register("_lean_values", values.to_arrow())
        try:
            con.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS SELECT * FROM _lean_values")
        finally:
            con.unregister("_lean_values")
        made.append(name)
        on = " AND ".join(f'f."{b}" = m{n}."{b}"' for b in bases)
        joins[f"m{n}"] = f"JOIN {name} m{n} ON {on}" if bases else f"CROSS JOIN {name} m{n}"
        selected |= {column: (f'm{n}."={column}"', f"m{n}") for column in group}
    key = {c: f'f."{_KEY}{c}"' for c in _FROM_KEY}
    listed = {
        "item_id": key["item_id"],
        "annotator_id": "f.annotator_id",
        "confidence": selected["confidence"][0],
        "time_spent_s": selected["time_spent_s"][0],
        "notes": selected["notes"][0],
        "kind": key["kind"],
        "copy": key["copy"],
        "round": key["round"],
        "batch": key["batch"],
        "token": "f.item",
        "source_row": "f._i + 2",
    }
    values_of = {}
    for field in keep:
        (value, by_value), (number, by_number) = (
            selected[value_column(field)],
            selected[number_column(field)],
        )
        listed[value_column(field)], listed[number_column(field)] = value, number
        join = " ".join(joins[m] for m in dict.fromkeys((by_value, by_number)) if m)
        values_of[field] = (
            f"SELECT {listed['source_row']} AS source_row, {value} AS value, "
            f"{number} AS value_num FROM {table} f {join} WHERE {value} IS NOT NULL"
        )
    select = ", ".join(f'{sql} AS "{column}"' for column, sql in listed.items())
    query = f"SELECT {select} FROM {table} f {' '.join(joins.values())}"
    return query, values_of, made


def lean_validation(
    study: Study, received: Received, con: duckdb.DuckDBPyConnection
) -> Validation | None:
    """A big returned file's validation when it is clean (see the module docstring), its
    labels left in DuckDB (:attr:`~raterlab.ingest.validate.Validation.lean`); ``None``:
    take the full way (a small, unusual or unclean file, or one not a run of the key)."""
    path = received.archived
    if path.suffix.lower() != ".csv" or path.stat().st_size < MIN_BYTES:
        return None
    if not warehouse.table_exists(con, "staging.blinding_key"):
        return None
    if any(isinstance(s, PairwiseField) for t in study.tasks.values() for s in t.fields.values()):
        return None  # sides come from the key row by row: the full way
    plain = _plain_csv(received)
    if plain is None:
        return None
    names, rows, first, last = plain
    renamed = internal_names(study)
    columns = [renamed.get(n, n) for n in names]
    if (
        "item" not in columns
        or len(first) != len(names)
        or len(last) != len(names)
        or not last[columns.index("item")].strip()  # a filled-down tail: the full way
        or len(set(columns)) < len(columns)
    ):
        return None
    start = _key_start(con, study.name, first[columns.index("item")])
    table = f"_lean_{received.sha256[:16]}"
    try:
        with limited(con):
            validation = _screened(
                study,
                received,
                con,
                table,
                (names, columns),
                (rows, start),
                last[columns.index("item")],
            )
    except duckdb.Error:
        validation = None
    if validation is None:
        con.execute(f"DROP TABLE IF EXISTS {table}")
    return validation


def _screened(
    study: Study,
    received: Received,
    con: duckdb.DuckDBPyConnection,
    table: str,
    header: tuple[list[str], list[str]],
    run: tuple[int, int | None],
    last_item: str,
) -> Validation | None:
    """:func:`lean_validation` of a plain CSV file: its ``header`` (names as written and
    internal), its ``run`` (rows, the key row of its first item if any) and its last row's
    item. Its rows are first taken as a run of the key from that row (the rows of a packet
    returned as issued, when the key lists a packet's rows together), else each token is
    looked up."""
    (names, columns), (rows, start) = header, run
    _read(con, received, table, columns, study.name, (rows, start))
    n, task = _across(con, table, columns, study.name, start)
    if task is None and start is not None:  # not a run of the key: find each token
        _read(con, received, table, columns, study.name, (rows, None))
        n, task = _across(con, table, columns, study.name, None)
    if task is None or n != rows or task not in study.tasks:
        return None
    template = pd.DataFrame(columns=[ROW, *names])
    if not column_issues(study, task, template, received.file).empty:
        return None
    last = con.execute(f"SELECT item FROM {table} WHERE _i = $last", {"last": n - 1})
    if last.fetchall()[0][0] != last_item or _edge_items_in(con, study, task, table):
        return None
    if not _rules_hold(con, study, task, table, columns):
        return None
    wide = _wide(con, study, task, table, columns)
    if wide is None:
        return None
    query, values, made = wide
    source = {"task": task, **source_of(received)}
    labels = WideLabels(
        con, query, source, list(values), [*made, table], n, values, _packets(con, table)
    )
    return Validation(received.file, study.name, task, None, no_issues(), lean=labels)
