"""``gold.judge_calibration`` and ``gold.judge_weights``: column lists (DDL, docs and the
Dagster column schema come from them) and one study's write."""

from __future__ import annotations

from dataclasses import dataclass

import duckdb
import pandas as pd

from raterlab.consensus.schema import Column, ddl, names
from raterlab.warehouse import replace_study_rows, table_exists

CALIBRATION = (
    Column("study", "VARCHAR", "Study name."),
    Column("task", "VARCHAR", "Task of the field (NULL from `raterlab calibrate`)."),
    Column("judge", "VARCHAR", "Judge name (`judges.panel` of the study)."),
    Column("field", "VARCHAR", "Human rating field the judge predicts."),
    Column(
        "slice", "VARCHAR", "`all`, or `key=level` for a slice of the study (e.g. `tier=GOLD`)."
    ),
    Column(
        "level",
        "VARCHAR",
        "`item` (units pooled), `group` (within each group, averaged over groups), "
        "`system` (per-system means).",
    ),
    Column(
        "statistic",
        "VARCHAR",
        "`pearson`, `spearman`, `kendall` (tau-b), `kappa`, `accuracy`, `precision`, "
        "`recall`, `confusion`, `bias`, `brier`, `ece`, `valid_rate`, `human_ties`, "
        "`alt_winning_rate`, `alt_advantage_probability`, or `<statistic>_diff` (this "
        "judge minus `versus`).",
    ),
    Column(
        "label",
        "VARCHAR",
        "Class of per-label rows (`precision`, `recall`, `bias`), `judge|human` for "
        "`confusion`, the system (graded) or `system|class` for `bias` at level `system`, "
        "`epsilon=..` for the alternative annotator test.",
    ),
    Column("versus", "VARCHAR", "The other judge of a `_diff` row."),
    Column(
        "n",
        "BIGINT",
        "Units compared (systems at level `system`; judged instances for the alternative "
        "annotator test; verdicts given for `valid_rate`).",
    ),
    Column(
        "n_groups",
        "BIGINT",
        "Groups where the statistic is defined (level `group`); annotators tested "
        "(alternative annotator test).",
    ),
    Column("estimate", "DOUBLE", "The statistic on the data."),
    Column(
        "ci_low",
        "DOUBLE",
        "Lower end of the bootstrap percentile interval (Wilson for `valid_rate`).",
    ),
    Column("ci_high", "DOUBLE", "Upper end of the interval."),
    Column(
        "human_ceiling",
        "DOUBLE",
        "Mean over annotators of the same statistic between one annotator and the "
        "aggregate of the others (leave one annotator out).",
    ),
    Column("ceiling_low", "DOUBLE", "Lower end of the ceiling's bootstrap interval."),
    Column("ceiling_high", "DOUBLE", "Upper end of the ceiling's interval."),
    Column(
        "human_alpha",
        "DOUBLE",
        "Krippendorff's alpha among the humans at the field's level of measurement (item level).",
    ),
    Column(
        "within_human_range", "BOOLEAN", "The judge's estimate is at least the ceiling's lower end."
    ),
    Column(
        "p_value", "DOUBLE", "`_diff` rows: two-sided paired-bootstrap p-value of no difference."
    ),
    Column(
        "williams_t",
        "DOUBLE",
        "`pearson_diff` rows: Williams' t of the two dependent correlations.",
    ),
    Column("williams_p", "DOUBLE", "Two-sided p-value of Williams' t (n - 3 degrees of freedom)."),
    Column("computed_at", "TIMESTAMPTZ", "When the calibration was computed."),
)

WEIGHTS = (
    Column("study", "VARCHAR", "Study name."),
    Column("task", "VARCHAR", "Task of the field."),
    Column("judge", "VARCHAR", "Judge name."),
    Column("field", "VARCHAR", "Human rating field."),
    Column("n", "BIGINT", "Units with both a judge verdict and a consensus value."),
    Column(
        "agreement_statistic", "VARCHAR", "`kappa` (binary, categorical) or `spearman` (Likert)."
    ),
    Column("agreement", "DOUBLE", "The judge against the consensus (`gold.consensus`)."),
    Column("alpha_humans", "DOUBLE", "Krippendorff's alpha among the humans at the field's level."),
    Column("alpha_with_judge", "DOUBLE", "The same alpha with the judge added as one more rater."),
    Column("alpha_drop", "DOUBLE", "`alpha_humans - alpha_with_judge`."),
    Column("flagged", "BOOLEAN", "Outside the study's `judges.bounds`."),
    Column("reason", "VARCHAR", "Which bound it breaks."),
    Column(
        "weight",
        "DOUBLE",
        "`max(agreement, 0)`, times `judges.deweight` when flagged.",
    ),
    Column(
        "share",
        "DOUBLE",
        "The weights normalised to sum to 1 over the field's judges (0 when all are 0).",
    ),
    Column("computed_at", "TIMESTAMPTZ", "When the weights were computed."),
)


@dataclass
class StudyCalibration:
    """One study's ``calibration`` (gold.judge_calibration rows) and ``weights``
    (gold.judge_weights rows), without ``study`` and ``computed_at``."""

    calibration: pd.DataFrame
    weights: pd.DataFrame

    def flagged(self) -> pd.DataFrame:
        return self.weights[self.weights["flagged"].astype(bool)]


TABLES = {"gold.judge_calibration": CALIBRATION, "gold.judge_weights": WEIGHTS}


def ensure_judge_tables(con: duckdb.DuckDBPyConnection) -> None:
    con.execute("CREATE SCHEMA IF NOT EXISTS gold")
    for table, columns in TABLES.items():
        con.execute(f"CREATE TABLE IF NOT EXISTS {table} ({ddl(columns)})")


def write_calibration(
    con: duckdb.DuckDBPyConnection, study: str, result: StudyCalibration
) -> dict[str, int]:
    """Replace ``study``'s rows of both tables, each in one transaction."""
    ensure_judge_tables(con)
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
