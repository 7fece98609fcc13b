"""One ranking: strengths with bootstrap intervals over prompts, rank intervals, win rates.

The model is Davidson's when the comparisons hold a tie, else Bradley-Terry's
(:mod:`raterlab.pairwise.bradley_terry`). The bootstrap resamples prompts (clusters: every
comparison of a drawn prompt comes with it, as often as it is drawn), refits the model on
each resample, centres its log-strengths at mean 0, and takes percentile intervals of each
system's strength and of its rank (1 = strongest) over the resamples (Efron & Tibshirani
1993, ch. 13; resampling clusters: Davison & Hinkley 1997, section 3.8).

When the maximum-likelihood strengths do not exist (a system that never loses or never
wins, a comparison graph in pieces) on the data or on a resample, that fit uses the ridge
:data:`RIDGE` (a normal prior with standard deviation ``1/sqrt(RIDGE)`` ~ 3.2 on each
log-strength); the table's ``ridge`` column says when the estimate itself needed it.

References
----------
Efron, B., & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.
Davison, A. C., & Hinkley, D. V. (1997). Bootstrap Methods and their Application. CUP.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import rankdata

from raterlab.pairwise.bradley_terry import (
    BRADLEY_TERRY,
    DAVIDSON,
    Fit,
    PairCounts,
    RankingUndefined,
    fit_pairs,
)
from raterlab.pairwise.comparisons import TIE, prompt_counts, systems_of

RIDGE = 0.1
N_RESAMPLES = 1000
CONFIDENCE = 0.95


def fit_with_fallback(counts: PairCounts, model: str, ridge: float = 0.0) -> Fit:
    """The fit with ``ridge``, or with :data:`RIDGE` when its maximum does not exist."""
    try:
        return fit_pairs(counts, model, ridge)
    except RankingUndefined:
        if ridge >= RIDGE:
            raise
        return fit_pairs(counts, model, RIDGE)


def bootstrap_strengths(
    counts: PairCounts,
    per_prompt: np.ndarray,
    model: str,
    ridge: float,
    n_resamples: int,
    seed: int,
) -> np.ndarray:
    """Strengths ``(n_resamples, systems)`` refitted on prompts drawn with replacement
    (a row of NaN where even the ridge leaves them undefined: every comparison a tie)."""
    rng = np.random.default_rng(seed)
    n_prompts = per_prompt.shape[0]
    draws = rng.multinomial(n_prompts, np.full(n_prompts, 1 / n_prompts), size=n_resamples)
    out = np.full((n_resamples, len(counts.systems)), np.nan)
    for b, weights in enumerate(draws):
        resample = counts.with_counts(np.tensordot(weights, per_prompt, axes=1))
        try:
            out[b] = fit_with_fallback(resample, model, ridge).strength
        except RankingUndefined:
            continue
    return out


def _ranks(strength: np.ndarray) -> np.ndarray:
    """Rank 1 = strongest; equal strengths share the best of their ranks."""
    return rankdata(-strength, method="min", axis=-1).astype(int)


def _intervals(replicates: np.ndarray, confidence: float) -> dict[str, np.ndarray]:
    """Percentile intervals of the strengths and of the ranks over ``replicates`` (none,
    NaN, when no resample could be fitted)."""
    if not len(replicates):
        return dict.fromkeys(("ci_low", "ci_high", "rank_low", "rank_high"), np.nan)
    tail = (1 - confidence) / 2
    ranks = _ranks(replicates)
    return {
        "ci_low": np.quantile(replicates, tail, axis=0),
        "ci_high": np.quantile(replicates, 1 - tail, axis=0),
        "rank_low": np.quantile(ranks, tail, axis=0, method="lower").astype(int),
        "rank_high": np.quantile(ranks, 1 - tail, axis=0, method="higher").astype(int),
    }


def win_counts(rows: pd.DataFrame, systems: tuple[str, ...]) -> pd.DataFrame:
    """Per system: ``wins``, ``losses``, ``ties``, ``n_comparisons``, ``n_prompts`` and
    ``win_rate`` = (wins + ties / 2) / n_comparisons (a tie is half a win)."""
    records = []
    for system in systems:
        own = rows[(rows["system_a"] == system) | (rows["system_b"] == system)]
        wins = int((own["winner"] == system).sum())
        ties = int((own["outcome"] == TIE).sum())
        n = len(own)
        records.append(
            {
                "system": system,
                "wins": wins,
                "losses": n - wins - ties,
                "ties": ties,
                "n_comparisons": n,
                "n_prompts": own["prompt_id"].nunique(),
                "win_rate": (wins + ties / 2) / n if n else np.nan,
            }
        )
    return pd.DataFrame(records)


def ranking(
    rows: pd.DataFrame,
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
    seed: int = 0,
) -> pd.DataFrame:
    """One row per system of ``rows`` (counted comparisons with ``outcome``, see
    :func:`raterlab.pairwise.comparisons.counted_comparisons`): ``model``, ``strength`` (log
    pi, mean 0), its percentile bootstrap interval ``ci_low``/``ci_high`` over prompts,
    ``rank`` and its interval ``rank_low``/``rank_high`` (percentiles of the resamples'
    ranks, rounded outward), ``tie_parameter`` (nu), ``ridge``, the counts of
    :func:`win_counts`, ``n_resamples`` and a ``note`` when the strengths are undefined."""
    systems = systems_of(rows)
    counts, per_prompt = prompt_counts(rows, systems)
    model = DAVIDSON if (rows["outcome"] == TIE).any() else BRADLEY_TERRY
    table = win_counts(rows, systems).assign(model=model, n_resamples=n_resamples, note="")
    try:
        fit = fit_with_fallback(counts, model)
    except RankingUndefined as error:
        undefined = ("strength", "rank", "tie_parameter", "ridge")
        return table.assign(
            note=str(error), **dict.fromkeys(undefined, np.nan), **_intervals(np.empty((0,)), 0)
        )
    replicates = bootstrap_strengths(counts, per_prompt, model, fit.ridge, n_resamples, seed)
    table = table.assign(
        strength=fit.strength,
        rank=_ranks(fit.strength),
        tie_parameter=fit.tie_parameter,
        ridge=fit.ridge,
        **_intervals(replicates[~np.isnan(replicates).any(axis=1)], confidence),
    )
    if fit.ridge:
        return table.assign(note=f"strengths with ridge {fit.ridge}: no maximum-likelihood fit")
    return table
