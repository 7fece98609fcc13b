r"""A judge's verdicts on a pairwise field against the humans' winners, and its position
checks.

Stored verdicts on a pairwise field (:mod:`raterlab.judges.verdicts`) hold the canonical
choice (``a``: the pair's alphabetically first system, ``b``, ``tie``; ``much_a`` and
``much_b`` count as ``a`` and ``b``) and the order the judge saw (``left_system``,
``right_system``). :func:`swap_frame` turns them into the frame of
:func:`raterlab.judges.robustness.position_swap_checks`, the one home of the position-swap
consistency and the left share. :func:`winner_agreement` compares the verdicts with the
humans' consensus winner of each pair: the percent agreement and Cohen's kappa on ``a`` /
``b`` / ``tie`` over every verdict (both orders, when the judge saw both), with a percentile
bootstrap interval that resamples pairs, each pair's verdicts coming along (the two orders
of a pair are not independent).

.. math:: \kappa = \frac{p_o - p_e}{1 - p_e},\qquad
   p_o = \sum_k \frac{n_{kk}}{n},\quad p_e = \sum_k \frac{n_{k\cdot}\, n_{\cdot k}}{n^2}

with :math:`n_{jk}` the verdicts of outcome ``j`` on pairs whose human winner is ``k``.

References
----------
Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
Psychological Measurement, 20, 37-46.
Davison, A. C. & Hinkley, D. V. (1997). Bootstrap Methods and their Application. CUP
(resampling clusters, sec. 3.8).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

OUTCOMES = ("a", "b", "tie")
"""The canonical 3-way choice: ``system_a`` preferred, ``system_b`` preferred, a tie."""
_OUTCOME = {"a": "a", "b": "b", "tie": "tie", "much_a": "a", "much_b": "b"}
AGREEMENT_KEYS = ("n_pairs", "n_verdicts", "percent_agreement", "kappa", "kappa_low", "kappa_high")


def outcomes(values: pd.Series) -> pd.Series:
    """Canonical pairwise values as ``a`` / ``b`` / ``tie`` (a strong preference is a
    preference); anything else, NULL included, as NaN."""
    return values.map(_OUTCOME)


def swap_frame(verdicts: pd.DataFrame) -> pd.DataFrame:
    """Stored pairwise verdicts (``item_id, judge, value, run, left_system, right_system``;
    unreadable ones, without a ``value``, left out) as the frame of
    :func:`raterlab.judges.robustness.position_swap_checks`: ``winner`` the preferred system
    or ``tie``."""
    rows = verdicts[verdicts["left_system"].notna()].assign(outcome=outcomes(verdicts["value"]))
    rows = rows[rows["outcome"].notna()]
    first = np.minimum(rows["left_system"], rows["right_system"])
    second = np.maximum(rows["left_system"], rows["right_system"])
    winner = np.select([rows["outcome"] == "a", rows["outcome"] == "b"], [first, second], "tie")
    columns = ["item_id", "judge", "left_system", "right_system", "run"]
    return rows[columns].assign(winner=winner)


def _kappas(confusion: np.ndarray) -> np.ndarray:
    """Cohen's kappa of each 3 x 3 table of ``confusion`` (shape ``(..., 3, 3)``); NaN where
    the chance agreement is 1."""
    n = confusion.sum(axis=(-2, -1))
    observed = np.trace(confusion, axis1=-2, axis2=-1) / n
    chance = (confusion.sum(axis=-1) * confusion.sum(axis=-2)).sum(axis=-1) / n**2
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(chance < 1, (observed - chance) / (1 - chance), np.nan)


BLOCK_CELLS = 1 << 20
"""Pairs drawn at once by :func:`_resampled_tables` (resamples x pairs)."""


def _resampled_tables(confusion: np.ndarray, resamples: int, seed: int) -> np.ndarray:
    """The summed 3 x 3 table of each of ``resamples`` resamples of the pairs (``confusion``:
    one table per pair), drawn from ``seed`` a block of resamples at a time in the generator's
    order: the draws, and the tables, of one draw of every resample (tested), holding a
    block's indices and counts instead of 16 bytes per pair and resample."""
    n_pairs = len(confusion)
    rng = np.random.default_rng(seed)
    out = np.empty((resamples, *confusion.shape[1:]))
    rows = max(1, BLOCK_CELLS // n_pairs)
    for start in range(0, resamples, rows):
        drawn = rng.integers(0, n_pairs, size=(min(rows, resamples - start), n_pairs))
        weights = np.stack([np.bincount(row, minlength=n_pairs) for row in drawn])
        out[start : start + len(drawn)] = np.einsum("rp,pjk->rjk", weights, confusion)
    return out


def winner_agreement(
    judged: pd.DataFrame,
    resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> dict[str, float | int]:
    """Agreement of a judge's verdicts with the human winners (see the module docstring).

    ``judged``: one row per verdict, columns ``item_id``, ``outcome`` (the judge's) and
    ``human`` (the pair's consensus outcome), both in :data:`OUTCOMES`. Returns
    :data:`AGREEMENT_KEYS`: pairs, verdicts, the share of verdicts equal to the human winner,
    kappa and its percentile interval over ``resamples`` resamples of the pairs."""
    index = {o: k for k, o in enumerate(OUTCOMES)}
    _, pair = np.unique(judged["item_id"].astype(str).to_numpy(), return_inverse=True)
    n_pairs = int(pair.max()) + 1 if len(pair) else 0
    confusion = np.zeros((n_pairs, 3, 3))
    mine = judged["outcome"].map(index).to_numpy(dtype=int)
    human = judged["human"].map(index).to_numpy(dtype=int)
    np.add.at(confusion, (pair.reshape(-1), mine, human), 1.0)
    total = confusion.sum(axis=0)
    kappa = float(_kappas(total)) if n_pairs else float("nan")
    low = high = float("nan")
    if n_pairs > 1 and resamples > 0:
        boot = _kappas(_resampled_tables(confusion, resamples, seed))
        boot = boot[np.isfinite(boot)]
        if boot.size:
            tail = (1 - confidence) / 2 * 100
            low, high = (float(x) for x in np.percentile(boot, [tail, 100 - tail]))
    return {
        "n_pairs": n_pairs,
        "n_verdicts": len(judged),
        "percent_agreement": float(np.trace(total) / len(judged)) if len(judged) else np.nan,
        "kappa": kappa,
        "kappa_low": low,
        "kappa_high": high,
    }
