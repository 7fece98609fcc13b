"""Bradley-Terry against choix, Davidson against a direct maximisation of its likelihood and
against Davidson's (1970) likelihood equations, and the cases without a maximum."""

from __future__ import annotations

import choix
import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize

from raterlab.pairwise.bradley_terry import PairCounts, RankingUndefined, fit_pairs
from raterlab.pairwise.comparisons import counted_comparisons, prompt_counts, systems_of
from raterlab.pairwise.ranking import ranking
from tests.pairwise.stats_sim import simulate

TRUTH = {"m1": 0.0, "m2": 0.6, "m3": 1.2, "m4": -0.7, "m5": 0.3}


def _counts(frame: pd.DataFrame) -> PairCounts:
    rows = counted_comparisons(frame)
    return prompt_counts(rows, systems_of(rows))[0]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bradley_terry_equals_choix(seed: int) -> None:
    frame = simulate(TRUTH, n_prompts=12, seed=seed)
    systems = sorted(TRUTH)
    index = {s: k for k, s in enumerate(systems)}
    loser = np.where(frame["winner"] == frame["system_a"], frame["system_b"], frame["system_a"])
    data = [(index[w], index[v]) for w, v in zip(frame["winner"], loser, strict=True)]
    for reference in (
        choix.opt_pairwise(len(systems), data, alpha=0, tol=1e-12),
        choix.ilsr_pairwise(len(systems), data, alpha=0, tol=1e-12, max_iter=10_000),
    ):
        expected = reference - reference.mean()  # choix's scale is log-strength too
        fit = fit_pairs(_counts(frame), "bradley_terry")
        np.testing.assert_allclose(fit.strength, expected, atol=1e-6)
        table = ranking(counted_comparisons(frame), n_resamples=20)
        np.testing.assert_allclose(table["strength"], expected, atol=1e-6)
        assert set(table["model"]) == {"bradley_terry"} and (table["ridge"] == 0).all()


def _direct_davidson(counts: PairCounts) -> tuple[np.ndarray, float, float]:
    """Maximise Davidson's likelihood written from its probabilities, with scipy: strengths
    pi = exp(theta) with theta_0 = 0, nu = exp(phi)."""
    k = len(counts.systems)

    def negative(x: np.ndarray) -> float:
        pi = np.exp(np.concatenate([[0.0], x[: k - 1]]))
        nu = np.exp(x[k - 1])
        total = 0.0
        for i, j, wi, wj, t in zip(
            counts.i, counts.j, counts.wins_i, counts.wins_j, counts.ties, strict=True
        ):
            tie = nu * np.sqrt(pi[i] * pi[j])
            den = pi[i] + pi[j] + tie
            total += wi * np.log(pi[i] / den) + wj * np.log(pi[j] / den) + t * np.log(tie / den)
        return -total

    result = minimize(negative, np.zeros(k), method="BFGS", options={"gtol": 1e-9})
    theta = np.concatenate([[0.0], result.x[: k - 1]])
    return theta - theta.mean(), float(np.exp(result.x[k - 1])), -float(result.fun)


def test_davidson_equals_direct_maximisation() -> None:
    counts = _counts(simulate(TRUTH, n_prompts=10, nu=0.8, seed=3))
    fit = fit_pairs(counts, "davidson")
    theta, nu, loglik = _direct_davidson(counts)
    assert fit.model == "davidson" and fit.tie_parameter > 0
    np.testing.assert_allclose(fit.strength, theta, atol=1e-4)
    assert fit.tie_parameter == pytest.approx(nu, abs=1e-4)
    assert fit.log_likelihood >= loglik - 1e-9
    assert fit.log_likelihood == pytest.approx(loglik, abs=1e-6)


def test_davidson_solves_its_likelihood_equations() -> None:
    """The likelihood equations of Davidson (1970): each system's wins plus half its ties equal their
    expectation, and so do the ties in all."""
    counts = _counts(simulate(TRUTH, n_prompts=10, nu=0.5, seed=4))
    fit = fit_pairs(counts, "davidson")
    pi, nu = np.exp(fit.strength), fit.tie_parameter
    i, j, n = counts.i, counts.j, counts.n
    tie = nu * np.sqrt(pi[i] * pi[j])
    den = pi[i] + pi[j] + tie
    expected = np.zeros(len(pi))
    np.add.at(expected, i, n * (pi[i] + tie / 2) / den)
    np.add.at(expected, j, n * (pi[j] + tie / 2) / den)
    observed = np.zeros(len(pi))
    np.add.at(observed, i, counts.wins_i + counts.ties / 2)
    np.add.at(observed, j, counts.wins_j + counts.ties / 2)
    np.testing.assert_allclose(observed, expected, atol=1e-8)
    assert counts.ties.sum() == pytest.approx((n * tie / den).sum(), abs=1e-8)


def test_strength_truth_recovered_with_ties() -> None:
    counts = _counts(simulate(TRUTH, n_prompts=600, raters=("r1",), nu=0.5, seed=5))
    fit = fit_pairs(counts, "davidson")
    truth = np.array([TRUTH[s] for s in counts.systems])
    np.testing.assert_allclose(fit.strength, truth - truth.mean(), atol=0.2)  # ~3 SE
    assert fit.tie_parameter == pytest.approx(0.5, abs=0.1)


def _pairs(wins: list[tuple[int, int, float, float, float]]) -> PairCounts:
    i, j, wi, wj, t = (np.array(column) for column in zip(*wins, strict=True))
    return PairCounts(("a", "b", "c"), i.astype(int), j.astype(int), wi, wj, t)


def test_a_system_that_never_loses_has_no_maximum() -> None:
    counts = _pairs([(0, 1, 5, 0, 0), (0, 2, 4, 0, 0), (1, 2, 3, 2, 0)])
    with pytest.raises(RankingUndefined, match=r"\['a'\] never lost"):
        fit_pairs(counts, "bradley_terry")
    penalised = fit_pairs(counts, "bradley_terry", ridge=0.1)
    assert np.isfinite(penalised.strength).all() and penalised.strength[0] > 2
    assert penalised.strength.sum() == pytest.approx(0, abs=1e-9)


def test_a_tie_links_both_ways() -> None:
    counts = _pairs([(0, 1, 5, 0, 1), (0, 2, 4, 0, 0), (1, 2, 3, 2, 0)])
    assert np.isfinite(fit_pairs(counts, "davidson").strength).all()


def test_disconnected_comparisons_have_no_maximum() -> None:
    counts = PairCounts(
        ("a", "b", "c", "d"),
        np.array([0, 2]),
        np.array([1, 3]),
        np.array([2.0, 1.0]),
        np.array([1.0, 2.0]),
        np.zeros(2),
    )
    with pytest.raises(RankingUndefined, match="not connected"):
        fit_pairs(counts, "bradley_terry")


def test_ties_need_davidson_and_a_decisive_outcome() -> None:
    with pytest.raises(ValueError, match="Bradley-Terry takes no ties"):
        fit_pairs(_pairs([(0, 1, 1, 1, 1), (1, 2, 1, 1, 0)]), "bradley_terry")
    with pytest.raises(RankingUndefined, match="every comparison is a tie"):
        fit_pairs(_pairs([(0, 1, 0, 0, 2), (1, 2, 0, 0, 1)]), "davidson")


def test_bad_rows_are_named() -> None:
    frame = simulate(TRUTH, n_prompts=1)
    frame.loc[3, "winner"] = "m9"
    with pytest.raises(ValueError, match=r"row 3 .*column 'winner'.*'m9'"):
        counted_comparisons(frame)
    with pytest.raises(ValueError, match="lacks the columns"):
        counted_comparisons(frame.drop(columns="prompt_id"))


def test_uncounted_rows_are_left_out() -> None:
    frame = simulate(TRUTH, n_prompts=2).assign(counted=True)
    frame.loc[:4, "counted"] = False
    assert len(counted_comparisons(frame)) == len(frame) - 5
