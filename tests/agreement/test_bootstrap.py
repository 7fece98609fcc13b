"""The vectorized bootstrap equals the naive loop; intervals behave."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from raterlab.agreement import (
    AgreementUndefined,
    bootstrap_ci,
    bootstrap_replicates,
    brennan_prediger,
    cohen_kappa,
    conger_kappa,
    fleiss_kappa,
    gwet_ac1,
    gwet_ac2,
    icc,
    krippendorff_alpha,
    light_kappa,
    percent_agreement,
    scott_pi,
    spearman_rho,
)
from raterlab.agreement.bootstrap import STATISTICS, bootstrap_cis
from tests.agreement.test_reference import random_ratings

SCALE = [1, 2, 3, 4, 5]
# name -> (options for the bootstrap, the coefficient called naively on one resample, raters)
CASES = {
    "alpha nominal": ("krippendorff_alpha", {"level": "nominal"}, 4),
    "alpha ordinal": ("krippendorff_alpha", {"level": "ordinal"}, 4),
    "alpha interval": ("krippendorff_alpha", {"level": "interval"}, 4),
    "alpha ratio": ("krippendorff_alpha", {"level": "ratio"}, 4),
    "cohen": ("cohen_kappa", {"weights": "quadratic", "categories": SCALE}, 2),
    "scott": ("scott_pi", {}, 2),
    "fleiss": ("fleiss_kappa", {}, 4),
    "conger": ("conger_kappa", {}, 4),
    "light": ("light_kappa", {}, 4),
    "ac1": ("gwet_ac1", {"categories": SCALE}, 4),
    "ac2": ("gwet_ac2", {"weights": "ordinal", "categories": SCALE}, 4),
    "bp": ("brennan_prediger", {"categories": SCALE}, 4),
    "percent": ("percent_agreement", {}, 4),
    "icc": ("icc", {"kind": "ICC(2,1)"}, 4),
    "spearman": ("spearman_rho", {}, 2),
}
FUNCTIONS = {
    "krippendorff_alpha": krippendorff_alpha,
    "cohen_kappa": cohen_kappa,
    "scott_pi": scott_pi,
    "fleiss_kappa": fleiss_kappa,
    "conger_kappa": conger_kappa,
    "light_kappa": light_kappa,
    "gwet_ac1": gwet_ac1,
    "gwet_ac2": gwet_ac2,
    "brennan_prediger": brennan_prediger,
    "percent_agreement": percent_agreement,
    "icc": icc,
    "spearman_rho": lambda ratings: spearman_rho(ratings[:, 0], ratings[:, 1]),
}


def rated_units(seed: int, n_units: int, n_raters: int, missing: float) -> np.ndarray:
    """Random ratings without empty rows, so that row i is unit i."""
    ratings = random_ratings(seed, n_units=n_units, n_raters=n_raters, missing=missing)
    return ratings[~np.isnan(ratings).all(axis=1)]


def test_every_bootstrapped_coefficient_is_covered() -> None:
    assert {name for name, _, _ in CASES.values()} == set(STATISTICS) == set(FUNCTIONS)


@pytest.mark.parametrize("case", CASES)
def test_vectorized_replicates_equal_the_naive_loop(case: str) -> None:
    name, options, n_raters = CASES[case]
    missing = 0.0 if name == "icc" else 0.15
    ratings = rated_units(11, n_units=40, n_raters=n_raters, missing=missing)
    indices = np.random.default_rng(5).integers(0, len(ratings), size=(60, len(ratings)))
    vectorized = bootstrap_replicates(ratings, name, indices, **options)
    naive = [float(FUNCTIONS[name](ratings[rows], **options)) for rows in indices]
    np.testing.assert_allclose(vectorized, naive, rtol=0, atol=1e-10)


@pytest.mark.parametrize("case", ["alpha ordinal", "ac2", "conger", "spearman"])
def test_jackknife_equals_leave_one_out(case: str) -> None:
    name, options, n_raters = CASES[case]
    ratings = rated_units(2, n_units=25, n_raters=n_raters, missing=0.1)
    jackknife = STATISTICS[name](ratings, **options).jackknife()
    naive = [
        float(FUNCTIONS[name](np.delete(ratings, i, axis=0), **options))
        for i in range(len(ratings))
    ]
    np.testing.assert_allclose(jackknife, naive, rtol=0, atol=1e-10)


@pytest.mark.parametrize("method", ["percentile", "bca"])
@pytest.mark.parametrize("case", ["alpha ordinal", "fleiss", "ac1", "icc"])
def test_interval_contains_estimate(case: str, method: str) -> None:
    name, options, n_raters = CASES[case]
    ratings = random_ratings(
        3, n_units=80, n_raters=n_raters, missing=0.0 if name == "icc" else 0.2
    )
    result = bootstrap_ci(ratings, name, n_resamples=400, method=method, seed=1, **options)
    assert result.low < result.estimate < result.high
    assert float(result) == pytest.approx(float(FUNCTIONS[name](ratings, **options)), abs=1e-12)
    assert (result.method, result.n_resamples, result.n_undefined) == (method, 400, 0)


def test_seed_reproducibility() -> None:
    ratings = random_ratings(4)
    first = bootstrap_ci(ratings, seed=42, level="ordinal")
    assert bootstrap_ci(ratings, seed=42, level="ordinal") == first
    assert bootstrap_ci(ratings, seed=43, level="ordinal") != first
    generator = bootstrap_ci(ratings, seed=np.random.default_rng(42), level="ordinal")
    assert (generator.low, generator.high) == (first.low, first.high)


def test_bca_corrects_a_skewed_distribution() -> None:
    ratings = random_ratings(6, n_units=50)
    percentile = bootstrap_ci(ratings, "gwet_ac1", seed=0, categories=SCALE)
    bca = bootstrap_ci(ratings, "gwet_ac1", seed=0, method="bca", categories=SCALE)
    assert bca.estimate == percentile.estimate
    assert (bca.low, bca.high) != (percentile.low, percentile.high)
    assert bca.low < bca.estimate < bca.high


def test_confidence_widens_the_interval() -> None:
    ratings = random_ratings(8)
    narrow = bootstrap_ci(ratings, "fleiss_kappa", confidence=0.5, seed=0)
    wide = bootstrap_ci(ratings, "fleiss_kappa", confidence=0.99, seed=0)
    assert wide.low < narrow.low < narrow.high < wide.high


def test_undefined_resamples_are_counted_and_dropped() -> None:
    # two units of one category, one of another: some resamples hold one category only
    ratings = np.array([[1, 1], [1, 1], [2, 2]])
    result = bootstrap_ci(ratings, n_resamples=200, seed=0)
    assert 0 < result.n_undefined < 200
    assert result.low == result.high == 1.0
    # two pairs: a resample drawing one pair twice has no spread; seed 4 draws only such
    with pytest.raises(AgreementUndefined, match="every bootstrap resample"):
        bootstrap_ci(np.array([[1, 2], [2, 1]]), "spearman_rho", n_resamples=3, seed=4)


def test_bootstrap_argument_errors() -> None:
    ratings = random_ratings(0)
    with pytest.raises(ValueError, match="no bootstrap for 'kendall_tau'"):
        bootstrap_ci(ratings, "kendall_tau")
    with pytest.raises(ValueError, match="method"):
        bootstrap_ci(ratings, method="basic")
    with pytest.raises(ValueError, match="confidence"):
        bootstrap_ci(ratings, confidence=95)
    with pytest.raises(ValueError, match="n_resamples"):
        bootstrap_ci(ratings, n_resamples=0)
    with pytest.raises(ValueError, match="two-column"):
        bootstrap_ci(ratings, "spearman_rho")
    with pytest.raises(ValueError, match="unit positions"):
        bootstrap_replicates(ratings, "fleiss_kappa", np.array([[0, len(ratings)]]))


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_interval_matches_scipy_for_a_mean(method: str) -> None:
    # two raters' percent agreement is the mean of per-unit agreement, which scipy bootstraps
    ratings = random_ratings(9, n_units=60, n_raters=2, missing=0.0)
    agree = (ratings[:, 0] == ratings[:, 1]).astype(float)
    ours = bootstrap_ci(ratings, "percent_agreement", n_resamples=5000, method=method, seed=0)
    reference = stats.bootstrap(
        (agree,), np.mean, n_resamples=5000, method="BCa" if method == "bca" else method, rng=1
    ).confidence_interval
    step = 1 / len(agree)  # the resampled means lie on a grid of this step
    assert ours.low == pytest.approx(reference.low, abs=step)
    assert ours.high == pytest.approx(reference.high, abs=step)


def test_shared_resamples_give_each_coefficients_own_interval():
    """Several coefficients bootstrapped together (one set of draws per number of units) get
    exactly the intervals of one ``bootstrap_ci`` each; one that does not apply gets its
    error in its place; a Generator seed is consumed as by successive calls."""
    rng = np.random.default_rng(8)
    ratings = rng.integers(1, 6, (120, 3)).astype(float)
    ratings[rng.random(ratings.shape) < 0.25] = np.nan
    requests = [
        ("krippendorff_alpha", {"level": "ordinal"}),
        ("percent_agreement", {}),
        ("cohen_kappa", {}),
        ("gwet_ac2", {"weights": "quadratic", "categories": [1, 2, 3, 4, 5]}),
        ("fleiss_kappa", {}),
    ]
    for method in ("percentile", "bca"):
        together = bootstrap_cis(ratings, requests, 300, method=method, seed=4)
        for (name, options), result in zip(requests, together, strict=True):
            try:
                alone = bootstrap_ci(ratings, name, 300, method=method, seed=4, **options)
            except ValueError as error:
                assert isinstance(result, ValueError) and str(result) == str(error)
                continue
            assert result == alone
    assert isinstance(together[2], ValueError)  # Cohen's kappa takes two raters
    defined = [requests[0], requests[1]]
    together = bootstrap_cis(ratings, defined, 200, seed=np.random.default_rng(2))
    generator = np.random.default_rng(2)
    assert together == [bootstrap_ci(ratings, n, 200, seed=generator, **o) for n, o in defined]
