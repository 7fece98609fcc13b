"""Rater quality: self-consistency, attention, calibration, speed, bias and spot-check drift
per annotator (``gold.rater_quality``), per-item flags, promotions, the PI's review sample
and a scorecard plot."""

import base64

import dagster as dg

from assets.design import _generations, _study_frame
from assets.ingest import labels
from assets.partitions import study_partitions
from assets.tables import table_metadata
from raterlab.publish import publish
from raterlab.quality import assess, flag_summary, pi_sample, write_pi_sample
from raterlab.quality.plot import plot_quality
from raterlab.quality.store import write_quality
from resources import Raterlab

GROUP = "quality"


@dg.asset(
    partitions_def=study_partitions,
    group_name=GROUP,
    deps=[labels],
    kinds={"duckdb"},
    metadata=table_metadata("rater_quality", "gold.rater_quality"),
)
def rater_quality(context: dg.AssetExecutionContext, raterlab: Raterlab) -> dg.MaterializeResult:
    """``gold.rater_quality`` (annotator x metric x slice, with targets and flags),
    ``gold.rater_item_flags`` (rushed, failed attention checks, inconsistent duplicates,
    answers off the calibration key, outlier items) and ``gold.promotions`` (TRIAGE items
    promoted to GOLD by the drift rule); the PI sample in ``reports/<study>/pi_sample.csv``
    and a scorecard in ``reports/<study>/rater_quality.png``."""
    study = raterlab.study(context.partition_key)
    labels_ = _study_frame(raterlab, "gold.labels", study.name)
    generations = _generations(raterlab, study.name)
    report = assess(
        study,
        labels_,
        generations,
        _study_frame(raterlab, "staging.routed_items", study.name),
        _study_frame(raterlab, "staging.assignments", study.name),
    )
    with raterlab.warehouse() as con:
        written = write_quality(con, study.name, report)
        publish(con, raterlab.paths.published, written)
    reports = raterlab.paths.reports / study.name
    sample = write_pi_sample(pi_sample(study, labels_, generations), reports)
    drift = study.quality.drift
    png = plot_quality(
        report.table,
        raterlab.paths.reports / study.name / "rater_quality.png",
        report.weekly,
        drift.max_disagreement if drift else None,
        title=study.title,
    )
    summary = flag_summary(report.table)
    flagged = report.flagged
    image = base64.b64encode(png.read_bytes()).decode()
    return dg.MaterializeResult(
        metadata={
            "flagged_raters": int(flagged["annotator_id"].nunique()),
            "flagged_rows": len(flagged),
            "summary": dg.MetadataValue.md("\n".join(f"- {line}" for line in summary.splitlines())),
            "item_flags": dg.MetadataValue.md(
                report.item_flags.groupby(["annotator_id", "flag"])
                .size()
                .rename("items")
                .to_frame()
                .to_markdown()
                if len(report.item_flags)
                else "none"
            ),
            "promotions": len(report.promotions),
            "drift_failed_at": report.drift_failed_at or "",
            "rows": dg.MetadataValue.json(written),
            "pi_sample": dg.MetadataValue.path(str(sample)),
            "plot": dg.MetadataValue.path(str(png)),
            "scorecard": dg.MetadataValue.md(f"![rater quality](data:image/png;base64,{image})"),
        }
    )


quality_assets = [rater_quality]
