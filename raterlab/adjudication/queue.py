"""The adjudication queue: disputed fields, where each stands, and who resolves it next.

A field is disputed by the study's ``consensus.adjudicate`` rule
(:func:`raterlab.consensus.policy.find_disputes`). Each disputed field has a ``route``:

``third_annotator``  the study breaks ties with a third annotator (``tie_break:
                     third_annotator``), the item has fewer than three ratings and an
                     annotator who was never assigned it is available: that annotator rates
                     the whole item in a normal packet (round ``tiebreak``).
``adjudicator``      otherwise: the field goes into an adjudication packet.

An item the drift rule promoted (``gold.promotions``) to a tier with more annotators first
goes to another annotator the same way (reason ``promoted``), whatever the tie-break policy.

and a ``state``: ``open`` (nothing issued yet), ``issued`` (in an adjudication packet
awaiting its decision), ``awaiting_rating`` (a third annotator was assigned and has not
returned), ``decided`` (an adjudicator decided it) or ``tie_broken`` (the third rating
settled it). Open rows are ranked by ``priority``: lowest agreement first.
"""

from __future__ import annotations

import pandas as pd

from raterlab.consensus.policy import (
    AWAITING_ADJUDICATION,
    AWAITING_THIRD,
    compute_consensus,
    find_disputes,
)
from raterlab.design.kinds import ordinary
from raterlab.ingest.study_tables import StudyTables
from raterlab.protocol import Study

QUEUE_COLUMNS = (
    "task",
    "item_id",
    "field",
    "tier",
    "reasons",
    "agreement",
    "n_ratings",
    "status",
    "route",
    "state",
    "batch",
    "priority",
)
QUEUE_TYPES = {
    c: {"agreement": "float64", "n_ratings": "int64", "priority": "Int64"}.get(c, "str")
    for c in QUEUE_COLUMNS
}
"""The queue's column types (text columns ``str``, missing values NaN), whatever its rows."""
OPEN_STATES = ("open", "issued", "awaiting_rating")
TIEBREAK_ROUND = "tiebreak"


def empty_queue() -> pd.DataFrame:
    return pd.DataFrame(columns=list(QUEUE_COLUMNS)).astype(QUEUE_TYPES)


def build_queue(
    study: Study,
    tables: StudyTables,
    adjudication_key: pd.DataFrame | None = None,
    consensus: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """One row per disputed field (:data:`QUEUE_COLUMNS`), ordered by priority.

    ``consensus`` (from :func:`compute_consensus` on the same tables) is computed if not given.
    """
    items = tables.rated_items()
    tiers = dict(zip(items["item_id"], items["tier"], strict=True))
    disputes = find_disputes(study, tables.ratings, tiers)
    disputes = pd.concat([disputes, _promoted_rows(study, tables, items)], ignore_index=True)
    disputes = disputes.drop_duplicates(["task", "item_id", "field"], keep="first")
    if disputes.empty:
        return empty_queue()
    if consensus is None:
        consensus = compute_consensus(study, tables.ratings, items, tables.adjudications)
    queue = disputes.merge(
        consensus[["task", "item_id", "field", "status"]],
        how="left",
        on=["task", "item_id", "field"],
    )
    queue["tier"] = queue["item_id"].map(tiers)
    key = tables.key
    # annotators assigned to each disputed item (a set per item of the whole key cost about
    # a second per call at 30,000 items; only disputed items are asked about)
    disputed = key[key["item_id"].isin(queue["item_id"])] if len(key) else key
    assigned = (
        disputed.groupby("item_id")["annotator_id"].agg(set).to_dict() if len(disputed) else {}
    )
    tiebreak = key[key["round"] == TIEBREAK_ROUND] if len(key) else key
    tiebreak_batch = tiebreak.groupby("item_id")["batch"].last().to_dict() if len(tiebreak) else {}
    returned = returned_tiebreaks(tables)
    issued = {}
    if adjudication_key is not None and len(adjudication_key):
        issued = {
            (t, i, f): b
            for t, i, f, b in zip(
                adjudication_key["task"],
                adjudication_key["item_id"],
                adjudication_key["field"],
                adjudication_key["batch"],
                strict=True,
            )
        }
    third_policy = study.consensus.tie_break == "third_annotator"

    def overlap(item: str) -> int:
        return study.design.overlap.get(tiers.get(item), 1)

    panel = set(study.design.annotators)
    routes, states, batches = [], [], []
    for task, item, field, status, n in zip(
        queue["task"],
        queue["item_id"],
        queue["field"],
        queue["status"],
        queue["n_ratings"],
        strict=True,
    ):
        if status == "adjudicated":
            routes.append("adjudicator")
            states.append("decided")
            batches.append(issued.get((task, item, field)))
            continue
        if status == "tie_broken":
            routes.append("third_annotator")
            states.append("tie_broken")
            batches.append(tiebreak_batch.get(item))
            continue
        if item in tables.promoted and (item in tiebreak_batch or n < overlap(item)):
            # a promoted item first gets its new tier's annotators, whatever the tie-break
            routes.append("third_annotator")
            states.append("awaiting_rating" if item in tiebreak_batch else "open")
            batches.append(tiebreak_batch.get(item))
            continue
        if third_policy and item in tiebreak_batch and item not in returned:
            routes.append("third_annotator")
            states.append("awaiting_rating")
            batches.append(tiebreak_batch[item])
            continue
        free = panel - assigned.get(item, set())
        if third_policy and item not in tiebreak_batch and n < 3 and free:
            routes.append("third_annotator")
            states.append("open")
            batches.append(None)
            continue
        routes.append("adjudicator")
        batch = issued.get((task, item, field))
        states.append("issued" if batch else "open")
        batches.append(batch)
    queue["route"] = routes
    queue["state"] = states
    queue["batch"] = batches
    queue = ordered(_one_route_per_item(queue))
    open_rows = queue["state"].isin(OPEN_STATES)
    queue["priority"] = pd.array([None] * len(queue), dtype="Int64")
    ranks = queue.loc[open_rows, ["task", "item_id"]].drop_duplicates()
    rank_of = {(t, i): r + 1 for r, (t, i) in enumerate(ranks.itertuples(index=False))}
    queue.loc[open_rows, "priority"] = [
        rank_of[(t, i)]
        for t, i in zip(queue.loc[open_rows, "task"], queue.loc[open_rows, "item_id"], strict=True)
    ]
    return queue[list(QUEUE_COLUMNS)].astype(QUEUE_TYPES).reset_index(drop=True)


def ordered(queue: pd.DataFrame) -> pd.DataFrame:
    """Disputed fields in queue order: items by their lowest field agreement, then task and
    item; within an item, by agreement then field (a total order: one row per task, item and
    field)."""
    item_agreement = queue.groupby(["task", "item_id"])["agreement"].transform("min")
    return (
        queue.assign(_item_agreement=item_agreement)
        .sort_values(["_item_agreement", "task", "item_id", "agreement", "field"], kind="stable")
        .drop(columns="_item_agreement")
    )


def returned_tiebreaks(tables: StudyTables) -> set[str]:
    """Items whose third-annotator rating came back."""
    labels = tables.labels
    if labels.empty:
        return set()
    back = ordinary(labels) & (labels["round"] == TIEBREAK_ROUND)
    return set(labels.loc[back, "item_id"])


def _promoted_rows(study: Study, tables: StudyTables, items: pd.DataFrame) -> pd.DataFrame:
    """One row per rating field of each promoted item that has fewer annotators than its new
    tier's overlap (reason ``promoted``): it goes to another annotator, as a third annotator
    would, and its fields wait for that rating."""
    if not tables.promoted or items.empty:
        return pd.DataFrame()
    counts = tables.ratings.groupby("item_id")["annotator_id"].nunique()
    rows = []
    for task, item, tier in items.itertuples(index=False):
        if item not in tables.promoted or counts.get(item, 0) >= study.design.overlap.get(tier, 1):
            continue
        for field in study.tasks[task].rating_fields:
            rows.append(
                {
                    "task": task,
                    "item_id": item,
                    "field": field,
                    "reasons": "promoted",
                    "agreement": float("nan"),
                    "n_ratings": int(counts.get(item, 0)),
                }
            )
    return pd.DataFrame(rows)


def _one_route_per_item(queue: pd.DataFrame) -> pd.DataFrame:
    """A third annotator rates the whole item: when one open field of an item goes to a third
    annotator, so do the item's other open fields."""
    third = queue[(queue["route"] == "third_annotator") & (queue["state"] == "open")]
    items = set(zip(third["task"], third["item_id"], strict=True))
    move = queue["state"].eq("open") & pd.Series(
        [(t, i) in items for t, i in zip(queue["task"], queue["item_id"], strict=True)],
        index=queue.index,
    )
    queue.loc[move, "route"] = "third_annotator"
    return queue


def pending_reasons(queue: pd.DataFrame) -> dict[tuple[str, str, str], str]:
    """Where each open dispute stands, for the consensus ``reason`` column."""
    open_rows = queue[queue["state"].isin(OPEN_STATES)]
    return {
        (t, i, f): AWAITING_THIRD if r == "third_annotator" else AWAITING_ADJUDICATION
        for t, i, f, r in zip(
            open_rows["task"],
            open_rows["item_id"],
            open_rows["field"],
            open_rows["route"],
            strict=True,
        )
    }


def backlog(queue: pd.DataFrame) -> pd.DataFrame:
    """Open disputes per route and state."""
    open_rows = queue[queue["state"].isin(OPEN_STATES)]
    if open_rows.empty:
        return pd.DataFrame(columns=["route", "state", "fields", "items"])
    return (
        open_rows.groupby(["route", "state"])
        .agg(fields=("field", "size"), items=("item_id", "nunique"))
        .reset_index()
    )
