"""The alternative annotator test against the authors' procedure and the paper's numbers."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import ttest_1samp

from raterlab.judges.significance import alt_test


def _reference(humans: dict, llm: dict, scoring: str, epsilon: float) -> tuple[float, float]:
    """Calderon et al.'s procedure written out with dicts, instance by instance, as in their
    notebook (min 2 humans per instance, 30 instances per human, BY at q = 0.05)."""

    def score(prediction, others):
        if scoring == "accuracy":
            return float(np.mean([prediction == o for o in others]))
        return -float(np.sqrt(np.mean([(prediction - o) ** 2 for o in others])))

    raters_of: dict = {}
    for h, given in humans.items():
        for i in given:
            raters_of.setdefault(i, []).append(h)
    keep = {i for i, hs in raters_of.items() if len(hs) >= 2 and i in llm}
    p_values, advantage = [], []
    for h, ratings in humans.items():
        instances = [i for i in ratings if i in keep]
        if len(instances) < 30:
            continue
        llm_wins, human_wins = [], []
        for i in instances:
            others = [humans[o][i] for o in raters_of[i] if o != h]
            s_h, s_f = score(ratings[i], others), score(llm[i], others)
            llm_wins.append(int(s_f >= s_h))
            human_wins.append(int(s_h >= s_f))
        diff = np.array(human_wins) - np.array(llm_wins)
        p_values.append(ttest_1samp(diff, epsilon, alternative="less").pvalue)
        advantage.append(np.mean(llm_wins))
    m = len(p_values)
    order = np.argsort(p_values)
    bound = np.arange(1, m + 1) / m * 0.05 / np.sum(1 / np.arange(1, m + 1))
    passing = [k for k in range(m) if np.array(p_values)[order][k] <= bound[k]]
    rejected = passing[-1] + 1 if passing else 0
    return rejected / m, float(np.mean(advantage))


def _matrix(humans: dict, llm: dict) -> tuple[np.ndarray, list, np.ndarray]:
    raters = list(humans)
    instances = sorted({i for a in humans.values() for i in a} | set(llm))
    values = sorted(
        {str(v) for a in humans.values() for v in a.values()} | {str(v) for v in llm.values()}
    )
    numeric = all(isinstance(v, int | float) for a in humans.values() for v in a.values())
    code = (lambda v: float(v)) if numeric else (lambda v: float(values.index(str(v))))
    matrix = np.array(
        [[code(humans[r][i]) if i in humans[r] else np.nan for r in raters] for i in instances]
    )
    judge = np.array([code(llm[i]) if i in llm else np.nan for i in instances])
    return matrix, raters, judge


@pytest.mark.parametrize(("scoring", "seed"), [("accuracy", 0), ("accuracy", 1), ("neg_rmse", 2)])
def test_alt_test_equals_reference_procedure(scoring: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 6, size=150)
    humans = {}
    for h in range(5):
        rated = rng.random(150) < 0.7
        noisy = np.clip(truth + rng.integers(-1, 2, size=150) * (rng.random(150) < 0.4), 1, 5)
        humans[f"h{h}"] = {f"i{i}": int(noisy[i]) for i in range(150) if rated[i]}
    judge = np.clip(truth + rng.integers(-1, 2, size=150) * (rng.random(150) < 0.3), 1, 5)
    llm = {f"i{i}": int(judge[i]) for i in range(150)}
    matrix, raters, verdicts = _matrix(humans, llm)
    got = alt_test(matrix, raters, verdicts, scoring, epsilon=0.15, min_humans=2)
    winning, advantage = _reference(humans, llm, scoring, 0.15)
    assert got is not None
    assert got.winning_rate == pytest.approx(winning)
    assert got.advantage_probability == pytest.approx(advantage)


def test_too_few_instances_gives_none() -> None:
    humans = np.array([[1.0, 1.0, 2.0]] * 10)
    assert alt_test(humans, ["a", "b", "c"], np.ones(10)) is None


# Published in the authors' notebook (github.com/nitaytech/AltTest, alt_test_example.ipynb):
# (dataset, scoring, epsilon) -> {llm: (winning rate, advantage probability)}.
PAPER = {
    ("wax", "accuracy", 0.1): {
        "gemini_flash": (0.38, 0.69),
        "gemini_pro": (0.50, 0.74),
        "gpt-4o": (0.50, 0.73),
        "llama-31": (0.00, 0.57),
        "gpt-4o-mini": (0.00, 0.59),
        "mistral-v03": (0.00, 0.50),
    },
    ("lgbteen", "accuracy", 0.2): {
        "gemini_flash": (0.25, 0.71),
        "gemini_pro": (0.00, 0.67),
        "gpt-4o": (0.75, 0.77),
        "llama-31": (0.00, 0.72),
        "gpt-4o-mini": (0.75, 0.76),
        "mistral-v03": (0.25, 0.75),
    },
    ("summeval", "neg_rmse", 0.2): {
        "gemini_flash": (0.00, 0.46),
        "gemini_pro": (0.00, 0.44),
        "gpt-4o": (0.00, 0.48),
        "llama-31": (0.00, 0.58),
        "gpt-4o-mini": (0.00, 0.54),
        "mistral-v03": (0.00, 0.62),
    },
}
DATA = os.environ.get("RATERLAB_ALTTEST_DATA")


@pytest.mark.skipif(
    not DATA,
    reason="set RATERLAB_ALTTEST_DATA to the data/ folder of github.com/nitaytech/AltTest "
    "(not bundled: it states no license)",
)
@pytest.mark.parametrize(("dataset", "scoring", "epsilon"), list(PAPER))
def test_alt_test_reproduces_the_paper(dataset: str, scoring: str, epsilon: float) -> None:
    folder = Path(DATA or "") / dataset
    humans = json.loads((folder / "human_annotations.json").read_text())
    for llm_name, llm in json.loads((folder / "llm_annotations.json").read_text()).items():
        matrix, raters, verdicts = _matrix(humans, llm)
        got = alt_test(matrix, raters, verdicts, scoring, epsilon=epsilon, min_humans=2)
        expected = PAPER[(dataset, scoring, epsilon)][llm_name]
        assert (round(got.winning_rate, 2), round(got.advantage_probability, 2)) == expected
