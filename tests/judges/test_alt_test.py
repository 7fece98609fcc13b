"""The alternative annotator test against the authors' procedure and the paper's numbers."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import ttest_1samp

from raterlab.judges.field_input import Options
from raterlab.judges.files import calibrate_files
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


# Published in the authors' notebook (github.com/nitaytech/AltTest, alt_test_example.ipynb,
# cell 4's printed output): dataset -> (scoring, epsilon, {llm: (winning rate, advantage)}).
PAPER = {
    "wax": ("accuracy", 0.1, {
        "gemini_flash": (0.38, 0.69), "gemini_pro": (0.50, 0.74), "gpt-4o": (0.50, 0.73),
        "llama-31": (0.00, 0.57), "gpt-4o-mini": (0.00, 0.59), "mistral-v03": (0.00, 0.50),
    }),
    "lgbteen": ("accuracy", 0.2, {
        "gemini_flash": (0.25, 0.71), "gemini_pro": (0.00, 0.67), "gpt-4o": (0.75, 0.77),
        "llama-31": (0.00, 0.72), "gpt-4o-mini": (0.75, 0.76), "mistral-v03": (0.25, 0.75),
    }),
    "mtbench": ("accuracy", 0.2, {
        "gemini_flash": (0.00, 0.72), "gemini_pro": (0.00, 0.76), "gpt-4o": (0.00, 0.77),
        "llama-31": (0.00, 0.69), "gpt-4o-mini": (0.00, 0.74), "mistral-v03": (0.00, 0.68),
    }),
    "framing": ("accuracy", 0.15, {
        "gemini_flash": (1.00, 0.83), "gemini_pro": (1.00, 0.91), "gpt-4o": (1.00, 0.92),
        "llama-31": (0.50, 0.80), "gpt-4o-mini": (1.00, 0.87), "mistral-v03": (0.25, 0.80),
    }),
    "cebab_aspects": ("accuracy", 0.1, {
        "gemini_flash": (0.70, 0.91), "gemini_pro": (0.90, 0.94), "gpt-4o": (0.90, 0.93),
        "llama-31": (0.60, 0.89), "gpt-4o-mini": (0.50, 0.90), "mistral-v03": (0.10, 0.81),
    }),
    "summeval": ("neg_rmse", 0.2, {
        "gemini_flash": (0.00, 0.46), "gemini_pro": (0.00, 0.44), "gpt-4o": (0.00, 0.48),
        "llama-31": (0.00, 0.58), "gpt-4o-mini": (0.00, 0.54), "mistral-v03": (0.00, 0.62),
    }),
    "10k_prompts": ("neg_rmse", 0.15, {
        "gemini_flash": (0.31, 0.67), "gemini_pro": (0.08, 0.63), "gpt-4o": (0.69, 0.76),
        "llama-31": (0.15, 0.67), "gpt-4o-mini": (0.92, 0.80), "mistral-v03": (0.15, 0.67),
    }),
    "cebab_stars": ("neg_rmse", 0.1, {
        "gemini_flash": (0.60, 0.82), "gemini_pro": (0.80, 0.87), "gpt-4o": (0.90, 0.90),
        "llama-31": (0.60, 0.85), "gpt-4o-mini": (0.90, 0.89), "mistral-v03": (0.50, 0.83),
    }),
    "lesion": ("neg_rmse", 0.15, {
        "gemini_flash": (0.17, 0.71), "gemini_pro": (1.00, 0.81), "gpt-4o": (0.00, 0.62),
        "gpt-4o-mini": (0.67, 0.73),
    }),
}  # fmt: skip
DATA = os.environ.get("RATERLAB_ALTTEST_DATA")
needs_data = pytest.mark.skipif(
    not DATA,
    reason="set RATERLAB_ALTTEST_DATA to the data/ folder of github.com/nitaytech/AltTest "
    "(not bundled: it states no license)",
)


@needs_data
@pytest.mark.parametrize("dataset", list(PAPER))
def test_alt_test_reproduces_the_paper(dataset: str) -> None:
    scoring, epsilon, published = PAPER[dataset]
    folder = Path(DATA or "") / dataset
    humans = json.loads((folder / "human_annotations.json").read_text())
    for llm_name, llm in json.loads((folder / "llm_annotations.json").read_text()).items():
        matrix, raters, verdicts = _matrix(humans, llm)
        got = alt_test(matrix, raters, verdicts, scoring, epsilon=epsilon)
        assert (round(got.winning_rate, 2), round(got.advantage_probability, 2)) == published[
            llm_name
        ]


def _files(humans: dict, llms: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The authors' JSON as the two files ``raterlab calibrate`` reads."""
    human = pd.DataFrame(
        [(i, h, v) for h, given in humans.items() for i, v in given.items()],
        columns=["unit", "rater", "label"],
    )
    judge = pd.DataFrame(
        [(i, name, v) for name, given in llms.items() for i, v in given.items()],
        columns=["unit", "judge", "score"],
    )
    return human, judge


def _alt_rows(human: pd.DataFrame, judge: pd.DataFrame, categorical: bool, **options):
    long = calibrate_files(
        human, judge, units=["unit"], rater="rater", fields=["label"],
        categorical=["label"] if categorical else [],
        options=Options(resamples=0, levels=("item",), **options),
    )  # fmt: skip
    alt = long[long["statistic"].str.startswith("alt_")]
    return alt.pivot(index="judge", columns="statistic", values="estimate")


@needs_data
@pytest.mark.parametrize("dataset", list(PAPER))
def test_calibrate_defaults_reproduce_the_paper(dataset: str) -> None:
    """The 52 published rows through ``raterlab calibrate``'s defaults (2 humans per instance,
    as the authors' code): none differs, MT-Bench included."""
    scoring, epsilon, published = PAPER[dataset]
    folder = Path(DATA or "") / dataset
    human, judge = _files(
        json.loads((folder / "human_annotations.json").read_text()),
        json.loads((folder / "llm_annotations.json").read_text()),
    )
    alt = _alt_rows(human, judge, scoring == "accuracy", epsilon=epsilon)
    got = {
        name: (round(row["alt_winning_rate"], 2), round(row["alt_advantage_probability"], 2))
        for name, row in alt.iterrows()
    }
    assert got == published


def test_calibrate_tests_items_with_two_humans_by_default() -> None:
    """Two humans per item (MT-Bench's design) are enough for the authors' test; with
    ``min_alt_humans=3`` there is nothing to test."""
    rng = np.random.default_rng(7)
    truth = rng.integers(0, 2, size=120)
    flip = lambda p: np.where(rng.random(120) < p, 1 - truth, truth)  # noqa: E731
    humans = {"a": flip(0.1), "b": flip(0.1), "c": flip(0.1)}
    rated = {  # each item rated by two of the three, every annotator on 80 items
        "a": np.arange(120) % 3 != 0, "b": np.arange(120) % 3 != 1, "c": np.arange(120) % 3 != 2,
    }  # fmt: skip
    human = pd.DataFrame(
        [(f"i{i}", h, int(v[i])) for h, v in humans.items() for i in range(120) if rated[h][i]],
        columns=["unit", "rater", "label"],
    )
    judge = pd.DataFrame(
        [(f"i{i}", "llm", int(v)) for i, v in enumerate(flip(0.05))],
        columns=["unit", "judge", "score"],
    )
    alt = _alt_rows(human, judge, categorical=True)
    matrix = human.pivot(index="unit", columns="rater", values="label")
    verdicts = judge.set_index("unit").loc[matrix.index, "score"].to_numpy(float)
    expected = alt_test(matrix.to_numpy(float), list(matrix.columns), verdicts, "accuracy")
    assert alt.loc["llm", "alt_winning_rate"] == pytest.approx(expected.winning_rate)
    assert alt.loc["llm", "alt_advantage_probability"] == pytest.approx(
        expected.advantage_probability
    )
    assert _alt_rows(human, judge, categorical=True, min_alt_humans=3).empty


def test_whole_number_labels_match_however_the_file_typed_them() -> None:
    """A human column with a gap is float in pandas (``1.0``); the judge's ``1`` is the same
    label, not an invalid verdict."""
    human = pd.DataFrame(
        {"unit": ["u1", "u1", "u2", "u3", "u3"], "rater": ["a", "b", "a", "a", "b"],
         "label": [1, 1, 0, 1, None]}
    )  # fmt: skip
    judge = pd.DataFrame({"unit": ["u1", "u2", "u3"], "judge": "llm", "score": [1, 0, 1]})
    long = calibrate_files(
        human, judge, units=["unit"], rater="rater", fields=["label"], categorical=["label"],
        options=Options(resamples=0, levels=("item",)),
    )  # fmt: skip
    stats = long.set_index("statistic")["estimate"]
    assert stats["valid_rate"] == 1.0 and stats["accuracy"] == 1.0
