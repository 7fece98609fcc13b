"""Each metric against a small example worked out by hand (the arithmetic is in the comments)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.metrics import cohen_kappa_score

from raterlab.design import read_generations
from raterlab.quality import assess, flag_summary
from raterlab.quality.bias import item_disagreement
from tests.quality.helpers import ans, labels, rating, row


@pytest.fixture
def generations(mini):
    return read_generations(mini)


def run(study, rows, generations, **tables):
    return assess(study, labels(rows), generations, **tables)


# --- self-consistency ------------------------------------------------------------------


def test_duplicate_pairs_by_hand(mini, generations) -> None:
    # a1 rates ans-000..003 twice (copy 0, then the hidden duplicate, copy 1):
    #   (3, 3) (2, 4) (5, 4) (1, 1)  ->  gaps 0, 2, 1, 0
    # exact = 2/4 = 0.5; within one = 3/4 = 0.75 < 0.8 -> flagged
    # quadratic kappa, q = 5: disagreement weight (k - l)^2 / 16
    #   observed mean (k - l)^2 = (0 + 4 + 1 + 0) / 4 = 1.25
    #   expected over first {1,2,3,5} x second {1,3,4,4} (16 combinations):
    #   f=1: 0+4+9+9 = 22; f=2: 1+1+4+4 = 10; f=3: 4+0+1+1 = 6; f=5: 16+4+1+1 = 22
    #   -> 60 / 16 = 3.75;  kappa = 1 - 1.25 / 3.75 = 2/3
    # a2 repeats itself exactly on two items: within one 1.0, not flagged.
    pairs = [(3, 3), (2, 4), (5, 4), (1, 1)]
    rows = []
    for i, (first, second) in enumerate(pairs):
        rows.append(rating("a1", ans(i), first))
        rows.append(rating("a1", ans(i), second, kind="duplicate", copy=1))
    for i in (5, 6):
        rows.append(rating("a2", ans(i), 4))
        rows.append(rating("a2", ans(i), 4, kind="duplicate", copy=1))
    report = run(mini, rows, generations)
    t = report.table
    within = row(t, "a1", "duplicate_within_one")
    assert within["value"] == 0.75 and within["n"] == 4
    assert within["target"] == 0.8 and within["flagged"]
    assert row(t, "a1", "duplicate_exact")["value"] == 0.5
    kappa = row(t, "a1", "intra_rater_kappa", "task=answer|field=score")["value"]
    assert kappa == pytest.approx(2 / 3)
    reference = cohen_kappa_score(
        [3, 2, 5, 1], [3, 4, 4, 1], labels=[1, 2, 3, 4, 5], weights="quadratic"
    )
    assert kappa == pytest.approx(reference)
    assert not row(t, "a2", "duplicate_within_one")["flagged"]
    flags = report.item_flags
    assert flags[["annotator_id", "item_id", "flag"]].values.tolist() == [
        ["a1", "ans-001", "duplicate_inconsistent"]
    ]
    assert flags["detail"].iloc[0] == "score 2 then 4"


def test_binary_duplicates_count_within_one_as_equal(mini, generations) -> None:
    # chk items: a1 answers (1, 1), (0, 1), (1, 1), (0, 0) -> equal 3/4 = 0.75 on "relevant"
    rows = []
    for i, (first, second) in enumerate([(1, 1), (0, 1), (1, 1), (0, 0)]):
        item = f"chk-{i:03d}"
        rows.append(rating("a1", item, first, field="relevant"))
        rows.append(rating("a1", item, second, field="relevant", kind="duplicate", copy=1))
    t = run(mini, rows, generations).table
    assert row(t, "a1", "duplicate_within_one", "task=check|field=relevant")["value"] == 0.75
    assert row(t, "a1", "duplicate_exact", "task=check|field=relevant")["value"] == 0.75


# --- attention -------------------------------------------------------------------------


def test_attention_pass_rate_by_hand(mini, generations) -> None:
    # The mini study's attention items all expect score 1.
    # a1: att-0 -> 1 (pass), att-1 -> 3 (fail), att-2 -> score left empty, only a note (fail)
    #     pass rate 1/3 < 1.0 -> flagged;  a2: 1 and 1 -> 2/2 = 1.0
    rows = [
        rating("a1", "att-0", 1, kind="attention"),
        rating("a1", "att-1", 3, kind="attention"),
        rating("a1", "att-2", "not sure", field="notes", kind="attention"),
        rating("a2", "att-0", 1, kind="attention"),
        rating("a2", "att-1", 1, kind="attention"),
    ]
    report = run(mini, rows, generations)
    a1 = row(report.table, "a1", "attention_pass_rate")
    assert a1["value"] == pytest.approx(1 / 3) and a1["n"] == 3 and a1["flagged"]
    assert row(report.table, "a2", "attention_pass_rate")["value"] == 1.0
    assert not row(report.table, "a2", "attention_pass_rate")["flagged"]
    failed = report.item_flags[report.item_flags["flag"] == "attention_failed"]
    assert failed["item_id"].tolist() == ["att-1", "att-2"]
    assert failed["detail"].tolist() == [
        "batch main-01: score 3 (expected 1)",
        "batch main-01: score empty (expected 1)",
    ]


# --- calibration -----------------------------------------------------------------------


def test_calibration_by_hand(mini, generations) -> None:
    # Key: cal-0 = 4, cal-1 = 5.
    # a1 answers 5, 5: errors +1, 0 -> exact 1/2, within one 2/2, mean signed error +0.5
    #    (|0.5| is not above 0.5: not flagged); kappa vs key: a1 used only 5, so
    #    p_a = (w(5,4) + w(5,5)) / 2 = p_e  -> kappa 0
    # a2 answers 2, 5: errors -2, 0 -> exact 1/2, within one 1/2 < 0.8 (flagged),
    #    mean signed error -1 (flagged); t interval: sd = sqrt(2), se = 1, t(.975, 1) = 12.706
    #    quadratic kappa: w = 1 - d^2/16; p_a = (w(2,4) + w(5,5)) / 2 = (0.75 + 1) / 2 = 0.875
    #    p_e = (w(2,4) + w(2,5) + w(5,4) + w(5,5)) / 4 = (0.75 + 0.4375 + 0.9375 + 1) / 4
    #        = 0.78125;  kappa = (0.875 - 0.78125) / (1 - 0.78125) = 3/7
    rows = [
        rating("a1", "cal-0", 5, kind="calibration", round="pilot"),
        rating("a1", "cal-1", 5, kind="calibration", round="pilot"),
        rating("a2", "cal-0", 2, kind="calibration", round="pilot"),
        rating("a2", "cal-1", 5, kind="calibration", round="pilot"),
    ]
    report = run(mini, rows, generations)
    t = report.table
    assert row(t, "a1", "calibration_exact")["value"] == 0.5
    assert row(t, "a1", "calibration_within_one")["value"] == 1.0
    error = row(t, "a1", "calibration_mean_signed_error")
    assert error["value"] == 0.5 and not error["flagged"]
    assert row(t, "a1", "calibration_weighted_kappa", "task=answer|field=score")[
        "value"
    ] == pytest.approx(0)
    assert row(t, "a2", "calibration_within_one")["flagged"]
    error = row(t, "a2", "calibration_mean_signed_error")
    assert error["value"] == -1.0 and error["flagged"]
    assert error["ci_low"] == pytest.approx(-1 - 12.7062, abs=1e-3)
    assert error["ci_high"] == pytest.approx(-1 + 12.7062, abs=1e-3)
    kappa = row(t, "a2", "calibration_weighted_kappa", "task=answer|field=score")["value"]
    assert kappa == pytest.approx(3 / 7)
    off = report.item_flags[report.item_flags["flag"] == "calibration_off"]
    assert off[["annotator_id", "item_id", "detail"]].values.tolist() == [
        ["a2", "cal-0", "score 2 (key 4)"]
    ]


# --- speed -----------------------------------------------------------------------------


def test_speed_by_hand(mini, generations) -> None:
    # floor 10 s. a1: 5, 8, 12, 20, 30 s -> rushed 2/5 = 0.4 > 0.1 (flagged), median 12
    # a2: 10, 11, 40 s -> 10 is not under the floor: rushed 0, median 11
    rows = [rating("a1", ans(i), 3, time=s) for i, s in enumerate([5, 8, 12, 20, 30])]
    rows += [rating("a2", ans(i), 3, time=s) for i, s in enumerate([10, 11, 40])]
    report = run(mini, rows, generations)
    t = report.table
    rushed = row(t, "a1", "rushed_share")
    assert rushed["value"] == 0.4 and rushed["flagged"] and rushed["n"] == 5
    assert row(t, "a1", "median_time_s")["value"] == 12
    assert (
        row(t, "a2", "rushed_share")["value"] == 0 and not row(t, "a2", "rushed_share")["flagged"]
    )
    assert row(t, "a2", "median_time_s")["value"] == 11
    flags = report.item_flags[report.item_flags["flag"] == "rushed"]
    assert flags[["annotator_id", "item_id"]].values.tolist() == [
        ["a1", "ans-000"],
        ["a1", "ans-001"],
    ]
    assert flags["detail"].iloc[0] == "5 s < floor 10 s (batch main-01)"
    # per slice: condition A = ans-000 (5 s), ans-002 (12 s), ans-004 (30 s) -> 1/3, unflagged
    in_a = row(t, "a1", "rushed_share", "condition=A")
    assert in_a["value"] == pytest.approx(1 / 3) and not in_a["flagged"]


# --- bias ------------------------------------------------------------------------------


def test_leniency_by_hand(mini, generations) -> None:
    # Ten items, four raters, fully crossed; a1 rates 5, the others' ratings sum to 15 - k on
    # item k (k = 1..10):
    #   k=1: 5,5,4  k=2: 5,4,4  k=3: 4,4,4  k=4: 4,4,3  k=5: 4,3,3
    #   k=6: 3,3,3  k=7: 3,3,2  k=8: 3,2,2  k=9: 2,2,2  k=10: 2,2,1
    # Fully crossed, the additive model's effects are the raters' means (5.0, 3.5, 3.2, 2.8)
    # less their median (3.35): b = +1.65, +0.15, -0.15, -0.55 (sum 1.1).
    # mu_k = mean(x - b) = (5 + 15 - k - 1.1) / 4 = (18.9 - k) / 4, so a1's residuals are
    # r_k = 5 - mu_k = 0.275 + 0.25 k: mean 1.65 (= b), all positive and distinct.
    # sd(r) = 0.25 sd(k) = 0.25 * 3.027650 = 0.756913, se = 0.239357: t = 1.65 / se = 6.8935
    # on 9 df, two-sided p = 7.12e-5; Bonferroni over the 4 annotators -> 2.85e-4 < 0.01, and
    # 1.65 >= 0.4: flagged lenient. Interval: t(.975, 9) = 2.262157 -> +- 0.541463.
    others = [(5, 5, 4), (5, 4, 4), (4, 4, 4), (4, 4, 3), (4, 3, 3),
              (3, 3, 3), (3, 3, 2), (3, 2, 2), (2, 2, 2), (2, 2, 1)]  # fmt: skip
    rows = []
    for i, xs in enumerate(others):
        rows.append(rating("a1", ans(i), 5))
        rows += [rating(a, ans(i), x) for a, x in zip(("a2", "a3", "a4"), xs, strict=True)]
    t = run(mini, rows, generations).table
    a1 = row(t, "a1", "leniency")
    assert a1["value"] == pytest.approx(1.65) and a1["n"] == 10
    assert a1["p_value"] == pytest.approx(4 * 2 * stats.t.sf(1.65 / 0.2393568, 9), rel=1e-4)
    assert a1["p_value"] == pytest.approx(2.85e-4, abs=1e-6)
    assert a1["ci_low"] == pytest.approx(1.65 - 0.541463, abs=1e-5)
    assert a1["ci_high"] == pytest.approx(1.65 + 0.541463, abs=1e-5)
    assert a1["flagged"]
    assert row(t, "a2", "leniency")["value"] == pytest.approx(0.15)
    assert row(t, "a4", "leniency")["value"] == pytest.approx(-0.55)
    assert not row(t, "a2", "leniency")["flagged"]
    assert row(t, "a1", "leniency", "task=answer|field=score")["value"] == pytest.approx(1.65)
    # a4 rates 0.55 below the median rater on every item on average (its mean is 2.8 against
    # the median 3.35), consistently enough to be flagged severe too.
    assert row(t, "a4", "leniency")["flagged"]
    assert flag_summary(t).splitlines() == [
        "a1: lenient (leniency +1.65 > 0.40, p<0.001; 1 more slice)",
        f"a4: severe (leniency -0.55 < -0.40, p={row(t, 'a4', 'leniency')['p_value']:.3f}; "
        "1 more slice)",
    ]


def test_a_constant_shift_is_flagged_and_the_others_are_not(mini, generations) -> None:
    # Four raters on 12 items; a1 = truth + 1, the others = truth. The additive model with
    # effects centred on the median rater: b(a1) = +1, b(others) = 0 (the median of
    # [1, 0, 0, 0]); mu_i = truth. a1's residuals are +1 on every item (p < 0.001) -> flagged;
    # the others' are 0 -> not flagged.
    truth = [2, 3, 4] * 4
    rows = [rating("a1", ans(i), v + 1) for i, v in enumerate(truth)]
    rows += [rating(a, ans(i), v) for a in ("a2", "a3", "a4") for i, v in enumerate(truth)]
    t = run(mini, rows, generations).table
    assert row(t, "a1", "leniency")["value"] == pytest.approx(1.0)
    assert row(t, "a1", "leniency")["flagged"]
    for other in ("a2", "a3", "a4"):
        lenient = row(t, other, "leniency")
        assert lenient["value"] == pytest.approx(0, abs=1e-9) and not lenient["flagged"]


def test_mean_rating_and_slice_bias_by_hand(mini, generations) -> None:
    # 24 items: even ids are condition A, odd ones B (mini generations). Five raters; a2..a5
    # rate 3 everywhere; a1 rates 4 on A items and 3 on B items.
    # mean_rating a1: A -> 4.0, B -> 3.0
    # d(a1): A items 4 - 3 = 1, B items 0 -> slice_bias condition=A = 1 - 0 = +1 (no
    # variance: p = 0) -> flagged; condition=B = -1.
    # d(a2): A items 3 - (4 + 3 + 3 + 3) / 4 = -0.25, B items 0 -> slice_bias -0.25: under
    # the 0.5 minimum -> not flagged.
    rows = []
    for i in range(24):
        rows.append(rating("a1", ans(i), 4 if i % 2 == 0 else 3))
        rows += [rating(a, ans(i), 3) for a in ("a2", "a3", "a4", "a5")]
    t = run(mini, rows, generations).table
    assert row(t, "a1", "mean_rating", "task=answer|field=score|condition=A")["value"] == 4.0
    assert row(t, "a1", "mean_rating", "task=answer|field=score|condition=B")["value"] == 3.0
    assert row(t, "a1", "mean_rating", "task=answer|field=score")["value"] == 3.5
    bias = row(t, "a1", "slice_bias", "task=answer|field=score|condition=A")
    assert bias["value"] == pytest.approx(1.0) and bias["flagged"] and bias["n"] == 12
    assert row(t, "a1", "slice_bias", "condition=A")["value"] == pytest.approx(1.0)
    assert row(t, "a1", "slice_bias", "task=answer|field=score|condition=B")[
        "value"
    ] == pytest.approx(-1.0)
    other = row(t, "a2", "slice_bias", "task=answer|field=score|condition=A")
    assert other["value"] == pytest.approx(-0.25) and not other["flagged"]
    assert "a1: " in flag_summary(
        t
    ) and "rates condition=A higher than the others do" in flag_summary(t)


def test_scale_extremes_by_hand(mini, generations) -> None:
    # 12 items. a1 always rates 3 (never an end of 1..5): share 0/12.
    # a2 alternates 1 and 5: share 12/12; for a1 the others' median share is 1.0 -> target
    # 0.25 * 1.0 = 0.25 and 0 < 0.25 -> flagged. For a2 the others (a1) use the ends 0% of
    # the time (< 10%): a2 is not judged.
    rows = [rating("a1", ans(i), 3) for i in range(12)]
    rows += [rating("a2", ans(i), 1 if i % 2 else 5) for i in range(12)]
    t = run(mini, rows, generations).table
    a1 = row(t, "a1", "scale_extremes_share")
    assert a1["value"] == 0 and a1["target"] == 0.25 and a1["flagged"]
    a2 = row(t, "a2", "scale_extremes_share")
    assert a2["value"] == 1 and math.isnan(a2["target"]) and not a2["flagged"]


def test_outlier_items_by_hand(mini, generations) -> None:
    # ans-000: 1 and 4 -> 3 points apart (> 2): an outlier, both raters flagged.
    # ans-001: 1 and 3 -> 2 points apart: not.  outlier_share a1 = 1/2.
    rows = [
        rating("a1", ans(0), 1),
        rating("a2", ans(0), 4),
        rating("a1", ans(1), 1),
        rating("a2", ans(1), 3),
    ]
    report = run(mini, rows, generations)
    flags = report.item_flags[report.item_flags["flag"] == "outlier_item"]
    assert flags[["annotator_id", "item_id"]].values.tolist() == [
        ["a1", "ans-000"],
        ["a2", "ans-000"],
    ]
    assert flags["detail"].iloc[0] == "score: a1 1, a2 4"
    assert row(report.table, "a1", "outlier_share")["value"] == 0.5


def test_category_disagreement_by_hand(mini, generations) -> None:
    # 30 items; category = api / security / data by i % 3. On the ten security items a1 rates
    # 1 and a2, a3 rate 4: per item mean pair gap (3 + 3 + 0) / 3 = 2; elsewhere all rate 3:
    # gap 0. security: 2 - 0 = +2 points over the other items (no variance: p = 0) -> flagged.
    rows = []
    for i in range(30):
        security = i % 3 == 1
        rows.append(rating("a1", ans(i), 1 if security else 3))
        rows += [rating(a, ans(i), 4 if security else 3) for a in ("a2", "a3")]
    t = run(mini, rows, generations).table
    found = row(t, "*", "category_disagreement", "task=answer|field=score|category=security")
    assert found["value"] == pytest.approx(2.0) and found["n"] == 10 and found["flagged"]
    assert not row(t, "*", "category_disagreement", "task=answer|field=score|category=api")[
        "flagged"
    ]
    assert row(t, "*", "category_disagreement", "task=answer|field=score")[
        "value"
    ] == pytest.approx(2 / 3)
    assert "all raters: raters disagree in a category" in flag_summary(t)


def test_item_disagreement_is_the_mean_pair_gap() -> None:
    # item x: ratings 1, 2, 4 -> pairs |1-2| + |1-4| + |2-4| = 1 + 3 + 2 = 6 over 3 pairs = 2
    # item y: 5 and missing and 5 -> 0; item z: one rating -> left out
    part = pd.DataFrame(
        {
            "item_id": ["x", "x", "x", "y", "y", "z"],
            "annotator_id": ["a", "b", "c", "a", "c", "a"],
            "x": [1.0, 2.0, 4.0, 5.0, 5.0, 3.0],
        }
    )
    out = item_disagreement(part, likert=True)
    assert out.to_dict() == {"x": 2.0, "y": 0.0}


# --- summary ---------------------------------------------------------------------------


def test_flag_summary_names_each_reason_once(mini, generations) -> None:
    rows = [rating("a1", ans(i), 3, time=s) for i, s in enumerate([5, 8, 12, 20, 30])]
    rows += [rating("a1", "att-0", 4, kind="attention"), rating("a1", "att-1", 1, kind="attention")]
    rows += [rating("a2", ans(i), 3, time=50) for i in range(3)]
    text = flag_summary(run(mini, rows, generations).table)
    assert text.splitlines() == [
        "a1: rushed (rushed_share 0.29 > 0.10), "
        "misses attention checks (attention_pass_rate 0.50 < 1.00)"
    ]
    empty = run(mini, [rating("a2", ans(0), 3)], generations).table
    assert flag_summary(empty) == "no rater flagged"


def test_nothing_to_assess_gives_empty_typed_tables(mini, generations) -> None:
    report = assess(mini, labels([]), generations)
    assert report.table.empty and report.item_flags.empty and report.promotions.empty
    assert report.table["value"].dtype == np.float64
    assert flag_summary(report.table) == "no rater flagged"


def test_inconsistent_duplicates_are_one_flag_per_item_fields_in_order() -> None:
    """Whatever the pairs' order, one flag per (annotator, task, item), its fields (then
    batches) in order; pairs within one are not named."""
    from raterlab.quality.consistency import consistency_flags

    pairs = pd.DataFrame(
        [
            ("a1", "t", "i2", "score", "b2", 1.0, 5.0, False),
            ("a1", "t", "i1", "tone", "b1", 5.0, 1.0, False),
            ("a1", "t", "i1", "clarity", "b1", 1.0, 4.0, False),
            ("a1", "t", "i1", "bias", "b1", 2.0, 3.0, True),
            ("a0", "t", "i1", "score", "b2", 2.0, 5.0, False),
            ("a0", "t", "i1", "score", "b1", 1.0, 4.0, False),
        ],
        columns=[
            "annotator_id",
            "task",
            "item_id",
            "field",
            "batch",
            "first",
            "second",
            "within_one",
        ],
    )
    flags = consistency_flags(pairs)
    assert [(f["annotator_id"], f["item_id"], f["detail"]) for f in flags] == [
        ("a0", "i1", "score 1 then 4; score 2 then 5"),
        ("a1", "i1", "clarity 1 then 4; tone 5 then 1"),
        ("a1", "i2", "score 1 then 5"),
    ]
    assert {f["flag"] for f in flags} == {"duplicate_inconsistent"}
