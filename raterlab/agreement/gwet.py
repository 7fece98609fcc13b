"""Gwet's AC1/AC2, Brennan-Prediger and percent agreement (Gwet's multi-rater framework).

Observed agreement ``p_a``, the category shares ``pi_k`` and the standard error are defined
in :mod:`raterlab.agreement._multirater`; each coefficient here fixes the chance agreement.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from raterlab.agreement._matrix import Ratings, as_ratings
from raterlab.agreement._multirater import multirater_result, multirater_statistic, validate
from raterlab.agreement._stats import AgreementResult, UnitStatistic
from raterlab.agreement._weights import weight_matrix

__all__ = [
    "ac1_statistic",
    "ac2_statistic",
    "bp_statistic",
    "brennan_prediger",
    "gwet_ac1",
    "gwet_ac2",
    "percent_agreement",
    "percent_statistic",
]


def _ratings(
    ratings: object,
    categories: Sequence[object] | None,
    weights: str | None,
    chance: str,
    name: str,
) -> tuple[Ratings, np.ndarray]:
    """The validated ratings and the weight matrix."""
    r = as_ratings(ratings, categories)
    validate(r, name, chance)
    return r, weight_matrix(weights, r, name)


def _statistic(
    ratings: object,
    categories: Sequence[object] | None,
    weights: str | None,
    chance: str,
    name: str,
) -> tuple[UnitStatistic, Ratings, np.ndarray]:
    r, w = _ratings(ratings, categories, weights, chance, name)
    return multirater_statistic(r, w, chance), r, w


def ac1_statistic(ratings: object, categories: Sequence[object] | None = None) -> UnitStatistic:
    """Per-unit statistics of :func:`gwet_ac1`."""
    return _statistic(ratings, categories, None, "gwet", "Gwet's AC1")[0]


def gwet_ac1(ratings: object, categories: Sequence[object] | None = None) -> AgreementResult:
    r"""Gwet's AC1 agreement coefficient for any number of raters.

    .. math:: AC_1 = \frac{p_a - p_e}{1 - p_e},\quad
       p_e = \frac{1}{q - 1} \sum_k \pi_k (1 - \pi_k)

    with ``q`` categories on the scale (declared ones count even if unused) and ``p_a``,
    ``pi_k`` as in :func:`fleiss_kappa`. Chance agreement is the probability that a rating
    is random (``q/(q-1) sum pi(1-pi)``) times the chance of agreeing at random (``1/q``), so
    AC1 stays stable when one category dominates (the kappa paradox). ``se`` is Gwet's
    (2008) linearised standard error.

    Notes
    -----
    Raises :class:`AgreementUndefined` with fewer than two raters, no unit with two
    ratings, or a one-category scale.

    References
    ----------
    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence
    of high agreement. British Journal of Mathematical and Statistical Psychology, 61, 29-48.
    """
    r, w = _ratings(ratings, categories, None, "gwet", "Gwet's AC1")
    return multirater_result("gwet_ac1", r, w, "gwet")


def ac2_statistic(
    ratings: object, weights: str = "quadratic", categories: Sequence[object] | None = None
) -> UnitStatistic:
    """Per-unit statistics of :func:`gwet_ac2`."""
    return _statistic(ratings, categories, weights, "gwet", "Gwet's AC2")[0]


def gwet_ac2(
    ratings: object, weights: str = "quadratic", categories: Sequence[object] | None = None
) -> AgreementResult:
    r"""Gwet's AC2: AC1 with agreement weights, for ordinal and interval ratings.

    .. math:: p_a = \frac{1}{n_2}\sum_{i: r_i \ge 2}\sum_k
       \frac{r_{ik}(r^*_{ik} - 1)}{r_i (r_i - 1)},\quad r^*_{ik} = \sum_l w_{kl} r_{il},
       \quad p_e = \frac{T_w}{q (q - 1)} \sum_k \pi_k (1 - \pi_k)

    with ``T_w`` the sum of the weights. ``weights`` is "linear", "quadratic" or "ordinal"
    (see :mod:`raterlab.agreement._weights`), on the declared scale: declare ``categories``
    so unused categories count in ``q`` and in the weights' spacing. ``se`` as for AC1.

    References
    ----------
    Gwet, K. L. (2014). Handbook of Inter-Rater Reliability (4th ed.), ch. 3.
    """
    r, w = _ratings(ratings, categories, weights, "gwet", "Gwet's AC2")
    return multirater_result("gwet_ac2", r, w, "gwet")


def bp_statistic(ratings: object, categories: Sequence[object] | None = None) -> UnitStatistic:
    """Per-unit statistics of :func:`brennan_prediger`."""
    return _statistic(ratings, categories, None, "uniform", "Brennan-Prediger")[0]


def brennan_prediger(
    ratings: object, categories: Sequence[object] | None = None
) -> AgreementResult:
    r"""Brennan & Prediger's coefficient: chance agreement of uniform random ratings.

    .. math:: BP = \frac{p_a - 1/q}{1 - 1/q}

    with ``q`` categories on the scale (declare ``categories`` so unused ones count) and
    ``p_a`` as in :func:`fleiss_kappa`. ``se`` is Gwet's linearised standard error.

    References
    ----------
    Brennan, R. L., & Prediger, D. J. (1981). Coefficient kappa: some uses, misuses, and
    alternatives. Educational and Psychological Measurement, 41, 687-699.
    """
    r, w = _ratings(ratings, categories, None, "uniform", "Brennan-Prediger")
    return multirater_result("brennan_prediger", r, w, "uniform")


def percent_statistic(ratings: object) -> UnitStatistic:
    """Per-unit statistics of :func:`percent_agreement`."""
    return _statistic(ratings, None, None, "none", "Percent agreement")[0]


def percent_agreement(ratings: object) -> AgreementResult:
    r"""Percent agreement: the share of agreeing rating pairs within units.

    .. math:: p_a = \frac{1}{n_2}\sum_{i: r_i \ge 2}
       \sum_k \frac{r_{ik}(r_{ik} - 1)}{r_i (r_i - 1)}

    For two raters this is the proportion of units on which they agree. Not chance-corrected.
    Missing data: averages over units with two or more ratings. ``se`` as in
    :mod:`raterlab.agreement._multirater` (with ``p_e = 0``).

    References
    ----------
    Gwet, K. L. (2014). Handbook of Inter-Rater Reliability (4th ed.), ch. 2.
    """
    r, w = _ratings(ratings, None, None, "none", "Percent agreement")
    return multirater_result("percent_agreement", r, w, "none")
