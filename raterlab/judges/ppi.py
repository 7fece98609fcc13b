"""Prediction-powered inference for a mean (PPI++ with power tuning), beside the classical
human-only estimate.

Humans rated ``n`` labelled units (``y``, the per-unit human aggregate); a judge scored those
(``yhat``) and ``N`` more that no human rated (``yhat_unlabeled``). With the power-tuning
parameter ``lam``, the estimate of the mean of the human aggregate over all units is

    theta = lam * mean(yhat_unlabeled) + mean(y - lam * yhat)

with standard error ``se = sqrt(var(lam * yhat_unlabeled) / N + var(y - lam * yhat) / n)``
(variances with divisor n, resp. N) and the normal interval ``theta -/+ z * se``,
``z = Phi^-1(1 - (1 - confidence) / 2)``. ``lam = 0`` is the classical estimate (the mean of
``y``, se ``sd(y) / sqrt(n)``), ``lam = 1`` plain PPI (Angelopoulos et al. 2023). By default
``lam`` is the variance-minimising value of PPI++ (Angelopoulos, Duchi & Zrnic 2023, sec. 2),
computed as ``ppi_py.ppi_mean_ci`` computes it:

    lam = cov(y, yhat) / ((1 + n / N) * var(yhat, yhat_unlabeled))

(the covariance with divisor n over the labelled units, the variance with divisor n + N - 1
over all n + N judge scores), clipped to [0, 1]. A judge whose scores are all equal carries
no information: ``lam`` is 0 there (ppi_py gives NaN).

The effective number of human labels is ``n * var_classical / var_ppi``: how many human
labels the classical estimate would need for an interval as narrow as PPI's.

References: A. N. Angelopoulos, S. Bates, C. Fannjiang, M. I. Jordan, T. Zrnic (2023).
Prediction-powered inference. Science 382(6671), 669-674. A. N. Angelopoulos, J. C. Duchi,
T. Zrnic (2023). PPI++: Efficient prediction-powered inference. arXiv:2311.01453.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.stats import norm


class PPIUndefined(ValueError):
    """The estimate is not defined on these data (too few labelled or unlabelled units, a
    value that is not a finite number); the message says which."""


@dataclass(frozen=True)
class MeanEstimate:
    """A prediction-powered mean beside the classical one, and what the judge is worth."""

    estimate: float
    ci_low: float
    ci_high: float
    classical_estimate: float
    classical_ci_low: float
    classical_ci_high: float
    lam: float
    effective_n: float
    n_labeled: int
    n_unlabeled: int


def _z(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise PPIUndefined(f"confidence must be between 0 and 1, not {confidence}")
    return float(norm.ppf(1 - (1 - confidence) / 2))


def _checked(
    y: np.ndarray, yhat: np.ndarray, yhat_unlabeled: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    y, yhat, unl = (np.asarray(a, dtype=float).ravel() for a in (y, yhat, yhat_unlabeled))
    if len(y) != len(yhat):
        raise PPIUndefined(f"{len(y)} human values but {len(yhat)} judge scores on them")
    if len(y) < 2:
        raise PPIUndefined(f"{len(y)} labelled unit(s): at least 2 are needed")
    if len(unl) < 1:
        raise PPIUndefined(
            "no unlabelled units: every unit the judge scored has human labels (PPI needs "
            "units that only the judge scored)"
        )
    for name, values in (("human", y), ("judge", yhat), ("unlabelled judge", unl)):
        if not np.isfinite(values).all():
            raise PPIUndefined(f"a {name} value is not a finite number")
    return y, yhat, unl


def power_tuning(y: np.ndarray, yhat: np.ndarray, yhat_unlabeled: np.ndarray) -> float:
    """The PPI++ ``lam`` of the module docstring, in [0, 1] (0 for a constant judge)."""
    y, yhat, unl = _checked(y, yhat, yhat_unlabeled)
    n, big_n = len(y), len(unl)
    cov = np.mean((y - y.mean()) * (yhat - yhat.mean()))
    var = np.var(np.concatenate([yhat, unl]), ddof=1)
    if var == 0:
        return 0.0
    return float(np.clip(cov / ((1 + n / big_n) * var), 0.0, 1.0))


def classical_mean(y: np.ndarray, confidence: float = 0.95) -> tuple[float, float, float]:
    """The mean of ``y`` with its normal interval ``mean -/+ z * sd(y) / sqrt(n)`` (sd with
    divisor n, as ``ppi_py.classical_mean_ci``): ``(estimate, ci_low, ci_high)``."""
    y = np.asarray(y, dtype=float).ravel()
    if len(y) < 2 or not np.isfinite(y).all():
        raise PPIUndefined("the classical mean needs at least 2 finite human values")
    mean, half = y.mean(), _z(confidence) * y.std() / np.sqrt(len(y))
    return float(mean), float(mean - half), float(mean + half)


def ppi_mean(
    y: np.ndarray,
    yhat: np.ndarray,
    yhat_unlabeled: np.ndarray,
    confidence: float = 0.95,
    lam: float | None = None,
) -> MeanEstimate:
    """The prediction-powered mean of the module docstring (``lam=None``: PPI++'s tuned
    value), its ``confidence`` interval, the classical estimate and interval from ``y``
    alone, and the effective number of human labels ``n * var_classical / var_ppi`` (NaN
    when the PPI variance is 0).

    Raises :class:`PPIUndefined` with fewer than 2 labelled or no unlabelled units, or a
    value that is not a finite number.

    >>> est = ppi_mean([1.0, 2.0, 3.0, 4.0], [1.5, 2.0, 3.5, 4.0], [2.0, 3.0, 2.5, 3.5])
    >>> round(est.estimate, 4), round(est.lam, 4), est.n_labeled, est.n_unlabeled
    (2.5, 0.7159, 4, 4)
    """
    y, yhat, unl = _checked(y, yhat, yhat_unlabeled)
    z = _z(confidence)
    lam = power_tuning(y, yhat, unl) if lam is None else float(lam)
    estimate = lam * unl.mean() + (y - lam * yhat).mean()
    se = np.sqrt(np.var(lam * unl) / len(unl) + np.var(y - lam * yhat) / len(y))
    mean, low, high = classical_mean(y, confidence)
    return MeanEstimate(
        estimate=float(estimate),
        ci_low=float(estimate - z * se),
        ci_high=float(estimate + z * se),
        classical_estimate=mean,
        classical_ci_low=low,
        classical_ci_high=high,
        lam=lam,
        effective_n=float(np.var(y) / se**2) if se > 0 else float("nan"),
        n_labeled=len(y),
        n_unlabeled=len(unl),
    )
