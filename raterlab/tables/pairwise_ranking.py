"""Tables of a pairwise study's statistics, from ``gold.pairwise_comparisons``: the ranking,
the win-rate matrix, position bias and agreement on the same pair (see docs/pairwise.md)."""

from __future__ import annotations

from raterlab.tables import fields as f
from raterlab.tables.model import Column, Table

_WRITER = "pairwise_ranking"
_KEYS = (
    f.STUDY,
    f.TASK.described("Task of the pairwise field."),
    f.FIELD.described("The pairwise field."),
    f.SLICE.described("`all`, or `key=value` for a value of a `slices` key on the prompt."),
)
_SYSTEM = Column("system", f.VARCHAR, "A compared system.")
_WINS = Column("wins", f.BIGINT, "Comparisons the system won.")
_LOSSES = Column("losses", f.BIGINT, "Comparisons it lost.")
_TIES = Column("ties", f.BIGINT, "Comparisons called a tie.")
_N_COMPARISONS = Column("n_comparisons", f.BIGINT, "Counted comparisons (ratings) behind the row.")
_WIN_RATE = Column("win_rate", f.DOUBLE, "(wins + ties / 2) / n_comparisons: a tie is half a win.")

_RANKING = (
    *_KEYS,
    _SYSTEM,
    Column(
        "model",
        f.VARCHAR,
        "`davidson` when the field and slice's comparisons hold a tie, else `bradley_terry`.",
    ),
    Column(
        "strength",
        f.DOUBLE,
        "Log-strength log(pi) by maximum likelihood, centred at mean 0 over the systems.",
    ),
    f.CI_LOW.described("95% percentile bootstrap interval of `strength`, prompts resampled."),
    f.CI_HIGH,
    Column("rank", f.INTEGER, "1 = strongest (equal strengths share the best rank)."),
    Column(
        "rank_low",
        f.INTEGER,
        "Best rank of the 95% bootstrap rank interval (2.5th percentile of the ranks).",
    ),
    Column("rank_high", f.INTEGER, "Worst rank of that interval (97.5th percentile)."),
    _WIN_RATE,
    _WINS,
    _LOSSES,
    _TIES,
    _N_COMPARISONS,
    Column("n_prompts", f.BIGINT, "Prompts on which the system was compared."),
    Column("tie_parameter", f.DOUBLE, "Davidson's nu (0 for Bradley-Terry)."),
    Column(
        "ridge",
        f.DOUBLE,
        "0: maximum-likelihood strengths; else the ridge lambda the fit needed because they "
        "do not exist (a system never lost or never won, or the graph is in pieces).",
    ),
    Column("n_resamples", f.INTEGER, "Bootstrap resamples of prompts."),
    f.NOTE.described("Why the strengths are missing or penalised, if they are."),
)

_POSITION_BIAS = (
    *_KEYS,
    f.ANNOTATOR_ID.described("An annotator, or `all` for everyone's choices pooled."),
    Column("n_non_tie", f.BIGINT, "Choices `left` or `right`."),
    Column("n_left", f.BIGINT, "Choices `left`."),
    Column("n_ties", f.BIGINT, "Choices `tie`."),
    Column("left_share", f.DOUBLE, "n_left / n_non_tie (0.5 without position bias)."),
    f.CI_LOW.described("95% Wilson interval of `left_share`."),
    f.CI_HIGH,
    f.P_VALUE.described("Exact two-sided binomial test of `left_share` = 0.5."),
    Column(
        "p_holm",
        f.DOUBLE,
        "`p_value` Holm-corrected over the annotators of the field and slice (the `all` row "
        "keeps its own).",
    ),
    Column("flagged", f.BOOLEAN, "`p_holm` < 0.05 and `left_share` outside [0.4, 0.6]."),
)

_WIN_RATES = (
    *_KEYS,
    _SYSTEM,
    Column("opponent", f.VARCHAR, "The system it was compared with."),
    _WINS.described("Comparisons the system won against the opponent."),
    _LOSSES.described("Comparisons it lost to the opponent."),
    _TIES,
    _N_COMPARISONS,
    _WIN_RATE.described(
        "(wins + ties / 2) / n_comparisons; the (system, opponent) and (opponent, system) "
        "rows sum to 1."
    ),
)

_AGREEMENT = (
    *_KEYS,
    Column(
        "coefficient",
        f.VARCHAR,
        "`percent_agreement`, `cohen_kappa` (two raters) or `fleiss_kappa` (more), "
        "`krippendorff_alpha` (nominal), `gwet_ac1`.",
    ),
    f.ESTIMATE.described("The coefficient on the 3-way choice `a` / `b` / `tie`."),
    Column("se", f.DOUBLE, "Its analytic standard error, where the coefficient has one."),
    f.CI_LOW.described("95% percentile bootstrap interval over pairs."),
    f.CI_HIGH,
    f.N_UNITS.described("Pairs (items) in the computation."),
    f.N_RATERS,
    f.NOTE.described("Why an estimate is missing (no pair rated twice, one outcome only...)."),
)

RANKING = Table(
    "gold.pairwise_ranking",
    "The systems of a pairwise field ranked: Bradley-Terry strengths (Davidson's with ties) "
    "with bootstrap intervals over prompts, rank intervals and win rates.",
    grain="field, slice and system",
    written_by=_WRITER,
    columns=_RANKING,
    key=("study", "task", "field", "slice", "system"),
    details="See [pairwise.md](pairwise.md) for the model and the intervals.\n\n"
    "```sql\n"
    "SELECT system, rank, rank_low, rank_high, round(strength, 2) AS strength,\n"
    "       round(ci_low, 2) AS lo, round(ci_high, 2) AS hi, round(win_rate, 3) AS win_rate\n"
    "FROM gold.pairwise_ranking WHERE slice = 'all' ORDER BY task, field, rank;\n"
    "```",
)

POSITION_BIAS = Table(
    "gold.pairwise_position_bias",
    "Share of `left` among each annotator's non-tie choices, with an interval and a test "
    "against 0.5 (sides are balanced by design).",
    grain="field, slice and annotator (and `all`)",
    written_by=_WRITER,
    columns=_POSITION_BIAS,
    key=("study", "task", "field", "slice", "annotator_id"),
)

WIN_RATES = Table(
    "gold.pairwise_win_rates",
    "The win-rate matrix of a pairwise field: each system against each opponent it met.",
    grain="field, slice, system and opponent",
    written_by=_WRITER,
    columns=_WIN_RATES,
    key=("study", "task", "field", "slice", "system", "opponent"),
)

AGREEMENT = Table(
    "gold.pairwise_agreement",
    "Agreement between raters of the same pair on the canonical choice (`a`, `b`, `tie`), "
    "whichever side each saw the systems on.",
    grain="field, slice and coefficient",
    written_by=_WRITER,
    columns=_AGREEMENT,
    key=("study", "task", "field", "slice", "coefficient"),
)

TABLES = (RANKING, WIN_RATES, POSITION_BIAS, AGREEMENT)
