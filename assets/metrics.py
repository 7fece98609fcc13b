"""Metric families over the consensus labels (``gold.metrics``), as the study declares them."""

import dagster as dg

from assets.metadata import table_md
from assets.study_asset import StudyStep, study_asset
from raterlab.metrics import METRICS, compute_metrics, read_inputs


@study_asset(group="consensus", deps=["consensus"], kinds={"duckdb"}, table="gold.metrics")
def system_metrics(step: StudyStep) -> dg.MaterializeResult:
    """``gold.metrics``: each metric of the study's ``metrics:`` families per system, with its
    confidence interval (Wilson, or cluster bootstrap for nested items). Empty for a study
    without ``metrics:``."""
    study = step.study
    # without metrics the table is empty whatever the gold tables hold: the study is the input
    if step.unchanged() if study.metrics is None else step.warehouse_unchanged():
        return step.skipped()
    with step.raterlab.warehouse(read_only=True) as con:
        items, consensus = read_inputs(con, study)
    frame = compute_metrics(study, items, consensus)
    step.write({METRICS.name: frame}, published=True)
    shown = frame[["family", "metric", "system", "estimate", "ci_low", "ci_high", "n"]]
    return dg.MaterializeResult(
        metadata={"rows": len(frame), "metrics": table_md(shown, "none declared")}
    )
