"""Tables of judge calibration: each automatic judge against the humans, and the multi-judge
weights (see docs/judges.md)."""

from __future__ import annotations

from raterlab.tables import fields as f
from raterlab.tables.model import Column, Table

_CALIBRATION = (
    f.STUDY,
    Column("task", f.VARCHAR, "Task of the field (NULL from `raterlab calibrate`)."),
    Column("judge", f.VARCHAR, "Judge name (`judges.panel` of the study)."),
    Column("field", f.VARCHAR, "Human rating field the judge predicts."),
    Column(
        "slice", f.VARCHAR, "`all`, or `key=level` for a slice of the study (e.g. `tier=GOLD`)."
    ),
    Column(
        "level",
        f.VARCHAR,
        "`item` (units pooled), `group` (within each group, averaged over groups), "
        "`system` (per-system means).",
    ),
    Column(
        "statistic",
        f.VARCHAR,
        "`pearson`, `spearman`, `kendall` (tau-b), `kappa`, `accuracy`, `precision`, "
        "`recall`, `confusion`, `bias`, `brier`, `ece`, `valid_rate`, `human_ties`, "
        "`alt_winning_rate`, `alt_advantage_probability`, or `<statistic>_diff` (this "
        "judge minus `versus`).",
    ),
    Column(
        "label",
        f.VARCHAR,
        "Class of per-label rows (`precision`, `recall`, `bias`), `judge|human` for "
        "`confusion`, the system (graded) or `system|class` for `bias` at level `system`, "
        "`epsilon=..` for the alternative annotator test.",
    ),
    Column("versus", f.VARCHAR, "The other judge of a `_diff` row."),
    Column(
        "n",
        f.BIGINT,
        "Units compared (systems at level `system`; judged instances for the alternative "
        "annotator test; verdicts given for `valid_rate`).",
    ),
    Column(
        "n_groups",
        f.BIGINT,
        "Groups where the statistic is defined (level `group`); annotators tested "
        "(alternative annotator test).",
    ),
    Column("estimate", f.DOUBLE, "The statistic on the data."),
    Column(
        "ci_low",
        f.DOUBLE,
        "Lower end of the bootstrap percentile interval (Wilson for `valid_rate`).",
    ),
    Column("ci_high", f.DOUBLE, "Upper end of the interval."),
    Column(
        "human_ceiling",
        f.DOUBLE,
        "Mean over annotators of the same statistic between one annotator and the "
        "aggregate of the others (leave one annotator out).",
    ),
    Column("ceiling_low", f.DOUBLE, "Lower end of the ceiling's bootstrap interval."),
    Column("ceiling_high", f.DOUBLE, "Upper end of the ceiling's interval."),
    Column(
        "human_alpha",
        f.DOUBLE,
        "Krippendorff's alpha among the humans at the field's level of measurement (item level).",
    ),
    Column(
        "within_human_range", f.BOOLEAN, "The judge's estimate is at least the ceiling's lower end."
    ),
    Column(
        "p_value", f.DOUBLE, "`_diff` rows: two-sided paired-bootstrap p-value of no difference."
    ),
    Column(
        "williams_t",
        f.DOUBLE,
        "`pearson_diff` rows: Williams' t of the two dependent correlations.",
    ),
    Column("williams_p", f.DOUBLE, "Two-sided p-value of Williams' t (n - 3 degrees of freedom)."),
    f.COMPUTED_AT.described("When the calibration was computed."),
)

_WEIGHTS = (
    f.STUDY,
    Column("task", f.VARCHAR, "Task of the field."),
    Column("judge", f.VARCHAR, "Judge name."),
    Column("field", f.VARCHAR, "Human rating field."),
    Column("n", f.BIGINT, "Units with both a judge verdict and a consensus value."),
    Column(
        "agreement_statistic", f.VARCHAR, "`kappa` (binary, categorical) or `spearman` (Likert)."
    ),
    Column("agreement", f.DOUBLE, "The judge against the consensus (`gold.consensus`)."),
    Column("alpha_humans", f.DOUBLE, "Krippendorff's alpha among the humans at the field's level."),
    Column("alpha_with_judge", f.DOUBLE, "The same alpha with the judge added as one more rater."),
    Column("alpha_drop", f.DOUBLE, "`alpha_humans - alpha_with_judge`."),
    Column("flagged", f.BOOLEAN, "Outside the study's `judges.bounds`."),
    Column("reason", f.VARCHAR, "Which bound it breaks."),
    Column(
        "weight",
        f.DOUBLE,
        "`max(agreement, 0)`, times `judges.deweight` when flagged.",
    ),
    Column(
        "share",
        f.DOUBLE,
        "The weights normalised to sum to 1 over the field's judges (0 when all are 0).",
    ),
    f.COMPUTED_AT.described("When the weights were computed."),
)


CALIBRATION = Table(
    "gold.judge_calibration",
    "Each judge of the study's `judges:` section against the humans, statistic by statistic.",
    grain="judge, field, slice, level and statistic",
    written_by="judge_calibration",
    columns=_CALIBRATION,
    unique=(("study", "task", "judge", "field", "slice", "level", "statistic", "label", "versus"),),
    details="See [judges.md](judges.md) for the statistics and their references. Replaced for "
    "the study by the `judge_calibration` asset. The headline of a field is the row with "
    "`slice = 'all'`, `level = 'item'`, `statistic` `spearman` (Likert) or `kappa` (binary, "
    "categorical) and no `versus`.\n\n"
    "```sql\n"
    "-- each judge's Spearman / kappa against the human ceiling, all items\n"
    "SELECT task, field, judge, statistic, n, round(estimate, 3) AS est,\n"
    "       round(ci_low, 3) AS lo, round(ci_high, 3) AS hi, round(human_ceiling, 3) AS humans\n"
    "FROM gold.judge_calibration\n"
    "WHERE study = 'gold_tiers' AND slice = 'all' AND level = 'item' AND versus IS NULL\n"
    "  AND statistic IN ('spearman', 'kappa')\n"
    "ORDER BY task, field, judge;\n"
    "```",
)

WEIGHTS = Table(
    "gold.judge_weights",
    "The multi-judge weights of the gold-set protocol (a judge outside the study's "
    "`judges.bounds` is flagged and deweighted).",
    grain="judge and field",
    written_by="judge_calibration",
    columns=_WEIGHTS,
    key=("study", "task", "judge", "field"),
)

_SUBSTITUTION = (
    f.STUDY,
    Column("task", f.VARCHAR, "Task of the field."),
    Column("judge", f.VARCHAR, "Judge name (`judges.panel` of the study)."),
    Column("field", f.VARCHAR, "Human rating field the judge predicts."),
    Column(
        "slice", f.VARCHAR, "`all`, or `key=level` for a slice of the study (e.g. `tier=GOLD`)."
    ),
    Column(
        "label",
        f.VARCHAR,
        "NULL for a Likert field (the mean score); `1` for a binary field and each label of a "
        "categorical one (the rate of that label).",
    ),
    Column(
        "n_labeled",
        f.BIGINT,
        "Items the judge scored that have human ratings that count (within `judges.calibrate_on`).",
    ),
    Column("n_unlabeled", f.BIGINT, "Items the judge scored without such ratings."),
    Column(
        "estimate",
        f.DOUBLE,
        "Prediction-powered (PPI++) estimate of the mean over all scored items of the per-item "
        "human aggregate (`judges.aggregate` of the ratings, or of the label's indicators); "
        "NULL without 2 labelled and 1 unlabelled items.",
    ),
    Column("ci_low", f.DOUBLE, "Lower end of its normal interval (`judges.confidence`)."),
    Column("ci_high", f.DOUBLE, "Upper end of the interval."),
    Column(
        "classical_estimate",
        f.DOUBLE,
        "The mean of the human aggregate over the labelled items alone.",
    ),
    Column("classical_ci_low", f.DOUBLE, "Lower end of its normal interval."),
    Column("classical_ci_high", f.DOUBLE, "Upper end of the interval."),
    Column(
        "lam",
        f.DOUBLE,
        "The power-tuning parameter (0: the classical estimate, 1: plain PPI), chosen as "
        "`ppi_py.ppi_mean_ci` chooses it.",
    ),
    Column(
        "effective_n",
        f.DOUBLE,
        "`n_labeled * classical variance / PPI variance`: the human-labelled items a "
        "classical estimate would need for an interval as narrow.",
    ),
    f.COMPUTED_AT.described("When the estimates were computed."),
)

SUBSTITUTION = Table(
    "gold.judge_substitution",
    "Prediction-powered estimates of the human mean (or rate) over every item a judge "
    "scored, from the humans on the labelled items and the judge on all.",
    grain="judge, field, slice and label",
    written_by="judge_substitution",
    columns=_SUBSTITUTION,
    unique=(("study", "task", "judge", "field", "slice", "label"),),
    details="See [judges.md](judges.md#prediction-powered-estimates) for what the estimates "
    "mean and when to trust them. Replaced for the study by the `judge_substitution` "
    "asset.\n\n"
    "```sql\n"
    "-- each judge's estimate beside the humans' own, all items\n"
    "SELECT task, field, label, judge, n_labeled, n_unlabeled,\n"
    "       round(estimate, 3) AS ppi, round(ci_low, 3) AS lo, round(ci_high, 3) AS hi,\n"
    "       round(classical_estimate, 3) AS humans, round(effective_n, 1) AS effective_n\n"
    "FROM gold.judge_substitution\n"
    "WHERE study = 'gold_tiers' AND slice = 'all'\n"
    "ORDER BY task, field, label, judge;\n"
    "```",
)

TABLES = (CALIBRATION, WEIGHTS, SUBSTITUTION)
