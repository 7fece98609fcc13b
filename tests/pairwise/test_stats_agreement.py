"""Agreement on the same pair is on the canonical choice: raters who saw the sides swapped
but picked the same system agree."""

from __future__ import annotations

import pandas as pd
import pytest

from raterlab.agreement import fleiss_kappa
from raterlab.pairwise.agreement import choice_matrix, pair_agreement
from raterlab.pairwise.comparisons import counted_comparisons
from tests.pairwise.stats_sim import simulate


def test_same_winner_on_swapped_sides_is_agreement() -> None:
    one = simulate({"a": 0.0, "b": 0.5, "c": 1.0}, 12, ("r1",), nu=0.5, seed=1)
    two = one.assign(annotator_id="r2", left_system=one["right_system"])
    two["right_system"] = one["left_system"]
    two["choice"] = one["choice"].map({"left": "right", "right": "left", "tie": "tie"})
    rows = counted_comparisons(pd.concat([one, two], ignore_index=True))
    table = pair_agreement(rows, "preference", n_resamples=50).set_index("coefficient")
    assert table.loc["cohen_kappa", "estimate"] == pytest.approx(1.0)
    assert table.loc["percent_agreement", "estimate"] == pytest.approx(1.0)


def test_kappa_is_fleiss_on_the_pairs_by_raters_matrix() -> None:
    rows = counted_comparisons(simulate({"a": 0.0, "b": 0.5, "c": 1.0}, 15, nu=0.5, seed=2))
    table = pair_agreement(rows, "preference", n_resamples=50).set_index("coefficient")
    matrix = choice_matrix(rows)
    assert matrix.shape == (15 * 3, 3) and set(matrix.stack()) <= {"a", "b", "tie"}
    kappa = table.loc["fleiss_kappa"]
    assert kappa["estimate"] == pytest.approx(float(fleiss_kappa(matrix)))
    assert kappa["ci_low"] <= kappa["estimate"] <= kappa["ci_high"]
    assert kappa["n_units"] == 45 and kappa["n_raters"] == 3
