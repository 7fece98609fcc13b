"""Check on judge calibration: judges outside the study's bounds (a warning)."""

import dagster as dg

from assets.judges import judge_calibration
from assets.partitions import study_partitions
from raterlab.judges.store import read_calibration
from resources import Raterlab


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
            "flagged_judges": dg.MetadataValue.md(
                shown.round(3).to_markdown(index=False) if len(shown) else "none"
            ),
        },
    )


judge_checks = [judges_within_bounds]
