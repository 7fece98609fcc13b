"""Vectorized bootstrap confidence intervals that resample units.

No coefficient is recomputed per resample: each coefficient's per-unit statistics ``S``
(``n_units x m``) are computed once, a chunk of resamples becomes a count matrix ``C``
(``resamples x n_units``, ``C[b, i]`` = times unit i was drawn) and its totals are ``C @ S``
(see :mod:`raterlab.agreement._stats`). BCa's jackknife uses ``total - S[i]`` the same way.
The scale (categories) is the one of the full data, so a resample that misses a category
still has it on its scale.

Draws: each resample is ``n_units`` uniform unit indices from ``numpy.random.default_rng(seed)``
(``Generator.integers``, 32-bit indices, which are the same numbers as 64-bit ones for a range
below 2^32), counted per resample into one-byte counts. The indices are drawn and counted a
block of :data:`DRAW_CELLS` at a time, in the generator's order, so the same seed gives the
same resamples, and the same intervals, as one draw of the whole chunk did. The blocks are
drawn on a second thread while the caller counts the ones before (numpy lets go of the GIL
in both): on two cores a cold draw takes about half the time of drawing and counting in turn.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import cast

import numpy as np
from scipy.special import ndtr, ndtri

from raterlab.agreement._matrix import AgreementUndefined
from raterlab.agreement._stats import CHUNK_CELLS, Statistic
from raterlab.agreement.alpha import alpha_statistic
from raterlab.agreement.correlation import spearman_statistic
from raterlab.agreement.gwet import ac1_statistic, ac2_statistic, bp_statistic, percent_statistic
from raterlab.agreement.intraclass import icc_statistic
from raterlab.agreement.kappa import (
    cohen_statistic,
    conger_statistic,
    fleiss_statistic,
    light_statistic,
    scott_statistic,
)

__all__ = ["STATISTICS", "BootstrapResult", "bootstrap_ci", "bootstrap_cis", "bootstrap_replicates"]

# Coefficient name -> builder of its resampling form; the builder takes the coefficient's
# own options (level=, weights=, categories=, kind=).
STATISTICS: dict[str, Callable[..., Statistic]] = {
    "krippendorff_alpha": alpha_statistic,
    "cohen_kappa": cohen_statistic,
    "scott_pi": scott_statistic,
    "fleiss_kappa": fleiss_statistic,
    "conger_kappa": conger_statistic,
    "light_kappa": light_statistic,
    "gwet_ac1": ac1_statistic,
    "gwet_ac2": ac2_statistic,
    "brennan_prediger": bp_statistic,
    "percent_agreement": percent_statistic,
    "icc": icc_statistic,
    "spearman_rho": spearman_statistic,
}


@dataclass(frozen=True)
class BootstrapResult:
    """A point estimate with its bootstrap interval; ``float(result)`` is the estimate.

    ``n_undefined`` counts resamples on which the coefficient was undefined (for example a
    resample with a single category); they are left out of the interval.
    """

    coefficient: str
    estimate: float
    low: float
    high: float
    confidence: float
    method: str
    n_resamples: int
    n_undefined: int

    def __float__(self) -> float:
        return self.estimate


def _statistic(ratings: object, coefficient: str, options: dict[str, object]) -> Statistic:
    if coefficient not in STATISTICS:
        raise ValueError(f"no bootstrap for {coefficient!r}; choose one of {', '.join(STATISTICS)}")
    return STATISTICS[coefficient](ratings, **options)


def resample_counts(indices: np.ndarray, n_units: int) -> np.ndarray:
    """Count matrix ``C[b, i]`` = how often unit i occurs in row b of ``indices``."""
    rows = indices.shape[0]
    offsets = (np.arange(rows) * n_units)[:, None]
    flat = np.bincount((indices + offsets).ravel(), minlength=rows * n_units)
    return flat.reshape(rows, n_units).astype(float)


CACHED_CELLS = 1 << 27
"""The most counts (resamples x units, one byte each) :func:`drawn_counts` keeps for the next
callers, all kept draws together: 134 MB, 1,000 resamples of up to 134,000 units. A draw is
most of a cold interval's cost (see benchmarks/README.md, "Agreement": a cold and a warm call
measured), paid again by every field, slice and judge that resamples the same units when not
kept; what is kept stays resident in every later step of the process."""

KEPT_DRAWS = 4
"""The most draws :func:`drawn_counts` keeps (the most recent ones)."""


class _KeptDraws:
    """The most recent draws, at most :data:`KEPT_DRAWS` of them and :data:`CACHED_CELLS`
    bytes in all; ``hits`` counts the calls that found their draw."""

    def __init__(self) -> None:
        self.draws: OrderedDict[tuple[int, ...], tuple[np.ndarray, ...]] = OrderedDict()
        self.hits = 0

    def get(self, key: tuple[int, ...]) -> tuple[np.ndarray, ...]:
        if key in self.draws:
            self.hits += 1
            self.draws.move_to_end(key)
            return self.draws[key]
        drawn = tuple(_draw(*key))
        self.draws[key] = drawn
        while len(self.draws) > KEPT_DRAWS or self.nbytes() > CACHED_CELLS:
            self.draws.popitem(last=False)
        return drawn

    def nbytes(self) -> int:
        return sum(chunk.nbytes for drawn in self.draws.values() for chunk in drawn)

    def clear(self) -> None:
        self.draws.clear()
        self.hits = 0


_KEPT = _KeptDraws()


def forget_draws() -> None:
    """Let go of the kept draws (a benchmark's cold call)."""
    _KEPT.clear()


def drawn_counts(n_units: int, n_resamples: int, seed: int, step: int) -> Iterable[np.ndarray]:
    """The resamples' count matrices, ``step`` resamples per chunk, drawn from ``seed``.

    The same draws come again and again: a judge field's slices, judges and rater ceilings
    are each resampled over all of the field's units with the study's seed, and the fields
    of one task rated on the same items have as many units, bootstrapped with the same
    seed. The most recent draws (:data:`KEPT_DRAWS`, :data:`CACHED_CELLS` counts in all,
    stored as small integers) are kept, so the draws are paid once and only the statistics
    each time; the numbers do not change. The kept draws serve those repeated calls of a
    pipeline run (``raterlab.judges.resample`` and the per-field agreement bootstraps), not a
    benchmark: a single :func:`bootstrap_ci` call draws its resamples in the call (cold), and
    that is the figure the benchmark reports first. A draw larger than :data:`CACHED_CELLS`
    is not kept, and its chunks are drawn as they are iterated (one pass), so no more than a
    chunk of it is held at once.
    """
    if n_units * n_resamples > CACHED_CELLS:
        return _draw(n_units, n_resamples, seed, step)
    return _KEPT.get((n_units, n_resamples, seed, step))


DRAW_CELLS = 1 << 18
"""Indices drawn and counted at once by :func:`_draw`: 1 MB of 32-bit indices, which stays in
the processor's cache and reuses freed memory. A whole chunk at once (16 MB of indices for
:data:`CHUNK_CELLS`) was fresh memory on every cold call, and writing it cost more than
drawing (see benchmarks/README.md, "Agreement")."""


DRAWN_AHEAD = 8
"""Blocks of indices (:data:`DRAW_CELLS` each, 1 MB) :func:`_drawn_ahead` draws ahead."""


def _draw(
    n_units: int, n_resamples: int, seed: int | np.random.Generator | None, step: int
) -> Iterator[np.ndarray]:
    """The count matrices of ``n_resamples`` resamples of ``n_units`` units, ``step`` per
    chunk, drawn from ``seed`` (a generator is drawn from as it stands), each in the smallest
    unsigned type that holds its counts (one byte unless a unit is drawn 256 times): no float
    copy of the counts is made or read until a statistic needs one."""
    rng = np.random.default_rng(seed)
    block = max(1, DRAW_CELLS // n_units)
    chunks = [min(step, n_resamples - start) for start in range(0, n_resamples, step)]
    blocks = [min(block, rows - at) for rows in chunks for at in range(0, rows, block)]
    with ThreadPoolExecutor(1, thread_name_prefix="raterlab-draw") as drawer:
        indices = _drawn_ahead(drawer, rng, n_units, blocks)
        for rows in chunks:
            counts = np.zeros((rows, n_units), dtype=np.uint8)
            for at in range(0, rows, block):
                counts = _count_block(next(indices), counts, at)
            counts.flags.writeable = False
            yield counts


def _drawn_ahead(
    drawer: ThreadPoolExecutor, rng: np.random.Generator, n_units: int, blocks: list[int]
) -> Iterator[np.ndarray]:
    """:func:`_block_indices` of each of ``blocks`` in turn, up to :data:`DRAWN_AHEAD` blocks
    drawn on ``drawer``'s one thread while the caller counts and computes on the blocks
    before: the same draws in the same order."""
    if len(blocks) == 1:
        yield _block_indices(rng, blocks[0], n_units)
        return
    ahead: deque[Future[np.ndarray]] = deque()
    for rows in blocks:
        if len(ahead) == DRAWN_AHEAD:
            yield ahead.popleft().result()
        ahead.append(drawer.submit(_block_indices, rng, rows, n_units))
    while ahead:
        yield ahead.popleft().result()


def _block_indices(rng: np.random.Generator, rows: int, n_units: int) -> np.ndarray:
    """``rows`` resamples' unit indices, row ``r``'s offset by ``r * n_units`` (flat)."""
    # Blocks hold fewer than 2^32 cells, so 32-bit indices (the same draws as int64's:
    # numpy draws ranges below 2^32 from 32-bit words either way) take the offsets.
    indices = rng.integers(0, n_units, size=(rows, n_units), dtype=np.uint32)
    indices += (np.arange(rows, dtype=np.uint32) * np.uint32(n_units))[:, None]
    return indices.ravel()


def _count_block(indices: np.ndarray, counts: np.ndarray, at: int) -> np.ndarray:
    """Count a block's ``indices`` (:func:`_block_indices`) into the rows of ``counts`` from
    ``at``; returns ``counts``, widened when a unit was drawn more often than its type holds.

    Counted in place by ``np.add.at`` with a one of the counts' own type (numpy's fast path
    for a scalar of the array's type; ``np.bincount`` counts in 64 bits and then needs a copy
    into the chunk). A byte wraps silently, so a block whose counts do not sum to its draws
    is counted again in 64 bits."""
    n_units = counts.shape[1]
    rows = len(indices) // n_units
    part = counts[at : at + rows].reshape(-1)
    np.add.at(part, indices, counts.dtype.type(1))
    if n_units <= np.iinfo(counts.dtype).max or int(part.sum()) == len(indices):
        return counts
    wide = np.bincount(indices, minlength=len(indices))
    counts = counts.astype(np.min_scalar_type(int(wide.max())))
    counts[at : at + rows] = wide.reshape(rows, n_units)
    return counts


def bootstrap_replicates(
    ratings: object, coefficient: str, indices: np.ndarray, **options: object
) -> np.ndarray:
    """The coefficient on each resample; row b of ``indices`` lists the units drawn.

    The units are the rows of ``ratings`` that hold at least one rating (rows without any are
    dropped first, as by every coefficient). Equal, to rounding, to the coefficient of
    ``units[indices[b]]`` for each b with the full data's categories, but without
    recomputing it per resample.
    """
    statistic = _statistic(ratings, coefficient, options)
    indices = np.asarray(indices)
    if indices.ndim != 2 or indices.min() < 0 or indices.max() >= statistic.n_units:
        raise ValueError(
            f"indices must be a 2-D array of unit positions 0..{statistic.n_units - 1}"
        )
    step = max(1, CHUNK_CELLS // statistic.n_units)
    return np.concatenate(
        [
            statistic.resampled(resample_counts(indices[start : start + step], statistic.n_units))
            for start in range(0, indices.shape[0], step)
        ]
    )


def _bca_levels(
    statistic: Statistic, estimate: float, replicates: np.ndarray, tails: np.ndarray
) -> np.ndarray:
    """BCa quantile levels: bias correction z0 and jackknife acceleration a (Efron 1987)."""
    below = np.mean(replicates < estimate) + 0.5 * np.mean(replicates == estimate)
    z0 = ndtri(below)
    jack = statistic.jackknife()
    jack = jack[np.isfinite(jack)]
    spread = jack.mean() - jack
    denominator = 6 * (spread**2).sum() ** 1.5
    acceleration = (spread**3).sum() / denominator if denominator > 0 else 0.0
    z = ndtri(tails)
    return ndtr(z0 + (z0 + z) / (1 - acceleration * (z0 + z)))


def bootstrap_ci(
    ratings: object,
    coefficient: str = "krippendorff_alpha",
    n_resamples: int = 1000,
    confidence: float = 0.95,
    method: str = "percentile",
    seed: int | np.random.Generator | None = None,
    **options: object,
) -> BootstrapResult:
    """Bootstrap confidence interval of a coefficient, resampling units with replacement.

    Parameters
    ----------
    ratings : array-like of shape (n_units, n_raters)
        As for the coefficient; for ``"spearman_rho"`` a two-column matrix (x, y).
    coefficient : str
        One of :data:`STATISTICS` (the coefficient function's name, or ``"icc"``).
    n_resamples, confidence : int, float
    method : {"percentile", "bca"}
        Percentile interval, or bias-corrected and accelerated (Efron 1987) with the
        acceleration from the leave-one-unit-out jackknife.
    seed : int or numpy Generator, optional
        Same seed, same interval.
    **options
        The coefficient's own options, e.g. ``level="ordinal"``, ``weights="linear"``,
        ``categories=[1, 2, 3, 4, 5]``, ``kind="ICC(2,1)"``.

    Returns
    -------
    BootstrapResult
        ``estimate`` (on the full data), ``low``, ``high``.

    References
    ----------
    Efron, B. (1987). Better bootstrap confidence intervals. JASA, 82, 171-185.
    Hayes, A. F., & Krippendorff, K. (2007). Answering the call for a standard reliability
    measure for coding data. Communication Methods and Measures, 1, 77-89.
    """
    result = bootstrap_cis(
        ratings, [(coefficient, options)], n_resamples, confidence, method, seed
    )[0]
    if isinstance(result, Exception):
        raise result
    return result


def bootstrap_cis(
    ratings: object,
    requests: Sequence[tuple[str, Mapping[str, object]]],
    n_resamples: int = 1000,
    confidence: float = 0.95,
    method: str = "percentile",
    seed: int | np.random.Generator | None = None,
) -> list[BootstrapResult | ValueError]:
    """:func:`bootstrap_ci` of several coefficients (``(coefficient, options)`` each) of the
    same ratings, each result exactly what :func:`bootstrap_ci` gives alone.

    With an integer (or no) seed, every coefficient alone draws the same resamples from the
    same units, so they are drawn once here and each chunk of count matrices is handed to
    every coefficient with that number of units: the draws and counts, most of a bootstrap's
    cost, are paid once per ratings matrix, not once per coefficient. A coefficient that is
    undefined or does not apply gets its ``ValueError`` in its place (the others go on).
    """
    if method not in ("percentile", "bca"):
        raise ValueError(f"method must be 'percentile' or 'bca'; got {method!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1; got {confidence}")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be positive; got {n_resamples}")
    out: list[BootstrapResult | ValueError | None] = [None] * len(requests)
    statistics: dict[int, Statistic] = {}
    estimates: dict[int, float] = {}
    for at, (coefficient, options) in enumerate(requests):
        try:
            statistics[at] = _statistic(ratings, coefficient, dict(options))
            estimates[at] = statistics[at].estimate()
        except ValueError as error:
            statistics.pop(at, None)
            out[at] = error
    shared = not isinstance(seed, np.random.Generator)
    groups: dict[int, list[int]] = {}
    for at, statistic in statistics.items():
        groups.setdefault(statistic.n_units if shared else -1 - at, []).append(at)
    for members in groups.values():
        replicates = _replicates([statistics[at] for at in members], n_resamples, seed)
        for at, values in zip(members, replicates, strict=True):
            coefficient = requests[at][0]
            try:
                out[at] = _interval(
                    statistics[at], coefficient, estimates[at], values, confidence, method
                )
            except ValueError as error:
                out[at] = error
    return cast(list[BootstrapResult | ValueError], out)  # every request has its result


def _replicates(
    statistics: list[Statistic], n_resamples: int, seed: int | np.random.Generator | None
) -> list[np.ndarray]:
    """Each statistic (all on the same number of units) on the same ``n_resamples``
    resamples, drawn chunk by chunk from ``seed`` (with an integer seed, the kept draws of
    :func:`drawn_counts` when they fit)."""
    n = statistics[0].n_units
    step = max(1, CHUNK_CELLS // n)
    drawn: Iterable[np.ndarray]
    if isinstance(seed, int | np.integer) and n * n_resamples <= CACHED_CELLS:
        drawn = drawn_counts(n, n_resamples, int(seed), step)
    else:
        drawn = _draw(n, n_resamples, seed, step)
    parts: list[list[np.ndarray]] = [[] for _ in statistics]
    for chunk in drawn:
        counts = chunk.astype(float)
        for part, statistic in zip(parts, statistics, strict=True):
            part.append(statistic.resampled(counts))
    return [np.concatenate(part) for part in parts]


def _interval(
    statistic: Statistic,
    coefficient: str,
    estimate: float,
    replicates: np.ndarray,
    confidence: float,
    method: str,
) -> BootstrapResult:
    defined = replicates[np.isfinite(replicates)]
    if defined.size == 0:
        raise AgreementUndefined(f"{coefficient} is undefined on every bootstrap resample.")
    tails = np.array([(1 - confidence) / 2, (1 + confidence) / 2])
    if method == "bca":
        tails = _bca_levels(statistic, estimate, defined, tails)
    low, high = np.quantile(defined, tails)
    return BootstrapResult(
        coefficient,
        estimate,
        float(low),
        float(high),
        confidence,
        method,
        len(replicates),
        len(replicates) - defined.size,
    )
