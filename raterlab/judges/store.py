"""One study's write and read of ``gold.judge_calibration`` and ``gold.judge_weights``
(declared in :mod:`raterlab.tables.judges`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import duckdb
import pandas as pd

from raterlab.memo import write_tables
from raterlab.tables import names
from raterlab.tables.judges import CALIBRATION, WEIGHTS
from raterlab.warehouse import table_exists

CALIBRATION_STEP = "judge_calibration"
"""The step name under which the calibration's inputs are recorded (``raterlab.memo``)."""


@dataclass
class StudyCalibration:
    """One study's ``calibration`` (gold.judge_calibration rows) and ``weights``
    (gold.judge_weights rows), without ``study`` and ``computed_at``."""

    calibration: pd.DataFrame
    weights: pd.DataFrame

    def flagged(self) -> pd.DataFrame:
        return self.weights[self.weights["flagged"].astype(bool)]


TABLES = {CALIBRATION.name: CALIBRATION, WEIGHTS.name: WEIGHTS}


def write_calibration(
    con: duckdb.DuckDBPyConnection,
    study: str,
    result: StudyCalibration,
    inputs: str,
    calibrated_at: pd.Timestamp | None = None,
    parts: Mapping[str, str] | None = None,
) -> dict[str, int]:
    """Replace ``study``'s rows of both tables and record ``inputs``, the fingerprint of what
    the calibration was computed from (:data:`CALIBRATION_STEP`), and each task's of ``parts``,
    in one transaction. ``calibrated_at``: when the calibration rows were computed (a run that
    reused them all passes their time; default now)."""
    now = pd.Timestamp.now(tz="UTC")
    stamps = {"gold.judge_calibration": calibrated_at or now, "gold.judge_weights": now}
    frames = {}
    for table, frame in (
        ("gold.judge_calibration", result.calibration),
        ("gold.judge_weights", result.weights),
    ):
        columns = names(TABLES[table])[1:]
        data = frame.assign(computed_at=stamps[table]).reindex(columns=columns)
        data = data.astype({c: object for c in data.columns if data[c].dtype == object})
        frames[table] = data.where(data.notna(), None)
    return write_tables(con, study, frames, CALIBRATION_STEP, inputs, parts)


def read_calibration(con: duckdb.DuckDBPyConnection, study: str) -> StudyCalibration:
    """``study``'s rows of both tables (empty frames before the first write)."""
    frames = [
        con.sql(f"SELECT * EXCLUDE (study) FROM {table} WHERE study = $s", params={"s": study}).df()
        if table_exists(con, table)
        else pd.DataFrame(columns=names(columns)[1:])
        for table, columns in TABLES.items()
    ]
    return StudyCalibration(*frames)
