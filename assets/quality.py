"""Rater quality: self-consistency, attention, calibration, speed, bias and spot-check drift
per annotator (``gold.rater_quality``), per-item flags, promotions, the PI's review sample
and a scorecard plot. Its checks, each with the study's ``quality.severity`` (warn or error)
and its numbers in metadata: attention checks, self-consistency, rushing, calibration, bias,
and the spot-check drift rule."""

from collections.abc import Iterator

import dagster as dg
import pandas as pd

from assets.frames import decoded_generations, study_frame
from assets.metadata import image_md, list_md, table_md
from assets.partitions import study_partitions
from assets.study_asset import StudyStep, study_asset
from raterlab.protocol import Study
from raterlab.quality import ALL, EVERYONE, assess, flag_summary, pi_sample, write_pi_sample
from raterlab.quality.plot import plot_quality
from raterlab.quality.ratings import QUALITY_GENERATION_COLUMNS, QUALITY_LABEL_COLUMNS
from raterlab.quality.store import quality_frames
from raterlab.tables.quality import RATER_QUALITY
from resources import Raterlab

GROUP = "quality"


@study_asset(group=GROUP, deps=["labels"], kinds={"duckdb"}, table="gold.rater_quality")
def rater_quality(step: StudyStep) -> dg.MaterializeResult:
    """``gold.rater_quality`` (annotator x metric x slice, with targets and flags),
    ``gold.rater_item_flags`` (rushed, failed attention checks, inconsistent duplicates,
    answers off the calibration key, outlier items) and ``gold.promotions`` (TRIAGE items
    promoted to GOLD by the drift rule); the PI sample in ``reports/<study>/pi_sample.csv``
    and a scorecard in ``reports/<study>/rater_quality.png``. Skipped (tables, published copy
    and reports left as they are) when the study, the labels, the generations, the routed
    items and the assignments are those of the last write."""
    study = step.study
    written_reports = [step.reports / "rater_quality.png", step.reports / "pi_sample.csv"]
    if step.warehouse_unchanged(outputs=written_reports):
        return step.skipped()
    labels_ = study_frame(step.raterlab, "gold.labels", study.name, columns=QUALITY_LABEL_COLUMNS)
    generations = study_frame(
        step.raterlab, "raw.generations", study.name, columns=QUALITY_GENERATION_COLUMNS
    )
    routed = step.frame("staging.routed_items")
    assigned = step.frame("staging.assignments")
    if step.unchanged(labels_, generations, routed, assigned) and all(
        path.is_file() for path in written_reports
    ):
        table = step.frame(RATER_QUALITY.name)
        summary = flag_summary(table) if len(table) else ""
        return step.skipped(
            summary=list_md(summary.splitlines(), empty=""),
            scorecard=image_md(written_reports[0], "rater quality"),
        )
    decoded = decoded_generations(generations, keys=study.slices)
    sampled = pi_sample(study, labels_, generations)
    del generations  # the records' JSON (110 MB at 100,000 items) is not held while assessing
    report = assess(study, labels_, decoded, routed, assigned)
    written = step.write(quality_frames(report), published=True)
    sample = write_pi_sample(sampled, step.reports)
    drift = study.quality.drift
    png = plot_quality(
        report.table,
        step.reports / "rater_quality.png",
        report.weekly,
        drift.max_disagreement if drift else None,
        title=study.title,
    )
    flagged = report.flagged
    return dg.MaterializeResult(
        metadata={
            "flagged_raters": int(flagged["annotator_id"].nunique()),
            "flagged_rows": len(flagged),
            "summary": list_md(flag_summary(report.table).splitlines(), empty=""),
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


def _result(
    name: str,
    severity: dg.AssetCheckSeverity,
    table: pd.DataFrame,
    metrics: tuple[str, ...],
    extra: dict | None = None,
) -> dg.AssetCheckResult:
    """``name`` passed when no row of ``metrics`` in ``table`` (the study's
    ``gold.rater_quality``) is flagged; metadata lists the pooled rows per annotator, every
    flagged row and ``extra``."""
    rows = table[table["metric"].isin(metrics)]
    flagged = rows[rows["flagged"].astype(bool)]
    pooled = rows[(rows["slice"] == ALL) & (rows["annotator_id"] != EVERYONE)]
    shown = ["annotator_id", "metric", "slice", "value", "target", "flagged", "n"]
    metadata = {
        "flagged_raters": ", ".join(sorted(flagged["annotator_id"].unique().tolist())) or "none",
        "n_flagged_rows": len(flagged),
        "per_annotator": table_md(pooled[shown], "no data for this check"),
        "flagged": table_md(flagged[[*shown, "ci_low", "ci_high", "p_value"]]),
        **(extra or {}),
    }
    return dg.AssetCheckResult(
        asset_key=rater_quality.key,
        check_name=name,
        passed=flagged.empty,
        severity=severity,
        metadata=metadata,
    )


def _failed_items(flags: pd.DataFrame, flag: str) -> dg.MetadataValue:
    own = flags[flags["flag"] == flag].drop(columns="flag")
    return table_md(own.head(50))


def _weekly(study: Study, table: pd.DataFrame, promotions: pd.DataFrame) -> dict:
    weeks = table[
        (table["metric"] == "spot_check_disagreement")
        & (table["annotator_id"] == EVERYONE)
        & table["slice"].str.startswith("week=")
    ]
    drift = study.quality.drift
    return {
        "rule": (
            f"> {drift.max_disagreement:.0%} for {drift.consecutive_weeks} weeks running"
            if drift
            else "no drift rule in the study"
        ),
        "weekly": table_md(weeks[["slice", "value", "n", "flagged"]], "no spot checks yet"),
        "promoted_items": len(promotions),
        "promotions": table_md(promotions.head(50)),
    }


CHECKS = {
    "attention_checks_passed": (
        ("attention_pass_rate",),
        "Every annotator answers the attention checks right, at least "
        "`quality.attention_min_pass` of the time; failed items listed.",
    ),
    "self_consistency": (
        ("duplicate_within_one",),
        "Each annotator's hidden duplicate pairs are within one point at least "
        "`quality.duplicate_within_one` of the time (pooled and per field).",
    ),
    "no_rushed_raters": (
        ("rushed_share",),
        "No annotator rates more than `quality.max_rushed_share` of their items faster than "
        "`design.time_floor_s`.",
    ),
    "calibration_alignment": (
        ("calibration_mean_signed_error", "calibration_within_one"),
        "Each annotator reads the scale as the calibration key does: mean signed error within "
        "bounds and answers within one point of the key.",
    ),
    "no_biased_raters": (
        ("leniency", "slice_bias", "scale_extremes_share", "category_disagreement"),
        "No annotator is lenient or severe against the others on shared items, rates a slice "
        "(condition, category...) differently from the others, or avoids the ends of the "
        "scale; no category where raters disagree systematically.",
    ),
    "no_spot_check_drift": (
        ("spot_check_disagreement",),
        "The disagreement between single annotators and spot-checkers stays at most "
        "`quality.drift.max_disagreement` (not for `consecutive_weeks` weeks running); when "
        "the rule fails, the affected TRIAGE items are in `gold.promotions`.",
    ),
}
"""Each rater-quality check: the ``gold.rater_quality`` metrics it fails on, and what it
asks."""


@dg.multi_asset_check(
    name="rater_quality_checks",
    specs=[
        dg.AssetCheckSpec(
            name, asset=rater_quality, partitions_def=study_partitions, description=about
        )
        for name, (_, about) in CHECKS.items()
    ],
    can_subset=True,
)
def rater_quality_checks(
    context: dg.AssetCheckExecutionContext, raterlab: Raterlab
) -> Iterator[dg.AssetCheckResult]:
    """The rater-quality checks, each with the study's ``quality.severity`` (warn or error),
    in one step over one read of the quality tables: each passes when none of its metrics'
    rows is flagged, and lists the pooled rows per annotator and every flagged row."""
    study = raterlab.study(context.partition_key)
    severity = (
        dg.AssetCheckSeverity.ERROR
        if study.quality.severity == "error"
        else dg.AssetCheckSeverity.WARN
    )
    table = study_frame(raterlab, "gold.rater_quality", study.name)
    flags = study_frame(raterlab, "gold.rater_item_flags", study.name)
    median = table[(table["metric"] == "median_time_s") & (table["slice"] == ALL)]
    extra = {
        "attention_checks_passed": {"failed_items": _failed_items(flags, "attention_failed")},
        "self_consistency": {"inconsistent_pairs": _failed_items(flags, "duplicate_inconsistent")},
        "no_rushed_raters": {"median_time_s": table_md(median[["annotator_id", "value", "n"]])},
    }
    for key in context.selected_asset_check_keys:
        metrics, _ = CHECKS[key.name]
        more = extra.get(key.name)
        if key.name == "no_spot_check_drift":
            more = _weekly(study, table, study_frame(raterlab, "gold.promotions", study.name))
        yield _result(key.name, severity, table, metrics, more)
