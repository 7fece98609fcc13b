"""Gwet's (2014) framework for multi-rater coefficients with missing ratings.

Fleiss' kappa, Gwet's AC1/AC2, Brennan-Prediger and percent agreement share the observed
agreement and differ only in the chance agreement ``p_e``. With ``r_ik`` raters putting unit
``i`` in category ``k``, ``r_i = sum_k r_ik``, ``r*_ik = sum_l w_kl r_il`` and ``n`` the units
with at least one rating:

* ``p_a = mean over units with r_i >= 2 of sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1))``
* ``pi_k = (1/n) sum_i r_ik / r_i`` (every unit with a rating, including single ratings)
* the coefficient is ``(p_a - p_e) / (1 - p_e)``.

Standard error (Gwet 2008; 2014, ch. 5), by linearisation over units::

    c_i  = (n / n2) (p_a|i - p_e [r_i >= 2]) / (1 - p_e)
    c*_i = c_i - 2 (1 - c) (p_e|i - p_e) / (1 - p_e)
    var  = sum_i (c*_i - c)^2 / (n (n - 1))

where ``n2`` counts the units with two ratings or more and ``p_e|i`` is unit i's
contribution to ``p_e`` (constant for Brennan-Prediger and percent agreement).
"""

from __future__ import annotations

import numpy as np

from raterlab.agreement._matrix import AgreementUndefined, Ratings
from raterlab.agreement._stats import AgreementResult, UnitStatistic, divide, finite


def _chance(pi: np.ndarray, weights: np.ndarray, chance: str) -> np.ndarray:
    q = weights.shape[0]
    if chance == "fleiss":
        return np.einsum("...k,kl,...l->...", pi, weights, pi)
    if chance == "gwet":
        return weights.sum() / (q * (q - 1)) * (pi * (1 - pi)).sum(axis=-1)
    if chance == "uniform":
        return np.full(pi.shape[:-1], weights.sum() / q**2)
    return np.zeros(pi.shape[:-1])


def multirater_statistic(r: Ratings, weights: np.ndarray, chance: str) -> UnitStatistic:
    """Per-unit ``[p_a|i [r_i >= 2], [r_i >= 2], 1, r_i1 / r_i .. r_iq / r_i]``."""
    counts = r.count_matrix()
    rated = r.rated.astype(float)
    paired = rated >= 2
    agreement = (counts * (counts @ weights.T - 1)) @ np.ones(r.n_categories)
    pa_unit = np.where(paired, agreement / np.maximum(rated * (rated - 1), 1), 0.0)
    values = np.column_stack([pa_unit, paired, np.ones(r.n_units), counts / rated[:, None]])

    def combine(t: np.ndarray) -> np.ndarray:
        pa = divide(t[..., 0], t[..., 1])
        pe = _chance(divide(t[..., 3:], t[..., 2, None]), weights, chance)
        return divide(pa - pe, 1 - pe)

    return UnitStatistic(values, combine)


def validate(r: Ratings, coefficient: str, chance: str) -> None:
    r.require_raters(coefficient)
    if not (r.rated >= 2).any():
        raise AgreementUndefined(
            f"{coefficient} needs at least one unit with two or more ratings; "
            "every unit has a single rating."
        )
    if chance == "fleiss":
        r.require_categories(coefficient, r.tallies.sum(axis=1))
    elif chance in ("gwet", "uniform") and r.n_categories < 2:
        raise AgreementUndefined(
            f"{coefficient} is undefined on a one-category scale "
            f"({r.categories[0]!r}); declare the full scale with categories=[...]."
        )


def _unit_parts(r: Ratings, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(p_a|i [r_i >= 2], [r_i >= 2], r_ik / r_i)``, the last as a ``q x units`` array,
    from the tallies (the columns of :func:`multirater_statistic`, without stacking them)."""
    counts = r.tallies.astype(float)
    rated = r.rated.astype(float)
    paired = rated >= 2
    agreement = np.ones(r.n_categories) @ (counts * (weights @ counts - 1))
    pa_unit = agreement / np.maximum(rated * (rated - 1), 1) * paired
    return pa_unit, paired, counts / rated


def multirater_result(name: str, r: Ratings, weights: np.ndarray, chance: str) -> AgreementResult:
    """Estimate with ``p_a``, ``p_e`` and Gwet's linearised standard error, from the tallies
    (the totals of :func:`multirater_statistic`, computed without its per-unit columns)."""
    pa_unit, paired, shares = _unit_parts(r, weights)
    n = r.n_units
    n2 = int(paired.sum())
    pa = pa_unit.sum() / n2
    pi = shares.sum(axis=1) / n
    pe = float(_chance(pi, weights, chance))
    coefficient = finite(float(divide(pa - pe, 1 - pe)))

    q = r.n_categories
    if chance == "fleiss":
        pe_unit = ((weights + weights.T) / 2 @ pi) @ shares
    elif chance == "gwet":
        pe_unit = weights.sum() / (q * (q - 1)) * ((1 - pi) @ shares)
    else:
        pe_unit = np.full(n, pe)
    unit = (n / n2) * (pa_unit - pe * paired) / (1 - pe)
    unit -= 2 * (1 - coefficient) * (pe_unit - pe) / (1 - pe)
    se = float(np.sqrt(((unit - coefficient) ** 2).sum() / (n * (n - 1)))) if n > 1 else None
    return AgreementResult(name, coefficient, n2, r.n_raters, float(pa), pe, se)
