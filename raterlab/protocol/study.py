"""The typed study model: what one ``studies/<study>.yaml`` declares.

Structure is checked by pydantic; references between parts (a constraint naming a field, a
routing rule naming an item key) are checked afterwards by :mod:`raterlab.protocol.checks`, so
every error can name its YAML path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from raterlab.protocol.fields import FieldSpec
from raterlab.protocol.judges import Judges
from raterlab.protocol.metrics import Metrics
from raterlab.protocol.names import STUDY_NAME, PersonId
from raterlab.protocol.pairwise import Pairwise
from raterlab.protocol.rules import (
    AllOf,
    ConditionalRequirement,
    Constraint,
    ItemPredicate,
)

RECORD_KEYS = ("id", "task", "role", "expected")
"""Keys every generations record may carry besides its task's shown and hidden keys."""

ROLES = ("item", "attention", "calibration")
BUILTIN_SLICES = ("task", "tier", "round", "stratum")
EXPORT_FORMATS = (
    "study_json",
    "labeler_files",
    "gold_tier_jsonl",
    "system_metrics",
    "judge_calibration",
    "condition_comparison",
)
"""The export formats a study may name in ``exports`` (each one's exporter is named in
:data:`raterlab.exports.FORMATS`)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Task(_Strict):
    """One kind of annotation unit with its own fields."""

    unit: str = Field(description="What one item is, e.g. 'response' or '(query, chunk)'.")
    description: str = ""
    shown: list[str] = Field(min_length=1, description="Item keys the annotator reads.")
    hidden: list[str] = Field(
        default_factory=list,
        description="Item keys that must never reach an annotator (condition, model, judge...).",
    )
    fields: dict[str, FieldSpec] = Field(min_length=1)
    conditional: list[ConditionalRequirement] = Field(default_factory=list)
    constraints: list[Constraint] = Field(default_factory=list)
    no_missing: bool = Field(
        default=False, description="Every rating field must be filled on every row."
    )
    allow_back: bool = Field(
        default=True,
        description="Annotators may go back to an item they have moved on from (labeling tool).",
    )
    pairwise: Pairwise | None = Field(
        default=None,
        description=(
            "The task's items are pairs of systems' responses to one prompt, made by the "
            "design from the generations (one record per prompt and system); its shown keys "
            "include response_left and response_right, which side is which sealed per rater."
        ),
    )
    renamed: dict[str, str] = Field(
        default_factory=dict,
        description=(
            "Fields renamed after ratings came in: old name -> new name. The stored ratings of "
            "the old field become ratings of the new one at the next ingest or design run; a "
            "field the stored ratings have and the study no longer has is otherwise refused."
        ),
    )

    @property
    def item_keys(self) -> list[str]:
        return [*self.shown, *self.hidden]

    @property
    def rating_fields(self) -> list[str]:
        return [name for name, spec in self.fields.items() if spec.is_rating]

    def is_required(self, name: str) -> bool:
        spec = self.fields[name]
        return spec.required or (self.no_missing and spec.is_rating)


class Pilot(_Strict):
    """A first round on a share of items, rated by every annotator, before the main round."""

    fraction: float = Field(ge=0, lt=1)
    by: str | None = Field(
        default=None,
        description=(
            "Item key to sample the pilot by: the fraction is of its distinct values (e.g. "
            "prompt_id: 10 of 50 prompts, each with all its responses), not of items."
        ),
    )
    rounds: int = Field(
        default=1,
        ge=1,
        description=(
            "Pilot rounds allowed: after a failed gate and a revised guide, the same pilot "
            "items go out again (pilot-2, ...) until the gate passes or this many rounds ran."
        ),
    )


class Design(_Strict):
    """Who rates what, in which order, with which hidden quality items."""

    annotators: list[PersonId] = Field(
        min_length=1, description="Annotator ids (letters, digits, '_', '.', '-'; used in paths)."
    )
    overlap: dict[str, int] = Field(
        default_factory=lambda: {"GOLD": 2},
        description="Independent annotators per item, by tier.",
    )
    pilot: Pilot | None = None
    spot_check: float = Field(
        default=0.0, ge=0, le=1, description="Share of single-annotator items given a second."
    )
    duplicates_per_batch: int = Field(default=0, ge=0)
    attention_checks: int = Field(default=0, ge=0, description="Per batch, per annotator.")
    calibration: bool = Field(
        default=False, description="Give every annotator the calibration items first."
    )
    batch_size: int | None = Field(
        default=None,
        gt=0,
        description="Main-round items per annotator per batch (a week of work); the week's "
        "spot checks come on top.",
    )
    time_floor_s: float = Field(default=0, ge=0, description="Faster than this is rushed.")
    seed: int

    @model_validator(mode="after")
    def _annotators(self) -> Design:
        if len(set(self.annotators)) != len(self.annotators):
            raise ValueError("annotator ids must be unique")
        for tier, k in self.overlap.items():
            if not 1 <= k <= len(self.annotators):
                raise ValueError(
                    f"overlap for tier {tier} is {k}; it must be between 1 and the "
                    f"{len(self.annotators)} annotators"
                )
        return self


class RoutingRule(_Strict):
    tier: str
    when: ItemPredicate | AllOf


class Routing(_Strict):
    """Tier assignment: the first matching rule wins, else ``default``."""

    default: str = "GOLD"
    rules: list[RoutingRule] = Field(default_factory=list)
    targets: dict[str, float] = Field(
        default_factory=dict,
        description="Intended share of sampled items per tier, e.g. {GOLD: 0.4, TRIAGE: 0.6}.",
    )
    target_tolerance: float = Field(
        default=0.05, gt=0, lt=1, description="Warn when a routed share is further off."
    )

    @model_validator(mode="after")
    def _targets(self) -> Routing:
        if self.targets and abs(sum(self.targets.values()) - 1) > 1e-6:
            raise ValueError(f"targets must sum to 1, not {sum(self.targets.values()):g}")
        return self

    @property
    def tiers(self) -> list[str]:
        return list(dict.fromkeys([*(r.tier for r in self.rules), self.default]))


class TierPolicy(_Strict):
    """What one tier costs and promises: cost per case, labeler throughput, and the accuracy
    noise floor its claims carry (disclosed in its export)."""

    cost_per_case: float | None = Field(default=None, ge=0, description="Labeling cost per case.")
    cases_per_labeler_day: float | None = Field(
        default=None, gt=0, description="Cases one labeler finishes per day in this tier."
    )
    noise_floor: float | None = Field(
        default=None, ge=0, le=1, description="Accepted label noise of this tier (e.g. 0.05)."
    )


class Sampling(_Strict):
    """Proportional stratified sample of ``n`` items (per task) over the ``strata`` keys."""

    strata: list[str] = Field(min_length=1)
    n: int = Field(gt=0)


Coefficient = Literal[
    "krippendorff_alpha",
    "cohen_kappa",
    "scott_pi",
    "fleiss_kappa",
    "conger_kappa",
    "light_kappa",
    "gwet_ac1",
    "gwet_ac2",
    "brennan_prediger",
    "percent_agreement",
    "icc",
]
"""The coefficients a threshold may name (the functions of :mod:`raterlab.agreement`)."""


class Threshold(_Strict):
    """A minimum agreement: ``{coefficient: cohen_kappa, min: 0.4, fields: [..]}``."""

    coefficient: Coefficient
    min: float = Field(ge=-1, le=1)
    strict: bool = Field(default=False, description="Require estimate > min, not >=.")
    level: Literal["nominal", "ordinal", "interval", "ratio"] | None = None
    weights: Literal["unweighted", "linear", "quadratic", "ordinal"] | None = Field(
        default=None,
        description=(
            "Weights of cohen_kappa or gwet_ac2 on a Likert field: unweighted (as "
            "sklearn.metrics.cohen_kappa_score by default), linear, quadratic or ordinal."
        ),
    )
    fields: list[str] | None = Field(default=None, description="Default: every rating field.")
    per: Literal["field", "task"] = "field"
    severity: Literal["warn", "error"] = "warn"
    slice: str | None = Field(
        default=None,
        description="Judge the estimate of one slice (e.g. 'tier=GOLD') instead of 'all'.",
    )
    headline: bool = Field(
        default=False,
        description="This coefficient is the protocol's own measure of agreement for the "
        "fields it reads: gold.agreement marks its rows `headline` and the report leads with "
        "them. Without one marked, a field's headline is the pilot gate's coefficient where "
        "the gate reads the field, else the first minimum that applies to it.",
    )


class Thresholds(_Strict):
    pilot_gate: Threshold | None = Field(
        default=None, description="Blocks the main round while pilot agreement is below it."
    )
    minimums: list[Threshold] = Field(default_factory=list)
    bands: Literal["landis_koch"] | list[tuple[float, str]] = "landis_koch"
    coefficient_bands: dict[Coefficient, list[tuple[float, str]]] = Field(
        default_factory=dict,
        description="Bands of one coefficient, [(lower bound, label), ...] from -.inf; they "
        "override `bands` for it (e.g. a protocol's kappa and alpha targets).",
    )


class Adjudicate(_Strict):
    likert_gap: int | None = Field(default=2, ge=1, description="Likert ratings this far apart.")
    binary_disagreement_tiers: list[str] = Field(default_factory=list)
    uncertain: bool = Field(default=False, description="Any rating given with low confidence.")
    notes_contain: list[str] = Field(
        default_factory=list,
        description=(
            "Any rating whose notes contain one of these strings (case-sensitive, e.g. "
            "UNCERTAIN) sends every rating field of its item to adjudication."
        ),
    )


BetweenRule = Literal["higher_confidence", "nearest_down", "nearest_up", "adjudicate"]
DECISIVE_BETWEEN_RULES = ("nearest_down", "nearest_up", "adjudicate")
"""Rules of ``consensus.likert_between`` that always decide, so one must come last."""


class Consensus(_Strict):
    likert: Literal["median", "mean"] = "median"
    likert_between: list[BetweenRule] = Field(
        default_factory=lambda: ["nearest_down"],
        min_length=1,
        description=(
            "How a Likert median or mean that falls between two scale points (4 and 5 -> "
            "4.5) becomes a point of the scale, rules tried in order: higher_confidence (the "
            "value the most confident ratings agree on), nearest_down / nearest_up (the "
            "nearest point, a half going down / up), adjudicate (the field is disputed). "
            "The last rule must be one that always decides."
        ),
    )
    adjudicate: Adjudicate = Field(default_factory=Adjudicate)
    tie_break: Literal["adjudicator", "third_annotator"] = "adjudicator"
    adjudicators: list[PersonId] = Field(
        default_factory=list,
        description=(
            "Who adjudicates, in rotation: adjudication batch n goes to the n-th in this list "
            "(round robin; e.g. two adjudicators and a backup labeler rotated in, so the queue "
            "never waits on two people), its packet names them, and decisions are accepted "
            "from these ids only (one may take another's batch). Empty: anyone, as written "
            "in the file."
        ),
    )
    unresolved: Literal["keep", "exclude"] = "keep"
    method: Literal["policy", "dawid_skene"] = "policy"
    dawid_skene_overrides_unanimous: bool = Field(
        default=False,
        description=(
            "With method dawid_skene: let the model's value replace a value every rater gave "
            "(status model_override where no rater gave it). Off by default: a unanimous or "
            "single rating stays."
        ),
    )


class Drift(_Strict):
    max_disagreement: float = Field(default=0.12, ge=0, le=1)
    consecutive_weeks: int = Field(default=2, ge=1)


class Quality(_Strict):
    duplicate_within_one: float = Field(default=0.8, ge=0, le=1)
    attention_min_pass: float = Field(default=1.0, ge=0, le=1)
    max_rushed_share: float = Field(default=0.1, ge=0, le=1)
    drift: Drift | None = None
    pi_sample: float = Field(default=0.10, ge=0, le=1)
    target_time_s: tuple[float, float] | None = Field(
        default=None,
        description=(
            "The guide's time per item, [low, high] seconds (e.g. [60, 90]): rater quality "
            "shows each annotator's share of ratings inside it (guidance, never a flag)."
        ),
    )
    severity: Literal["warn", "error"] = "warn"


class EdgeCase(_Strict):
    """A guide rule checked mechanically on returns; a breach is a warning, not a rejection."""

    task: str
    when: ItemPredicate | AllOf
    expect: dict[str, Any] = Field(min_length=1)
    message: str


class PacketLayout(_Strict):
    """The annotations CSV an annotator receives: its column names and their order. The
    ingest reads returned files by these same names (one source of truth)."""

    item_column: str = Field(
        default="item", description="Name of the column holding each row's opaque item token."
    )
    time_column: str = Field(default="time_spent_s", description="Name of the seconds column.")
    guide_may_name: list[str] = Field(
        default_factory=list,
        description=(
            "Hidden keys whose values the study's guide may name (its own text does, e.g. a "
            "content warning listing the topics): the guide is the same in every packet, so it "
            "tells nothing about any one item. Every other packet file is still searched for "
            "them."
        ),
    )
    break_every: int | None = Field(
        default=None,
        ge=1,
        description=(
            "The guide's pause: a break every this many rows (samples). The packet "
            "instructions name the rows after which to pause, and the terminal tool says "
            "so when the annotator gets there."
        ),
    )
    time_spent: Literal["required", "optional_in_template", "optional"] = Field(
        default="required",
        description=(
            "required: the template has the time column and every row needs a number; "
            "optional_in_template: the template has it and a row may leave it empty; "
            "optional: the template leaves it out, and a returned file may add it."
        ),
    )
    columns: list[str] | None = Field(
        default=None,
        description=(
            "The template's columns in order: the item column, annotator_id, every field "
            "(and the time column when required). A task's template keeps the listed names "
            "that are its own. Default: annotator_id, item column, fields, time column."
        ),
    )


class IngestPolicy(_Strict):
    accept_valid_rows: bool = Field(
        default=False, description="Accept a file's valid rows instead of rejecting it whole."
    )


class Comparison(_Strict):
    """Results per condition or system (``gold.condition_comparison``): the consensus of each
    numeric rating field compared between the values of one item key."""

    by: str = Field(description="Item key whose values are compared (condition, system, model).")
    baseline: str | None = Field(
        default=None,
        description="The value the others are compared with (difference = other - baseline); "
        "without it, each value is compared with all the others pooled.",
    )
    pair: str | None = Field(
        default=None,
        description="Item key pairing units across values (e.g. prompt_id): paired tests.",
    )
    slices: list[str] = Field(
        default_factory=list,
        description="Item keys: results per value of each too, Holm-corrected per key.",
    )
    fields: list[str] | None = Field(
        default=None, description="Rating fields compared. Default: every binary and Likert field."
    )


Answer = Literal[
    "comparison", "gold_readiness", "judge_agreement", "metric_families", "agreement", "ranking"
]
"""What a report's first screen can answer (:mod:`raterlab.report.answers`)."""


class Budget(_Strict):
    """A protocol's planned size, cost and labeling time, which the gold-set readiness view
    sets the routed figures (``gold.tier_costs``) against."""

    cases: int = Field(gt=0, description="Cases the plan is for (and the set needs), e.g. 1000.")
    task_types: int | None = Field(default=None, gt=0, description="Task types it must cover.")
    cost_per_case: float | None = Field(
        default=None, ge=0, description="Planned average cost per case (ADR-001: 0.26)."
    )
    labeler_days: float | None = Field(
        default=None, gt=0, description="Planned labeler-days for `cases` cases (ADR-001: ~14)."
    )


class ReportSpec(_Strict):
    """The study's question and which view of the results answers it on the report's first
    screen: ``comparison`` (conditions or systems compared, Holm-corrected), ``gold_readiness``
    (agreement per task type on the gold tier, tier shares, cost, spot checks against the drift
    rule), ``judge_agreement`` (each judge against the humans per field, with the human
    ceiling), ``metric_families`` (the metrics per system with intervals), ``agreement``
    (each field's headline coefficient against its target, and annotators' self-consistency),
    ``ranking`` (a pairwise study's systems ranked with intervals, the win-rate matrix,
    position bias and agreement on the same pair). Default: ``comparison`` when the study
    declares one, else ``agreement``."""

    question: str | None = Field(
        default=None, description="The study's question in the PI's words (the first heading)."
    )
    answer: Answer | None = Field(default=None, description="The view that answers it.")
    budget: Budget | None = Field(
        default=None, description="The plan the gold_readiness view is checked against."
    )


class Study(_Strict):
    """One annotation study: tasks, design, and the policies later stages apply."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        populate_by_name=True,
        json_schema_extra={"title": "raterlab study"},
    )

    name: str = Field(pattern=STUDY_NAME)
    title: str
    version: str = "1"
    description: str = ""
    generations: str = Field(description="Generations JSONL, relative to the study file.")
    guide: str | None = Field(
        default=None, description="Guide or cheat sheet copied into every packet."
    )
    tasks: dict[str, Task] = Field(min_length=1)
    design: Design
    routing: Routing = Field(default_factory=Routing)
    sampling: Sampling | None = None
    slices: list[str] = Field(default_factory=list)
    thresholds: Thresholds = Field(default_factory=Thresholds)
    consensus: Consensus = Field(default_factory=Consensus)
    quality: Quality = Field(default_factory=Quality)
    edge_cases: list[EdgeCase] = Field(default_factory=list)
    ingest: IngestPolicy = Field(default_factory=IngestPolicy)
    packet: PacketLayout = Field(default_factory=PacketLayout)
    exports: list[str] = Field(
        default_factory=list,
        description="Export formats beside the Parquet tables (names of EXPORT_FORMATS).",
    )
    judges: Judges | None = Field(
        default=None, description="Automatic judges compared with the humans (judge calibration)."
    )

    export_keys: dict[str, str] = Field(
        default_factory=dict,
        description=(
            "Names item keys take in the study_json export (e.g. prompt: prompt_text), so an "
            "export keeps a protocol's key names while packets keep the study's."
        ),
    )
    tiers: dict[str, TierPolicy] = Field(
        default_factory=dict, description="Cost, throughput and noise floor per routing tier."
    )
    unit_key: str | None = Field(
        default=None,
        description="Item key naming the unit several tasks rate (e.g. scenarioId, one item "
        "per task): the sample keeps or drops a unit's items together; exports name units by it.",
    )
    run_key: str | None = Field(
        default=None, description="Item key naming the evaluation run an item came from."
    )
    metrics: Metrics | None = Field(
        default=None, description="Metric families over the consensus labels (gold.metrics)."
    )
    comparison: Comparison | None = Field(
        default=None, description="What the study compares (conditions, systems, models)."
    )
    disclosures: list[str] = Field(
        default_factory=list,
        description="Caveats the study report must state (noise floors, known limits).",
    )
    report: ReportSpec = Field(
        default_factory=lambda: ReportSpec(),
        description="What the first screen of the study report answers.",
    )

    source: Path | None = Field(default=None, exclude=True)

    def path_of(self, relative: str) -> Path:
        """A file named in the study, resolved against the study file's folder."""
        base = self.source.parent if self.source else Path.cwd()
        return base / relative

    def hidden_keys(self) -> set[str]:
        return {key for task in self.tasks.values() for key in task.hidden}

    def item_keys(self) -> set[str]:
        return {key for task in self.tasks.values() for key in task.item_keys}


def study_json_schema() -> dict[str, Any]:
    """JSON Schema of the study file, for editors (``studies/study.schema.json``)."""
    return Study.model_json_schema(by_alias=True, mode="validation")
