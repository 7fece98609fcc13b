"""Tables of the study design: the loaded study and generations, routing, assignments, the
sealed key, packet files, repeated pilot rounds and what each tier costs."""

from __future__ import annotations

from raterlab.tables import fields as f
from raterlab.tables.model import Column, Table

TIER_COSTS = Table(
    "gold.tier_costs",
    "What each routing tier costs to label, from the study's `tiers:` (`raterlab/design/cost.py`).",
    grain="routing tier, and an `all` row",
    written_by="routed_items",
    columns=(
        f.STUDY,
        f.TIER.described("The routing tier, or `all`."),
        f.N.described("Sampled items routed to the tier."),
        Column("share", f.DOUBLE, "`n` over all sampled items."),
        Column(
            "cost_per_case",
            f.DOUBLE,
            "The tier's `cost_per_case`; for `all`, the tier costs weighted by the routed shares.",
        ),
        Column("cost", f.DOUBLE, "`n * cost_per_case`."),
        Column("cases_per_labeler_day", f.DOUBLE, "The tier's labeler throughput."),
        Column("labeler_days", f.DOUBLE, "`n / cases_per_labeler_day`."),
        Column("noise_floor", f.DOUBLE, "The tier's declared `noise_floor`."),
    ),
    key=("study", "tier"),
    details="Written with `staging.routed_items` when the study declares `tiers:`; NaN where "
    "the study declares no figure.",
)

GENERATIONS = Table(
    "raw.generations",
    "The study's generations file as loaded: every item, attention and calibration record.",
    grain="record of the generations file",
    written_by="raw_generations",
    columns=(
        f.STUDY,
        f.ITEM_ID,
        f.TASK,
        Column("role", f.VARCHAR, "`item`, `attention` or `calibration`."),
        Column("record", f.VARCHAR, "The whole record as JSON text."),
        Column("expected", f.VARCHAR, "Expected answer of an attention or calibration record."),
        Column("line", f.BIGINT, "Its line in the generations file."),
        Column("source_file", f.VARCHAR, "The generations file (relative to the studies folder)."),
    ),
    key=("study", "task", "item_id"),
)

STUDY_PROTOCOL = Table(
    "staging.study_protocol",
    "The study file as loaded by the last design run.",
    grain="study",
    written_by="study_protocol",
    columns=(
        f.STUDY,
        Column("version", f.VARCHAR, "The study file's `version`."),
        Column("title", f.VARCHAR, "The study's `title`."),
        Column("sha256", f.VARCHAR, "Content hash of the study file."),
        Column("yaml", f.VARCHAR, "The study file's text."),
        Column("loaded_at", f.TIMESTAMPTZ, "When it was loaded."),
    ),
    key=("study",),
)

ROUTED_ITEMS = Table(
    "staging.routed_items",
    "Each ordinary item's routing tier, the rule that set it, its stratum and sample membership.",
    grain="ordinary item",
    written_by="routed_items",
    columns=(
        f.STUDY,
        f.ITEM_ID,
        f.TASK,
        f.TIER,
        f.TIER_RULE,
        f.STRATUM,
        Column("sampled", f.BOOLEAN, "The item is in the study's sample (rated)."),
    ),
    key=("study", "task", "item_id"),
)

_ASSIGNMENT = (
    f.STUDY,
    f.ANNOTATOR_ID.described("Who rates the row."),
    f.ROUND,
    f.BATCH,
    f.TASK,
    f.ITEM_ID,
    f.TIER,
    f.KIND,
    Column("copy", f.BIGINT, "0 for the first copy, 1 for a hidden duplicate."),
    Column("spot_check", f.BOOLEAN, "A TRIAGE item drawn for a second rating (drift check)."),
)

ASSIGNMENTS = Table(
    "staging.assignments",
    "Who rates what, in which round and batch.",
    grain="assigned row (annotator, item, copy)",
    written_by="assignments",
    columns=_ASSIGNMENT,
)

BLINDING_KEY = Table(
    "staging.blinding_key",
    "The sealed key: each assigned row's opaque token and position in its packet.",
    grain="assigned row",
    written_by="blinding_key",
    columns=(
        *_ASSIGNMENT,
        Column("position", f.BIGINT, "Row position in the packet (shuffled)."),
        f.TOKEN.described("The opaque item token the packet shows instead of the item id."),
        Column(
            "swapped",
            f.BOOLEAN,
            "A pair item (pairwise task) shown with `system_b`'s response on the left; false "
            "for every other row. Drawn per packet, balanced (see `raterlab/design/blinding.py`).",
        ),
    ),
    details="Third-annotator rows are added with `round = 'tiebreak'` by "
    "`adjudication_packets` (see [Third annotators](#third-annotators-and-the-sealed-key)).",
)

PACKET_FILE_COLUMNS = (
    f.STUDY,
    f.ANNOTATOR_ID,
    f.BATCH,
    f.ROUND,
    f.TASK.described("Task of a template; NULL for the packet's other files."),
    Column("file", f.VARCHAR, "The packet file written, relative to the outbox."),
    Column(
        "kind",
        f.VARCHAR,
        "`template` (the file to fill in, one per task), `reference`, `instructions`, `guide`.",
    ),
    f.N_ROWS.described("Rows in the file."),
    f.SHA256.described("Content hash of the file."),
)


def _packet_files(round_name: str, written_by: str) -> Table:
    return Table(
        f"staging.{round_name}_packet_files",
        f"The {round_name} packet files written to the outbox.",
        grain="packet file",
        written_by=written_by,
        columns=PACKET_FILE_COLUMNS,
        key=("study", "file"),
    )


PILOT_PACKET_FILES = _packet_files("pilot", "pilot_packets")
MAIN_PACKET_FILES = _packet_files("main", "main_packets")

PILOT_ROUNDS = Table(
    "staging.pilot_rounds",
    "Each repeated pilot round.",
    grain="repeated pilot round",
    written_by="raterlab pilot again",
    columns=(
        f.STUDY,
        f.ROUND.described("The new round (`pilot-2`...)."),
        Column("number", f.INTEGER, "Its number (2 for `pilot-2`)."),
        Column("study_version", f.VARCHAR, "The study file's `version` then."),
        Column("guide_sha256", f.VARCHAR, "Hash of the guide file then."),
        f.REASON.described("Why the pilot is repeated (the failed gate)."),
        Column("created_at", f.TIMESTAMPTZ, "When the round was started."),
    ),
    key=("study", "round"),
)

STEP_INPUTS = Table(
    "staging.step_inputs",
    "What each step's tables were last written from, so that a run whose inputs did not "
    "change skips the work (`raterlab.memo`).",
    grain="study and step",
    written_by="raw_generations",
    columns=(
        f.STUDY,
        Column("step", f.VARCHAR, "The asset or check that recorded the row.", nullable=False),
        Column(
            "inputs",
            f.VARCHAR,
            "SHA-256 of the raterlab code and of everything the step read (study model, "
            "tables' rows, files' bytes).",
            nullable=False,
        ),
        Column("recorded_at", f.TIMESTAMPTZ, "When the step last wrote its tables."),
    ),
    key=("study", "step"),
    details="Recorded in the same transaction as the step's own tables, by every step that "
    "skips unchanged work: `raw_generations`, `routed_items`, `assignments`, `blinding_key`, "
    "the packet assets, `agreement`, `rater_quality` and the adjudication queue (recorded by "
    "whichever of its readers builds it first); a run that computes the same "
    "fingerprint leaves the tables as they are. `judge_calibration` records what its "
    "calibration was computed from (all but the consensus) and takes those rows again, "
    "computing only the weights. The packet checks record the files they "
    "passed on (their SHA-256 as read), and pass again without reading them while the files "
    "are the same. Delete a study's rows to make every step compute again.",
)

PLANNED_PRECISION = Table(
    "staging.planned_precision",
    "The interval width the design plans for each declared threshold "
    "(`raterlab.planning.study_precision.planned_precision`), shown in the report beside "
    "the width achieved.",
    grain="declared threshold (the pilot gate, each minimum), task and field it reads",
    written_by="assignments",
    columns=(
        f.STUDY,
        f.TASK,
        f.FIELD.described("A rating field, or `(pooled <level>: ...)` for a per-task threshold."),
        Column("threshold", f.VARCHAR, "`thresholds.pilot_gate` or `thresholds.minimums[i]`."),
        Column("coefficient", f.VARCHAR, "The coefficient the threshold is judged on."),
        Column("level", f.VARCHAR, "Its measurement level."),
        Column("min", f.DOUBLE, "The declared minimum (the value the width is simulated at)."),
        f.SLICE,
        Column("planned_units", f.BIGINT, "Units the design gives the threshold."),
        Column("n_raters", f.BIGINT, "Annotators per unit (the median)."),
        Column("n_categories", f.BIGINT, "Categories of the field (the most, when pooled)."),
        Column(
            "planned_ci_width",
            f.DOUBLE,
            "Mean width of the 95% interval over simulated studies of that size (NaN: see `note`).",
        ),
        f.NOTE,
    ),
    details="Computed with the assignment, from the study and its generations alone (it "
    "simulates studies: several seconds at 100,000 items), so that the report reads it "
    "instead of computing it on every run.",
)

TABLES = (
    TIER_COSTS,
    GENERATIONS,
    STUDY_PROTOCOL,
    ROUTED_ITEMS,
    ASSIGNMENTS,
    BLINDING_KEY,
    PILOT_PACKET_FILES,
    MAIN_PACKET_FILES,
    PILOT_ROUNDS,
    STEP_INPUTS,
    PLANNED_PRECISION,
)
