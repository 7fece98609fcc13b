"""Who rates what: overlap by tier, the pilot round, spot checks, duplicates and quality items.

One row per (annotator, batch, item, copy). ``kind`` says why the row is there: ``item`` (an
ordinary rating), ``duplicate`` (a hidden second copy of an item the same annotator rates in
the same batch), ``attention`` (an obvious item with a known answer), ``calibration`` (a
pre-scored item given first). ``spot_check`` marks the second annotator of an item its tier
gives to one annotator only: each week (batch), that week's share of them.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from raterlab.design.rounds import pilot_name, pilot_number
from raterlab.design.routing import proportional_allocation
from raterlab.membership import is_in
from raterlab.protocol import Study

COLUMNS = (
    "annotator_id",
    "round",
    "batch",
    "task",
    "item_id",
    "tier",
    "kind",
    "copy",
    "spot_check",
)


class DesignError(ValueError):
    """The study's design cannot be met with the items it has."""


def _pick_pilot(items: pd.DataFrame, fraction: float, rng: np.random.Generator) -> set[str]:
    """A share of each task's items, in proportion to its tiers."""
    chosen: set[str] = set()
    for _, task_items in items.groupby("task", sort=True):
        n = round(fraction * len(task_items))
        sizes = task_items.groupby("tier").size()
        for tier, k in proportional_allocation(sizes, n).items():
            ids = task_items.loc[task_items["tier"] == tier, "item_id"].to_numpy()
            chosen.update(rng.choice(ids, size=int(k), replace=False).tolist())
    return chosen


def _pick_pilot_groups(
    items: pd.DataFrame, groups: pd.Series, fraction: float, rng: np.random.Generator
) -> set[str]:
    """A share of each task's groups (the distinct values of ``design.pilot.by``), every item
    of a chosen group included: 10 of 50 prompts, each with its responses in both conditions."""
    chosen: set[str] = set()
    for _, task_items in items.groupby("task", sort=True):
        keys = groups.loc[task_items.index]
        names = np.array(sorted(keys.dropna().astype(str).unique()), dtype=object)
        k = round(fraction * len(names))
        picked = set(rng.choice(names, size=k, replace=False).tolist()) if k else set()
        chosen.update(task_items.loc[is_in(keys.astype(str), picked), "item_id"].tolist())
    return chosen


def _least_loaded(load: dict[str, int], k: int, rng: np.random.Generator) -> list[str]:
    """``k`` annotators with the smallest load, ties broken at random."""
    names = list(load)
    jitter = rng.random(len(names))
    order = sorted(range(len(names)), key=lambda i: (load[names[i]], jitter[i]))
    return [names[i] for i in order[:k]]


def _spread(study: Study, main: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """Main-round rows: each item to its tier's overlap, with the least-loaded annotators."""
    overlap = main["tier"].map(study.design.overlap).to_numpy()
    tasks, ids, tiers = (main[c].to_numpy() for c in ("task", "item_id", "tier"))
    load = dict.fromkeys(study.design.annotators, 0)
    rows = []
    for i in rng.permutation(len(main)):
        for annotator in _least_loaded(load, int(overlap[i]), rng):
            load[annotator] += 1
            rows.append((annotator, tasks[i], ids[i], tiers[i], False))
    return pd.DataFrame(rows, columns=["annotator_id", "task", "item_id", "tier", "spot_check"])


def _spot_checks(study: Study, main: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """Second annotators for ``design.spot_check`` of each week's single-annotator items.

    A week is a batch number (``main-01`` of every annotator is week 1; without batches the
    whole main round is one week): in each, that share of the items of one-annotator tiers
    (rounded) gets one more annotator, the least loaded other than its own, in the same batch.
    """
    single = main[main["tier"].map(study.design.overlap) == 1]
    load = main.groupby("annotator_id").size().reindex(study.design.annotators, fill_value=0)
    load = load.to_dict()
    rows = []
    for _, week in single.groupby("batch", sort=True):
        n_spot = round(study.design.spot_check * len(week))
        records = week.to_dict("records")
        candidates = [records[i] for i in rng.permutation(len(week))]
        taken = [False] * len(candidates)
        first = 0  # candidates before it are all taken
        for _ in range(n_spot):
            # the least-loaded annotator checks an item someone else rated: keeps load even
            for checker in _least_loaded(load, len(load), rng):
                at = next(
                    (
                        k
                        for k in range(first, len(candidates))
                        if not taken[k] and candidates[k]["annotator_id"] != checker
                    ),
                    None,
                )
                if at is not None:
                    break
            if at is None:  # one annotator: nobody else can check
                break
            taken[at] = True
            while first < len(taken) and taken[first]:
                first += 1
            load[checker] += 1
            rows.append({**candidates[at], "annotator_id": checker, "spot_check": True})
    return pd.DataFrame(rows, columns=main.columns)


def _batches(rows: pd.DataFrame, size: int | None) -> pd.Series:
    """Main-round batch names per annotator: ``main`` or ``main-01``, ``main-02``..."""
    if size is None:
        return pd.Series("main", index=rows.index)
    number = rows.groupby("annotator_id").cumcount() // size + 1
    return number.map(lambda b: f"main-{b:02d}")


def _quality_rows(
    study: Study,
    base: pd.DataFrame,
    quality: pd.DataFrame,
    rng: np.random.Generator,
) -> Iterable[dict]:
    """Duplicates, attention checks and calibration items for every (annotator, batch)."""
    design = study.design
    attention = quality[quality["role"] == "attention"]
    calibration = quality[quality["role"] == "calibration"]
    if design.attention_checks > len(attention):
        raise DesignError(
            f"design.attention_checks is {design.attention_checks} but the generations hold "
            f"{len(attention)} attention item(s)"
        )
    if design.calibration and calibration.empty:
        raise DesignError(
            "design.calibration is true but the generations hold no calibration items"
        )
    first_batch = base.groupby("annotator_id")["batch"].first()
    packets = list(base.groupby(["annotator_id", "batch"], sort=True))
    # Repeated pilot rounds draw last, round by round, so adding one never changes the quality
    # rows of packets already sent.
    packets.sort(key=lambda packet: max(1, pilot_number(packet[0][1]) or 1))
    for (annotator, batch), group in packets:
        rnd = group["round"].iloc[0]
        n_dup = min(design.duplicates_per_batch, len(group))  # every batch that can hold them
        for i in rng.choice(len(group), size=n_dup, replace=False):
            row = group.iloc[i]
            yield {**row.to_dict(), "kind": "duplicate", "copy": 1, "spot_check": False}
        picked = rng.choice(len(attention), size=design.attention_checks, replace=False)
        for i in picked:
            item = attention.iloc[i]
            yield _quality_row(annotator, rnd, batch, item, "attention")
        if design.calibration and batch == first_batch[annotator]:
            for _, item in calibration.iterrows():
                yield _quality_row(annotator, rnd, batch, item, "calibration")


def _quality_row(annotator: str, rnd: str, batch: str, item: pd.Series, kind: str) -> dict:
    return {
        "annotator_id": annotator,
        "round": rnd,
        "batch": batch,
        "task": item["task"],
        "item_id": item["item_id"],
        "tier": kind.upper(),
        "kind": kind,
        "copy": 0,
        "spot_check": False,
    }


def assign(
    study: Study, routed: pd.DataFrame, generations: pd.DataFrame, pilot_rounds: int = 1
) -> pd.DataFrame:
    """The full assignment of ``study``: columns :data:`COLUMNS`, deterministic in the seed.

    ``routed`` is :func:`raterlab.design.routing.routed_items`; only sampled items are assigned.
    The pilot (``design.pilot.fraction`` of each task's items, proportional to tiers, or of
    the distinct values of ``design.pilot.by`` with all their items) goes to every annotator
    in batch ``pilot``; the rest to ``design.overlap[tier]`` annotators with
    the least load, and a ``design.spot_check`` share of each week's (batch's) single-annotator
    items to one more (:func:`_spot_checks`).
    With ``pilot_rounds`` > 1 (repeated pilots, :mod:`raterlab.design.rounds`), the pilot
    rows are given again in batches ``pilot-2``... with their own quality items.
    """
    rng = np.random.default_rng([study.design.seed, 2])
    items = routed[routed["sampled"]].reset_index(drop=True)
    pilot = study.design.pilot
    if pilot is None:
        pilot_ids: set[str] = set()
    elif pilot.by:
        records = dict(zip(generations["item_id"], generations["record"], strict=True))
        groups = items["item_id"].map(lambda i: records[i].get(pilot.by))
        pilot_ids = _pick_pilot_groups(items, groups, pilot.fraction, rng)
    else:
        pilot_ids = _pick_pilot(items, pilot.fraction, rng)
    is_pilot = is_in(items["item_id"], pilot_ids)
    everyone = items[is_pilot].merge(
        pd.DataFrame({"annotator_id": study.design.annotators}), how="cross"
    )
    pilot_rows = [
        everyone.assign(round=pilot_name(n), batch=pilot_name(n), spot_check=False)
        for n in range(1, pilot_rounds + 1)
    ]
    main = _spread(study, items[~is_pilot].reset_index(drop=True), rng)
    main = main.assign(round="main", batch=_batches(main, study.design.batch_size))
    if study.design.spot_check:
        main = pd.concat([main, _spot_checks(study, main, rng)], ignore_index=True)
    base = pd.concat([*pilot_rows, main], ignore_index=True).assign(kind="item", copy=0)
    base = base[list(COLUMNS)]
    quality = generations[generations["role"] != "item"]
    extra = pd.DataFrame(list(_quality_rows(study, base, quality, rng)), columns=list(COLUMNS))
    out = pd.concat([base, extra], ignore_index=True)
    return out.sort_values(
        ["annotator_id", "batch", "task", "item_id", "copy"], kind="stable"
    ).reset_index(drop=True)
