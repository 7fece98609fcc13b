"""The comparison statistics against published worked examples, SciPy and statsmodels."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import statsmodels.formula.api as smf
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as scipy_stats
from statsmodels.stats.multitest import multipletests

from raterlab.comparison import stats


def test_wilcoxon_hollander_wolfe_depression_example():
    """Hollander & Wolfe (1999), Nonparametric Statistical Methods, Example 3.1 (Hamilton
    depression scale before/after tranquilizer, n = 9; also R's ``wilcox.test`` example):
    T+ = 40, one-sided exact p = 0.01953, so two-sided p = 0.03906."""
    x = np.array([1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30])
    y = np.array([0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29])
    result = stats.wilcoxon_signed_rank(x - y)
    assert result.n == 9
    assert result.t_plus == 40
    assert result.t_minus == 5
    assert result.p_value == pytest.approx(2 * 0.01953, abs=1e-4)
    assert result.rank_biserial == pytest.approx(35 / 45)


def test_wilcoxon_wikipedia_example_with_zero_and_ties():
    """Wikipedia, "Wilcoxon signed-rank test", worked example: 10 pairs, one zero difference
    dropped, a tie in |d| (mid-ranks 1.5); N_r = 9 and |W| = |T+ - T-| = 9."""
    x2 = np.array([110, 122, 125, 120, 140, 124, 123, 137, 135, 145])
    x1 = np.array([125, 115, 130, 140, 140, 115, 140, 125, 140, 135])
    result = stats.wilcoxon_signed_rank(x2 - x1)
    assert result.n == 9
    assert abs(result.t_plus - result.t_minus) == 9
    assert result.t_plus + result.t_minus == 9 * 10 / 2
    reference = scipy_stats.wilcoxon(x2 - x1, zero_method="wilcox", correction=False)
    assert result.p_value == pytest.approx(reference.pvalue)
    assert min(result.t_plus, result.t_minus) == reference.statistic


def test_wilcoxon_all_zero_is_undefined_not_an_error():
    result = stats.wilcoxon_signed_rank(np.zeros(5))
    assert result.n == 0 and np.isnan(result.p_value)


def test_sign_test_matches_binomial():
    d = np.array([1, 1, 1, 1, 1, 1, 1, -1, 0, 0, 2])
    assert stats.sign_test(d) == pytest.approx(scipy_stats.binomtest(8, 9, 0.5).pvalue)
    assert np.isnan(stats.sign_test(np.zeros(3)))


def test_mann_whitney_rank_biserial_is_the_dominance_difference():
    rng = np.random.default_rng(3)
    x, y = rng.integers(1, 6, 30), rng.integers(1, 6, 25)
    result = stats.mann_whitney(x, y)
    greater = (x[:, None] > y[None, :]).mean()
    less = (x[:, None] < y[None, :]).mean()
    assert result.rank_biserial == pytest.approx(greater - less)
    reference = scipy_stats.mannwhitneyu(x, y, alternative="two-sided")
    assert result.p_value == pytest.approx(reference.pvalue)


def test_holm_matches_statsmodels():
    p = np.array([0.01, 0.04, 0.03, 0.20, np.nan, 0.005])
    valid = ~np.isnan(p)
    expected = multipletests(p[valid], method="holm")[1]
    adjusted = stats.holm(p)
    assert np.isnan(adjusted[4])
    np.testing.assert_allclose(adjusted[valid], expected)


def _ratings(seed: int = 0) -> pd.DataFrame:
    """Paired prompts, condition A one point better, rater r3 harsh by one point and rating
    more B than A (so raw means are confounded by the rater)."""
    rng = np.random.default_rng(seed)
    rows = []
    for prompt in range(40):
        base = rng.normal(3, 0.7)
        for condition, shift in (("A", 1.0), ("B", 0.0)):
            raters = ["r1", "r2"] if condition == "A" else ["r1", "r3"]
            for rater in raters:
                harsh = -1.0 if rater == "r3" else 0.0
                value = base + shift + harsh + rng.normal(0, 0.5)
                rows.append((f"p{prompt}", condition, rater, value))
    return pd.DataFrame(rows, columns=["prompt", "condition", "rater", "value"])


def test_rater_adjusted_matches_statsmodels_cluster_robust_ols():
    frame = _ratings()
    frame["treated"] = (frame["condition"] == "A").astype(float)
    fit = stats.rater_adjusted(
        frame["value"].to_numpy(),
        frame["treated"].to_numpy(),
        frame["rater"].to_numpy(),
        frame["prompt"].to_numpy(),
    )
    groups = pd.factorize(frame["prompt"])[0]
    reference = smf.ols("value ~ treated + C(rater)", data=frame).fit(
        cov_type="cluster", cov_kwds={"groups": groups}, use_t=True
    )
    assert fit.estimate == pytest.approx(reference.params["treated"])
    assert fit.se == pytest.approx(reference.bse["treated"])
    assert fit.p_value == pytest.approx(reference.pvalues["treated"])
    assert (fit.n_ratings, fit.n_raters, fit.n_clusters) == (160, 3, 40)


def test_rater_adjusted_removes_a_harsh_raters_confound():
    """The raw difference is inflated by r3 (harsh) rating only B; the adjusted one is the
    planted 1.0."""
    frame = _ratings(seed=5)
    raw = (
        frame[frame["condition"] == "A"]["value"].mean()
        - frame[frame["condition"] == "B"]["value"].mean()
    )
    fit = stats.rater_adjusted(
        frame["value"].to_numpy(),
        (frame["condition"] == "A").to_numpy(),
        frame["rater"].to_numpy(),
        frame["prompt"].to_numpy(),
    )
    assert raw > 1.3
    assert fit.estimate == pytest.approx(1.0, abs=0.15)


def test_rater_adjusted_without_contrast_is_undefined():
    values = np.arange(6, dtype=float)
    fit = stats.rater_adjusted(values, np.ones(6), np.array(["a", "b"] * 3), np.arange(6))
    assert np.isnan(fit.estimate)


def test_bootstrap_intervals_are_seeded_and_cover_the_estimate():
    d = np.random.default_rng(1).normal(0.5, 1, 60)
    one = stats.bootstrap_paired(d, np.random.default_rng(7))
    two = stats.bootstrap_paired(d, np.random.default_rng(7))
    assert one == two
    assert one["mean_low"] < d.mean() < one["mean_high"]
    assert one["median_low"] <= np.median(d) <= one["median_high"]
    constant = stats.bootstrap_paired(np.full(10, 2.0), np.random.default_rng(0))
    assert constant["mean_low"] == constant["mean_high"] == 2.0
    groups = stats.bootstrap_groups(d + 1, d, np.random.default_rng(0))
    assert groups["mean_low"] < 1 < groups["mean_high"]


@pytest.mark.parametrize("n", [1, 2, 7, 40])
def test_resample_medians_and_means_are_those_of_the_drawn_values(n):
    """Each resample's mean and median, read from its counts, equal NumPy's on the values
    the counts stand for (odd and even sizes, ties, one unit)."""
    values = np.random.default_rng(n).integers(1, 6, n).astype(float)
    draws = stats.Resamples(values, np.random.default_rng(3), 300)
    assert (draws.counts.sum(axis=1) == n).all()
    expanded = [np.repeat(draws.levels, row) for row in draws.counts]
    np.testing.assert_array_equal(draws.medians(), [np.median(e) for e in expanded])
    np.testing.assert_allclose(draws.means(), [e.mean() for e in expanded], rtol=1e-12)


def test_multinomial_resamples_match_resampling_units():
    """Drawing counts of the distinct values is the unit bootstrap's distribution: the
    percentiles of the mean and median difference agree with index resampling to Monte Carlo
    error (20,000 replicates each)."""
    rng = np.random.default_rng(11)
    x = rng.integers(1, 6, 300).astype(float)
    y = rng.integers(1, 6, 250).astype(float)
    counted = stats.bootstrap_groups(x, y, np.random.default_rng(0), replicates=20_000)
    draw = np.random.default_rng(1)
    bx = x[draw.integers(0, len(x), (20_000, len(x)))]
    by = y[draw.integers(0, len(y), (20_000, len(y)))]
    means = np.percentile(bx.mean(axis=1) - by.mean(axis=1), [2.5, 97.5])
    medians = np.percentile(np.median(bx, axis=1) - np.median(by, axis=1), [2.5, 97.5])
    assert counted["mean_low"] == pytest.approx(means[0], abs=0.02)
    assert counted["mean_high"] == pytest.approx(means[1], abs=0.02)
    assert (counted["median_low"], counted["median_high"]) == tuple(medians)


@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 1)), min_size=1, max_size=12),
)
def test_the_rank_test_of_the_adjusted_design_is_numpys(pairs):
    """The design [1, treated, rater dummies] is rank-deficient exactly when numpy's SVD rank
    says so."""
    raters = np.array([f"r{r}" for r, _ in pairs])
    treated = np.array([t for _, t in pairs], dtype=float)
    levels, index = np.unique(raters, return_inverse=True)
    x = np.column_stack(
        [np.ones(len(pairs)), treated, (raters[:, None] == levels[None, 1:]).astype(float)]
    )
    deficient = np.linalg.matrix_rank(x) < x.shape[1]
    assert stats._treated_by_rater(treated, index, len(levels)) == deficient
