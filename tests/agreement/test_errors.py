"""Undefined coefficients raise clear errors; inputs are coerced onto the right scale."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from raterlab.agreement import (
    AgreementUndefined,
    agreement_matrix,
    brennan_prediger,
    cohen_kappa,
    conger_kappa,
    fleiss_kappa,
    gwet_ac1,
    gwet_ac2,
    icc,
    kendall_tau,
    krippendorff_alpha,
    light_kappa,
    percent_agreement,
    scott_pi,
    spearman_rho,
)
from raterlab.agreement._matrix import as_ratings

nan = np.nan
ALL = [
    krippendorff_alpha,
    cohen_kappa,
    scott_pi,
    fleiss_kappa,
    conger_kappa,
    light_kappa,
    gwet_ac1,
    gwet_ac2,
    brennan_prediger,
    percent_agreement,
    icc,
]


@pytest.mark.parametrize("coefficient", ALL)
def test_one_rater_is_undefined(coefficient) -> None:
    ratings = np.array([[1, nan], [2, nan], [3, nan]])
    with pytest.raises(AgreementUndefined, match="at least two raters"):
        coefficient(ratings)


@pytest.mark.parametrize("coefficient", ALL)
def test_no_unit_with_two_ratings_is_undefined(coefficient) -> None:
    ratings = np.array([[1, nan], [nan, 2], [3, nan], [nan, 1]])
    with pytest.raises(AgreementUndefined, match=r"two or more ratings|both raters|complete"):
        coefficient(ratings)


@pytest.mark.parametrize(
    "coefficient", [krippendorff_alpha, cohen_kappa, scott_pi, fleiss_kappa, conger_kappa]
)
def test_single_category_is_undefined(coefficient) -> None:
    ratings = np.array([["yes", "yes"], ["yes", "yes"], ["yes", None]], dtype=object)
    with pytest.raises(AgreementUndefined, match=r"only one category \('yes'\)"):
        coefficient(ratings)


def test_single_category_names_the_pair_for_light() -> None:
    ratings = pd.DataFrame({"ann": [1, 1, 2], "bob": [1, 1, nan], "cat": [2, 1, 2]})
    with pytest.raises(AgreementUndefined, match="'ann' and 'bob'"):
        light_kappa(ratings)


def test_chance_free_coefficients_are_defined_on_one_used_category() -> None:
    ratings = np.array([[1, 1], [1, 1], [1, 1]])
    assert float(percent_agreement(ratings)) == 1.0
    assert float(gwet_ac1(ratings, categories=[1, 2])) == 1.0
    with pytest.raises(AgreementUndefined, match="one-category scale"):
        gwet_ac1(ratings)


def test_icc_errors() -> None:
    with pytest.raises(AgreementUndefined, match="listwise"):
        icc(np.array([[1, 2], [3, nan], [nan, 4]]))
    with pytest.raises(AgreementUndefined, match="same rating"):
        icc(np.full((4, 3), 2.0))
    with pytest.raises(ValueError, match="kind must be one of"):
        icc(np.eye(3), "ICC(4,1)")
    with pytest.raises(AgreementUndefined, match="numerically undefined"):
        icc(np.array([[2.2e-308, 0], [0, 0], [0, 2.2e-308]]))  # variances underflow to 0


def test_correlation_errors() -> None:
    with pytest.raises(AgreementUndefined, match="two complete pairs"):
        spearman_rho([1, nan, 3], [nan, 2, nan])
    with pytest.raises(AgreementUndefined, match="every y value"):
        kendall_tau([1, 2, 3], [4, 4, 4])
    with pytest.raises(ValueError, match="numeric scores"):
        spearman_rho(["low", "high"], [1, 2])
    with pytest.raises(ValueError, match="differ in length"):
        spearman_rho([1, 2, 3], [1, 2])


def test_argument_errors() -> None:
    ratings = np.array([[1, 2, 3], [2, 2, 3]])
    with pytest.raises(ValueError, match="exactly two raters"):
        cohen_kappa(ratings)
    with pytest.raises(ValueError, match="non-negative"):
        krippendorff_alpha(np.array([[-1, 2], [3, 4]]), level="ratio")
    with pytest.raises(ValueError, match="level must be one of"):
        krippendorff_alpha(ratings, level="cardinal")
    with pytest.raises(ValueError, match="weights must be one of"):
        gwet_ac2(ratings, weights="cubic")
    with pytest.raises(ValueError, match="2-D"):
        krippendorff_alpha([1, 2, 3])
    with pytest.raises(ValueError, match="not among the declared categories"):
        krippendorff_alpha(ratings, categories=[1, 2])
    with pytest.raises(ValueError, match="duplicates"):
        krippendorff_alpha(ratings, categories=[1, "1", 2, 3])
    with pytest.raises(ValueError, match="multilabel"):
        fleiss_kappa(pd.DataFrame({"a": [["x"], ["y"]], "b": [["x"], ["x"]]}))


def test_text_labels_need_a_declared_order() -> None:
    ratings = np.array([["low", "high"], ["mid", "mid"], ["high", "high"]], dtype=object)
    with pytest.raises(ValueError, match="no declared order"):
        krippendorff_alpha(ratings, level="ordinal")
    with pytest.raises(ValueError, match="no declared order"):
        cohen_kappa(ratings, weights="linear")
    ordered = krippendorff_alpha(ratings, level="ordinal", categories=["low", "mid", "high"])
    numeric = krippendorff_alpha(
        np.array([[1, 3], [2, 2], [3, 3]]), level="ordinal", categories=[1, 2, 3]
    )
    assert float(ordered) == pytest.approx(float(numeric))


def test_numeric_looking_labels_sort_as_numbers() -> None:
    r = as_ratings(np.array([["10", "2"], ["2", "9"], ["9", "10"]], dtype=object))
    assert r.categories == ("2", "9", "10")
    assert list(r.scores) == [2.0, 9.0, 10.0]
    table = agreement_matrix(pd.DataFrame({"a": ["10", "2", "9"], "b": ["2", "9", "10"]}))
    assert list(table.index) == ["2", "9", "10"]


def test_numbers_and_numeric_strings_are_one_category() -> None:
    r = as_ratings(np.array([[1, "1"], [2.0, "2"], ["10", 10]], dtype=object))
    assert r.n_categories == 3
    assert float(percent_agreement(r)) == 1.0


def test_declared_order_wins_and_unused_categories_count() -> None:
    ratings = np.array([[1, 1], [2, 3], [3, 3], [2, 2]])
    observed = float(brennan_prediger(ratings))
    declared = float(brennan_prediger(ratings, categories=[1, 2, 3, 4, 5]))
    assert observed == pytest.approx((0.75 - 1 / 3) / (1 - 1 / 3))
    assert declared == pytest.approx((0.75 - 1 / 5) / (1 - 1 / 5))
    reversed_scale = krippendorff_alpha(ratings, level="ordinal", categories=[3, 2, 1])
    assert float(reversed_scale) == pytest.approx(float(krippendorff_alpha(ratings, "ordinal")))
    # linear weights are spread over the declared 1..5 scale, not the observed 1..3
    narrow = float(gwet_ac2(ratings, "linear"))
    wide = float(gwet_ac2(ratings, "linear", categories=[1, 2, 3, 4, 5]))
    assert narrow != pytest.approx(wide)
    table = agreement_matrix(ratings, categories=[5, 4, 3, 2, 1])
    assert list(table.index) == [5, 4, 3, 2, 1]
    assert table.loc[5].sum() == 0


def test_missing_values_and_empty_rows_and_columns() -> None:
    frame = pd.DataFrame(
        {"a": ["x", None, "", "y"], "b": ["x", None, np.nan, "y"], "c": [None] * 4}
    )
    r = as_ratings(frame)
    assert r.n_units == 2 and r.n_raters == 2
    assert list(r.raters) == ["a", "b"]
    nullable = pd.DataFrame({"a": pd.array([1, None, 3], dtype="Int64"), "b": [1.0, 2.0, 3.0]})
    assert as_ratings(nullable).n_units == 3
