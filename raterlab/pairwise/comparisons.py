"""The rows of ``gold.pairwise_comparisons`` the statistics read: checked, counted ones only,
each with its outcome in the pair's canonical orientation; and their counts per pair."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from raterlab.pairwise.bradley_terry import PairCounts

REQUIRED = (
    "task",
    "field",
    "item_id",
    "prompt_id",
    "annotator_id",
    "system_a",
    "system_b",
    "choice",
    "winner",
)
CHOICES = ("left", "right", "tie")
TIE = "tie"
OUTCOMES = ("a", "b", TIE)
"""The canonical 3-way choice: ``system_a`` preferred, ``system_b`` preferred, a tie."""


def _bad_row(frame: pd.DataFrame, bad: pd.Series, column: str, rule: str) -> ValueError:
    row = frame.index[bad.to_numpy()][0]
    value = frame.at[row, column]
    return ValueError(
        f"gold.pairwise_comparisons row {row} (item {frame.at[row, 'item_id']!r}, annotator "
        f"{frame.at[row, 'annotator_id']!r}), column {column!r}: {rule}; got {value!r}"
    )


def counted_comparisons(frame: pd.DataFrame) -> pd.DataFrame:
    """The counted comparisons of ``frame`` (rows with ``counted`` false are left out when
    that column exists; a row without a ``winner`` is no comparison) with an ``outcome``
    column: ``a`` (``winner`` is ``system_a``), ``b`` or ``tie``.

    Raises ``ValueError`` naming the row, column, rule and value when a required column is
    missing, a ``winner`` is neither of the pair's systems nor ``tie``, a pair compares a
    system with itself, or a ``choice`` is not ``left``/``right``/``tie``.
    """
    missing = [c for c in REQUIRED if c not in frame.columns]
    if missing:
        raise ValueError(f"gold.pairwise_comparisons lacks the columns {missing}")
    rows = frame[frame["counted"].fillna(False).astype(bool)] if "counted" in frame else frame
    rows = rows[rows["winner"].notna()]
    same = rows["system_a"] == rows["system_b"]
    if same.any():
        raise _bad_row(rows, same, "system_b", "a pair compares two different systems")
    bad_choice = ~rows["choice"].isin(CHOICES)
    if bad_choice.any():
        raise _bad_row(rows, bad_choice, "choice", f"must be one of {CHOICES}")
    outcome = pd.Series(
        np.select(
            [rows["winner"] == rows["system_a"], rows["winner"] == rows["system_b"]],
            ["a", "b"],
            default=TIE,
        ),
        index=rows.index,
    )
    bad_winner = (outcome == TIE) & (rows["winner"] != TIE)
    if bad_winner.any():
        raise _bad_row(rows, bad_winner, "winner", "must be system_a, system_b or 'tie'")
    return rows.assign(outcome=outcome)


def systems_of(rows: pd.DataFrame) -> tuple[str, ...]:
    """Every system of the comparisons, sorted."""
    return tuple(sorted(set(rows["system_a"]) | set(rows["system_b"])))


def prompt_counts(rows: pd.DataFrame, systems: Sequence[str]) -> tuple[PairCounts, np.ndarray]:
    """The pairs of ``systems`` that ``rows`` (with ``outcome``) compare, and their outcome
    counts per prompt: an array ``(prompts, pairs, 3)`` of wins of the pair's first system
    (in ``systems``' order), wins of its second, ties. The :class:`PairCounts` hold the
    totals over prompts."""
    index = {s: k for k, s in enumerate(systems)}
    a = rows["system_a"].map(index).to_numpy()
    b = rows["system_b"].map(index).to_numpy()
    first, second = np.minimum(a, b), np.maximum(a, b)
    pair_keys, pair = np.unique(np.c_[first, second], axis=0, return_inverse=True)
    pair = pair.reshape(-1)
    _, prompt = np.unique(rows["prompt_id"].astype(str).to_numpy(), return_inverse=True)
    outcome = rows["outcome"].to_numpy()
    a_first = a == first
    slot = np.where(outcome == TIE, 2, np.where((outcome == "a") == a_first, 0, 1))
    per_prompt = np.zeros((prompt.max() + 1 if len(prompt) else 0, len(pair_keys), 3))
    np.add.at(per_prompt, (prompt.reshape(-1), pair, slot), 1.0)
    total = per_prompt.sum(axis=0)
    keys = pair_keys.reshape(-1, 2)
    counts = PairCounts(
        tuple(systems), keys[:, 0], keys[:, 1], total[:, 0], total[:, 1], total[:, 2]
    )
    return counts, per_prompt
