"""Routing to tiers and the proportional stratified sample."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from raterlab.design import read_generations, routed_items
from raterlab.design.routing import proportional_allocation, route
from raterlab.protocol import parse_study
from tests.conftest import MINI_STUDY


def test_first_matching_rule_wins_else_default(mini) -> None:
    routed = route(mini, read_generations(mini)).set_index("item_id")
    assert routed.at["chk-000", "tier"] == "GOLD"
    assert routed.at["chk-000", "tier_rule"] == "routing.rules[0]: task in ['check']"
    # ans-001: uncertainty 0.37 -> default; ans-002: 0.74 -> rule 1
    assert routed.at["ans-001", "tier"] == "TRIAGE"
    assert routed.at["ans-001", "tier_rule"] == "routing.default"
    assert routed.at["ans-002", "tier"] == "GOLD"
    assert routed.at["ans-002", "tier_rule"] == "routing.rules[1]: uncertainty gte 0.65"


def test_rule_order_and_inclusive_threshold() -> None:
    data = {**MINI_STUDY}
    study = parse_study(data)
    items = pd.DataFrame(
        {
            "item_id": ["q", "s-low", "s-high", "s-adv", "s-edge"],
            "task": ["check", "answer", "answer", "answer", "answer"],
            "record": [
                {"uncertainty": 0.1},
                {"uncertainty": 0.64},
                {"uncertainty": 0.9},
                {"uncertainty": 0.2},
                {"uncertainty": 0.65},
            ],
        }
    )
    assert route(study, items)["tier"].tolist() == ["GOLD", "TRIAGE", "GOLD", "TRIAGE", "GOLD"]


@pytest.mark.parametrize(
    ("sizes", "n", "expected"),
    [
        # Hamilton's method: quotas 5.1, 3.4, 1.5 -> floors 5, 3, 1, the spare unit to the 0.5.
        ({"a": 51, "b": 34, "c": 15}, 10, {"a": 5, "b": 3, "c": 2}),
        ({"a": 2, "b": 2}, 3, {"a": 2, "b": 1}),
        ({"a": 3, "b": 1}, 10, {"a": 3, "b": 1}),
    ],
)
def test_proportional_allocation(sizes, n, expected) -> None:
    assert proportional_allocation(pd.Series(sizes), n).to_dict() == expected


def test_stratified_sample_is_proportional_and_reproducible(mini) -> None:
    data = {**MINI_STUDY, "sampling": {"strata": ["category"], "n": 30}}
    study = parse_study(data)
    generations = read_generations(mini)
    first = routed_items(study, generations)
    again = routed_items(study, generations)
    pd.testing.assert_frame_equal(first, again)
    answer = first[(first["sampled"]) & (first["item_id"].str.startswith("ans"))]
    assert answer["stratum"].value_counts().to_dict() == {
        "category=api": 10,
        "category=security": 10,
        "category=data": 10,
    }
    assert first["sampled"].sum() == 60  # 30 of 60 answers, all 30 checks (n is per task)
    other = routed_items(
        parse_study({**data, "design": {**data["design"], "seed": 8}}), generations
    )
    assert not np.array_equal(first["sampled"], other["sampled"])


def test_a_unit_rated_in_several_tasks_is_sampled_whole() -> None:
    """plugin_triggers: four dimensions per scenario (unit_key); the sample keeps or drops a
    scenario's four items together, stratified over the scenarios."""
    from raterlab.design.generations import read_generations
    from raterlab.design.routing import routed_items
    from raterlab.protocol import load_study
    from tests.conftest import STUDIES

    study = load_study(STUDIES / "plugin_triggers.yaml")
    generations = read_generations(study)
    routed = routed_items(study, generations)
    scenario = generations["record"].map(lambda r: r["scenarioId"])
    units = dict(zip(generations["item_id"], scenario, strict=True))
    routed["unit"] = routed["item_id"].map(units)
    per_unit = routed.groupby("unit")["sampled"].agg(["all", "any", "size"])
    assert (per_unit["all"] == per_unit["any"]).all()
    assert (per_unit["size"] == 4).all()
    assert per_unit["all"].sum() == study.sampling.n


@pytest.mark.parametrize(
    "name",
    ["correctness_ab", "empathy", "gold_tiers", "pairwise_arena", "plugin_triggers", "rag_triplet"],
)
def test_records_decoded_for_record_keys_route_sample_and_assign_alike(name: str) -> None:
    """The design steps decode each record for :func:`record_keys` alone: the routing, the
    sample and the assignment are those of whole records."""
    from raterlab.design import assign, read_generations
    from raterlab.design.routing import record_keys
    from raterlab.protocol import load_study
    from raterlab.settings import studies_dir

    study = load_study(studies_dir() / f"{name}.yaml")
    whole = read_generations(study)
    keys = record_keys(study)
    slim = whole.assign(record=[{k: r[k] for k in keys if k in r} for r in whole["record"]])
    routed = routed_items(study, whole)
    pd.testing.assert_frame_equal(routed_items(study, slim), routed)
    pd.testing.assert_frame_equal(assign(study, routed, slim), assign(study, routed, whole))
