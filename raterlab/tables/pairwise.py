"""Tables of pairwise studies: each rating of a pairwise field unblinded into the systems it
compared, the sides they were shown on, and the winner (``raterlab/ingest/pairwise.py``)."""

from __future__ import annotations

from raterlab.tables import fields as f
from raterlab.tables.model import Column, Table

PAIRWISE_COMPARISONS = Table(
    "gold.pairwise_comparisons",
    "Each counting rating of a pairwise field: the two systems, their sides, the choice as the "
    "annotator made it and the winner.",
    grain="rating of a pairwise field (item, annotator)",
    written_by="pairwise_comparisons",
    columns=(
        f.STUDY,
        f.TASK.described("The pairwise task."),
        f.FIELD.described("The pairwise field."),
        f.ITEM_ID.described("The pair: `<prompt_id>:<system_a>~<system_b>`."),
        Column("prompt_id", f.VARCHAR, "The prompt (value of the task's `pairwise.prompt` key)."),
        f.ANNOTATOR_ID,
        Column("system_a", f.VARCHAR, "The pair's alphabetically first system."),
        Column("system_b", f.VARCHAR, "The pair's other system."),
        Column("left_system", f.VARCHAR, "The system whose response this annotator saw left."),
        Column("right_system", f.VARCHAR, "The system whose response they saw right."),
        Column("choice", f.VARCHAR, "`left`, `right` or `tie`, as the annotator answered."),
        Column(
            "strength",
            f.VARCHAR,
            "`better`, or `much_better` (an answer `much_left`/`much_right`); NULL for a tie.",
        ),
        Column("winner", f.VARCHAR, "The preferred system's name, or `tie`."),
        Column(
            "value",
            f.VARCHAR,
            "The rating as `gold.labels` stores it: `a` (`system_a` preferred), `b`, `tie`, "
            "`much_a`, `much_b`.",
        ),
        f.ROUND,
        f.BATCH,
        Column(
            "category",
            f.VARCHAR,
            "The pair's `category` key, else its first slice key that its prompt holds.",
        ),
        Column(
            "slices",
            f.VARCHAR,
            "JSON object: each of the study's `slices` keys that the prompt holds -> its value.",
        ),
    ),
    key=("study", "task", "field", "item_id", "annotator_id"),
    details="Only the ratings that count are here (an ordinary first copy, not `skip`, the "
    "latest pilot round of an item piloted again): hidden duplicates (shown with the sides "
    "swapped), attention and calibration pairs are in `gold.labels` and `gold.rater_quality`. "
    "`left_system` and `right_system` come from the sealed key's `swapped`, which never "
    "leaves the warehouse otherwise.",
)

TABLES = (PAIRWISE_COMPARISONS,)
