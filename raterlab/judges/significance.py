"""Significance tests for judges: Williams' test of two dependent correlations, the paired
bootstrap of a difference, the alternative annotator test, and a Wilson interval."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy import stats


def williams_test(r12: float, r13: float, r23: float, n: int) -> tuple[float, float]:
    r"""Williams' t for ``H0: rho12 = rho13`` when variables 2 and 3 are measured on the same
    units (two judges against the same human scores; r23 is the judges' correlation).

    .. math::
        t = (r_{12} - r_{13}) \sqrt{\frac{(n-1)(1 + r_{23})}
            {2 \frac{n-1}{n-3} |R| + \bar r^2 (1 - r_{23})^3}}, \quad
        |R| = 1 - r_{12}^2 - r_{13}^2 - r_{23}^2 + 2 r_{12} r_{13} r_{23}

    with ``rbar = (r12 + r13) / 2`` and ``n - 3`` degrees of freedom (Williams 1959, as
    recommended by Steiger 1980, eq. 7; used for MT metrics by Graham & Baldwin 2014).
    Returns ``(t, two-sided p)``; NaN when ``n < 4``.

    References
    ----------
    Steiger, J. H. (1980). Tests for comparing elements of a correlation matrix.
    Psychological Bulletin, 87(2), 245-251.
    Graham, Y., & Baldwin, T. (2014). Testing for significance of increased correlation with
    human judgment. EMNLP 2014, 172-176.
    """
    if n < 4:
        return float("nan"), float("nan")
    det = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r13 * r23
    rbar = (r12 + r13) / 2
    denominator = 2 * (n - 1) / (n - 3) * det + rbar**2 * (1 - r23) ** 3
    if denominator <= 0:
        return float("nan"), float("nan")
    t = (r12 - r13) * np.sqrt((n - 1) * (1 + r23) / denominator)
    return float(t), float(2 * stats.t.sf(abs(t), n - 3))


def paired_bootstrap_p(difference: np.ndarray) -> float:
    """Two-sided bootstrap p-value of ``H0: difference = 0`` from paired replicates of a
    difference: twice the smaller share of replicates on either side of 0 (capped at 1)."""
    defined = difference[np.isfinite(difference)]
    if defined.size == 0:
        return float("nan")
    return float(min(1.0, 2 * min(np.mean(defined <= 0), np.mean(defined >= 0))))


def wilson_interval(successes: int, n: int, confidence: float) -> tuple[float, float]:
    """Wilson score interval of a proportion (Wilson 1927)."""
    if n == 0:
        return float("nan"), float("nan")
    z = stats.norm.ppf((1 + confidence) / 2)
    p = successes / n
    centre = (p + z**2 / (2 * n)) / (1 + z**2 / n)
    half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / (1 + z**2 / n)
    return float(centre - half), float(centre + half)


def benjamini_yekutieli(p_values: np.ndarray, q: float) -> np.ndarray:
    r"""Which hypotheses the Benjamini-Yekutieli step-up procedure rejects at FDR ``q``:
    the ``k`` smallest p-values, ``k`` the largest rank with
    :math:`p_{(k)} \le \frac{k}{m} \frac{q}{\sum_{i=1}^m 1/i}` (valid under any dependence;
    Benjamini & Yekutieli 2001)."""
    p = np.asarray(p_values, dtype=float)
    m = p.size
    rejected = np.zeros(m, dtype=bool)
    if m == 0:
        return rejected
    order = np.argsort(p, kind="stable")
    thresholds = np.arange(1, m + 1) / m * q / np.sum(1.0 / np.arange(1, m + 1))
    passing = np.flatnonzero(p[order] <= thresholds)
    if passing.size:
        rejected[order[: passing[-1] + 1]] = True
    return rejected


def _accuracy(prediction: np.ndarray, others: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Share of the present ``others`` (per row) equal to ``prediction``."""
    return ((others == prediction[:, None]) & present).sum(axis=1) / present.sum(axis=1)


def _neg_rmse(prediction: np.ndarray, others: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Minus the root mean squared difference to the present ``others`` (per row)."""
    squared = np.where(present, (others - prediction[:, None]) ** 2, 0.0)
    return -np.sqrt(squared.sum(axis=1) / present.sum(axis=1))


SCORING = {"accuracy": _accuracy, "neg_rmse": _neg_rmse}


@dataclass(frozen=True)
class AltTest:
    """Outcome of the alternative annotator test.

    ``winning_rate``: share of the tested annotators whose null hypothesis was rejected (the
    judge "wins" against them); the judge passes when it is at least 0.5.
    ``advantage_probability``: mean over annotators of the share of instances where the
    judge aligns with the other annotators at least as well as the left-out annotator.
    """

    winning_rate: float
    advantage_probability: float
    n_annotators: int
    n_instances: int
    epsilon: float
    p_values: dict[str, float]
    rejected: dict[str, bool]

    @property
    def passed(self) -> bool:
        return self.winning_rate >= 0.5


def alt_test(
    humans: np.ndarray,
    raters: list[str],
    judge: np.ndarray,
    scoring: str = "accuracy",
    epsilon: float = 0.2,
    q: float = 0.05,
    min_humans: int = 2,
    min_instances: int = 30,
) -> AltTest | None:
    r"""The alternative annotator test (Calderon, Reichart & Dror 2025).

    For each annotator ``j`` with at least ``min_instances`` instances (instances with at
    least ``min_humans`` human annotations and a judge verdict), leave ``j`` out; on each of
    ``j``'s instances score the judge and ``j`` against the remaining annotators
    (``accuracy``: share of them it equals; ``neg_rmse``: minus the root mean squared
    difference), ``W^f_i = 1[S_f >= S_j]`` and ``W^h_i = 1[S_j >= S_f]``. A one-sided
    one-sample t-test of ``d_i = W^h_i - W^f_i`` against ``epsilon`` tests
    ``H0: rho^h_j - rho^f_j >= epsilon``; the Benjamini-Yekutieli procedure at ``q`` decides
    which annotators the judge beats. Returns None when no annotator qualifies.

    ``humans`` is ``(n_instances, n_annotators)`` and ``judge`` the judge's verdict per
    instance, both numbers with NaN missing (labels as codes, for ``accuracy``). Mirrors the
    authors' reference code (github.com/nitaytech/AltTest).

    References
    ----------
    Calderon, N., Reichart, R., & Dror, R. (2025). The Alternative Annotator Test for
    LLM-as-a-Judge: How to Statistically Justify Replacing Human Annotators with LLMs.
    ACL 2025. arXiv:2501.10970.
    """
    score = SCORING[scoring]
    humans = np.asarray(humans, dtype=float)
    judge = np.asarray(judge, dtype=float)
    present = ~np.isnan(humans)
    kept = (present.sum(axis=1) >= min_humans) & ~np.isnan(judge)
    p_values: dict[str, float] = {}
    advantage: dict[str, float] = {}
    for j, rater in enumerate(raters):
        rows = kept & present[:, j]
        if rows.sum() < min_instances:
            continue
        others = np.delete(humans[rows], j, axis=1)
        others_present = np.delete(present[rows], j, axis=1)
        s_human = score(humans[rows, j], others, others_present)
        s_judge = score(judge[rows], others, others_present)
        judge_wins, human_wins = s_judge >= s_human, s_human >= s_judge
        diff = human_wins.astype(float) - judge_wins.astype(float)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # constant d_i: scipy's own answer
            p_values[rater] = float(stats.ttest_1samp(diff, epsilon, alternative="less").pvalue)
        advantage[rater] = float(np.mean(judge_wins))
    if not p_values:
        return None
    names = list(p_values)
    rejected = benjamini_yekutieli(np.array([p_values[r] for r in names]), q)
    return AltTest(
        winning_rate=float(rejected.mean()),
        advantage_probability=float(np.mean(list(advantage.values()))),
        n_annotators=len(names),
        n_instances=int(kept.sum()),
        epsilon=epsilon,
        p_values=p_values,
        rejected=dict(zip(names, rejected.tolist(), strict=True)),
    )
