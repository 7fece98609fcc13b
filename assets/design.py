"""From a study file and its generations to blinded packets in the outbox."""

import hashlib
from datetime import UTC, datetime

import dagster as dg
import pandas as pd

from assets.memo import skipped, unchanged, write
from assets.partitions import study_partitions
from assets.tables import create_tables, table_metadata
from raterlab import memo
from raterlab import warehouse as wh
from raterlab.adjudication.packets import sealed_tiebreak_rows
from raterlab.design import (
    assign,
    files_intact,
    read_generations,
    routed_items,
    seal,
    write_packets,
)
from raterlab.design.cost import tier_costs
from raterlab.design.rounds import in_round
from raterlab.errors import StudyChanged
from raterlab.ingest.changes import follow_study
from resources import Raterlab

GROUP = "design"


def _study_frame(rl: Raterlab, table: str, study: str, json_columns: tuple[str, ...] = ()):
    with rl.warehouse(read_only=True) as con:
        return wh.decode_json(wh.read_study_rows(con, table, study), json_columns)


def _optional_frame(rl: Raterlab, table: str, study: str) -> pd.DataFrame | None:
    """``study``'s rows of ``table``, or ``None`` before the table exists."""
    with rl.warehouse(read_only=True) as con:
        if not wh.table_exists(con, table):
            return None
    return _study_frame(rl, table, study)


def _write(rl: Raterlab, table: str, study: str, frame: pd.DataFrame) -> int:
    with rl.warehouse() as con:
        return wh.replace_study_rows(con, table, study, frame)


GENERATION_JSON = ("record", "expected")


def _generations_text(rl: Raterlab, study: str) -> pd.DataFrame:
    """``raw.generations`` as stored (JSON as text): what a design step's fingerprint reads."""
    return _study_frame(rl, "raw.generations", study)


@dg.asset(
    partitions_def=study_partitions,
    group_name=GROUP,
    kinds={"yaml", "duckdb"},
    metadata=table_metadata("study_protocol", "staging.study_protocol"),
)
def study_protocol(context: dg.AssetExecutionContext, raterlab: Raterlab) -> dg.MaterializeResult:
    """The study file, validated into the typed protocol; a copy is kept in
    ``staging.study_protocol`` with its hash, so every later table can be traced to it. A
    file edited after ratings came in is checked against them
    (:func:`raterlab.ingest.changes.follow_study`): a dropped field fails the run, renames
    are applied, values the new rules reject are listed in ``staging.held_ratings``."""
    study = raterlab.study(context.partition_key)
    with raterlab.warehouse() as con:
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
    _write(raterlab, "staging.study_protocol", study.name, pd.DataFrame([row]))
    return dg.MaterializeResult(
        metadata={
            "tasks": ", ".join(study.tasks),
            "annotators": len(study.design.annotators),
            "rating_fields": sum(len(t.rating_fields) for t in study.tasks.values()),
            "sha256": row["sha256"],
            "held_ratings": len(change.held),
            "study_change": dg.MetadataValue.md(
                "\n".join(f"- {line}" for line in change.lines()) or "none"
            ),
        }
    )


@dg.asset(
    partitions_def=study_partitions,
    group_name=GROUP,
    deps=[study_protocol],
    kinds={"duckdb"},
    metadata=table_metadata("raw_generations", "raw.generations"),
)
def raw_generations(context: dg.AssetExecutionContext, raterlab: Raterlab) -> dg.MaterializeResult:
    """Model generations from the study's JSONL in ``raw.generations``, one row per item.
    A bad line fails the run, naming file, line and what is wrong. Skipped (the table left as
    it is) when the study and the file's bytes are those of the last write."""
    study = raterlab.study(context.partition_key)
    inputs = memo.fingerprint(study, study.path_of(study.generations).read_bytes())
    if unchanged(raterlab, study.name, "raw_generations", inputs):
        return skipped(inputs)
    frame = read_generations(study).assign(source_file=study.generations)
    write(raterlab, study.name, {"raw.generations": frame}, "raw_generations", inputs)
    counts = frame.groupby(["task", "role"]).size()
    return dg.MaterializeResult(
        metadata={
            "items": len(frame),
            "by_task_and_role": dg.MetadataValue.md(counts.to_frame("items").to_markdown()),
        }
    )


@dg.asset(
    name="routed_items",
    partitions_def=study_partitions,
    group_name=GROUP,
    deps=[raw_generations],
    kinds={"duckdb"},
    metadata=table_metadata("routed_items", "gold.tier_costs"),
)
def routed_items_asset(
    context: dg.AssetExecutionContext, raterlab: Raterlab
) -> dg.MaterializeResult:
    """Each ordinary item's tier (and the rule that set it), stratum and sample membership,
    in ``staging.routed_items``; with the study's ``tiers:``, the labeling cost and labeler-days
    per tier in ``gold.tier_costs``. Skipped when the study and the generations are those of
    the last write."""
    study = raterlab.study(context.partition_key)
    generations = _generations_text(raterlab, study.name)
    inputs = memo.fingerprint(study, generations)
    if unchanged(raterlab, study.name, "routed_items", inputs):
        return skipped(inputs)
    routed = routed_items(study, wh.decode_json(generations, GENERATION_JSON))
    frames = {"staging.routed_items": routed}
    sampled = routed[routed["sampled"]]
    metadata = {
        "items": len(routed),
        "sampled": len(sampled),
        "tiers": dg.MetadataValue.json(sampled["tier"].value_counts().to_dict()),
    }
    if study.tiers:
        frames["gold.tier_costs"] = costs = tier_costs(study, routed)
        metadata["cost"] = dg.MetadataValue.md(costs.round(3).to_markdown(index=False))
    else:
        with raterlab.warehouse() as con:
            create_tables(con, "routed_items")
    write(raterlab, study.name, frames, "routed_items", inputs)
    return dg.MaterializeResult(metadata=metadata)


@dg.asset(
    partitions_def=study_partitions,
    group_name=GROUP,
    deps=[routed_items_asset],
    kinds={"duckdb"},
    metadata=table_metadata("assignments", "staging.assignments"),
)
def assignments(context: dg.AssetExecutionContext, raterlab: Raterlab) -> dg.MaterializeResult:
    """Who rates what, in which batch: overlap by tier, pilot (and the repeated pilot rounds
    of ``staging.pilot_rounds``), spot checks, hidden duplicates, attention checks and
    calibration items, in ``staging.assignments``. Skipped when the study, the routed items,
    the pilot rounds and the generations are those of the last write."""
    study = raterlab.study(context.partition_key)
    routed = _study_frame(raterlab, "staging.routed_items", study.name)
    repeats = _optional_frame(raterlab, "staging.pilot_rounds", study.name)
    generations = _generations_text(raterlab, study.name)
    inputs = memo.fingerprint(study, routed, repeats, generations)
    if unchanged(raterlab, study.name, "assignments", inputs):
        return skipped(inputs)
    rounds = 1 + (0 if repeats is None else len(repeats))
    generations = wh.decode_json(generations, GENERATION_JSON)
    table = assign(study, routed, generations, pilot_rounds=rounds)
    write(raterlab, study.name, {"staging.assignments": table}, "assignments", inputs)
    load = table.groupby(["annotator_id", "kind"]).size().unstack(fill_value=0)
    return dg.MaterializeResult(
        metadata={"rows": len(table), "load": dg.MetadataValue.md(load.to_markdown())}
    )


@dg.asset(
    partitions_def=study_partitions,
    group_name=GROUP,
    deps=[assignments],
    kinds={"duckdb"},
    metadata=table_metadata("blinding_key", "staging.blinding_key"),
)
def blinding_key(context: dg.AssetExecutionContext, raterlab: Raterlab) -> dg.MaterializeResult:
    """The sealed key: opaque token and position of every packet row, in
    ``staging.blinding_key``. It never leaves the warehouse. Third annotators assigned to
    break ties keep their rows (same tokens) when the key is sealed again.

    Skipped when the study, the assignments and the secret are those of the last write: the
    third annotators' rows are kept up to date in the key by the adjudication packets that
    assign them (:func:`raterlab.adjudication.packets.merge_tiebreak_key`)."""
    study = raterlab.study(context.partition_key)
    table = _study_frame(raterlab, "staging.assignments", study.name)
    secret = raterlab.blinding_secret()
    inputs = memo.fingerprint(study, table, secret)
    if unchanged(raterlab, study.name, "blinding_key", inputs):
        return skipped(inputs)
    key = seal(study, table, secret)
    with raterlab.warehouse(read_only=True) as con:
        tiebreak = sealed_tiebreak_rows(con, study, secret)
    if len(tiebreak):
        key = pd.concat([key, tiebreak], ignore_index=True)
    write(raterlab, study.name, {"staging.blinding_key": key}, "blinding_key", inputs)
    return dg.MaterializeResult(metadata={"tokens": len(key)})


def _packets_asset(round_name: str, description: str, gate=None) -> dg.AssetsDefinition:
    @dg.asset(
        name=f"{round_name}_packets",
        partitions_def=study_partitions,
        group_name=GROUP,
        deps=[blinding_key, *([gate] if gate else [])],
        kinds={"csv"},
        description=description,
        output_required=gate is None,
        metadata=table_metadata(f"{round_name}_packets", f"staging.{round_name}_packet_files"),
    )
    def _packets(context: dg.AssetExecutionContext, raterlab: Raterlab):
        study = raterlab.study(context.partition_key)
        if gate is not None and (held := _held_back(raterlab, study.name)):
            context.log.info(f"{study.name}: {held}")
            context.log_event(
                dg.AssetObservation(asset_key=context.asset_key, metadata={"held_back": held})
            )
            return
        key = _study_frame(raterlab, "staging.blinding_key", study.name)
        key = key[in_round(key["round"], round_name)]
        generations = _generations_text(raterlab, study.name)
        outbox = raterlab.paths.outbox
        table = f"staging.{round_name}_packet_files"
        inputs = memo.fingerprint(study, round_name, key, generations)
        if unchanged(raterlab, study.name, context.asset_key.path[-1], inputs) and files_intact(
            _study_frame(raterlab, table, study.name), outbox
        ):
            yield skipped(inputs, outbox=dg.MetadataValue.path(str(outbox / study.name)))
            return
        generations = wh.decode_json(generations, GENERATION_JSON)
        files = write_packets(study, key, generations, outbox)
        write(raterlab, study.name, {table: files}, context.asset_key.path[-1], inputs)
        yield dg.MaterializeResult(
            metadata={
                "packets": len(files[["annotator_id", "batch"]].drop_duplicates()),
                "rows": int(files.loc[files["kind"] == "template", "n_rows"].sum()),
                "outbox": dg.MetadataValue.path(str(outbox / study.name)),
            }
        )

    return _packets


def _held_back(raterlab: Raterlab, study: str) -> str | None:
    """Why the main round waits (the pilot gate's message), or ``None`` when it may go."""
    gate = _study_frame(raterlab, "staging.pilot_gate", study)
    if gate.empty:
        return "main round held back: the pilot gate has not been evaluated yet"
    return None if bool(gate["passed"].iloc[0]) else str(gate["message"].iloc[0])


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

design_assets = [
    study_protocol,
    raw_generations,
    routed_items_asset,
    assignments,
    blinding_key,
    pilot_packets,
    main_packets,
]
