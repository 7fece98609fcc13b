r"""One verdict per judge, field and slice: may the judge replace the humans here?

:func:`judge_verdicts` is a pure function of the per-judge rows of :data:`INPUT_COLUMNS`
(one per task, judge, field and slice). The rule, in order:

1. ``replace`` ("may replace humans here") when all of these hold:

   - the alternative annotator test passes: winning rate >= 0.5, the judge beats at least
     half of the annotators it was tested against (Calderon, Reichart & Dror 2025). Where
     the test was not run (too few annotators with enough items, as in most slices) and the
     field is pairwise, the judge's agreement with the human winners stands in for it
     (``gold.pairwise_judges``): it holds when the lower end of the interval of the judge's
     kappa with the consensus winners (``winner_kappa_low``) reaches the lower end of the
     human ceiling (``ceiling_low``), i.e. even at its worst plausible value the judge
     agrees with the humans' verdict on a pair as well as humans agree with each other;
   - the judge's agreement with the humans (the headline statistic: Cohen's kappa for binary
     and categorical fields, Spearman's rho for Likert ones) reaches the human ceiling's
     interval, i.e. is at least its lower end (``within_human_range`` of
     ``gold.judge_calibration``);
   - no robustness check measured for it is flagged (``gold.judge_robustness``: repeat runs,
     position swap and position bias where the verdicts allow them, and the bias in this
     slice); checks that could not be measured do not count against it;

2. ``ppi`` ("only with human correction (PPI)") when it is not ``replace`` but
   prediction-powered inference with its verdicts narrows the humans' interval: its
   effective sample size gain is above 1. The gain is ``effective_n / n_labeled`` where the
   PPI estimate gives them (``gold.judge_substitution``); elsewhere it is the large-N variance
   ratio of PPI++ with the optimal power-tuning weight (Angelopoulos, Duchi & Zrnic 2023),

   .. math:: g = \frac{\mathrm{Var}(\hat\theta_{\text{classical}})}
                      {\mathrm{Var}(\hat\theta_{\text{PPI++}})} = \frac{1}{1 - \rho^2},

   with :math:`\rho` the Pearson correlation of the judge and the human consensus on the
   labelled units; the decision then uses ``ppi_gain_low``, the gain at the end of rho's
   Fisher-z interval nearest 0 (1 when the interval covers 0), so a correlation that could
   be nothing gives no gain;

3. ``no`` otherwise.

``reasons`` says, criterion by criterion, what held and what did not.

Beside the gain is Dorner, Nastl & Hardt's bound (:data:`DORNER_BOUND`): when the judge's
agreement rate with the ground truth is no higher than the evaluated model's accuracy, no
debiasing method (PPI among them) can reduce the ground-truth labels needed by more than
half, so the effective sample size gain is at most 2 (their main result bounds the squared
correlation of the judge's verdicts and the ground truth by 1/2, which is ``1 / (1 - rho^2)
<= 2`` in the ratio above). raterlab checks the condition on binary fields, reading the
human consensus as the ground truth, the share of items with consensus 1 as the judged
systems' score (``system_score``: the field's 1 is read as the systems' success) and the
share of items where the judge equals the consensus as its agreement rate
(``judge_accuracy``); ``dorner_applies`` is NULL elsewhere. A gain above the bound where it
applies is an overestimate (a small labelled sample); a gain above 2 where the condition is
not known needs a judge more accurate than the systems it judges; a gain above 2 of a judge
more accurate than the judged systems is outside the bound's condition. ``reasons`` says
which.

References
----------
Calderon, N., Reichart, R., & Dror, R. (2025). The Alternative Annotator Test for
LLM-as-a-Judge: How to Statistically Justify Replacing Human Annotators with LLMs. ACL 2025.
Angelopoulos, A. N., Duchi, J. C., & Zrnic, T. (2023). PPI++: Efficient Prediction-Powered
Inference. arXiv:2311.01453.
Dorner, F. E., Nastl, V. Y., & Hardt, M. (2025). Limits to scalable evaluation at the
frontier: LLM as judge won't beat twice the data. ICLR 2025.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

VERDICTS = {
    "replace": "may replace humans here",
    "ppi": "only with human correction (PPI)",
    "no": "no",
}
"""The verdicts and what they mean."""

ALT_PASS = 0.5
"""The alternative annotator test passes at this winning rate or above."""

DORNER_BOUND = 2.0
"""Dorner, Nastl & Hardt (ICLR 2025): the largest effective sample size gain of any debiasing
method when the judge is no more accurate than the evaluated model."""

INPUT_COLUMNS = (
    "task",
    "judge",
    "field",
    "slice",
    "statistic",
    "estimate",
    "ceiling_low",
    "ceiling_high",
    "within_human_range",
    "alt_winning_rate",
    "winner_kappa",
    "winner_kappa_low",
    "n_checks",
    "checks_flagged",
    "n_labeled",
    "effective_n",
    "rho",
    "rho_low",
    "rho_high",
    "judge_accuracy",
    "system_score",
)
"""What the rule reads, per task, judge, field and slice."""

OUTPUT_COLUMNS = (
    "task",
    "judge",
    "field",
    "slice",
    "verdict",
    "reasons",
    *INPUT_COLUMNS[4:],
    "ppi_gain",
    "ppi_gain_low",
    "gain_source",
    "dorner_bound",
    "dorner_applies",
)
"""The verdict, its reasons, the inputs it used and the gain beside the bound."""


def variance_ratio_gain(rho: float) -> float:
    """``1 / (1 - rho^2)``: PPI++'s large-N effective sample size gain at correlation rho
    (infinite at ``|rho| = 1``; NaN when rho is)."""
    if not np.isfinite(rho):
        return float("nan")
    return math.inf if abs(rho) >= 1 else 1.0 / (1.0 - rho * rho)


def fisher_interval(rho: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Fisher's z interval of a Pearson correlation: ``tanh(atanh(r) -+ z_c / sqrt(n - 3))``
    (Fisher 1921); NaN below four units or for an undefined r."""
    if n < 4 or not np.isfinite(rho):
        return float("nan"), float("nan")
    z = np.arctanh(np.clip(rho, -1 + 1e-12, 1 - 1e-12))
    half = stats.norm.ppf((1 + confidence) / 2) / np.sqrt(n - 3)
    return float(np.tanh(z - half)), float(np.tanh(z + half))


def _nearest_zero(low: float, high: float) -> float:
    """The end of ``[low, high]`` nearest 0 (0 when it covers 0)."""
    if not (np.isfinite(low) and np.isfinite(high)) or low <= 0 <= high:
        return 0.0
    return min(abs(low), abs(high))


def _known(value: object) -> bool:
    return value is not None and not pd.isna(value)


def _gain(row: dict) -> dict:
    """``ppi_gain``, ``ppi_gain_low`` and ``gain_source`` of one row."""
    if _known(row["effective_n"]) and _known(row["n_labeled"]) and row["n_labeled"] > 0:
        gain = float(row["effective_n"]) / float(row["n_labeled"])
        return {"ppi_gain": gain, "ppi_gain_low": gain, "gain_source": "judge_substitution"}
    if _known(row["rho"]):
        near = _nearest_zero(row["rho_low"], row["rho_high"])
        return {
            "ppi_gain": variance_ratio_gain(float(row["rho"])),
            "ppi_gain_low": variance_ratio_gain(near),
            "gain_source": "rho",
        }
    return {"ppi_gain": float("nan"), "ppi_gain_low": float("nan"), "gain_source": None}


def _dorner_applies(row: dict) -> bool | None:
    if not (_known(row["judge_accuracy"]) and _known(row["system_score"])):
        return None
    return bool(row["judge_accuracy"] <= row["system_score"])


def _winner_reason(row: dict) -> tuple[bool, str]:
    """A pairwise field without the alternative annotator test: the judge's kappa with the
    human winners, at the low end of its interval, against the human ceiling's low end."""
    kappa, low, ceiling = row["winner_kappa"], row["winner_kappa_low"], row["ceiling_low"]
    said = (
        "alternative annotator test not run; in its place, agreement with the human winners "
        f"kappa {kappa:.2f} (interval from {low:.2f})"
    )
    if not _known(ceiling):
        return False, f"{said}, no human ceiling to reach"
    if low >= ceiling:
        return True, f"{said} reaches the human ceiling's low end {ceiling:.2f}"
    return False, f"{said} below the human ceiling's low end {ceiling:.2f}"


def _alt_reason(row: dict) -> tuple[bool, str]:
    rate = row["alt_winning_rate"]
    if not _known(rate) and _known(row["winner_kappa_low"]):
        return _winner_reason(row)
    if not _known(rate):
        return False, (
            "alternative annotator test not run (no annotator has 30 items here that other "
            "humans and the judge also rated)"
        )
    if rate >= ALT_PASS:
        return True, f"alternative annotator test passed (winning rate {rate:.2f} >= 0.5)"
    return False, f"alternative annotator test failed (winning rate {rate:.2f} < 0.5)"


def _ceiling_reason(row: dict) -> tuple[bool, str]:
    within, stat = row["within_human_range"], row["statistic"] or "agreement"
    if not _known(within):
        return False, f"no human ceiling for {stat}"
    span = f"[{row['ceiling_low']:.2f}, {row['ceiling_high']:.2f}]"
    if within:
        return True, f"{stat} {row['estimate']:.2f} within the human ceiling {span}"
    return False, f"{stat} {row['estimate']:.2f} below the human ceiling {span}"


def _robustness_reason(row: dict) -> tuple[bool, str]:
    n = int(row["n_checks"]) if _known(row["n_checks"]) else 0
    flagged = row["checks_flagged"] if _known(row["checks_flagged"]) else ""
    if flagged:
        return False, f"robustness flagged: {flagged}"
    if n == 0:
        return True, "no robustness check measured"
    return True, f"{n} robustness check(s) pass"


def _gain_reason(row: dict) -> str:
    gain, low = row["ppi_gain"], row["ppi_gain_low"]
    if row["gain_source"] == "judge_substitution":
        return (
            f"PPI gain {gain:.2f} (effective_n {row['effective_n']:.0f} / n_labeled "
            f"{row['n_labeled']:.0f})"
        )
    if row["gain_source"] == "rho":
        return (
            f"PPI gain 1/(1-rho^2) = {gain:.2f} at rho {row['rho']:.2f} "
            f"[{row['rho_low']:.2f}, {row['rho_high']:.2f}], {low:.3f} at the end nearest 0"
        )
    return "no PPI gain measured"


def _dorner_reason(row: dict) -> str | None:
    applies, gain = row["dorner_applies"], row["ppi_gain"]
    if applies is False and _known(gain) and gain > DORNER_BOUND:
        return (
            f"judge accuracy {row['judge_accuracy']:.2f} > systems' score "
            f"{row['system_score']:.2f}: Dorner et al.'s bound of 2 does not apply"
        )
    if applies:
        condition = (
            f"judge accuracy {row['judge_accuracy']:.2f} <= systems' score "
            f"{row['system_score']:.2f}"
        )
        if gain > DORNER_BOUND:
            return (
                f"the gain exceeds Dorner et al.'s bound of 2 for a judge no more accurate "
                f"than the judged systems ({condition}): an overestimate"
            )
        return f"within Dorner et al.'s bound of 2 ({condition})"
    if applies is None and _known(gain) and gain > DORNER_BOUND:
        return (
            "a gain above 2 needs a judge more accurate than the systems it judges "
            "(Dorner et al. 2025)"
        )
    return None


def decide(row: dict) -> tuple[str, str]:
    """The verdict of one row (with ``ppi_gain``, ``ppi_gain_low``, ``gain_source`` and
    ``dorner_applies`` already added) and its reasons, ``; ``-joined."""
    alt_ok, alt = _alt_reason(row)
    ceiling_ok, ceiling = _ceiling_reason(row)
    robust_ok, robust = _robustness_reason(row)
    reasons = [alt, ceiling, robust, _gain_reason(row)]
    if (dorner := _dorner_reason(row)) is not None:
        reasons.append(dorner)
    if alt_ok and ceiling_ok and robust_ok:
        verdict = "replace"
    elif _known(row["ppi_gain_low"]) and row["ppi_gain_low"] > 1:
        verdict = "ppi"
    else:
        verdict = "no"
    return verdict, "; ".join(reasons)


def judge_verdicts(inputs: pd.DataFrame) -> pd.DataFrame:
    """The verdict of every row of ``inputs`` (:data:`INPUT_COLUMNS`), with its reasons, the
    inputs, the PPI gain and Dorner et al.'s bound: :data:`OUTPUT_COLUMNS`."""
    missing = [c for c in INPUT_COLUMNS if c not in inputs.columns]
    if missing:
        raise ValueError(f"judge verdict inputs: missing column(s) {missing}")
    rows = []
    for record in inputs[list(INPUT_COLUMNS)].to_dict("records"):
        row = {**record, **_gain(record), "dorner_bound": DORNER_BOUND}
        row["dorner_applies"] = _dorner_applies(row)
        row["verdict"], row["reasons"] = decide(row)
        rows.append(row)
    return pd.DataFrame(rows, columns=list(OUTPUT_COLUMNS))
