"""Tables of rater quality: per annotator metrics, flagged ratings and drift promotions."""

from __future__ import annotations

from raterlab.tables import fields as f
from raterlab.tables.model import Column, Table

RATER_QUALITY = Table(
    "gold.rater_quality",
    "Each rater-quality metric per annotator and slice, judged against its target.",
    grain="annotator, metric and slice",
    written_by="rater_quality",
    columns=(
        f.STUDY,
        f.ANNOTATOR_ID.described("The annotator, or `*` for a row about the whole panel."),
        Column("metric", f.VARCHAR, "What the value is (`raterlab/quality/rater_quality.py`)."),
        f.SLICE.described("Which ratings it is computed on (`raterlab/quality/ratings.py`)."),
        Column("value", f.DOUBLE, "The metric's value."),
        Column("target", f.DOUBLE, "The bound the value is judged against (NaN: not judged)."),
        Column(
            "comparison",
            f.VARCHAR,
            "How `value` must relate to `target` to pass: `>=`, `<=`, `|x|<=`.",
        ),
        f.FLAGGED.described("The row breaks its rule."),
        f.N.described("Observations behind the value (pairs x fields, checks, ratings...)."),
        f.CI_LOW.described("Lower end of the 95% interval, where one is computed."),
        f.CI_HIGH,
        f.P_VALUE.described("The test's p-value where one is computed (leniency, slice bias)."),
    ),
    details="The metrics, their modules and when each is flagged are listed in the docstring "
    "of `raterlab/quality/rater_quality.py`.",
)

RATER_ITEM_FLAGS = Table(
    "gold.rater_item_flags",
    "Ratings that raised a rater-quality flag.",
    grain="flagged rating",
    written_by="rater_quality",
    columns=(
        f.STUDY,
        f.ANNOTATOR_ID,
        f.TASK,
        f.ITEM_ID,
        Column(
            "flag",
            f.VARCHAR,
            "`rushed`, `attention_failed`, `duplicate_inconsistent`, `calibration_off`, "
            "`outlier_item`.",
        ),
        Column("detail", f.VARCHAR, "What was seen (times, values)."),
    ),
)

PROMOTIONS = Table(
    "gold.promotions",
    "TRIAGE items promoted by the drift rule.",
    grain="promoted item",
    written_by="rater_quality",
    columns=(
        f.STUDY,
        f.ITEM_ID,
        f.TASK,
        f.TIER.described("The item's routing tier."),
        Column("to_tier", f.VARCHAR, "The tier it is promoted to."),
        Column("week", f.VARCHAR, "The week of spot checks that triggered the promotion."),
        f.REASON.described("Why (the drift rule's figures)."),
    ),
)

TABLES = (RATER_QUALITY, RATER_ITEM_FLAGS, PROMOTIONS)
