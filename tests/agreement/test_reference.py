"""Cross-checks against reference libraries on random data with missing ratings."""

from __future__ import annotations

import krippendorff
import numpy as np
import pandas as pd
import pingouin
import pytest
from scipy import stats
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters, cohens_kappa
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss_kappa

from raterlab.agreement import (
    _stats,
    cohen_kappa,
    fleiss_kappa,
    icc,
    kendall_tau,
    krippendorff_alpha,
    spearman_rho,
)

SEEDS = range(5)


def random_ratings(
    seed: int, n_units: int = 60, n_raters: int = 4, q: int = 5, missing: float = 0.25
) -> np.ndarray:
    """Correlated integer ratings 1..q with a share of missing cells."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, q + 1, size=(n_units, 1))
    noise = rng.integers(-1, 2, size=(n_units, n_raters)) * (rng.random((n_units, n_raters)) < 0.4)
    ratings = np.clip(truth + noise, 1, q).astype(float)
    ratings[rng.random(ratings.shape) < missing] = np.nan
    return ratings


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
@pytest.mark.parametrize("seed", SEEDS)
def test_alpha_matches_krippendorff_package(level: str, seed: int) -> None:
    ratings = random_ratings(seed)
    expected = krippendorff.alpha(reliability_data=ratings.T, level_of_measurement=level)
    assert float(krippendorff_alpha(ratings, level=level)) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("level", ["nominal", "ordinal", "ratio"])
def test_alpha_sparse_path_matches_dense(level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # many distinct values keep the per-unit statistics sparse; force it on small data too
    ratings = random_ratings(7, q=9)
    dense = float(krippendorff_alpha(ratings, level=level))
    monkeypatch.setattr("raterlab.agreement.alpha.DENSE_CELLS", 0)
    monkeypatch.setattr(_stats, "DENSE_CELLS", 0)
    assert float(krippendorff_alpha(ratings, level=level)) == pytest.approx(dense, abs=1e-12)


def test_interval_alpha_on_continuous_values() -> None:
    rng = np.random.default_rng(3)
    ratings = rng.normal(size=(200, 1)) + rng.normal(scale=0.5, size=(200, 3)) + 1e6
    ratings[rng.random(ratings.shape) < 0.2] = np.nan
    expected = krippendorff.alpha(reliability_data=ratings.T, level_of_measurement="interval")
    assert float(krippendorff_alpha(ratings, level="interval")) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
@pytest.mark.parametrize("seed", SEEDS)
def test_cohen_matches_sklearn_and_statsmodels(weights: str | None, seed: int) -> None:
    ratings = random_ratings(seed, n_units=80, n_raters=2)
    both = ~np.isnan(ratings).any(axis=1)
    a, b = ratings[both, 0], ratings[both, 1]
    labels = [1.0, 2.0, 3.0, 4.0, 5.0]
    result = cohen_kappa(ratings, weights=weights, categories=[1, 2, 3, 4, 5])
    assert float(result) == pytest.approx(
        cohen_kappa_score(a, b, labels=labels, weights=weights), abs=1e-12
    )
    table = pd.crosstab(a, b).reindex(index=labels, columns=labels, fill_value=0).to_numpy()
    reference = cohens_kappa(table, wt=weights)
    assert result.se == pytest.approx(reference.std_kappa, abs=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_fleiss_matches_statsmodels(seed: int) -> None:
    ratings = random_ratings(seed, n_raters=6, missing=0.0)
    table, _ = aggregate_raters(ratings.astype(int))
    assert float(fleiss_kappa(ratings)) == pytest.approx(sm_fleiss_kappa(table), abs=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_icc_matches_pingouin(seed: int) -> None:
    ratings = random_ratings(seed, n_units=30, missing=0.0) + np.random.default_rng(seed).normal(
        size=(30, 4)
    )
    long = pd.DataFrame(ratings).stack().rename("score").reset_index()
    table = pingouin.intraclass_corr(long, targets="level_0", raters="level_1", ratings="score")
    # pingouin 0.7 names: A = absolute agreement (ICC2), C = consistency (ICC3)
    names = {"ICC(1,1)": "ICC(1,1)", "ICC(A,1)": "ICC(2,1)", "ICC(C,1)": "ICC(3,1)"}
    names |= {"ICC(1,k)": "ICC(1,k)", "ICC(A,k)": "ICC(2,k)", "ICC(C,k)": "ICC(3,k)"}
    for name, value in zip(table["Type"], table["ICC"], strict=True):
        assert float(icc(ratings, names[name])) == pytest.approx(value, abs=1e-10), name


@pytest.mark.parametrize("seed", SEEDS)
def test_rank_correlations_match_scipy(seed: int) -> None:
    ratings = random_ratings(seed, n_units=100, n_raters=2)
    x, y = ratings[:, 0], ratings[:, 1]
    rho = stats.spearmanr(x, y, nan_policy="omit").statistic
    tau = stats.kendalltau(x, y, nan_policy="omit").statistic
    assert float(spearman_rho(x, y)) == pytest.approx(rho, abs=1e-12)
    assert float(kendall_tau(x, y)) == pytest.approx(tau, abs=1e-12)
