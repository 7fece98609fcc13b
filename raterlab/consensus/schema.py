"""The gold tables this package writes, column by column: one definition, three uses.

Each table is a list of :class:`Column` (name, DuckDB type, description). The same list
creates the table (:func:`ddl`), documents it in ``docs/gold_tables.md`` and in the Dagster
UI (``dagster/column_schema``), so the three never drift apart. ``gold.labels`` (written by
the ingest) is listed here for documentation only.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    description: str


STATUSES = (
    "unanimous",
    "majority",
    "adjudicated",
    "tie_broken",
    "single",
    "unresolved",
    "excluded",
)
"""Every status a consensus row may have."""

RESOLVED = ("unanimous", "majority", "adjudicated", "tie_broken", "single")
"""Statuses that carry a value."""

METHODS = (
    "adjudicator",
    "majority",
    "median",
    "mean",
    "higher_confidence",
    "nearest_down",
    "nearest_up",
    "single_rating",
    "dawid_skene",
)
"""How a consensus value was reached (``NULL`` where there is no value); the three
``consensus.likert_between`` rules name a Likert median or mean settled onto the scale."""


ITEMS = (
    Column("study", "VARCHAR", "Study name (the YAML file's `name`)."),
    Column("item_id", "VARCHAR", "The item's id in the generations file (unblinded)."),
    Column("task", "VARCHAR", "Task of the item (a key of the study's `tasks`)."),
    Column("tier", "VARCHAR", "Routing tier (e.g. GOLD, TRIAGE) from `staging.routed_items`."),
    Column("tier_rule", "VARCHAR", "The routing rule that set the tier, or `routing.default`."),
    Column("stratum", "VARCHAR", "Sampling stratum (`key=value|...`), empty without sampling."),
    Column("condition", "VARCHAR", "The item's `condition` key (e.g. A or B), if it has one."),
    Column("model", "VARCHAR", "The item's `model` key (else its `system` key), if any."),
    Column(
        "category",
        "VARCHAR",
        "The item's `category` key, else its first slice key that is an item key other "
        "than condition and model (empathy: `emotion_category`; gold_tiers: `domain`; "
        "plugin_triggers: `maturity`).",
    ),
    Column("record", "JSON", "The whole unblinded item: every shown and hidden key."),
    Column(
        "n_assigned",
        "INTEGER",
        "Copy-0 `item` rows assigned for the item (pilot, main and third-annotator rounds; of "
        "a repeated pilot, the latest round).",
    ),
    Column("n_raters", "INTEGER", "Distinct annotators whose rating of the item counts."),
    Column("n_fields", "INTEGER", "Rating fields of the item's task."),
    Column("n_resolved", "INTEGER", "Rating fields with a consensus value."),
    Column("adjudicated", "BOOLEAN", "An adjudicator decided at least one field."),
    Column("tie_broken", "BOOLEAN", "A third annotator's rating broke a tie on some field."),
    Column(
        "status",
        "VARCHAR",
        "`resolved` (every field has a value), `unresolved` (some field has none), "
        "`excluded` (some field was excluded by `consensus.unresolved: exclude`), "
        "`unrated` (no rating yet).",
    ),
)

CONSENSUS = (
    Column("study", "VARCHAR", "Study name."),
    Column("task", "VARCHAR", "Task of the item."),
    Column("item_id", "VARCHAR", "The item's id."),
    Column("field", "VARCHAR", "A rating field of the task (binary, Likert or categorical)."),
    Column(
        "value",
        "VARCHAR",
        "The consensus value as text: `0`/`1` (binary), a label (categorical), a point of "
        "the scale (Likert: never fractional; a median or mean between two points is "
        "settled by `consensus.likert_between`). NULL when the status is `unresolved` or "
        "`excluded`.",
    ),
    Column("value_num", "DOUBLE", "`value` as a number (binary and Likert), else NULL."),
    Column(
        "rating_mean",
        "DOUBLE",
        "Unrounded mean of the counted ratings (binary: share of 1s; Likert: e.g. 4.5 for "
        "a 4 and a 5), whatever the consensus; NULL for categorical fields.",
    ),
    Column("status", "VARCHAR", "One of: " + ", ".join(f"`{s}`" for s in STATUSES) + "."),
    Column(
        "n_ratings",
        "INTEGER",
        "Ratings that count: `kind = 'item'`, `copy = 0`, a value other than `skip` "
        "(duplicates, attention and calibration rows never count).",
    ),
    Column(
        "method",
        "VARCHAR",
        "How the value was reached: " + ", ".join(f"`{m}`" for m in METHODS) + "; NULL "
        "without a value.",
    ),
    Column(
        "confidence",
        "DOUBLE",
        "Policy: share of the counted ratings that support the value (Likert: within half a "
        "point); `dawid_skene`: the posterior probability of the value. NULL without a value.",
    ),
    Column(
        "reason",
        "VARCHAR",
        "Why the field was disputed (`likert_gap`, `binary_disagreement`, `uncertain`, "
        "comma-separated) and, when it has no value, why (e.g. `tie; tier TRIAGE is not "
        "adjudicated`, `awaiting adjudication`).",
    ),
    Column(
        "policy_value",
        "VARCHAR",
        "The value under the study's policy (as `value` when "
        "`consensus.method` is `policy`), kept for comparison.",
    ),
    Column(
        "ds_value",
        "VARCHAR",
        "Dawid-Skene (1979) posterior mode from the task's ratings, for comparison "
        "(NULL without ratings).",
    ),
    Column("ds_confidence", "DOUBLE", "Dawid-Skene posterior probability of `ds_value`."),
    Column("computed_at", "TIMESTAMPTZ", "When this consensus was computed."),
)

ADJUDICATIONS = (
    Column("study", "VARCHAR", "Study name."),
    Column("task", "VARCHAR", "Task of the item."),
    Column("item_id", "VARCHAR", "The item's id (unblinded from the case token)."),
    Column("field", "VARCHAR", "The disputed rating field decided."),
    Column("value", "VARCHAR", "The decision in canonical form (`0`/`1`, a label, an integer)."),
    Column("value_num", "DOUBLE", "The decision as a number (binary and Likert), else NULL."),
    Column("rationale", "VARCHAR", "The adjudicator's required rationale."),
    Column("adjudicator_id", "VARCHAR", "Who decided (as written in the returned file)."),
    Column("batch", "VARCHAR", "Adjudication batch of the packet (`adj-001`, ...)."),
    Column("case_token", "VARCHAR", "The opaque case id the packet showed."),
    Column("source_file", "VARCHAR", "Name of the returned decisions file."),
    Column("source_sha256", "VARCHAR", "Content hash of that file (its archived copy's name)."),
    Column("source_row", "BIGINT", "Spreadsheet row (header = 1) or JSONL line of the decision."),
    Column("decided_at", "TIMESTAMPTZ", "When the decision was ingested."),
)

ADJUDICATION_HISTORY = (
    *ADJUDICATIONS,
    Column(
        "replaced_at", "TIMESTAMPTZ", "When a later decision on the same item and field came in."
    ),
    Column("replaced_by_file", "VARCHAR", "The decisions file that replaced this decision."),
    Column("replaced_by_sha256", "VARCHAR", "Content hash of that file."),
)
"""Every decision a later one replaced (same study, task, item and field), as it was."""

LABELS = (
    Column("study", "VARCHAR", "Study name."),
    Column("rating_id", "BIGINT", "Id of the rating (one returned row), shared by its fields."),
    Column("task", "VARCHAR", "Task of the item."),
    Column("item_id", "VARCHAR", "The item's id (unblinded through the sealed key)."),
    Column("annotator_id", "VARCHAR", "Who rated."),
    Column("field", "VARCHAR", "The field (every field of the task except confidence)."),
    Column("value", "VARCHAR", "Canonical text: `0`/`1`, an integer, a label, `skip`, text."),
    Column("value_num", "DOUBLE", "The value as a number (binary, Likert), else NULL."),
    Column("confidence", "VARCHAR", "The rating's confidence (`low`, `medium`, `high`)."),
    Column("time_spent_s", "DOUBLE", "Seconds the annotator reported for the row."),
    Column("notes", "VARCHAR", "The row's free-text fields (`field: text` lines if several)."),
    Column(
        "kind",
        "VARCHAR",
        "`item` (counts toward consensus), `duplicate` (hidden second copy), `attention`, "
        "`calibration`.",
    ),
    Column("copy", "INTEGER", "0 for the first copy, 1 for a hidden duplicate."),
    Column("round", "VARCHAR", "`pilot`, `main`, `tiebreak` (third annotator) or `import`."),
    Column(
        "batch",
        "VARCHAR",
        "Packet batch (`pilot`, `main-01`, `extra-01` for a third annotator, `import:<file>`).",
    ),
    Column("token", "VARCHAR", "The opaque item token the packet showed."),
    Column("source_file", "VARCHAR", "Returned file the rating came from."),
    Column("source_sha256", "VARCHAR", "Content hash of that file."),
    Column("source_row", "BIGINT", "Its spreadsheet row (header = 1) or JSONL line."),
    Column("ingested_at", "TIMESTAMPTZ", "When the file was ingested."),
)

TABLES: dict[str, tuple[Column, ...]] = {
    "gold.items": ITEMS,
    "gold.consensus": CONSENSUS,
    "gold.adjudications": ADJUDICATIONS,
    "gold.adjudication_history": ADJUDICATION_HISTORY,
}
"""Tables this package creates (``gold.labels`` is the ingest's)."""


def ddl(columns: tuple[Column, ...]) -> str:
    return ", ".join(f'"{c.name}" {c.type}' for c in columns)


def names(columns: tuple[Column, ...]) -> list[str]:
    return [c.name for c in columns]


def ensure_gold_tables(con: duckdb.DuckDBPyConnection) -> None:
    """Create the gold tables of this package (typed, empty) if they do not exist."""
    con.execute("CREATE SCHEMA IF NOT EXISTS gold")
    for table, columns in TABLES.items():
        con.execute(f"CREATE TABLE IF NOT EXISTS {table} ({ddl(columns)})")
        for c in columns:  # a warehouse made before a column was added gains it
            con.execute(f'ALTER TABLE {table} ADD COLUMN IF NOT EXISTS "{c.name}" {c.type}')


def markdown_table(columns: tuple[Column, ...]) -> str:
    """A column table for the docs."""
    lines = ["| column | type | meaning |", "|---|---|---|"]
    lines += [f"| `{c.name}` | {c.type} | {c.description} |" for c in columns]
    return "\n".join(lines)
