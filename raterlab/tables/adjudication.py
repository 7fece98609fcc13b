"""Tables of adjudication: the dispute queue, the packets issued (adjudication cases and
third-annotator rows), the decisions files received, the decisions in force and those a
later decision replaced."""

from __future__ import annotations

from raterlab.tables import fields as f
from raterlab.tables.design import PACKET_FILE_COLUMNS
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
    f.VERSION_AT.described(
        "Version of the decisions file (its modification time, capped at arrival): a newer "
        "decision replaces this one, an older one does not."
    ),
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
    "Every decision no longer in force: replaced by a newer one, or older than the one in "
    "force when it arrived.",
    grain="decision no longer in force",
    written_by="adjudications",
    columns=(
        *_DECISION,
        Column(
            "change",
            f.VARCHAR,
            "Why: `replaced` (a newer decision came in) or `older_than_current` (it arrived "
            "after a newer decision); NULL in warehouses written before this column.",
        ),
        f.REPLACED_AT.described("When the decision that replaced (or outranked) it came in."),
        f.REPLACED_BY_FILE.described("The decisions file whose decision is in force instead."),
        f.REPLACED_BY_SHA256,
    ),
    details="Same study, task, item and field as the decision in force instead, with when and "
    "by which file. Decisions follow the ratings' version rule: the newer file wins, a tie "
    "goes to the one that arrives later. `gold.adjudications` holds only the current decision.",
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
        Column(
            "n_older",
            f.BIGINT,
            "Of them, decisions older than the one in force (kept in history, not applied).",
        ),
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

_DISPUTE = (
    f.STUDY,
    f.TASK,
    f.ITEM_ID,
    f.FIELD.described("The disputed rating field."),
)
_REASONS = Column(
    "reasons",
    f.VARCHAR,
    "Why it is disputed (`likert_gap`, `binary_disagreement`, `uncertain`...), comma-separated.",
)
_AGREEMENT = Column("agreement", f.DOUBLE, "Share of the counted ratings that agree.")
_N_RATINGS = Column("n_ratings", f.BIGINT, "Counted ratings of the field.")

ADJUDICATION_QUEUE = Table(
    "staging.adjudication_queue",
    "Disputed fields by the study's `consensus.adjudicate` rule, lowest agreement first.",
    grain="disputed (item, field)",
    written_by="adjudication_queue",
    columns=(
        *_DISPUTE,
        f.TIER,
        _REASONS,
        _AGREEMENT,
        _N_RATINGS,
        Column("status", f.VARCHAR, "The field's consensus status before adjudication."),
        Column("route", f.VARCHAR, "`adjudicator` or `third_annotator`."),
        Column(
            "state",
            f.VARCHAR,
            "`open`, `issued`, `awaiting_rating` (open states) or a settled state.",
        ),
        f.BATCH.described("The adjudication or third-annotator batch it went out in, if any."),
        Column("priority", f.BIGINT, "Its place in the queue (1 first)."),
    ),
    key=("study", "task", "item_id", "field"),
)

ADJUDICATION_KEY = Table(
    "staging.adjudication_key",
    "The sealed key of adjudication packets: each case token's item and field.",
    grain="adjudication case issued",
    written_by="adjudication_packets",
    columns=(
        f.STUDY,
        f.BATCH.described("Adjudication batch (`adj-001`, ...)."),
        Column("case_token", f.VARCHAR, "The opaque case id the packet shows."),
        *_DISPUTE[1:],
        _REASONS,
        _AGREEMENT,
        _N_RATINGS,
        Column("position", f.BIGINT, "Row position in the packet."),
        Column("issued_at", f.TIMESTAMPTZ, "When the packet was issued."),
    ),
    key=("study", "case_token", "field"),
)

TIEBREAK_ASSIGNMENTS = Table(
    "staging.tiebreak_assignments",
    "Third-annotator rows issued, kept so a re-sealed key keeps them.",
    grain="third-annotator row issued",
    written_by="adjudication_packets",
    columns=(
        f.STUDY,
        f.ANNOTATOR_ID.described("The third annotator."),
        f.ROUND.described("`tiebreak`."),
        f.BATCH.described("Third-annotator batch (`extra-01`...)."),
        f.TASK,
        f.ITEM_ID,
        f.TIER,
        f.KIND,
        Column("copy", f.BIGINT, "Always 0."),
        Column("spot_check", f.BOOLEAN, "Always false."),
        Column("issued_at", f.TIMESTAMPTZ, "When the packet was issued."),
    ),
)

TIEBREAK_PACKET_FILES = Table(
    "staging.tiebreak_packet_files",
    "The third-annotator packet files written to the outbox.",
    grain="packet file",
    written_by="adjudication_packets",
    columns=PACKET_FILE_COLUMNS,
    key=("study", "file"),
)

TABLES = (
    ADJUDICATIONS,
    ADJUDICATION_HISTORY,
    ADJUDICATION_FILES,
    ADJUDICATION_ISSUES,
    ADJUDICATION_QUEUE,
    ADJUDICATION_KEY,
    TIEBREAK_ASSIGNMENTS,
    TIEBREAK_PACKET_FILES,
)
