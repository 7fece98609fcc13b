"""Tables of the consensus: the gold items, one value per item and rating field, their views,
and how well a simulated study's planted truth is recovered."""

from __future__ import annotations

from raterlab.tables import fields as f
from raterlab.tables.model import Column, Table

STATUSES = (
    "unanimous",
    "majority",
    "adjudicated",
    "tie_broken",
    "single",
    "model_override",
    "unresolved",
    "excluded",
)
"""Every status a consensus row may have."""

RESOLVED = ("unanimous", "majority", "adjudicated", "tie_broken", "single", "model_override")
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

ITEMS = Table(
    "gold.items",
    "Every sampled item of the study, with its routing, its keys and how far it is resolved.",
    grain="sampled item",
    written_by="consensus",
    columns=(
        f.STUDY,
        f.ITEM_ID,
        f.TASK,
        f.TIER,
        f.TIER_RULE,
        f.STRATUM,
        Column("condition", f.VARCHAR, "The item's `condition` key (e.g. A or B), if it has one."),
        Column("model", f.VARCHAR, "The item's `model` key (else its `system` key), if any."),
        Column(
            "category",
            f.VARCHAR,
            "The item's `category` key, else its first slice key that is an item key other "
            "than condition and model (empathy: `emotion_category`; gold_tiers: `domain`; "
            "plugin_triggers: `maturity`).",
        ),
        f.RECORD,
        Column(
            "n_assigned",
            f.INTEGER,
            "Copy-0 `item` rows assigned for the item (pilot, main and third-annotator rounds; "
            "of a repeated pilot, the latest round).",
        ),
        Column("n_raters", f.INTEGER, "Distinct annotators whose rating of the item counts."),
        Column("n_fields", f.INTEGER, "Rating fields of the item's task."),
        Column("n_resolved", f.INTEGER, "Rating fields with a consensus value."),
        Column("adjudicated", f.BOOLEAN, "An adjudicator decided at least one field."),
        Column("tie_broken", f.BOOLEAN, "A third annotator's rating broke a tie on some field."),
        Column(
            "status",
            f.VARCHAR,
            "`resolved` (every field has a value), `unresolved` (some field has none), "
            "`excluded` (some field was excluded by `consensus.unresolved: exclude`), "
            "`unrated` (no rating yet).",
            nullable=False,
        ),
    ),
    key=("study", "item_id"),
    details="Attention and calibration items are not gold.",
)

CONSENSUS = Table(
    "gold.consensus",
    "One value and a status per item and rating field, by the study's consensus policy.",
    grain="rated item and rating field",
    written_by="consensus",
    columns=(
        f.STUDY,
        f.TASK,
        f.ITEM_ID.described("The item's id."),
        f.FIELD.described("A rating field of the task (binary, Likert or categorical)."),
        f.VALUE.described(
            "The consensus value as text: `0`/`1` (binary), a label (categorical), a point of "
            "the scale (Likert: never fractional; a median or mean between two points is "
            "settled by `consensus.likert_between`). NULL when the status is `unresolved` or "
            "`excluded`."
        ),
        f.VALUE_NUM.described("`value` as a number (binary and Likert), else NULL."),
        Column(
            "rating_mean",
            f.DOUBLE,
            "Unrounded mean of the counted ratings (binary: share of 1s; Likert: e.g. 4.5 for "
            "a 4 and a 5), whatever the consensus; NULL for categorical fields.",
        ),
        Column(
            "status",
            f.VARCHAR,
            "One of: " + ", ".join(f"`{s}`" for s in STATUSES) + ".",
            nullable=False,
        ),
        Column(
            "n_ratings",
            f.INTEGER,
            "Ratings that count: `kind = 'item'`, `copy = 0`, a value other than `skip` "
            "(duplicates, attention and calibration rows never count).",
        ),
        Column(
            "method",
            f.VARCHAR,
            "How the value was reached: " + ", ".join(f"`{m}`" for m in METHODS) + "; NULL "
            "without a value.",
        ),
        Column(
            "confidence",
            f.DOUBLE,
            "Policy: share of the counted ratings that support the value (Likert: within half "
            "a point); `dawid_skene`: the posterior probability of the value. NULL without a "
            "value.",
        ),
        f.REASON.described(
            "Why the field was disputed (`likert_gap`, `binary_disagreement`, `uncertain`, "
            "comma-separated) and, when it has no value, why (e.g. `tie; tier TRIAGE is not "
            "adjudicated`, `awaiting adjudication`)."
        ),
        Column(
            "policy_value",
            f.VARCHAR,
            "The value under the study's policy (as `value` when `consensus.method` is "
            "`policy`), kept for comparison.",
        ),
        Column(
            "ds_value",
            f.VARCHAR,
            "Dawid-Skene (1979) posterior mode from the task's ratings, for comparison (NULL "
            "without ratings, or when the field's fit did not converge).",
        ),
        Column("ds_confidence", f.DOUBLE, "Dawid-Skene posterior probability of `ds_value`."),
        f.COMPUTED_AT.described("When this consensus was computed."),
    ),
    key=("study", "task", "item_id", "field"),
    details="Statuses: `unanimous`, `majority`, `adjudicated`, `tie_broken`, `single`, "
    "`model_override` carry a value; `unresolved` and `excluded` do not.",
)

_ITEM_KEYS = ("tier", "condition", "model", "category", "stratum")

CONSENSUS_ITEMS = Table(
    "gold.consensus_items",
    "`gold.consensus` with the item's `tier`, `condition`, `model`, `category`, `stratum`.",
    grain="rated item and rating field",
    written_by="consensus",
    columns=(*CONSENSUS.columns, *(ITEMS.column(name) for name in _ITEM_KEYS)),
    key=CONSENSUS.key,
    view=True,
)

CONSENSUS_BY_CONDITION = Table(
    "gold.consensus_by_condition",
    "Consensus per study, task, field, category and condition.",
    grain="task, field, category and condition",
    written_by="consensus",
    columns=(
        f.STUDY,
        f.TASK,
        f.FIELD,
        ITEMS.column("category"),
        ITEMS.column("condition"),
        Column("n_items", f.BIGINT, "Items with a consensus row."),
        Column("n_resolved", f.BIGINT, "Of those, items with a value."),
        Column(
            "mean_value",
            f.DOUBLE,
            "Mean consensus over resolved items (for a binary field the share of 1s).",
        ),
        Column("sd_value", f.DOUBLE, "Sample standard deviation of the consensus values."),
        Column("modal_value", f.VARCHAR, "The most frequent consensus value."),
        Column("n_adjudicated", f.BIGINT, "Items an adjudicator decided."),
    ),
    unique=(("study", "task", "field", "category", "condition"),),
    view=True,
)

WIDE_CONSENSUS = Table(
    "gold.<study>__<task>__consensus",
    "Wide consensus of one task of one study: a column per rating field.",
    grain="item of the task",
    written_by="consensus",
    columns=(
        f.ITEM_ID,
        *(ITEMS.column(name) for name in ("tier", "condition", "model", "category")),
        Column("item_status", f.VARCHAR, "The item's `status` in `gold.items`."),
    ),
    key=("item_id",),
    view=True,
    study_columns="Then, per rating field of the task in the study file's order, `<field>` "
    "(its consensus: `value_num` for binary and Likert, `value` for categorical) and "
    "`<field>__status`.",
)

CONSENSUS_RECOVERY = Table(
    "staging.consensus_recovery",
    "How often a simulated study's consensus equals its planted truth.",
    grain="task, field and method",
    written_by="consensus",
    columns=(
        f.STUDY,
        f.TASK,
        f.FIELD,
        Column("method", f.VARCHAR, "`policy_value` or `ds_value`."),
        f.N.described("Items with a planted truth."),
        Column("n_valued", f.BIGINT, "Of those, items the method gave a value."),
        Column("recovered", f.BIGINT, "Items whose value equals the truth."),
        Column("within_half", f.BIGINT, "Items within half a point of the truth (Likert)."),
        Column("share", f.DOUBLE, "`recovered / n`."),
        Column("share_valued", f.DOUBLE, "`recovered / n_valued`."),
    ),
    key=("study", "task", "field", "method"),
)

CONSENSUS_DRAFT = Table(
    "staging.consensus_draft",
    "The policy consensus as last computed, with a fingerprint of what it was computed from.",
    grain="rated item and rating field",
    written_by="adjudication_queue",
    columns=(
        *CONSENSUS.columns,
        Column(
            "inputs",
            f.VARCHAR,
            "SHA-256 of the raterlab code, the study model, the counting ratings, the rated "
            "items' tiers and the decisions the rows were computed from.",
            nullable=False,
        ),
    ),
    key=CONSENSUS.key,
    details="Computed once per set of inputs by the first step that needs it "
    "(`adjudication_queue`, `adjudication_packets`, the adjudication backlog check or "
    "`consensus`) and read back by the others while the fingerprint matches; the "
    "`reason` of open disputes and the hold on promoted items are applied after "
    "(`gold.consensus` has them).",
)

GOLD_CONTRACT = Table(
    "staging.gold_contract",
    "The Great Expectations results of the gold-table contract, for the study report.",
    grain="expectation evaluated",
    written_by="consensus",
    columns=(
        f.STUDY,
        Column("table", f.VARCHAR, "The gold table the expectation is about."),
        Column("expectation", f.VARCHAR, "The expectation's type."),
        Column("column", f.VARCHAR, "Its column, if one."),
        Column("condition", f.VARCHAR, "The rows it applies to, if not all."),
        Column("success", f.BOOLEAN, "It holds."),
        Column("unexpected_count", f.BIGINT, "Rows that break it."),
        Column("examples", f.VARCHAR, "Up to five values that break it."),
    ),
    details="Written by the `gold_table_contract` check on the `consensus` asset.",
)

TABLES = (
    ITEMS,
    CONSENSUS,
    CONSENSUS_ITEMS,
    CONSENSUS_BY_CONDITION,
    WIDE_CONSENSUS,
    CONSENSUS_RECOVERY,
    CONSENSUS_DRAFT,
    GOLD_CONTRACT,
)
