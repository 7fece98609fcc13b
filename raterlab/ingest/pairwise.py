"""The ratings of pairwise fields unblinded into system-level choices and winners
(``gold.pairwise_comparisons``).

One row per rating that counts (:func:`raterlab.ingest.study_tables.counting_ratings`: an
ordinary first copy, not ``skip``; hidden duplicates, attention and calibration pairs
measure the raters and are left out) of a pairwise field. The stored value is canonical
(``a`` = ``system_a`` preferred); the sealed key's ``swapped`` gives the sides the annotator
saw: ``left_system`` and ``right_system``, and ``choice`` as they wrote it.
"""

from __future__ import annotations

import json

import pandas as pd

from raterlab.protocol import PairwiseField, Study
from raterlab.protocol.pairwise import seen, shared_keys
from raterlab.protocol.study import BUILTIN_SLICES
from raterlab.tables.pairwise import PAIRWISE_COMPARISONS

COLUMNS = tuple(PAIRWISE_COMPARISONS.names[1:])
"""``gold.pairwise_comparisons``' columns after ``study``."""
_PACKET_ROW = ["annotator_id", "batch", "task", "item_id"]


def _fields(study: Study) -> set[tuple[str, str]]:
    return {
        (t, name)
        for t, task in study.tasks.items()
        for name, spec in task.fields.items()
        if isinstance(spec, PairwiseField)
    }


def prompt_slices(study: Study, task: str) -> list[str]:
    """The study's slice keys that a pair of ``task`` holds once (its prompt's keys)."""
    keys = shared_keys(study.tasks[task])
    return [k for k in study.slices if k in keys and k not in BUILTIN_SLICES]


def _category(study: Study, task: str, record: dict) -> object:
    """The pair's ``category`` key, else its first prompt-level slice key (as ``gold.items``)."""
    if "category" in record:
        return record["category"]
    keys = prompt_slices(study, task)
    return record.get(keys[0]) if keys else None


def _row(study: Study, rating: dict, record: dict, swapped: bool) -> dict:
    task = study.tasks[rating["task"]]
    assert task.pairwise is not None
    by = task.pairwise.by
    system_a, system_b = str(record[f"{by}_a"]), str(record[f"{by}_b"])
    value = rating["value"]
    choice = seen(value, swapped)
    left, right = (system_b, system_a) if swapped else (system_a, system_b)
    winner = {"a": system_a, "b": system_b}.get(value.removeprefix("much_"), "tie")
    strength = None if value == "tie" else "much_better" if value.startswith("much_") else "better"
    slices = {k: record.get(k) for k in prompt_slices(study, rating["task"])}
    return {
        "task": rating["task"],
        "field": rating["field"],
        "item_id": rating["item_id"],
        "prompt_id": str(record[task.pairwise.prompt]),
        "annotator_id": rating["annotator_id"],
        "system_a": system_a,
        "system_b": system_b,
        "left_system": left,
        "right_system": right,
        "choice": choice.removeprefix("much_"),
        "strength": strength,
        "winner": winner,
        "value": value,
        "round": rating["round"],
        "batch": rating["batch"],
        "category": None if (c := _category(study, rating["task"], record)) is None else str(c),
        "slices": json.dumps({k: None if v is None else str(v) for k, v in slices.items()}),
    }


def pairwise_comparisons(
    study: Study, ratings: pd.DataFrame, key: pd.DataFrame, records: dict[str, dict]
) -> pd.DataFrame:
    """``gold.pairwise_comparisons`` of ``study`` (:data:`COLUMNS`): ``ratings`` are the
    ratings that count (``counting_ratings``), ``key`` the sealed key, ``records`` each
    item's record by item id. Empty (with its columns) for a study without pairwise fields.
    """
    fields = _fields(study)
    if ratings.empty or not fields:
        return pd.DataFrame(columns=list(COLUMNS))
    pairs = zip(ratings["task"], ratings["field"], strict=True)
    mine = ratings[[(t, f) in fields for t, f in pairs]]
    first = key[pd.to_numeric(key["copy"]) == 0]
    sides = first.set_index(_PACKET_ROW)["swapped"].fillna(False).astype(bool)
    where = pd.MultiIndex.from_frame(mine[_PACKET_ROW])
    swapped = sides.reindex(where)
    if swapped.isna().any():
        missing = mine[swapped.isna().to_numpy()].iloc[0]
        raise ValueError(
            f"rating of {missing['item_id']} by {missing['annotator_id']} ({missing['batch']}) "
            "has no row in the sealed key"
        )
    rows = [
        _row(study, rating, records[rating["item_id"]], bool(side))
        for rating, side in zip(mine.to_dict("records"), swapped.to_numpy(), strict=True)
    ]
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    return frame.sort_values(["task", "field", "item_id", "annotator_id"]).reset_index(drop=True)
