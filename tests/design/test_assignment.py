"""Assignment invariants, for many designs (property-based)."""

from __future__ import annotations

import copy

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from raterlab.design import DesignError, assign, read_generations, routed_items
from raterlab.design.verify import verify_assignments
from raterlab.protocol import load_study, parse_study
from tests.conftest import MINI_STUDY, STUDIES, mini_records, write_study


@st.composite
def designs(draw):
    n = draw(st.integers(2, 6))
    gold = draw(st.integers(1, n))
    return {
        "annotators": [f"r{i}" for i in range(n)],
        "overlap": {"GOLD": gold, "TRIAGE": draw(st.integers(1, gold))},
        "pilot": {"fraction": draw(st.sampled_from([0.0, 0.1, 0.2, 0.35]))},
        "spot_check": draw(st.sampled_from([0.0, 0.1, 0.25])),
        "duplicates_per_batch": draw(st.integers(0, 5)),
        "attention_checks": draw(st.integers(0, 3)),
        "calibration": draw(st.booleans()),
        "batch_size": draw(st.sampled_from([None, 7, 20])),
        "seed": draw(st.integers(0, 2**31)),
    }


@pytest.fixture(scope="module")
def generations(tmp_path_factory):
    path = write_study(tmp_path_factory.mktemp("s"), MINI_STUDY, mini_records(40, 20))
    return read_generations(load_study(path))


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(design=designs())
def test_assignment_invariants(generations, design) -> None:
    study = parse_study({**copy.deepcopy(MINI_STUDY), "design": design})
    routed = routed_items(study, generations)
    table = assign(study, routed, generations)

    problems, _ = verify_assignments(study, routed, table)
    assert problems == []

    ratings = table[table["kind"] == "item"]
    # Nobody rates an item twice, except planted duplicates.
    assert not ratings.duplicated(["annotator_id", "item_id"]).any()
    dups = table[table["kind"] == "duplicate"]
    originals = ratings.set_index(["annotator_id", "batch", "item_id"]).index
    assert dups.set_index(["annotator_id", "batch", "item_id"]).index.isin(originals).all()
    # Every batch holds the design's duplicates, or one of each item if it has fewer.
    per_packet = ratings.groupby(["annotator_id", "batch"]).size()
    planted = dups.groupby(["annotator_id", "batch"]).size().reindex(per_packet.index, fill_value=0)
    want = per_packet.clip(upper=design["duplicates_per_batch"])
    assert (planted == want).all()
    # Pilot items go to everyone; main items to their tier's overlap (+1 when spot-checked).
    pilot = ratings[ratings["round"] == "pilot"]
    assert (pilot.groupby("item_id")["annotator_id"].nunique() == len(design["annotators"])).all()
    # Every annotator with a batch gets the attention checks and, in their first batch, calibration.
    per_batch = table.groupby(["annotator_id", "batch"])
    assert (
        per_batch.apply(lambda g: (g["kind"] == "attention").sum()) == design["attention_checks"]
    ).all()
    if design["calibration"]:
        calibration = table[table["kind"] == "calibration"]
        for annotator, batches in table.groupby("annotator_id")["batch"]:
            first = "pilot" if "pilot" in set(batches) else min(batches)
            got = calibration.loc[calibration["annotator_id"] == annotator, "batch"]
            assert set(got) == {first}
            assert len(got) == 2  # both calibration items
    # Batches hold at most batch_size main items, and a week's spot checks on top.
    if design["batch_size"]:
        main = ratings[(ratings["round"] == "main") & ~ratings["spot_check"].astype(bool)]
        assert main.groupby(["annotator_id", "batch"]).size().max() <= design["batch_size"]


def test_same_seed_same_assignment(mini, generations) -> None:
    routed = routed_items(mini, generations)
    pd.testing.assert_frame_equal(
        assign(mini, routed, generations), assign(mini, routed, generations)
    )


def test_spot_checks_are_second_annotators_of_triage_items(mini, generations) -> None:
    table = assign(mini, routed_items(mini, generations), generations)
    spot = table[table["spot_check"]]
    main = table[(table["kind"] == "item") & (table["round"] == "main")]
    singles = main[(main["tier"] == "TRIAGE") & ~main["spot_check"]]
    weeks = singles.groupby("batch")["item_id"].nunique()
    assert len(weeks) > 1  # the mini study's batches of 15: several weeks
    checked = spot.groupby("batch").size().reindex(weeks.index, fill_value=0)
    # every week, 10% of that week's single-annotator items get a second annotator
    assert (checked == (0.1 * weeks).round().astype(int)).all() and checked.sum() > 0
    assert set(spot["tier"]) == {"TRIAGE"}
    for item_id in spot["item_id"]:
        assert (table[(table["item_id"] == item_id) & (table["kind"] == "item")].shape[0]) == 2


def test_too_few_attention_items_is_a_clear_error(mini, generations) -> None:
    study = parse_study({**MINI_STUDY, "design": {**MINI_STUDY["design"], "attention_checks": 5}})
    with pytest.raises(
        DesignError,
        match=r"design\.attention_checks is 5 but the generations hold 3 attention item",
    ):
        assign(study, routed_items(study, generations), generations)


def test_verify_assignments_catches_a_missing_rating(mini, generations) -> None:
    routed = routed_items(mini, generations)
    table = assign(mini, routed, generations)
    victim = table[
        (table["kind"] == "item") & (table["tier"] == "GOLD") & (table["round"] == "main")
    ].index[0]
    problems, _ = verify_assignments(mini, routed, table.drop(index=victim))
    assert any("has 1 annotator(s), expected 2" in p for p in problems)


def test_correctness_pilot_is_ten_prompts_in_both_conditions() -> None:
    """The protocol's pilot: 10 prompts x 2 conditions = 20 responses; the main round is the
    remaining 40 prompts; the 10 training examples come first in every first batch."""
    study = load_study(STUDIES / "correctness_ab.yaml")
    generations = read_generations(study)
    routed = routed_items(study, generations)
    table = assign(study, routed, generations)
    prompt = dict(zip(generations["item_id"], generations["record"], strict=True))
    items = table[(table["kind"] == "item") & (table["copy"] == 0)].copy()
    items["prompt_id"] = items["item_id"].map(lambda i: prompt[i]["prompt_id"])
    items["condition"] = items["item_id"].map(lambda i: prompt[i]["condition"])
    pilot = items[items["round"] == "pilot"]
    assert pilot["item_id"].nunique() == 20 and pilot["prompt_id"].nunique() == 10
    assert (pilot.groupby("prompt_id")["condition"].nunique() == 2).all()
    assert (pilot.groupby("annotator_id")["item_id"].nunique() == 20).all()
    main = items[items["round"] == "main"]
    assert main["prompt_id"].nunique() == 40
    assert not set(main["prompt_id"]) & set(pilot["prompt_id"])
    calibration = table[table["kind"] == "calibration"]
    assert set(calibration["batch"]) == {"pilot"}
    assert calibration.groupby("annotator_id")["item_id"].nunique().tolist() == [10, 10]
    assert verify_assignments(study, routed, table)[0] == []
