"""The PI sample: a reproducible random share of each annotator's ordinary ratings, for the
PI to review by hand (``$RATERLAB_HOME/reports/<study>/pi_sample.csv``; the exports folder
belongs to the exports asset, which replaces it whole).

Each rating ``r`` (annotator, task, item, copy) gets a uniform number
``u_r = SHA-256(seed | study | annotator | task | item | copy) / 2^64`` (first 8 bytes),
with ``seed = design.seed``. Per annotator, the ``ceil(quality.pi_sample * n_a)`` ratings
with the smallest ``u_r`` are drawn. The draw does not depend on row order or on the other
annotators, and a rating drawn once stays drawn while the annotator's count keeps the same
quota; every annotator with a rating is represented.

The file holds one row per drawn rating: the item's shown keys (what the annotator read),
each rating field, confidence, time spent and notes, and where the rating came from.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import pandas as pd

from raterlab.csvsafe import write_csv
from raterlab.design.kinds import ordinary
from raterlab.protocol import Study

PROVENANCE = ("annotator_id", "task", "item_id", "round", "batch", "source_file")


def _uniform(*parts: object) -> float:
    digest = hashlib.sha256("|".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def draw(study: Study, labels: pd.DataFrame, share: float | None = None) -> pd.DataFrame:
    """The drawn ratings: one row per rating key (``annotator_id, task, item_id, copy``)."""
    share = study.quality.pi_sample if share is None else share
    keys = ["annotator_id", "task", "item_id", "copy"]
    ratings = labels[ordinary(labels)][[*PROVENANCE, "copy"]].drop_duplicates(keys).copy()
    if ratings.empty or share <= 0:
        return ratings.iloc[0:0]
    ratings["u"] = [
        _uniform(study.design.seed, study.name, a, t, i, int(c))
        for a, t, i, c in zip(
            ratings["annotator_id"],
            ratings["task"],
            ratings["item_id"],
            ratings["copy"],
            strict=True,
        )
    ]
    picked = []
    for _, own in ratings.groupby("annotator_id", sort=True):
        k = math.ceil(share * len(own))
        picked.append(own.nsmallest(k, "u"))
    return pd.concat(picked).sort_values(["annotator_id", "task", "item_id"]).drop(columns="u")


def pi_sample(
    study: Study,
    labels: pd.DataFrame,
    generations: pd.DataFrame,
    share: float | None = None,
) -> pd.DataFrame:
    """The PI sample as a wide table (see the module docstring). ``generations``' records may
    be decoded or JSON text as stored (only the drawn items' are decoded, then)."""
    drawn = draw(study, labels, share)
    keys = ["annotator_id", "task", "item_id", "copy"]
    if drawn.empty:
        return drawn
    own = labels.merge(drawn[keys], on=keys)
    values = own.pivot_table(
        index=keys, columns="field", values="value", aggfunc="first"
    ).reset_index()
    per_rating_columns = ["confidence", "time_spent_s", "notes"]
    values = values.drop(columns=[c for c in per_rating_columns if c in values.columns])
    per_rating = own.drop_duplicates(keys)[[*keys, *per_rating_columns]]
    drawn_items = generations[generations["item_id"].isin(drawn["item_id"])]
    records = dict(zip(drawn_items["item_id"], drawn_items["record"], strict=True))
    shown = []
    for task, item in zip(drawn["task"], drawn["item_id"], strict=True):
        record = records.get(item)
        record = (json.loads(record) if isinstance(record, str) else record) or {}
        spec = study.tasks.get(task)
        shown.append({k: record.get(k) for k in (spec.shown if spec else [])})
    shown_keys = list(dict.fromkeys(k for row in shown for k in row))
    items = pd.concat(
        [drawn.reset_index(drop=True), pd.DataFrame(shown, columns=shown_keys)], axis=1
    )
    out = items.merge(values, on=keys, how="left").merge(per_rating, on=keys, how="left")
    fields = [f for task in study.tasks.values() for f in task.fields if f in values.columns]
    columns = [*PROVENANCE, *shown_keys, *fields, *per_rating_columns]
    return out[list(dict.fromkeys(columns))]


def write_pi_sample(sample: pd.DataFrame, folder: Path) -> Path:
    """Write ``pi_sample.csv`` into ``folder`` (created), replacing any earlier one; text
    cells are neutralised for spreadsheets (a note ``=HYPERLINK(...)`` is shown, not run)."""
    return write_csv(sample, folder / "pi_sample.csv")
