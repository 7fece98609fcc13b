"""``gold.rater_quality`` assembled from every topic, the item flags, promotions, and the
plain-text summary of who is flagged and why.

``gold.rater_quality`` columns (after ``study``):

==============  ===========================================================================
annotator_id    the annotator, or ``*`` for a row about the whole panel
metric          what the value is (table below)
slice           which ratings it is computed on (syntax: :mod:`raterlab.quality.ratings`)
value           the metric's value
target          the bound the value is judged against (NaN: not judged)
comparison      how ``value`` must relate to ``target`` to pass: ``>=``, ``<=``, ``|x|<=``
flagged         the row breaks its rule
n               observations behind the value (pairs x fields, checks, ratings, items...)
ci_low/ci_high  95% interval where one is computed (means, differences)
p_value         the test's p-value where one is computed (leniency, slice bias)
==============  ===========================================================================

=============================  ================================  ==================================
metric                         module                            flagged when
=============================  ================================  ==================================
duplicate_within_one           :mod:`~.consistency`              < quality.duplicate_within_one
duplicate_exact                :mod:`~.consistency`              (no flag)
intra_rater_kappa              :mod:`~.consistency`              (no flag)
attention_pass_rate            :mod:`~.attention`                < quality.attention_min_pass
calibration_exact              :mod:`~.calibration`              (no flag)
calibration_within_one         :mod:`~.calibration`              < 0.8
calibration_weighted_kappa     :mod:`~.calibration`              (no flag)
calibration_mean_signed_error  :mod:`~.calibration`              abs > 0.5 points (0.25 binary)
median_time_s                  :mod:`~.speed`                    (no flag)
rushed_share                   :mod:`~.speed`                    > quality.max_rushed_share
target_time_share              :mod:`~.speed`                    (no flag; quality.target_time_s)
mean_rating                    :mod:`~.bias`                     (no flag)
leniency                       :mod:`~.bias`                     adj. p < 0.01, abs >= 0.4 (0.02)
slice_bias                     :mod:`~.bias`                     adj. p < 0.05 and abs >= 0.5
scale_extremes_share           :mod:`~.bias`                     < 1/4 of the others' median share
category_agreement             :mod:`~.bias`                     (no flag)
category_disagreement          :mod:`~.bias`                     adj. p < 0.05 and >= 0.5 more
outlier_share                  :mod:`~.bias`                     (no flag)
spot_check_disagreement        :mod:`~.drift`                    drift run / > max_disagreement
=============================  ================================  ==================================

``gold.rater_item_flags`` (study, annotator_id, task, item_id, flag, detail) flags are
``rushed``, ``attention_failed``, ``duplicate_inconsistent``, ``calibration_off`` and
``outlier_item``.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from raterlab.protocol import Study
from raterlab.quality import attention, bias, calibration, consistency, drift, speed
from raterlab.quality.ratings import ALL, EVERYONE, frame, item_flags, prepare


@dataclass
class QualityReport:
    """Everything :func:`assess` finds about a study's raters."""

    table: pd.DataFrame
    """``gold.rater_quality``."""
    item_flags: pd.DataFrame
    """``gold.rater_item_flags``."""
    promotions: pd.DataFrame
    """``gold.promotions``."""
    weekly: pd.DataFrame
    """Spot-check disagreement per week: ``week, n, disagreements, share``."""
    drift_failed_at: str | None
    """The week the drift rule failed, if it did."""

    @property
    def flagged(self) -> pd.DataFrame:
        return self.table[self.table["flagged"]]


def assess(
    study: Study,
    labels: pd.DataFrame,
    generations: pd.DataFrame,
    routed: pd.DataFrame | None = None,
    assignments: pd.DataFrame | None = None,
) -> QualityReport:
    """Every rater-quality metric of ``study``.

    ``labels`` is the study's ``gold.labels``; ``generations`` its ``raw.generations`` with
    ``record`` and ``expected`` decoded; ``routed`` (``staging.routed_items``) adds the
    ``tier`` and ``stratum`` slices; ``assignments`` (``staging.assignments``) gives the spot
    checks.
    """
    rows = prepare(study, labels, generations, routed)
    metrics: list[dict] = []
    flags: list[dict] = []

    pairs = consistency.duplicate_pairs(rows)
    metrics += consistency.consistency_metrics(study, pairs)
    flags += consistency.consistency_flags(pairs)

    checks = attention.attention_checks(study, labels, rows, generations)
    metrics += attention.attention_metrics(study, checks)
    flags += attention.attention_flags(checks)

    answers = calibration.calibration_answers(study, labels, rows, generations)
    metrics += calibration.calibration_metrics(study, answers)
    flags += calibration.calibration_flags(answers)

    timed = speed.timed_ratings(study, rows)
    metrics += speed.speed_metrics(study, timed)
    flags += speed.speed_flags(study, timed)

    bias_rows, outlier_flags = bias.bias_metrics(study, rows)
    metrics += bias_rows
    flags += outlier_flags

    comparisons = drift.spot_check_comparisons(study, rows, assignments)
    metrics += drift.spot_check_metrics(study, comparisons)
    weekly = drift.weekly_disagreement(comparisons)
    failed_at = (
        drift.drift_failure(
            weekly, study.quality.drift.max_disagreement, study.quality.drift.consecutive_weeks
        )
        if study.quality.drift and len(weekly)
        else None
    )
    promotions = (
        drift.promotions(study, rows, assignments, comparisons)
        if assignments is not None
        else pd.DataFrame(columns=list(drift.PROMOTION_COLUMNS))
    )
    table = frame(metrics)
    table = table.sort_values(["annotator_id", "metric", "slice"], kind="stable")
    return QualityReport(
        table=table.reset_index(drop=True),
        item_flags=item_flags(flags)
        .sort_values(["annotator_id", "flag", "task", "item_id"], kind="stable")
        .reset_index(drop=True),
        promotions=promotions,
        weekly=weekly,
        drift_failed_at=failed_at,
    )


ORDER = (
    "rushed_share",
    "attention_pass_rate",
    "duplicate_within_one",
    "leniency",
    "calibration_mean_signed_error",
    "calibration_within_one",
    "slice_bias",
    "scale_extremes_share",
    "spot_check_disagreement",
    "category_disagreement",
)
"""The order reasons are given in (most actionable first)."""

_WHY = {
    "duplicate_within_one": "inconsistent on hidden duplicates",
    "attention_pass_rate": "misses attention checks",
    "calibration_within_one": "off the calibration key",
    "rushed_share": "rushed",
    "scale_extremes_share": "avoids the ends of the scale",
    "category_disagreement": "raters disagree in a category",
    "spot_check_disagreement": "disagrees with spot checks",
}


def _why(row: pd.Series) -> str:
    m, v = row["metric"], row["value"]
    if m == "leniency":
        return "lenient" if v > 0 else "severe"
    if m == "calibration_mean_signed_error":
        return "reads the scale high" if v > 0 else "reads the scale low"
    if m == "slice_bias":
        where = row["slice"].split("|")[-1]
        return f"rates {where} {'higher' if v > 0 else 'lower'} than the others do"
    if m == "spot_check_disagreement" and row["annotator_id"] == EVERYONE:
        return "spot-check drift"
    return _WHY.get(m, m)


def _breach(row: pd.Series) -> str:
    value, target, comparison = row["value"], row["target"], row["comparison"]
    signed = row["metric"] in ("leniency", "calibration_mean_signed_error", "slice_bias")
    bound = -target if comparison == "|x|<=" and value < 0 else target
    digits = 2 if f"{abs(value):.2f}" != f"{abs(bound):.2f}" else 3
    shown = f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"
    if comparison == ">=":
        text = f"{shown} < {target:.{digits}f}"
    elif comparison == "<=":
        text = f"{shown} > {target:.{digits}f}"
    elif comparison == "|x|<=":
        text = f"{shown} {'>' if value > 0 else '<'} {bound:.{digits}f}"
    else:
        text = shown
    p = row["p_value"]
    if p == p:
        text += ", p<0.001" if p < 0.001 else f", p={p:.3f}"
    return f"{row['metric']} {text}"


def _severity(row: pd.Series) -> float:
    value, target = row["value"], row["target"]
    if target != target:
        return 0.0
    return abs(abs(value) - abs(target))


def flag_summary(table: pd.DataFrame) -> str:
    """Who is flagged and why, one line per annotator (``*``: the panel), e.g.
    ``ann_hale: rushed (rushed_share 0.42 > 0.10), misses attention checks
    (attention_pass_rate 0.33 < 1.00)``. Each metric is named once: its ``all`` row when
    that is flagged, else its worst flagged slice and how many more are flagged."""
    flagged = table[table["flagged"].astype(bool)]
    if flagged.empty:
        return "no rater flagged"
    lines = []
    annotators = sorted(a for a in flagged["annotator_id"].unique() if a != EVERYONE)
    if EVERYONE in set(flagged["annotator_id"]):
        annotators.append(EVERYONE)
    for annotator in annotators:
        own = flagged[flagged["annotator_id"] == annotator]
        reasons = []
        rank = {m: i for i, m in enumerate(ORDER)}
        metrics = sorted(own["metric"].unique(), key=lambda m: (rank.get(m, len(rank)), m))
        for name in metrics:
            rows = own[own["metric"] == name]
            rows = rows.assign(_s=rows.apply(_severity, axis=1))
            top = rows[rows["slice"] == ALL]
            row = (top if len(top) else rows.sort_values("_s", ascending=False)).iloc[0]
            where = "" if row["slice"] == ALL else f" in {row['slice']}"
            more = len(rows) - 1
            extra = f"; {more} more slice{'s' if more > 1 else ''}" if more else ""
            reasons.append(f"{_why(row)} ({_breach(row)}{where}{extra})")
        name = "all raters" if annotator == EVERYONE else annotator
        lines.append(f"{name}: " + ", ".join(reasons))
    return "\n".join(lines)
