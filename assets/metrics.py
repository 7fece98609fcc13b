"""Metric families over the consensus labels (``gold.metrics``), as the study declares them."""

import dagster as dg

from assets.consensus import consensus
from assets.partitions import study_partitions
from assets.tables import table_metadata
from raterlab.exports.bundle import load_bundle
from raterlab.metrics import compute_metrics, write_metrics
from raterlab.publish import publish
from resources import Raterlab


@dg.asset(
    partitions_def=study_partitions,
    group_name="consensus",
    deps=[consensus],
    kinds={"duckdb"},
    metadata=table_metadata("system_metrics", "gold.metrics"),
)
def system_metrics(context: dg.AssetExecutionContext, raterlab: Raterlab) -> dg.MaterializeResult:
    """``gold.metrics``: each metric of the study's ``metrics:`` families per system, with its
    confidence interval (Wilson, or cluster bootstrap for nested items). Empty for a study
    without ``metrics:``."""
    study = raterlab.study(context.partition_key)
    with raterlab.warehouse() as con:
        bundle = load_bundle(con, study)
        frame = compute_metrics(study, bundle.items, bundle.consensus)
        write_metrics(con, study.name, frame)
        publish(con, raterlab.paths.published, ["gold.metrics"])
    shown = frame[["family", "metric", "system", "estimate", "ci_low", "ci_high", "n"]]
    return dg.MaterializeResult(
        metadata={
            "rows": len(frame),
            "metrics": dg.MetadataValue.md(
                shown.round(3).to_markdown(index=False) if len(shown) else "none declared"
            ),
        }
    )


metrics_assets = [system_metrics]
