"""Every problem rater the simulator plants is caught, for the reason planted, and the good
raters are not flagged at all (six annotators: good, good, lenient, rushed, inconsistent,
severe)."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest

from raterlab.quality import assess, flag_summary, pi_sample
from raterlab.quality.ratings import QUALITY_GENERATION_COLUMNS, QUALITY_LABEL_COLUMNS
from raterlab.quality.sample import draw
from tests.quality.helpers import row


@pytest.fixture(scope="module")
def report(panel):
    study, _, tables, _ = panel
    return assess(study, **tables)


@pytest.fixture(scope="module")
def profiles(panel) -> dict[str, str]:
    return panel[3]


@pytest.fixture(scope="module")
def good(profiles) -> list[str]:
    return [a for a, p in profiles.items() if p == "good"]


@pytest.fixture(scope="module")
def planted(profiles) -> dict[str, str]:
    """Problem profile -> its annotator."""
    return {p: a for a, p in profiles.items() if p != "good"}


def _flagged_metrics(report, annotator: str) -> set[str]:
    t = report.table
    return set(t.loc[t["flagged"] & (t["annotator_id"] == annotator), "metric"])


def test_good_raters_are_not_flagged(report, good) -> None:
    assert len(good) >= 2
    for annotator in good:
        assert _flagged_metrics(report, annotator) == set(), annotator
        for metric in ("duplicate_within_one", "attention_pass_rate", "rushed_share"):
            assert not row(report.table, annotator, metric)["flagged"]
    flags = report.item_flags
    assert (
        not flags[flags["annotator_id"].isin(good)]["flag"]
        .isin(["rushed", "attention_failed"])
        .any()
    )


def test_rushed_rater_is_caught(panel, report, planted, profiles) -> None:
    study = panel[0]
    rushed = planted["rushed"]
    share = row(report.table, rushed, "rushed_share")
    assert share["value"] == 1.0 and share["flagged"]
    assert row(report.table, rushed, "median_time_s")["value"] < study.design.time_floor_s
    assert row(report.table, rushed, "attention_pass_rate")["flagged"]
    flags = report.item_flags
    rushed_flags = flags[flags["flag"] == "rushed"]
    assert set(rushed_flags["annotator_id"]) == {rushed}
    assert len(rushed_flags) == row(report.table, rushed, "rushed_share")["n"]
    assert set(flags.loc[flags["flag"] == "attention_failed", "annotator_id"]) == {rushed}
    for other in set(profiles) - {rushed}:
        assert row(report.table, other, "rushed_share")["value"] == 0
        assert row(report.table, other, "attention_pass_rate")["value"] == 1


def test_inconsistent_rater_is_caught(report, planted, good) -> None:
    inconsistent = planted["inconsistent"]
    within = row(report.table, inconsistent, "duplicate_within_one")
    assert within["flagged"] and within["value"] < 0.2
    kappa = report.table[
        (report.table["annotator_id"] == inconsistent)
        & (report.table["metric"] == "intra_rater_kappa")
        & report.table["slice"].str.endswith("field=score")
    ]["value"]
    assert (kappa < 0.2).all()
    pairs = report.item_flags[report.item_flags["flag"] == "duplicate_inconsistent"]
    assert pairs["annotator_id"].value_counts().idxmax() == inconsistent
    for annotator in (*good, planted["lenient"], planted["severe"]):
        assert not row(report.table, annotator, "duplicate_within_one")["flagged"]


@pytest.mark.parametrize(("profile", "sign"), [("lenient", 1), ("severe", -1)])
def test_lenient_and_severe_raters_are_caught(report, planted, profile: str, sign: int) -> None:
    annotator = planted[profile]
    lenient = row(report.table, annotator, "leniency")
    assert lenient["flagged"] and sign * lenient["value"] > 0.4 and lenient["p_value"] < 0.001
    # the interval excludes zero on the planted side
    assert (lenient["ci_low"] > 0) if sign > 0 else (lenient["ci_high"] < 0)
    word = "lenient" if sign > 0 else "severe"
    line = next(x for x in flag_summary(report.table).splitlines() if x.startswith(annotator))
    assert f"{annotator}: {word} (leniency" in line


def test_summary_names_exactly_the_problem_raters(report, planted) -> None:
    lines = flag_summary(report.table).splitlines()
    assert [line.split(":")[0] for line in lines] == sorted(planted.values())
    text = "\n".join(lines)
    assert f"{planted['rushed']}: rushed (rushed_share 1.00 > 0.10)" in text
    assert "misses attention checks" in text and "inconsistent on hidden duplicates" in text


def test_no_drift_within_one_week(report) -> None:
    # every file arrived in the same week: spot checks are compared, nothing drifts
    weekly = report.table[report.table["slice"].str.startswith("week=")]
    assert len(weekly) == 1 and weekly["n"].iloc[0] > 0
    assert report.promotions.empty and report.drift_failed_at is None


def test_pi_sample_is_a_reproducible_share_per_annotator(panel) -> None:
    study, _, tables, _ = panel
    labels, generations = tables["labels"], tables["generations"]
    sample = pi_sample(study, labels, generations)
    ordinary = labels[(labels["kind"] == "item") & (labels["copy"] == 0)]
    per_annotator = (
        ordinary.drop_duplicates(["annotator_id", "task", "item_id"]).groupby("annotator_id").size()
    )
    counts = sample.groupby("annotator_id").size()
    assert counts.to_dict() == {a: math.ceil(0.10 * n) for a, n in per_annotator.items()}
    shuffled = labels.sample(frac=1, random_state=3).reset_index(drop=True)
    again = pi_sample(study, shuffled, generations)
    key = ["annotator_id", "task", "item_id"]
    pd.testing.assert_frame_equal(
        sample[key].reset_index(drop=True), again[key].reset_index(drop=True)
    )
    other_seed = study.model_copy(
        update={"design": study.design.model_copy(update={"seed": study.design.seed + 1})}
    )
    assert set(map(tuple, draw(other_seed, labels)[key].values)) != set(
        map(tuple, sample[key].values)
    )
    # what the annotator read and answered, never the hidden keys
    assert {"prompt", "response", "category", "score", "relevant", "time_spent_s"} <= set(
        sample.columns
    )
    assert not {"condition", "model", "uncertainty"} & set(sample.columns)
    assert sample["source_file"].notna().all()
    bigger = pi_sample(study, labels, generations, share=0.5)
    assert set(map(tuple, sample[key].values)) <= set(map(tuple, bigger[key].values))
    # records as stored (JSON text): only the drawn items' are decoded, to the same sample
    stored = generations.assign(
        record=[json.dumps(r, ensure_ascii=False) for r in generations["record"]]
    )
    pd.testing.assert_frame_equal(pi_sample(study, labels, stored), sample)


def test_the_item_flags_do_not_depend_on_the_rows_order(panel, report) -> None:
    """The warehouse returns rows in the order its threads finish: a flag's detail (the
    fields of an inconsistent duplicate, the raters of an outlier item) is the same text in
    any order."""
    study, _, tables, _ = panel
    shuffled = tables["labels"].sample(frac=1, random_state=7).reset_index(drop=True)
    again = assess(study, **{**tables, "labels": shuffled})
    keys = ["annotator_id", "task", "item_id", "flag", "detail"]
    assert len(report.item_flags) > 0 and set(report.item_flags["flag"]) > {"rushed"}
    pd.testing.assert_frame_equal(
        again.item_flags[keys].sort_values(keys).reset_index(drop=True),
        report.item_flags[keys].sort_values(keys).reset_index(drop=True),
    )


def test_the_columns_the_step_reads_give_the_same_report(panel, report) -> None:
    """The asset reads only ``QUALITY_LABEL_COLUMNS`` of gold.labels and
    ``QUALITY_GENERATION_COLUMNS`` of raw.generations: the report and the PI sample are those
    of the whole tables."""
    study, _, tables, _ = panel
    fewer = {
        **tables,
        "labels": tables["labels"][list(QUALITY_LABEL_COLUMNS)],
        "generations": tables["generations"][list(QUALITY_GENERATION_COLUMNS)],
    }
    again = assess(study, **fewer)
    pd.testing.assert_frame_equal(again.table, report.table)
    pd.testing.assert_frame_equal(again.item_flags, report.item_flags)
    pd.testing.assert_frame_equal(
        pi_sample(study, fewer["labels"], fewer["generations"]),
        pi_sample(study, tables["labels"], tables["generations"]),
    )
