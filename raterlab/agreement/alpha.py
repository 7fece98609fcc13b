"""Krippendorff's alpha for any number of raters, missing data and four levels of measurement."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from raterlab.agreement._matrix import COMPARE_CATEGORIES, AgreementUndefined, Ratings, as_ratings
from raterlab.agreement._stats import (
    DENSE_CELLS,
    AgreementResult,
    UnitStatistic,
    divide,
    finite,
    unit_columns,
)
from raterlab.agreement.names import LEVELS

__all__ = ["LEVELS", "alpha_statistic", "krippendorff_alpha"]


def _within_unit_pairs(unit: np.ndarray, n_units: int) -> tuple[np.ndarray, np.ndarray]:
    """All ordered pairs ``(a, b)`` of entries of the same unit, ``a == b`` included.

    ``unit`` is sorted; the result has ``sum_u k_u^2`` pairs for ``k_u`` entries of unit u.
    """
    per_unit = np.bincount(unit, minlength=n_units)
    first = np.cumsum(per_unit) - per_unit
    partners = per_unit[unit]
    left = np.repeat(np.arange(unit.size), partners)
    offset = np.arange(left.size) - np.repeat(np.cumsum(partners) - partners, partners)
    return left, first[unit[left]] + offset


def _ordinal_delta(n: np.ndarray) -> np.ndarray:
    """Ordinal metric ``(sum_{g=c..k} n_g - (n_c + n_k)/2)^2`` for marginals ``n`` (..., q)."""
    cumulative = np.cumsum(n, axis=-1)
    before = cumulative - n
    span = cumulative[..., None, :] - before[..., :, None]  # c <= k: sum of n_c..n_k
    span = np.where(np.triu(np.ones(span.shape[-2:], dtype=bool)), span, np.swapaxes(span, -1, -2))
    return (span - (n[..., :, None] + n[..., None, :]) / 2) ** 2


def _ratio_delta(x: np.ndarray) -> np.ndarray:
    total = x[:, None] + x[None, :]
    return np.where(total == 0, 0.0, divide(x[:, None] - x[None, :], total) ** 2)


def _check_level(level: str) -> None:
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}; got {level!r}")


def _check_scores(r: Ratings, level: str) -> None:
    """Raise unless the categories have the scores that ``level`` needs."""
    if level != "nominal":
        scores = r.scale_scores(f"{level} alpha")
        if level == "ratio" and (scores < 0).any():
            raise ValueError(
                "ratio alpha needs non-negative values (a ratio scale has a true zero)"
            )


def _delta(level: str, marginals: np.ndarray, scores: np.ndarray | None) -> np.ndarray:
    """The ``q x q`` metric ``delta^2`` of ``level`` (ordinal: on the ``marginals``)."""
    if level == "nominal":
        return 1 - np.eye(marginals.size)
    if level == "ordinal":
        return _ordinal_delta(marginals)
    assert scores is not None  # checked by _check_scores
    if level == "interval":
        return (scores[:, None] - scores[None, :]) ** 2
    return _ratio_delta(scores)


def _coincidences(r: Ratings, pairable: np.ndarray) -> np.ndarray:
    """The coincidence matrix ``o_ck = sum_u n_uc (n_uk - [c = k]) / (m_u - 1)`` over the
    pairable units, from the ``q x units`` tallies ``n`` (one product of them)."""
    n = r.tallies.astype(float)
    scaled = n * np.where(pairable, 1 / np.maximum(r.rated - 1, 1), 0.0)
    o = scaled @ n.T
    o[np.diag_indices_from(o)] -= scaled.sum(axis=1)
    return o


def _alpha_from_coincidences(o: np.ndarray, level: str, scores: np.ndarray | None) -> float:
    """``1 - (n.. - 1) sum o_ck delta_ck / sum n_c n_k delta_ck``."""
    marginals = o.sum(axis=1)
    delta = _delta(level, marginals, scores)
    return float(_alpha((o * delta).sum(), marginals.sum(), marginals @ delta @ marginals))


def alpha_statistic(
    ratings: object, level: str = "nominal", categories: Sequence[object] | None = None
) -> UnitStatistic:
    """Per-unit statistics of :func:`krippendorff_alpha` (see :mod:`raterlab.agreement._stats`).

    Interval: ``[d_u, m_u, sum x, sum x^2]`` (alpha needs only these moments). Nominal and
    ratio: ``[d_u, n_u1 .. n_uq]``, the unit's observed disagreement and value counts. Ordinal:
    the unit's coincidences ``o_u,ck`` for ``c <= k`` (``o_u`` is symmetric, so
    ``q (q + 1) / 2`` values), as the metric depends on the marginals.
    """
    _check_level(level)
    r = as_ratings(ratings, categories)
    pairable = _validate(r)
    if level == "interval":
        return _interval_statistic(r, pairable)
    _check_scores(r, level)
    if r.n_units * r.n_categories * (r.n_categories + 1) // 2 <= DENSE_CELLS:
        return _dense_statistic(r, level, pairable)
    return _sparse_statistic(r, level, pairable)


def _interval_statistic(r: Ratings, pairable: np.ndarray) -> UnitStatistic:
    valid = (r.codes >= 0) & pairable[:, None]
    x = r.scale_scores("interval alpha")[r.codes]
    x -= x[valid].mean()  # alpha is shift-invariant; centring keeps the sums precise
    x[~valid] = 0.0
    ones = np.ones(r.n_raters)
    m = np.where(pairable, r.rated, 0)
    s1, s2 = x @ ones, (x * x) @ ones
    d = 2 * (m * s2 - s1**2) / np.maximum(m - 1, 1)
    return UnitStatistic(np.column_stack([d, m, s1, s2]), _combine_interval)


def _dense_statistic(r: Ratings, level: str, pairable: np.ndarray) -> UnitStatistic:
    q = r.n_categories
    n = r.count_matrix() * pairable[:, None]
    denominator = np.maximum(np.where(pairable, r.rated, 0) - 1, 1)
    if level == "ordinal":
        scaled = n / denominator[:, None]
        rows, columns = np.triu_indices(q)
        o = scaled[:, rows] * n[:, columns]
        o[:, rows == columns] -= scaled  # the diagonal: n_c (n_c - 1) / (m - 1)
        return UnitStatistic(o, _combine_ordinal(q))
    # d_u = sum_ck n_c (n_k - [c = k]) delta_ck / (m - 1); delta_cc = 0 drops the correction.
    delta = 1 - np.eye(q) if level == "nominal" else _ratio_delta(r.scale_scores("ratio alpha"))
    d = ((n @ delta) * n) @ np.ones(q) / denominator
    return UnitStatistic(np.column_stack([d, n]), _combine_for(level, delta))


def _sparse_statistic(r: Ratings, level: str, pairable: np.ndarray) -> UnitStatistic:
    """As :func:`_dense_statistic`, from the nonzero counts only (many distinct values)."""
    q = r.n_categories
    unit, category, count = r.unit_counts()
    keep = pairable[unit]
    unit, category, count = unit[keep], category[keep], count[keep]
    m = np.bincount(unit, weights=count, minlength=r.n_units)
    left, right = _within_unit_pairs(unit, r.n_units)
    weight = count[left] * (count[right] - (left == right)) / np.maximum(m - 1, 1)[unit[left]]
    if level == "ordinal":
        upper = category[left] <= category[right]  # (c, k) and (k, c) weigh the same
        column = _triangle(q)[category[left][upper], category[right][upper]]
        shape = (r.n_units, q * (q + 1) // 2)
        o = unit_columns(unit[left][upper], column, weight[upper], shape)
        return UnitStatistic(o, _combine_ordinal(q))
    delta = 1 - np.eye(q) if level == "nominal" else _ratio_delta(r.scale_scores("ratio alpha"))
    d = np.bincount(
        unit[left], weights=weight * delta[category[left], category[right]], minlength=r.n_units
    )
    stats = unit_columns(
        np.concatenate([np.arange(r.n_units), unit]),
        np.concatenate([np.zeros(r.n_units, dtype=np.int64), category + 1]),
        np.concatenate([d, count]),
        (r.n_units, q + 1),
    )
    return UnitStatistic(stats, _combine_for(level, delta))


def _combine_for(level: str, delta: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    return _combine_nominal if level == "nominal" else _combine_ratio(delta)


def _alpha(d_o: np.ndarray, n_total: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """``1 - D_o / D_e`` with ``D_o = d_o / n`` and ``D_e = expected / (n (n - 1))``."""
    return 1 - (n_total - 1) * divide(d_o, expected)


def _combine_interval(t: np.ndarray) -> np.ndarray:
    n = t[..., 1]
    return _alpha(t[..., 0], n, 2 * (n * t[..., 3] - t[..., 2] ** 2))


def _combine_nominal(t: np.ndarray) -> np.ndarray:
    n = t[..., 1:]
    total = n.sum(axis=-1)
    return _alpha(t[..., 0], total, total**2 - (n**2).sum(axis=-1))


def _combine_ratio(delta: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    def combine(t: np.ndarray) -> np.ndarray:
        n = t[..., 1:]
        expected = np.einsum("...k,kl,...l->...", n, delta, n)
        return _alpha(t[..., 0], n.sum(axis=-1), expected)

    return combine


def _triangle(q: int) -> np.ndarray:
    """``index[c, k]``: the column of the pair {c, k} among the ``q (q + 1) / 2`` pairs
    ``c <= k`` in :func:`numpy.triu_indices` order."""
    rows, columns = np.triu_indices(q)
    index = np.empty((q, q), dtype=np.intp)
    index[rows, columns] = index[columns, rows] = np.arange(rows.size)
    return index


def _combine_ordinal(q: int) -> Callable[[np.ndarray], np.ndarray]:
    index = _triangle(q)

    def combine(t: np.ndarray) -> np.ndarray:
        o = t[..., index]  # the symmetric q x q coincidences from their upper triangle
        n = o.sum(axis=-1)
        delta = _ordinal_delta(n)
        observed = (o * delta).sum(axis=(-2, -1))
        expected = np.einsum("...k,...kl,...l->...", n, delta, n)
        return _alpha(observed, n.sum(axis=-1), expected)

    return combine


def _pairable(r: Ratings) -> np.ndarray:
    """The mask of pairable units (two or more values); raise if there is none."""
    r.require_raters("Krippendorff's alpha")
    pairable = r.rated >= 2
    if not pairable.any():
        raise AgreementUndefined(
            "Krippendorff's alpha needs at least one unit with two or more ratings; "
            "every unit has a single rating."
        )
    return pairable


def _validate(r: Ratings) -> np.ndarray:
    """Raise if alpha is undefined; return the mask of pairable units (two or more values)."""
    pairable = _pairable(r)
    used = np.bincount(r.codes[pairable].ravel() + 1, minlength=r.n_categories + 1)[1:]
    r.require_categories("Krippendorff's alpha", used)
    return pairable


def krippendorff_alpha(
    ratings: object, level: str = "nominal", categories: Sequence[object] | None = None
) -> AgreementResult:
    r"""Krippendorff's alpha reliability coefficient.

    .. math:: \alpha = 1 - \frac{D_o}{D_e}
       = 1 - (n_{\cdot\cdot} - 1)\,
         \frac{\sum_{c,k} o_{ck}\,\delta^2_{ck}}{\sum_{c,k} n_c n_k\,\delta^2_{ck}}

    where ``o_ck = sum_u (number of c-k pairs of values in unit u) / (m_u - 1)`` is the
    coincidence matrix, ``n_c`` its marginals and ``n..`` the number of pairable values.

    Parameters
    ----------
    ratings : array-like of shape (n_units, n_raters)
        Rows are units, columns raters, NaN/None missing. Numbers or labels.
    level : {"nominal", "ordinal", "interval", "ratio"}
        Metric ``delta^2``: nominal ``[c != k]``; ordinal
        ``(sum_{g=c}^{k} n_g - (n_c + n_k)/2)^2`` (ranks on the declared scale); interval
        ``(c - k)^2``; ratio ``((c - k)/(c + k))^2``, on the category scores.
    categories : sequence, optional
        The scale in order. Categories that nobody used do not change alpha.

    Returns
    -------
    AgreementResult
        ``float(result)`` is alpha; ``n_units`` counts the pairable units.

    Notes
    -----
    Missing data: units with fewer than two ratings are not pairable and are left out, as in
    Krippendorff's definition; every pairable value counts, whichever rater gave it.

    Computation: the ``q x q`` coincidence matrix is one product of the units' category
    tallies (``o = N W N^T - diag(N w)`` with ``N`` the ``q x units`` tallies and ``W`` the
    diagonal of ``1 / (m_u - 1)`` over pairable units); alpha follows from ``o`` alone. With
    more than ``COMPARE_CATEGORIES`` (32) distinct values, from per-unit statistics instead
    (sparse; interval alpha from each unit's moments), as :func:`alpha_statistic`.
    Raises :class:`AgreementUndefined` with fewer than two raters, no unit with two ratings,
    or a single value among the pairable ones (``D_e = 0``).

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. Annenberg School
    for Communication, University of Pennsylvania.
    Hayes, A. F., & Krippendorff, K. (2007). Answering the call for a standard reliability
    measure for coding data. Communication Methods and Measures, 1(1), 77-89.
    """
    _check_level(level)
    r = as_ratings(ratings, categories)
    if r.n_categories > COMPARE_CATEGORIES:  # many distinct values: no q x units tallies
        estimate = alpha_statistic(r, level).estimate()
    else:
        pairable = _pairable(r)
        o = _coincidences(r, pairable)
        r.require_categories("Krippendorff's alpha", o.sum(axis=1))
        _check_scores(r, level)
        estimate = finite(_alpha_from_coincidences(o, level, r.scores))
    pairable_units = int((r.rated >= 2).sum())
    return AgreementResult("krippendorff_alpha", estimate, pairable_units, r.n_raters)
