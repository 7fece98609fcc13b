"""Property tests: invariances every coefficient must have, and perfect agreement."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from raterlab.agreement import (
    AgreementUndefined,
    brennan_prediger,
    conger_kappa,
    fleiss_kappa,
    gwet_ac1,
    gwet_ac2,
    icc,
    krippendorff_alpha,
    light_kappa,
    percent_agreement,
)

MULTI_RATER = {
    "alpha nominal": lambda r: krippendorff_alpha(r, "nominal", categories=[1, 2, 3, 4]),
    "alpha ordinal": lambda r: krippendorff_alpha(r, "ordinal", categories=[1, 2, 3, 4]),
    "alpha interval": lambda r: krippendorff_alpha(r, "interval", categories=[1, 2, 3, 4]),
    "alpha ratio": lambda r: krippendorff_alpha(r, "ratio", categories=[1, 2, 3, 4]),
    "fleiss": fleiss_kappa,
    "conger": conger_kappa,
    "light": light_kappa,
    "ac1": lambda r: gwet_ac1(r, categories=[1, 2, 3, 4]),
    "ac2": lambda r: gwet_ac2(r, "quadratic", categories=[1, 2, 3, 4]),
    "bp": lambda r: brennan_prediger(r, categories=[1, 2, 3, 4]),
    "percent": percent_agreement,
}

# units x raters matrices of ratings 1..4 with missing cells
ratings_matrices = arrays(
    float,
    st.tuples(st.integers(3, 12), st.integers(2, 5)),
    elements=st.sampled_from([1.0, 2.0, 3.0, 4.0, np.nan]),
)


def value_or_undefined(coefficient, ratings: np.ndarray) -> float | None:
    try:
        return float(coefficient(ratings))
    except AgreementUndefined:
        return None


def assert_same(coefficient, before: np.ndarray, after: np.ndarray) -> None:
    """Same value on both inputs, or undefined on both."""
    expected = value_or_undefined(coefficient, before)
    result = value_or_undefined(coefficient, after)
    if expected is None:
        assert result is None
    else:
        assert result == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("name", MULTI_RATER)
@settings(max_examples=40, deadline=None)
@given(ratings=ratings_matrices, data=st.data())
def test_invariant_under_unit_and_rater_permutation(name: str, ratings: np.ndarray, data) -> None:
    units = data.draw(st.permutations(range(ratings.shape[0])))
    raters = data.draw(st.permutations(range(ratings.shape[1])))
    assert_same(MULTI_RATER[name], ratings, ratings[np.ix_(units, raters)])


@pytest.mark.parametrize("name", MULTI_RATER)
@settings(max_examples=30, deadline=None)
@given(
    truth=arrays(int, st.integers(3, 12), elements=st.integers(1, 4)),
    n_raters=st.integers(2, 5),
)
def test_perfect_agreement_gives_one(name: str, truth: np.ndarray, n_raters: int) -> None:
    ratings = np.repeat(truth[:, None], n_raters, axis=1).astype(float)
    ratings[0, 0] = np.nan  # missing ratings do not spoil perfect agreement
    result = value_or_undefined(MULTI_RATER[name], ratings)
    if len(set(truth[1:])) > 1:
        assert result is not None
    if result is not None:
        assert result == pytest.approx(1.0)


@settings(max_examples=30, deadline=None)
@given(
    ratings=arrays(
        float,
        st.tuples(st.integers(3, 10), st.integers(2, 4)),
        elements=st.integers(0, 40).map(lambda v: v / 4),
    )
)
def test_icc_perfect_and_shift_invariant(ratings: np.ndarray) -> None:
    try:
        reference = float(icc(ratings, "ICC(2,1)"))
    except AgreementUndefined:
        return
    assert float(icc(ratings + 100.0, "ICC(2,1)")) == pytest.approx(reference, abs=1e-9)
    perfect = np.repeat(ratings[:, :1], 3, axis=1)
    if np.ptp(perfect) > 0:
        assert float(icc(perfect, "ICC(1,1)")) == pytest.approx(1.0)


@settings(max_examples=30, deadline=None)
@given(ratings=ratings_matrices, data=st.data())
def test_nominal_coefficients_ignore_label_names(ratings: np.ndarray, data) -> None:
    relabel = dict(zip([1.0, 2.0, 3.0, 4.0], data.draw(st.permutations("abcd")), strict=True))
    labels = np.array([[relabel.get(v) for v in row] for row in ratings], dtype=object)
    for coefficient in (krippendorff_alpha, fleiss_kappa, light_kappa):
        assert_same(coefficient, ratings, labels)
