"""Dawid-Skene against a hand-checked EM step, and against majority vote on simulated raters."""

from __future__ import annotations

import doctest
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from raterlab.consensus import dawid_skene as ds_module
from raterlab.consensus.dawid_skene import count_tensor, dawid_skene, fit_counts, majority_init

# Four items, three raters, two classes:
#        A  B  C
#   i1   1  1  0
#   i2   0  0  0
#   i3   1  1  1
#   i4   0  0  1
ITEMS = ["i1", "i1", "i1", "i2", "i2", "i2", "i3", "i3", "i3", "i4", "i4", "i4"]
RATERS = ["A", "B", "C"] * 4
LABELS = [1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 1]


def test_one_em_step_by_hand() -> None:
    n, items, raters = count_tensor(ITEMS, RATERS, LABELS, classes=[0, 1])
    assert items == ["i1", "i2", "i3", "i4"] and raters == ["A", "B", "C"]
    # Start: the vote shares.
    np.testing.assert_allclose(majority_init(n), [[1 / 3, 2 / 3], [1, 0], [0, 1], [2 / 3, 1 / 3]])
    # M-step from the vote shares (alpha = 0): priors (1/2, 1/2); rater A's confusion rows
    # (5/6, 1/6) and (1/6, 5/6) (B's the same), C's (2/3, 1/3) and (1/3, 2/3).
    # E-step for i1: P(0) ~ 1/2 * 1/6 * 1/6 * 2/3 = 2/216, P(1) ~ 1/2 * 5/6 * 5/6 * 1/3 =
    # 25/216, so P(1 | i1) = 25/27. For i2 (0, 0, 0): 50/216 against 1/216, P(0 | i2) = 50/51.
    t, priors, confusion, iterations, _, _ = fit_counts(n, alpha=0.0, max_iter=1)
    assert iterations == 1
    np.testing.assert_allclose(t[0], [2 / 27, 25 / 27])
    np.testing.assert_allclose(t[1], [50 / 51, 1 / 51])
    # The final M-step is taken from those posteriors.
    assert priors.sum() == pytest.approx(1)
    np.testing.assert_allclose(confusion.sum(axis=2), np.ones((3, 2)))


def test_first_m_step_by_hand() -> None:
    n, _, _ = count_tensor(ITEMS, RATERS, LABELS, classes=[0, 1])
    priors, confusion = ds_module._m_step(n, majority_init(n), alpha=0.0)
    np.testing.assert_allclose(priors, [0.5, 0.5])
    np.testing.assert_allclose(confusion[0], [[5 / 6, 1 / 6], [1 / 6, 5 / 6]])
    np.testing.assert_allclose(confusion[1], confusion[0])
    np.testing.assert_allclose(confusion[2], [[2 / 3, 1 / 3], [1 / 3, 2 / 3]])


def test_converged_fit_and_labels() -> None:
    result = dawid_skene(ITEMS, RATERS, LABELS, classes=[0, 1])
    assert result.converged
    labels = result.labels().set_index("item")
    assert labels["value"].tolist() == [1, 0, 1, 0]
    assert (labels["confidence"] > 0.5).all()
    # C disagrees with A and B on two items of four: the model trusts C less.
    a, c = result.confusion_frame("A").to_numpy(), result.confusion_frame("C").to_numpy()
    assert np.trace(c) < np.trace(a)


def test_labels_outside_the_classes_are_ignored() -> None:
    result = dawid_skene(["x", "x", "y"], [1, 2, 1], ["a", "skip", "b"], classes=["a", "b"])
    assert result.items == ["x", "y"]
    empty = dawid_skene([], [], [], classes=[0, 1])
    assert empty.labels().empty


def test_docstring_example() -> None:
    failures, _ = doctest.testmod(ds_module)
    assert failures == 0


def _simulate(rng: np.random.Generator, n_items: int, raters: dict[str, tuple[float, float]]):
    """Binary truth, and each rater's label: 1 with probability ``p0`` on a true 0 and ``p1``
    on a true 1."""
    truth = rng.integers(0, 2, n_items)
    rows = []
    for item, value in enumerate(truth):
        for rater, (p0, p1) in raters.items():
            rows.append((item, rater, int(rng.random() < (p1 if value else p0))))
    return truth, pd.DataFrame(rows, columns=["item", "rater", "label"])


def _accuracies(truth, frame) -> tuple[float, float, object]:
    fit = dawid_skene(frame["item"], frame["rater"], frame["label"], classes=[0, 1])
    ds = fit.labels().set_index("item")["value"].to_numpy()
    majority = (frame.groupby("item")["label"].mean().to_numpy() > 0.5).astype(int)
    return float((ds == truth).mean()), float((majority == truth).mean()), fit


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_beats_or_matches_majority_vote_with_a_bad_rater(seed: int) -> None:
    """Four decent raters and one who mostly gets it backwards: majority vote counts the bad
    rater's vote like any other; Dawid-Skene learns its confusion matrix and reads it."""
    raters = {
        "g1": (0.1, 0.9),
        "g2": (0.15, 0.85),
        "g3": (0.2, 0.8),
        "g4": (0.2, 0.8),
        "bad": (0.7, 0.3),
    }
    truth, frame = _simulate(np.random.default_rng(seed), 300, raters)
    ds, majority, fit = _accuracies(truth, frame)
    assert ds >= majority
    bad = fit.confusion_frame("bad").to_numpy()
    assert bad[0, 1] > 0.55 and bad[1, 0] > 0.55  # recovered as mostly backwards


def test_beats_majority_vote_when_most_raters_are_poor() -> None:
    raters = {
        "good1": (0.05, 0.95),
        "good2": (0.05, 0.95),
        "poor1": (0.4, 0.6),
        "poor2": (0.4, 0.6),
        "poor3": (0.4, 0.6),
    }
    truth, frame = _simulate(np.random.default_rng(7), 400, raters)
    ds, majority, _ = _accuracies(truth, frame)
    assert ds > majority + 0.03


def test_a_near_random_rater_is_recognised() -> None:
    raters = {"good1": (0.1, 0.9), "good2": (0.15, 0.85), "bad": (0.45, 0.55)}
    truth, frame = _simulate(np.random.default_rng(5), 300, raters)
    _, _, fit = _accuracies(truth, frame)
    bad = np.diag(fit.confusion_frame("bad").to_numpy()).mean()
    good = np.diag(fit.confusion_frame("good1").to_numpy()).mean()
    assert bad < 0.65 and good > 0.8


DIALSUMMEVAL = (
    Path(__file__).resolve().parents[3] / "shared/realdata/dialsummeval/human_judgment.jsonl"
)


@pytest.mark.skipif(not DIALSUMMEVAL.is_file(), reason="needs ../shared/realdata")
@pytest.mark.parametrize(
    ("field", "overridden"),
    [("coherence", 0), ("consistency", 40), ("fluency", 11), ("relevance", 3)],
)
def test_converges_on_dialsummeval_by_default(field: str, overridden: int) -> None:
    """With 200 iterations three of the four fields stopped unconverged; the default runs EM
    to convergence. The converged model still gives unanimous items a value no rater gave
    (40 of 170 on consistency): why consensus keeps unanimity unless a study declares
    otherwise."""
    data = pd.read_json(DIALSUMMEVAL, lines=True, dtype={"id": str})
    rows = pd.DataFrame(
        [
            (f"{s.id}/{s.model_id}", rater, a[field])
            for s in data.itertuples()
            for rater, a in enumerate(s.annotations)
        ],
        columns=["item", "rater", "value"],
    )
    fit = dawid_skene(rows["item"], rows["rater"], rows["value"], classes=[1, 2, 3, 4, 5])
    assert fit.converged and fit.iterations < 1000
    unanimous = rows.groupby("item")["value"].agg(lambda v: v.iloc[0] if v.nunique() == 1 else None)
    unanimous = unanimous.dropna()
    labels = fit.labels().set_index("item")["value"]
    assert int((labels.loc[unanimous.index] != unanimous).sum()) == overridden
