"""The fast paths: point estimates from tallies, coincidence and contingency tables equal the
per-unit statistics (the code they replaced, still used by the bootstrap) and the reference
packages, on random matrices with missing cells, single-rating units, one category, two and
many raters; ratings coded once as small integers; the bootstrap's draws unchanged."""

from __future__ import annotations

import threading

import krippendorff
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss

from raterlab.agreement import (
    AgreementUndefined,
    _multirater,
    alpha,
    bootstrap,
    brennan_prediger,
    cohen_kappa,
    fleiss_kappa,
    gwet,
    gwet_ac1,
    gwet_ac2,
    kappa,
    krippendorff_alpha,
    percent_agreement,
)
from raterlab.agreement._matrix import COMPARE_CATEGORIES, as_ratings, tally
from raterlab.agreement._multirater import _chance
from raterlab.agreement.bootstrap import resample_counts

LEVELS = ("nominal", "ordinal", "interval", "ratio")


def matrices(values: list[float], max_raters: int = 10) -> st.SearchStrategy[np.ndarray]:
    """units x raters matrices of ``values`` and NaN: 1-40 units, 2-``max_raters`` raters."""
    return arrays(
        float,
        st.tuples(st.integers(1, 40), st.integers(2, max_raters)),
        elements=st.sampled_from([*values, np.nan]),
    )


def outcome(function, *args, **kwargs) -> float | None:
    """The estimate, or None when the coefficient is undefined."""
    try:
        return float(function(*args, **kwargs))
    except AgreementUndefined:
        return None


def assert_same(fast: float | None, reference: float | None) -> None:
    if reference is None:
        assert fast is None
    else:
        assert fast == pytest.approx(reference, abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(ratings=matrices([0.0, 1.0, 2.0, 5.0, 7.0]), level=st.sampled_from(LEVELS))
def test_alpha_from_coincidences_equals_per_unit_statistics(ratings, level) -> None:
    fast = outcome(krippendorff_alpha, ratings, level)
    assert_same(fast, outcome(lambda: alpha.alpha_statistic(ratings, level).estimate()))


@settings(max_examples=150, deadline=None)
@given(ratings=matrices([1.0, 2.0, 3.0, 4.0, 5.0]), level=st.sampled_from(LEVELS))
def test_alpha_equals_krippendorff_package(ratings, level) -> None:
    fast = outcome(krippendorff_alpha, ratings, level)
    assume(fast is not None)  # the package returns NaN or raises where alpha is undefined
    expected = krippendorff.alpha(reliability_data=ratings.T, level_of_measurement=level)
    assert fast == pytest.approx(expected, abs=1e-12)


def test_alpha_on_many_categories_equals_the_package() -> None:
    """More categories than COMPARE_CATEGORIES: no tallies, the per-unit path."""
    rng = np.random.default_rng(5)
    ratings = rng.integers(0, 3 * COMPARE_CATEGORIES, size=(300, 4)).astype(float)
    ratings[:, 1:] = np.where(rng.random((300, 3)) < 0.5, ratings[:, :1], ratings[:, 1:])
    ratings[rng.random(ratings.shape) < 0.2] = np.nan
    for level in LEVELS:
        expected = krippendorff.alpha(reliability_data=ratings.T, level_of_measurement=level)
        assert float(krippendorff_alpha(ratings, level)) == pytest.approx(expected, abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(
    ratings=matrices([1.0, 2.0, 3.0, 4.0], max_raters=2),
    weights=st.sampled_from([None, "linear", "quadratic"]),
)
def test_cohen_from_contingency_equals_statistic_and_sklearn(ratings, weights) -> None:
    scale = [1, 2, 3, 4]  # equally spaced, declared: sklearn's weights are on label positions
    fast = outcome(cohen_kappa, ratings, weights, scale)
    assert_same(fast, outcome(lambda: kappa.cohen_statistic(ratings, weights, scale).estimate()))
    if fast is not None:
        both = ~np.isnan(ratings).any(axis=1)
        a, b = ratings[both, 0], ratings[both, 1]
        expected = cohen_kappa_score(a, b, weights=weights, labels=scale)
        assert fast == pytest.approx(expected, abs=1e-12)


def _old_multirater_result(statistic, r, weights, chance):
    """The estimate, p_a and SE as computed from the per-unit columns before the fast path
    (the code of raterlab.agreement._multirater.multirater_result at 703c8b2's parent)."""
    values = statistic.values
    n = r.n_units
    paired = values[:, 1].astype(bool)
    n2 = int(paired.sum())
    pa = values[paired, 0].mean()
    pi = values[:, 3:].mean(axis=0)
    pe = float(_chance(pi, weights, chance))
    coefficient = statistic.estimate()
    q = r.n_categories
    if chance == "fleiss":
        pe_unit = values[:, 3:] @ ((weights + weights.T) / 2 @ pi)
    elif chance == "gwet":
        pe_unit = weights.sum() / (q * (q - 1)) * (values[:, 3:] @ (1 - pi))
    else:
        pe_unit = np.full(n, pe)
    unit = (n / n2) * (values[:, 0] - pe * paired) / (1 - pe)
    unit -= 2 * (1 - coefficient) * (pe_unit - pe) / (1 - pe)
    se = float(np.sqrt(((unit - coefficient) ** 2).sum() / (n * (n - 1)))) if n > 1 else None
    return coefficient, float(pa), pe, se


MULTIRATER = {
    "fleiss": (fleiss_kappa, kappa.fleiss_statistic, None, "fleiss"),
    "ac1": (gwet_ac1, gwet.ac1_statistic, None, "gwet"),
    "ac2": (gwet_ac2, gwet.ac2_statistic, "quadratic", "gwet"),
    "bp": (brennan_prediger, gwet.bp_statistic, None, "uniform"),
    "percent": (percent_agreement, gwet.percent_statistic, None, "none"),
}


@pytest.mark.parametrize("name", MULTIRATER)
@settings(max_examples=80, deadline=None)
@given(ratings=matrices([1.0, 2.0, 3.0, 4.0]))
def test_multirater_from_tallies_equals_per_unit_columns(name, ratings) -> None:
    coefficient, statistic_of, weights, chance = MULTIRATER[name]
    try:
        result = coefficient(ratings)
    except AgreementUndefined:
        with pytest.raises(AgreementUndefined):
            statistic_of(ratings)
        return
    r = as_ratings(ratings)
    w = gwet.weight_matrix(weights, r, name)
    estimate, pa, pe, se = _old_multirater_result(statistic_of(ratings), r, w, chance)
    assert result.estimate == pytest.approx(estimate, abs=1e-12)
    assert result.observed == pytest.approx(pa, abs=1e-12)
    assert result.expected == pytest.approx(pe, abs=1e-12)
    assert result.se == pytest.approx(se, abs=1e-12, nan_ok=True)


@settings(max_examples=80, deadline=None)
@given(ratings=matrices([1.0, 2.0, 3.0], max_raters=12).filter(lambda m: m.shape[0] > 1))
def test_fleiss_equals_statsmodels_on_complete_units(ratings) -> None:
    ratings = np.where(np.isnan(ratings), 2.0, ratings)
    fast = outcome(fleiss_kappa, ratings)
    assume(fast is not None)
    assert fast == pytest.approx(statsmodels_fleiss(aggregate_raters(ratings)[0]), abs=1e-12)


def test_point_estimates_build_no_per_unit_statistics(monkeypatch) -> None:
    """Alpha, Cohen, Fleiss and Gwet come from the q x q or q x units tables alone: the
    per-unit statistics (n_units x m columns) are the bootstrap's, not the estimate's."""

    def refuse(*args, **kwargs):
        raise AssertionError("per-unit statistics built for a point estimate")

    for module, name in [
        (alpha, "_dense_statistic"),
        (alpha, "_interval_statistic"),
        (alpha, "_sparse_statistic"),
        (kappa, "_pair_statistic"),
        (_multirater, "multirater_statistic"),
        (gwet, "multirater_statistic"),
        (kappa, "multirater_statistic"),
    ]:
        monkeypatch.setattr(module, name, refuse)
    rng = np.random.default_rng(0)
    ratings = rng.integers(1, 6, size=(200, 5)).astype(float)
    ratings[rng.random(ratings.shape) < 0.2] = np.nan
    for level in LEVELS:
        krippendorff_alpha(ratings, level)
    cohen_kappa(ratings[:, :2], "quadratic")
    fleiss_kappa(ratings)
    gwet_ac1(ratings)
    gwet_ac2(ratings)


def test_integer_ratings_are_coded_once_in_one_byte() -> None:
    """A Likert matrix of floats becomes rater-major int8 codes and its tallies, equal to the
    codes and counts of the same matrix coded as labels (the general path)."""
    rng = np.random.default_rng(1)
    ratings = rng.integers(2, 9, size=(500, 6)).astype(float)
    ratings[ratings == 5] = 7  # a gap in the values: codes skip it
    ratings[rng.random(ratings.shape) < 0.3] = np.nan
    ratings[3] = np.nan  # a unit and a rater without ratings are dropped
    ratings[:, 4] = np.nan
    fast = as_ratings(ratings)
    general = as_ratings(ratings.astype(object))
    assert fast.columns.dtype == np.int8
    assert general.n_units < 500
    assert fast.columns.shape == (5, general.n_units) and fast.columns.flags.c_contiguous
    assert fast.categories == general.categories == (2, 3, 4, 6, 7, 8)
    np.testing.assert_array_equal(fast.codes, general.codes)
    np.testing.assert_array_equal(fast.tallies, general.tallies)
    np.testing.assert_array_equal(fast.rated, general.rated)
    assert list(fast.raters) == [0, 1, 2, 3, 5]


@settings(max_examples=150, deadline=None)
@given(
    ratings=matrices(
        [-(2.0**40), -129.0, -128.0, -1.0, 0.0, 1.0, 126.0, 127.0, 128.0, 255.0, 2.0**31, 2.0**40]
    ),
    shift=st.sampled_from([0.0, 0.5, 1e9]),
)
def test_integer_coding_equals_label_coding(ratings, shift) -> None:
    """Integers of any range and sign (offsets that overflow the values' own type, ranges
    too wide for a lookup, fractions) code as the general path codes them as labels."""
    ratings = ratings + shift
    fast, general = as_ratings(ratings), as_ratings(ratings.astype(object))
    assert fast.categories == general.categories
    np.testing.assert_array_equal(fast.codes, general.codes)
    np.testing.assert_array_equal(fast.tallies, general.tallies)
    np.testing.assert_array_equal(fast.scores, general.scores)


@pytest.mark.parametrize("q", [3, COMPARE_CATEGORIES + 5])
def test_tally_counts_each_units_ratings(q: int) -> None:
    rng = np.random.default_rng(q)
    codes = rng.integers(-1, q, size=(7, 3000)).astype(np.int16)
    expected = np.zeros((q, 3000), dtype=np.int64)
    for column in codes:
        rated = column >= 0
        np.add.at(expected, (column[rated], np.flatnonzero(rated)), 1)
    np.testing.assert_array_equal(tally(codes, q), expected)
    np.testing.assert_array_equal(tally(codes[:, :20], q), expected[:, :20])  # broadcast path


@pytest.mark.parametrize(
    ("n_units", "n_resamples", "step"), [(300, 250, 97), (70_000, 3, 2), (20_000, 70, 30)]
)
def test_draws_are_the_int64_draws_of_the_seed(n_units: int, n_resamples: int, step: int) -> None:
    """The draws, now 32-bit indices counted into bytes a block at a time (20,000 units: 13
    resamples a block, so a chunk of 30 is three blocks), are the counts of the int64 indices
    the seed gave in one call per chunk before: the same intervals for the same seed."""
    rng = np.random.default_rng(11)
    before = [
        resample_counts(
            rng.integers(0, n_units, size=(min(step, n_resamples - s), n_units)), n_units
        )
        for s in range(0, n_resamples, step)
    ]
    now = list(bootstrap._draw(n_units, n_resamples, 11, step))
    assert all(chunk.dtype == np.uint8 for chunk in now)
    for old, new in zip(before, now, strict=True):
        np.testing.assert_array_equal(old, new)


class _PiledGenerator(np.random.Generator):
    """A generator whose every draw of indices after the first is all unit 0."""

    calls = 0

    def integers(self, *args, **kwargs) -> np.ndarray:
        drawn = super().integers(*args, **kwargs)
        self.calls += 1
        return drawn if self.calls == 1 else np.zeros_like(drawn)


def test_a_unit_drawn_256_times_widens_its_chunk(monkeypatch) -> None:
    """A block whose counts do not fit in a byte widens the chunk, earlier blocks kept."""
    monkeypatch.setattr(bootstrap, "DRAW_CELLS", 300)  # one resample a block
    [chunk] = bootstrap._draw(300, 3, _PiledGenerator(np.random.PCG64(5)), 3)
    assert chunk.dtype == np.uint16
    first = np.random.default_rng(5).integers(0, 300, size=(1, 300))
    np.testing.assert_array_equal(chunk[:1], resample_counts(first, 300))
    np.testing.assert_array_equal(chunk[1:], np.eye(1, 300).repeat(2, axis=0) * 300)


def test_the_draw_thread_ends_with_the_draw_even_when_it_is_left_unread() -> None:
    """The blocks drawn ahead on a second thread are the draws a single thread makes, and
    the thread is gone once the draw is read out or dropped half-read."""
    step = 30
    draws = bootstrap._draw(20_000, 70, 11, step)
    first = next(draws)
    assert any(t.name.startswith("raterlab-draw") for t in threading.enumerate())
    draws.close()
    assert not any(t.name.startswith("raterlab-draw") for t in threading.enumerate())
    rng = np.random.default_rng(11)
    np.testing.assert_array_equal(
        first, resample_counts(rng.integers(0, 20_000, size=(step, 20_000)), 20_000)
    )
