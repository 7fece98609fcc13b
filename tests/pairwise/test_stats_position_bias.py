"""Position bias flags a rater who favours the left response and not fair ones; its test and
interval match their textbook definitions."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binom, norm

from raterlab.pairwise.position_bias import position_bias
from tests.pairwise.stats_sim import simulate

TRUTH = {"m1": 0.0, "m2": 0.5, "m3": 1.0, "m4": -0.5}


def test_a_biased_rater_is_flagged_and_fair_ones_are_not() -> None:
    rows = simulate(TRUTH, 20, ("r1", "r2", "r3", "biased"), nu=0.3, always_left={"biased": 0.5})
    table = position_bias(rows).set_index("annotator_id")
    assert table.loc["biased", "flagged"] and table.loc["biased", "left_share"] > 0.65
    assert not table.loc[["r1", "r2", "r3"], "flagged"].any()
    assert table.loc["all", "n_non_tie"] == table.drop(index="all")["n_non_tie"].sum()


def test_a_small_significant_lean_is_not_flagged() -> None:
    """0.55 of 4000 is far from 0.5 by the test but inside [0.4, 0.6]."""
    rows = pd.DataFrame({"annotator_id": "r1", "choice": ["left"] * 2200 + ["right"] * 1800})
    row = position_bias(rows).set_index("annotator_id").loc["r1"]
    assert row["p_value"] < 1e-8 and not row["flagged"]


def _exact_two_sided(k: int, n: int) -> float:
    """Sum of the binomial(n, 1/2) probabilities no larger than that of k."""
    pmf = binom.pmf(np.arange(n + 1), n, 0.5)
    return float(min(1.0, pmf[pmf <= pmf[k] * (1 + 1e-7)].sum()))


def _wilson(k: int, n: int, z: float = norm.ppf(0.975)) -> tuple[float, float]:
    p = k / n
    centre = (p + z**2 / (2 * n)) / (1 + z**2 / n)
    half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / (1 + z**2 / n)
    return centre - half, centre + half


@pytest.mark.parametrize(("left", "right", "ties"), [(14, 6, 3), (30, 31, 0), (2, 9, 5)])
def test_test_and_interval_match_their_definitions(left: int, right: int, ties: int) -> None:
    rows = pd.DataFrame(
        {"annotator_id": "r1", "choice": ["left"] * left + ["right"] * right + ["tie"] * ties}
    )
    row = position_bias(rows).set_index("annotator_id").loc["r1"]
    n = left + right
    assert (row["n_non_tie"], row["n_left"], row["n_ties"]) == (n, left, ties)
    assert row["left_share"] == pytest.approx(left / n)
    assert row["p_value"] == pytest.approx(_exact_two_sided(left, n))
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(_wilson(left, n))


def test_holm_across_annotators() -> None:
    rows = pd.DataFrame(
        {
            "annotator_id": ["a"] * 30 + ["b"] * 30,
            "choice": ["left"] * 24 + ["right"] * 6 + ["left"] * 18 + ["right"] * 12,
        }
    )
    table = position_bias(rows).set_index("annotator_id")
    p = table.loc[["a", "b"], "p_value"].sort_values()
    expected = np.maximum.accumulate(np.minimum(1, p.to_numpy() * [2, 1]))
    np.testing.assert_allclose(table.loc[p.index, "p_holm"], expected)
