"""Tables of adjudication: the decisions in force, those a later decision replaced, and the
decisions files received."""

from __future__ import annotations

from raterlab.tables import fields as f
from raterlab.tables.ingest import ISSUE_COLUMNS
from raterlab.tables.model import Column, Table

_DECISION = (
    f.STUDY,
    f.TASK,
    f.ITEM_ID.described("The item's id (unblinded from the case token)."),
    f.FIELD.described("The disputed rating field decided."),
    f.VALUE.described("The decision in canonical form (`0`/`1`, a label, an integer)."),
    f.VALUE_NUM.described("The decision as a number (binary and Likert), else NULL."),
    Column("rationale", f.VARCHAR, "The adjudicator's required rationale."),
    Column("adjudicator_id", f.VARCHAR, "Who decided (as written in the returned file)."),
    f.BATCH.described("Adjudication batch of the packet (`adj-001`, ...)."),
    Column("case_token", f.VARCHAR, "The opaque case id the packet showed."),
    f.SOURCE_FILE.described("Name of the returned decisions file."),
    f.SOURCE_SHA256.described("Content hash of that file (its archived copy's name)."),
    f.SOURCE_ROW.described("Spreadsheet row (header = 1) or JSONL line of the decision."),
    Column("decided_at", f.TIMESTAMPTZ, "When the decision was ingested."),
)

ADJUDICATIONS = Table(
    "gold.adjudications",
    "The adjudicator's decision in force per disputed item and field.",
    grain="decided (item, field)",
    written_by="adjudications",
    columns=_DECISION,
    key=("study", "task", "item_id", "field"),
)

ADJUDICATION_HISTORY = Table(
    "gold.adjudication_history",
    "Every decision a later decisions file replaced, as it was.",
    grain="decision a later decision replaced",
    written_by="adjudications",
    columns=(
        *_DECISION,
        f.REPLACED_AT.described("When a later decision on the same item and field came in."),
        f.REPLACED_BY_FILE.described("The decisions file that replaced this decision."),
        f.REPLACED_BY_SHA256,
    ),
    details="Same study, task, item and field as the decision that replaced it, with when and "
    "by which file it was replaced. `gold.adjudications` holds only the current decision.",
)

ADJUDICATION_FILES = Table(
    "staging.adjudication_files",
    "The outcome of each returned decisions file.",
    grain="decisions file",
    written_by="adjudications",
    columns=(
        f.STUDY,
        f.SHA256,
        f.FILE,
        f.ARCHIVED_PATH,
        Column("batches", f.VARCHAR, "Adjudication batches the file's rows belong to."),
        f.STATUS,
        f.N_ROWS,
        Column("n_decisions", f.BIGINT, "Decisions the file gave."),
        f.N_ERRORS,
        f.N_WARNINGS,
        f.REPORT,
        f.INGESTED_AT,
        f.SUPERSEDED_BY,
    ),
    key=("study", "sha256"),
)

ADJUDICATION_ISSUES = Table(
    "staging.adjudication_issues",
    "Every error and warning reported for a decisions file.",
    grain="issue of a decisions file",
    written_by="adjudications",
    columns=ISSUE_COLUMNS,
)

TABLES = (ADJUDICATIONS, ADJUDICATION_HISTORY, ADJUDICATION_FILES, ADJUDICATION_ISSUES)
