"""Agreement per field and slice, pairwise tables and matrices; the pilot gate's numbers."""

import dagster as dg
import pandas as pd

from assets.design import _generations, _study_frame, _write
from assets.ingest import labels
from assets.metadata import image_md
from assets.partitions import study_partitions
from raterlab.agreement.plot import forest_plot
from raterlab.agreement.study import (
    field_agreement,
    matrices,
    pairwise,
    pilot_gate,
    ratings,
    threshold_results,
)
from resources import Raterlab

GROUP = "agreement"


def study_ratings(raterlab: Raterlab, study: str) -> pd.DataFrame:
    """Ordinary ratings of a study with the item attributes its slices use."""
    items = _generations(raterlab, study)[["item_id", "task", "record"]]
    routed = _study_frame(raterlab, "staging.routed_items", study)[["item_id", "tier", "stratum"]]
    items = items.merge(routed, on="item_id", how="left")
    return ratings(_study_frame(raterlab, "gold.labels", study), items)


def expected_pilot_ratings(raterlab: Raterlab, study: str) -> int:
    key = _study_frame(raterlab, "staging.blinding_key", study)
    pilot = key[(key["round"] == "pilot") & (key["kind"] == "item")]
    return len(pilot.drop_duplicates(["item_id", "annotator_id", "task"]))


@dg.asset(partitions_def=study_partitions, group_name=GROUP, deps=[labels], kinds={"duckdb"})
def pilot_agreement(context: dg.AssetExecutionContext, raterlab: Raterlab) -> dg.MaterializeResult:
    """Pilot-round agreement against the study's gate (``thresholds.pilot_gate``), in
    ``staging.pilot_gate``; its blocking check holds back the main-round packets."""
    study = raterlab.study(context.partition_key)
    gate = pilot_gate(
        study, study_ratings(raterlab, study.name), expected_pilot_ratings(raterlab, study.name)
    )
    _write(
        raterlab,
        "staging.pilot_gate",
        study.name,
        pd.DataFrame([{"passed": gate.passed, "message": gate.message}]),
    )
    return dg.MaterializeResult(
        metadata={
            "passed": gate.passed,
            "message": gate.message,
            "fields": dg.MetadataValue.md(
                gate.table.to_markdown(index=False) if len(gate.table) else "none"
            ),
        }
    )


@dg.asset(partitions_def=study_partitions, group_name=GROUP, deps=[labels], kinds={"duckdb"})
def agreement(context: dg.AssetExecutionContext, raterlab: Raterlab) -> dg.MaterializeResult:
    """``gold.agreement``: every rating field x slice x coefficient of its type, with 95%
    bootstrap intervals and interpretation bands; ``gold.agreement_pairwise`` and
    ``gold.agreement_matrices``; ``staging.agreement_thresholds`` (the study's minimums)."""
    study = raterlab.study(context.partition_key)
    rows = study_ratings(raterlab, study.name)
    table = field_agreement(study, rows)
    thresholds = threshold_results(study, table, rows)
    _write(raterlab, "gold.agreement", study.name, table)
    _write(raterlab, "gold.agreement_pairwise", study.name, pairwise(study, rows))
    _write(raterlab, "gold.agreement_matrices", study.name, matrices(study, rows))
    _write(raterlab, "staging.agreement_thresholds", study.name, thresholds)
    plot = forest_plot(study, table, raterlab.paths.reports / study.name / "agreement.png")
    overall = table[(table["slice"] == "all") & table["estimate"].notna()]
    shown = overall[
        [
            "task",
            "field",
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
            "plot": dg.MetadataValue.path(str(plot)) if plot else "no ratings yet",
            "forest_plot": image_md(plot) if plot else "no ratings yet",
            "overall": dg.MetadataValue.md(
                shown.round(3).to_markdown(index=False) if len(shown) else "no ratings yet"
            ),
        }
    )


agreement_assets = [pilot_agreement, agreement]
