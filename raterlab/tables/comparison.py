"""Tables of results per condition or system (the study's ``comparison:``)."""

from __future__ import annotations

from raterlab.tables import fields as f
from raterlab.tables.model import Column, Table

_KEYS = (
    f.STUDY,
    Column("task", f.VARCHAR, "Task of the items."),
    Column("field", f.VARCHAR, "Binary or Likert rating field (consensus value)."),
    Column("by", f.VARCHAR, "The compared item key (`comparison.by`)."),
)
_SLICE = Column(
    "slice", f.VARCHAR, "`all`, or `key=value` for a value of a `comparison.slices` key."
)

_MEANS = (
    *_KEYS,
    Column("level", f.VARCHAR, "A value of that key (a condition, system, model...)."),
    _SLICE,
    Column("n_units", f.INTEGER, "Items with a consensus value."),
    Column("mean", f.DOUBLE, "Mean consensus value (a share of 1s for binary fields)."),
    Column("ci_low", f.DOUBLE, "95% percentile bootstrap interval of the mean, over items."),
    Column("ci_high", f.DOUBLE, "Upper end of that interval."),
)

_COMPARISON = (
    *_KEYS,
    Column("level", f.VARCHAR, "The value compared (e.g. `A`)."),
    Column("reference", f.VARCHAR, "What it is compared with: the baseline, or `rest`."),
    _SLICE,
    Column("paired", f.BOOLEAN, "Units paired by `comparison.pair` (e.g. the same prompt)."),
    Column("n_units", f.INTEGER, "Pairs (paired) or items of both groups (unpaired)."),
    Column("mean_level", f.DOUBLE, "Mean consensus value of the level (over complete pairs)."),
    Column("mean_reference", f.DOUBLE, "Mean consensus value of the reference (idem)."),
    Column("mean_diff", f.DOUBLE, "Mean difference level - reference (of pair differences)."),
    Column("mean_diff_low", f.DOUBLE, "95% percentile bootstrap interval of `mean_diff`."),
    Column("mean_diff_high", f.DOUBLE, "Upper end of that interval."),
    Column("median_diff", f.DOUBLE, "Median pair difference, or difference of the medians."),
    Column("median_diff_low", f.DOUBLE, "95% percentile bootstrap interval of `median_diff`."),
    Column("median_diff_high", f.DOUBLE, "Upper end of that interval."),
    Column("test", f.VARCHAR, "`wilcoxon_signed_rank` (paired) or `mann_whitney` (unpaired)."),
    Column("statistic", f.DOUBLE, "T+ (rank sum of positive differences), or U of the level."),
    Column("p_value", f.DOUBLE, "Two-sided p-value of `test`."),
    Column("p_holm", f.DOUBLE, "`p_value` Holm-corrected over the values of the slice key."),
    Column("sign_test_p", f.DOUBLE, "Two-sided sign-test p-value (paired only)."),
    Column("rank_biserial", f.DOUBLE, "Rank-biserial correlation, -1..1, > 0 favours `level`."),
    Column("win_share", f.DOUBLE, "Share of pairs where the level's value is higher (paired)."),
    Column("tie_share", f.DOUBLE, "Share of pairs with equal values (paired)."),
    Column("loss_share", f.DOUBLE, "Share of pairs where the level's value is lower (paired)."),
    Column("adjusted_diff", f.DOUBLE, "Difference from raw ratings with rater fixed effects."),
    Column("adjusted_se", f.DOUBLE, "Its standard error, clustered by pair (or item)."),
    Column("adjusted_p", f.DOUBLE, "Two-sided t-test of `adjusted_diff` (clusters - 1 df)."),
    Column("n_ratings", f.INTEGER, "Raw ratings in the rater-adjusted estimate."),
    Column("n_raters", f.INTEGER, "Raters in the rater-adjusted estimate."),
)


MEANS = Table(
    "gold.condition_means",
    "Mean consensus value per compared value (condition, system...), with its interval.",
    grain="field, compared value and slice",
    written_by="condition_comparison",
    columns=_MEANS,
    key=("study", "task", "field", "by", "level", "slice"),
)

COMPARISON = Table(
    "gold.condition_comparison",
    "Each contrast of the study's `comparison:` (level against reference), tested.",
    grain="contrast (field, level vs reference) and slice",
    written_by="condition_comparison",
    columns=_COMPARISON,
    key=("study", "task", "field", "by", "level", "reference", "slice"),
)

TABLES = (COMPARISON, MEANS)
