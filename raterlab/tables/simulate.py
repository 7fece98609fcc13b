"""Tables of a simulated study (``raterlab simulate``): the planted truth, each simulated
annotator's profile and each return file written."""

from __future__ import annotations

from raterlab.tables import fields as f
from raterlab.tables.model import Column, Table

SIMULATE = "raterlab simulate"

SIM_TRUTH = Table(
    "staging.sim_truth",
    "The truth planted for each item and rating field of a simulated study.",
    grain="item and rating field",
    written_by=SIMULATE,
    columns=(
        f.STUDY,
        f.ITEM_ID,
        f.TASK,
        Column("role", f.VARCHAR, "`item`, `attention` or `calibration`."),
        f.FIELD,
        f.VALUE.described("The true value in canonical form."),
        f.VALUE_NUM,
        Column(
            "source",
            f.VARCHAR,
            "Where it comes from: `latent` (drawn), `hint` (an item key), `expected` (an "
            "attention or calibration answer), `constraint` (forced by a task constraint).",
        ),
    ),
    key=("study", "task", "item_id", "field"),
)

SIM_PROFILES = Table(
    "staging.sim_profiles",
    "Each simulated annotator's profile and its parameters.",
    grain="simulated annotator",
    written_by=SIMULATE,
    columns=(
        f.STUDY,
        f.ANNOTATOR_ID,
        Column("profile", f.VARCHAR, "The profile's name (`good`, `rushed`...)."),
        Column("parameters", f.VARCHAR, "Its parameters, as JSON text."),
    ),
    key=("study", "annotator_id"),
)

SIM_FILES = Table(
    "staging.sim_files",
    "Each simulated return file written to the inbox.",
    grain="simulated return file",
    written_by=SIMULATE,
    columns=(
        f.STUDY,
        Column("file", f.VARCHAR, "The return file's name in the inbox."),
        f.ANNOTATOR_ID,
        f.ROUND,
        f.BATCH,
        f.TASK,
        Column("profile", f.VARCHAR, "The annotator's profile."),
        f.N_ROWS.described("Rows in the file."),
        Column("n_attention", f.BIGINT, "Attention-check rows in it."),
        Column("n_attention_failed", f.BIGINT, "Of those, rows answered wrongly."),
        Column("variants", f.VARCHAR, "File variants applied (JSON list: layout, encoding...)."),
        Column("mistakes", f.VARCHAR, "Mistakes planted (JSON list)."),
        f.SHA256.described("Content hash of the file."),
        Column("seed", f.BIGINT, "The simulation's seed."),
        Column("template", f.VARCHAR, "The packet template filled, relative to the outbox."),
        Column(
            "corrected",
            f.VARCHAR,
            "With a planted mistake, its corrected version (relative to RATERLAB_HOME), else "
            "empty.",
        ),
    ),
    key=("study", "file"),
)

TABLES = (SIM_TRUTH, SIM_PROFILES, SIM_FILES)
