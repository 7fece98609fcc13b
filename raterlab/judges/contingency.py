"""Pearson, Spearman and Kendall's tau-b, and Cohen's kappa, from contingency tables.

Every statistic here is computed from a table ``T[b, k, l]``: in resample ``b``, how many
units have the ``k``-th distinct x value and the ``l``-th distinct y value. A bootstrap
resample is a count vector over units (how often each unit was drawn, see
:func:`raterlab.agreement.bootstrap.resample_counts`), so its table is ``C @ E`` with ``E`` the
units x cells one-hot matrix: one sparse product per pair and chunk of resamples, after which
all three correlations cost ``O(cells)`` per resample instead of ``O(n log n)`` or ``O(n^2)``.
The results equal scipy's ``pearsonr``, ``spearmanr`` and ``kendalltau`` (tau-b) on the
repeated data ``x[idx], y[idx]`` exactly, ties included: two units whose values lie within
:data:`TIE_TOLERANCE` fall in the same level, so equal aggregates always get the same rank.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import sparse

TIE_TOLERANCE = 1e-9
"""Values this close (after sorting, each to the previous one) are one level: a tie."""

MAX_CELLS = 250_000
"""Above this many cells (x levels times y levels) a pair is not tabulated."""

CHUNK_CELLS = 4_000_000
"""Cells of table held in memory at once (resamples x cells)."""

CORRELATIONS = ("pearson", "spearman", "kendall")


def levels(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(codes, level_values)``: the level index of each value, ties merged.

    Values are sorted; a value within :data:`TIE_TOLERANCE` of the previous one joins its
    level, whose value is the level's first (smallest) value.
    """
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        return np.empty(0, dtype=np.int64), values
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    new = np.r_[True, np.diff(ordered) > TIE_TOLERANCE]
    codes = np.empty(values.size, dtype=np.int64)
    codes[order] = np.cumsum(new) - 1
    return codes, ordered[new]


def snap(values: np.ndarray) -> np.ndarray:
    """``values`` (along the last axis) with each tie group set to one value (its smallest)."""
    values = np.asarray(values, dtype=float)
    order = np.argsort(values, axis=-1, kind="stable")
    ordered = np.take_along_axis(values, order, axis=-1)
    first = np.ones(ordered.shape, dtype=bool)
    first[..., 1:] = np.diff(ordered, axis=-1) > TIE_TOLERANCE
    position = np.where(first, np.arange(ordered.shape[-1]), 0)
    lead = np.take_along_axis(ordered, np.maximum.accumulate(position, axis=-1), axis=-1)
    out = np.empty_like(values)
    np.put_along_axis(out, order, lead, axis=-1)
    return out


def _weighted_pearson(
    table: np.ndarray, xv: np.ndarray, yv: np.ndarray, n: np.ndarray
) -> np.ndarray:
    """Pearson's r of a table whose x levels have values ``xv`` and y levels ``yv``.

    ``xv``/``yv`` are 1-D (shared) or ``(B, K)`` (per resample, e.g. mid-ranks).
    """
    rx, ry = table.sum(axis=2), table.sum(axis=1)
    xv = np.broadcast_to(xv, rx.shape)
    yv = np.broadcast_to(yv, ry.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        mx = (rx * xv).sum(axis=1) / n
        my = (ry * yv).sum(axis=1) / n
        dx, dy = xv - mx[:, None], yv - my[:, None]
        sxy = np.einsum("bkl,bk,bl->b", table, dx, dy)
        r = sxy / np.sqrt((rx * dx**2).sum(axis=1) * (ry * dy**2).sum(axis=1))
    return np.where(np.isfinite(r), np.clip(r, -1, 1), np.nan)


def _midranks(margin: np.ndarray) -> np.ndarray:
    """Average rank of each level given its count per resample (ties share their mid-rank)."""
    return np.cumsum(margin, axis=1) - margin + (margin + 1) / 2


def _kendall_tau_b(table: np.ndarray, n: np.ndarray) -> np.ndarray:
    r"""Kendall's tau-b of each table.

    .. math:: \tau_b = \frac{P - Q}{\sqrt{(n_0 - n_x)(n_0 - n_y)}}

    ``P`` (``Q``): pairs of units ordered the same (the opposite) way in x and y; ``n_0 =
    n(n-1)/2``; ``n_x``, ``n_y`` the pairs tied in x, in y (Kendall 1945). With ``S[k, l]``
    the units of rows before ``k`` in column ``l``, a cell ``(k, l)`` meets ``sum_{l' < l}
    S[k, l']`` concordant and ``sum_{l' > l} S[k, l']`` discordant earlier units.
    """
    before = np.cumsum(table, axis=1) - table
    lower = np.cumsum(before, axis=2) - before
    upper = before.sum(axis=2, keepdims=True) - lower - before
    score = (table * (lower - upper)).sum(axis=(1, 2))
    rx, ry = table.sum(axis=2), table.sum(axis=1)
    pairs = n * (n - 1) / 2
    tied_x = (rx * (rx - 1) / 2).sum(axis=1)
    tied_y = (ry * (ry - 1) / 2).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = score / np.sqrt((pairs - tied_x) * (pairs - tied_y))
    return np.where(np.isfinite(tau), np.clip(tau, -1, 1), np.nan)


def table_correlations(
    table: np.ndarray, x_values: np.ndarray, y_values: np.ndarray
) -> dict[str, np.ndarray]:
    """Pearson, Spearman and Kendall's tau-b of each table ``(B, Kx, Ky)``; NaN where
    undefined (fewer than two units, or a constant side)."""
    n = table.sum(axis=(1, 2))
    return {
        "pearson": _weighted_pearson(
            table, x_values - x_values.mean(), y_values - y_values.mean(), n
        ),
        "spearman": _weighted_pearson(
            table, _midranks(table.sum(axis=2)), _midranks(table.sum(axis=1)), n
        ),
        "kendall": _kendall_tau_b(table, n),
    }


def table_kappa(table: np.ndarray) -> dict[str, np.ndarray]:
    r"""Cohen's kappa and raw agreement of square tables ``(B, K, K)`` (same labels on both
    axes).

    .. math:: \kappa = \frac{p_o - p_e}{1 - p_e}, \quad
              p_o = \sum_k T_{kk} / n, \quad p_e = \sum_k T_{k\cdot} T_{\cdot k} / n^2

    (Cohen 1960; scikit-learn's ``cohen_kappa_score``).
    """
    n = table.sum(axis=(1, 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = np.trace(table, axis1=1, axis2=2) / n
        expected = (table.sum(axis=2) * table.sum(axis=1)).sum(axis=1) / n**2
        kappa = (observed - expected) / (1 - expected)
    return {
        "kappa": np.where(np.isfinite(kappa), kappa, np.nan),
        "accuracy": np.where(np.isfinite(observed), observed, np.nan),
    }


@dataclass(frozen=True)
class Tabulated:
    """A pair (x, y) over a fixed set of units, ready to be tabulated under any resample.

    ``x_codes``/``y_codes`` hold a level index per unit, -1 where the unit is not in the pair.
    """

    x_codes: np.ndarray
    y_codes: np.ndarray
    x_values: np.ndarray
    y_values: np.ndarray

    @property
    def n_units(self) -> int:
        return self.x_codes.size

    @property
    def cells(self) -> int:
        return self.x_values.size * self.y_values.size

    def onehot(self) -> sparse.csc_matrix:
        """Units x cells indicator of each complete unit's cell."""
        present = (self.x_codes >= 0) & (self.y_codes >= 0)
        rows = np.flatnonzero(present)
        cols = self.x_codes[present] * self.y_values.size + self.y_codes[present]
        data = np.ones(rows.size)
        return sparse.csc_matrix((data, (rows, cols)), shape=(self.n_units, self.cells))

    def tables(self, counts: np.ndarray, onehot: sparse.csc_matrix | None = None) -> np.ndarray:
        """``(B, Kx, Ky)`` tables of the resamples whose unit counts are the rows of
        ``counts``."""
        onehot = self.onehot() if onehot is None else onehot
        flat = np.asarray((onehot.T @ counts.T).T)
        return flat.reshape(counts.shape[0], self.x_values.size, self.y_values.size)


def tabulate_numeric(x: np.ndarray, y: np.ndarray) -> Tabulated:
    """A numeric pair: levels of each side with ties merged; NaN marks a missing value."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    both = ~(np.isnan(x) | np.isnan(y))
    x_codes = np.full(x.size, -1)
    y_codes = np.full(y.size, -1)
    x_codes[both], x_levels = levels(x[both])
    y_codes[both], y_levels = levels(y[both])
    return Tabulated(x_codes, y_codes, x_levels, y_levels)


def tabulate_labels(x: np.ndarray, y: np.ndarray, labels: list) -> Tabulated:
    """A categorical pair on a shared label list; ``None``/NaN (or a label outside the list)
    marks a missing value."""
    index = pd.Index(labels, dtype=object)
    x_codes = index.get_indexer(pd.Index(x, dtype=object)).astype(np.int64)
    y_codes = index.get_indexer(pd.Index(y, dtype=object)).astype(np.int64)
    missing = (x_codes < 0) | (y_codes < 0)
    x_codes[missing] = -1
    y_codes[missing] = -1
    positions = np.arange(len(labels), dtype=float)
    return Tabulated(x_codes, y_codes, positions, positions)
