"""Field types an annotator fills in, and what each allows.

A field knows its domain (the values a returned cell may hold), whether it is a rating that
agreement and consensus are computed on, and its level of measurement.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.json_schema import SkipJsonSchema

CONFIDENCE_LEVELS = ("low", "medium", "high")
SKIP_VALUE = "skip"
LIST_SEPARATOR = ";"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SkipSpec(_Strict):
    """The annotator may answer ``skip`` instead of a value, and must then give a reason."""

    reason: str = Field(description="Name of the text field that holds the skip reason.")


class _FieldBase(_Strict):
    description: str = ""
    required: bool = True
    skip: SkipSpec | None = None

    is_rating: ClassVar[bool] = True
    level: ClassVar[str] = "nominal"

    def domain(self) -> tuple[Any, ...] | None:
        """Allowed values (``None``: any value of the field's type)."""
        return None


class BinaryField(_FieldBase):
    """0/1 (a returned ``yes``/``no``/``true``/``false`` is read as 1/0)."""

    type: Literal["binary"]

    def domain(self) -> tuple[int, ...]:
        return (0, 1)


class LikertField(_FieldBase):
    """An integer scale ``min..max`` with anchor texts for some points."""

    type: Literal["likert"]
    min: int = 1
    max: int = 5
    anchors: dict[int, str] = Field(default_factory=dict)
    level: ClassVar[str] = "ordinal"

    @model_validator(mode="after")
    def _scale(self) -> LikertField:
        if self.max <= self.min:
            raise ValueError(f"max ({self.max}) must be greater than min ({self.min})")
        outside = sorted(k for k in self.anchors if not self.min <= k <= self.max)
        if outside:
            raise ValueError(f"anchors {outside} lie outside the scale {self.min}..{self.max}")
        return self

    def domain(self) -> tuple[int, ...]:
        return tuple(range(self.min, self.max + 1))


class CategoricalField(_FieldBase):
    """One label from a fixed list."""

    type: Literal["categorical"]
    labels: list[str] = Field(min_length=2)

    @model_validator(mode="after")
    def _unique(self) -> CategoricalField:
        if len(set(self.labels)) != len(self.labels):
            raise ValueError("labels must be unique")
        return self

    def domain(self) -> tuple[str, ...]:
        return tuple(self.labels)


class ConfidenceField(_FieldBase):
    """The annotator's confidence in their own ratings: low, medium or high."""

    type: Literal["confidence"]
    is_rating: ClassVar[bool] = False

    def domain(self) -> tuple[str, ...]:
        return CONFIDENCE_LEVELS


class TextField(_FieldBase):
    """Free text (comments, notes, observed component, skip reason)."""

    type: Literal["text"]
    required: bool = False
    is_rating: ClassVar[bool] = False


class ListField(_FieldBase):
    """Short strings in one cell, separated by ``;`` (code issues, missing elements)."""

    type: Literal["list"]
    required: bool = False
    is_rating: ClassVar[bool] = False


PAIRWISE_SIDES = ("left", "right")
"""What an annotator of a pairwise field answers besides ``tie``: the side they prefer."""
PAIRWISE_STRONG = {"much_left": "much_a", "much_right": "much_b"}
"""The strong answers of a pairwise field with ``strength: true`` (as seen, with
``swapped = false``) and their canonical values."""


class PairwiseField(CategoricalField):
    """Which of two responses shown side by side is better: the annotator answers ``left``,
    ``right`` or ``tie`` (``tie: true``), and with ``strength: true`` also ``much_left`` /
    ``much_right`` ("much better"). The design seals which system is on which side; ingest
    stores the answer in the item's canonical orientation, so the field's labels (its
    domain, what agreement, consensus and adjudication see) are ``a`` (the item's
    alphabetically first system is better), ``b``, ``tie``, ``much_a``, ``much_b``."""

    type: Literal["pairwise"]  # type: ignore[assignment]
    tie: bool = Field(default=True, description="The annotator may answer tie.")
    strength: bool = Field(
        default=False, description="Also offer much_left / much_right (much better)."
    )
    labels: SkipJsonSchema[list[str]] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _canonical_labels(cls, data: Any) -> Any:
        if isinstance(data, dict):
            if data.get("labels"):
                raise ValueError("a pairwise field takes no labels: they are left/right/tie")
            labels = ["a", "b"]
            labels += ["tie"] if data.get("tie", True) else []
            labels += list(PAIRWISE_STRONG.values()) if data.get("strength", False) else []
            data = {**data, "labels": labels}
        return data

    def answers_seen(self) -> tuple[str, ...]:
        """The cell values an annotator may write, in the order they are offered."""
        return (
            *PAIRWISE_SIDES,
            *(("tie",) if self.tie else ()),
            *(tuple(PAIRWISE_STRONG) if self.strength else ()),
        )


FieldSpec = Annotated[
    BinaryField
    | LikertField
    | CategoricalField
    | PairwiseField
    | ConfidenceField
    | TextField
    | ListField,
    Field(discriminator="type"),
]
