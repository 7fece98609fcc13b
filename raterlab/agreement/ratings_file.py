"""Ratings files (CSV, TSV, JSONL, JSON, Parquet) into one units x raters matrix per field.

Two layouts are understood:

* long: one row per unit and rater, a column per rated field
  (``unit,rater,correctness,confidence``);
* wide: a unit column and one column per rater, for a single field (``unit,ann,bob,cat``).

A file is long when it has a rater column (``rater`` or the one named), else wide. A unit
may be named by several columns (``--unit doc,system``): its id is their values joined by
:data:`UNIT_SEPARATOR`.

A field whose ratings are numbers except for a few words (``five`` in a 1-5 column) is refused
with the row of each word: read as labels, such a column would give every coefficient a
meaning nobody intended. Declaring the categories says the words are meant.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

__all__ = [
    "UNIT_SEPARATOR",
    "WIDE_FIELD",
    "RatingsFileError",
    "ratings_matrices",
    "read_ratings_file",
    "unit_ids",
]

WIDE_FIELD = "rating"  # field name given to the single field of a wide file
UNIT_SEPARATOR = "|"  # joins the values of several unit columns into one unit id
_SHOWN = 5  # rows named in an error; the rest are counted


class RatingsFileError(ValueError):
    """A ratings file cannot be read or reshaped; the message says what to change."""


def read_ratings_file(path: str | Path) -> pd.DataFrame:
    """Read a ratings file by its suffix: .csv, .tsv, .jsonl/.ndjson, .json, .parquet/.pq."""
    path = Path(path)
    if not path.is_file():
        raise RatingsFileError(f"no such file: {path}")
    suffix = path.suffix.lower()
    readers = {
        ".csv": lambda: pd.read_csv(path),
        ".tsv": lambda: pd.read_csv(path, sep="\t"),
        ".jsonl": lambda: pd.read_json(path, lines=True),
        ".ndjson": lambda: pd.read_json(path, lines=True),
        ".json": lambda: pd.read_json(path),
        ".parquet": lambda: pd.read_parquet(path),
        ".pq": lambda: pd.read_parquet(path),
    }
    if suffix not in readers:
        raise RatingsFileError(
            f"unknown file type {suffix!r} for {path}: use .csv, .tsv, .jsonl, .json or .parquet"
        )
    try:
        frame = readers[suffix]()
    except ValueError as error:
        raise RatingsFileError(f"cannot read {path}: {error}") from error
    if frame.empty:
        raise RatingsFileError(f"{path} holds no ratings (no rows below its header)")
    # Where a person finds row i: a spreadsheet's row (header = 1), else the line or record.
    frame.attrs["row_name"], frame.attrs["first_row"] = (
        ("row", 2) if suffix in (".csv", ".tsv") else ("line", 1)
    )
    return frame


def unit_ids(frame: pd.DataFrame, columns: Sequence[str]) -> pd.Series:
    """Each row's unit id: the value of its one unit column, or the values of several joined
    by :data:`UNIT_SEPARATOR` (``doc1|sysA``)."""
    if len(columns) == 1:
        return frame[columns[0]]
    return frame[list(columns)].astype(str).agg(UNIT_SEPARATOR.join, axis=1)


def _require(frame: pd.DataFrame, columns: Sequence[str], what: str) -> None:
    unknown = [c for c in columns if c not in frame.columns]
    if unknown:
        raise RatingsFileError(
            f"unknown {what} column(s) {', '.join(map(repr, unknown))}; "
            f"the file has: {', '.join(map(str, frame.columns))}"
        )


def ratings_matrices(
    frame: pd.DataFrame,
    unit: str | Sequence[str] | None = None,
    rater: str | None = None,
    fields: Sequence[str] | None = None,
    labels: bool = False,
) -> dict[str, pd.DataFrame]:
    """One units x raters matrix per field (rows: unit ids, columns: rater ids).

    ``unit`` defaults to a column named ``unit``, and may be several columns (see
    :func:`unit_ids`); ``rater`` defaults to a column named ``rater`` (long layout); without
    one the file is wide. ``fields`` (long layout) defaults to every other column. A unit
    rated twice by the same rater is an error, not silently averaged. Unless ``labels`` (the
    caller declared the categories), a field of numbers with a few words among them is an
    error that names the rows of the words.
    """
    units = _unit_columns(frame, unit)
    if rater is None and "rater" in frame.columns:
        rater = "rater"
    for column in units:
        if frame[column].isna().any():
            raise RatingsFileError(f"column {column!r} has rows without a unit id")
    keyed = frame.assign(_unit=unit_ids(frame, units))

    if rater is None:
        if fields:
            raise RatingsFileError(
                "--fields needs a long file with a rater column (--rater); in a wide file "
                "every column but the unit is a rater"
            )
        raters = [c for c in frame.columns if c not in units]
        if not labels:
            _numbers_only(keyed, raters, WIDE_FIELD)
        _no_duplicates(keyed, ["_unit"], units)
        wide = keyed.set_index("_unit")[raters].rename_axis(UNIT_SEPARATOR.join(units))
        return {WIDE_FIELD: wide}

    _require(frame, [rater], "rater")
    fields = list(fields) if fields else [c for c in frame.columns if c not in (*units, rater)]
    _require(frame, fields, "field")
    if not fields:
        raise RatingsFileError("the file has no field column besides the unit and the rater")
    if frame[rater].isna().any():
        raise RatingsFileError(f"column {rater!r} has rows without a rater id")
    if not labels:
        for field in fields:
            _numbers_only(keyed, [field], field)
    _no_duplicates(keyed, ["_unit", rater], [*units, rater])
    wide = keyed.set_index(["_unit", rater])[fields].unstack(rater)
    wide.index.name = UNIT_SEPARATOR.join(units)
    return {field: wide[field] for field in fields}


def _unit_columns(frame: pd.DataFrame, unit: str | Sequence[str] | None) -> list[str]:
    """The unit column(s): those named, else ``unit``."""
    if unit is None:
        if "unit" not in frame.columns:
            raise RatingsFileError(
                "no unit column: name it with --unit (the file has: "
                f"{', '.join(map(str, frame.columns))})"
            )
        return ["unit"]
    units = [unit] if isinstance(unit, str) else list(unit)
    _require(frame, units, "unit")
    return units


def _numbers_only(frame: pd.DataFrame, columns: Sequence[str], field: str) -> None:
    """Refuse words among numbers in ``columns`` (one field), naming where each word is."""
    cells = frame[list(columns)].stack()
    if pd.api.types.is_numeric_dtype(cells) or cells.empty:
        return
    numbers = pd.to_numeric(cells, errors="coerce")
    words = cells[numbers.isna()]
    if numbers.isna().all() or words.empty:
        return
    row_name = frame.attrs.get("row_name", "row")
    first_row = frame.attrs.get("first_row", 1)
    places = [
        f"{row_name} {frame.index.get_loc(index) + first_row}, column {column!r}: {value!r}"
        for (index, column), value in words.head(_SHOWN).items()
    ]
    more = f" and {len(words) - _SHOWN} more" if len(words) > _SHOWN else ""
    raise RatingsFileError(
        f"field {field!r} holds numbers and {len(words)} value(s) that are not: "
        f"{'; '.join(places)}{more}. Correct them, or declare the scale with --categories "
        "if these words are categories"
    )


def _no_duplicates(frame: pd.DataFrame, keys: list[str], shown: list[str]) -> None:
    """Refuse a unit (and rater) on two rows, naming it by the ``shown`` columns."""
    duplicated = frame.duplicated(keys, keep=False)
    if duplicated.any():
        first = frame.loc[duplicated, shown].head(1).to_dict(orient="records")[0]
        described = ", ".join(f"{key} {value!r}" for key, value in first.items())
        raise RatingsFileError(f"{described} appears on more than one row; each must appear once")
