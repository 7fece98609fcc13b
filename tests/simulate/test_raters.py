"""Rater profiles: later stages must be able to recover what each profile planted."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from raterlab.simulate import profile_names, simulate
from raterlab.simulate.profiles import FAILING
from tests.simulate.conftest import read_returns


@pytest.fixture(scope="module")
def returns(big_outbox):
    study, home, key, _ = big_outbox
    summary = simulate(study, home)
    frame = read_returns(home, study, key)
    frame = frame[frame["item_id"].notna()]  # a planted altered token matches no key row
    frame["profile"] = frame["annotator_id"].map(summary.profiles)
    return study, frame, summary


def _scores(frame: pd.DataFrame) -> pd.DataFrame:
    answers = frame[(frame["task"] == "answer") & frame["score"].str.fullmatch(r"\d(\.0)?")]
    return answers.assign(score=answers["score"].astype(float).astype(int))


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (1, ["good"]),
        (2, ["good", "good"]),
        (3, ["good", "good", "lenient"]),
        (4, ["good", "good", "lenient", "rushed"]),
        (5, ["good", "good", "lenient", "rushed", "inconsistent"]),
        (6, ["good", "good", "lenient", "rushed", "inconsistent", "severe"]),
        (9, ["good"] * 5 + ["lenient", "rushed", "inconsistent", "severe"]),
    ],
)
def test_profile_rule(n: int, expected: list[str]) -> None:
    names = profile_names(n)
    assert names == expected
    assert sum(p in FAILING for p in names) <= n / 2


def test_lenient_rates_higher_than_the_others_on_shared_items(returns) -> None:
    _, frame, _ = returns
    scores = _scores(frame[frame["kind"] == "item"])
    lenient = scores[scores["profile"] == "lenient"]
    shared = scores[scores["item_id"].isin(lenient["item_id"]) & (scores["profile"] != "lenient")]
    gap = lenient["score"].mean() - shared["score"].mean()
    assert gap > 0.25, gap
    checks = frame[(frame["task"] == "check") & (frame["kind"] == "item")]
    ones = checks.groupby("profile")["relevant"].apply(lambda s: (s.str[0] == "1").mean())
    assert ones["lenient"] > ones.drop("lenient").max()


def test_rushed_is_fast_and_fails_attention_checks(returns) -> None:
    study, frame, summary = returns
    floor = study.design.time_floor_s
    times = frame["time_spent_s"].astype(float)
    rushed = frame["profile"] == "rushed"
    assert (times[rushed] < floor).all()
    assert (times[~rushed] >= floor).all()
    files = summary.written
    attention = (
        files[files["n_attention"] > 0]
        .groupby("profile")[["n_attention", "n_attention_failed"]]
        .sum()
    )
    assert (
        attention.loc["rushed", "n_attention_failed"] >= attention.loc["rushed", "n_attention"] / 2
    )
    assert attention.drop("rushed")["n_attention_failed"].sum() == 0
    # and the files show it: the attention items' known answer is score 1
    checks = _scores(frame[frame["kind"] == "attention"])
    passed = (checks["score"] == 1).groupby(checks["profile"]).mean()
    assert passed["rushed"] < 0.5 and passed.drop("rushed").min() == 1.0


def test_inconsistent_duplicates_differ_more_than_the_good_raters(returns) -> None:
    _, frame, _ = returns
    scores = _scores(frame[frame["kind"].isin(["item", "duplicate"])])
    dups = scores[scores["item_id"].isin(scores.loc[scores["kind"] == "duplicate", "item_id"])]
    pairs = dups.pivot_table(
        index=["annotator_id", "batch", "item_id"], columns="copy", values="score"
    ).dropna()
    gap = (pairs[1] - pairs[0]).abs().groupby(level="annotator_id").mean()
    profiles = frame.drop_duplicates("annotator_id").set_index("annotator_id")["profile"]
    by_profile = gap.groupby(profiles).mean()
    assert by_profile["inconsistent"] >= 2
    assert by_profile["good"] < 0.8
    flips = (
        frame[frame["task"] == "check"]
        .pivot_table(
            index=["annotator_id", "batch", "item_id"],
            columns="copy",
            values="relevant",
            aggfunc="first",
        )
        .dropna()
    )
    changed = (flips[0] != flips[1]).groupby(level="annotator_id").mean().groupby(profiles).mean()
    assert changed["inconsistent"] > changed["good"]


def test_agreement_is_plausible(returns) -> None:
    """Good raters agree with each other far better than chance, not perfectly."""
    _, frame, _ = returns
    scores = _scores(frame[(frame["kind"] == "item") & (frame["round"] == "pilot")])
    wide = scores.pivot_table(index="item_id", columns="profile", values="score").dropna()
    r = np.corrcoef(wide["good"], wide["inconsistent"])[0, 1]
    exact = (wide["good"] == wide["inconsistent"]).mean()
    assert 0.6 < r < 0.98 and exact < 0.95
