"""Tables of the ingest of returned and imported files: what came in (``raw``), what became of
it (``staging``) and the current ratings (``gold``), with the ratings no longer current."""

from __future__ import annotations

from raterlab.tables import fields as f
from raterlab.tables.model import Column, Table

RETURNED_FILES = Table(
    "raw.returned_files",
    "Every file received (returns, imports, adjudication decisions), by content hash.",
    grain="file content received",
    written_by="labels",
    columns=(
        f.STUDY,
        f.SHA256,
        f.FILE,
        f.ARCHIVED_PATH,
        Column("size_bytes", f.BIGINT, "Size of the file."),
        Column("received_at", f.TIMESTAMPTZ, "When the file was received."),
        f.VERSION_AT,
        f.MODIFIED_AT,
    ),
    key=("study", "sha256"),
)

INGESTS = Table(
    "staging.ingests",
    "The outcome of each returned or imported file.",
    grain="returned or imported file",
    written_by="labels",
    columns=(
        f.STUDY,
        f.SHA256,
        f.FILE,
        f.TASK.described("Task of the file's rows."),
        f.STATUS,
        f.N_ROWS,
        Column("n_labels", f.BIGINT, "Label rows (rating and field) the file gave."),
        f.N_ERRORS,
        f.N_WARNINGS,
        Column("packets", f.JSON, "The packets (annotator, batch) the file's rows belong to."),
        f.REPORT,
        f.INGESTED_AT,
        f.SUPERSEDED_BY,
        Column("n_new", f.BIGINT, "Ratings that were new."),
        Column("n_replaced", f.BIGINT, "Ratings that replaced an older rating."),
        Column("n_unchanged", f.BIGINT, "Ratings equal to the rating in place."),
        Column("n_older", f.BIGINT, "Ratings older than the rating in place (kept as history)."),
    ),
    key=("study", "sha256"),
)

INBOX = Table(
    "staging.inbox",
    "Files archived from a study's inbox, waiting for (or past) their ingest.",
    grain="file content found in the inbox",
    written_by="returned_annotations",
    columns=(
        f.STUDY,
        f.SHA256,
        f.FILE,
        f.ARCHIVED_PATH,
        Column("received_at", f.TIMESTAMPTZ, "When the file was archived from the inbox."),
        f.VERSION_AT,
        f.MODIFIED_AT,
    ),
    key=("study", "sha256"),
)

ISSUE_COLUMNS = (
    f.STUDY,
    f.SHA256,
    f.FILE,
    Column("row", f.BIGINT, "Spreadsheet row (header = 1) or JSONL line; NULL for the file."),
    Column("column", f.VARCHAR, "Column concerned, if one."),
    Column("rule", f.VARCHAR, "The rule broken (e.g. `in_scale`, `conditional`)."),
    Column("value", f.VARCHAR, "The offending value, as written."),
    Column("message", f.VARCHAR, "What is wrong and how to fix it."),
    Column("severity", f.VARCHAR, "`error` (rejects the file) or `warning`."),
)
"""Columns of an issues table (``staging.ingest_issues``, ``staging.adjudication_issues``)."""

INGEST_ISSUES = Table(
    "staging.ingest_issues",
    "Every error and warning reported for a returned or imported file.",
    grain="issue of a file",
    written_by="labels",
    columns=ISSUE_COLUMNS,
)

LABEL_COLUMNS = (
    f.STUDY,
    f.RATING_ID,
    f.TASK,
    f.ITEM_ID.described("The item's id (unblinded through the sealed key)."),
    f.ANNOTATOR_ID,
    f.FIELD.described("The field (every field of the task except confidence)."),
    f.VALUE,
    f.VALUE_NUM,
    f.CONFIDENCE,
    f.TIME_SPENT_S,
    f.NOTES,
    f.KIND,
    f.COPY,
    f.ROUND,
    f.BATCH.described(
        "Packet batch (`pilot`, `main-01`, `extra-01` for a third annotator, `import:<file>`)."
    ),
    f.TOKEN,
    f.SOURCE_FILE.described("Returned file the rating came from."),
    f.SOURCE_SHA256,
    f.SOURCE_ROW,
    f.INGESTED_AT,
)
"""``gold.labels``: a rating's columns and one field's value; the two tables it joins split
them (:data:`VALUE_COLUMNS` in ``gold.rating_values``, the rest in ``gold.ratings``)."""

VALUE_COLUMNS = ("field", "value", "value_num")

RATINGS = Table(
    "gold.ratings",
    "The current rating per (task, annotator, batch, item, copy), with its provenance.",
    grain="current rating",
    written_by="labels",
    columns=(
        *(c for c in LABEL_COLUMNS if c.name not in VALUE_COLUMNS),
        f.VERSION_AT.described(
            "Version (modification time, capped at arrival) of the newest file that gave this "
            "rating: the file it came from, or a newer one that said the same."
        ),
        Column(
            "fingerprint",
            f.VARCHAR,
            "The rating's field values as one text; with its confidence, time spent and "
            "notes, what finds unchanged rows (in warehouses written before 2026-11-26, an "
            "MD5 of all of them).",
        ),
    ),
    key=("study", "rating_id"),
)

RATING_VALUES = Table(
    "gold.rating_values",
    "The field values of each current rating.",
    grain="current rating and field",
    written_by="labels",
    columns=tuple(c for c in LABEL_COLUMNS if c.name in ("study", "rating_id", *VALUE_COLUMNS)),
    key=("study", "rating_id", "field"),
)

LABELS = Table(
    "gold.labels",
    "The long form of every current rating: `gold.ratings` joined to `gold.rating_values`.",
    grain="rating (item, annotator, copy) and field",
    written_by="labels",
    columns=LABEL_COLUMNS,
    key=("study", "rating_id", "field"),
    details="The confidence field is a column of its own, not a row.",
    view=True,
)

RATING_HISTORY = Table(
    "gold.rating_history",
    "Every rating that is no longer current, in the long form of `gold.labels`.",
    grain="rating and field no longer current",
    written_by="labels",
    columns=(
        *LABEL_COLUMNS,
        f.VERSION_AT.described(
            "Version of the file it came from (its modification time, capped at arrival)."
        ),
        Column("change", f.VARCHAR, "Why: `replaced`, `older_than_current` or `withdrawn`."),
        f.REPLACED_AT,
        f.REPLACED_BY_FILE,
        f.REPLACED_BY_SHA256,
    ),
)

WIDE_RATINGS = Table(
    "gold.<study>__<task>",
    "Wide ratings of one task of one study: a column per field.",
    grain="rating (item, annotator, copy) of the task",
    written_by="labels",
    columns=tuple(
        LABELS.column(name)
        for name in (
            "item_id",
            "annotator_id",
            "kind",
            "copy",
            "round",
            "batch",
            "confidence",
            "time_spent_s",
        )
    ),
    view=True,
    study_columns="Then one column per field of the task except confidence, in the study "
    "file's order (its canonical `value`), then `source_file`.",
)

HELD_RATINGS = Table(
    "staging.held_ratings",
    "Stored ratings whose values the study file's current rules reject.",
    grain="rating, field and rule broken",
    written_by="raterlab ingest, and the study_protocol and ingest assets",
    columns=(
        f.STUDY,
        Column("rating_id", f.BIGINT, "The rating (`gold.ratings`)."),
        f.TASK,
        f.ITEM_ID,
        f.ANNOTATOR_ID,
        f.BATCH,
        Column("copy", f.BIGINT, "0, or 1 for a hidden duplicate."),
        f.FIELD.described("The field whose stored value the rules reject."),
        f.VALUE.described("The stored value."),
        Column("rule", f.VARCHAR, "The rule it breaks (`range`, `type`, `allowed_values`)."),
        Column("message", f.VARCHAR, "The rule's message, as an ingest report gives it."),
        Column("checked_at", f.TIMESTAMPTZ, "When the study file was checked against it."),
    ),
    key=("study", "rating_id", "field", "rule"),
    details="Written when a study file edited after ratings came in is checked against "
    "them (each ingest, the `study_protocol` asset; `raterlab study check` shows the same "
    "without writing), replacing the study's rows. These values are held out of the "
    "ratings that count for consensus and its exports until a newer return replaces them "
    "or the rules take them back. The check uses the ingest's rules of one cell (type, "
    "range, allowed values); conditionals and constraints are not re-checked.",
)

UNPUBLISHED = Table(
    "staging.unpublished",
    "Gold tables written since `published.duckdb` last took them.",
    grain="gold table not yet published",
    written_by="raterlab ingest, and every step that writes gold tables",
    columns=(
        Column("table_name", f.VARCHAR, "The gold table (`gold.name`).", nullable=False),
        Column("written_at", f.TIMESTAMPTZ, "When it was first written after its last publish."),
    ),
    key=("table_name",),
    details="A committed write records the gold tables it wrote here, in its own transaction; "
    "publishing removes them once the new `published.duckdb` is in place. A publish that "
    "failed (a full disk) leaves them, so the next publish, or the next command or run that "
    "finds them (`raterlab ingest` of a file already in, the ingest job), copies them.",
)

TABLES = (
    RETURNED_FILES,
    INBOX,
    INGESTS,
    INGEST_ISSUES,
    RATINGS,
    RATING_VALUES,
    LABELS,
    WIDE_RATINGS,
    RATING_HISTORY,
    HELD_RATINGS,
    UNPUBLISHED,
)


LABELS_SELECT = ", ".join(
    f"{'v' if c.name in VALUE_COLUMNS else 'r'}.{c.name}" for c in LABEL_COLUMNS
)
"""The columns of ``gold.labels`` from ``gold.ratings r`` and ``gold.rating_values v``."""

LABELS_VIEW = (
    f"CREATE OR REPLACE VIEW {LABELS.name} AS SELECT {LABELS_SELECT} "
    f"FROM {RATINGS.name} r JOIN {RATING_VALUES.name} v USING (study, rating_id)"
)
"""``gold.labels``: the long form, one row per rating and field, with the rating's provenance."""
