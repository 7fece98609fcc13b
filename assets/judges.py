"""Judge calibration: every judge of the study against the humans, after consensus. Its
check: judges outside the study's bounds (a warning). Judge substitution: the human mean
over every item a judge scored, by prediction-powered inference."""

import dagster as dg

from assets.metadata import table_md
from assets.partitions import study_partitions
from assets.study_asset import StudyStep, study_asset
from raterlab.judges.plot import HEADLINE_COLUMNS, headline
from raterlab.judges.store import read_calibration
from raterlab.judges.study import run_study
from raterlab.judges.study_substitution import TABLE as SUBSTITUTION
from raterlab.judges.study_substitution import run_substitution
from raterlab.judges.verdicts import imported_files, judges_dir
from resources import Raterlab


@study_asset(
    group="consensus",
    deps=["consensus"],
    kinds={"duckdb", "png"},
    table="gold.judge_calibration",
)
def judge_calibration(step: StudyStep) -> dg.MaterializeResult:
    """``gold.judge_calibration`` (each judge of the study's ``judges:`` section against the
    humans, per field, slice and level, with bootstrap intervals and the human ceiling) and
    ``gold.judge_weights`` (agreement with the consensus, alpha with and without the judge, a
    weight, flags), replaced for the study in one transaction; the plot
    ``reports/<study>/judge_calibration.png``. When the ratings, verdicts, records and tiers
    are those the stored calibration was computed from, its rows are taken again and only the
    weights (which read the consensus) are computed; when none of the study's tables before it
    nor the judge files changed, nothing is."""
    study = step.study
    if study.judges is None:
        step.create_empty_tables()
        return dg.MaterializeResult(metadata={"judges": "none declared"})
    if step.warehouse_unchanged(judge_files(step)):
        return step.skipped()
    with step.raterlab.warehouse() as con:
        result, plot = run_study(con, study, step.raterlab.paths)
        step.publish(con, ["gold.judge_calibration", "gold.judge_weights"])
    shown = headline(result.calibration)[list(HEADLINE_COLUMNS)].round(3)
    flagged = result.flagged()[["task", "field", "judge", "reason"]]
    return dg.MaterializeResult(
        metadata={
            "rows": len(result.calibration),
            "judges": len(study.judges.panel),
            "flagged": len(flagged),
            "headline": table_md(shown, decimals=None),
            "flagged_judges": table_md(flagged, decimals=None),
            "plot": dg.MetadataValue.path(str(plot)) if plot else "nothing to plot yet",
        }
    )


@study_asset(group="consensus", deps=["consensus"], kinds={"duckdb"}, table=SUBSTITUTION)
def judge_substitution(step: StudyStep) -> dg.MaterializeResult:
    """``gold.judge_substitution``: per task, judge, field (and label) and slice, the
    prediction-powered (PPI++) estimate of the human mean or rate over every item the judge
    scored, from the humans on the items they rated (within ``judges.calibrate_on``) and the
    judge on all, beside the human-only estimate and the effective number of human labels;
    replaced for the study in one transaction and published."""
    if step.study.judges is None:
        step.create_empty_tables()
        return dg.MaterializeResult(metadata={"judges": "none declared"})
    if step.warehouse_unchanged(judge_files(step)):
        return step.skipped()
    with step.raterlab.warehouse(read_only=True) as con:
        table = run_substitution(con, step.study, step.raterlab.paths)
    written = step.write({SUBSTITUTION: table}, published=True)
    shown = table[table["slice"] == "all"].drop(columns=["slice", "computed_at"])
    return dg.MaterializeResult(
        metadata={"rows": written[SUBSTITUTION], "estimates": table_md(shown)}
    )


def judge_files(step: StudyStep) -> str:
    """The judge files imported for the study, as text for a fingerprint."""
    return imported_files(judges_dir(step.raterlab.paths.root, step.study.name))


@dg.asset_check(asset=judge_calibration, partitions_def=study_partitions)
def judges_within_bounds(
    context: dg.AssetCheckExecutionContext, raterlab: Raterlab
) -> dg.AssetCheckResult:
    """Every judge inside the study's ``judges.bounds`` (alpha drop when added to the humans,
    agreement with the consensus); a flagged judge is deweighted, so this warns, not blocks."""
    with raterlab.warehouse(read_only=True) as con:
        weights = read_calibration(con, context.partition_key).weights
    flagged = weights[weights["flagged"].astype(bool)] if len(weights) else weights
    shown = flagged.reindex(columns=["task", "field", "judge", "agreement", "alpha_drop", "reason"])
    return dg.AssetCheckResult(
        passed=flagged.empty,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={
            "judges_checked": int(weights["judge"].nunique()) if len(weights) else 0,
            "flagged": len(flagged),
            "flagged_judges": table_md(shown),
        },
    )
