"""Pairwise studies: each counting rating of a pairwise field unblinded into the two systems,
their sides and the winner (``gold.pairwise_comparisons``), which the ranking reads."""

import dagster as dg

from assets.metadata import table_md
from assets.study_asset import StudyStep, study_asset
from raterlab.ingest.pairwise import pairwise_comparisons
from raterlab.ingest.study_tables import counting_ratings
from raterlab.warehouse import decode_json


@study_asset(
    name="pairwise_comparisons",
    group="pairwise",
    deps=["labels"],
    kinds={"duckdb"},
    table="gold.pairwise_comparisons",
)
def pairwise_comparisons_asset(step: StudyStep) -> dg.MaterializeResult:
    """``gold.pairwise_comparisons``: one row per counting rating of a pairwise field, with
    ``system_a``/``system_b``, the systems the annotator saw left and right (from the sealed
    key), the choice as made and the winner. Empty for a study without pairwise tasks;
    skipped when the labels, the key and the generations are those of the last write."""
    if all(task.pairwise is None for task in step.study.tasks.values()):
        step.create_empty_tables()
        return dg.MaterializeResult(metadata={"comparisons": "the study has no pairwise task"})
    labels = step.frame("gold.labels")
    key = step.frame("staging.blinding_key")
    generations = step.generations_text()
    if step.unchanged(labels, key, generations):
        return step.skipped()
    records = decode_json(generations, ("record",))
    table = pairwise_comparisons(
        step.study,
        counting_ratings(step.study, labels),
        key,
        dict(zip(records["item_id"], records["record"], strict=True)),
    )
    step.write({"gold.pairwise_comparisons": table}, published=True)
    wins = table.groupby("winner").size().sort_values(ascending=False).rename("n").reset_index()
    return dg.MaterializeResult(
        metadata={
            "comparisons": len(table),
            "left_share": float((table["choice"] == "left").mean()) if len(table) else 0.0,
            "wins": table_md(wins, "no pairwise ratings yet"),
        }
    )
