"""From a study file and its generations to blinded packets in the outbox, and the checks on
them: the assignment meets the design; every packet holds exactly its assigned rows; no packet
file holds a hidden value.

The two packet checks read every file of the round; a check that passed on exactly the same
files (their SHA-256 as they are now), key or generations passes again without reading them
(:mod:`raterlab.memo`). A failed check is evaluated afresh every time."""

import hashlib
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from functools import cache

import dagster as dg
import pandas as pd

from assets.frames import decoded_generations, generations_text, study_frame
from assets.memo import record, unchanged
from assets.metadata import list_md
from assets.partitions import study_partitions
from assets.study_asset import StudyStep, study_asset
from raterlab import memo
from raterlab.adjudication.third_annotator import sealed_tiebreak_rows
from raterlab.design import (
    assign,
    files_intact,
    generation_chunks,
    routed_items,
    seal,
    write_packets,
)
from raterlab.design.blinding import is_sealed_token
from raterlab.design.cost import tier_costs
from raterlab.design.packets import on_disk
from raterlab.design.rounds import in_round
from raterlab.design.routing import record_keys
from raterlab.design.shares import share_problems, tier_shares
from raterlab.design.verify import (
    hidden_record_keys,
    verify_assignments,
    verify_no_hidden_values,
    verify_packets,
)
from raterlab.errors import StudyChanged
from raterlab.ingest.changes import follow_study
from raterlab.planning.study_precision import planned_precision
from resources import Raterlab

GROUP = "design"


@study_asset(group=GROUP, kinds={"yaml", "duckdb"}, table="staging.study_protocol")
def study_protocol(step: StudyStep) -> dg.MaterializeResult:
    """The study file, validated into the typed protocol; a copy is kept in
    ``staging.study_protocol`` with its hash, so every later table can be traced to it. A
    file edited after ratings came in is checked against them
    (:func:`raterlab.ingest.changes.follow_study`): a dropped field fails the run, renames
    are applied, values the new rules reject are listed in ``staging.held_ratings``."""
    study = step.study
    with step.raterlab.warehouse() as con:
        try:
            change = follow_study(con, study)
        except StudyChanged as exc:
            raise dg.Failure(description=str(exc), allow_retries=False) from None
    text = study.source.read_text(encoding="utf-8")
    row = {
        "version": study.version,
        "title": study.title,
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
        "yaml": text,
        "loaded_at": datetime.now(UTC),
    }
    step.write({"staging.study_protocol": pd.DataFrame([row])})
    return dg.MaterializeResult(
        metadata={
            "tasks": ", ".join(study.tasks),
            "annotators": len(study.design.annotators),
            "rating_fields": sum(len(t.rating_fields) for t in study.tasks.values()),
            "sha256": row["sha256"],
            "held_ratings": len(change.held),
            "study_change": list_md(change.lines()),
        }
    )


@study_asset(group=GROUP, deps=[study_protocol], kinds={"duckdb"}, table="raw.generations")
def raw_generations(step: StudyStep) -> dg.MaterializeResult:
    """Model generations from the study's JSONL in ``raw.generations``, one row per item,
    read and written in chunks (the reading holds one chunk, not the file). A bad line
    fails the run, naming file, line and what is wrong, and writes nothing. Skipped (the
    table left as it is) when the study and the file's bytes are those of the last write."""
    study = step.study
    if step.unchanged(study.path_of(study.generations).read_bytes()):
        return step.skipped()
    tallies: list[pd.Series] = []

    def chunks() -> Iterator[pd.DataFrame]:
        for chunk in generation_chunks(study):
            tallies.append(chunk.groupby(["task", "role"]).size())
            yield chunk.assign(source_file=study.generations)

    written = step.write({"raw.generations": chunks()})["raw.generations"]
    counts = pd.concat(tallies).groupby(level=["task", "role"]).sum()
    return dg.MaterializeResult(
        metadata={
            "items": written,
            "by_task_and_role": dg.MetadataValue.md(counts.to_frame("items").to_markdown()),
        }
    )


@study_asset(
    name="routed_items",
    group=GROUP,
    deps=[raw_generations],
    kinds={"duckdb"},
    table="gold.tier_costs",
)
def routed_items_asset(step: StudyStep) -> dg.MaterializeResult:
    """Each ordinary item's tier (and the rule that set it), stratum and sample membership,
    in ``staging.routed_items``; with the study's ``tiers:``, the labeling cost and labeler-days
    per tier in ``gold.tier_costs``. Skipped when the study and the generations are those of
    the last write."""
    generations = step.generations_text()
    if step.unchanged(generations):
        return step.skipped()
    routed = routed_items(step.study, decoded_generations(generations, record_keys(step.study)))
    frames = {"staging.routed_items": routed}
    sampled = routed[routed["sampled"]]
    metadata = {
        "items": len(routed),
        "sampled": len(sampled),
        "tiers": dg.MetadataValue.json(sampled["tier"].value_counts().to_dict()),
    }
    if step.study.tiers:
        frames["gold.tier_costs"] = costs = tier_costs(step.study, routed)
        metadata["cost"] = dg.MetadataValue.md(costs.round(3).to_markdown(index=False))
    step.write(frames)
    return dg.MaterializeResult(metadata=metadata)


@study_asset(group=GROUP, deps=[routed_items_asset], kinds={"duckdb"}, table="staging.assignments")
def assignments(step: StudyStep) -> dg.MaterializeResult:
    """Who rates what, in which batch: overlap by tier, pilot (and the repeated pilot rounds
    of ``staging.pilot_rounds``), spot checks, hidden duplicates, attention checks and
    calibration items, in ``staging.assignments``; and the interval width the design plans
    for each threshold, in ``staging.planned_precision`` (for the report). Skipped when the
    study, the routed items, the pilot rounds and the generations are those of the last
    write."""
    routed = step.frame("staging.routed_items")
    repeats = step.optional_frame("staging.pilot_rounds")
    generations = step.generations_text()
    if step.unchanged(routed, repeats, generations):
        return step.skipped()
    rounds = 1 + (0 if repeats is None else len(repeats))
    decoded = decoded_generations(generations, record_keys(step.study))
    table = assign(step.study, routed, decoded, pilot_rounds=rounds)
    planned = planned_precision(step.study, decoded)
    step.write({"staging.assignments": table, "staging.planned_precision": planned})
    load = table.groupby(["annotator_id", "kind"]).size().unstack(fill_value=0)
    return dg.MaterializeResult(
        metadata={"rows": len(table), "load": dg.MetadataValue.md(load.to_markdown())}
    )


@study_asset(group=GROUP, deps=[assignments], kinds={"duckdb"}, table="staging.blinding_key")
def blinding_key(step: StudyStep) -> dg.MaterializeResult:
    """The sealed key: opaque token and position of every packet row, in
    ``staging.blinding_key``. It never leaves the warehouse. Third annotators assigned to
    break ties keep their rows (same tokens) when the key is sealed again.

    Skipped when the study, the assignments and the secret are those of the last write: the
    third annotators' rows are kept up to date in the key by the adjudication packets that
    assign them (:func:`raterlab.adjudication.third_annotator.merge_tiebreak_key`)."""
    table = step.frame("staging.assignments")
    secret = step.raterlab.blinding_secret()
    if step.unchanged(table, secret):
        return step.skipped()
    key = seal(step.study, table, secret)
    with step.raterlab.warehouse(read_only=True) as con:
        tiebreak = sealed_tiebreak_rows(con, step.study, secret)
    if len(tiebreak):
        key = pd.concat([key, tiebreak], ignore_index=True)
    step.write({"staging.blinding_key": key})
    return dg.MaterializeResult(metadata={"tokens": len(key)})


def _held_back(step: StudyStep) -> str | None:
    """Why the main round waits (the pilot gate's message), or ``None`` when it may go."""
    gate = step.frame("staging.pilot_gate")
    if gate.empty:
        return "main round held back: the pilot gate has not been evaluated yet"
    return None if bool(gate["passed"].iloc[0]) else str(gate["message"].iloc[0])


def _packets_asset(
    round_name: str, description: str, gate: dg.AssetKey | None = None
) -> dg.AssetsDefinition:
    """The packets of ``round_name``, written to the outbox; with a ``gate``, held back (no
    materialization, an observation saying why) while :func:`_held_back` says so."""
    files_table = f"staging.{round_name}_packet_files"

    @study_asset(
        name=f"{round_name}_packets",
        group=GROUP,
        deps=[blinding_key, *([gate] if gate else [])],
        kinds={"csv"},
        table=files_table,
        description=description,
        output_required=gate is None,
    )
    def packets(step: StudyStep) -> Iterator[dg.MaterializeResult]:
        context = step.context
        if gate is not None and (held := _held_back(step)):
            context.log.info(f"{step.study.name}: {held}")
            context.log_event(
                dg.AssetObservation(asset_key=context.asset_key, metadata={"held_back": held})
            )
            return
        key = step.frame("staging.blinding_key")
        key = key[in_round(key["round"], round_name)]
        generations = step.generations_text()
        outbox = step.raterlab.paths.outbox
        if step.unchanged(round_name, key, generations) and files_intact(
            step.frame(files_table), outbox
        ):
            yield step.skipped(outbox=dg.MetadataValue.path(str(outbox / step.study.name)))
            return
        files = write_packets(step.study, key, generations, outbox)
        step.write({files_table: files})
        yield dg.MaterializeResult(
            metadata={
                "packets": len(files[["annotator_id", "batch"]].drop_duplicates()),
                "rows": int(files.loc[files["kind"] == "template", "n_rows"].sum()),
                "outbox": dg.MetadataValue.path(str(outbox / step.study.name)),
            }
        )

    return packets


pilot_packets = _packets_asset(
    "pilot",
    "Pilot-round packets (every annotator, the pilot items, calibration first) in the outbox; "
    "a repeated pilot (pilot-2, ...) adds its own packets. Skipped when the round's key, the "
    "study and the generations are those of the last write and every file is in the outbox "
    "as written.",
)
main_packets = _packets_asset(
    "main",
    "Main-round packets in the outbox: one folder per annotator and batch. They wait for the "
    "pilot gate: while it is closed or the pilot incomplete, this asset is skipped (not "
    "failed) and the reason is logged and recorded as an observation. Skipped when the round's "
    "key, the study and the generations are those of the last write and every file is in the "
    "outbox as written.",
    gate=dg.AssetKey("pilot_agreement"),
)


def _result(problems: list[str], numbers: dict) -> dg.AssetCheckResult:
    metadata = {
        k: dg.MetadataValue.json(v) if isinstance(v, dict) else v for k, v in numbers.items()
    }
    if problems:
        metadata["problems"] = list_md(problems)
    return dg.AssetCheckResult(passed=not problems, metadata=metadata)


@dg.asset_check(asset=assignments, partitions_def=study_partitions, blocking=True)
def assignment_matches_design(
    context: dg.AssetCheckExecutionContext, raterlab: Raterlab
) -> dg.AssetCheckResult:
    """Overlap per tier, pilot size, spot-check share and load balance are the design's."""
    study = raterlab.study(context.partition_key)
    routed = study_frame(raterlab, "staging.routed_items", study.name)
    table = study_frame(raterlab, "staging.assignments", study.name)
    return _result(*verify_assignments(study, routed, table))


@dg.asset_check(asset=routed_items_asset, partitions_def=study_partitions)
def routed_shares_near_targets(
    context: dg.AssetCheckExecutionContext, raterlab: Raterlab
) -> dg.AssetCheckResult:
    """Each tier's share of the routed items is within ``routing.target_tolerance`` of the
    study's ``routing.targets`` (a warning: the routing rules decide, the targets check)."""
    study = raterlab.study(context.partition_key)
    shares = tier_shares(study, study_frame(raterlab, "staging.routed_items", study.name))
    problems = share_problems(study, shares)
    metadata = {"shares": dg.MetadataValue.md(shares.round(3).to_markdown(index=False))}
    if problems:
        metadata["problems"] = list_md(problems)
    return dg.AssetCheckResult(
        passed=not problems, severity=dg.AssetCheckSeverity.WARN, metadata=metadata
    )


def _passed_before(
    raterlab: Raterlab,
    study: str,
    step: str,
    check: Callable[[], tuple[list[str], dict]],
    inputs: str,
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


def _sealed_token(raterlab: Raterlab, study: str) -> Callable[[str], bool]:
    """Whether a word is one of the study's tokens in the sealed key (asked only of the rare
    word a needle was found inside, once each)."""

    @cache
    def is_token(word: str) -> bool:
        with raterlab.warehouse(read_only=True) as con:
            return is_sealed_token(con, study, word)

    return is_token


def _packet_checks(packets: dg.AssetsDefinition, round_name: str) -> list[dg.AssetChecksDefinition]:
    files_table = f"staging.{round_name}_packet_files"

    @dg.asset_check(
        asset=packets,
        partitions_def=study_partitions,
        name="packets_match_assignment",
        blocking=True,
    )
    def _match(context: dg.AssetCheckExecutionContext, raterlab: Raterlab) -> dg.AssetCheckResult:
        """Every assigned row is in exactly its own packet, once; no packet holds another row."""
        study = raterlab.study(context.partition_key)
        key = study_frame(raterlab, "staging.blinding_key", study.name)
        files = study_frame(raterlab, files_table, study.name)
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
        files = study_frame(raterlab, files_table, study.name)
        generations = generations_text(raterlab, study.name)
        outbox = raterlab.paths.outbox
        inputs = memo.fingerprint(study, files, on_disk(files, outbox), generations)
        return _passed_before(
            raterlab,
            study.name,
            f"{round_name}_packets_no_hidden_values_in_packets",
            lambda: verify_no_hidden_values(
                study,
                decoded_generations(generations, hidden_record_keys(study)),
                files,
                outbox,
                _sealed_token(raterlab, study.name),
            ),
            inputs,
        )

    return [_match, _leaks]


pilot_packet_checks = _packet_checks(pilot_packets, "pilot")
main_packet_checks = _packet_checks(main_packets, "main")
