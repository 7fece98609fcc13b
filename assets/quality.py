"""Rater quality: self-consistency, attention, calibration, speed, bias and spot-check drift
per annotator (``gold.rater_quality``), per-item flags, promotions, the PI's review sample
and a scorecard plot."""

import dagster as dg

from assets.design import GENERATION_JSON, _generations_text, _study_frame
from assets.ingest import labels
from assets.memo import skipped, unchanged
from assets.metadata import image_md
from assets.partitions import study_partitions
from assets.tables import table_metadata
from raterlab import memo
from raterlab import warehouse as wh
from raterlab.publish import publish
from raterlab.quality import assess, flag_summary, pi_sample, write_pi_sample
from raterlab.quality.plot import plot_quality
from raterlab.quality.store import quality_frames
from raterlab.tables.quality import RATER_QUALITY
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
    and a scorecard in ``reports/<study>/rater_quality.png``. Skipped (tables, published copy
    and reports left as they are) when the study, the labels, the generations, the routed
    items and the assignments are those of the last write."""
    study = raterlab.study(context.partition_key)
    labels_ = _study_frame(raterlab, "gold.labels", study.name)
    generations = _generations_text(raterlab, study.name)
    routed = _study_frame(raterlab, "staging.routed_items", study.name)
    assigned = _study_frame(raterlab, "staging.assignments", study.name)
    reports = raterlab.paths.reports / study.name
    inputs = memo.fingerprint(study, labels_, generations, routed, assigned)
    written_reports = [reports / "rater_quality.png", reports / "pi_sample.csv"]
    if unchanged(raterlab, study.name, "rater_quality", inputs) and all(
        path.is_file() for path in written_reports
    ):
        table = _study_frame(raterlab, RATER_QUALITY.name, study.name)
        summary = flag_summary(table) if len(table) else ""
        return skipped(
            inputs,
            summary=dg.MetadataValue.md("\n".join(f"- {line}" for line in summary.splitlines())),
            scorecard=image_md(written_reports[0], "rater quality"),
        )
    generations = wh.decode_json(generations, GENERATION_JSON)
    report = assess(study, labels_, generations, routed, assigned)
    frames = quality_frames(report)
    with raterlab.warehouse() as con:
        written = memo.write_tables(con, study.name, frames, "rater_quality", inputs)
        publish(con, raterlab.paths.published, written)
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
            "scorecard": image_md(png, "rater quality"),
        }
    )


quality_assets = [rater_quality]
