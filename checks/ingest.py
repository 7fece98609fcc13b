"""Checks on ingest: coverage of the assignment, rule violations in accepted data, and
quarantined files."""

import dagster as dg

from assets.design import _study_frame
from assets.ingest import labels, validated_annotations
from assets.partitions import study_partitions
from raterlab.ingest.audit import accepted_violations, coverage
from resources import Raterlab


@dg.asset_check(asset=labels, partitions_def=study_partitions)
def assignment_coverage(
    context: dg.AssetCheckExecutionContext, raterlab: Raterlab
) -> dg.AssetCheckResult:
    """Share of assigned rows returned in accepted files, per annotator (a warning below 100%)."""
    study = context.partition_key
    table = coverage(
        _study_frame(raterlab, "staging.blinding_key", study),
        _study_frame(raterlab, "gold.labels", study),
    )
    share = float(table["returned"].sum() / table["assigned"].sum())
    return dg.AssetCheckResult(
        passed=bool((table["share"] >= 1).all()),
        severity=dg.AssetCheckSeverity.WARN,
        metadata={
            "overall_share": round(share, 4),
            "per_annotator": dg.MetadataValue.md(table.to_markdown(index=False)),
        },
    )


@dg.asset_check(asset=labels, partitions_def=study_partitions, blocking=True)
def no_rule_violations_in_labels(
    context: dg.AssetCheckExecutionContext, raterlab: Raterlab
) -> dg.AssetCheckResult:
    """Accepted data satisfies every rule of the study file (constraints, conditionals...)."""
    study = raterlab.study(context.partition_key)
    found = accepted_violations(study, _study_frame(raterlab, "gold.labels", study.name))
    return dg.AssetCheckResult(
        passed=found.empty,
        metadata={
            "violations": len(found),
            "examples": dg.MetadataValue.md(
                found.head(20).to_markdown(index=False) if len(found) else "none"
            ),
        },
    )


@dg.asset_check(asset=validated_annotations, partitions_def=study_partitions)
def quarantined_files(
    context: dg.AssetCheckExecutionContext, raterlab: Raterlab
) -> dg.AssetCheckResult:
    """Files rejected for this study, with their reports (a warning while any is unresolved)."""
    ingests = _study_frame(raterlab, "staging.ingests", context.partition_key)
    rejected = ingests[ingests["status"] == "rejected"]
    listing = "\n".join(
        f"- {f}: {n} error(s), `{r}`"
        for f, n, r in zip(rejected["file"], rejected["n_errors"], rejected["report"], strict=True)
    )
    return dg.AssetCheckResult(
        passed=rejected.empty,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={"quarantined": len(rejected), "reports": dg.MetadataValue.md(listing or "none")},
    )


ingest_checks = [assignment_coverage, no_rule_violations_in_labels, quarantined_files]
