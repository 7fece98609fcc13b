r"""How many pairs (or items per condition) an A-vs-B comparison needs: the power of a t-test.

The comparison of two conditions is planned as a t-test of a standardized effect size
:math:`d` (Cohen's d: the mean difference over its standard deviation; for paired data the
standard deviation of the pairs' differences):

- **paired** (``paired=True``): the one-sample t-test of the pairs' differences,
  :math:`\lambda = d\sqrt{n}`, :math:`\nu = n - 1` for :math:`n` pairs;
- **independent groups**: the two-sample t-test with equal groups of :math:`n`,
  :math:`\lambda = d\sqrt{n/2}`, :math:`\nu = 2n - 2`.

The power at level :math:`\alpha` is the noncentral t's mass beyond the critical values,

.. math::
   1 - \beta = P(T_{\nu,\lambda} > t_{\nu, 1-\alpha/2}) + P(T_{\nu,\lambda} < t_{\nu, \alpha/2})

two-sided (``alternative="larger"`` keeps the upper term at :math:`t_{\nu, 1-\alpha}`,
``"smaller"`` the lower one), and :math:`n` solves power = target (Brent's method on the
continuous :math:`n`), rounded up. This is the computation of statsmodels'
``TTestPower().solve_power`` and ``TTestIndPower().solve_power(ratio=1)`` (Cohen 1988,
ch. 2), which the tests hold it to.

A rank test (``test="wilcoxon"``: the signed-rank test of paired data, the rank-sum test of
independent groups) is planned through its asymptotic relative efficiency against the t-test
under normal data, :math:`3/\pi \approx 0.955` (Hodges & Lehmann 1956): it needs
:math:`n_t \pi / 3` observations where the t-test needs :math:`n_t`. Under heavier-tailed
data the rank test needs fewer, never fewer than :math:`0.864\,n_t` of any distribution, so
the figure is the normal case, not a bound.

References: Cohen, J. (1988). Statistical Power Analysis for the Behavioral Sciences (2nd
ed.), Erlbaum. Hodges, J. L. & Lehmann, E. L. (1956). The efficiency of some nonparametric
competitors of the t-test. Annals of Mathematical Statistics, 27(2), 324-335.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from scipy import optimize, special, stats

__all__ = ["ALTERNATIVES", "TESTS", "WILCOXON_ARE", "ComparisonPlan", "plan_comparison", "power"]

ALTERNATIVES = ("two-sided", "larger", "smaller", "one-sided")
"""The alternative hypotheses, named as statsmodels names them; ``one-sided`` is the one in
the direction of the effect (``larger`` for a positive effect size, ``smaller`` for a
negative one)."""
TESTS = ("t", "wilcoxon")
WILCOXON_ARE = 3 / math.pi
"""Asymptotic relative efficiency of the Wilcoxon tests to the t-tests under normal data."""
_MIN_N = 2.0
_MAX_N = 1e8


@dataclass(frozen=True)
class ComparisonPlan:
    """The size an A-vs-B comparison needs: ``n_pairs`` pairs, or that many items per
    condition for independent groups (``n_per_group``; the two are equal)."""

    design: str
    """``paired`` or ``independent``."""
    test: str
    """The test assumed, in words."""
    effect_size: float
    power: float
    alpha: float
    alternative: str
    n_pairs: int
    n_per_group: int
    n_items: int
    """Items rated in all (both conditions)."""
    n_exact: float
    """The continuous solution before rounding up."""
    achieved_power: float
    """The power at the rounded ``n`` (for the Wilcoxon test, the t-test's at ``n`` times
    the relative efficiency)."""

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def power(
    effect_size: float,
    n: float,
    alpha: float,
    paired: bool = True,
    alternative: str = "two-sided",
) -> float:
    """The t-test's power with ``n`` pairs (``paired``) or ``n`` per group (module docstring)."""
    _check_alternative(alternative)
    if alternative == "one-sided":
        alternative = "larger" if effect_size > 0 else "smaller"
    if paired:
        df, noncentrality = n - 1, effect_size * math.sqrt(n)
    else:
        df, noncentrality = 2 * n - 2, effect_size * math.sqrt(n / 2)
    tail = alpha / 2 if alternative == "two-sided" else alpha
    total = 0.0
    if alternative in ("two-sided", "larger"):
        total += 1 - _nct_cdf(stats.t.isf(tail, df), df, noncentrality)
    if alternative in ("two-sided", "smaller"):
        total += _nct_cdf(stats.t.ppf(tail, df), df, noncentrality)
    return float(total)


def _nct_cdf(x: float, df: float, noncentrality: float) -> float:
    r"""The noncentral t's distribution function; where SciPy's ``nctdtr`` fails (NaN, in
    a far tail with tens of thousands of degrees of freedom) the normal limit
    :math:`\Phi(x - \lambda)`, to which it converges as the degrees of freedom grow."""
    value = special.nctdtr(df, noncentrality, x)
    return float(special.ndtr(x - noncentrality)) if math.isnan(value) else float(value)


def plan_comparison(
    effect_size: float,
    power_target: float,
    alpha: float = 0.05,
    paired: bool = True,
    alternative: str = "two-sided",
    test: str = "t",
) -> ComparisonPlan:
    """The pairs (``paired``) or items per group an A-vs-B comparison needs to detect
    ``effect_size`` with power ``power_target`` at level ``alpha``.

    >>> plan_comparison(0.5, 0.8, 0.05, paired=True).n_pairs
    34
    >>> plan_comparison(0.5, 0.8, 0.05, paired=False).n_per_group
    64
    """
    _check(effect_size, power_target, alpha, alternative, test)
    if alternative == "one-sided":
        alternative = "larger" if effect_size > 0 else "smaller"

    def gap(n: float) -> float:
        return power(effect_size, n, alpha, paired, alternative) - power_target

    if gap(_MIN_N) >= 0:
        n_exact = _MIN_N
    else:
        upper = _MIN_N
        while not gap(upper) >= 0:  # doubling (a NaN power past reach stops it too)
            upper *= 2
            if upper > _MAX_N:
                raise ValueError(
                    f"power {power_target} is out of reach for effect size {effect_size} "
                    f"({alternative}) with up to {_MAX_N:.0e} per group: check the sign of "
                    "the effect against the alternative"
                )
        n_exact = optimize.brentq(gap, upper / 2, upper, xtol=1e-10, rtol=1e-14)
    if test == "wilcoxon":
        n_exact /= WILCOXON_ARE
    n = math.ceil(n_exact)
    efficient_n = n * WILCOXON_ARE if test == "wilcoxon" else n
    return ComparisonPlan(
        design="paired" if paired else "independent",
        test=_test_name(test, paired),
        effect_size=effect_size,
        power=power_target,
        alpha=alpha,
        alternative=alternative,
        n_pairs=n,
        n_per_group=n,
        n_items=2 * n,
        n_exact=n_exact,
        achieved_power=power(effect_size, max(efficient_n, _MIN_N), alpha, paired, alternative),
    )


def _test_name(test: str, paired: bool) -> str:
    if test == "t":
        return "paired t-test" if paired else "two-sample t-test (equal variances)"
    rank = "Wilcoxon signed-rank test" if paired else "Wilcoxon rank-sum (Mann-Whitney) test"
    return f"{rank}, via its asymptotic relative efficiency 3/pi to the t-test under normality"


def _check_alternative(alternative: str) -> None:
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative must be one of {ALTERNATIVES}; got {alternative!r}")


def _check(
    effect_size: float, power_target: float, alpha: float, alternative: str, test: str
) -> None:
    _check_alternative(alternative)
    if test not in TESTS:
        raise ValueError(f"test must be one of {TESTS}; got {test!r}")
    if effect_size == 0 or not math.isfinite(effect_size):
        raise ValueError(f"effect size must be a nonzero number; got {effect_size}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1; got {alpha}")
    if not alpha < power_target < 1:
        raise ValueError(f"power must be between alpha ({alpha}) and 1; got {power_target}")
