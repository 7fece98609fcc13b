"""A judge's pairwise verdicts: the judge file that names the order (validated, stored in the
pair's canonical orientation), agreement with the human winners (scikit-learn's Cohen's kappa,
a bootstrap over pairs), and swap consistency and left share on pairs judged in both orders
(scipy's exact binomial test, statsmodels' Wilson interval)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.proportion import proportion_confint

from raterlab.design import read_generations
from raterlab.judges import pairwise as pairwise_module
from raterlab.judges.pairwise import outcomes, swap_frame, winner_agreement
from raterlab.judges.robustness import position_swap_checks
from raterlab.judges.verdicts import JudgeFileError, read_judge_file
from raterlab.protocol import load_study
from tests.conftest import STUDIES

SYSTEMS = ("ash", "birch", "cedar", "dogwood")
SEEN = {"a": "left", "b": "right", "tie": "tie"}


def _humans(n_pairs: int, rng: np.random.Generator) -> pd.DataFrame:
    rows = []
    for p in range(n_pairs):
        a, b = sorted(rng.choice(SYSTEMS, 2, replace=False))
        outcome = rng.choice(["a", "b", "tie"], p=[0.45, 0.4, 0.15])
        rows.append({"item_id": f"p{p}:{a}~{b}", "system_a": a, "system_b": b, "human": outcome})
    return pd.DataFrame(rows)


def _stored(humans: pd.DataFrame, judge: str, skill: float, left: float, seed: int):
    """Stored verdicts (canonical ``value`` and the order) of a judge that saw each pair in
    both orders: with probability ``left`` it picks the left response, else the human outcome
    with probability ``skill``, else one at random."""
    rng = np.random.default_rng(seed)
    rows = []
    for pair in humans.itertuples(index=False):
        for lhs, rhs in ((pair.system_a, pair.system_b), (pair.system_b, pair.system_a)):
            if rng.random() < left:
                value = "a" if lhs == pair.system_a else "b"
            elif rng.random() < skill:
                value = pair.human
            else:
                value = rng.choice(["a", "b", "tie"])
            rows.append(
                {
                    "item_id": pair.item_id,
                    "judge": judge,
                    "value": value,
                    "run": "1",
                    "left_system": lhs,
                    "right_system": rhs,
                }
            )
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def judged() -> tuple[pd.DataFrame, pd.DataFrame]:
    humans = _humans(80, np.random.default_rng(7))
    verdicts = pd.concat(
        [
            _stored(humans, "fair", skill=0.8, left=0.0, seed=1),
            _stored(humans, "leftish", skill=0.8, left=0.4, seed=2),
        ],
        ignore_index=True,
    )
    return humans, verdicts


def test_agreement_is_cohens_kappa_with_a_bootstrap_over_pairs(judged) -> None:
    humans, verdicts = judged
    for _, part in verdicts.groupby("judge"):
        rows = part.merge(humans[["item_id", "human"]], on="item_id")
        rows = rows.assign(outcome=outcomes(rows["value"]))
        got = winner_agreement(rows, resamples=300, seed=3)
        assert (got["n_pairs"], got["n_verdicts"]) == (80, 160)
        assert got["kappa"] == pytest.approx(cohen_kappa_score(rows["outcome"], rows["human"]))
        assert got["percent_agreement"] == pytest.approx(np.mean(rows["outcome"] == rows["human"]))
        # The reference: resample pairs with the same draws, each pair's two verdicts along.
        pairs = np.unique(rows["item_id"])
        drawn = np.random.default_rng(3).integers(0, len(pairs), size=(300, len(pairs)))
        rows_of = rows.groupby("item_id").indices  # a pair's rows, in the frame's order
        outcome, human = rows["outcome"].to_numpy(), rows["human"].to_numpy()
        kappas = [
            cohen_kappa_score(outcome[at], human[at])
            for draw in drawn
            for at in [np.concatenate([rows_of[pairs[i]] for i in draw])]
        ]
        low, high = np.percentile(kappas, [2.5, 97.5])
        assert (got["kappa_low"], got["kappa_high"]) == pytest.approx((low, high))
        assert got["kappa_low"] < got["kappa"] < got["kappa_high"]


def test_swap_consistency_and_left_share_of_stored_verdicts(judged) -> None:
    _, verdicts = judged
    checks = position_swap_checks(swap_frame(verdicts)).set_index(["judge", "check"])
    for judge, part in verdicts.groupby("judge"):
        side = np.where(
            part["value"] == "tie",
            "tie",
            np.where(
                (part["value"] == "a") == (part["left_system"] < part["right_system"]),
                "left",
                "right",
            ),
        )
        n_left, n = int((side == "left").sum()), int((side != "tie").sum())
        bias = checks.loc[(judge, "position_bias")]
        assert (bias["n"], bias["estimate"]) == (n, pytest.approx(n_left / n))
        assert bias["p_value"] == pytest.approx(binomtest(n_left, n, 0.5).pvalue)
        wilson = proportion_confint(n_left, n, alpha=0.05, method="wilson")
        assert (bias["ci_low"], bias["ci_high"]) == pytest.approx(wilson)
        same = part.groupby("item_id")["value"].nunique() == 1
        swap = checks.loc[(judge, "position_swap")]
        assert (swap["n"], swap["estimate"]) == (80, pytest.approx(same.mean()))
        wilson = proportion_confint(int(same.sum()), 80, alpha=0.05, method="wilson")
        assert (swap["ci_low"], swap["ci_high"]) == pytest.approx(wilson)
    assert checks.loc[("leftish", "position_bias"), "flagged"]
    assert not checks.loc[("fair", "position_bias"), "flagged"]
    assert checks.loc[("leftish", "position_swap"), "flagged"]


def test_unreadable_verdicts_are_left_out_of_the_position_checks() -> None:
    stored = pd.DataFrame(
        {
            "item_id": ["p0:x~y", "p0:x~y", "p1:x~y", "p1:x~y"],
            "judge": "j",
            "value": ["much_a", "a", "b", None],
            "run": "1",
            "left_system": ["x", "y", "x", "y"],
            "right_system": ["y", "x", "y", "x"],
        }
    )
    frame = swap_frame(stored)
    assert frame["winner"].tolist() == ["x", "x", "y"]
    checks = position_swap_checks(frame).set_index("check")
    assert (checks.loc["position_swap", "n"], checks.loc["position_swap", "estimate"]) == (1, 1.0)


@pytest.fixture(scope="module")
def arena():
    study = load_study(STUDIES / "pairwise_arena.yaml")
    generations = read_generations(study)
    tasks_of = dict(zip(generations["item_id"].astype(str), generations["task"], strict=True))
    items = [i for i in tasks_of if "~" in i]
    return study, tasks_of, items


def _file(tmp_path: Path, rows: list[dict]) -> Path:
    path = tmp_path / "judge.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


def _row(item: str, left: str, right: str, value: str, **extra: str) -> dict:
    return {
        "item_id": item,
        "judge": "arena_judge",
        "field": "preference",
        "left_system": left,
        "right_system": right,
        "value": value,
        **extra,
    }


def test_a_pairwise_judge_file_is_stored_canonically_with_its_order(arena, tmp_path) -> None:
    study, tasks_of, items = arena
    item = items[0]
    a, b = item.split(":")[1].split("~")
    rows = [
        _row(item, a, b, "left", run="1"),  # a on the left, left: a
        _row(item, b, a, "LEFT", run="1"),  # b on the left, left: b
        _row(item, a, b, "tie", run="2"),
        _row(item, b, a, "much_right", run="2"),  # strength off in the study: unreadable
        _row(items[1], *items[1].split(":")[1].split("~")[::-1], "right"),
    ]
    stored = read_judge_file(study, _file(tmp_path, rows), tasks_of)
    assert stored["value"].tolist() == ["a", "b", "tie", None, "a"]
    assert stored["raw"].tolist() == ["left", "LEFT", "tie", "much_right", "right"]
    assert stored["left_system"].tolist()[:2] == [a, b]
    assert stored["run"].tolist() == ["1", "1", "2", "2", "1"]


def test_pairwise_judge_file_errors_name_row_column_and_value(arena, tmp_path) -> None:
    study, tasks_of, items = arena
    item = items[0]
    a, b = item.split(":")[1].split("~")
    rows = [
        _row(item, a, b, "left"),
        _row(item, a, b, "right"),  # the same order again in run 1
        _row(item, a, "zephyr", "left"),  # not the pair's system
        _row(item, "", b, "left"),  # no left system
        _row(item, b, a, "left"),  # fine: the other order
    ]
    with pytest.raises(JudgeFileError) as raised:
        read_judge_file(study, _file(tmp_path, rows), tasks_of)
    problems = raised.value.problems
    assert len(problems) == 3
    assert problems[0].startswith(f"row 3: a second verdict for ('{item}', 'arena_judge'")
    assert f"with '{a}' on the left (first on row 2)" in problems[0]
    assert problems[1].startswith("row 4, column right_system:")
    assert "'zephyr'" in problems[1]
    assert problems[2].startswith("row 5, column left_system:") and "empty cell" in problems[2]


def test_a_pairwise_judge_file_without_the_order_is_refused(arena, tmp_path) -> None:
    study, tasks_of, items = arena
    path = tmp_path / "judge.csv"
    pd.DataFrame(
        [{"item_id": items[0], "judge": "arena_judge", "field": "preference", "value": "left"}]
    ).to_csv(path, index=False)
    with pytest.raises(JudgeFileError, match=r"row 2, column left_system: .*pairwise field"):
        read_judge_file(study, path, tasks_of)


@pytest.mark.parametrize("block", [80, 81, 80 * 7, 80 * 300])
def test_agreement_interval_does_not_depend_on_the_draws_block(judged, monkeypatch, block) -> None:
    """Resamples drawn a block at a time (one, one and a bit, seven, all 300 at once) are the
    same draws in the same order, so the interval is exactly the same."""
    humans, verdicts = judged
    rows = verdicts[verdicts["judge"] == "fair"].merge(humans[["item_id", "human"]], on="item_id")
    rows = rows.assign(outcome=outcomes(rows["value"]))
    monkeypatch.setattr(pairwise_module, "BLOCK_CELLS", 80 * 300)
    whole = winner_agreement(rows, resamples=300, seed=3)
    monkeypatch.setattr(pairwise_module, "BLOCK_CELLS", block)
    assert winner_agreement(rows, resamples=300, seed=3) == whole
