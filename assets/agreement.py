"""Agreement per field and slice, pairwise tables and matrices; the pilot gate's numbers."""

import dagster as dg
import pandas as pd

from assets.design import GENERATION_JSON, _generations_text, _optional_frame, _study_frame
from assets.ingest import labels
from assets.memo import unchanged
from assets.metadata import image_md
from assets.partitions import study_partitions
from assets.tables import create_tables, table_metadata
from raterlab import memo
from raterlab import warehouse as wh
from raterlab.agreement.pilot import gate_history, matrix_markdown, pilot_gate, pilot_matrices
from raterlab.agreement.plot import forest_plot
from raterlab.agreement.study import (
    field_agreement,
    matrices,
    pairwise,
    ratings,
    threshold_results,
)
from raterlab.design.rounds import PILOT, latest_pilot_only, round_labels
from raterlab.publish import publish
from resources import Raterlab

GROUP = "agreement"


def _labels_of_round(rl: Raterlab, study: str, round_name: str | None) -> pd.DataFrame:
    if round_name is None:
        return _study_frame(rl, "gold.labels", study)
    with rl.warehouse(read_only=True) as con:
        return round_labels(con, study, round_name)


def study_ratings(raterlab: Raterlab, study: str, round_name: str | None = None) -> pd.DataFrame:
    """Ordinary ratings of a study (of one round, ``pilot`` standing for every pilot round)
    with the item attributes its slices use; only the rated items' records are decoded."""
    labels = _labels_of_round(raterlab, study, round_name)
    generations = _generations_text(raterlab, study)
    if len(labels):
        generations = generations[generations["item_id"].isin(labels["item_id"])]
    items = wh.decode_json(generations, GENERATION_JSON)[["item_id", "task", "record"]]
    routed = _study_frame(raterlab, "staging.routed_items", study)[["item_id", "tier", "stratum"]]
    items = items.merge(routed, on="item_id", how="left")
    return ratings(labels, items)


@dg.asset(
    partitions_def=study_partitions,
    group_name=GROUP,
    deps=[labels],
    kinds={"duckdb"},
    metadata=table_metadata("pilot_agreement", "gold.pilot_gates"),
)
def pilot_agreement(context: dg.AssetExecutionContext, raterlab: Raterlab) -> dg.MaterializeResult:
    """The latest pilot round's agreement against the study's gate (``thresholds.pilot_gate``)
    in ``staging.pilot_gate``; its blocking check holds back the main-round packets. Every
    attempt (one per pilot round) is kept in ``gold.pilot_gates``, each round's score matrix
    per pair of annotators in ``gold.pilot_matrices`` and ``reports/<study>/pilot_matrices.md``."""
    study = raterlab.study(context.partition_key)
    rows = study_ratings(raterlab, study.name, PILOT)
    key = _study_frame(raterlab, "staging.blinding_key", study.name)
    gate = pilot_gate(study, rows, key)
    history = gate_history(_optional_frame(raterlab, "gold.pilot_gates", study.name), gate.table)
    matrices_table = pilot_matrices(study, rows)
    frames = {
        "staging.pilot_gate": pd.DataFrame(
            [{"passed": gate.passed, "message": gate.message, "round": gate.round}]
        ),
        "gold.pilot_matrices": matrices_table,
    }
    if len(gate.table):
        frames["gold.pilot_gates"] = history
    with raterlab.warehouse() as con:
        create_tables(con, "pilot_agreement")
        wh.replace_study_tables(con, study.name, frames)
        publish(con, raterlab.paths.published, frames)
    if len(matrices_table):
        report = raterlab.paths.reports / study.name / "pilot_matrices.md"
        report.parent.mkdir(parents=True, exist_ok=True)
        report.write_text(
            f"# {study.title}: pilot agreement matrices\n\n{matrix_markdown(matrices_table)}",
            encoding="utf-8",
        )
    return dg.MaterializeResult(
        metadata={
            "passed": gate.passed,
            "message": gate.message,
            "fields": dg.MetadataValue.md(
                gate.table.to_markdown(index=False) if len(gate.table) else "none"
            ),
            "attempts": dg.MetadataValue.md(
                history.drop_duplicates("round")[
                    ["attempt", "round", "gate_passed", "study_version", "evaluated_at"]
                ].to_markdown(index=False)
                if len(history)
                else "none"
            ),
        }
    )


@dg.asset(
    partitions_def=study_partitions,
    group_name=GROUP,
    deps=[labels],
    kinds={"duckdb"},
    metadata=table_metadata("agreement", "gold.agreement"),
)
def agreement(context: dg.AssetExecutionContext, raterlab: Raterlab) -> dg.MaterializeResult:
    """``gold.agreement``: every rating field x slice x coefficient of its type, with 95%
    bootstrap intervals and interpretation bands, the protocol's coefficient of each field
    marked ``headline`` (listed first in the metadata); ``gold.agreement_pairwise`` and
    ``gold.agreement_matrices``; ``staging.agreement_thresholds`` (the study's minimums).
    The four tables are replaced in one transaction, then published; left as they are when
    the study and the ratings it counts are those of the last write (the third annotators'
    ratings and the decisions of adjudication rounds are not counted)."""
    study = raterlab.study(context.partition_key)
    rows = latest_pilot_only(study_ratings(raterlab, study.name))
    inputs = memo.fingerprint(study, rows)
    recompute = not unchanged(raterlab, study.name, "agreement", inputs)
    if not recompute:
        table = _study_frame(raterlab, "gold.agreement", study.name)
    else:
        table = field_agreement(study, rows)
        frames = {
            "gold.agreement": table,
            "gold.agreement_pairwise": pairwise(study, rows),
            "gold.agreement_matrices": matrices(study, rows),
            "staging.agreement_thresholds": threshold_results(study, table),
        }
        with raterlab.warehouse() as con:
            memo.write_tables(con, study.name, frames, "agreement", inputs)
            publish(con, raterlab.paths.published, frames)
    plot = forest_plot(study, table, raterlab.paths.reports / study.name / "agreement.png")
    overall = table[(table["slice"] == "all") & table["estimate"].notna()]
    shown = overall.sort_values("headline", ascending=False, kind="stable")[
        [
            "task",
            "field",
            "headline",
            "coefficient",
            "level",
            "estimate",
            "ci_low",
            "ci_high",
            "n_units",
            "band",
        ]
    ]
    return dg.MaterializeResult(
        metadata={
            "rows": len(table),
            "ratings": len(rows),
            "recomputed": recompute,
            "inputs": inputs,
            "plot": dg.MetadataValue.path(str(plot)) if plot else "no ratings yet",
            "forest_plot": image_md(plot) if plot else "no ratings yet",
            "overall": dg.MetadataValue.md(
                shown.round(3).to_markdown(index=False) if len(shown) else "no ratings yet"
            ),
        }
    )


agreement_assets = [pilot_agreement, agreement]
