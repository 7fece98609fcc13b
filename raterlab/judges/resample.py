"""One set of bootstrap resamples shared by every statistic of a comparison.

The resamples are drawn once (seeded) and handed, a chunk at a time, as count matrices
``C[b, i]`` (times unit ``i`` was drawn in resample ``b``) to every *consumer*: a function
from counts to named arrays of statistics. Judges compared on the same resamples give paired
replicates, so the difference of two judges' correlations has its own interval. Every
consumer also gets the all-ones count vector, which is the estimate on the data itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import sparse, stats
from scipy.stats import rankdata

from raterlab.agreement.bootstrap import drawn_counts
from raterlab.judges.contingency import (
    CHUNK_CELLS,
    CORRELATIONS,
    MAX_CELLS,
    Tabulated,
    snap,
    table_correlations,
    table_kappa,
    tabulate_numeric,
)

Consumer = Callable[[np.ndarray], dict[str, np.ndarray]]


@dataclass(frozen=True)
class Replicates:
    """A statistic on the data (``estimate``) and on each resample (``replicates``)."""

    estimate: float
    replicates: np.ndarray

    def interval(self, confidence: float) -> tuple[float, float]:
        """Percentile interval of the defined replicates (NaN, NaN when none is defined)."""
        defined = self.replicates[np.isfinite(self.replicates)]
        if defined.size == 0 or not np.isfinite(self.estimate):
            return float("nan"), float("nan")
        tails = [(1 - confidence) / 2, (1 + confidence) / 2]
        low, high = np.quantile(defined, tails)
        return float(low), float(high)


def run(
    n_units: int,
    consumers: Sequence[Consumer],
    n_resamples: int,
    seed: int,
    cells: int = 1,
) -> list[dict[str, Replicates]]:
    """Every consumer's statistics on the data and on ``n_resamples`` resamples of the units.

    ``cells`` is the largest number of values a consumer keeps per resample (its table size),
    to size the chunks. ``n_resamples = 0`` gives estimates with empty replicates. The means
    (:class:`MeanConsumer`) of a run come from one matrix product per chunk of resamples.
    """
    ones = np.ones((1, n_units))
    estimates = _consume_all(consumers, ones)
    step = max(1, CHUNK_CELLS // max(n_units, cells))
    parts: list[list[dict[str, np.ndarray]]] = [[] for _ in consumers]
    for drawn in drawn_counts(n_units, n_resamples, seed, step):
        # Units-major memory: a sparse (cells x units) @ counts.T product reads it in place.
        counts = np.ascontiguousarray(drawn.T, dtype=float).T
        for part, result in zip(parts, _consume_all(consumers, counts), strict=True):
            part.append(result)
    out = []
    for estimate, part in zip(estimates, parts, strict=True):
        out.append(
            {
                name: Replicates(
                    float(value[0]),
                    np.concatenate([p[name] for p in part]) if part else np.empty(0),
                )
                for name, value in estimate.items()
            }
        )
    return out


def _consume_all(consumers: Sequence[Consumer], counts: np.ndarray) -> list[dict[str, np.ndarray]]:
    """Each consumer's statistics of ``counts``; the means of all :class:`MeanConsumer` s
    from one product ``counts @ [values_1, defined_1, values_2, ...]`` (a matrix-vector
    product per mean reads all the counts again: at 100,000 units and 1,000 resamples,
    800 MB per mean)."""
    means = [c for c in consumers if isinstance(c, MeanConsumer)]
    products = iter(())
    if means:
        sums = counts @ np.column_stack([c.columns for c in means])
        products = iter(np.split(sums, len(means), axis=1))
    return [
        c.finish(next(products)) if isinstance(c, MeanConsumer) else c(counts) for c in consumers
    ]


def dense_correlations(x: np.ndarray, y: np.ndarray) -> dict[str, np.ndarray]:
    """Pearson, Spearman and Kendall's tau-b of each row pair of ``(B, m)`` arrays (small m).

    Ties are merged as in :func:`raterlab.judges.contingency.levels`; a row with a NaN or a constant
    side gives NaN. Tau-b counts signs over all pairs (``O(m^2)`` per row), as scipy does.
    """
    if x.shape[1] == 0:
        return {name: np.full(x.shape[0], np.nan) for name in ("pearson", "spearman", "kendall")}
    x, y = snap(x), snap(y)

    def pearson(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        da = a - a.mean(axis=1, keepdims=True)
        db = b - b.mean(axis=1, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            r = (da * db).sum(axis=1) / np.sqrt((da**2).sum(axis=1) * (db**2).sum(axis=1))
        return np.where(np.isfinite(r), np.clip(r, -1, 1), np.nan)

    sx = np.sign(x[:, :, None] - x[:, None, :])
    sy = np.sign(y[:, :, None] - y[:, None, :])
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = (sx * sy).sum(axis=(1, 2)) / np.sqrt(
            (sx != 0).sum(axis=(1, 2)) * (sy != 0).sum(axis=(1, 2))
        )
    bad = np.isnan(x).any(axis=1) | np.isnan(y).any(axis=1)
    out = {
        "pearson": pearson(x, y),
        "spearman": pearson(rankdata(x, axis=1), rankdata(y, axis=1)),
        "kendall": np.where(np.isfinite(tau), np.clip(tau, -1, 1), np.nan),
    }
    return {name: np.where(bad, np.nan, value) for name, value in out.items()}


def system_consumer(x: np.ndarray, y: np.ndarray, systems: np.ndarray) -> Consumer:
    """Correlations of per-system means of x and y (complete pairs only) under resampling of
    units; ``systems`` holds a system code (0..S-1) per unit."""
    valid = ~(np.isnan(x) | np.isnan(y))
    n_systems = int(systems.max()) + 1 if systems.size else 0
    onehot = sparse.csr_matrix(
        (np.ones(valid.sum()), (np.flatnonzero(valid), systems[valid])),
        shape=(x.size, n_systems),
    )
    xs, ys = np.where(valid, x, 0.0), np.where(valid, y, 0.0)

    def consume(counts: np.ndarray) -> dict[str, np.ndarray]:
        weight = np.asarray((onehot.T @ counts.T).T)
        with np.errstate(divide="ignore", invalid="ignore"):
            mx = np.asarray((onehot.T @ (counts * xs).T).T) / weight
            my = np.asarray((onehot.T @ (counts * ys).T).T) / weight
        present = (weight > 0).any(axis=0)
        return dense_correlations(mx[:, present], my[:, present])

    return consume


class MeanConsumer:
    """The mean of the defined ``values`` (one per unit) under resampling of units:
    ``sum_i C[b, i] v_i / sum_i C[b, i] 1[v_i defined]``, linear in the counts, so
    :func:`run` computes all of a run's means with one matrix product."""

    def __init__(self, values: np.ndarray) -> None:
        defined = np.isfinite(values)
        self.columns = np.column_stack([np.where(defined, values, 0.0), defined.astype(float)])

    def finish(self, sums: np.ndarray) -> dict[str, np.ndarray]:
        """The means from ``counts @ self.columns``."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return {"mean": sums[:, 0] / sums[:, 1]}

    def __call__(self, counts: np.ndarray) -> dict[str, np.ndarray]:
        return self.finish(counts @ self.columns)


def mean_consumer(values: np.ndarray) -> MeanConsumer:
    """The mean of the defined ``values`` (one per unit) under resampling of units."""
    return MeanConsumer(values)


KAPPA = ("kappa", "accuracy")


def _repeat_consumer(x: np.ndarray, y: np.ndarray) -> Consumer:
    """Correlations on the repeated data, one resample at a time (tables too large)."""
    valid = ~(np.isnan(x) | np.isnan(y))
    xs, ys = snap(x[valid]), snap(y[valid])

    def consume(counts: np.ndarray) -> dict[str, np.ndarray]:
        out = {name: np.full(counts.shape[0], np.nan) for name in CORRELATIONS}
        for b, row in enumerate(counts[:, valid].astype(int)):
            rx, ry = np.repeat(xs, row), np.repeat(ys, row)
            if rx.size < 2 or np.ptp(rx) == 0 or np.ptp(ry) == 0:
                continue
            out["pearson"][b] = stats.pearsonr(rx, ry).statistic
            out["spearman"][b] = stats.spearmanr(rx, ry).statistic
            out["kendall"][b] = stats.kendalltau(rx, ry).statistic
        return out

    return consume


def correlation_consumer(x: np.ndarray, y: np.ndarray) -> tuple[Consumer, int]:
    """Pearson, Spearman and Kendall of ``x`` and ``y`` per resample, and the table size it
    keeps: from their contingency table, or on the repeated data above :data:`MAX_CELLS`."""
    tab = tabulate_numeric(x, y)
    if tab.cells == 0:
        return (lambda counts: {s: np.full(counts.shape[0], np.nan) for s in CORRELATIONS}), 1
    if tab.cells > MAX_CELLS:
        return _repeat_consumer(x, y), 1
    onehot = tab.onehot()
    return (
        lambda counts: table_correlations(tab.tables(counts, onehot), tab.x_values, tab.y_values)
    ), tab.cells


def kappa_consumer(tab: Tabulated) -> tuple[Consumer, int]:
    """Cohen's kappa and accuracy of a label table per resample, and the table size."""
    if not ((tab.x_codes >= 0) & (tab.y_codes >= 0)).any():
        return (lambda counts: {s: np.full(counts.shape[0], np.nan) for s in KAPPA}), 1
    onehot = tab.onehot()
    return (lambda counts: table_kappa(tab.tables(counts, onehot))), tab.cells


def point_correlations(x: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """The three correlations on the data itself (no resample)."""
    consumer, _ = correlation_consumer(x, y)
    return {k: float(v[0]) for k, v in consumer(np.ones((1, x.size))).items()}
