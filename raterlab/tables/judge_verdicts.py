"""Tables of judge robustness (is the judge consistent with itself, is it biased in a slice)
and of the verdict per judge, field and slice: may it replace the humans here?"""

from __future__ import annotations

from raterlab.tables import fields as f
from raterlab.tables.model import Column, Table

_WHO = (
    f.STUDY,
    Column("task", f.VARCHAR, "Task of the field."),
    Column("judge", f.VARCHAR, "Judge name (`judges.panel` of the study)."),
    Column("field", f.VARCHAR, "Human rating field the judge predicts."),
    Column(
        "slice", f.VARCHAR, "`all`, or `key=level` for a slice of the study (e.g. `tier=GOLD`)."
    ),
)

_ROBUSTNESS = (
    *_WHO,
    Column(
        "check",
        f.VARCHAR,
        "`repeat_run` (the judge against itself over its runs), `position_swap` (pairwise: "
        "the same winner with the two sides swapped), `position_bias` (pairwise: share of "
        "verdicts for the left side) or `slice_bias` (judge minus human consensus).",
    ),
    Column(
        "statistic",
        f.VARCHAR,
        "`cohen_kappa` (two runs) or `fleiss_kappa` (more) of binary and categorical "
        "fields, `krippendorff_alpha` (interval level) of graded ones; `consistent_share`; "
        "`left_share`; `mean_difference`.",
    ),
    Column(
        "label",
        f.VARCHAR,
        "`slice_bias` of a categorical field: the label whose share is compared (NULL otherwise).",
    ),
    Column(
        "n",
        f.BIGINT,
        "Units behind the row: items rated in two or more runs, pairs judged in both orders "
        "(once per run), the verdicts on those pairs naming a side, items with a verdict and "
        "a consensus value.",
    ),
    Column("n_runs", f.BIGINT, "`repeat_run`: the judge's runs."),
    Column("estimate", f.DOUBLE, "The statistic on the data."),
    Column(
        "ci_low",
        f.DOUBLE,
        "Lower end of the interval: bootstrap percentile over items (`repeat_run`), Wilson "
        "(`position_swap`, `position_bias`), t (`slice_bias`).",
    ),
    Column("ci_high", f.DOUBLE, "Upper end of that interval."),
    Column(
        "p_value",
        f.DOUBLE,
        "`position_bias`: exact two-sided binomial test of a left share of 1/2; "
        "`slice_bias`: one-sample t-test of a zero mean difference.",
    ),
    Column(
        "flagged",
        f.BOOLEAN,
        "`repeat_run` below 0.8, `position_swap` below 0.8, `position_bias` or `slice_bias` "
        "with `p_value` below 1 - `judges.confidence`; NULL when undefined.",
    ),
    Column("note", f.VARCHAR, "Why an estimate is missing, if it is."),
    f.COMPUTED_AT.described("When the checks were computed."),
)

_VERDICTS = (
    *_WHO,
    Column(
        "verdict",
        f.VARCHAR,
        "`replace` (may replace humans here), `ppi` (only with human correction, PPI) or `no`.",
    ),
    Column("reasons", f.VARCHAR, "Each criterion of the rule and how it came out, `; `-joined."),
    Column(
        "statistic",
        f.VARCHAR,
        "The agreement compared with the human ceiling: `kappa` (binary, categorical) or "
        "`spearman` (Likert).",
    ),
    Column("estimate", f.DOUBLE, "The judge's `statistic` against the humans."),
    Column("ceiling_low", f.DOUBLE, "Lower end of the human ceiling's interval."),
    Column("ceiling_high", f.DOUBLE, "Upper end of the human ceiling's interval."),
    Column(
        "within_human_range", f.BOOLEAN, "`estimate` is at least `ceiling_low` (NULL: no ceiling)."
    ),
    Column(
        "alt_winning_rate",
        f.DOUBLE,
        "The alternative annotator test's winning rate (passes at 0.5); NULL when not run.",
    ),
    Column(
        "winner_kappa",
        f.DOUBLE,
        "Pairwise fields: the judge's kappa with the human winners (`gold.pairwise_judges`).",
    ),
    Column(
        "winner_kappa_low",
        f.DOUBLE,
        "Lower end of its interval; where the alternative annotator test was not run, the "
        "rule asks it to reach `ceiling_low`.",
    ),
    Column("n_checks", f.BIGINT, "Robustness checks measured (`gold.judge_robustness`)."),
    Column("checks_flagged", f.VARCHAR, "The flagged ones with estimate and interval ('' none)."),
    Column(
        "n_labeled",
        f.BIGINT,
        "Units with a judge verdict and a human consensus value (or the PPI table's own).",
    ),
    Column(
        "effective_n",
        f.DOUBLE,
        "`gold.judge_substitution`'s effective sample size, where that table has the row.",
    ),
    Column("rho", f.DOUBLE, "Pearson correlation of the judge and the consensus (numeric fields)."),
    Column("rho_low", f.DOUBLE, "Lower end of rho's Fisher-z interval."),
    Column("rho_high", f.DOUBLE, "Upper end of rho's Fisher-z interval."),
    Column(
        "judge_accuracy",
        f.DOUBLE,
        "Binary fields: share of units where the judge equals the consensus.",
    ),
    Column(
        "system_score",
        f.DOUBLE,
        "Binary fields: share of units whose consensus is 1 (the judged systems' score).",
    ),
    Column(
        "ppi_gain",
        f.DOUBLE,
        "Effective sample size gain of PPI: `effective_n / n_labeled`, else `1 / (1 - rho^2)`.",
    ),
    Column(
        "ppi_gain_low",
        f.DOUBLE,
        "The gain the rule reads: `ppi_gain` from the PPI table, else `1 / (1 - r^2)` at the "
        "end of rho's interval nearest 0 (1 when it covers 0).",
    ),
    Column("gain_source", f.VARCHAR, "`judge_substitution` or `rho` (NULL: no gain measured)."),
    Column(
        "dorner_bound",
        f.DOUBLE,
        "2: the largest gain of any debiasing method when the judge is no more accurate than "
        "the judged model (Dorner, Nastl & Hardt, ICLR 2025).",
    ),
    Column(
        "dorner_applies",
        f.BOOLEAN,
        "`judge_accuracy <= system_score`: the bound holds here (NULL: not a binary field).",
    ),
    f.COMPUTED_AT.described("When the verdict was computed."),
)

ROBUSTNESS = Table(
    "gold.judge_robustness",
    "Robustness of each judge from its own verdicts: repeat-run consistency, position swap "
    "and position bias (pairwise verdicts), bias per slice, with intervals.",
    grain="judge, field, slice, check and label",
    written_by="judge_robustness",
    columns=_ROBUSTNESS,
    unique=(("study", "task", "judge", "field", "slice", "check", "label"),),
    details="See the module docstring of `raterlab/judges/robustness.py` for the formulas and "
    "references. A judge file's `run` column gives the runs; verdicts from the generations "
    "are one run.",
)

VERDICTS = Table(
    "gold.judge_verdicts",
    "One verdict per judge, field and slice: may the judge replace the humans here, only "
    "with human correction (PPI), or not; with its reasons and the inputs it used.",
    grain="judge, field and slice",
    written_by="judge_verdicts",
    columns=_VERDICTS,
    key=("study", "task", "judge", "field", "slice"),
    details="The rule (`raterlab/judges/verdict.py`): `replace` when the alternative "
    "annotator test passes (a pairwise field where it was not run: when `winner_kappa_low` "
    "reaches `ceiling_low`), the agreement reaches the human ceiling's interval and no "
    "measured robustness check is flagged; else `ppi` when `ppi_gain_low > 1`; else `no`.\n\n"
    "```sql\n"
    "SELECT task, field, judge, verdict, reasons\n"
    "FROM gold.judge_verdicts\n"
    "WHERE study = 'gold_tiers' AND slice = 'all'\n"
    "ORDER BY task, field, judge;\n"
    "```",
)

_PAIRWISE_JUDGES = (
    *_WHO[:3],
    Column("field", f.VARCHAR, "The pairwise field the judge chose on."),
    _WHO[4],
    Column("n_pairs", f.BIGINT, "Pairs with a verdict of the judge and a human consensus winner."),
    Column(
        "n_verdicts",
        f.BIGINT,
        "Verdicts on those pairs compared with the winner: the first run of each order the "
        "judge saw a pair in (two per pair judged in both orders).",
    ),
    Column(
        "percent_agreement",
        f.DOUBLE,
        "Share of those verdicts that name the human winner (`a`, `b` or `tie`; a strong "
        "preference counts as a preference).",
    ),
    Column("kappa", f.DOUBLE, "Cohen's kappa of the verdicts and the human winners, on a/b/tie."),
    Column(
        "kappa_low",
        f.DOUBLE,
        "Lower end of kappa's percentile bootstrap interval over pairs (a pair's verdicts are "
        "resampled together).",
    ),
    Column("kappa_high", f.DOUBLE, "Upper end of that interval."),
    Column(
        "n_swapped_pairs",
        f.BIGINT,
        "Pairs judged in both orders within a run, counted once per run (NULL: none).",
    ),
    Column(
        "consistent_share",
        f.DOUBLE,
        "Share of the swapped pairs with the same winner in both orders (`position_swap` of "
        "`gold.judge_robustness`).",
    ),
    Column("consistent_share_low", f.DOUBLE, "Lower end of its Wilson interval."),
    Column("consistent_share_high", f.DOUBLE, "Upper end of its Wilson interval."),
    Column(
        "n_non_tie",
        f.BIGINT,
        "Verdicts on the swapped pairs that name a side (`position_bias` of "
        "`gold.judge_robustness`).",
    ),
    Column("left_share", f.DOUBLE, "Share of them that name the left side (0.5 without bias)."),
    Column("left_share_low", f.DOUBLE, "Lower end of its Wilson interval."),
    Column("left_share_high", f.DOUBLE, "Upper end of its Wilson interval."),
    Column("p_value", f.DOUBLE, "Exact two-sided binomial test of a left share of 1/2."),
    Column(
        "flagged",
        f.BOOLEAN,
        "Position bias: `p_value` below 1 - `judges.confidence` (NULL: no swapped pair).",
    ),
    f.COMPUTED_AT.described("When the rows were computed."),
)

PAIRWISE_JUDGES = Table(
    "gold.pairwise_judges",
    "Each judge of a pairwise field against the humans' winners (agreement, kappa) and, on "
    "the pairs it judged in both orders, its swap consistency and left share.",
    grain="judge, pairwise field and slice",
    written_by="judge_robustness",
    columns=_PAIRWISE_JUDGES,
    key=("study", "task", "judge", "field", "slice"),
    details="The human winner is the pair's `gold.consensus` value (adjudicated where the "
    "raters split). Formulas in `raterlab/judges/pairwise.py` (agreement) and "
    "`raterlab/judges/robustness.py` (swap consistency and left share, which are also the "
    "`position_swap` and `position_bias` rows of `gold.judge_robustness`).\n\n"
    "```sql\n"
    "SELECT judge, percent_agreement, kappa, kappa_low, kappa_high,\n"
    "       consistent_share, left_share, p_value, flagged\n"
    "FROM gold.pairwise_judges\n"
    "WHERE study = 'pairwise_arena' AND slice = 'all';\n"
    "```",
)

TABLES = (ROBUSTNESS, VERDICTS, PAIRWISE_JUDGES)
