"""The study file's ``judges:`` section: which automatic judges scored the items, where their
verdicts are, which human field each verdict predicts, and the bounds a judge must stay in.

Verdicts come either from hidden keys of the generations (``source: generations``; the keys
must be hidden, so no annotator sees them) or from judge files imported later with
``raterlab judges import STUDY FILE`` (``source: import``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from raterlab.protocol.names import PersonId

JudgeName = PersonId


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Judge(_Strict):
    """One judge and the human fields it predicts."""

    description: str = ""
    source: Literal["generations", "import"] = Field(
        default="generations",
        description="generations: verdicts are hidden keys of each item; import: judge files "
        "loaded with `raterlab judges import`.",
    )
    fields: dict[str, str] = Field(
        min_length=1,
        description="Human rating field -> the hidden key (source generations) or the judge "
        "file's field name (source import) holding the judge's verdict on it.",
    )
    confidence: str | None = Field(
        default=None,
        description="Hidden key with the judge's confidence (0-1) in its verdicts "
        "(source generations; an import file has a confidence column).",
    )


class JudgeBounds(_Strict):
    """How far a judge may fall from the humans before it is flagged and deweighted."""

    max_alpha_drop: float = Field(
        default=0.1,
        ge=0,
        le=2,
        description="Flag a judge whose addition lowers the humans' Krippendorff alpha by more.",
    )
    min_agreement: float = Field(
        default=0.4,
        ge=-1,
        le=1,
        description="Flag a judge whose agreement with the consensus (kappa, or Spearman for "
        "Likert fields) is lower.",
    )


class Judges(_Strict):
    """Judge calibration: each judge against the humans, with the human ceiling beside it."""

    panel: dict[JudgeName, Judge] = Field(min_length=1, description="The judges, by name.")
    group: str | None = Field(
        default=None,
        description="Item key for the `group` level (e.g. the prompt): correlations within "
        "each group, averaged over the groups.",
    )
    system: str | None = Field(
        default=None,
        description="Item key for the `system` level (e.g. model or condition): correlations "
        "of the per-system means.",
    )
    aggregate: Literal["mean", "median"] = Field(
        default="mean", description="How the human scores of an item are combined."
    )
    resamples: int = Field(default=1000, ge=100, description="Bootstrap resamples per interval.")
    confidence: float = Field(
        default=0.95,
        gt=0,
        lt=1,
        description="Interval coverage (bootstrap, Wilson and prediction-powered intervals).",
    )
    epsilon: float = Field(
        default=0.2,
        ge=0,
        lt=1,
        description="Cost-benefit margin of the alternative annotator test (Calderon et al. "
        "2025): 0.2 expert, 0.15 skilled, 0.1 crowd annotators.",
    )
    alt_min_humans: int = Field(
        default=2,
        ge=2,
        description="Humans an item needs to count in the alternative annotator test (the "
        "left-out annotator and at least one other); 2 is the authors' default.",
    )
    calibrate_on: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9_]+=.+$",
        description="Calibrate on the items of one slice only, written key=value with an item "
        "key or `tier` (`tier=GOLD`: ADR-001 calibrates judges on the gold tier alone). "
        "Default: every rated item. These are the labelled items of the prediction-powered "
        "estimates (`gold.judge_substitution`); the judge's other items are unlabelled.",
    )
    bounds: JudgeBounds = Field(default_factory=JudgeBounds)
    deweight: float = Field(
        default=0.5, ge=0, le=1, description="Weight factor of a judge outside the bounds."
    )
