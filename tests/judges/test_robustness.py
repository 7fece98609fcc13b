"""Judge robustness against reference implementations: repeat-run consistency (scikit-learn's
Cohen's kappa, statsmodels' Fleiss' kappa, the krippendorff package), position-swap
consistency and position bias (statsmodels' Wilson interval, scipy's binomial test), bias per
slice (scipy's one-sample t-test and t interval); and the ``run`` column of a judge file,
through import, storage and back."""

from __future__ import annotations

import copy
from pathlib import Path

import krippendorff
import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa
from statsmodels.stats.proportion import proportion_confint

from raterlab.judges.robustness import (
    MIN_CONSISTENCY,
    mean_difference,
    position_swap_checks,
    repeat_run_consistency,
    slice_bias,
)
from raterlab.judges.verdicts import (
    JudgeFileError,
    first_runs,
    imported_verdicts,
    read_judge_file,
    store_imported,
)
from raterlab.protocol import parse_study
from tests.judges.test_study import JUDGED


def _runs(matrix: np.ndarray) -> pd.DataFrame:
    """A units x runs matrix as long rows (unit, run, value)."""
    units, runs = matrix.shape
    return pd.DataFrame(
        {
            "unit": np.repeat([f"u{i}" for i in range(units)], runs),
            "run": np.tile([str(r + 1) for r in range(runs)], units),
            "value": matrix.ravel(),
        }
    )


def test_two_runs_are_cohens_kappa() -> None:
    rng = np.random.default_rng(1)
    first = rng.integers(0, 2, 80)
    second = np.where(rng.random(80) < 0.15, 1 - first, first)
    matrix = np.column_stack([first, second]).astype(str).astype(object)
    row = repeat_run_consistency(_runs(matrix), "categorical", resamples=200, seed=4)
    assert row["statistic"] == "cohen_kappa"
    assert row["estimate"] == pytest.approx(cohen_kappa_score(first, second))
    assert row["n"] == 80 and row["n_runs"] == 2
    assert row["ci_low"] < row["estimate"] < row["ci_high"]
    assert row["flagged"] == bool(row["estimate"] < MIN_CONSISTENCY)


def test_three_runs_are_fleiss_kappa() -> None:
    rng = np.random.default_rng(2)
    truth = rng.integers(0, 3, 60)
    matrix = np.column_stack(
        [np.where(rng.random(60) < 0.2, rng.integers(0, 3, 60), truth) for _ in range(3)]
    )
    row = repeat_run_consistency(_runs(matrix.astype(str).astype(object)), "categorical", 100)
    table, _ = aggregate_raters(matrix)
    assert row["statistic"] == "fleiss_kappa"
    assert row["estimate"] == pytest.approx(fleiss_kappa(table, method="fleiss"))
    assert row["n_runs"] == 3


def test_graded_runs_are_interval_alpha() -> None:
    rng = np.random.default_rng(3)
    truth = rng.integers(1, 6, 50).astype(float)
    matrix = np.column_stack([np.clip(truth + rng.integers(-1, 2, 50), 1, 5) for _ in range(2)])
    matrix[3, 1] = np.nan  # a unit one run left without a verdict
    row = repeat_run_consistency(_runs(matrix), "graded", 100)
    reference = krippendorff.alpha(matrix.T, level_of_measurement="interval")
    assert row["statistic"] == "krippendorff_alpha"
    assert row["estimate"] == pytest.approx(reference)
    assert row["n"] == 49


def test_one_run_is_not_measured_and_a_constant_judge_is_undefined() -> None:
    assert (
        repeat_run_consistency(_runs(np.array([["1"], ["0"]], dtype=object)), "categorical") is None
    )
    same = np.array([["1", "1"]] * 10, dtype=object)
    row = repeat_run_consistency(_runs(same), "categorical", 50)
    assert np.isnan(row["estimate"]) and row["flagged"] is None
    assert row["note"]


def _pairwise() -> pd.DataFrame:
    """Judge j on four pairs in both orders: consistent on three (one a tie), and one pair
    where it always picks the left side."""
    rows = [
        ("p1", "A", "B", "left"),
        ("p1", "B", "A", "right"),
        ("p2", "A", "C", "right"),
        ("p2", "C", "A", "C"),
        ("p3", "B", "C", "tie"),
        ("p3", "C", "B", "tie"),
        ("p4", "A", "B", "left"),
        ("p4", "B", "A", "left"),
        ("p5", "A", "B", "left"),
    ]
    frame = pd.DataFrame(rows, columns=["item_id", "left_system", "right_system", "winner"])
    return frame.assign(judge="j")


def test_position_swap_consistency_and_bias() -> None:
    out = position_swap_checks(_pairwise()).set_index("check")
    swap = out.loc["position_swap"]
    assert (swap["n"], swap["estimate"]) == (4, 0.75)
    low, high = proportion_confint(3, 4, alpha=0.05, method="wilson")
    assert (swap["ci_low"], swap["ci_high"]) == pytest.approx((low, high))
    assert swap["flagged"]  # 0.75 < 0.8
    bias = out.loc["position_bias"]
    # Sides named on the pairs seen in both orders: p1 left, right; p2 right, left (C shown
    # left); p4 left, left. p5, seen in one order only, is left out.
    assert (bias["n"], bias["estimate"]) == (6, 4 / 6)
    assert bias["p_value"] == pytest.approx(stats.binomtest(4, 6, 0.5).pvalue)
    low, high = proportion_confint(4, 6, alpha=0.05, method="wilson")
    assert (bias["ci_low"], bias["ci_high"]) == pytest.approx((low, high))
    assert not bias["flagged"]


def test_position_swap_matches_orders_within_a_run() -> None:
    frame = pd.concat([_pairwise().assign(run="1"), _pairwise().assign(run="2")])
    swap = position_swap_checks(frame).set_index("check").loc["position_swap"]
    assert (swap["n"], swap["estimate"]) == (8, 0.75)


def test_pairwise_errors_name_row_and_value() -> None:
    bad = _pairwise()
    bad.loc[2, "winner"] = "D"
    with pytest.raises(ValueError, match=r"row 2, column winner: 'D' is none of"):
        position_swap_checks(bad)
    twice = pd.concat([_pairwise(), _pairwise().iloc[[0]]], ignore_index=True)
    with pytest.raises(ValueError, match=r"two verdicts of judge 'j' on item 'p1'"):
        position_swap_checks(twice)
    with pytest.raises(ValueError, match=r"missing column\(s\) \['winner'\]"):
        position_swap_checks(_pairwise().drop(columns="winner"))


def test_slice_bias_is_a_one_sample_t_test() -> None:
    rng = np.random.default_rng(5)
    human = rng.integers(1, 6, 40).astype(float)
    judge = np.clip(human + rng.choice([0, 0, 1], 40), 1, 5)
    judge[0] = np.nan
    (row,) = slice_bias(judge, human)
    d = (judge - human)[1:]
    reference = stats.ttest_1samp(d, 0.0)
    interval = reference.confidence_interval(0.95)
    assert row["check"] == "slice_bias" and row["n"] == 39
    assert row["estimate"] == pytest.approx(d.mean())
    assert row["p_value"] == pytest.approx(reference.pvalue)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((interval.low, interval.high))
    assert row["flagged"] == bool(reference.pvalue < 0.05)


@pytest.mark.parametrize("n", [2, 3, 7, 40, 500])
@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_mean_difference_equals_scipys_t_test_and_interval(n: int, confidence: float) -> None:
    rng = np.random.default_rng(n)
    d = rng.normal(0.3, 1.5, n)
    reference = stats.ttest_1samp(d, 0.0)
    interval = reference.confidence_interval(confidence)
    row = mean_difference(d, confidence)
    close = {"rel": 1e-12, "abs": 1e-300}
    assert row["p_value"] == pytest.approx(reference.pvalue, **close)
    assert row["ci_low"] == pytest.approx(interval.low, **close)
    assert row["ci_high"] == pytest.approx(interval.high, **close)


def test_slice_bias_of_labels_and_degenerate_slices() -> None:
    judge = np.array(["a", "b", "b", "c", None], dtype=object)
    human = np.array(["a", "a", "b", "c", "c"], dtype=object)
    rows = {r["label"]: r for r in slice_bias(judge, human, ["a", "b", "c"])}
    assert rows["a"]["estimate"] == pytest.approx(-0.25)  # a: 1 of 4 judged, 2 of 4 human
    assert rows["b"]["estimate"] == pytest.approx(0.25)
    assert rows["c"]["estimate"] == 0
    one = mean_difference(np.array([0.5]))
    assert one["estimate"] == 0.5 and np.isnan(one["p_value"]) and np.isnan(one["ci_low"])
    same = mean_difference(np.array([1.0, 1.0, 1.0]))
    assert (same["ci_low"], same["ci_high"], same["p_value"]) == (1.0, 1.0, 0.0)
    assert mean_difference(np.zeros(4))["p_value"] == 1.0


def _judge_file(tmp_path: Path, rows: list[dict]) -> Path:
    path = tmp_path / "judge.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


def test_run_column_round_trip(tmp_path: Path) -> None:
    study = parse_study(copy.deepcopy(JUDGED), "mini.yaml")
    tasks_of = {"ans-001": "answer", "ans-002": "answer"}
    rows = [
        {"item_id": i, "judge": "external", "field": "score_1to5", "value": v, "run": r}
        for i, v, r in [("ans-001", 4, 2), ("ans-001", 3, 1), ("ans-002", 5, 1), ("ans-002", 5, 10)]
    ]
    verdicts = read_judge_file(study, _judge_file(tmp_path, rows), tasks_of)
    assert verdicts["run"].tolist() == ["2", "1", "1", "10"]
    store_imported(verdicts, tmp_path / "store")
    back = imported_verdicts(tmp_path / "store")
    assert back[["item_id", "value", "run"]].values.tolist() == [
        ["ans-001", "4", "2"],
        ["ans-001", "3", "1"],
        ["ans-002", "5", "1"],
        ["ans-002", "5", "10"],
    ]
    assert first_runs(back)[["item_id", "value", "run"]].values.tolist() == [
        ["ans-001", "3", "1"],
        ["ans-002", "5", "1"],
    ]
    # The same item, field and run twice is an error naming both rows.
    with pytest.raises(
        JudgeFileError, match=r"row 3: a second verdict .* in run '1' \(first on row 2\)"
    ):
        read_judge_file(study, _judge_file(tmp_path, [rows[1], rows[1]]), tasks_of)


def test_files_without_run_are_one_run(tmp_path: Path) -> None:
    study = parse_study(copy.deepcopy(JUDGED), "mini.yaml")
    rows = [{"item_id": "ans-001", "judge": "external", "field": "score_1to5", "value": 4}]
    verdicts = read_judge_file(study, _judge_file(tmp_path, rows), {"ans-001": "answer"})
    assert verdicts["run"].tolist() == ["1"]
    # A judge stored before runs were kept (no run column) reads back as run 1.
    folder = tmp_path / "old"
    folder.mkdir()
    verdicts.drop(columns="run").to_csv(folder / "external.csv", index=False)
    assert imported_verdicts(folder)["run"].tolist() == ["1"]
