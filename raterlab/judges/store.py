"""One study's write and read of ``gold.judge_calibration`` and ``gold.judge_weights``
(declared in :mod:`raterlab.tables.judges`)."""

from __future__ import annotations

from dataclasses import dataclass

import duckdb
import pandas as pd

from raterlab.tables import names
from raterlab.tables.judges import CALIBRATION, WEIGHTS
from raterlab.warehouse import replace_study_rows, table_exists


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
    con: duckdb.DuckDBPyConnection, study: str, result: StudyCalibration
) -> dict[str, int]:
    """Replace ``study``'s rows of both tables, each in one transaction."""
    now = pd.Timestamp.now(tz="UTC")
    frames = {
        "gold.judge_calibration": result.calibration,
        "gold.judge_weights": result.weights,
    }
    out = {}
    for table, frame in frames.items():
        columns = names(TABLES[table])[1:]
        data = frame.assign(computed_at=now).reindex(columns=columns)
        data = data.astype({c: object for c in data.columns if data[c].dtype == object})
        out[table] = replace_study_rows(con, table, study, data.where(data.notna(), None))
    return out


def read_calibration(con: duckdb.DuckDBPyConnection, study: str) -> StudyCalibration:
    """``study``'s rows of both tables (empty frames before the first write)."""
    frames = [
        con.sql(f"SELECT * EXCLUDE (study) FROM {table} WHERE study = $s", params={"s": study}).df()
        if table_exists(con, table)
        else pd.DataFrame(columns=names(columns)[1:])
        for table, columns in TABLES.items()
    ]
    return StudyCalibration(*frames)
