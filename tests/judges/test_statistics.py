"""The judge statistics against scipy, scikit-learn, pingouin and statsmodels, and against
published values (Steiger 1980 for Williams' test)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pingouin
import pytest
from scipy import stats
from sklearn.metrics import cohen_kappa_score, confusion_matrix, precision_score, recall_score
from statsmodels.stats.multitest import multipletests

from raterlab.agreement.bootstrap import resample_counts
from raterlab.judges import resample
from raterlab.judges.calibrate import calibrate_field
from raterlab.judges.contingency import (
    levels,
    table_correlations,
    table_kappa,
    tabulate_labels,
    tabulate_numeric,
)
from raterlab.judges.field_input import FieldInput, Options
from raterlab.judges.significance import benjamini_yekutieli, williams_test, wilson_interval

SCIPY = {
    "pearson": lambda x, y: stats.pearsonr(x, y).statistic,
    "spearman": lambda x, y: stats.spearmanr(x, y).statistic,
    "kendall": lambda x, y: stats.kendalltau(x, y).statistic,  # tau-b
}


def _tied_pair(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """A judge on a 1-10 scale and a mean of three 1-5 ratings: many ties on both sides."""
    truth = rng.normal(size=n)
    judge = np.clip(np.round(5 + 2 * truth + rng.normal(size=n)), 1, 10)
    human = np.clip(np.round(3 + truth[:, None] + rng.normal(size=(n, 3))), 1, 5).mean(axis=1)
    return judge, human


def _correlations(x: np.ndarray, y: np.ndarray, counts: np.ndarray) -> dict[str, np.ndarray]:
    tab = tabulate_numeric(x, y)
    return table_correlations(tab.tables(counts), tab.x_values, tab.y_values)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_correlations_equal_scipy_with_ties(seed: int) -> None:
    x, y = _tied_pair(np.random.default_rng(seed), 80)
    got = _correlations(x, y, np.ones((1, x.size)))
    for name, reference in SCIPY.items():
        assert got[name][0] == pytest.approx(reference(x, y), abs=1e-12), name


def test_bootstrap_replicates_equal_scipy_on_each_resample() -> None:
    """A resample's table gives scipy's value on the repeated data x[idx], y[idx]."""
    rng = np.random.default_rng(5)
    x, y = _tied_pair(rng, 60)
    indices = rng.integers(0, 60, size=(25, 60))
    got = _correlations(x, y, resample_counts(indices, 60))
    for name, reference in SCIPY.items():
        expected = [reference(x[i], y[i]) for i in indices]
        np.testing.assert_allclose(got[name], expected, atol=1e-12, err_msg=name)


def test_run_draws_the_documented_resamples() -> None:
    """``resample.run`` draws ``rng.integers(0, n, (B, n))`` once, shared by all consumers."""
    rng = np.random.default_rng(9)
    x, y = _tied_pair(rng, 40)
    tab = tabulate_numeric(x, y)
    consumer = lambda c: table_correlations(tab.tables(c), tab.x_values, tab.y_values)  # noqa: E731
    (result,) = resample.run(40, [consumer], n_resamples=30, seed=11)
    indices = np.random.default_rng(11).integers(0, 40, size=(30, 40))
    expected = [stats.kendalltau(x[i], y[i]).statistic for i in indices]
    np.testing.assert_allclose(result["kendall"].replicates, expected, atol=1e-12)
    assert result["kendall"].estimate == pytest.approx(stats.kendalltau(x, y).statistic)


def test_pingouin_agrees_on_rank_correlations() -> None:
    x, y = _tied_pair(np.random.default_rng(3), 70)
    got = _correlations(x, y, np.ones((1, 70)))
    for method in ("spearman", "kendall", "pearson"):
        assert got[method][0] == pytest.approx(pingouin.corr(x, y, method=method)["r"].iloc[0])


def test_ties_within_tolerance_share_a_rank() -> None:
    """Means computed in different orders differ in the last bit; they stay one tie."""
    a = np.mean([4.0, 5.0, 5.0])
    b = (5.0 + 5.0 + 4.0) / 3 + 1e-15
    assert a != b
    codes, values = levels(np.array([a, b, 3.0]))
    assert codes[0] == codes[1] != codes[2]
    assert values.size == 2
    y = np.array([a, b, 3.0, 2.0, 1.0])
    x = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    got = _correlations(x, y, np.ones((1, 5)))
    exact = np.array([a, a, 3.0, 2.0, 1.0])
    assert got["spearman"][0] == pytest.approx(stats.spearmanr(x, exact).statistic)
    assert got["kendall"][0] == pytest.approx(stats.kendalltau(x, exact).statistic)


def test_dense_correlations_equal_scipy() -> None:
    rng = np.random.default_rng(4)
    x = rng.integers(0, 4, size=(6, 9)).astype(float)
    y = rng.normal(size=(6, 9))
    got = resample.dense_correlations(x, y)
    for name, reference in SCIPY.items():
        np.testing.assert_allclose(got[name], [reference(a, b) for a, b in zip(x, y, strict=True)])


def test_kappa_and_accuracy_equal_sklearn() -> None:
    rng = np.random.default_rng(6)
    labels = ["yes", "no", "skip"]
    judge = rng.choice(labels, size=90, p=[0.6, 0.3, 0.1]).astype(object)
    human = np.where(rng.random(90) < 0.7, judge, rng.choice(labels, size=90)).astype(object)
    tab = tabulate_labels(judge, human, labels)
    got = table_kappa(tab.tables(np.ones((1, 90))))
    assert got["kappa"][0] == pytest.approx(cohen_kappa_score(judge, human))
    assert got["accuracy"][0] == pytest.approx(np.mean(judge == human))


def test_categorical_rows_match_sklearn_and_leave_ties_out() -> None:
    rng = np.random.default_rng(8)
    n = 120
    truth = rng.integers(0, 2, n)
    humans = np.array(
        [[str(t if rng.random() < 0.85 else 1 - t) for _ in range(3)] for t in truth], dtype=object
    )
    humans[:10, 2] = None  # two raters left: some of these tie
    judge = np.array([str(t if rng.random() < 0.8 else 1 - t) for t in truth], dtype=object)
    fi = FieldInput(
        field="ok",
        kind="categorical",
        units=np.arange(n).astype(str).astype(object),
        raters=["a", "b", "c"],
        humans=humans,
        judges={"j": judge},
        given={"j": np.ones(n, dtype=bool)},
        labels=["0", "1"],
        alpha_level="nominal",
    )
    table = calibrate_field(fi, Options(resamples=50))
    row = lambda stat, label=None: table[  # noqa: E731
        (table["statistic"] == stat)
        & (table["slice"] == "all")
        & (table["label"].isna() if label is None else table["label"] == label)
    ].iloc[0]
    votes = pd.DataFrame(humans).apply(lambda r: r.dropna().value_counts(), axis=1).fillna(0)
    tied = (votes.max(axis=1) == votes.min(axis=1)) & (votes.gt(0).sum(axis=1) > 1)
    majority = votes.idxmax(axis=1).where(~tied)
    keep = majority.notna().to_numpy()
    h, j = majority[keep].astype(str).to_numpy(), judge[keep].astype(str)
    assert row("human_ties")["estimate"] == tied.sum() > 0
    assert row("kappa")["n"] == keep.sum()
    assert row("kappa")["estimate"] == pytest.approx(cohen_kappa_score(j, h))
    assert row("accuracy")["estimate"] == pytest.approx(np.mean(j == h))
    for label in ("0", "1"):
        assert row("precision", label)["estimate"] == pytest.approx(
            precision_score(h, j, pos_label=label)
        )
        assert row("recall", label)["estimate"] == pytest.approx(
            recall_score(h, j, pos_label=label)
        )
    matrix = confusion_matrix(h, j, labels=["0", "1"])  # rows human, columns judge
    assert row("confusion", "1|0")["estimate"] == matrix[0, 1]
    assert row("confusion", "0|1")["estimate"] == matrix[1, 0]
    low, high = row("kappa")[["ci_low", "ci_high"]]
    assert low < row("kappa")["estimate"] < high


def test_williams_test_steiger_example() -> None:
    """Steiger (1980), the masculinity/femininity/verbal ability example (also psych's
    r.test(103, .4, .5, .1)): Williams' T2 = 0.89 on 100 df, p = 0.37."""
    t, p = williams_test(0.5, 0.4, 0.1, 103)
    assert t == pytest.approx(0.891, abs=5e-4)
    assert p == pytest.approx(0.375, abs=2e-3)
    t_swapped, p_swapped = williams_test(0.4, 0.5, 0.1, 103)
    assert t_swapped == pytest.approx(-t) and p_swapped == pytest.approx(p)


def test_benjamini_yekutieli_equals_statsmodels() -> None:
    p = np.random.default_rng(2).uniform(0, 0.03, size=12)
    expected, *_ = multipletests(p, alpha=0.05, method="fdr_by")
    np.testing.assert_array_equal(benjamini_yekutieli(p, 0.05), expected)


def test_wilson_interval_equals_statsmodels() -> None:
    from statsmodels.stats.proportion import proportion_confint

    assert wilson_interval(37, 50, 0.95) == pytest.approx(
        proportion_confint(37, 50, alpha=0.05, method="wilson")
    )


def test_bias_overall_and_per_system() -> None:
    rng = np.random.default_rng(12)
    n = 90
    humans = rng.integers(1, 6, size=(n, 3)).astype(float)
    humans[:, 1:][rng.random((n, 2)) < 0.2] = np.nan
    systems = np.array(["A", "B", "C"])[rng.integers(0, 3, n)]
    judge = np.clip(np.nanmean(humans, axis=1) + rng.normal(0.4, 0.5, n), 1, 5)
    judge[:5] = np.nan
    fi = FieldInput(
        field="score",
        kind="graded",
        units=np.arange(n).astype(str).astype(object),
        raters=["r1", "r2", "r3"],
        humans=humans,
        judges={"j": judge},
        given={"j": np.ones(n, dtype=bool)},
        systems=systems,
    )
    table = calibrate_field(fi, Options(resamples=200))
    bias = table[table["statistic"] == "bias"].set_index(["level", "label"], drop=False)
    diff = pd.Series(judge - np.nanmean(humans, axis=1))
    overall = bias[bias["level"] == "item"].iloc[0]
    assert overall["estimate"] == pytest.approx(diff.mean())
    for name in ("A", "B", "C"):
        row = bias.loc[("system", name)]
        assert row["estimate"] == pytest.approx(diff[systems == name].mean())
        assert row["n"] == diff[systems == name].notna().sum()
        assert row["ci_low"] < row["estimate"] < row["ci_high"]
    valid = table[table["statistic"] == "valid_rate"].iloc[0]
    assert (valid["n"], valid["estimate"]) == (n, np.isfinite(judge).sum() / n)


def test_brier_and_calibration_error() -> None:
    humans = np.array([["1", "1"], ["0", "0"], ["1", "1"], ["0", "0"]] * 5, dtype=object)
    judge = np.array(["1", "1", "1", "0"] * 5, dtype=object)  # wrong on the second of four
    confidence = np.array([0.9, 0.8, 0.7, 0.95] * 5)
    fi = FieldInput(
        field="ok",
        kind="categorical",
        units=np.arange(20).astype(str).astype(object),
        raters=["a", "b"],
        humans=humans,
        judges={"j": judge},
        given={"j": np.ones(20, dtype=bool)},
        confidence={"j": confidence},
        labels=["0", "1"],
        alpha_level="nominal",
    )
    table = calibrate_field(fi, Options(resamples=50)).set_index("statistic")
    correct = np.array([1, 0, 1, 1] * 5)
    assert table.loc["brier", "estimate"] == pytest.approx(np.mean((confidence - correct) ** 2))
    # Bins of width 0.1: 0.7 -> acc 1, 0.8 -> acc 0, 0.9 -> acc 1, 0.95 -> acc 1.
    expected = (0.3 + 0.8 + 0.1 + 0.05) / 4
    assert table.loc["ece", "estimate"] == pytest.approx(expected)


def test_large_tables_fall_back_to_scipy_per_resample(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two continuous variables: above MAX_CELLS the pair is not tabulated; the replicates
    are scipy's on the repeated data, like the tabulated path's."""
    rng = np.random.default_rng(21)
    x, y = rng.normal(size=40), rng.normal(size=40)
    tabulated, _ = resample.correlation_consumer(x, y)
    monkeypatch.setattr(resample, "MAX_CELLS", 10)
    looped, _ = resample.correlation_consumer(x, y)
    counts = resample_counts(rng.integers(0, 40, size=(15, 40)), 40)
    a, b = tabulated(counts), looped(counts)
    for name in SCIPY:
        np.testing.assert_allclose(a[name], b[name], atol=1e-12)


def test_label_codes_are_each_labels_position() -> None:
    """Verdicts as the categorical statistics read them: a label's position, NaN for a
    missing verdict or one that is none of the labels."""
    from raterlab.judges.calibrate import _codes

    values = np.array(["b", None, "a", "x", np.nan, "b", "c", "a"], dtype=object)
    expected = [1.0, np.nan, 0.0, np.nan, np.nan, 1.0, 2.0, 0.0]
    np.testing.assert_array_equal(_codes(values, ["a", "b", "c"]), expected)
    assert _codes(np.array([], dtype=object), ["a"]).shape == (0,)
    grid = values.reshape(2, 4)  # the humans' matrix: units x raters
    np.testing.assert_array_equal(_codes(grid, ["a", "b", "c"]), np.reshape(expected, (2, 4)))
    np.testing.assert_array_equal(_codes(np.array([1, 2.5]), None), [1.0, 2.5])
