"""Rank correlations between two raters' scores (e.g. an LLM judge against a human)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from raterlab.agreement._matrix import AgreementUndefined, natural_key
from raterlab.agreement._stats import CHUNK_CELLS, AgreementResult, finite

__all__ = ["SpearmanStatistic", "kendall_tau", "spearman_rho", "spearman_statistic"]


def _scores(values: object, name: str) -> np.ndarray:
    """Numeric scores of a 1-D array-like (numbers or numeric-looking strings), NaN missing."""
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError(f"{name}: x and y must be 1-D; got shape {array.shape}")
    if array.dtype.kind in "biuf":
        return array.astype(float)
    array = array.astype(object)
    missing = pd.isna(array) | (array == "")
    keys = [natural_key(value) for value in array[~missing]]
    text = [value for kind, value in keys if kind == 1]
    if text:
        raise ValueError(f"{name} needs numeric scores; got labels such as {text[0]!r}")
    scores = np.full(array.size, np.nan)
    scores[~missing] = [value for _, value in keys]
    return scores


def _paired_scores(x: object, y: object, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Scores of the pairs where both x and y are present."""
    xs, ys = _scores(x, name), _scores(y, name)
    if xs.size != ys.size:
        raise ValueError(f"{name}: x and y differ in length ({xs.size} and {ys.size})")
    both = ~(np.isnan(xs) | np.isnan(ys))
    xs, ys = xs[both], ys[both]
    if xs.size < 2:
        raise AgreementUndefined(f"{name} needs at least two complete pairs; got {xs.size}.")
    for label, values in (("x", xs), ("y", ys)):
        if np.ptp(values) == 0:
            raise AgreementUndefined(
                f"{name} is undefined: every {label} value of the complete pairs is equal."
            )
    return xs, ys


def _weighted_ranks(values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Average ranks of each unit in resamples where unit i appears ``counts[:, i]`` times."""
    order = np.argsort(values, kind="stable")
    sorted_values = values[order]
    starts = np.flatnonzero(np.r_[True, sorted_values[1:] != sorted_values[:-1]])
    group = np.cumsum(np.r_[True, sorted_values[1:] != sorted_values[:-1]]) - 1
    in_group = np.add.reduceat(counts[:, order], starts, axis=1)
    group_rank = np.cumsum(in_group, axis=1) - in_group + (in_group + 1) / 2
    ranks = np.empty_like(counts)
    ranks[:, order] = group_rank[:, group]
    return ranks


def spearman_rho(x: object, y: object) -> AgreementResult:
    r"""Spearman's rank correlation between paired scores.

    .. math:: \rho = \operatorname{corr}(\operatorname{rank}(x), \operatorname{rank}(y))

    the Pearson correlation of the ranks, ties getting their average rank (scipy's
    ``spearmanr``). Values may be numbers or numeric-looking strings; pairs with a missing
    side are dropped. Raises :class:`AgreementUndefined` with fewer than two pairs or a
    constant side.

    References
    ----------
    Spearman, C. (1904). The proof and measurement of association between two things.
    American Journal of Psychology, 15, 72-101.
    """
    xs, ys = _paired_scores(x, y, "Spearman's rho")
    ones = np.ones((1, xs.size))
    rho = np.corrcoef(_weighted_ranks(xs, ones)[0], _weighted_ranks(ys, ones)[0])[0, 1]
    return AgreementResult("spearman_rho", float(rho), xs.size, 2)


def kendall_tau(x: object, y: object) -> AgreementResult:
    r"""Kendall's tau-b between paired scores.

    .. math:: \tau_b = \frac{n_c - n_d}{\sqrt{(n_0 - n_x)(n_0 - n_y)}}

    with ``n_c``/``n_d`` concordant/discordant pairs, ``n_0 = n(n-1)/2`` and ``n_x``, ``n_y``
    the pairs tied in x, in y (scipy's ``kendalltau``). Missing pairs are dropped as in
    :func:`spearman_rho`.

    References
    ----------
    Kendall, M. G. (1945). The treatment of ties in ranking problems. Biometrika, 33, 239-251.
    """
    from scipy.stats import kendalltau  # scipy.stats takes a second to import: only here

    xs, ys = _paired_scores(x, y, "Kendall's tau")
    return AgreementResult("kendall_tau", float(kendalltau(xs, ys).statistic), xs.size, 2)


@dataclass(frozen=True)
class SpearmanStatistic:
    """Spearman's rho under resampling of units, with ranks recomputed per resample.

    ``x`` and ``y`` hold every unit with a score; only complete pairs (``valid``) count.
    """

    x: np.ndarray
    y: np.ndarray
    valid: np.ndarray

    @property
    def n_units(self) -> int:
        return self.x.size

    def estimate(self) -> float:
        return finite(float(self.resampled(np.ones((1, self.n_units)))[0]))

    def resampled(self, counts: np.ndarray) -> np.ndarray:
        counts = counts * self.valid
        rx, ry = _weighted_ranks(self.x, counts), _weighted_ranks(self.y, counts)
        total = counts.sum(axis=1, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            dx = rx - (counts * rx).sum(axis=1, keepdims=True) / total
            dy = ry - (counts * ry).sum(axis=1, keepdims=True) / total
            rho = (counts * dx * dy).sum(axis=1) / np.sqrt(
                (counts * dx**2).sum(axis=1) * (counts * dy**2).sum(axis=1)
            )
        return np.where(np.isfinite(rho), rho, np.nan)

    def jackknife(self) -> np.ndarray:
        n = self.n_units
        step = max(1, CHUNK_CELLS // n)
        out = np.empty(n)
        for start in range(0, n, step):
            counts = np.ones((min(step, n - start), n))
            counts[np.arange(counts.shape[0]), np.arange(start, start + counts.shape[0])] = 0
            out[start : start + counts.shape[0]] = self.resampled(counts)
        return out


def spearman_statistic(ratings: object) -> SpearmanStatistic:
    """Resampling form of :func:`spearman_rho` for a two-column ``ratings`` matrix (x, y).

    The units are the rows with at least one score, as for the other coefficients.
    """
    matrix = np.asarray(ratings, dtype=object)
    if matrix.ndim != 2 or matrix.shape[1] != 2:
        raise ValueError(f"spearman_rho needs a two-column matrix (x, y); got {matrix.shape}")
    x, y = _scores(matrix[:, 0], "Spearman's rho"), _scores(matrix[:, 1], "Spearman's rho")
    _paired_scores(x, y, "Spearman's rho")  # raises if rho is undefined
    rated = ~(np.isnan(x) & np.isnan(y))
    x, y = x[rated], y[rated]
    return SpearmanStatistic(x, y, ~(np.isnan(x) | np.isnan(y)))
