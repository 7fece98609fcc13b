"""Ratings files (CSV, TSV, JSONL, JSON, Parquet) into one units x raters matrix per field.

Two layouts are understood:

* long: one row per unit and rater, a column per rated field
  (``unit,rater,correctness,confidence``);
* wide: a unit column and one column per rater, for a single field (``unit,ann,bob,cat``).

A file is long when it has a rater column (``rater`` or the one named), else wide.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

__all__ = ["WIDE_FIELD", "RatingsFileError", "ratings_matrices", "read_ratings_file"]

WIDE_FIELD = "rating"  # field name given to the single field of a wide file


class RatingsFileError(ValueError):
    """A ratings file cannot be read or reshaped; the message says what to change."""


def read_ratings_file(path: str | Path) -> pd.DataFrame:
    """Read a ratings file by its suffix: .csv, .tsv, .jsonl/.ndjson, .json, .parquet/.pq."""
    path = Path(path)
    if not path.is_file():
        raise RatingsFileError(f"no such file: {path}")
    suffix = path.suffix.lower()
    try:
        if suffix == ".csv":
            return pd.read_csv(path)
        if suffix == ".tsv":
            return pd.read_csv(path, sep="\t")
        if suffix in (".jsonl", ".ndjson"):
            return pd.read_json(path, lines=True)
        if suffix == ".json":
            return pd.read_json(path)
        if suffix in (".parquet", ".pq"):
            return pd.read_parquet(path)
    except ValueError as error:
        raise RatingsFileError(f"cannot read {path}: {error}") from error
    raise RatingsFileError(
        f"unknown file type {suffix!r} for {path}: use .csv, .tsv, .jsonl, .json or .parquet"
    )


def _require(frame: pd.DataFrame, columns: Sequence[str], what: str) -> None:
    unknown = [c for c in columns if c not in frame.columns]
    if unknown:
        raise RatingsFileError(
            f"unknown {what} column(s) {', '.join(map(repr, unknown))}; "
            f"the file has: {', '.join(map(str, frame.columns))}"
        )


def ratings_matrices(
    frame: pd.DataFrame,
    unit: str | None = None,
    rater: str | None = None,
    fields: Sequence[str] | None = None,
) -> dict[str, pd.DataFrame]:
    """One units x raters matrix per field (rows: unit ids, columns: rater ids).

    ``unit`` defaults to a column named ``unit``; ``rater`` to a column named ``rater`` (long
    layout); without one the file is wide. ``fields`` (long layout) defaults to every other
    column. A unit rated twice by the same rater is an error, not silently averaged.
    """
    if unit is None:
        if "unit" not in frame.columns:
            raise RatingsFileError(
                "no unit column: name it with --unit (the file has: "
                f"{', '.join(map(str, frame.columns))})"
            )
        unit = "unit"
    _require(frame, [unit], "unit")
    if rater is None and "rater" in frame.columns:
        rater = "rater"
    if frame[unit].isna().any():
        raise RatingsFileError(f"column {unit!r} has rows without a unit id")

    if rater is None:
        if fields:
            raise RatingsFileError(
                "--fields needs a long file with a rater column (--rater); in a wide file "
                "every column but the unit is a rater"
            )
        _no_duplicates(frame, [unit])
        return {WIDE_FIELD: frame.set_index(unit)}

    _require(frame, [rater], "rater")
    fields = list(fields) if fields else [c for c in frame.columns if c not in (unit, rater)]
    _require(frame, fields, "field")
    if not fields:
        raise RatingsFileError("the file has no field column besides the unit and the rater")
    if frame[rater].isna().any():
        raise RatingsFileError(f"column {rater!r} has rows without a rater id")
    _no_duplicates(frame, [unit, rater])
    wide = frame.set_index([unit, rater])[fields].unstack(rater)
    return {field: wide[field] for field in fields}


def _no_duplicates(frame: pd.DataFrame, keys: list[str]) -> None:
    duplicated = frame.duplicated(keys, keep=False)
    if duplicated.any():
        first = frame.loc[duplicated, keys].head(1).to_dict(orient="records")[0]
        described = ", ".join(f"{key} {value!r}" for key, value in first.items())
        raise RatingsFileError(f"{described} appears on more than one row; each must appear once")
