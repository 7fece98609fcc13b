"""The comparison planner against statsmodels' power classes (TTestPower, TTestIndPower)."""

from __future__ import annotations

import itertools
import math
import warnings

import pytest
from statsmodels.stats.power import TTestIndPower, TTestPower

from raterlab.planning.power import WILCOXON_ARE, plan_comparison, power

GRID = list(
    itertools.product(
        [0.1, 0.2, 0.35, 0.5, 0.8, 1.2],
        [0.5, 0.8, 0.9, 0.95],
        [0.01, 0.05, 0.1],
        ["two-sided", "larger"],
        [True, False],
    )
)


def _statsmodels_n(effect_size, power_target, alpha, alternative, paired):
    """n as a user computes it with statsmodels, or None where its solver did not converge
    (its own power at its answer is off the target)."""
    solver = TTestPower() if paired else TTestIndPower()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        n = solver.solve_power(
            effect_size=effect_size, power=power_target, alpha=alpha, alternative=alternative
        )
        reached = solver.power(effect_size, n, alpha, alternative=alternative)
    return n if abs(reached - power_target) < 1e-6 else None


@pytest.mark.parametrize(("d", "p", "a", "alternative", "paired"), GRID)
def test_n_is_statsmodels_solve_power_rounded_up(d, p, a, alternative, paired):
    reference = _statsmodels_n(d, p, a, alternative, paired)
    plan = plan_comparison(d, p, a, paired=paired, alternative=alternative)
    if reference is None:  # statsmodels' solver missed: its own power formula still judges
        solver = TTestPower() if paired else TTestIndPower()
        assert solver.power(d, plan.n_pairs, a, alternative=alternative) >= p
        assert solver.power(d, plan.n_pairs - 1, a, alternative=alternative) < p
        return
    assert plan.n_pairs == plan.n_per_group == math.ceil(reference)
    assert plan.n_exact == pytest.approx(reference, rel=1e-6)


@pytest.mark.parametrize("paired", [True, False])
def test_power_matches_statsmodels_and_the_rounded_n_is_the_smallest(paired):
    solver = TTestPower() if paired else TTestIndPower()
    for n in (5, 17.5, 40, 300):
        for alternative in ("two-sided", "larger", "smaller"):
            assert power(0.4, n, 0.05, paired, alternative) == pytest.approx(
                solver.power(0.4, n, 0.05, alternative=alternative), abs=1e-10
            )
    plan = plan_comparison(0.4, 0.9, 0.05, paired=paired)
    assert plan.achieved_power >= 0.9 > power(0.4, plan.n_pairs - 1, 0.05, paired)


def test_the_wilcoxon_test_needs_n_over_its_efficiency():
    t = plan_comparison(0.3, 0.8, 0.05, paired=True)
    wilcoxon = plan_comparison(0.3, 0.8, 0.05, paired=True, test="wilcoxon")
    assert pytest.approx(0.955, abs=5e-4) == WILCOXON_ARE
    assert wilcoxon.n_pairs == math.ceil(t.n_exact / WILCOXON_ARE) > t.n_pairs
    assert "signed-rank" in wilcoxon.test and "3/pi" in wilcoxon.test


def test_a_textbook_value():
    """Cohen (1988), Table 2.4.1: d = 0.5, two-sided alpha 0.05, power 0.80 -> 64 per group."""
    assert plan_comparison(0.5, 0.8, 0.05, paired=False).n_per_group == 64


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"power_target": 1.2}, "power must be"),
        ({"alpha": 0}, "alpha must be"),
        ({"effect_size": 0.0}, "nonzero"),
        ({"alternative": "less"}, "alternative must be"),
        ({"test": "sign"}, "test must be"),
        ({"alternative": "smaller"}, "out of reach"),
    ],
)
def test_bad_input_is_refused_with_its_reason(kwargs, message):
    arguments = {"effect_size": 0.5, "power_target": 0.8, "alpha": 0.05, **kwargs}
    with pytest.raises(ValueError, match=message):
        plan_comparison(**arguments)


def test_one_sided_is_the_test_in_the_direction_of_the_effect():
    larger = plan_comparison(0.4, 0.8, 0.05, alternative="larger")
    assert plan_comparison(0.4, 0.8, 0.05, alternative="one-sided").n_pairs == larger.n_pairs
    smaller = plan_comparison(-0.4, 0.8, 0.05, alternative="one-sided")
    assert smaller.n_pairs == larger.n_pairs and smaller.alternative == "smaller"
    two_sided = plan_comparison(-0.4, 0.8, 0.05)
    assert two_sided.n_pairs == plan_comparison(0.4, 0.8, 0.05).n_pairs > larger.n_pairs
