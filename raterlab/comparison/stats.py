"""The tests behind ``gold.condition_comparison``, over plain arrays.

Paired (one difference per pair, e.g. per prompt: A - B):

- Wilcoxon signed-rank test (Wilcoxon 1945): zero differences dropped, the others ranked by
  absolute value (mid-ranks for ties); ``T+`` and ``T-`` are the rank sums of the positive
  and negative differences. The p-value is SciPy's (exact without ties and zeros, else the
  normal approximation), two-sided.
- Matched-pairs rank-biserial correlation (Kerby 2014): ``r = (T+ - T-) / (T+ + T-)``,
  from -1 (every pair favours the baseline) to 1.
- Sign test: the number of positive differences among the non-zero ones against
  Binomial(n, 1/2), two-sided.

Unpaired (two groups of units):

- Mann-Whitney U (two-sided, SciPy); rank-biserial ``r = 2 U / (n1 n2) - 1`` (Glass 1965),
  positive when the first group tends to be higher.

Both:

- Percentile bootstrap intervals (Efron & Tibshirani 1993, ch. 13) of the mean and median
  difference, resampling pairs (paired) or units within each group (unpaired); each
  resample is drawn as multinomial counts of the distinct values (:class:`Resamples`).
- A rater-adjusted difference: ordinary least squares of each raw rating on an indicator of
  the compared value plus rater fixed effects, with cluster-robust (CR1) standard errors
  clustered by pair or unit (Cameron & Miller 2015):
  ``V = (X'X)^-1 [sum_g X_g' u_g u_g' X_g] (X'X)^-1 * G/(G-1) * (N-1)/(N-K)``,
  and a t-test with ``G - 1`` degrees of freedom.
- Holm's step-down correction (Holm 1979) for a family of p-values.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

BOOTSTRAP_REPLICATES = 2000


@dataclass(frozen=True)
class SignedRank:
    n: int
    """Non-zero differences."""
    t_plus: float
    t_minus: float
    p_value: float
    rank_biserial: float


@dataclass(frozen=True)
class RankSum:
    u: float
    """U of the first group."""
    p_value: float
    rank_biserial: float


@dataclass(frozen=True)
class Adjusted:
    estimate: float
    se: float
    p_value: float
    n_ratings: int
    n_raters: int
    n_clusters: int


def wilcoxon_signed_rank(differences: np.ndarray) -> SignedRank:
    """Wilcoxon signed-rank test and matched-pairs rank-biserial of ``differences``."""
    d = np.asarray(differences, dtype=float)
    d = d[d != 0]
    if len(d) == 0:
        return SignedRank(0, 0.0, 0.0, float("nan"), float("nan"))
    ranks = stats.rankdata(np.abs(d))
    t_plus, t_minus = float(ranks[d > 0].sum()), float(ranks[d < 0].sum())
    p_value = float(stats.wilcoxon(d, zero_method="wilcox", correction=False).pvalue)
    return SignedRank(len(d), t_plus, t_minus, p_value, (t_plus - t_minus) / (t_plus + t_minus))


def sign_test(differences: np.ndarray) -> float:
    """Two-sided sign-test p-value (zeros dropped); NaN without a non-zero difference."""
    d = np.asarray(differences, dtype=float)
    wins, losses = int((d > 0).sum()), int((d < 0).sum())
    if wins + losses == 0:
        return float("nan")
    return float(stats.binomtest(wins, wins + losses, 0.5).pvalue)


def mann_whitney(first: np.ndarray, second: np.ndarray) -> RankSum:
    """Mann-Whitney U test of two groups and its rank-biserial correlation."""
    x, y = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    if len(x) == 0 or len(y) == 0:
        return RankSum(float("nan"), float("nan"), float("nan"))
    result = stats.mannwhitneyu(x, y, alternative="two-sided")
    return RankSum(
        float(result.statistic), float(result.pvalue), 2 * result.statistic / (len(x) * len(y)) - 1
    )


class Resamples:
    """Bootstrap resamples of ``values`` (units drawn with replacement, ``len(values)`` per
    resample), held as counts per distinct value: ``counts[b, v]`` is how often the distinct
    value ``levels[v]`` was drawn in resample b.

    Drawing n units with replacement from n units gives counts of the distinct values that
    follow Multinomial(n, share of each value) (Efron & Tibshirani 1993, ch. 6), so the counts
    are drawn directly: ``replicates x levels`` numbers instead of ``replicates x n`` draws.
    The resample means and medians are the same functions of the resample as before; only
    the random numbers differ from drawing unit indices (the intervals agree to Monte Carlo
    error, not digit for digit). Consensus values take a few distinct values (binary, Likert
    points), so this is what keeps the intervals linear in the units with a small constant.
    """

    def __init__(self, values: np.ndarray, rng: np.random.Generator, replicates: int) -> None:
        self.levels, counts = np.unique(np.asarray(values, dtype=float), return_counts=True)
        self.n = int(counts.sum())
        self.counts = rng.multinomial(self.n, counts / self.n, size=replicates)

    def means(self) -> np.ndarray:
        return self.counts @ self.levels / self.n

    def medians(self) -> np.ndarray:
        """Each resample's median: the mean of its values at sorted positions
        ``(n - 1) // 2`` and ``n // 2``, read from the cumulative counts."""
        cumulative = np.cumsum(self.counts, axis=1)
        low = (cumulative <= (self.n - 1) // 2).sum(axis=1)
        high = (cumulative <= self.n // 2).sum(axis=1)
        return (self.levels[low] + self.levels[high]) / 2


def bootstrap_paired(
    differences: np.ndarray, rng: np.random.Generator, replicates: int = BOOTSTRAP_REPLICATES
) -> dict[str, float]:
    """95% percentile intervals of the mean and median of ``differences``, resampling pairs."""
    d = np.asarray(differences, dtype=float)
    if len(d) < 2:
        return dict.fromkeys(("mean_low", "mean_high", "median_low", "median_high"), np.nan)
    samples = Resamples(d, rng, replicates)
    return _intervals(samples.means(), samples.medians())


def bootstrap_groups(
    first: np.ndarray,
    second: np.ndarray,
    rng: np.random.Generator,
    replicates: int = BOOTSTRAP_REPLICATES,
) -> dict[str, float]:
    """95% percentile intervals of the difference in means and in medians (first - second),
    resampling units within each group."""
    x, y = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    if len(x) < 2 or len(y) < 2:
        return dict.fromkeys(("mean_low", "mean_high", "median_low", "median_high"), np.nan)
    bx, by = Resamples(x, rng, replicates), Resamples(y, rng, replicates)
    return _intervals(bx.means() - by.means(), bx.medians() - by.medians())


def bootstrap_mean(
    values: np.ndarray, rng: np.random.Generator, replicates: int = BOOTSTRAP_REPLICATES
) -> tuple[float, float]:
    """95% percentile interval of the mean of ``values``."""
    v = np.asarray(values, dtype=float)
    if len(v) < 2:
        return np.nan, np.nan
    low, high = np.percentile(Resamples(v, rng, replicates).means(), [2.5, 97.5])
    return float(low), float(high)


def _intervals(means: np.ndarray, medians: np.ndarray) -> dict[str, float]:
    mean_low, mean_high = np.percentile(means, [2.5, 97.5])
    median_low, median_high = np.percentile(medians, [2.5, 97.5])
    return {
        "mean_low": float(mean_low),
        "mean_high": float(mean_high),
        "median_low": float(median_low),
        "median_high": float(median_high),
    }


def _treated_by_rater(treated: np.ndarray, rater_index: np.ndarray, n_raters: int) -> bool:
    """Whether the design ``[1, treated, rater dummies]`` lacks full column rank. The
    intercept and the dummies of every rater but the first are independent (each rater has a
    rating), so the rank falls short exactly when ``treated`` lies in their span: when it is
    constant within every rater (each rater saw one condition only). Exact, and linear in
    the ratings, where a rank by SVD of the whole design costs about 0.1 s per 80,000
    ratings."""
    low = np.full(n_raters, np.inf)
    high = np.full(n_raters, -np.inf)
    np.minimum.at(low, rater_index, treated)
    np.maximum.at(high, rater_index, treated)
    return bool(np.all(low == high))


def rater_adjusted(
    values: np.ndarray, treated: np.ndarray, raters: np.ndarray, clusters: np.ndarray
) -> Adjusted:
    """Difference treated - untreated in ``values`` (one per raw rating), adjusted for rater
    fixed effects, with CR1 standard errors clustered by ``clusters`` (see the module doc)."""
    y = np.asarray(values, dtype=float)
    treated = np.asarray(treated, dtype=float)
    raters, clusters = np.asarray(raters), np.asarray(clusters)
    # sorted codes, as np.unique's, by hashing: np.unique sorts text objects in Python
    rater_index, rater_levels = pd.factorize(raters, sort=True)
    dummies = (rater_index[:, None] == np.arange(1, len(rater_levels))[None, :]).astype(float)
    x = np.column_stack([np.ones_like(y), treated, dummies])
    group_index, groups = pd.factorize(clusters, sort=True)
    n, k, g = len(y), x.shape[1], len(groups)
    nan = Adjusted(np.nan, np.nan, np.nan, n, len(rater_levels), g)
    if g < 2 or n <= k or _treated_by_rater(treated, rater_index, len(rater_levels)):
        return nan
    bread = np.linalg.inv(x.T @ x)
    beta = bread @ x.T @ y
    # each cluster's score sum_i x_i e_i, one column at a time (bincount, not np.add.at)
    weighted = x * (y - x @ beta)[:, None]
    scores = np.column_stack(
        [np.bincount(group_index, weights=weighted[:, j], minlength=g) for j in range(k)]
    )
    meat = scores.T @ scores
    cov = bread @ meat @ bread * (g / (g - 1)) * ((n - 1) / (n - k))
    se = float(np.sqrt(cov[1, 1]))
    if not se > 0:
        return Adjusted(float(beta[1]), se, np.nan, n, len(rater_levels), g)
    p_value = float(2 * stats.t.sf(abs(beta[1] / se), df=g - 1))
    return Adjusted(float(beta[1]), se, p_value, n, len(rater_levels), g)


def holm(p_values: np.ndarray) -> np.ndarray:
    """Holm-adjusted p-values (NaN stays NaN and does not count toward the family)."""
    p = np.asarray(p_values, dtype=float)
    out = np.full_like(p, np.nan)
    valid = np.flatnonzero(~np.isnan(p))
    if len(valid) == 0:
        return out
    order = valid[np.argsort(p[valid], kind="stable")]
    m = len(order)
    adjusted = np.maximum.accumulate((m - np.arange(m)) * p[order])
    out[order] = np.minimum(adjusted, 1.0)
    return out
