r"""How many human labels a prediction-powered (PPI++) interval of a mean needs, given how
well a judge tracks the humans in a pilot.

With :math:`n` human labels :math:`Y_i` (judged too, :math:`f_i`) and :math:`N` items only
the judge labels (:math:`\tilde f_j`), the power-tuned PPI estimate of the humans' mean is
:math:`\hat\theta_\lambda = \bar Y + \lambda(\bar{\tilde f} - \bar f)`, whose variance is

.. math::
   V(\lambda) = \frac{\sigma_Y^2 - 2\lambda\,\mathrm{cov}(Y, f) + \lambda^2\sigma_f^2}{n}
              + \frac{\lambda^2 \sigma_f^2}{N}.

Its minimum, at :math:`\lambda^* = \mathrm{cov}(Y, f) / (\sigma_f^2 (1 + n/N))`, is

.. math::
   V^* = \frac{\sigma_Y^2}{n}\Bigl(1 - \rho^2 \frac{N}{N + n}\Bigr),

with :math:`\rho` the judge-human correlation: it depends on :math:`\sigma_Y` and
:math:`\rho` only, and tends to :math:`\sigma_Y^2 (1 - \rho^2)/n` as :math:`N \to \infty`.
The interval :math:`\hat\theta \pm z_{1-a/2}\sqrt{V^*}` has width :math:`W` when
:math:`n` solves :math:`n^2 + n(N - A) - A N (1 - \rho^2) = 0` with
:math:`A = \sigma_Y^2 (2 z / W)^2` (so :math:`n = A(1 - \rho^2)` for :math:`N = \infty`),
rounded up. The classical interval from the humans alone needs :math:`A`. ``ppi_py``
(``ppi_mean_ci``, which the tests hold the plan to) estimates :math:`\lambda^*` from the data
and clips it to [0, 1]; the plan assumes the clip does not bind, true when the judge's
scores spread at least :math:`\rho` times as much as the humans' (:math:`\sigma_f \ge \rho
\sigma_Y`). A binary label of rate :math:`p` has :math:`\sigma_Y^2 = p(1 - p)`.

Reference: Angelopoulos, A. N., Duchi, J. C. & Zrnic, T. (2023). PPI++: Efficient
prediction-powered inference. arXiv:2311.01453 (Example 6.1, the mean).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from scipy import stats

__all__ = ["JudgePlan", "plan_judge", "ppi_variance"]


@dataclass(frozen=True)
class JudgePlan:
    """The human labels a PPI interval of ``ci_width`` needs, against the classical one."""

    correlation: float
    sd: float
    ci_width: float
    confidence: float
    n_unlabeled: int | None
    """Items the judge alone labels; ``None`` for as many as wanted (:math:`N = \\infty`)."""
    n_labels: int
    """Human labels the PPI interval needs."""
    n_labels_classical: int
    """Human labels the classical (humans only) interval needs."""
    n_saved: int
    saved_share: float
    lam: float
    r"""The power-tuning parameter at ``n_labels``, for a judge whose scores spread as much
    as the humans' (:math:`\sigma_f = \sigma_Y`)."""
    planned_width: float
    """The PPI interval's width at ``n_labels``."""

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def ppi_variance(sd: float, correlation: float, n: float, n_unlabeled: float | None) -> float:
    """:math:`V^*`, the power-tuned PPI estimate's variance (module docstring)."""
    kept = 1.0 if n_unlabeled is None else n_unlabeled / (n_unlabeled + n)
    return sd**2 * (1 - correlation**2 * kept) / n


def plan_judge(
    correlation: float,
    ci_width: float,
    sd: float,
    n_unlabeled: int | None = None,
    confidence: float = 0.95,
) -> JudgePlan:
    """Human labels for a PPI interval of the mean of width ``ci_width``.

    >>> plan = plan_judge(0.8, 0.2, sd=1.0)
    >>> plan.n_labels_classical, plan.n_labels
    (385, 139)
    """
    _check(correlation, ci_width, sd, n_unlabeled, confidence)
    z = stats.norm.ppf(0.5 + confidence / 2)
    classical = sd**2 * (2 * z / ci_width) ** 2
    if n_unlabeled is None:
        n_exact = classical * (1 - correlation**2)
    else:
        b = n_unlabeled - classical
        n_exact = (-b + math.sqrt(b**2 + 4 * classical * n_unlabeled * (1 - correlation**2))) / 2
    n = max(2, math.ceil(n_exact))
    n_classical = max(2, math.ceil(classical))
    kept = 1.0 if n_unlabeled is None else n_unlabeled / (n_unlabeled + n)
    return JudgePlan(
        correlation=correlation,
        sd=sd,
        ci_width=ci_width,
        confidence=confidence,
        n_unlabeled=n_unlabeled,
        n_labels=n,
        n_labels_classical=n_classical,
        n_saved=n_classical - n,
        saved_share=(n_classical - n) / n_classical,
        lam=correlation * kept,
        planned_width=2 * z * math.sqrt(ppi_variance(sd, correlation, n, n_unlabeled)),
    )


def _check(
    correlation: float, ci_width: float, sd: float, n_unlabeled: int | None, confidence: float
) -> None:
    if not 0 <= correlation <= 1:
        raise ValueError(
            f"the judge-human correlation must be between 0 and 1; got {correlation} (a judge "
            "that runs against the humans gets no weight: lambda is clipped to 0)"
        )
    if not ci_width > 0:
        raise ValueError(f"the interval width must be positive; got {ci_width}")
    if not sd > 0:
        raise ValueError(f"the humans' standard deviation must be positive; got {sd}")
    if n_unlabeled is not None and n_unlabeled < 1:
        raise ValueError(f"the unlabelled items must be at least 1; got {n_unlabeled}")
    if not 0 < confidence < 1:
        raise ValueError(f"the confidence must be between 0 and 1; got {confidence}")
