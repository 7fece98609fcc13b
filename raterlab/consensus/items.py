"""``gold.items``: every sampled item, unblinded, with its tier, stratum and the keys most
questions slice by (condition, model, category) as columns, and how far its consensus got."""

from __future__ import annotations

import pandas as pd

from raterlab.consensus.policy import item_status
from raterlab.design.generations import decode_records
from raterlab.design.kinds import ordinary
from raterlab.design.rounds import latest_pilot_only
from raterlab.protocol import Study
from raterlab.protocol.study import BUILTIN_SLICES
from raterlab.tables import names
from raterlab.tables.consensus import ITEMS

MODEL_KEYS = ("model", "system")


def category_key(study: Study) -> str | None:
    """The item key ``gold.items.category`` holds: ``category`` if the study has it, else
    its first slice that is an item key other than condition and model."""
    keys = study.item_keys()
    if "category" in keys:
        return "category"
    for key in study.slices:
        if key in keys and key not in BUILTIN_SLICES and key not in ("condition", *MODEL_KEYS):
            return key
    return None


def _text(value) -> str | None:
    return None if value is None else str(value)


def build_items(
    study: Study,
    generations: pd.DataFrame,
    routed: pd.DataFrame,
    key: pd.DataFrame,
    ratings: pd.DataFrame,
    consensus: pd.DataFrame,
) -> pd.DataFrame:
    """``gold.items`` rows of one study (without ``study``): sampled ordinary items.
    ``generations`` is ``raw.generations`` as stored: each record, JSON text, is kept as it
    is, and only the keys the table shows as columns are decoded (a record's prompts and
    responses are most of its size), and held as the same Python strings, not copied into
    a string column (twice, at 100 MB each for 100,000 items: the sort copies it again)."""
    if routed.empty:
        return pd.DataFrame(columns=names(ITEMS)[1:])
    sampled = routed[routed["sampled"].astype(bool)]
    texts = dict(zip(generations["item_id"], generations["record"], strict=True))
    category = category_key(study)
    frame = sampled[["item_id", "task", "tier", "tier_rule", "stratum"]].copy()
    kept = [texts.get(i, "{}") for i in frame["item_id"]]
    recs = decode_records(kept, ["condition", *MODEL_KEYS, *([category] if category else [])])
    frame["condition"] = [_text(r.get("condition")) for r in recs]
    frame["model"] = [_text(next((r[k] for k in MODEL_KEYS if k in r), None)) for r in recs]
    frame["category"] = [_text(r.get(category)) if category else None for r in recs]
    frame["record"] = pd.Series(kept, index=frame.index, dtype=object)  # the strings, uncopied
    counted = latest_pilot_only(key[ordinary(key)]) if len(key) else key
    assigned = counted.groupby("item_id").size() if len(counted) else pd.Series(dtype=int)
    raters = (
        ratings.groupby("item_id")["annotator_id"].nunique()
        if len(ratings)
        else pd.Series(dtype=int)
    )
    frame["n_assigned"] = frame["item_id"].map(assigned).fillna(0).astype("int64")
    frame["n_raters"] = frame["item_id"].map(raters).fillna(0).astype("int64")
    n_fields = {t: len(task.rating_fields) for t, task in study.tasks.items()}
    frame["n_fields"] = frame["task"].map(n_fields).astype("int64")
    status = item_status(consensus)
    frame = frame.merge(
        status[["task", "item_id", "n_resolved", "adjudicated", "tie_broken", "status"]],
        how="left",
        on=["task", "item_id"],
    )
    frame["n_resolved"] = frame["n_resolved"].fillna(0).astype("int64")
    frame["adjudicated"] = frame["adjudicated"].fillna(False).astype(bool)
    frame["tie_broken"] = frame["tie_broken"].fillna(False).astype(bool)
    frame["status"] = frame["status"].fillna("unrated")
    return frame[names(ITEMS)[1:]].sort_values(["task", "item_id"]).reset_index(drop=True)
