"""Reading ratings files and reshaping them; the per-field agreement table."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from raterlab.agreement import brennan_prediger, icc
from raterlab.agreement.by_field import agreement_table, default_coefficients, estimates
from raterlab.agreement.ratings_file import (
    RatingsFileError,
    ratings_matrices,
    read_ratings_file,
)

LONG = pd.DataFrame(
    {
        "unit": ["u1", "u1", "u2", "u2", "u3"],
        "rater": ["a", "b", "a", "b", "b"],
        "score": [1, 2, 3, 3, 5],
        "flag": ["y", "y", "n", None, "n"],
    }
)


def test_long_layout_gives_one_matrix_per_field() -> None:
    matrices = ratings_matrices(LONG)
    assert list(matrices) == ["score", "flag"]
    score = matrices["score"]
    assert list(score.index) == ["u1", "u2", "u3"] and list(score.columns) == ["a", "b"]
    assert score.loc["u1", "b"] == 2 and np.isnan(score.loc["u3", "a"])
    assert list(ratings_matrices(LONG, fields=["flag"])) == ["flag"]


def test_wide_layout_is_one_field() -> None:
    wide = pd.DataFrame({"id": ["u1", "u2"], "a": [1, 2], "b": [1, 3]})
    matrices = ratings_matrices(wide, unit="id")
    assert list(matrices) == ["rating"]
    assert matrices["rating"].columns.tolist() == ["a", "b"]


@pytest.mark.parametrize(
    ("frame", "options", "message"),
    [
        (LONG.drop(columns="unit"), {}, "no unit column: name it with --unit"),
        (LONG.assign(rater=[None, "b", "a", "b", "b"]), {}, "rows without a rater id"),
        (LONG.assign(unit=[None, "u1", "u2", "u2", "u3"]), {}, "rows without a unit id"),
        (LONG[["unit", "rater"]], {}, "no field column"),
        (pd.DataFrame({"unit": [1, 1], "a": [1, 2]}), {}, "unit 1 appears on more than one row"),
    ],
)
def test_reshaping_errors(frame: pd.DataFrame, options: dict, message: str) -> None:
    with pytest.raises(RatingsFileError, match=message):
        ratings_matrices(frame, **options)


def test_readers(tmp_path: Path) -> None:
    LONG.to_csv(tmp_path / "r.tsv", sep="\t", index=False)
    LONG.to_json(tmp_path / "r.json", orient="records")
    LONG.to_json(tmp_path / "r.ndjson", orient="records", lines=True)
    for name in ("r.tsv", "r.json", "r.ndjson"):
        frame = read_ratings_file(tmp_path / name)
        assert frame["score"].tolist() == LONG["score"].tolist(), name
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(RatingsFileError, match="cannot read"):
        read_ratings_file(tmp_path / "bad.json")


def test_agreement_table_uses_declared_categories_and_options() -> None:
    matrix = ratings_matrices(LONG)["score"]
    table = agreement_table(
        {"score": matrix},
        coefficients=["brennan_prediger", "icc:ICC(1,k)"],
        categories=[1, 2, 3, 4, 5, 6, 7],
    )
    bp, intraclass = table.to_dict(orient="records")
    assert bp["estimate"] == pytest.approx(
        float(brennan_prediger(matrix, categories=[1, 2, 3, 4, 5, 6, 7]))
    )
    assert intraclass["options"] == "kind=ICC(1,k)"
    assert intraclass["estimate"] == pytest.approx(float(icc(matrix, "ICC(1,k)")))
    assert intraclass["n_units"] == 2  # listwise deletion: u3 has one rating
    with pytest.raises(ValueError, match="level must be one of"):
        agreement_table({"score": matrix}, level="binary")


def test_estimates_are_the_tables_estimates() -> None:
    """``estimates`` (what the pairwise table reads for every pair of raters) gives the
    ``estimate`` column of ``agreement_table``, undefined coefficients as NaN."""
    matrix = ratings_matrices(LONG)["score"]
    constant = pd.DataFrame({"a": [1, 1, 1], "b": [1, 1, 1]})
    for frame, level, names, categories in [
        (matrix, "ordinal", ["percent_agreement", "cohen_kappa:quadratic"], None),
        (matrix, "nominal", ["cohen_kappa", "brennan_prediger"], [1, 2, 3, 4, 5, 6, 7]),
        (constant, "nominal", ["percent_agreement", "cohen_kappa"], None),
    ]:
        table = agreement_table({"f": frame}, level, names, categories)
        np.testing.assert_array_equal(
            estimates(frame, level, names, categories), table["estimate"].to_numpy()
        )
    assert np.isnan(estimates(constant, "nominal", ["cohen_kappa"])[0])


def test_default_coefficients_follow_level_and_raters() -> None:
    assert default_coefficients("nominal", 2)[1] == "cohen_kappa"
    assert default_coefficients("nominal", 5)[1] == "fleiss_kappa"
    assert "cohen_kappa" not in default_coefficients("ordinal", 3)
    assert default_coefficients("interval", 3) == ["krippendorff_alpha", "icc"]


def test_the_command_lines_coefficient_names_are_the_ones_computed() -> None:
    """``raterlab agree --help`` lists :data:`raterlab.agreement.names.COEFFICIENT_NAMES`
    without importing the coefficients: the names and the table's coefficients are one set."""
    from raterlab.agreement.by_field import COEFFICIENTS
    from raterlab.agreement.names import COEFFICIENT_NAMES

    assert tuple(COEFFICIENTS) == COEFFICIENT_NAMES
