"""A judge's pairwise verdicts against the human winners (scikit-learn's Cohen's kappa) and its
position bias on pairs judged in both orders (scipy's exact binomial test)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest
from sklearn.metrics import cohen_kappa_score

from raterlab.pairwise.judge_verdicts import (
    canonical_verdicts,
    human_winners,
    judge_agreement,
    swap_consistency,
)

SYSTEMS = ("ash", "birch", "cedar", "dogwood")


def _humans(n_pairs: int, rng: np.random.Generator) -> pd.DataFrame:
    rows = []
    for p in range(n_pairs):
        a, b = sorted(rng.choice(SYSTEMS, 2, replace=False))
        rows.append(
            {
                "item_id": f"p{p}:{a}~{b}",
                "system_a": a,
                "system_b": b,
                "outcome": rng.choice(["a", "b", "tie"], p=[0.45, 0.4, 0.15]),
            }
        )
    return pd.DataFrame(rows)


def _verdicts(
    humans: pd.DataFrame, judge: str, skill: float, left: float, runs: int, seed: int
) -> pd.DataFrame:
    """Each pair judged ``runs`` times in each order: with probability ``left`` the judge
    picks the left response, else the human outcome with probability ``skill``, else one at
    random."""
    rng = np.random.default_rng(seed)
    rows = []
    for pair in humans.itertuples(index=False):
        for run in range(runs):
            for lhs, rhs in ((pair.system_a, pair.system_b), (pair.system_b, pair.system_a)):
                if rng.random() < left:
                    winner = lhs
                else:
                    outcome = (
                        pair.outcome if rng.random() < skill else rng.choice(["a", "b", "tie"])
                    )
                    winner = {"a": pair.system_a, "b": pair.system_b, "tie": "tie"}[outcome]
                rows.append(
                    {
                        "item_id": pair.item_id,
                        "judge": judge,
                        "left_system": lhs,
                        "right_system": rhs,
                        "winner": winner,
                        "run": run,
                    }
                )
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def pairs() -> tuple[pd.DataFrame, pd.DataFrame]:
    humans = _humans(60, np.random.default_rng(7))
    verdicts = pd.concat(
        [
            _verdicts(humans, "fair", skill=0.8, left=0.0, runs=1, seed=1),
            _verdicts(humans, "leftish", skill=0.8, left=0.5, runs=2, seed=2),
        ],
        ignore_index=True,
    )
    return humans, verdicts


def test_agreement_is_cohens_kappa_on_every_verdict(pairs) -> None:
    humans, verdicts = pairs
    table = judge_agreement(verdicts, humans).set_index("judge")
    outcome = {"a": "system_a", "b": "system_b"}
    merged = verdicts.merge(humans, on="item_id")
    for judge, part in merged.groupby("judge"):
        said = [
            "tie" if w == "tie" else next(k for k, c in outcome.items() if r[c] == w)
            for w, (_, r) in zip(part["winner"], part.iterrows(), strict=True)
        ]
        row = table.loc[judge]
        assert row["n"] == len(part)
        assert row["kappa"] == pytest.approx(cohen_kappa_score(said, part["outcome"]))
        assert row["percent_agreement"] == pytest.approx(np.mean(np.array(said) == part["outcome"]))
        assert row["ci_low"] < row["kappa"] < row["ci_high"]
    assert table.loc["fair", "kappa"] > table.loc["leftish", "kappa"]


def test_swapped_pairs_give_consistency_and_a_binomial_test_of_left(pairs) -> None:
    _, verdicts = pairs
    table = swap_consistency(verdicts).set_index("judge")
    for judge, part in verdicts.groupby("judge"):
        first = part[part["run"] == 0]
        n_left = int((first["winner"] == first["left_system"]).sum())
        n = int((first["winner"] != "tie").sum())
        same = [
            len(set(canonical_verdicts(g)["outcome"])) == 1 for _, g in first.groupby("item_id")
        ]
        row = table.loc[judge]
        assert row["n_swapped_pairs"] == first["item_id"].nunique() == 60
        assert row["consistent"] == pytest.approx(np.mean(same))
        assert (row["n_left"], row["n_non_tie"]) == (n_left, n)
        assert row["left_share"] == pytest.approx(n_left / n)
        assert row["p_value"] == pytest.approx(binomtest(n_left, n, 0.5).pvalue)
    assert table.loc["leftish", "flagged"] and not table.loc["fair", "flagged"]
    assert table.loc["fair", "consistent"] > table.loc["leftish", "consistent"]


def test_a_pair_judged_in_one_order_only_is_not_swapped() -> None:
    one_way = pd.DataFrame(
        {
            "item_id": ["p0:x~y", "p1:x~y", "p1:x~y"],
            "judge": "j",
            "left_system": ["x", "x", "y"],
            "right_system": ["y", "y", "x"],
            "winner": ["x", "x", "x"],
        }
    )
    row = swap_consistency(one_way).iloc[0]
    assert (row["n_swapped_pairs"], row["consistent"], row["n_left"]) == (1, 1.0, 1)
    assert swap_consistency(one_way.iloc[:1]).empty


def test_human_winners_read_the_canonical_consensus() -> None:
    keys = {"task": "preference", "field": "preference"}
    consensus = pd.DataFrame(
        {
            **keys,
            "item_id": ["p0:x~y", "p1:x~z", "p2:y~z", "p3:x~y"],
            "value": ["a", "much_b", "tie", None],
        }
    )
    other = pd.DataFrame({**keys, "field": "reason", "item_id": ["p0:x~y"], "value": ["long"]})
    comparisons = pd.DataFrame(
        {
            **keys,
            "item_id": ["p0:x~y", "p0:x~y", "p1:x~z", "p2:y~z", "p3:x~y"],
            "system_a": ["x", "x", "x", "y", "x"],
            "system_b": ["y", "y", "z", "z", "y"],
        }
    )
    found = human_winners(pd.concat([consensus, other]), comparisons)
    assert found["item_id"].tolist() == ["p0:x~y", "p1:x~z", "p2:y~z"]
    assert found["outcome"].tolist() == ["a", "b", "tie"]
    assert found["winner"].tolist() == ["x", "z", "tie"]


def test_a_winner_outside_the_pair_is_named() -> None:
    bad = pd.DataFrame(
        {
            "item_id": ["p0:x~y", "p1:x~y"],
            "judge": "j",
            "left_system": ["x", "x"],
            "right_system": ["y", "y"],
            "winner": ["x", "z"],
        }
    )
    with pytest.raises(
        ValueError, match=r"row 1 \(item 'p1:x~y', judge 'j'\), column 'winner'.*'z'"
    ):
        canonical_verdicts(bad)
