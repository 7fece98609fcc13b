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

from dataclasses import dataclass

import pandas as pd

from raterlab.consensus.policy import (
    AWAITING_ADJUDICATION,
    AWAITING_THIRD,
    compute_consensus,
    find_disputes,
)
from raterlab.design.kinds import ordinary
from raterlab.design.rounds import TIEBREAK_ROUND
from raterlab.ingest.study_tables import StudyTables
from raterlab.membership import is_in
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


def empty_queue() -> pd.DataFrame:
    return pd.DataFrame(columns=list(QUEUE_COLUMNS)).astype(QUEUE_TYPES)


def _disputes(
    study: Study, tables: StudyTables, items: pd.DataFrame, tiers: dict[str, str]
) -> pd.DataFrame:
    """The disputed fields: the consensus rule's, then the promoted items' (a field both
    name keeps the rule's reasons)."""
    disputes = find_disputes(study, tables.ratings, tiers)
    disputes = pd.concat([disputes, _promoted_rows(study, tables, items)], ignore_index=True)
    return disputes.drop_duplicates(["task", "item_id", "field"], keep="first")


@dataclass(frozen=True)
class _Routing:
    """What routing a disputed field needs to know: the study's tie-break policy and panel,
    and where each item stands in the packets issued so far."""

    third_policy: bool
    """The study breaks ties with a third annotator."""
    panel: frozenset[str]
    overlap: dict[str, int]
    tiers: dict[str, str]
    promoted: frozenset[str]
    assigned: dict[str, set[str]]
    """Annotators assigned to each disputed item."""
    tiebreak_batch: dict[str, str]
    """The tie-break batch each item was last issued in."""
    returned: set[str]
    """Items whose tie-break rating came back."""
    issued: dict[tuple[str, str, str], str]
    """The adjudication batch each (task, item, field) was issued in."""

    def wanted(self, item: str) -> int:
        """How many annotators the item's tier asks for."""
        return self.overlap.get(self.tiers.get(item), 1)


def _assigned_annotators(key: pd.DataFrame, disputed_items: pd.Series) -> dict[str, set[str]]:
    """The annotators the key assigned to each disputed item.

    Only disputed items are asked about: a set per item of the whole key cost about a second
    per call at 30,000 items."""
    disputed = key[is_in(key["item_id"], disputed_items)] if len(key) else key
    if not len(disputed):
        return {}
    return disputed.groupby("item_id")["annotator_id"].agg(set).to_dict()


def _tiebreak_batches(key: pd.DataFrame) -> dict[str, str]:
    """The last tie-break batch each item was issued in."""
    tiebreak = key[key["round"] == TIEBREAK_ROUND] if len(key) else key
    return tiebreak.groupby("item_id")["batch"].last().to_dict() if len(tiebreak) else {}


def _issued_batches(adjudication_key: pd.DataFrame | None) -> dict[tuple[str, str, str], str]:
    """The adjudication batch each (task, item, field) was issued in."""
    if adjudication_key is None or not len(adjudication_key):
        return {}
    return {
        (t, i, f): b
        for t, i, f, b in zip(
            adjudication_key["task"],
            adjudication_key["item_id"],
            adjudication_key["field"],
            adjudication_key["batch"],
            strict=True,
        )
    }


def _routing(
    study: Study,
    tables: StudyTables,
    adjudication_key: pd.DataFrame | None,
    disputed_items: pd.Series,
    tiers: dict[str, str],
) -> _Routing:
    """Gather what :func:`_route` needs from the study, its key and its adjudication key."""
    return _Routing(
        third_policy=study.consensus.tie_break == "third_annotator",
        panel=frozenset(study.design.annotators),
        overlap=study.design.overlap,
        tiers=tiers,
        promoted=tables.promoted,
        assigned=_assigned_annotators(tables.key, disputed_items),
        tiebreak_batch=_tiebreak_batches(tables.key),
        returned=returned_tiebreaks(tables),
        issued=_issued_batches(adjudication_key),
    )


def _route(
    at: _Routing, task: str, item: str, field: str, status: str, n: int
) -> tuple[str, str, str | None]:
    """One disputed field's ``route``, ``state`` and ``batch`` (see the module doc)."""
    batch = at.tiebreak_batch.get(item)
    if status == "adjudicated":
        return "adjudicator", "decided", at.issued.get((task, item, field))
    if status == "tie_broken":
        return "third_annotator", "tie_broken", batch
    if item in at.promoted and (item in at.tiebreak_batch or n < at.wanted(item)):
        # a promoted item first gets its new tier's annotators, whatever the tie-break
        state = "awaiting_rating" if item in at.tiebreak_batch else "open"
        return "third_annotator", state, batch
    if at.third_policy and item in at.tiebreak_batch and item not in at.returned:
        return "third_annotator", "awaiting_rating", at.tiebreak_batch[item]
    free = at.panel - at.assigned.get(item, set())
    if at.third_policy and item not in at.tiebreak_batch and n < 3 and free:
        return "third_annotator", "open", None
    issued = at.issued.get((task, item, field))
    return "adjudicator", "issued" if issued else "open", issued


def _with_priority(queue: pd.DataFrame) -> pd.DataFrame:
    """``queue`` (in queue order) with each open item's rank, 1 first, on its open rows."""
    open_rows = queue["state"].isin(OPEN_STATES)
    queue["priority"] = pd.array([None] * len(queue), dtype="Int64")
    ranks = queue.loc[open_rows, ["task", "item_id"]].drop_duplicates()
    rank_of = {(t, i): r + 1 for r, (t, i) in enumerate(ranks.itertuples(index=False))}
    queue.loc[open_rows, "priority"] = [
        rank_of[(t, i)]
        for t, i in zip(queue.loc[open_rows, "task"], queue.loc[open_rows, "item_id"], strict=True)
    ]
    return queue


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
    disputes = _disputes(study, tables, items, tiers)
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
    at = _routing(study, tables, adjudication_key, queue["item_id"], tiers)
    routed = [
        _route(at, task, item, field, status, n)
        for task, item, field, status, n in zip(
            queue["task"],
            queue["item_id"],
            queue["field"],
            queue["status"],
            queue["n_ratings"],
            strict=True,
        )
    ]
    queue["route"] = [route for route, _, _ in routed]
    queue["state"] = [state for _, state, _ in routed]
    queue["batch"] = [batch for _, _, batch in routed]
    queue = _with_priority(ordered(_one_route_per_item(queue)))
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
