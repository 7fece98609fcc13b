"""Checks on agreement: the pilot gate (blocking) and the study's minimums (warnings)."""

import dagster as dg

from assets.agreement import agreement, pilot_agreement
from assets.design import _study_frame
from assets.partitions import study_partitions
from raterlab.report.headline import headline_table
from resources import Raterlab


@dg.asset_check(asset=pilot_agreement, partitions_def=study_partitions, blocking=True)
def pilot_gate(context: dg.AssetCheckExecutionContext, raterlab: Raterlab) -> dg.AssetCheckResult:
    """The main round goes out only when the pilot is complete and its agreement clears the
    study's gate. Until then this check fails as a warning (a held-back main round is the
    design working, not a broken run) and the main-round packets are skipped."""
    gate = _study_frame(raterlab, "staging.pilot_gate", context.partition_key).iloc[0]
    passed = bool(gate["passed"])
    return dg.AssetCheckResult(
        passed=passed,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={
            "status": "open: the main round may go out" if passed else "closed: main round held",
            "message": str(gate["message"]),
        },
    )


@dg.asset_check(asset=agreement, partitions_def=study_partitions)
def agreement_thresholds(
    context: dg.AssetCheckExecutionContext, raterlab: Raterlab
) -> dg.AssetCheckResult:
    """Every minimum the study declares (per field, or pooled per task), as a warning; its
    metadata leads with the protocol's coefficient of each field on all items (the
    ``headline`` rows of ``gold.agreement``) against its target."""
    study = raterlab.study(context.partition_key)
    results = _study_frame(raterlab, "staging.agreement_thresholds", study.name)
    if results.empty:
        return dg.AssetCheckResult(passed=True, metadata={"note": "no ratings yet"})
    failing = results[~results["passed"].astype(bool)]
    table = results.round(3).to_markdown(index=False) if len(results) else "no thresholds"
    agreement = _study_frame(raterlab, "gold.agreement", study.name)
    headline = headline_table(study, agreement, ["all"])
    return dg.AssetCheckResult(
        passed=failing.empty,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={
            "headline": dg.MetadataValue.md(
                headline.to_markdown(index=False) if len(headline) else "no headline rows"
            ),
            "below_minimum": len(failing),
            "thresholds": dg.MetadataValue.md(table),
        },
    )


agreement_checks = [pilot_gate, agreement_thresholds]
