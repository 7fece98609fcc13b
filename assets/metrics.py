"""Metric families over the consensus labels (``gold.metrics``), as the study declares them."""

import dagster as dg

from assets.metadata import table_md
from assets.study_asset import StudyStep, study_asset
from raterlab.metrics import compute_metrics, read_inputs, write_metrics


@study_asset(group="consensus", deps=["consensus"], kinds={"duckdb"}, table="gold.metrics")
def system_metrics(step: StudyStep) -> dg.MaterializeResult:
    """``gold.metrics``: each metric of the study's ``metrics:`` families per system, with its
    confidence interval (Wilson, or cluster bootstrap for nested items). Empty for a study
    without ``metrics:``."""
    if step.warehouse_unchanged():
        return step.skipped()
    with step.raterlab.warehouse() as con:
        items, consensus = read_inputs(con, step.study)
        frame = compute_metrics(step.study, items, consensus)
        write_metrics(con, step.study.name, frame)
        step.publish(con, ["gold.metrics"])
    shown = frame[["family", "metric", "system", "estimate", "ci_low", "ci_high", "n"]]
    return dg.MaterializeResult(
        metadata={"rows": len(frame), "metrics": table_md(shown, "none declared")}
    )
