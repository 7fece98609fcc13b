"""Intraclass correlation coefficients (Shrout & Fleiss 1979)."""

from __future__ import annotations

import numpy as np

from raterlab.agreement._matrix import AgreementUndefined, as_ratings
from raterlab.agreement._stats import AgreementResult, UnitStatistic, divide

__all__ = ["ICC_KINDS", "icc", "icc_statistic"]

ICC_KINDS = ("ICC(1,1)", "ICC(2,1)", "ICC(3,1)", "ICC(1,k)", "ICC(2,k)", "ICC(3,k)")


def _mean_squares(t: np.ndarray, k: int) -> tuple[np.ndarray, ...]:
    """Between-units, within-units, between-raters and residual mean squares from totals."""
    n, grand = t[..., 0], t[..., 1]
    correction = divide(grand**2, n * k)
    total = t[..., 3] - correction
    rows = divide(t[..., 2], k) - correction
    columns = divide((t[..., 4:] ** 2).sum(axis=-1), n) - correction
    bms = divide(rows, n - 1)
    wms = divide(total - rows, n * (k - 1))
    jms = columns / (k - 1)
    ems = divide(total - rows - columns, (n - 1) * (k - 1))
    return n, bms, wms, jms, ems


def _icc(t: np.ndarray, k: int, kind: str) -> np.ndarray:
    n, bms, wms, jms, ems = _mean_squares(t, k)
    single = kind.endswith(",1)")
    if kind.startswith("ICC(1"):
        return divide(bms - wms, bms + (k - 1) * wms) if single else divide(bms - wms, bms)
    if kind.startswith("ICC(2"):
        raters = divide(jms - ems, n)
        if single:
            return divide(bms - ems, bms + (k - 1) * ems + k * raters)
        return divide(bms - ems, bms + raters)
    return divide(bms - ems, bms + (k - 1) * ems) if single else divide(bms - ems, bms)


def icc_statistic(ratings: object, kind: str = "ICC(2,1)") -> UnitStatistic:
    """Per-unit ``[1, sum_j x_ij, (sum_j x_ij)^2, sum_j x_ij^2, x_i1 .. x_ik]``, complete units."""
    if kind not in ICC_KINDS:
        raise ValueError(f"kind must be one of {ICC_KINDS}; got {kind!r}")
    r = as_ratings(ratings)
    r.require_raters("The ICC")
    k = r.n_raters
    complete = r.rated == k
    if complete.sum() < 2:
        raise AgreementUndefined(
            f"The ICC uses only units rated by all {k} raters (listwise deletion); "
            f"{int(complete.sum())} unit(s) are complete, it needs two."
        )
    x = r.scale_scores("The ICC")[r.codes]
    x = np.where(complete[:, None], x - x[complete].mean(), 0.0)  # the ICC is shift-invariant
    if np.ptp(x[complete]) == 0:
        raise AgreementUndefined("The ICC is 0/0: every complete unit has the same rating.")
    s = x.sum(axis=1)
    values = np.column_stack([complete, s, s**2, (x**2).sum(axis=1), x])
    return UnitStatistic(values, lambda t: _icc(t, k, kind))


def icc(ratings: object, kind: str = "ICC(2,1)") -> AgreementResult:
    r"""Intraclass correlation of Shrout & Fleiss (1979) from a two-way ANOVA.

    With ``n`` units, ``k`` raters and the mean squares between units (BMS), within units
    (WMS), between raters (JMS) and residual (EMS):

    * ICC(1,1) = (BMS - WMS) / (BMS + (k-1) WMS): one-way random, each unit rated by
      different raters; ICC(1,k) = (BMS - WMS) / BMS for the mean of k ratings.
    * ICC(2,1) = (BMS - EMS) / (BMS + (k-1) EMS + k (JMS - EMS) / n): two-way random,
      absolute agreement; ICC(2,k) = (BMS - EMS) / (BMS + (JMS - EMS) / n).
    * ICC(3,1) = (BMS - EMS) / (BMS + (k-1) EMS): two-way mixed, consistency (fixed raters);
      ICC(3,k) = (BMS - EMS) / BMS.

    Ratings must be numbers (or declared-order labels, scored 1..q).

    Notes
    -----
    Missing data: listwise deletion, only units rated by every rater count (``n_units``).
    Raises :class:`AgreementUndefined` with fewer than two raters or complete units, or when
    all complete ratings are equal.

    References
    ----------
    Shrout, P. E., & Fleiss, J. L. (1979). Intraclass correlations: uses in assessing rater
    reliability. Psychological Bulletin, 86, 420-428.
    """
    r = as_ratings(ratings)
    statistic = icc_statistic(r, kind)
    complete = int((r.rated == r.n_raters).sum())
    return AgreementResult(kind, statistic.estimate(), complete, r.n_raters)
