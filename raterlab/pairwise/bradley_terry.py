r"""Bradley-Terry and Davidson strengths by maximum likelihood, from counts per pair.

Systems ``i`` and ``j`` have strengths :math:`\pi_i = e^{\theta_i}`. Bradley-Terry (1952):

.. math:: P(i \succ j) = \frac{\pi_i}{\pi_i + \pi_j}

Davidson (1970) adds ties with a parameter :math:`\nu \ge 0`:

.. math:: P(i \succ j) = \frac{\pi_i}{\pi_i + \pi_j + \nu\sqrt{\pi_i\pi_j}},\quad
   P(i = j) = \frac{\nu\sqrt{\pi_i\pi_j}}{\pi_i + \pi_j + \nu\sqrt{\pi_i\pi_j}}

(``nu = 0`` is Bradley-Terry). Dividing by :math:`\sqrt{\pi_i\pi_j}`, a pair with ``w_ij``
wins of ``i``, ``w_ji`` of ``j`` and ``t_ij`` ties adds to the log-likelihood, with
:math:`d = \theta_i - \theta_j` and :math:`\phi = \log\nu`,

.. math:: \ell_{ij} = (w_{ij} - w_{ji})\,d/2 + t_{ij}\,\phi
   - n_{ij}\log\left(2\cosh(d/2) + e^{\phi}\right),

which is concave in :math:`(\theta, \phi)` (a log-sum-exp of affine functions, negated), so
Newton's method with step halving finds the maximum. Identification: the likelihood depends on
differences only; the fit fixes the first system's :math:`\theta` at 0 and reports
``strength`` = :math:`\theta_i - \bar\theta` (log-strengths centred at mean 0).

Without ties the maximum exists iff every split of the systems into two groups has a member
of each that beat a member of the other (Ford 1957): the directed graph loser -> winner is
strongly connected. A tie bounds the difference of its two strengths as a win each way would,
so :func:`fit_pairs` counts it as an edge both ways (and needs a tie and a non-tie for a
finite, positive nu). When it is not (a system that never
loses, never wins, or a comparison graph in pieces), :func:`fit_pairs` raises
:class:`RankingUndefined` naming the systems, unless ``ridge > 0``: then it maximises
:math:`\ell - \tfrac{\lambda}{2}\sum_i \theta_i^2` (a normal prior with variance
:math:`1/\lambda` on each log-strength; its maximum has mean 0 by itself), which is finite.

References
----------
Bradley, R. A., & Terry, M. E. (1952). Rank analysis of incomplete block designs: I. The
method of paired comparisons. Biometrika, 39, 324-345.
Davidson, R. R. (1970). On extending the Bradley-Terry model to accommodate ties in paired
comparison experiments. JASA, 65, 317-328.
Ford, L. R. (1957). Solution of a ranking problem from binary comparisons. The American
Mathematical Monthly, 64(8), 28-33.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.sparse import coo_array
from scipy.sparse.csgraph import connected_components

BRADLEY_TERRY = "bradley_terry"
DAVIDSON = "davidson"
MODELS = (BRADLEY_TERRY, DAVIDSON)
_TOLERANCE = 1e-10
_MAX_ITERATIONS = 200


class RankingUndefined(ValueError):
    """The strengths have no maximum-likelihood estimate on these comparisons (the message
    says why and names the systems)."""


@dataclass(frozen=True)
class PairCounts:
    """Outcomes per unordered pair of ``systems``: ``i[k] < j[k]`` index the pair's systems,
    ``wins_i``/``wins_j`` count the wins of each, ``ties`` its ties (floats: a bootstrap
    resample weights them)."""

    systems: tuple[str, ...]
    i: np.ndarray
    j: np.ndarray
    wins_i: np.ndarray
    wins_j: np.ndarray
    ties: np.ndarray

    def with_counts(self, counts: np.ndarray) -> PairCounts:
        """The same pairs with counts ``counts`` (shape ``(pairs, 3)``: wins_i, wins_j, ties)."""
        return PairCounts(self.systems, self.i, self.j, counts[:, 0], counts[:, 1], counts[:, 2])

    @property
    def n(self) -> np.ndarray:
        return self.wins_i + self.wins_j + self.ties


@dataclass(frozen=True)
class Fit:
    """Fitted strengths: ``strength`` = log pi centred at mean 0, in the order of ``systems``;
    ``tie_parameter`` is Davidson's nu (0 for Bradley-Terry); ``ridge`` the lambda used
    (0: the maximum-likelihood estimate); ``log_likelihood`` without the ridge term."""

    systems: tuple[str, ...]
    strength: np.ndarray
    model: str
    tie_parameter: float
    ridge: float
    log_likelihood: float


def _existence_problem(counts: PairCounts) -> str | None:
    """Why the maximum-likelihood strengths do not exist, or ``None`` if they do."""
    k = len(counts.systems)
    names = np.array(counts.systems, dtype=object)
    met = counts.n > 0
    graph = coo_array((np.ones(met.sum()), (counts.i[met], counts.j[met])), shape=(k, k))
    pieces, piece = connected_components(graph, directed=False)
    if pieces > 1:
        groups = [sorted(names[piece == p].tolist()) for p in range(pieces)]
        return f"the comparison graph is not connected: {groups} were never compared across"
    # edge loser -> winner; a tie links both ways
    beat_i = (counts.wins_i + counts.ties) > 0
    beat_j = (counts.wins_j + counts.ties) > 0
    rows = np.concatenate([counts.j[beat_i], counts.i[beat_j]])
    cols = np.concatenate([counts.i[beat_i], counts.j[beat_j]])
    directed = coo_array((np.ones(len(rows)), (rows, cols)), shape=(k, k))
    pieces, piece = connected_components(directed, directed=True, connection="strong")
    if pieces == 1:
        return None
    lost_outside = piece[rows] != piece[cols]
    unbeaten = set(range(pieces)) - set(piece[rows[lost_outside]])
    groups = [sorted(names[piece == p].tolist()) for p in sorted(unbeaten)]
    return f"{' and '.join(map(str, groups))} never lost to (nor tied with) the other systems"


def _terms(
    counts: PairCounts, theta: np.ndarray, phi: float | None
) -> tuple[float, np.ndarray, np.ndarray]:
    """Log-likelihood, its gradient and Hessian in (theta, phi) (phi last, if Davidson)."""
    k = len(counts.systems)
    d = theta[counts.i] - theta[counts.j]
    nu = 0.0 if phi is None else np.exp(phi)
    half = d / 2
    cosh, sinh = np.cosh(half), np.sinh(half)
    denominator = 2 * cosh + nu
    n = counts.n
    diff = counts.wins_i - counts.wins_j
    loglik = float((diff * half).sum() - (n * np.log(denominator)).sum())
    g_d = diff / 2 - n * sinh / denominator
    h_dd = -n * (cosh / 2 * denominator - sinh**2) / denominator**2
    size = k + (phi is not None)
    incidence = np.zeros((len(d), size))
    incidence[np.arange(len(d)), counts.i] = 1.0
    incidence[np.arange(len(d)), counts.j] = -1.0
    gradient = incidence.T @ g_d
    hessian = (incidence.T * h_dd) @ incidence
    if phi is not None:
        ties = counts.ties.sum()
        loglik += float(ties * phi)
        gradient[k] = ties - (n * nu / denominator).sum()
        cross = incidence[:, :k].T @ (n * sinh * nu / denominator**2)
        hessian[:k, k] = hessian[k, :k] = cross
        hessian[k, k] = -(n * nu * (denominator - nu) / denominator**2).sum()
    return loglik, gradient, hessian


def _objective(
    counts: PairCounts, x: np.ndarray, davidson: bool, ridge: float
) -> tuple[float, float, np.ndarray, np.ndarray]:
    """Penalised log-likelihood, log-likelihood, and the penalised gradient and Hessian."""
    k = len(counts.systems)
    loglik, gradient, hessian = _terms(counts, x[:k], x[k] if davidson else None)
    theta = x[:k]
    gradient[:k] -= ridge * theta
    hessian[:k, :k] -= ridge * np.eye(k)
    return loglik - ridge / 2 * float(theta @ theta), loglik, gradient, hessian


def _newton(counts: PairCounts, x: np.ndarray, davidson: bool, ridge: float) -> np.ndarray:
    """Maximise the (penalised) log-likelihood from ``x``; without a ridge, the first
    system's theta stays at 0."""
    free = np.ones(len(x), dtype=bool)
    if ridge == 0:
        free[0] = False
    value, _, gradient, hessian = _objective(counts, x, davidson, ridge)
    for _ in range(_MAX_ITERATIONS):
        step = np.linalg.solve(hessian[np.ix_(free, free)], gradient[free])
        size = 1.0
        while True:
            trial = x.copy()
            trial[free] -= size * step
            new_value, _, new_gradient, new_hessian = _objective(counts, trial, davidson, ridge)
            if new_value >= value - 1e-12 * abs(value) or size < 1e-8:
                break
            size /= 2
        x, value, gradient, hessian = trial, new_value, new_gradient, new_hessian
        if np.max(np.abs(size * step)) < _TOLERANCE:
            return x
    raise RuntimeError(f"Newton's method did not converge in {_MAX_ITERATIONS} iterations")


def fit_pairs(counts: PairCounts, model: str, ridge: float = 0.0) -> Fit:
    """Fit ``model`` (``bradley_terry`` or ``davidson``) to ``counts`` by maximum likelihood
    (see the module's formulas); ``ridge`` > 0 maximises the penalised likelihood instead.

    Davidson's nu is estimated on the data; with no tie in ``counts`` its estimate is 0 and
    the fit is Bradley-Terry's (reported with ``tie_parameter = 0``). Bradley-Terry on
    counts with ties raises: a tie is no outcome of that model. Raises
    :class:`RankingUndefined` when the maximum does not exist and ``ridge`` is 0, or when
    every comparison is a tie (nu unbounded).
    """
    if model not in MODELS:
        raise ValueError(f"model must be one of {MODELS}; got {model!r}")
    if ridge < 0:
        raise ValueError(f"ridge must be >= 0; got {ridge}")
    total, ties = float(counts.n.sum()), float(counts.ties.sum())
    if model == BRADLEY_TERRY and ties > 0:
        raise ValueError("Bradley-Terry takes no ties: fit Davidson's model to tied outcomes")
    if total == 0:
        raise RankingUndefined("no comparisons")
    if ties == total:
        raise RankingUndefined("every comparison is a tie: the tie parameter is unbounded")
    if ridge == 0:
        problem = _existence_problem(counts)
        if problem:
            raise RankingUndefined(f"no maximum-likelihood strengths: {problem}")
    k = len(counts.systems)
    davidson = model == DAVIDSON and ties > 0
    start = np.zeros(k + davidson)
    if davidson:
        start[k] = np.log(2 * ties / (total - ties))  # nu when all strengths are equal
    x = _newton(counts, start, davidson, ridge)
    theta = x[:k] - x[:k].mean()
    nu = float(np.exp(x[k])) if davidson else 0.0
    loglik = _terms(counts, theta, x[k] if davidson else None)[0]
    return Fit(counts.systems, theta, model, nu, ridge, loglik)
