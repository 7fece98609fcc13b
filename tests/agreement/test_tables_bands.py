"""Agreement matrices, per-category agreement and interpretation bands."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from raterlab.agreement import (
    KRIPPENDORFF_BANDS,
    AgreementUndefined,
    agreement_matrix,
    apply_bands,
    category_agreement,
    cohen_kappa,
    fleiss_kappa,
    landis_koch_band,
)
from tests.agreement import published as pub


def test_two_rater_matrix_is_the_crosstab() -> None:
    table = agreement_matrix(pd.DataFrame(pub.ABSTRACTORS, columns=["first", "second"]))
    assert table.to_numpy().tolist() == [[13, 0, 0], [0, 20, 7], [0, 4, 56]]
    assert (table.index.name, table.columns.name) == ("first", "second")


def test_pooled_matrix_counts_ordered_pairs_within_units() -> None:
    ratings = np.array([[1, 1, 2], [2, 2, np.nan]])
    table = agreement_matrix(ratings)
    # unit 1: (1,1) twice, (1,2) twice, (2,1) twice; unit 2: (2,2) twice
    assert table.to_numpy().tolist() == [[2, 2], [2, 2]]
    assert (table.to_numpy() == table.to_numpy().T).all()
    diagnoses = agreement_matrix(pub.FLEISS_1971)
    assert diagnoses.to_numpy().sum() == 30 * 6 * 5


def test_two_rater_specific_agreement() -> None:
    # 2x2 table a=40 (yes/yes), b=5, c=10, d=45: positive 2a/(2a+b+c), negative 2d/(2d+b+c)
    ratings = pub.from_table([[40, 5], [10, 45]])
    table = category_agreement(ratings, categories=[1, 2])
    assert table.loc[1, "positive_agreement"] == pytest.approx(80 / 95)
    assert table.loc[1, "negative_agreement"] == pytest.approx(90 / 105)
    assert table.loc[2, "positive_agreement"] == pytest.approx(90 / 105)
    # with two categories the binary kappa of each equals Scott's pi / Fleiss' kappa
    assert table.loc[1, "kappa"] == pytest.approx(float(fleiss_kappa(ratings)))
    assert table.loc[1, "n_ratings"] == 95
    assert table.loc[1, "prevalence"] == pytest.approx(95 / 200)


def test_category_agreement_unused_category_is_nan() -> None:
    table = category_agreement(np.array([[1, 1], [2, 1]]), categories=[1, 2, 3])
    assert math.isnan(table.loc[3, "positive_agreement"])
    assert table.loc[3, "n_ratings"] == 0


def test_multilabel_category_agreement() -> None:
    ratings = pd.DataFrame(
        {
            "ann": [["relevant", "cited"], ["relevant"], [], None],
            "bob": [("relevant",), {"relevant", "cited"}, ["cited"], ["relevant"]],
        }
    )
    table = category_agreement(ratings)
    assert list(table.index) == ["cited", "relevant"]
    # "relevant": yes/yes on units 1 and 2, no/no on unit 3; unit 4 has one rating
    assert table.loc["relevant", "positive_agreement"] == 1.0
    assert table.loc["relevant", "negative_agreement"] == 1.0
    assert table.loc["relevant", "kappa"] == pytest.approx(1.0)
    assert table.loc["cited", "positive_agreement"] == 0.0
    binary = pd.DataFrame({"ann": [1, 1, 0, None], "bob": [1, 1, 0, 1]})
    assert table.loc["relevant", "kappa"] == pytest.approx(float(fleiss_kappa(binary)))
    with pytest.raises(ValueError, match="not among the declared categories"):
        category_agreement(ratings, categories=["relevant"])
    with pytest.raises(ValueError, match="collection"):
        category_agreement(pd.DataFrame({"a": [["x"], "x"], "b": [["x"], ["x"]]}))
    with pytest.raises(AgreementUndefined, match="two or more ratings"):
        category_agreement(pd.DataFrame({"a": [["x"], None], "b": [None, ["x"]]}))


def test_landis_koch_bands() -> None:
    assert landis_koch_band(-0.1) == "poor"
    assert landis_koch_band(0.0) == "slight"
    assert landis_koch_band(0.20) == "slight"
    assert landis_koch_band(0.204) == "slight"
    assert landis_koch_band(0.21) == "fair"
    assert landis_koch_band(0.6) == "moderate"
    assert landis_koch_band(0.61) == "substantial"
    assert landis_koch_band(0.81) == "almost perfect"
    assert landis_koch_band(cohen_kappa(pub.SAS_AGREE)) == "moderate"  # 0.4842


def test_study_bands() -> None:
    study = [(-math.inf, "fail"), (0.667, "pilot only"), (0.8, "pass")]
    assert apply_bands(0.5, study) == "fail"
    assert apply_bands(0.667, study) == "pilot only"
    assert apply_bands(0.95, study) == "pass"
    assert apply_bands(0.7, KRIPPENDORFF_BANDS) == "tentative"
    with pytest.raises(ValueError, match="below the lowest band"):
        apply_bands(0.1, [(0.2, "ok")])
    with pytest.raises(ValueError, match="must increase"):
        apply_bands(0.5, [(0.8, "pass"), (0.2, "fail")])
    with pytest.raises(ValueError, match="NaN"):
        apply_bands(math.nan, study)
    with pytest.raises(ValueError, match="non-empty"):
        apply_bands(0.5, [])
