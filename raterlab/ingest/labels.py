"""Accepted rows -> long-form labels, unblinded through the sealed key.

One row per (item, annotator, copy, field) for every filled field except the confidence
field, which becomes a column of its own, as do time spent and notes. ``notes`` holds the
row's free-text fields (their text alone when the task has one text field, else
``field: text`` lines).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa

from raterlab.ingest import cells
from raterlab.ingest.read import ROW
from raterlab.ingest.rules import TIME_COLUMN
from raterlab.protocol import (
    LIST_SEPARATOR,
    SKIP_VALUE,
    BinaryField,
    CategoricalField,
    ConfidenceField,
    LikertField,
    ListField,
    PairwiseField,
    Study,
    TextField,
)
from raterlab.protocol.pairwise import canonical
from raterlab.tables import names
from raterlab.tables.ingest import LABELS

LABEL_COLUMNS = tuple(names(LABELS)[2:])
"""``gold.labels``' columns after ``study`` and ``rating_id`` (declared in
:data:`raterlab.tables.ingest.LABELS`): a rating's columns and one field's value."""


def _canonical_list(column: str) -> pl.Expr:
    """List entries stripped, empty ones dropped, joined with ``; ``."""
    part = pl.element().str.strip_chars()
    entries = cells.text(column).str.split(LIST_SEPARATOR).list.eval(part.filter(part != ""))
    return entries.list.join(f"{LIST_SEPARATOR} ")


def normalised(study: Study, task: str, name: str) -> tuple[pl.Expr, pl.Expr]:
    """Expressions of a field's canonical text and numeric value (null for non-numbers);
    null text where the cell is empty. They parse with the rules' own expressions
    (:mod:`raterlab.ingest.cells`)."""
    spec = study.tasks[task].fields[name]
    raw = cells.text(name)
    text, number = raw, pl.lit(None, dtype=pl.Float64)
    if isinstance(spec, BinaryField):
        number = cells.binary(name)
        text = pl.when(number.is_null()).then(raw).when(number == 1).then(pl.lit("1"))
        text = text.otherwise(pl.lit("0"))
    elif isinstance(spec, LikertField):
        number = cells.number(name)
        text = pl.coalesce(number.round(0).cast(pl.Int64, strict=False).cast(pl.String), raw)
    elif isinstance(spec, PairwiseField):  # as seen; made canonical with the key's side
        text = pl.coalesce(cells.label(name, spec.answers_seen()), raw)
    elif isinstance(spec, CategoricalField):
        text = pl.coalesce(cells.label(name, tuple(spec.labels)), raw)
    elif isinstance(spec, ListField):
        text = _canonical_list(name)
    elif isinstance(spec, TextField):
        text = raw.str.replace_all("\r\n", "\n", literal=True)
    if spec.skip is not None:
        text = pl.when(cells.skipped(name)).then(pl.lit(SKIP_VALUE)).otherwise(text)
        number = pl.when(cells.skipped(name)).then(None).otherwise(number)
    return pl.when(cells.empty(name)).then(None).otherwise(text), number


def normalised_values(
    study: Study, task: str, name: str, frame: pd.DataFrame
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`normalised` evaluated on ``frame``'s column ``name``: canonical text (``None``
    where empty) and number (NaN where not a number). A pairwise answer is read as given on a
    pair shown unswapped (``system_a`` on the left), as the adjudicator's packet shows it."""
    text, number = normalised(study, task, name)
    data = cells.typed_frame(frame, cells.root_names(text, number))
    out = data.select(text.alias("t"), number.alias("n"))
    values = out["t"].to_numpy()
    if isinstance(study.tasks[task].fields[name], PairwiseField):
        unswapped = pd.DataFrame({"swapped": np.zeros(len(values), dtype=bool)})
        values = np.asarray(_unblinded(pa.array(values, type=pa.string()), unswapped), dtype=object)
    return values, out["n"].fill_null(np.nan).to_numpy()


def _notes(study: Study, task: str) -> pl.Expr:
    """The row's free text: the one text field's, or ``field: text`` lines of the filled ones
    (an empty field is left out, never written as ``nan``)."""
    texts = [n for n, s in study.tasks[task].fields.items() if isinstance(s, TextField)]
    if not texts:
        return pl.lit(None, dtype=pl.String)
    if len(texts) == 1:
        return normalised(study, task, texts[0])[0]
    lines = [pl.lit(f"{name}: ") + normalised(study, task, name)[0] for name in texts]
    joined = pl.concat_str(lines, separator="\n", ignore_nulls=True)
    return pl.when(joined == "").then(None).otherwise(joined)


def value_column(field: str) -> str:
    return f"value:{field}"


def number_column(field: str) -> str:
    return f"number:{field}"


RATING_CONSTANTS = ("task", "source_file", "source_sha256", "ingested_at")
"""Columns of a rating that are the same for every row of one file (bound as parameters)."""


@dataclass
class Labels:
    """Accepted rows, one per rating, as an Arrow table ready for DuckDB.

    Per rating: item, annotator, confidence, time spent, notes, kind, copy, round, batch,
    token and source row; per field its canonical text (``value:<field>``) and number
    (``number:<field>``). ``constants`` holds :data:`RATING_CONSTANTS`. The warehouse melts
    the fields into long form as it inserts.
    """

    table: pa.Table
    constants: dict
    fields: list[str]

    def __len__(self) -> int:
        """Filled field values (the rows this adds to the long form)."""
        return sum(
            self.table[value_column(f)].length() - self.table[value_column(f)].null_count
            for f in self.fields
        )

    def packets(self) -> list[tuple[str, str, str]]:
        """The (annotator, batch, task) packets these ratings answer, sorted (Polars' unique
        rows: through pandas this cost about 4 ms per file, through Arrow's group by 0.13 s
        per million ratings)."""
        pairs = pl.from_arrow(self.table.select(["annotator_id", "batch"])).unique()
        task = self.constants["task"]
        return sorted((a, b, task) for a, b in pairs.iter_rows())

    def with_source_rows(self, rows: np.ndarray) -> Labels:
        index = self.table.schema.get_field_index("source_row")
        table = self.table.set_column(index, "source_row", pa.array(rows))
        return Labels(table, self.constants, self.fields)


MEMORY_LIMIT = "300MB"
"""DuckDB's memory limit while it reads, checks and writes a big file's lean path
(:mod:`raterlab.ingest.lean`, :func:`limited`): what it would hold beyond goes to its
temporary directory. On a million-row file (benchmarks/README.md, "Ingest") the process's
peak was 565 MB with this limit on an Intel Xeon (612-614 MB with 400 MB, over the 600 MB
the file may take), 506-509 MB on an AMD EPYC (560 MB with 400 MB, 680 MB without a limit;
200 MB made validation take 1.7 times as long)."""


@contextmanager
def limited(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """DuckDB's memory limited to :data:`MEMORY_LIMIT` inside, without its progress bar (a
    big file's statements may take seconds: it would print to the terminal), then both set
    back."""
    settings = {"memory_limit": f"'{MEMORY_LIMIT}'", "enable_progress_bar": "false"}
    before = {
        name: con.execute(f"SELECT current_setting('{name}')").fetchall()[0][0] for name in settings
    }
    for name, value in settings.items():
        con.execute(f"SET {name} = {value}")
    try:
        yield
    finally:
        for name, value in before.items():
            con.execute(f"SET {name} = '{value}'")


@dataclass
class WideLabels:
    """:class:`Labels` still in DuckDB: the query ``select`` (over temporary tables of the
    connection ``con``) gives :class:`Labels`' table, one row per rating, in any order. A big
    file's lean path (:mod:`raterlab.ingest.lean`) makes them, so that its ratings go from
    DuckDB's tables to the warehouse's without coming to Python
    (:func:`raterlab.ingest.ratings.apply_returns`); ``temporary`` names the tables to drop
    once they are written."""

    con: duckdb.DuckDBPyConnection
    select: str
    constants: dict
    fields: list[str]
    temporary: list[str]
    rows: int
    """The file's rows."""
    values: dict[str, str]
    """Per field, a query of its filled values: ``source_row``, ``value``, ``value_num``."""
    answered: list[tuple[str, str]]
    """The (annotator, batch) packets the ratings answer."""

    @cached_property
    def table(self) -> pa.Table:
        """The ratings as :class:`Labels`' Arrow table, in the file's row order (for what
        only an Arrow table does: a plan meeting current ratings, a dry run)."""
        return self.con.sql(f"{self.select} ORDER BY source_row").to_arrow_table().combine_chunks()

    def __len__(self) -> int:
        """Filled field values (the rows this adds to the long form)."""
        if not self.fields:
            return 0
        counts = " + ".join(f'count("{value_column(f)}")' for f in self.fields)
        return int(self.con.sql(f"SELECT {counts} FROM ({self.select})").fetchall()[0][0])

    def packets(self) -> list[tuple[str, str, str]]:
        """The (annotator, batch, task) packets these ratings answer, sorted."""
        task = self.constants["task"]
        return sorted((a, b, task) for a, b in self.answered)

    def drop(self) -> None:
        """Drop the temporary tables the query reads."""
        for table in self.temporary:
            self.con.execute(f"DROP TABLE IF EXISTS {table}")


def _array(values: pd.Series) -> pa.Array:
    return pa.array(values, from_pandas=True)


def to_labels(
    study: Study,
    task: str,
    frame: pd.DataFrame,
    joined: pd.DataFrame,
    source: dict,
    fields: list[str] | None = None,
) -> Labels:
    """Labels for the rows of ``frame`` (validated text cells) that ``joined`` maps to the
    sealed key. ``source`` gives ``source_file``, ``source_sha256``, ``ingested_at``;
    ``fields`` limits the fields kept (default: all but the confidence field)."""
    return labels_of(study, task, [(frame, joined, source, None)], fields)[0]


def _mapped(
    frame: pd.DataFrame, joined: pd.DataFrame, typed: pl.DataFrame | None
) -> tuple[pd.DataFrame, pl.DataFrame | None]:
    """The rows of ``frame`` (and of its typed cells ``typed``, if given) that ``joined``
    maps to the key, in ``joined``'s order."""
    numbers, wanted = frame[ROW].to_numpy(), joined[ROW].to_numpy()
    if np.array_equal(numbers, wanted):
        return frame, typed
    order = pd.Index(numbers).get_indexer(wanted)
    return frame.iloc[order], None if typed is None else typed.select(pl.all().gather(order))


def _stacked(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """The frames one after another (one frame as it is: a million-row file is not copied)."""
    return frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)


Part = tuple[pd.DataFrame, pd.DataFrame, dict, "pl.DataFrame | None"]
"""A file to unblind: its validated text cells, the rows to keep joined to the sealed key,
its source (``source_file``, ``source_sha256``, ``ingested_at``) and, if its validation made
them, its typed cells (:func:`typed_names` among them), which are then not parsed again."""


def labels_of(
    study: Study, task: str, parts: list[Part], fields: list[str] | None = None
) -> list[Labels]:
    """:func:`to_labels` of several files of ``task``: the cells of the files with the same
    columns are parsed together, in one Polars evaluation, and the table is cut back into
    files (parsed one by one, the fixed cost of each evaluation was about 5 ms per file)."""
    confidence = _confidence(study, task)
    wanted = study.tasks[task].fields if fields is None else fields
    keep = [f for f in study.tasks[task].fields if f != confidence and f in wanted]
    groups: dict[tuple, list[int]] = {}
    for n, (frame, *_) in enumerate(parts):
        groups.setdefault(tuple(frame.columns), []).append(n)
    done: dict[int, Labels] = {}
    for columns, members in groups.items():
        mapped = [_mapped(parts[n][0], parts[n][1], parts[n][3]) for n in members]
        rows = _stacked([frame for frame, _ in mapped])
        typed = [data for _, data in mapped]
        timed = TIME_COLUMN in columns
        if any(data is None for data in typed):
            data = cells.typed_frame(rows, _names(study, task, confidence, keep, timed))
        else:
            data = typed[0] if len(typed) == 1 else pl.concat(typed)
        joined = _stacked([parts[n][1] for n in members])
        table = _table(study, task, confidence, keep, timed, rows, joined, data)
        offset = 0
        for n in members:
            size = len(parts[n][1])
            done[n] = Labels(table.slice(offset, size), {"task": task, **parts[n][2]}, keep)
            offset += size
    return [done[n] for n in range(len(parts))]


def _typed(
    study: Study, task: str, confidence: str | None, keep: list[str], timed: bool
) -> dict[str, pl.Expr]:
    """The expressions of :class:`Labels`' typed columns, over typed cells."""
    typed = {
        "confidence": normalised(study, task, confidence)[0].str.to_lowercase()
        if confidence
        else pl.lit(None, dtype=pl.String),
        "time_spent_s": cells.number(TIME_COLUMN) if timed else pl.lit(None, dtype=pl.Float64),
        "notes": _notes(study, task),
    }
    for name in keep:
        typed[value_column(name)], typed[number_column(name)] = normalised(study, task, name)
    numeric = {"time_spent_s", *(number_column(n) for n in keep)}
    return {c: e.cast(pl.Float64 if c in numeric else pl.String) for c, e in typed.items()}


def label_expressions(study: Study, task: str, timed: bool) -> tuple[list[str], dict[str, pl.Expr]]:
    """The fields a file of ``task`` gives values of (all but the confidence field) and the
    expressions of :class:`Labels`' typed columns over typed cells (``timed``: the file has
    a time column), as :func:`labels_of` makes them."""
    confidence = _confidence(study, task)
    keep = [f for f in study.tasks[task].fields if f != confidence]
    return keep, _typed(study, task, confidence, keep, timed)


def _confidence(study: Study, task: str) -> str | None:
    spec = study.tasks[task]
    return next((n for n, s in spec.fields.items() if isinstance(s, ConfidenceField)), None)


def _names(
    study: Study, task: str, confidence: str | None, keep: list[str], timed: bool
) -> set[str]:
    return cells.root_names(*_typed(study, task, confidence, keep, timed).values())


def typed_names(study: Study, task: str) -> frozenset[str]:
    """The typed cells (:func:`raterlab.ingest.cells.typed_frame`) that unblinding a file of
    ``task`` reads: a validation that makes them too saves parsing them again."""
    confidence = _confidence(study, task)
    keep = [f for f in study.tasks[task].fields if f != confidence]
    return frozenset(_names(study, task, confidence, keep, True))


def _table(
    study: Study,
    task: str,
    confidence: str | None,
    keep: list[str],
    timed: bool,
    rows: pd.DataFrame,
    joined: pd.DataFrame,
    data: pl.DataFrame,
) -> pa.Table:
    """The columns of :class:`Labels` for ``rows`` (text cells, typed in ``data``) and
    ``joined`` (their key rows), one row each."""
    values = data.select(**_typed(study, task, confidence, keep, timed)).to_arrow()
    columns = {
        "item_id": _array(joined["item_id"]),
        "annotator_id": _array(joined["annotator_id"]),
        "confidence": values["confidence"],
        "time_spent_s": values["time_spent_s"],
        "notes": values["notes"],
        "kind": _array(joined["kind"]),
        "copy": _array(joined["copy"]),
        "round": _array(joined["round"]),
        "batch": _array(joined["batch"]),
        "token": pa.array(joined["token"], type=pa.string(), from_pandas=True),
        "source_row": pa.array(rows[ROW].to_numpy()),
    }
    for name in keep:
        value = values[value_column(name)]
        if isinstance(study.tasks[task].fields[name], PairwiseField):
            value = _unblinded(value, joined)
        columns[value_column(name)] = value
        columns[number_column(name)] = values[number_column(name)]
    return pa.table(columns)


def _unblinded(seen: pa.ChunkedArray | pa.Array, joined: pd.DataFrame) -> pa.Array:
    """A pairwise field's answers as seen (``left``...) in each pair's canonical orientation
    (:func:`raterlab.protocol.pairwise.canonical`), by the sealed key's ``swapped``; ``skip``
    and empty cells stay as they are."""
    if "swapped" not in joined:
        raise ValueError(
            "pairwise answers need the sealed key's sides (swapped): they come back only "
            "through the study's packets"
        )
    sides = pd.Series(joined["swapped"]).fillna(False).astype(bool).to_numpy()
    out = [
        canonical(v, bool(s)) if v is not None and v != SKIP_VALUE else v
        for v, s in zip(seen.to_pylist(), sides, strict=True)
    ]
    return pa.array(out, type=pa.string())
