"""Speed: the time an annotator spends per rating, against the study's ``design.time_floor_s``.

Every rating an annotator returned counts (ordinary items, duplicates, attention and
calibration items), one time per rating (``time_spent_s``; ratings without a time are
left out). Per annotator:

- ``median_time_s``: the median seconds per rating (no flag);
- ``rushed_share``: share of ratings faster than the floor (``time < time_floor_s``), flagged
  above ``quality.max_rushed_share``;
- ``target_time_share``: with ``quality.target_time_s: [low, high]`` (the guide's time per
  item), the share of ratings that took low to high seconds; shown, never flagged (its
  ``comparison`` column names the range).

Both are also given per slice key value (``round=pilot``...), unflagged. Each rating under
the floor is an item flag ``rushed``. A study whose floor is 0 has no rushed ratings.
"""

from __future__ import annotations

import pandas as pd

from raterlab.protocol import Study
from raterlab.quality.ratings import (
    ALL,
    RATING_KEY,
    key_slice,
    metric,
    show,
    slice_keys,
    slice_values,
)


def timed_ratings(study: Study, rows: pd.DataFrame) -> pd.DataFrame:
    """One row per rating with a time: the rating key, ``time_spent_s``, ``rushed`` and the
    slice keys. ``rows`` is :func:`ratings.prepare` output."""
    keys = slice_keys(study, rows)
    columns = list(dict.fromkeys([*RATING_KEY, "round", "time_spent_s", *keys]))
    ratings = rows[columns]
    ratings = ratings.drop_duplicates(list(RATING_KEY))
    ratings = ratings[ratings["time_spent_s"].notna()].copy()
    ratings["time_spent_s"] = ratings["time_spent_s"].astype(float)
    floor = study.design.time_floor_s
    ratings["rushed"] = (ratings["time_spent_s"] < floor) if floor > 0 else False
    return ratings.reset_index(drop=True)


def speed_metrics(study: Study, timed: pd.DataFrame) -> list[dict]:
    target = study.quality.max_rushed_share
    keys = slice_keys(study, timed)
    out = []
    for annotator, own in timed.groupby("annotator_id", sort=True):
        parts = [(ALL, own, True)]
        for key in keys:
            parts += [(key_slice(**{key: v}), own[m], False) for v, m in slice_values(own, key)]
        for label, part, judged in parts:
            out.append(
                metric(annotator, "median_time_s", label, part["time_spent_s"].median(), len(part))
            )
            if study.quality.target_time_s:
                low, high = study.quality.target_time_s
                inside = part["time_spent_s"].between(low, high).mean()
                out.append(
                    metric(
                        annotator,
                        "target_time_share",
                        label,
                        inside,
                        len(part),
                        comparison=f"in [{show(low)}, {show(high)}] s",
                        flagged=False,
                    )
                )
            out.append(
                metric(
                    annotator,
                    "rushed_share",
                    label,
                    part["rushed"].mean(),
                    len(part),
                    target=target,
                    comparison="<=",
                    flagged=None if judged else False,
                )
            )
    return out


def speed_flags(study: Study, timed: pd.DataFrame) -> list[dict]:
    floor = study.design.time_floor_s
    rushed = timed[timed["rushed"].astype(bool)]
    return [
        {
            "annotator_id": a,
            "task": t,
            "item_id": i,
            "flag": "rushed",
            "detail": f"{show(s)} s < floor {show(float(floor))} s (batch {b})",
        }
        for a, t, i, s, b in zip(
            rushed["annotator_id"],
            rushed["task"],
            rushed["item_id"],
            rushed["time_spent_s"],
            rushed["batch"],
            strict=True,
        )
    ]
