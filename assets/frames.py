"""A study's rows of warehouse tables, read for an asset or a check body. Each read opens
its own read-only connection, so a body holds none while it computes."""

from collections.abc import Collection

import pandas as pd

from raterlab import warehouse as wh
from raterlab.design.generations import JSON_COLUMNS, decode_records
from raterlab.tables.ddl import quoted
from resources import Raterlab


def study_frame(
    rl: Raterlab,
    table: str,
    study: str,
    json_columns: tuple[str, ...] = (),
    columns: Collection[str] | None = None,
) -> pd.DataFrame:
    """``study``'s rows of ``table`` (empty before the table exists), ``json_columns``
    decoded; only ``columns`` when given."""
    listed = "*" if columns is None else ", ".join(quoted(c) for c in columns)
    with rl.warehouse(read_only=True) as con:
        return wh.decode_json(wh.read_study_rows(con, table, study, listed), json_columns)


def optional_frame(rl: Raterlab, table: str, study: str) -> pd.DataFrame | None:
    """``study``'s rows of ``table``, or ``None`` before the table exists."""
    with rl.warehouse(read_only=True) as con:
        if not wh.table_exists(con, table):
            return None
    return study_frame(rl, table, study)


def generations_text(rl: Raterlab, study: str) -> pd.DataFrame:
    """``raw.generations`` as stored (JSON as text): what a fingerprint reads."""
    return study_frame(rl, "raw.generations", study)


def decoded_generations(
    generations: pd.DataFrame, keys: Collection[str] | None = None
) -> pd.DataFrame:
    """:func:`generations_text`'s frame with its records and expected values decoded; with
    ``keys``, each record holds only those keys (:func:`raterlab.design.generations.
    decode_records`)."""
    if keys is None:
        return wh.decode_json(generations, JSON_COLUMNS)
    decoded = wh.decode_json(generations, tuple(c for c in JSON_COLUMNS if c != "record"))
    return decoded.assign(record=decode_records(generations["record"], keys))
