r"""How many units an agreement coefficient's interval of a given width needs, by simulation.

**The generative model** (Cohen's "right or random" latent-class model, with every category
equally common): each unit has a true category drawn uniformly from :math:`K`; each of its
:math:`R` raters reports it with probability :math:`r` and otherwise a category drawn
uniformly at random. Two raters then agree with probability :math:`p_o = r^2 + (1 - r^2)/K`
and their chance agreement is :math:`p_e = 1/K`, so every chance-corrected coefficient
raterlab computes (Cohen's, Scott's, Fleiss', Conger's and Light's kappas, Krippendorff's
alpha at any level, Gwet's AC1 and AC2, Brennan-Prediger, weighted or not, and the ICC of
the category scores) has the population value :math:`r^2`: one rater's report is the other's
with probability :math:`r^2` and independent of it otherwise, so observed disagreement is
:math:`1 - r^2` times chance disagreement under any weights. The planner sets
:math:`r = \sqrt{V}` for an expected value :math:`V`, and for percent agreement (which is
:math:`p_o` itself) :math:`r^2 = (V - 1/K)/(1 - 1/K)`. Skewed categories make kappa-type
intervals wider than this model says (the prevalence paradox); the plan is for balanced ones.

**The width** at :math:`n` units is :math:`2 z_{1-a/2}` times the standard deviation of the
coefficient over ``simulations`` simulated studies of :math:`n` units (every unit rated by
all :math:`R` raters), each computed by raterlab's own coefficient on its own units
(:data:`raterlab.agreement.bootstrap.STATISTICS`: one study's coefficient is its per-unit
statistics summed and combined, so many studies are one pass). It is the width of a
Wald-type interval with the coefficient's true sampling error; a bootstrap interval of one
study estimates the same spread. Studies on which the coefficient is undefined (every rating
one category) are left out and counted.

**The search**: the width at 50 units and the :math:`1/\sqrt{n}` law give a first guess; it
is bracketed (halving or doubling until the width is above, then at or below, the target)
and bisected to within 1% of :math:`n`. Every width is simulated from the same ``seed``, so
the plan is the same on every run; and study :math:`s` is drawn from its own stream
(``numpy.random.default_rng([seed, s])``), its first units the same whatever its size, so
the widths at two sizes share their studies' units (common random numbers) and the width
falls smoothly as units are added.

Reference: Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
Psychological Measurement, 20(1), 37-46 (the model of agreement beyond chance); Zou, G. Y.
(2012). Sample size formulas for estimating intraclass correlation coefficients with precision
and assurance. Statistics in Medicine, 31(29), 3972-3981 (planning by interval width).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass

import numpy as np
from scipy import sparse, stats

from raterlab.agreement.bootstrap import STATISTICS
from raterlab.agreement.by_field import COEFFICIENTS
from raterlab.agreement.names import LEVELS

__all__ = [
    "MODEL",
    "SIMULATIONS",
    "AgreementPlan",
    "SimulatedWidth",
    "coefficient_options",
    "plan_agreement",
    "rater_accuracy",
    "simulate_ratings",
    "simulated_width",
]

MODEL = "uniform right-or-random latent class (every category equally common)"
"""The generative model, in a line (module docstring)."""
SIMULATIONS = 2000
"""Studies simulated per size by default: the width's Monte Carlo error is about
1/sqrt(2 x 2000) = 1.6%, the plan's about twice that."""
FIRST_GUESS_UNITS = 50
"""Units the search simulates first."""
MAX_UNITS = 1_000_000
_CHUNK_RATINGS = 1 << 19
"""Ratings simulated at once (the studies of one chunk; at least one study). Each study is
drawn from its own seed and summed on its own, so the widths do not depend on it (tested);
an ordinal alpha on five categories keeps 15 numbers per unit of a chunk, and chunks of
1 << 21 ratings made most of the report's peak memory at 30,000 items (benchmarks/README.md,
"End to end")."""


@dataclass(frozen=True)
class SimulatedWidth:
    """The coefficient over simulated studies of ``n_units``."""

    n_units: int
    mean: float
    sd: float
    ci_width: float
    n_undefined: int


@dataclass(frozen=True)
class AgreementPlan:
    """The units a coefficient's interval of width ``ci_width`` needs."""

    coefficient: str
    options: str
    expected: float
    ci_width: float
    n_raters: int
    n_categories: int
    level: str
    confidence: float
    simulations: int
    seed: int
    n_units: int
    planned_width: float
    """The simulated width at ``n_units`` (at most ``ci_width``)."""
    simulated_mean: float
    """The coefficient's mean over the studies of ``n_units`` (close to ``expected``)."""
    model: str

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def coefficient_options(spec: str, level: str, n_categories: int) -> tuple[str, dict[str, object]]:
    """``"cohen_kappa:quadratic"`` -> ``("cohen_kappa", {"weights": "quadratic", ...})``: a
    coefficient's name and the options its statistic takes, the option defaulting to the
    level's as :func:`raterlab.agreement.by_field.agreement_table` defaults it, the scale
    ``1..n_categories`` given where the coefficient takes one."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}; got {level!r}")
    name, _, value = spec.partition(":")
    if name not in COEFFICIENTS or name not in STATISTICS:
        raise ValueError(f"unknown coefficient {name!r}; choose from {', '.join(COEFFICIENTS)}")
    coefficient = COEFFICIENTS[name]
    if value and coefficient.option is None:
        raise ValueError(f"{name} takes no option; got {spec!r}")
    options: dict[str, object] = {}
    if coefficient.option is not None:
        chosen = value or coefficient.default(level)
        if chosen is not None:
            options[coefficient.option] = chosen
    if coefficient.takes_categories:
        options["categories"] = list(range(1, n_categories + 1))
    return name, options


def rater_accuracy(coefficient: str, expected: float, n_categories: int) -> float:
    """:math:`r`, the chance a rater reports a unit's true category, that gives the
    coefficient the population value ``expected`` (module docstring)."""
    chance = 1 / n_categories
    if coefficient == "percent_agreement":
        if not chance <= expected <= 1:
            raise ValueError(
                f"expected percent agreement must be between 1/K = {chance:.3f} and 1 "
                f"under the model; got {expected}"
            )
        return math.sqrt((expected - chance) / (1 - chance))
    if not 0 < expected <= 1:
        raise ValueError(f"the expected {coefficient} must be in (0, 1]; got {expected}")
    return math.sqrt(expected)


def simulate_ratings(
    rng: np.random.Generator, n_units: int, n_raters: int, n_categories: int, accuracy: float
) -> np.ndarray:
    """``n_units x n_raters`` ratings 1..K of the model: the true category with probability
    ``accuracy``, else a uniformly random one. Each unit takes ``1 + 2 n_raters`` uniform
    draws in turn, so the first ``m`` units drawn from a seed are the same for any
    ``n_units >= m``: a larger study extends a smaller one."""
    u = rng.random((n_units, 1 + 2 * n_raters))
    truth = np.floor(u[:, :1] * n_categories)
    guess = np.floor(u[:, 1 : 1 + n_raters] * n_categories)
    return 1 + np.where(u[:, 1 + n_raters :] < accuracy, truth, guess)


def simulated_width(
    spec: str,
    expected: float,
    n_units: int,
    n_raters: int,
    n_categories: int,
    level: str = "nominal",
    confidence: float = 0.95,
    simulations: int = SIMULATIONS,
    seed: int = 0,
) -> SimulatedWidth:
    """The coefficient's interval width on ``n_units``, over ``simulations`` studies
    (module docstring)."""
    _check_design(n_units, n_raters, n_categories, simulations)
    if not 0 < confidence < 1:
        raise ValueError(f"the confidence must be between 0 and 1; got {confidence}")
    name, options = coefficient_options(spec, level, n_categories)
    accuracy = rater_accuracy(name, expected, n_categories)
    per_chunk = max(1, _CHUNK_RATINGS // (n_units * n_raters))
    estimates = []
    for start in range(0, simulations, per_chunk):
        studies = range(start, min(start + per_chunk, simulations))
        ratings = np.concatenate(
            [
                simulate_ratings(
                    np.random.default_rng([seed, study]), n_units, n_raters, n_categories, accuracy
                )
                for study in studies
            ]
        )
        estimates.append(_per_study(ratings, len(studies), name, options))
    values = np.concatenate(estimates)
    defined = values[np.isfinite(values)]
    if defined.size < 2:
        raise ValueError(
            f"{name} is undefined on almost every simulated study of {n_units} units: "
            "plan for more units"
        )
    sd = float(defined.std(ddof=1))
    z = stats.norm.ppf(0.5 + confidence / 2)
    return SimulatedWidth(
        n_units, float(defined.mean()), sd, float(2 * z * sd), values.size - defined.size
    )


def _per_study(
    ratings: np.ndarray, studies: int, name: str, options: dict[str, object]
) -> np.ndarray:
    """The coefficient of each of ``studies`` equal consecutive blocks of rows: the sums of
    the blocks' per-unit statistics, combined (every coefficient of :data:`STATISTICS` named
    in :data:`~raterlab.agreement.by_field.COEFFICIENTS` is a
    :class:`~raterlab.agreement._stats.UnitStatistic`)."""
    statistic = STATISTICS[name](ratings, **options)
    n_units = ratings.shape[0] // studies
    block = sparse.csr_array(
        (
            np.ones(ratings.shape[0]),
            (np.arange(ratings.shape[0]) // n_units, np.arange(ratings.shape[0])),
        ),
        shape=(studies, ratings.shape[0]),
    )
    totals = block @ statistic.values
    totals = totals.toarray() if sparse.issparse(totals) else np.asarray(totals)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(statistic.combine(totals), dtype=float)


def plan_agreement(
    spec: str,
    expected: float,
    ci_width: float,
    n_raters: int,
    n_categories: int,
    level: str = "nominal",
    confidence: float = 0.95,
    simulations: int = SIMULATIONS,
    seed: int = 0,
    progress: Callable[[SimulatedWidth], None] | None = None,
) -> AgreementPlan:
    """The fewest units (to 1%) whose simulated interval is at most ``ci_width`` wide.

    ``spec`` is a coefficient name, optionally with its option (``cohen_kappa:quadratic``,
    ``krippendorff_alpha:ordinal``); ``progress`` is called with each width simulated.
    """
    if not 0 < ci_width < 2:
        raise ValueError(f"the interval width must be between 0 and 2; got {ci_width}")

    def width(n: int) -> SimulatedWidth:
        result = simulated_width(
            spec, expected, n, n_raters, n_categories, level, confidence, simulations, seed
        )
        if progress is not None:
            progress(result)
        return result

    first = width(FIRST_GUESS_UNITS)
    guess = max(2, math.ceil(FIRST_GUESS_UNITS * (first.ci_width / ci_width) ** 2))
    low, high = _bracket(width, guess, ci_width)
    while high[0] - low > max(1, 0.01 * high[0]):
        middle = width((low + high[0]) // 2)
        if middle.ci_width <= ci_width:
            high = (middle.n_units, middle)
        else:
            low = middle.n_units
    name, options = coefficient_options(spec, level, n_categories)
    return AgreementPlan(
        coefficient=name,
        options=", ".join(f"{k}={v}" for k, v in options.items() if k != "categories"),
        expected=expected,
        ci_width=ci_width,
        n_raters=n_raters,
        n_categories=n_categories,
        level=level,
        confidence=confidence,
        simulations=simulations,
        seed=seed,
        n_units=high[0],
        planned_width=float(high[1].ci_width),
        simulated_mean=high[1].mean,
        model=MODEL,
    )


def _bracket(
    width: Callable[[int], SimulatedWidth], guess: int, target: float
) -> tuple[int, tuple[int, SimulatedWidth]]:
    """``low`` units whose width is above ``target`` (1 when none is) and ``high`` units
    (with their width) at or below it, from ``guess`` by halving or doubling."""
    at_guess = width(guess)
    if at_guess.ci_width <= target:
        high, low = (guess, at_guess), guess // 2
        while low >= 2:
            below = width(low)
            if below.ci_width > target:
                return low, high
            high, low = (low, below), low // 2
        return 1, high
    low, n = guess, guess * 2
    while n <= MAX_UNITS:
        above = width(n)
        if above.ci_width <= target:
            return low, (n, above)
        low, n = n, n * 2
    raise ValueError(f"more than {MAX_UNITS:,} units would be needed for a width of {target}")


def _check_design(n_units: int, n_raters: int, n_categories: int, simulations: int) -> None:
    if n_units < 2:
        raise ValueError(f"a study needs at least 2 units; got {n_units}")
    if n_raters < 2:
        raise ValueError(f"agreement needs at least 2 raters per unit; got {n_raters}")
    if n_categories < 2:
        raise ValueError(f"agreement needs at least 2 categories; got {n_categories}")
    if simulations < 2:
        raise ValueError(f"at least 2 simulations are needed; got {simulations}")
