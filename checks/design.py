"""Checks on the design assets: the assignment meets the design; every packet holds exactly
its assigned rows; no packet file holds a hidden value.

The two packet checks read every file of the round; a check that passed on exactly the same
files (their SHA-256 as they are now), key or generations passes again without reading them
(:mod:`raterlab.memo`). A failed check is evaluated afresh every time."""

import dagster as dg

from assets.design import (
    GENERATION_JSON,
    _generations_text,
    _study_frame,
    assignments,
    main_packets,
    pilot_packets,
    routed_items_asset,
)
from assets.memo import record, unchanged
from assets.partitions import study_partitions
from raterlab import memo
from raterlab import warehouse as wh
from raterlab.design.packets import on_disk
from raterlab.design.rounds import in_round
from raterlab.design.shares import share_problems, tier_shares
from raterlab.design.verify import verify_assignments, verify_no_hidden_values, verify_packets
from resources import Raterlab


def _result(problems: list[str], numbers: dict) -> dg.AssetCheckResult:
    metadata = {
        k: dg.MetadataValue.json(v) if isinstance(v, dict) else v for k, v in numbers.items()
    }
    if problems:
        metadata["problems"] = dg.MetadataValue.md("\n".join(f"- {p}" for p in problems))
    return dg.AssetCheckResult(passed=not problems, metadata=metadata)


@dg.asset_check(asset=assignments, partitions_def=study_partitions, blocking=True)
def assignment_matches_design(
    context: dg.AssetCheckExecutionContext, raterlab: Raterlab
) -> dg.AssetCheckResult:
    """Overlap per tier, pilot size, spot-check share and load balance are the design's."""
    study = raterlab.study(context.partition_key)
    routed = _study_frame(raterlab, "staging.routed_items", study.name)
    table = _study_frame(raterlab, "staging.assignments", study.name)
    return _result(*verify_assignments(study, routed, table))


@dg.asset_check(asset=routed_items_asset, partitions_def=study_partitions)
def routed_shares_near_targets(
    context: dg.AssetCheckExecutionContext, raterlab: Raterlab
) -> dg.AssetCheckResult:
    """Each tier's share of the routed items is within ``routing.target_tolerance`` of the
    study's ``routing.targets`` (a warning: the routing rules decide, the targets check)."""
    study = raterlab.study(context.partition_key)
    shares = tier_shares(study, _study_frame(raterlab, "staging.routed_items", study.name))
    problems = share_problems(study, shares)
    metadata = {"shares": dg.MetadataValue.md(shares.round(3).to_markdown(index=False))}
    if problems:
        metadata["problems"] = dg.MetadataValue.md("\n".join(f"- {p}" for p in problems))
    return dg.AssetCheckResult(
        passed=not problems, severity=dg.AssetCheckSeverity.WARN, metadata=metadata
    )


def _passed_before(
    raterlab: Raterlab, study: str, step: str, check, inputs: str
) -> dg.AssetCheckResult:
    """``check()``'s result, or a pass without running it when it passed on ``inputs`` before;
    a pass is recorded for ``inputs``."""
    if unchanged(raterlab, study, step, inputs):
        return dg.AssetCheckResult(
            passed=True, metadata={"unchanged": "passed before on the same files", "inputs": inputs}
        )
    problems, numbers = check()
    if not problems:
        record(raterlab, study, step, inputs)
    return _result(problems, numbers)


def _packet_checks(packets: dg.AssetsDefinition, round_name: str) -> list[dg.AssetChecksDefinition]:
    @dg.asset_check(
        asset=packets,
        partitions_def=study_partitions,
        name="packets_match_assignment",
        blocking=True,
    )
    def _match(context: dg.AssetCheckExecutionContext, raterlab: Raterlab) -> dg.AssetCheckResult:
        """Every assigned row is in exactly its own packet, once; no packet holds another row."""
        study = raterlab.study(context.partition_key)
        key = _study_frame(raterlab, "staging.blinding_key", study.name)
        files = _study_frame(raterlab, f"staging.{round_name}_packet_files", study.name)
        own = key[in_round(key["round"], round_name)]
        outbox = raterlab.paths.outbox
        inputs = memo.fingerprint(study, own, files, on_disk(files, outbox))
        return _passed_before(
            raterlab,
            study.name,
            f"{round_name}_packets_packets_match_assignment",
            lambda: verify_packets(own, files, outbox, study.packet.item_column),
            inputs,
        )

    @dg.asset_check(
        asset=packets,
        partitions_def=study_partitions,
        name="no_hidden_values_in_packets",
        blocking=True,
    )
    def _leaks(context: dg.AssetCheckExecutionContext, raterlab: Raterlab) -> dg.AssetCheckResult:
        """Scan the written files for hidden values, hidden keys and source item ids."""
        study = raterlab.study(context.partition_key)
        files = _study_frame(raterlab, f"staging.{round_name}_packet_files", study.name)
        generations = _generations_text(raterlab, study.name)
        outbox = raterlab.paths.outbox
        inputs = memo.fingerprint(study, files, on_disk(files, outbox), generations)
        return _passed_before(
            raterlab,
            study.name,
            f"{round_name}_packets_no_hidden_values_in_packets",
            lambda: verify_no_hidden_values(
                study, wh.decode_json(generations, GENERATION_JSON), files, outbox
            ),
            inputs,
        )

    return [_match, _leaks]


design_checks = [
    assignment_matches_design,
    routed_shares_near_targets,
    *_packet_checks(pilot_packets, "pilot"),
    *_packet_checks(main_packets, "main"),
]
