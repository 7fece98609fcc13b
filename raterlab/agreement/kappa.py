"""Kappa-type coefficients: Cohen, Scott, Fleiss, Conger and Light.

All share ``kappa = (p_a - p_e) / (1 - p_e)``; they differ in the chance agreement ``p_e``:
Cohen's and Conger's chance model gives each rater their own category distribution; Scott's
and Fleiss' pool the raters' distributions into one.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np

from raterlab.agreement._matrix import AgreementUndefined, Ratings, as_ratings
from raterlab.agreement._multirater import (
    multirater_result,
    multirater_statistic,
    validate,
)
from raterlab.agreement._stats import AgreementResult, UnitStatistic, divide, finite, unit_columns
from raterlab.agreement._weights import weight_matrix

__all__ = [
    "cohen_kappa",
    "cohen_statistic",
    "conger_kappa",
    "conger_statistic",
    "fleiss_kappa",
    "fleiss_statistic",
    "light_kappa",
    "light_statistic",
    "scott_pi",
    "scott_statistic",
]


def _pair_parts(t: np.ndarray, weights: np.ndarray, pooled: bool) -> tuple[np.ndarray, np.ndarray]:
    """``(p_a, p_e)`` from pair totals ``[sum w(a, b), counts of a (q), counts of b (q)]``."""
    q = weights.shape[0]
    first, second = t[..., 1 : 1 + q], t[..., 1 + q :]
    n = first.sum(axis=-1)
    p_a, p_b = divide(first, n[..., None]), divide(second, n[..., None])
    if pooled:
        p_a = p_b = (p_a + p_b) / 2
    return divide(t[..., 0], n), np.einsum("...k,kl,...l->...", p_a, weights, p_b)


def _pair_kappa(t: np.ndarray, weights: np.ndarray, pooled: bool) -> np.ndarray:
    observed, expected = _pair_parts(t, weights, pooled)
    return divide(observed - expected, 1 - expected)


def _pair_columns(
    a: np.ndarray, b: np.ndarray, weights: np.ndarray, offset: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Column indices and values of one rater pair's ``[w(a, b), onehot(a), onehot(b)]``."""
    q = weights.shape[0]
    columns = np.concatenate([np.zeros(a.size, dtype=np.int64), 1 + a, 1 + q + b]) + offset
    values = np.concatenate([weights[a, b], np.ones(2 * a.size)])
    return columns, values


def _two_raters(ratings: object, categories: Sequence[object] | None, name: str) -> Ratings:
    r = as_ratings(ratings, categories)
    r.require_raters(name)
    if r.n_raters > 2:
        raise ValueError(
            f"{name} compares exactly two raters; got {r.n_raters}. "
            "Use fleiss_kappa, conger_kappa or light_kappa for more."
        )
    table = r.pair_table
    if not table.any():
        raise AgreementUndefined(f"{name} needs units rated by both raters; there are none.")
    r.require_categories(name, table.sum(axis=0) + table.sum(axis=1))
    return r


def _pair_statistic(r: Ratings, weights: np.ndarray, pooled: bool) -> UnitStatistic:
    both = np.flatnonzero(r.rated == 2)
    columns, values = _pair_columns(r.codes[both, 0], r.codes[both, 1], weights)
    stats = unit_columns(np.tile(both, 3), columns, values, (r.n_units, 2 * r.n_categories + 1))
    return UnitStatistic(stats, lambda t: _pair_kappa(t, weights, pooled))


def cohen_statistic(
    ratings: object, weights: str | None = None, categories: Sequence[object] | None = None
) -> UnitStatistic:
    """Per-unit statistics of :func:`cohen_kappa`."""
    r = _two_raters(ratings, categories, "Cohen's kappa")
    return _pair_statistic(r, weight_matrix(weights, r, "Cohen's kappa"), pooled=False)


def cohen_kappa(
    ratings: object, weights: str | None = None, categories: Sequence[object] | None = None
) -> AgreementResult:
    r"""Cohen's kappa (weighted or not) between two raters.

    .. math:: \kappa = \frac{p_a - p_e}{1 - p_e},\quad
       p_a = \sum_{k,l} w_{kl} p_{kl},\quad p_e = \sum_{k,l} w_{kl} p_{k\cdot} p_{\cdot l}

    with ``p_kl`` the share of units rated k by the first rater and l by the second. Chance
    agreement uses each rater's own marginal distribution (Cohen), unlike :func:`scott_pi`.

    Parameters
    ----------
    ratings : array-like of shape (n_units, 2)
    weights : {None, "linear", "quadratic", "ordinal"}
        Agreement weights on the declared scale (see :mod:`raterlab.agreement._weights`);
        linear and quadratic weights give the same kappa as scikit-learn's disagreement
        weights on equally spaced categories.
    categories : sequence, optional
        The scale in order; unused categories change the weights' spacing.

    Returns
    -------
    AgreementResult
        With ``observed`` = p_a, ``expected`` = p_e and ``se``, the large-sample standard
        error of Fleiss, Cohen & Everitt (1969), for weights w and ``wbar_k. = sum_l p_.l w_kl``,
        ``wbar_.l = sum_k p_k. w_kl``:
        ``var = [sum_kl p_kl (w_kl - (wbar_k. + wbar_.l)(1 - kappa))^2
        - (kappa - p_e (1 - kappa))^2] / (n (1 - p_e)^2)``.

    Notes
    -----
    Missing data: only units rated by both raters count. Raises :class:`AgreementUndefined`
    if no unit has both ratings or both raters used one and the same category.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
    Psychological Measurement, 20, 37-46.
    Cohen, J. (1968). Weighted kappa. Psychological Bulletin, 70, 213-220.
    Fleiss, J. L., Cohen, J., & Everitt, B. S. (1969). Large sample standard errors of kappa
    and weighted kappa. Psychological Bulletin, 72, 323-327.
    """
    r = _two_raters(ratings, categories, "Cohen's kappa")
    w = weight_matrix(weights, r, "Cohen's kappa")
    table = r.pair_table
    n = int(table.sum())
    p = table / n
    row, col = p.sum(axis=1), p.sum(axis=0)
    pa, pe = float((w * p).sum()), float(row @ w @ col)
    kappa = finite(float(divide(pa - pe, 1 - pe)))
    wbar = (w @ col)[:, None] + (row @ w)[None, :]
    spread = (p * (w - wbar * (1 - kappa)) ** 2).sum() - (kappa - pe * (1 - kappa)) ** 2
    se = float(np.sqrt(max(spread, 0.0) / (n * (1 - pe) ** 2)))
    return AgreementResult("cohen_kappa", kappa, n, 2, pa, pe, se)


def scott_statistic(ratings: object) -> UnitStatistic:
    """Per-unit statistics of :func:`scott_pi`."""
    r = _two_raters(ratings, None, "Scott's pi")
    return _pair_statistic(r, np.eye(r.n_categories), pooled=True)


def scott_pi(ratings: object) -> AgreementResult:
    r"""Scott's pi between two raters.

    .. math:: \pi = \frac{p_a - p_e}{1 - p_e},\quad
       p_e = \sum_k \left(\frac{p_{k\cdot} + p_{\cdot k}}{2}\right)^2

    Chance agreement pools both raters' ratings into one distribution (Scott), unlike
    :func:`cohen_kappa`. Only units rated by both raters count; for more raters use
    :func:`fleiss_kappa`, its multi-rater generalisation.

    References
    ----------
    Scott, W. A. (1955). Reliability of content analysis: the case of nominal scale coding.
    Public Opinion Quarterly, 19, 321-325.
    """
    r = as_ratings(ratings)
    statistic = scott_statistic(r)
    pa, pe = map(float, _pair_parts(statistic.total(), np.eye(r.n_categories), pooled=True))
    n = int((r.rated == 2).sum())
    return AgreementResult("scott_pi", statistic.estimate(), n, 2, pa, pe)


def fleiss_statistic(ratings: object) -> UnitStatistic:
    """Per-unit statistics of :func:`fleiss_kappa`."""
    r = as_ratings(ratings)
    validate(r, "Fleiss' kappa", "fleiss")
    return multirater_statistic(r, np.eye(r.n_categories), "fleiss")


def fleiss_kappa(ratings: object) -> AgreementResult:
    r"""Fleiss' kappa for any number of raters, in Gwet's generalisation for missing ratings.

    .. math:: \kappa = \frac{p_a - p_e}{1 - p_e},\quad
       p_a = \frac{1}{n_2}\sum_{i: r_i \ge 2} \sum_k \frac{r_{ik}(r_{ik} - 1)}{r_i (r_i - 1)},
       \quad p_e = \sum_k \pi_k^2,\quad \pi_k = \frac{1}{n}\sum_i \frac{r_{ik}}{r_i}

    ``r_ik`` raters put unit i in category k; ``r_i`` raters rated it. With the same number
    of ratings per unit this is Fleiss (1971). Chance agreement pools all raters (Scott's
    model). ``se`` is Gwet's linearised standard error (see
    :mod:`raterlab.agreement._multirater`).

    Notes
    -----
    Missing data: ``p_a`` averages over units with two or more ratings; ``pi`` over all
    rated units. Raises :class:`AgreementUndefined` with fewer than two raters, no unit with
    two ratings, or a single category used.

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. Psychological
    Bulletin, 76, 378-382.
    Gwet, K. L. (2014). Handbook of Inter-Rater Reliability (4th ed.), ch. 2 and 5.
    """
    r = as_ratings(ratings)
    validate(r, "Fleiss' kappa", "fleiss")
    return multirater_result("fleiss_kappa", r, np.eye(r.n_categories), "fleiss")


def conger_statistic(ratings: object) -> UnitStatistic:
    """Per-unit statistics of :func:`conger_kappa`."""
    r = as_ratings(ratings)
    validate(r, "Conger's kappa", "fleiss")
    q, raters = r.n_categories, r.n_raters
    counts = r.count_matrix()
    rated = r.rated.astype(float)
    paired = rated >= 2
    agreement = (counts * (counts - 1)) @ np.ones(q)
    pa_unit = np.where(paired, agreement / np.maximum(rated * (rated - 1), 1), 0.0)
    unit, rater = np.nonzero(r.codes >= 0)
    units = np.arange(r.n_units)
    stats = unit_columns(
        np.concatenate([units, units, unit]),
        np.concatenate(
            [np.zeros_like(units), np.ones_like(units), 2 + rater * q + r.codes[unit, rater]]
        ),
        np.concatenate([pa_unit, paired, np.ones(unit.size)]),
        (r.n_units, 2 + raters * q),
    )

    def combine(t: np.ndarray) -> np.ndarray:
        pa = divide(t[..., 0], t[..., 1])
        pe = _conger_chance(t, raters, q)
        return divide(pa - pe, 1 - pe)

    return UnitStatistic(stats, combine)


def _conger_chance(t: np.ndarray, raters: int, q: int) -> np.ndarray:
    c = t[..., 2:].reshape(*t.shape[:-1], raters, q)
    p = divide(c, c.sum(axis=-1, keepdims=True))
    mean = p.mean(axis=-2)
    variance = ((p**2).sum(axis=-2) - raters * mean**2) / (raters - 1)
    return (mean**2 - variance / raters).sum(axis=-1)


def conger_kappa(ratings: object) -> AgreementResult:
    r"""Conger's kappa: the multi-rater generalisation of Cohen's kappa.

    .. math:: p_e = \sum_k \left(\bar p_k^2 - \frac{s_k^2}{r}\right)

    where ``p_gk`` is the share of rater g's ratings in category k, ``\bar p_k`` its mean over
    the ``r`` raters and ``s_k^2`` its variance (denominator r - 1); this equals the mean
    over rater pairs of Cohen's chance agreement. ``p_a`` is as in :func:`fleiss_kappa`.

    Notes
    -----
    Missing data: ``p_gk`` uses every rating of rater g; ``p_a`` averages over units with
    two or more ratings (Gwet 2014).

    References
    ----------
    Conger, A. J. (1980). Integration and generalization of kappas for multiple raters.
    Psychological Bulletin, 88, 322-328.
    Gwet, K. L. (2014). Handbook of Inter-Rater Reliability (4th ed.), ch. 2.
    """
    r = as_ratings(ratings)
    statistic = conger_statistic(r)
    total = statistic.total()
    return AgreementResult(
        "conger_kappa",
        statistic.estimate(),
        int((r.rated >= 2).sum()),
        r.n_raters,
        observed=float(total[0] / total[1]),
        expected=float(_conger_chance(total, r.n_raters, r.n_categories)),
    )


def _rater_pairs(r: Ratings) -> list[tuple[int, int, np.ndarray]]:
    pairs = []
    for g, h in combinations(range(r.n_raters), 2):
        common = np.flatnonzero((r.codes[:, g] >= 0) & (r.codes[:, h] >= 0))
        if common.size:
            pair = r.codes[common][:, [g, h]]
            r.require_categories(
                f"Light's kappa (raters {r.raters[g]!r} and {r.raters[h]!r})",
                np.bincount(pair.ravel(), minlength=r.n_categories),
            )
            pairs.append((g, h, common))
    if not pairs:
        raise AgreementUndefined(
            "Light's kappa needs a unit with two or more ratings from a pair of raters."
        )
    return pairs


def light_statistic(ratings: object) -> UnitStatistic:
    """Per-unit statistics of :func:`light_kappa`: one Cohen block per rater pair."""
    r = as_ratings(ratings)
    r.require_raters("Light's kappa")
    pairs = _rater_pairs(r)
    q = r.n_categories
    width = 2 * q + 1
    weights = np.eye(q)
    rows, columns, values = [], [], []
    for index, (g, h, common) in enumerate(pairs):
        c, v = _pair_columns(r.codes[common, g], r.codes[common, h], weights, index * width)
        rows.append(np.tile(common, 3))
        columns.append(c)
        values.append(v)
    stats = unit_columns(
        np.concatenate(rows),
        np.concatenate(columns),
        np.concatenate(values),
        (r.n_units, len(pairs) * width),
    )

    def combine(t: np.ndarray) -> np.ndarray:
        per_pair = t.reshape(*t.shape[:-1], len(pairs), width)
        return _pair_kappa(per_pair, weights, pooled=False).mean(axis=-1)

    return UnitStatistic(stats, combine)


def light_kappa(ratings: object) -> AgreementResult:
    """Light's kappa: the mean of Cohen's kappa over all pairs of raters.

    Notes
    -----
    Missing data: each pair's kappa uses the units both raters rated (pairwise deletion, as
    in R's ``psy::lkappa``); pairs with no common unit are left out. Raises
    :class:`AgreementUndefined` if a pair's kappa is undefined (they used one and the same
    category on all their common units) or no pair rated a common unit.

    References
    ----------
    Light, R. J. (1971). Measures of response agreement for qualitative data: some
    generalizations and alternatives. Psychological Bulletin, 76, 365-377.
    """
    r = as_ratings(ratings)
    statistic = light_statistic(r)
    return AgreementResult(
        "light_kappa", statistic.estimate(), int((r.rated >= 2).sum()), r.n_raters
    )
