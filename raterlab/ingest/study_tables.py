"""A study's ingested tables as the later stages read them (consensus, adjudication, judges,
comparison, exports), and the ratings that count.

Only ordinary ratings (:func:`raterlab.design.kinds.ordinary`: ``kind = 'item'``,
``copy = 0``) count toward consensus: hidden duplicates, attention checks and calibration
items measure the raters, not the items. A ``skip`` (or an
empty cell) is not a rating of that field, nor is a stored value the study file's current
rules reject (held until replaced; :mod:`raterlab.ingest.changes`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field, replace

import duckdb
import pandas as pd

from raterlab import warehouse
from raterlab.design.blinding import KEY_COLUMNS
from raterlab.design.generations import decode_records
from raterlab.design.kinds import ordinary
from raterlab.design.rounds import latest_pilot_only
from raterlab.ingest.changes import held_out
from raterlab.membership import is_in
from raterlab.protocol import SKIP_VALUE, CategoricalField, Study
from raterlab.tables import names
from raterlab.tables.adjudication import ADJUDICATIONS

RATING_COLUMNS = (
    "rating_id",
    "task",
    "item_id",
    "annotator_id",
    "field",
    "value",
    "value_num",
    "confidence",
    "time_spent_s",
    "notes",
    "round",
    "batch",
)


LABELS_READ = (*RATING_COLUMNS, "kind", "copy")
"""The columns of ``gold.labels`` :attr:`StudyTables.labels` holds: what the counting
ratings, the adjudicators' cards and the returned third ratings are made of (not the token,
source file, row, hash and time of ingest)."""


def counting_ratings(study: Study, labels: pd.DataFrame) -> pd.DataFrame:
    """The ratings that count: kind ``item``, copy 0, a rating field, a value (not skip) that
    the study's rules still allow (:func:`raterlab.ingest.changes.held_out`: a study file
    edited after ratings came in), and of an item piloted again, only the latest pilot
    round's ratings.

    Returns :data:`RATING_COLUMNS`; ``value`` is the canonical text (``0``/``1``, an integer,
    a label). Categorical labels are matched to the declared spelling.
    """
    if labels is None or labels.empty:
        return pd.DataFrame(columns=list(RATING_COLUMNS))
    fields = {(t, f) for t, task in study.tasks.items() for f in task.rating_fields}
    keep = (
        ordinary(labels)
        & labels["value"].notna()
        & (labels["value"].astype(str).str.lower() != SKIP_VALUE)
        & pd.MultiIndex.from_arrays([labels["task"], labels["field"]]).isin(list(fields))
    )
    rows = labels.loc[keep, [c for c in RATING_COLUMNS if c in labels.columns]].copy()
    for column in RATING_COLUMNS:
        if column not in rows:
            rows[column] = None
    rows["value"] = rows["value"].astype(str)
    held = held_out(study, rows)
    if held.any():
        rows = rows[~held].copy()
    for task_name, task in study.tasks.items():
        for name, spec in task.fields.items():
            if isinstance(spec, CategoricalField):
                at = (rows["task"] == task_name) & (rows["field"] == name)
                lookup = {label.lower(): label for label in spec.labels}
                rows.loc[at, "value"] = rows.loc[at, "value"].str.lower().map(lookup)
    rows = latest_pilot_only(rows[rows["value"].notna()][list(RATING_COLUMNS)])
    rows = rows.reset_index(drop=True)
    text = [c for c in RATING_COLUMNS if c not in ("rating_id", "value_num", "time_spent_s")]
    return rows.assign(**{c: warehouse.shared_text(rows[c]) for c in text})


@dataclass
class StudyTables:
    """One study's rows of every table consensus and adjudication need."""

    labels: pd.DataFrame
    """``gold.labels`` (all kinds), its :data:`LABELS_READ`."""
    ratings: pd.DataFrame
    """The ratings that count (:func:`counting_ratings`)."""
    routed: pd.DataFrame
    """``staging.routed_items``."""
    key: pd.DataFrame
    """``staging.blinding_key`` (the sealed key, third-annotator rows included)."""
    adjudications: pd.DataFrame
    """``gold.adjudications``."""
    read_generations: Callable[[Collection[str] | None], pd.DataFrame] = field(
        repr=False, compare=False
    )
    """Reads ``raw.generations`` (of the items given, or all) over the connection the tables
    were read from, which must still be open: see :attr:`generations`."""
    promoted: frozenset[str] = frozenset()
    """Items the drift rule promoted (``gold.promotions``): ``routed`` already shows their
    new tier; they need that tier's annotators before they count as resolved."""
    _generations: pd.DataFrame | None = field(default=None, init=False, repr=False, compare=False)
    _records: dict[tuple[str, ...] | None, dict[str, dict]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """Decoded records, by the keys asked for (``None``: every key)."""

    @property
    def generations(self) -> pd.DataFrame:
        """``raw.generations``, ``record`` as JSON text, read when first asked for: the
        adjudication steps never ask (the items' JSON is 110 MB of text at 100,000 items,
        about twice that while it is read), and decoded only by the readers that need the
        items' records (:meth:`records`, :meth:`decoded_generations`)."""
        if self._generations is None:
            self._generations = self.read_generations(None)
        return self._generations

    def tiers(self) -> dict[str, str]:
        return dict(zip(self.routed["item_id"], self.routed["tier"], strict=True))

    def rated_items(self) -> pd.DataFrame:
        """``task, item_id, tier`` of every item with a counting rating."""
        rated = self.ratings[["task", "item_id"]].drop_duplicates()
        return rated.assign(tier=rated["item_id"].map(self.tiers())).reset_index(drop=True)

    def records(self, keys: Collection[str] | None = None) -> dict[str, dict]:
        """Item id -> its decoded record (decoded once), with only ``keys`` when given
        (:func:`raterlab.design.generations.decode_records`)."""
        wanted = None if keys is None else tuple(keys)
        if wanted not in self._records:
            texts = self.generations["record"]
            self._records[wanted] = dict(
                zip(self.generations["item_id"], decode_records(texts, wanted), strict=True)
            )
        return self._records[wanted]

    def records_of(self, items: Iterable[str]) -> dict[str, dict]:
        """Item id -> its whole decoded record, for ``items`` alone (a packet's few items:
        not every record of the study decoded for them)."""
        wanted = set(items)
        if self._generations is None:
            mine = self.read_generations(wanted)
        else:
            mine = self._generations[is_in(self._generations["item_id"], wanted)]
        return dict(zip(mine["item_id"], decode_records(mine["record"]), strict=True))

    def decoded_generations(self, keys: Collection[str] | None = None) -> pd.DataFrame:
        """``generations`` with ``record`` decoded (only ``keys`` of it, when given)."""
        records = self.records(keys)
        return self.generations.assign(record=[records[i] for i in self.generations["item_id"]])


def apply_promotions(routed: pd.DataFrame, promotions: pd.DataFrame) -> pd.DataFrame:
    """``routed`` with every promoted item (``gold.promotions``) moved to its ``to_tier``,
    ``tier_rule`` saying when and why: a promotion is acted on, not only recorded."""
    if promotions.empty or routed.empty:
        return routed
    latest = promotions.drop_duplicates("item_id", keep="last").set_index("item_id")
    moved = is_in(routed["item_id"], latest.index)
    out = routed.copy()
    ids = out.loc[moved, "item_id"]
    out.loc[moved, "tier"] = ids.map(latest["to_tier"]).to_numpy()
    out.loc[moved, "tier_rule"] = [
        f"promoted from {latest.at[i, 'tier']} in {latest.at[i, 'week']}: {latest.at[i, 'reason']}"
        for i in ids
    ]
    return out


def _or_empty(frame: pd.DataFrame | None, columns: list[str]) -> pd.DataFrame:
    return pd.DataFrame(columns=columns) if frame is None else frame


def load_tables(con: duckdb.DuckDBPyConnection, study: Study, ratings: bool = True) -> StudyTables:
    """Read one study's tables (missing tables read as empty). Without ``ratings``, the
    items' tables alone (generations, routing, promotions), for a reader of records and
    tiers: labels, ratings, key and adjudications are empty (a 100,000-item study's labels
    and counting ratings cost about 1.5 s)."""
    if not ratings:
        return _item_tables(con, study)
    labels = _or_empty(
        warehouse.read_table(con, "gold.labels", study.name, columns=LABELS_READ),
        list(LABELS_READ),
    )
    key = _or_empty(
        warehouse.read_table(con, "staging.blinding_key", study.name),
        list(KEY_COLUMNS),
    )
    adjudications = _or_empty(
        warehouse.read_table(con, "gold.adjudications", study.name), names(ADJUDICATIONS)[1:]
    )
    items = _item_tables(con, study)
    return replace(
        items,
        labels=labels,
        ratings=counting_ratings(study, labels),
        key=key,
        adjudications=adjudications,
    )


def _item_tables(con: duckdb.DuckDBPyConnection, study: Study) -> StudyTables:
    """:func:`load_tables` without the labels, ratings, key and adjudications (empty)."""

    def read_generations(items: Collection[str] | None) -> pd.DataFrame:
        among = None if items is None else ("item_id", list(items))
        return _or_empty(
            warehouse.read_table(con, "raw.generations", study.name, among=among),
            ["item_id", "task", "role", "record"],
        )

    routed = _or_empty(
        warehouse.read_table(con, "staging.routed_items", study.name),
        ["item_id", "task", "tier", "tier_rule", "stratum", "sampled"],
    )
    promotions = _or_empty(
        warehouse.read_table(con, "gold.promotions", study.name), ["item_id", "tier", "to_tier"]
    )
    labels = pd.DataFrame(columns=list(LABELS_READ))
    return StudyTables(
        labels=labels,
        ratings=counting_ratings(study, labels),
        routed=apply_promotions(routed, promotions),
        key=pd.DataFrame(columns=list(KEY_COLUMNS)),
        adjudications=pd.DataFrame(columns=names(ADJUDICATIONS)[1:]),
        read_generations=read_generations,
        promoted=frozenset(promotions["item_id"]),
    )
