"""The planned precision of a study's declared thresholds, and ``raterlab study check``."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from raterlab.agreement.study import pooled_task_agreement
from raterlab.cli import main
from raterlab.design import read_generations
from raterlab.design.assignment import assign
from raterlab.design.feasibility import kappa_half_width
from raterlab.design.routing import record_keys, routed_items
from raterlab.planning.agreement_units import simulated_width
from raterlab.planning.study_precision import (
    COLUMNS,
    planned_against_achieved,
    planned_precision,
)
from raterlab.protocol import load_study
from tests.conftest import BUNDLED, STUDIES


@pytest.fixture(scope="module")
def correctness():
    study = load_study(STUDIES / "correctness_ab.yaml")
    return study, planned_precision(study, read_generations(study))


def test_one_row_per_declared_threshold_and_field(correctness):
    study, table = correctness
    assert list(table.columns) == COLUMNS
    assert list(table["threshold"]) == [
        "thresholds.pilot_gate",
        *(f"thresholds.minimums[{i}]" for i in range(3)),
    ]
    assert set(table["field"]) == {"correctness"} and (table["study"] == study.name).all()
    assert list(table["coefficient"]) == [
        "cohen_kappa",
        "cohen_kappa",
        "cohen_kappa:quadratic",
        "krippendorff_alpha:ordinal",
    ]
    assert (table["n_raters"] == 2).all() and (table["n_categories"] == 5).all()


def test_the_gate_is_planned_on_the_pilot_and_the_minimums_on_every_round(correctness):
    """10 pilot prompts x 2 conditions; all 50 x 2 responses for the minimums."""
    _, table = correctness
    assert list(table["planned_units"]) == [20, 100, 100, 100]


def test_the_width_is_the_simulated_one_and_near_cohens_approximation(correctness):
    study, table = correctness
    gate = table.iloc[0]
    again = simulated_width("cohen_kappa", 0.7, 20, 2, 5, simulations=200, seed=study.design.seed)
    assert gate["planned_ci_width"] == pytest.approx(again.ci_width)
    # Cohen's (1960) large-sample half-width, the one the feasibility warning states.
    assert gate["planned_ci_width"] / 2 == pytest.approx(kappa_half_width(0.7, 20, 5), rel=0.15)
    assert table["planned_ci_width"].iloc[1] < gate["planned_ci_width"]


def test_a_slice_limits_the_units_to_its_tier():
    study = load_study(STUDIES / "gold_tiers.yaml")
    generations = read_generations(study)
    table = planned_precision(study, generations)
    fleiss = table[table["coefficient"] == "fleiss_kappa"]
    assert (fleiss["slice"] == "tier=GOLD").all()
    per_task = fleiss.groupby("task")["planned_units"].first()
    assert per_task["factual_qa"] == 140  # every factual_qa case is GOLD
    assert per_task["code_generation"] < 360
    assert not math.isnan(fleiss["planned_ci_width"].max())


def test_study_check_prints_the_planned_precision(capsys):
    assert main(["study", "check", str(STUDIES / "correctness_ab.yaml")]) == 0
    out = capsys.readouterr().out
    assert (
        "planned: thresholds.pilot_gate (cohen_kappa > 0.7) on task correctness [correctness]: "
        "20 units x 2 raters, 5 categories -> 95% interval about" in out
    )


def test_a_per_task_minimum_is_planned_on_the_units_gold_agreement_pools():
    """The pooled rows are named, and count units, as gold.agreement's: ratings of the GOLD
    items the design assigns, pooled by raterlab.agreement.study.pooled_task_agreement, have
    the planned field name and units, and planned_against_achieved joins them."""
    study = load_study(STUDIES / "gold_tiers.yaml")
    generations = read_generations(study)
    planned = planned_precision(study, generations)
    path, threshold = "thresholds.minimums[1]", study.thresholds.minimums[1]
    assert threshold.per == "task"
    assignment = assign(study, routed_items(study, generations), generations)
    gold = assignment[(assignment["kind"] == "item") & (assignment["tier"] == "GOLD")]
    gold = gold[gold["task"] == "factual_qa"]
    fields = study.tasks["factual_qa"].rating_fields
    rng = np.random.default_rng(0)
    rows = pd.concat([gold.assign(field=f) for f in fields], ignore_index=True)
    rows["value_num"] = rng.integers(0, 2, len(rows)).astype(float)
    rows["value"] = rows["value_num"].map({0.0: "false", 1.0: "true"})
    achieved = pooled_task_agreement(study, rows, threshold, ci=True, n_resamples=200)
    achieved = achieved.assign(threshold=path, slice=threshold.slice)
    joined = planned_against_achieved(planned, achieved)
    row = joined[(joined["threshold"] == path) & (joined["task"] == "factual_qa")].iloc[0]
    assert row["field"] == "(pooled nominal: correct, hallucination)"
    assert row["planned_units"] == row["achieved_units"] == 2 * 140
    assert row["achieved_ci_width"] > 0
    assert joined["achieved_units"].notna().sum() == 1


def test_a_threshold_no_unit_of_the_design_can_reach_says_so(correctness):
    study, _ = correctness
    single = study.model_copy(
        update={"design": study.design.model_copy(update={"overlap": {"GOLD": 1}, "pilot": None})}
    )
    table = planned_precision(single, read_generations(study))
    assert table["planned_ci_width"].isna().all()
    assert table["note"].str.contains("0 unit\\(s\\) rated by two or more annotators").all()


@pytest.mark.parametrize("name", BUNDLED)
def test_records_decoded_for_routing_alone_plan_the_same_widths(name: str) -> None:
    """The assignment step plans from records decoded for the keys routing and assignment
    read (``record_keys``); the widths are those of the whole records."""
    study = load_study(STUDIES / f"{name}.yaml")
    generations = read_generations(study)
    keys = record_keys(study)
    trimmed = generations.assign(
        record=[{k: r[k] for k in keys if k in r} for r in generations["record"]]
    )
    pd.testing.assert_frame_equal(
        planned_precision(study, trimmed), planned_precision(study, generations)
    )
