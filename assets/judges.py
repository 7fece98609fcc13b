"""Judge calibration: every judge of the study against the humans, after consensus."""

import dagster as dg
import pandas as pd

from assets.consensus import consensus
from assets.partitions import study_partitions
from assets.tables import create_tables, table_metadata
from raterlab.judges.plot import HEADLINE_COLUMNS, headline
from raterlab.judges.study import run_study
from raterlab.publish import publish
from resources import Raterlab


def _md(frame: pd.DataFrame) -> dg.MetadataValue:
    return dg.MetadataValue.md(frame.to_markdown(index=False) if len(frame) else "none")


@dg.asset(
    partitions_def=study_partitions,
    group_name="consensus",
    deps=[consensus],
    kinds={"duckdb", "png"},
    metadata=table_metadata("judge_calibration", "gold.judge_calibration"),
)
def judge_calibration(
    context: dg.AssetExecutionContext, raterlab: Raterlab
) -> dg.MaterializeResult:
    """``gold.judge_calibration`` (each judge of the study's ``judges:`` section against the
    humans, per field, slice and level, with bootstrap intervals and the human ceiling) and
    ``gold.judge_weights`` (agreement with the consensus, alpha with and without the judge, a
    weight, flags), replaced for the study in one transaction; the plot
    ``reports/<study>/judge_calibration.png``. When the ratings, verdicts, records and tiers
    are those the stored calibration was computed from, its rows are taken again and only the
    weights (which read the consensus) are computed."""
    study = raterlab.study(context.partition_key)
    if study.judges is None:
        with raterlab.warehouse() as con:
            create_tables(con, "judge_calibration")
        return dg.MaterializeResult(metadata={"judges": "none declared"})
    with raterlab.warehouse() as con:
        result, plot = run_study(con, study, raterlab.paths)
        publish(con, raterlab.paths.published, ["gold.judge_calibration", "gold.judge_weights"])
    shown = headline(result.calibration)[list(HEADLINE_COLUMNS)].round(3)
    flagged = result.flagged()[["task", "field", "judge", "reason"]]
    return dg.MaterializeResult(
        metadata={
            "rows": len(result.calibration),
            "judges": len(study.judges.panel),
            "flagged": len(flagged),
            "headline": _md(shown),
            "flagged_judges": _md(flagged),
            "plot": dg.MetadataValue.path(str(plot)) if plot else "nothing to plot yet",
        }
    )


judge_assets = [judge_calibration]
