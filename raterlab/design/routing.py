"""Routing items to tiers, and the proportional stratified sample a study may ask for."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from raterlab.membership import is_in
from raterlab.protocol import Study
from raterlab.protocol.rules import AllOf, ItemPredicate, condition_keys


def _describe(when: ItemPredicate | AllOf) -> str:
    preds = when.all_of if isinstance(when, AllOf) else [when]
    return " and ".join(f"{p.field} {p.operator} {p._operand(p.operator)!r}" for p in preds)


def record_keys(study: Study) -> list[str]:
    """The item keys routing, sampling and assignment read from the records: the routing
    rules' keys, the strata and ``unit_key`` of the sample, and the pilot's ``by`` (records
    decoded for these alone: a record's prompts and responses are most of its size)."""
    keys = [k for rule in study.routing.rules for k in condition_keys(rule.when)]
    if study.sampling is not None:
        keys += [*study.sampling.strata, *([study.unit_key] if study.unit_key else [])]
    if study.design.pilot is not None and study.design.pilot.by:
        keys.append(study.design.pilot.by)
    return list(dict.fromkeys(k for k in keys if k != "task"))


def route(study: Study, items: pd.DataFrame) -> pd.DataFrame:
    """Tier of each ordinary item: the first routing rule that matches, else the default.

    Returns ``item_id, task, tier, tier_rule``; ``tier_rule`` says which rule decided, e.g.
    ``routing.rules[1]: uncertainty gte 0.65``. Routing sees the item's keys plus ``task``.
    """
    rules = study.routing.rules
    tiers, reasons = [], []
    for task, record in zip(items["task"], items["record"], strict=True):
        view: dict[str, Any] = {**record, "task": task}
        for i, rule in enumerate(rules):
            if rule.when.matches(view):
                tiers.append(rule.tier)
                reasons.append(f"routing.rules[{i}]: {_describe(rule.when)}")
                break
        else:
            tiers.append(study.routing.default)
            reasons.append("routing.default")
    return pd.DataFrame(
        {
            "item_id": items["item_id"].to_numpy(),
            "task": items["task"].to_numpy(),
            "tier": tiers,
            "tier_rule": reasons,
        }
    )


def proportional_allocation(sizes: pd.Series, n: int) -> pd.Series:
    """Split ``n`` over strata in proportion to their ``sizes`` (Hamilton's largest remainder).

    Each stratum gets ``floor(n * size / total)``, and the units left over go to the largest
    remainders (ties broken by stratum order, so the result is deterministic). No stratum gets
    more than its size.
    """
    total = int(sizes.sum())
    n = min(n, total)
    exact = sizes * n / total
    alloc = np.floor(exact).astype(int)
    remainder = (exact - alloc).sort_values(ascending=False, kind="stable")
    for key in remainder.index[: n - int(alloc.sum())]:
        alloc[key] += 1
    return alloc


def stratify(study: Study, items: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """Stratum label of each item and whether it is in the study's sample.

    Without ``sampling`` every item is sampled and the stratum is empty. With it, each task's
    items are sampled ``sampling.n`` at most, in proportion to the strata over
    ``sampling.strata`` (:func:`proportional_allocation`), uniformly within a stratum. When
    the study has a ``unit_key`` (one item per task for the same unit), units are sampled
    instead, and a unit's items are in the sample together.
    """
    out = pd.DataFrame({"item_id": items["item_id"].to_numpy(), "stratum": "", "sampled": True})
    if study.sampling is None:
        return out
    keys = study.sampling.strata
    out["stratum"] = ["|".join(f"{k}={record.get(k)}" for k in keys) for record in items["record"]]
    out["sampled"] = False
    if study.unit_key:
        units = pd.Series([r.get(study.unit_key) for r in items["record"]], index=out.index)
        first = out[~units.duplicated()]
        sizes = first.groupby("stratum").size()
        chosen: set = set()
        for stratum, k in proportional_allocation(sizes, study.sampling.n).items():
            members = units[first.index[first["stratum"] == stratum]].to_numpy()
            chosen.update(rng.choice(members, size=int(k), replace=False).tolist())
        out["sampled"] = is_in(units, chosen)
        return out
    for _, group in out.groupby(items["task"].to_numpy(), sort=True):
        sizes = group.groupby("stratum").size()
        for stratum, k in proportional_allocation(sizes, study.sampling.n).items():
            members = group.index[group["stratum"] == stratum].to_numpy()
            out.loc[rng.choice(members, size=int(k), replace=False), "sampled"] = True
    return out


def routed_items(study: Study, generations: pd.DataFrame) -> pd.DataFrame:
    """Ordinary items with tier, the rule that set it, stratum and sample membership."""
    items = generations[generations["role"] == "item"].reset_index(drop=True)
    rng = np.random.default_rng([study.design.seed, 1])
    routed = route(study, items)
    strata = stratify(study, items, rng)
    return routed.assign(stratum=strata["stratum"], sampled=strata["sampled"])
