"""Columns that several tables share, declared once (PUDL's ``fields.py`` habit): a table
takes the field as is, or with a description fitting it (:meth:`Column.described`)."""

from __future__ import annotations

from raterlab.tables.model import Column

VARCHAR = "VARCHAR"
BIGINT = "BIGINT"
INTEGER = "INTEGER"
DOUBLE = "DOUBLE"
BOOLEAN = "BOOLEAN"
JSON = "JSON"
TIMESTAMPTZ = "TIMESTAMP WITH TIME ZONE"

STUDY = Column("study", VARCHAR, "Study name (the YAML file's `name`).", nullable=False)
TASK = Column("task", VARCHAR, "Task of the item (a key of the study's `tasks`).")
ITEM_ID = Column("item_id", VARCHAR, "The item's id in the generations file (unblinded).")
ANNOTATOR_ID = Column("annotator_id", VARCHAR, "Who rated (an annotator of the study's design).")
FIELD = Column("field", VARCHAR, "A rating field of the task.")
VALUE = Column("value", VARCHAR, "Canonical text: `0`/`1`, an integer, a label, `skip`, text.")
VALUE_NUM = Column("value_num", DOUBLE, "The value as a number (binary, Likert), else NULL.")
TIER = Column("tier", VARCHAR, "Routing tier (e.g. GOLD, TRIAGE) from `staging.routed_items`.")
SLICE = Column("slice", VARCHAR, "`all`, or `key=value` for a value of a slice key.")
ROUND = Column("round", VARCHAR, "`pilot` (`pilot-2`...), `main`, `tiebreak` or `import`.")
BATCH = Column("batch", VARCHAR, "Packet batch (`pilot`, `main-01`, `extra-01`...).")
KIND = Column(
    "kind",
    VARCHAR,
    "`item` (counts toward consensus), `duplicate` (hidden second copy), `attention`, "
    "`calibration`.",
)
COPY = Column("copy", INTEGER, "0 for the first copy, 1 for a hidden duplicate.")
TOKEN = Column("token", VARCHAR, "The opaque item token the packet showed.")
RATING_ID = Column(
    "rating_id", BIGINT, "Id of the rating (one returned row), shared by its fields."
)
CONFIDENCE = Column("confidence", VARCHAR, "The rating's confidence (`low`, `medium`, `high`).")
TIME_SPENT_S = Column("time_spent_s", DOUBLE, "Seconds the annotator reported for the row.")
NOTES = Column("notes", VARCHAR, "The row's free-text fields (`field: text` lines if several).")
SHA256 = Column("sha256", VARCHAR, "Content hash of the file (its archived copy's name).")
FILE = Column("file", VARCHAR, "Name of the file as received.")
ARCHIVED_PATH = Column("archived_path", VARCHAR, "Where the file's copy is archived.")
SOURCE_FILE = Column("source_file", VARCHAR, "Returned file the row came from.")
SOURCE_SHA256 = Column("source_sha256", VARCHAR, "Content hash of that file.")
SOURCE_ROW = Column("source_row", BIGINT, "Its spreadsheet row (header = 1) or JSONL line.")
VERSION_AT = Column(
    "version_at",
    TIMESTAMPTZ,
    "The file's version: its modification time when received, or its arrival time if that "
    "is earlier (a clock or a zip in the future).",
)
MODIFIED_AT = Column(
    "modified_at", TIMESTAMPTZ, "The file's modification time as found when it was received."
)
REPLACED_AT = Column("replaced_at", TIMESTAMPTZ, "When a later file replaced this row.")
REPLACED_BY_FILE = Column("replaced_by_file", VARCHAR, "The file that replaced it.")
REPLACED_BY_SHA256 = Column("replaced_by_sha256", VARCHAR, "Content hash of that file.")
REPORT = Column("report", VARCHAR, "Path of the file's Markdown report.")
SUPERSEDED_BY = Column(
    "superseded_by", VARCHAR, "Content hash of the file whose rows replaced all of this one's."
)
N_ROWS = Column("n_rows", BIGINT, "Data rows in the file.")
N_ERRORS = Column("n_errors", BIGINT, "Errors reported (any error rejects the file).")
N_WARNINGS = Column("n_warnings", BIGINT, "Warnings reported.")
STATUS = Column("status", VARCHAR, "`accepted`, `rejected` or `superseded`.")
INGESTED_AT = Column("ingested_at", TIMESTAMPTZ, "When the file was ingested.")
COMPUTED_AT = Column("computed_at", TIMESTAMPTZ, "When the row was computed.")
ESTIMATE = Column("estimate", DOUBLE, "The statistic on the data.")
CI_LOW = Column("ci_low", DOUBLE, "Lower end of the 95% interval.")
CI_HIGH = Column("ci_high", DOUBLE, "Upper end of that interval.")
P_VALUE = Column("p_value", DOUBLE, "Two-sided p-value.")
N = Column("n", BIGINT, "Units behind the row.")
N_UNITS = Column("n_units", BIGINT, "Units behind the estimate.")
N_RATERS = Column("n_raters", BIGINT, "Raters behind the estimate.")
RATER_A = Column("rater_a", VARCHAR, "First annotator of the pair.")
RATER_B = Column("rater_b", VARCHAR, "Second annotator of the pair.")
COUNT = Column("count", BIGINT, "Units in this cell.")
BAND = Column("band", VARCHAR, "Landis-Koch band, or the study's `thresholds.bands`.")
NOTE = Column("note", VARCHAR, "Why an estimate is missing, if it is.")
REASON = Column("reason", VARCHAR, "Why.")
FLAGGED = Column("flagged", BOOLEAN, "Flagged by the study's rule.")
RECORD = Column("record", JSON, "The whole unblinded item: every shown and hidden key.")
STRATUM = Column("stratum", VARCHAR, "Sampling stratum (`key=value|...`), empty without sampling.")
TIER_RULE = Column(
    "tier_rule", VARCHAR, "The routing rule that set the tier, or `routing.default`."
)
