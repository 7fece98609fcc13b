"""The ranking of a pairwise study's systems, with the win-rate matrix, position bias and
agreement on the same pair, from ``gold.pairwise_comparisons``. Its checks: intervals around
their estimates and every system ranked, position-biased raters (warnings)."""

import dagster as dg
import pandas as pd

from assets.metadata import table_md
from assets.partitions import study_partitions
from assets.study_asset import StudyStep, study_asset
from raterlab.pairwise.contract import interval_problems, missing_systems
from raterlab.pairwise.study import ALL, pairwise_tables
from raterlab.tables.pairwise_ranking import POSITION_BIAS, RANKING
from raterlab.warehouse import read_table
from resources import Raterlab

COMPARISONS = "gold.pairwise_comparisons"
SHOWN = [
    "task",
    "field",
    "system",
    "rank",
    "rank_low",
    "rank_high",
    "strength",
    "ci_low",
    "ci_high",
    "win_rate",
    "n_comparisons",
]


@study_asset(
    group="pairwise",
    deps=["pairwise_comparisons"],
    kinds={"duckdb"},
    table=RANKING.name,
)
def pairwise_ranking(step: StudyStep) -> dg.MaterializeResult:
    """``gold.pairwise_ranking`` (Bradley-Terry strengths, Davidson's with ties, bootstrap
    intervals over prompts, rank intervals, win rates), ``gold.pairwise_win_rates``,
    ``gold.pairwise_position_bias`` and ``gold.pairwise_agreement``, per pairwise field and
    slice, replaced for the study in one transaction and published; empty for a study
    without pairwise comparisons. Bootstraps are seeded with the study's ``design.seed``."""
    comparisons = step.optional_frame(COMPARISONS)
    if comparisons is None or comparisons.empty:
        step.create_empty_tables()
        return dg.MaterializeResult(metadata={"pairwise": "no pairwise comparisons"})
    if step.unchanged(comparisons):
        return step.skipped()
    tables = pairwise_tables(comparisons, step.study.slices, seed=step.study.design.seed)
    written = step.write(tables, published=True)
    ranking = tables[RANKING.name]
    overall = ranking[ranking["slice"] == ALL].sort_values(["task", "field", "rank"])
    bias = tables[POSITION_BIAS.name]
    flagged = bias[(bias["slice"] == ALL) & bias["flagged"].astype(bool)]
    return dg.MaterializeResult(
        metadata={
            "rows": written,
            "ranking": table_md(overall[SHOWN]),
            "position_biased": table_md(
                flagged[["task", "field", "annotator_id", "left_share", "p_holm"]]
            ),
        }
    )


def _tables(raterlab: Raterlab, study: str, *names: str) -> list[pd.DataFrame | None]:
    with raterlab.warehouse(read_only=True) as con:
        return [read_table(con, name, study) for name in names]


@dg.asset_check(asset=pairwise_ranking, partitions_def=study_partitions)
def ranking_intervals_and_systems(
    context: dg.AssetCheckExecutionContext, raterlab: Raterlab
) -> dg.AssetCheckResult:
    """Each strength and rank inside its bootstrap interval, and every compared system ranked
    on ``slice = 'all'`` (a percentile interval can miss its estimate on very few prompts,
    so this warns)."""
    comparisons, ranking = _tables(raterlab, context.partition_key, COMPARISONS, RANKING.name)
    if comparisons is None or ranking is None or comparisons.empty:
        return dg.AssetCheckResult(passed=True, metadata={"pairwise": "no comparisons"})
    problems = interval_problems(ranking) + missing_systems(comparisons, ranking)
    return dg.AssetCheckResult(
        passed=not problems,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={"problems": dg.MetadataValue.md("\n".join(f"- {p}" for p in problems) or "none")},
    )


@dg.asset_check(asset=pairwise_ranking, partitions_def=study_partitions)
def no_position_biased_raters(
    context: dg.AssetCheckExecutionContext, raterlab: Raterlab
) -> dg.AssetCheckResult:
    """No annotator flagged for position bias on any pairwise field (all comparisons):
    ``left`` share outside [0.4, 0.6] with a Holm-corrected binomial p < 0.05."""
    (bias,) = _tables(raterlab, context.partition_key, POSITION_BIAS.name)
    rows = bias[bias["slice"] == ALL] if bias is not None else None
    flagged = rows[rows["flagged"].astype(bool)] if rows is not None else None
    if flagged is None:
        return dg.AssetCheckResult(passed=True, metadata={"pairwise": "no comparisons"})
    return dg.AssetCheckResult(
        passed=flagged.empty,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={
            "flagged": len(flagged),
            "flagged_raters": table_md(
                flagged[["task", "field", "annotator_id", "n_non_tie", "left_share", "p_holm"]]
            ),
        },
    )
