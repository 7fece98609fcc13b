"""Robustness of a judge, from its own verdicts: is it consistent with itself across runs and
across the order of a pair, and is it biased in a slice of the items?

Each check gives one row of :data:`ROW_KEYS` (``gold.judge_robustness`` adds who and where):

- ``repeat_run``: several runs of the same judge on the same items (a judge file's ``run``
  column). The runs are the raters of a units x runs matrix and the consistency is their
  agreement: Cohen's kappa for two runs of a binary or categorical field, Fleiss' kappa for
  more, Krippendorff's alpha at the interval level for a graded field
  (:mod:`raterlab.agreement`), with a percentile bootstrap interval over items. Flagged below
  :data:`MIN_CONSISTENCY`.
- ``position_swap``: pairwise verdicts of the same pair of systems in both orders (A left, B
  right and B left, A right). Consistency is the share of pairs whose winner (a system, or a
  tie) is the same in both orders, with a Wilson interval (Zheng et al. 2023 call it the
  judge's consistency under swapped positions). Flagged below :data:`MIN_SWAP_CONSISTENCY`.
- ``position_bias``: of the pairwise verdicts on pairs judged in both orders (within a run)
  that name a side, the share that name the left one, with a Wilson interval and the exact
  two-sided binomial test of a share of 1/2 (Wang et al. 2024). Each such pair is seen once
  from each side, so a judge that ignores the side names the left one half the time whatever
  the systems' strengths; verdicts on pairs seen in one order only are left out, since the
  order a team chose could favour the stronger system. Flagged when ``p < 1 - confidence``.
- ``slice_bias``: the mean of ``judge - human`` over the items of a slice (graded and binary
  fields; for a categorical field, per label, ``1[judge = label] - 1[human = label]``), with
  the t interval ``mean +- t_{n-1, (1+c)/2} s / sqrt(n)`` and the one-sample t-test of a zero
  mean. Flagged when ``p < 1 - confidence``.

References
----------
Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
Psychological Measurement, 20, 37-46.
Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. Psychological
Bulletin, 76, 378-382.
Krippendorff, K. (2004). Content Analysis: An Introduction to Its Methodology (2nd ed.),
p. 241: rely on variables with alpha >= .800.
Wilson, E. B. (1927). Probable inference, the law of succession, and statistical inference.
JASA, 22, 209-212.
Zheng, L. et al. (2023). Judging LLM-as-a-Judge with MT-Bench and Chatbot Arena. NeurIPS
2023 Datasets and Benchmarks (position bias, and the consistency of a judge when the two
answers' positions are swapped).
Wang, P. et al. (2024). Large Language Models are not Fair Evaluators. ACL 2024.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats
from scipy.special import stdtr, stdtrit

from raterlab.agreement import AgreementUndefined, bootstrap_ci
from raterlab.judges.columns import DEFAULT_RUN
from raterlab.judges.significance import wilson_interval

ROW_KEYS = (
    "check",
    "statistic",
    "label",
    "n",
    "n_runs",
    "estimate",
    "ci_low",
    "ci_high",
    "p_value",
    "flagged",
    "note",
)
"""What one check gives (the table adds study, task, judge, field and slice)."""

MIN_CONSISTENCY = 0.8
"""Repeat-run agreement below this is flagged: Krippendorff's (2004) floor for relying on
data (alpha >= .800), applied to the judge's agreement with itself."""

MIN_SWAP_CONSISTENCY = 0.8
"""Position-swap consistency below this is flagged (raterlab's choice: one pair in five
changing its winner with the order is too many to let the judge stand in for humans)."""

PAIRWISE_COLUMNS = ("item_id", "judge", "left_system", "right_system", "winner")
"""The columns of pairwise judge verdicts (``run`` is optional)."""

SIDES = ("left", "right", "tie")


def _row(check: str, statistic: str, **values: object) -> dict:
    row = dict.fromkeys(ROW_KEYS)
    row.update(check=check, statistic=statistic, **values)
    return row


def _consistency_coefficient(kind: str, n_runs: int) -> tuple[str, dict]:
    """The agreement coefficient of ``n_runs`` runs of a field of ``kind``, with its options."""
    if kind == "graded":
        return "krippendorff_alpha", {"level": "interval"}
    return ("cohen_kappa" if n_runs == 2 else "fleiss_kappa"), {}


def repeat_run_consistency(
    runs: pd.DataFrame,
    kind: str,
    resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> dict | None:
    """Agreement of a judge with itself over runs, on one field (see the module docstring).

    ``runs`` has one row per unit and run (columns ``unit``, ``run``, ``value``: numbers for
    ``kind`` ``graded``, labels otherwise; missing values are left out). Only units with a
    valid verdict in two or more runs count (for Cohen's kappa, in both runs). Returns None
    with fewer than two runs; an undefined coefficient (every verdict the same label, say)
    gives a NaN estimate, a ``note`` saying why and no flag.
    """
    valid = runs[runs["value"].notna()]
    wide = valid.pivot(index="unit", columns="run", values="value")
    n_runs = wide.shape[1]
    if n_runs < 2:
        return None
    wide = wide[wide.notna().sum(axis=1) >= 2]
    coefficient, options = _consistency_coefficient(kind, n_runs)
    matrix = wide.to_numpy(dtype=float if kind == "graded" else object)
    common = {"n": len(wide), "n_runs": n_runs}
    try:
        result = bootstrap_ci(matrix, coefficient, resamples, confidence, seed=seed, **options)
    except AgreementUndefined as error:
        return _row("repeat_run", coefficient, estimate=float("nan"), note=str(error), **common)
    return _row(
        "repeat_run",
        coefficient,
        estimate=result.estimate,
        ci_low=result.low,
        ci_high=result.high,
        flagged=bool(result.estimate < MIN_CONSISTENCY),
        **common,
    )


def _sides(frame: pd.DataFrame) -> pd.Series:
    """Each verdict's side: ``winner`` as ``left``/``right``/``tie`` (any case), or a system
    name, read as the side it was shown on. Anything else raises a ``ValueError`` naming the
    row and value."""
    word = frame["winner"].astype(str).str.strip().str.lower()
    side = word.where(word.isin(SIDES))
    side = side.mask(side.isna() & (frame["winner"] == frame["left_system"]), "left")
    side = side.mask(side.isna() & (frame["winner"] == frame["right_system"]), "right")
    if side.isna().any():
        at = side[side.isna()].index[0]
        raise ValueError(
            f"pairwise verdicts, row {at}, column winner: {frame.at[at, 'winner']!r} is none "
            f"of {', '.join(SIDES)} nor the pair's systems "
            f"({frame.at[at, 'left_system']!r}, {frame.at[at, 'right_system']!r})"
        )
    return side


def _pairwise(verdicts: pd.DataFrame) -> pd.DataFrame:
    """The verdicts with ``side``, ``outcome`` (the winning system, or ``tie``), ``pair`` (the
    two systems, sorted) and ``order`` (``ab`` when the left system sorts first)."""
    missing = [c for c in PAIRWISE_COLUMNS if c not in verdicts.columns]
    if missing:
        raise ValueError(
            f"pairwise verdicts: missing column(s) {missing}; they need "
            f"{list(PAIRWISE_COLUMNS)} and optionally run"
        )
    frame = verdicts.assign(run=verdicts.get("run", DEFAULT_RUN))
    frame = frame.astype({"left_system": str, "right_system": str, "run": str})
    side = _sides(frame)
    left, right = frame["left_system"], frame["right_system"]
    outcome = np.select([side == "left", side == "right"], [left, right], "tie")
    return frame.assign(
        side=side,
        outcome=outcome,
        pair=[" | ".join(sorted(p)) for p in zip(left, right, strict=True)],
        order=np.where(left <= right, "ab", "ba"),
    )


def position_swap_checks(verdicts: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Position-swap consistency and position bias of each judge (see the module docstring).

    ``verdicts``: one row per pairwise verdict, columns :data:`PAIRWISE_COLUMNS` and
    optionally ``run`` (the orders are matched within a run). Returns, per judge with a pair
    judged in both orders, one ``position_swap`` row and (when one of those verdicts names a
    side) one ``position_bias`` row, with a ``judge`` column. Two verdicts of a judge on the same
    item, pair, order and run raise a ``ValueError``.
    """
    frame = _pairwise(verdicts)
    keys = ["judge", "run", "item_id", "pair"]
    repeated = frame.duplicated([*keys, "order"], keep=False)
    if repeated.any():
        first = frame[repeated].iloc[0]
        raise ValueError(
            "pairwise verdicts: two verdicts of judge "
            f"{first['judge']!r} on item {first['item_id']!r}, systems "
            f"{first['left_system']!r} left and {first['right_system']!r} right, run "
            f"{first['run']!r} (rows {', '.join(map(str, frame[repeated].index[:2]))})"
        )
    both = frame.pivot(index=keys, columns="order", values="outcome").dropna()
    swapped = frame.set_index(keys).index.isin(both.index)
    rows = []
    for judge, part in frame[swapped].groupby("judge", sort=True):
        rows += _swap_rows(str(judge), both, part, confidence)
    return pd.DataFrame(rows, columns=["judge", *ROW_KEYS])


def _swap_rows(
    judge: str, both: pd.DataFrame, verdicts: pd.DataFrame, confidence: float
) -> list[dict]:
    """One judge's ``position_swap`` and ``position_bias`` rows (each when defined)."""
    rows = []
    pairs = both.xs(judge, level="judge") if judge in both.index.get_level_values(0) else None
    if pairs is not None and len(pairs):
        n, same = len(pairs), int((pairs["ab"] == pairs["ba"]).sum())
        low, high = wilson_interval(same, n, confidence)
        share = same / n
        swap = _row(
            "position_swap",
            "consistent_share",
            n=n,
            estimate=share,
            ci_low=low,
            ci_high=high,
            flagged=bool(share < MIN_SWAP_CONSISTENCY),
        )
        rows.append({"judge": judge, **swap})
    sided = verdicts[verdicts["side"] != "tie"]
    if len(sided):
        n, left = len(sided), int((sided["side"] == "left").sum())
        low, high = wilson_interval(left, n, confidence)
        p = float(stats.binomtest(left, n, 0.5).pvalue)
        bias = _row(
            "position_bias",
            "left_share",
            n=n,
            estimate=left / n,
            ci_low=low,
            ci_high=high,
            p_value=p,
            flagged=bool(p < 1 - confidence),
        )
        rows.append({"judge": judge, **bias})
    return rows


def mean_difference(differences: np.ndarray, confidence: float = 0.95) -> dict:
    """Mean of ``differences`` (NaN left out) with its t interval and the two-sided
    one-sample t-test of a zero mean: ``estimate, ci_low, ci_high, p_value, n`` (interval
    and p NaN below two values). Differences all equal give a zero-width interval and
    ``p = 1`` when they are 0, else 0 (the t statistic is infinite)."""
    d = np.asarray(differences, dtype=float)
    d = d[np.isfinite(d)]
    n = int(d.size)
    mean = float(d.mean()) if n else float("nan")
    out = {"n": n, "estimate": mean, "ci_low": float("nan"), "ci_high": float("nan")}
    if n < 2:
        return {**out, "p_value": float("nan")}
    sd = float(d.std(ddof=1))
    if sd == 0:
        return {**out, "ci_low": mean, "ci_high": mean, "p_value": 1.0 if mean == 0 else 0.0}
    # Student's t by its special functions (scipy.stats' t.ppf and ttest_1samp give the
    # same numbers at about a millisecond a call, and this runs per judge, field and slice)
    se = sd / np.sqrt(n)
    half = float(stdtrit(n - 1, (1 + confidence) / 2)) * se
    p = float(2 * stdtr(n - 1, -abs(mean) / se))
    return {**out, "ci_low": mean - half, "ci_high": mean + half, "p_value": p}


def slice_bias(
    judge: np.ndarray,
    human: np.ndarray,
    labels: list[str] | None = None,
    confidence: float = 0.95,
) -> list[dict]:
    """The judge's bias against the humans on one slice's units: one ``slice_bias`` row (a
    graded or binary field: ``judge`` and ``human`` numbers, NaN missing) or one per label
    (``labels`` given: ``judge`` and ``human`` labels, None missing). See the module
    docstring for the interval, the test and the flag."""
    if labels is None:
        pairs = [(None, np.asarray(judge, float) - np.asarray(human, float))]
    else:
        j, h = np.asarray(judge, dtype=object), np.asarray(human, dtype=object)
        both = ~(pd.isna(j) | pd.isna(h))
        pairs = [
            (label, np.where(both, (j == label).astype(float) - (h == label), np.nan))
            for label in labels
        ]
    rows = []
    for label, differences in pairs:
        values = mean_difference(differences, confidence)
        p = values["p_value"]
        flagged = None if np.isnan(p) else bool(p < 1 - confidence)
        rows.append(_row("slice_bias", "mean_difference", label=label, flagged=flagged, **values))
    return rows
