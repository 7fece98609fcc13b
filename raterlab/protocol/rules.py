"""Rules a study declares: item predicates, conditional requirements and logical constraints."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

_OPERATORS = (
    "equals",
    "in",
    "not_in",
    "gte",
    "gt",
    "lte",
    "lt",
    "contains_any",
    "not_contains_any",
    "regex",
)


class ItemPredicate(BaseModel):
    """A test on one key of an item, e.g. ``{field: uncertainty, gte: 0.65}``.

    Exactly one operator is given. ``contains_any`` / ``not_contains_any`` look for any of the
    listed substrings, case-insensitively, in the text of the key; ``regex`` is a regular
    expression the whole text must match, case-insensitively (``"(i understand|i see)\\.?"``).
    ``not_in`` holds for a value outside the list (a missing key included).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    field: str
    equals: Any = None
    in_: list[Any] | None = Field(default=None, alias="in")
    not_in: list[Any] | None = None
    gte: float | None = None
    gt: float | None = None
    lte: float | None = None
    lt: float | None = None
    contains_any: list[str] | None = None
    not_contains_any: list[str] | None = None
    regex: str | None = None

    @model_validator(mode="after")
    def _one_operator(self) -> ItemPredicate:
        given = [op for op in _OPERATORS if self._operand(op) is not None]
        if "equals" in self.model_fields_set and "equals" not in given:
            given.append("equals")  # ``equals: null`` is a real test
        if len(given) != 1:
            raise ValueError(
                f"give exactly one operator of {', '.join(_OPERATORS)} (got {given or 'none'})"
            )
        if self.regex is not None:
            try:
                re.compile(self.regex)
            except re.error as exc:
                raise ValueError(
                    f"regex {self.regex!r} is not a regular expression: {exc}"
                ) from None
        return self

    def _operand(self, op: str) -> Any:
        return getattr(self, "in_" if op == "in" else op)

    @property
    def operator(self) -> str:
        if "equals" in self.model_fields_set:
            return "equals"
        return next(op for op in _OPERATORS if self._operand(op) is not None)

    def matches(self, item: dict[str, Any]) -> bool:
        """Whether ``item`` (a mapping of key -> value) satisfies the predicate."""
        value = item.get(self.field)
        op = self.operator
        operand = self._operand(op)
        if op == "equals":
            return value == operand
        if op == "in":
            return value in operand
        if op == "not_in":
            return value not in operand
        if op == "regex":
            text = "" if value is None else str(value)
            return re.fullmatch(operand, text.strip(), re.IGNORECASE | re.DOTALL) is not None
        if op in ("contains_any", "not_contains_any"):
            text = "" if value is None else str(value).lower()
            found = any(s.lower() in text for s in operand)
            return found if op == "contains_any" else not found
        if value is None or isinstance(value, bool | str):
            return False
        return {
            "gte": value >= operand,
            "gt": value > operand,
            "lte": value <= operand,
            "lt": value < operand,
        }[op]


class AllOf(BaseModel):
    """All predicates hold (an empty list always holds)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    all_of: list[ItemPredicate] = Field(min_length=1)

    def matches(self, item: dict[str, Any]) -> bool:
        return all(p.matches(item) for p in self.all_of)


def condition_keys(when: ItemPredicate | AllOf) -> list[str]:
    """The item keys a condition reads."""
    return [p.field for p in (when.all_of if isinstance(when, AllOf) else [when])]


class AnswerCondition(BaseModel):
    """A test on the annotator's own answers: ``{any_of: [emotion, safety], in: [1, 5]}``."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    any_of: list[str] = Field(min_length=1, description="Fields of the same task.")
    in_: list[Any] = Field(alias="in", min_length=1)


class ConditionalRequirement(BaseModel):
    """Fields that become required when a condition on other answers holds."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    require: list[str] = Field(min_length=1)
    when: AnswerCondition
    message: str = ""


_CONSTRAINT = re.compile(r"^\s*(\w+)\s*=>\s*(not\s+)?(\w+)\s*$")


class Constraint(BaseModel):
    """A logical constraint between two binary fields.

    Written ``a => b`` (implication: a=1 requires b=1) or ``a => not b`` (exclusion: a=1
    requires b=0).
    """

    model_config = ConfigDict(frozen=True)

    antecedent: str
    consequent: str
    kind: Literal["implies", "excludes"]

    @model_validator(mode="before")
    @classmethod
    def _parse(cls, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        m = _CONSTRAINT.match(value)
        if not m:
            raise ValueError(f"write a constraint as 'a => b' or 'a => not b', not {value!r}")
        return {
            "antecedent": m.group(1),
            "consequent": m.group(3),
            "kind": "excludes" if m.group(2) else "implies",
        }

    def __str__(self) -> str:
        arrow = "=> not" if self.kind == "excludes" else "=>"
        return f"{self.antecedent} {arrow} {self.consequent}"

    @property
    def required_consequent(self) -> int:
        """The value the consequent must take when the antecedent is 1."""
        return 1 if self.kind == "implies" else 0
