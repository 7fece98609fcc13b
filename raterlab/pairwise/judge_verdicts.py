r"""A judge's pairwise verdicts calibrated against the humans: how often the judge picks the
pair's human winner, and whether the side a response is shown on sways the judge.

A verdict frame has one row per judged pair and run: ``item_id`` (``<prompt>:<a>~<b>``, the
pair's systems sorted so that ``a`` < ``b``), ``judge``, ``left_system``, ``right_system``
(the order the judge saw them in), ``winner`` (a system of the pair or ``tie``) and an
optional ``run``. The human winners (:func:`human_winners`) are the pair's consensus value in
``gold.consensus`` (the canonical ``a`` / ``b`` / ``tie`` of a pairwise field, adjudicated
where the raters split), with the pair's systems from ``gold.pairwise_comparisons``.

- :func:`judge_agreement`: per judge, every verdict against its pair's human winner on the
  canonical 3-way outcome: percent agreement and Cohen's kappa
  (:func:`raterlab.agreement.kappa.cohen_kappa`) with a Wald 95% interval from its
  large-sample standard error (Fleiss, Cohen & Everitt 1969), clipped to [-1, 1],

  .. math:: \kappa = \frac{p_a - p_e}{1 - p_e},\qquad \kappa \pm 1.96\,\mathrm{se}(\kappa).

- :func:`swap_consistency`: per judge, over the pairs it judged in both orders (each system
  once on the left), the share whose outcome is the same in both orders (the first run of
  each order), and the judge's share of ``left`` among its non-tie verdicts on those pairs
  with its 95% Wilson interval and an exact two-sided binomial test against 0.5
  (:func:`raterlab.pairwise.position_bias.position_bias`, Holm-corrected over judges).
  On swapped pairs each pair is seen once from each side, so a judge that ignores the side
  picks ``left`` half the time whatever the systems' strengths.

References
----------
Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
Psychological Measurement, 20, 37-46.
Fleiss, J. L., Cohen, J. & Everitt, B. S. (1969). Large sample standard errors of kappa and
weighted kappa. Psychological Bulletin, 72, 323-327.
Zheng, L. et al. (2023). Judging LLM-as-a-judge with MT-Bench and Chatbot Arena. NeurIPS
(position bias of LLM judges measured by swapping the two answers).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from raterlab.agreement.kappa import cohen_kappa
from raterlab.pairwise.comparisons import OUTCOMES, TIE
from raterlab.pairwise.position_bias import position_bias

VERDICT_COLUMNS = ("item_id", "judge", "left_system", "right_system", "winner")
Z = 1.959964
CANONICAL = {"a": "a", "b": "b", TIE: TIE, "much_a": "a", "much_b": "b"}
"""A pairwise consensus value in the pair's canonical orientation; a strong preference is a
preference."""


def _check(verdicts: pd.DataFrame) -> pd.DataFrame:
    missing = [c for c in VERDICT_COLUMNS if c not in verdicts]
    if missing:
        raise ValueError(f"judge verdicts: missing column(s) {', '.join(missing)}")
    frame = verdicts.reset_index(drop=True).astype({c: str for c in VERDICT_COLUMNS})
    same = frame["left_system"] == frame["right_system"]
    member = (frame["winner"] == frame["left_system"]) | (frame["winner"] == frame["right_system"])
    bad = same | ~(member | (frame["winner"] == TIE))
    if bad.any():
        row = frame[bad].iloc[0]
        rule = (
            "left_system and right_system must differ"
            if row["left_system"] == row["right_system"]
            else "winner must be left_system, right_system or tie"
        )
        raise ValueError(
            f"judge verdicts row {int(frame.index[bad][0])} (item {row['item_id']!r}, judge "
            f"{row['judge']!r}), column 'winner': {rule}; got {row['winner']!r}"
        )
    return frame


def canonical_verdicts(verdicts: pd.DataFrame) -> pd.DataFrame:
    """``verdicts`` with ``system_a``/``system_b`` (the pair's systems sorted), ``outcome``
    (``a``, ``b`` or ``tie``: whom the judge preferred, whatever the side) and ``choice``
    (``left``, ``right`` or ``tie``: the side it preferred)."""
    frame = _check(verdicts)
    a = np.minimum(frame["left_system"], frame["right_system"])
    b = np.maximum(frame["left_system"], frame["right_system"])
    winner = frame["winner"]
    outcome = np.where(winner == TIE, TIE, np.where(winner == a, "a", "b"))
    choice = np.where(winner == TIE, TIE, np.where(winner == frame["left_system"], "left", "right"))
    return frame.assign(system_a=a, system_b=b, outcome=outcome, choice=choice)


def human_winners(consensus: pd.DataFrame, comparisons: pd.DataFrame) -> pd.DataFrame:
    """Per pair (``task``, ``field``, ``item_id``) with a consensus value: ``outcome``
    (``a``, ``b``, ``tie``), ``system_a``, ``system_b`` and ``winner`` (a system or ``tie``).
    ``consensus``: rows of ``gold.consensus``; ``comparisons``: of
    ``gold.pairwise_comparisons`` (only the pairwise fields' items are kept)."""
    keys = ["task", "field", "item_id"]
    pairs = comparisons[[*keys, "system_a", "system_b"]].drop_duplicates(keys)
    found = consensus[consensus["value"].notna()].merge(pairs, on=keys, how="inner")
    outcome = found["value"].astype(str).map(CANONICAL)
    unknown = outcome.isna()
    if unknown.any():
        row = found[unknown].iloc[0]
        raise ValueError(
            f"gold.consensus item {row['item_id']!r}, field {row['field']!r}, column 'value': "
            f"a pairwise value is one of {', '.join(CANONICAL)}; got {row['value']!r}"
        )
    winner = np.where(
        outcome == TIE, TIE, np.where(outcome == "a", found["system_a"], found["system_b"])
    )
    return found[[*keys, "system_a", "system_b"]].assign(outcome=outcome, winner=winner)


def judge_agreement(verdicts: pd.DataFrame, humans: pd.DataFrame) -> pd.DataFrame:
    """Per judge: ``n`` (verdicts on pairs with a human winner), ``percent_agreement``,
    ``kappa`` (Cohen's, categories ``a``, ``b``, ``tie``), ``kappa_se``, ``ci_low``,
    ``ci_high`` (Wald 95%, clipped to [-1, 1]). ``humans``: ``item_id`` and ``outcome``
    (one row per pair, e.g. :func:`human_winners` of one field)."""
    judged = canonical_verdicts(verdicts).merge(
        humans[["item_id", "outcome"]].rename(columns={"outcome": "human"}), on="item_id"
    )
    rows = []
    for judge, part in judged.groupby("judge", sort=True):
        result = cohen_kappa(part[["outcome", "human"]].to_numpy(), categories=list(OUTCOMES))
        se = np.nan if result.se is None else result.se
        rows.append(
            {
                "judge": judge,
                "n": len(part),
                "percent_agreement": float((part["outcome"] == part["human"]).mean()),
                "kappa": result.estimate,
                "kappa_se": se,
                "ci_low": max(-1.0, result.estimate - Z * se),
                "ci_high": min(1.0, result.estimate + Z * se),
            }
        )
    columns = ["judge", "n", "percent_agreement", "kappa", "kappa_se", "ci_low", "ci_high"]
    return pd.DataFrame(rows, columns=columns)


def _first_per_order(judged: pd.DataFrame) -> pd.DataFrame:
    """Per judge and pair, the first run of each order, for the pairs seen in both orders."""
    order = ["run"] if "run" in judged else []
    first = judged.sort_values(order, kind="stable").drop_duplicates(
        ["judge", "item_id", "left_system"]
    )
    both = first.groupby(["judge", "item_id"])["left_system"].transform("size") == 2
    return first[both]


def swap_consistency(verdicts: pd.DataFrame) -> pd.DataFrame:
    """Per judge, on the pairs it judged in both orders: ``n_swapped_pairs``, ``consistent``
    (share with the same outcome in both orders), then the position-bias columns of
    :func:`raterlab.pairwise.position_bias.position_bias` on those verdicts (``n_non_tie``,
    ``n_left``, ``n_ties``, ``left_share``, ``ci_low``, ``ci_high``, ``p_value``, ``p_holm``,
    ``flagged``). Judges without a swapped pair are left out."""
    swapped = _first_per_order(canonical_verdicts(verdicts))
    columns = ["judge", "n_swapped_pairs", "consistent"]
    if swapped.empty:
        return pd.DataFrame(columns=columns)
    same = swapped.groupby(["judge", "item_id"])["outcome"].nunique() == 1
    consistency = same.groupby(level="judge").agg(["size", "mean"]).reset_index()
    consistency.columns = columns
    bias = position_bias(swapped.rename(columns={"judge": "annotator_id"}))
    bias = bias[bias["annotator_id"].isin(consistency["judge"])]
    return consistency.merge(bias.rename(columns={"annotator_id": "judge"}), on="judge")
