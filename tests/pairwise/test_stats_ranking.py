"""Bootstrap intervals over prompts cover the truth at about their nominal rate; rank
intervals hold the rank; the win-rate matrix adds up."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from raterlab.pairwise.comparisons import counted_comparisons
from raterlab.pairwise.ranking import ranking, win_counts
from raterlab.pairwise.win_rates import win_rates
from tests.pairwise.stats_sim import simulate

TRUTH = {"m1": 0.0, "m2": 0.4, "m3": 0.8, "m4": -0.4}


def test_intervals_cover_the_truth_at_about_the_nominal_rate() -> None:
    truth = pd.Series(TRUTH) - np.mean(list(TRUTH.values()))
    covered = []
    for seed in range(40):
        rows = counted_comparisons(simulate(TRUTH, 16, ("r1", "r2"), nu=0.3, seed=seed))
        table = ranking(rows, n_resamples=200, confidence=0.9, seed=seed).set_index("system")
        true = truth[table.index]
        covered += list((table["ci_low"] <= true) & (true <= table["ci_high"]))
    # 160 intervals (4 per study): about 90% cover; a binomial 99% range is 0.83..0.96
    assert 0.82 <= np.mean(covered) <= 0.97


def test_rank_intervals() -> None:
    separated = {"a": 3.0, "b": 1.5, "c": 0.0, "d": -1.5}
    rows = counted_comparisons(simulate(separated, 40, seed=1))
    table = ranking(rows, n_resamples=200).set_index("system")
    assert table["rank"].to_dict() == {"a": 1, "b": 2, "c": 3, "d": 4}
    assert (table["rank_low"] == table["rank"]).all() and (
        table["rank_high"] == table["rank"]
    ).all()
    equal = {"a": 0.0, "b": 0.0, "c": 0.0, "d": 0.0}
    table = ranking(counted_comparisons(simulate(equal, 10, seed=2)), n_resamples=200)
    assert (table["rank_low"] <= table["rank"]).all() and (
        table["rank"] <= table["rank_high"]
    ).all()
    assert (table["rank_high"] - table["rank_low"] >= 2).all()
    assert table["rank_low"].min() >= 1 and table["rank_high"].max() <= 4


def test_same_seed_same_intervals() -> None:
    rows = counted_comparisons(simulate(TRUTH, 10, nu=0.3, seed=3))
    pd.testing.assert_frame_equal(ranking(rows, 50, seed=9), ranking(rows, 50, seed=9))


def test_a_system_that_never_loses_gets_the_ridge() -> None:
    rows = counted_comparisons(simulate({"a": 9.0, "b": 0.0, "c": -0.5}, 8, seed=4))
    rows = rows[~((rows["outcome"] == "b") & (rows["system_a"] == "a"))]
    table = ranking(rows, n_resamples=50).set_index("system")
    assert (table["ridge"] == 0.1).all() and table["note"].str.contains("ridge").all()
    assert table.loc["a", "rank"] == 1 and np.isfinite(table["strength"]).all()


def test_win_counts_and_matrix_add_up() -> None:
    rows = counted_comparisons(simulate(TRUTH, 6, nu=0.5, seed=5))
    matrix = win_rates(rows)
    pairs = matrix.merge(matrix, left_on=["system", "opponent"], right_on=["opponent", "system"])
    np.testing.assert_allclose(pairs["win_rate_x"] + pairs["win_rate_y"], 1.0)
    assert (pairs["wins_x"] == pairs["losses_y"]).all() and (
        pairs["ties_x"] == pairs["ties_y"]
    ).all()
    assert (matrix["wins"] + matrix["losses"] + matrix["ties"] == matrix["n_comparisons"]).all()
    assert matrix["n_comparisons"].sum() == 2 * len(rows)
    totals = matrix.groupby("system")[["wins", "losses", "ties", "n_comparisons"]].sum()
    counts = win_counts(rows, tuple(sorted(TRUTH))).set_index("system")
    pd.testing.assert_frame_equal(totals, counts[totals.columns], check_dtype=False)
    share = (counts["wins"] + counts["ties"] / 2) / counts["n_comparisons"]
    np.testing.assert_allclose(counts["win_rate"], share)
    assert counts["n_prompts"].eq(6).all()


@pytest.mark.parametrize("confidence", [0.8, 0.95])
def test_intervals_contain_the_estimate(confidence: float) -> None:
    rows = counted_comparisons(simulate(TRUTH, 20, nu=0.3, seed=6))
    table = ranking(rows, n_resamples=200, confidence=confidence)
    assert (table["ci_low"] <= table["strength"]).all()
    assert (table["strength"] <= table["ci_high"]).all()


def test_all_ties_leave_the_strengths_empty_and_say_why() -> None:
    rows = counted_comparisons(simulate(TRUTH, 3, seed=7).assign(winner="tie", choice="tie"))
    table = ranking(rows, n_resamples=20)
    assert table["strength"].isna().all() and table["ci_low"].isna().all()
    assert table["note"].str.contains("every comparison is a tie").all()
    assert (table["win_rate"] == 0.5).all()
