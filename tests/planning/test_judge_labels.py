"""The judge planner against ppi_py: at the planned n, ppi_mean_ci's intervals are as wide
as planned."""

from __future__ import annotations

import numpy as np
import pytest
from ppi_py import ppi_mean_ci

from raterlab.planning.judge_labels import plan_judge, ppi_variance

REPEATS = 100


def _mean_width(human_and_judge, n, n_unlabeled, seed=0):
    rng = np.random.default_rng(seed)
    widths = []
    for _ in range(REPEATS):
        y, f = human_and_judge(rng, n + n_unlabeled)
        low, high = ppi_mean_ci(y[:n], f[:n], f[n:], alpha=0.05)
        widths.append(float(high[0] - low[0]))
    return float(np.mean(widths))


def _normal(rho, sd):
    def draw(rng, size):
        y = rng.normal(0, sd, size)
        return y, rho * y + np.sqrt(1 - rho**2) * rng.normal(0, sd, size)

    return draw


def _binary(rho, rate):
    """A judge that copies the human label with probability rho and otherwise guesses
    Bernoulli(rate): the two correlate at rho and spread alike."""

    def draw(rng, size):
        y = (rng.random(size) < rate).astype(float)
        guess = (rng.random(size) < rate).astype(float)
        return y, np.where(rng.random(size) < rho, y, guess)

    return draw


@pytest.mark.parametrize(
    ("rho", "width", "sd", "n_unlabeled"),
    [(0.8, 0.2, 1.0, None), (0.5, 0.1, 1.0, None), (0.9, 0.1, 1.0, 2000), (0.7, 0.3, 2.0, 500)],
)
def test_ppi_py_intervals_at_the_planned_n_have_the_planned_width(rho, width, sd, n_unlabeled):
    plan = plan_judge(rho, width, sd=sd, n_unlabeled=n_unlabeled)
    n_unlabeled_drawn = n_unlabeled or 100_000  # "many"
    achieved = _mean_width(_normal(rho, sd), plan.n_labels, n_unlabeled_drawn)
    assert achieved == pytest.approx(width, rel=0.03)
    assert plan.planned_width <= width


def test_a_binary_label():
    rate, rho = 0.3, 0.75
    plan = plan_judge(rho, 0.1, sd=np.sqrt(rate * (1 - rate)), n_unlabeled=5000)
    assert _mean_width(_binary(rho, rate), plan.n_labels, 5000) == pytest.approx(0.1, rel=0.03)


def test_the_classical_n_and_the_saving():
    """Humans alone: n = sigma^2 (2 z / W)^2 (the classical interval, ppi_py's
    classical_mean_ci); with a judge correlating at rho and N -> infinity, (1 - rho^2) of it."""
    plan = plan_judge(0.6, 0.1, sd=1.0)
    z = 1.959963984540054
    assert plan.n_labels_classical == int(np.ceil((2 * z / 0.1) ** 2))
    assert plan.n_labels == int(np.ceil((2 * z / 0.1) ** 2 * (1 - 0.36)))
    assert plan.n_saved == plan.n_labels_classical - plan.n_labels


def test_the_variance_is_the_ppi_plus_plus_variance_at_its_best_lambda():
    """V* equals (sigma^2 - 2 lam cov + lam^2 sigma^2)/n + lam^2 sigma^2/N minimised over lam."""
    sd, rho, n, big_n = 1.5, 0.7, 120, 400
    lams = np.linspace(0, 1, 100_001)
    grid = (sd**2 - 2 * lams * rho * sd**2 + lams**2 * sd**2) / n + lams**2 * sd**2 / big_n
    assert ppi_variance(sd, rho, n, big_n) == pytest.approx(grid.min(), rel=1e-8)


def test_more_unlabelled_items_need_fewer_labels():
    sizes = [plan_judge(0.8, 0.1, 1.0, n).n_labels for n in (100, 1000, 10_000)]
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[-1] >= plan_judge(0.8, 0.1, 1.0).n_labels


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"correlation": -0.2}, "between 0 and 1"),
        ({"ci_width": 0}, "width must be positive"),
        ({"sd": 0}, "standard deviation"),
        ({"n_unlabeled": 0}, "unlabelled"),
        ({"confidence": 1.0}, "confidence"),
    ],
)
def test_bad_input_is_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        plan_judge(**{"correlation": 0.5, "ci_width": 0.1, "sd": 1.0, **kwargs})
