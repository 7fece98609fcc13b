"""What a warehouse table declaration is: :class:`Column` and :class:`Table`.

A table is declared once (name, one-line description, grain, writer, columns with DuckDB type,
meaning and nullability, key and unique column sets); its DDL, its documentation, its Dagster
column schema and its structural check are all generated from that declaration, in the way
PUDL's ``pudl.metadata`` drives its schemas from field and resource definitions.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Column:
    """One column: ``type`` is the DuckDB type as ``information_schema.columns.data_type``
    spells it (``TIMESTAMP WITH TIME ZONE``, not ``TIMESTAMPTZ``)."""

    name: str
    type: str
    description: str
    nullable: bool = True

    def described(self, description: str) -> Column:
        """The same column with a description fitting one table."""
        return replace(self, description=description)

    def required(self) -> Column:
        """The same column declared ``NOT NULL``."""
        return replace(self, nullable=False)


@dataclass(frozen=True)
class Table:
    """One warehouse table or view.

    ``key``: columns that identify a row (unique, none NULL). ``unique``: further column sets
    unique as a whole, NULL counting as a value (``IS NOT DISTINCT FROM``). ``details``:
    Markdown for the docs beyond the one-line ``description``. A view's ``columns`` are those
    it shows; ``study_columns`` says how a view whose columns come from the study adds them.
    """

    name: str
    description: str
    grain: str
    written_by: str
    columns: tuple[Column, ...]
    key: tuple[str, ...] = ()
    unique: tuple[tuple[str, ...], ...] = ()
    details: str = ""
    view: bool = False
    study_columns: str = ""

    def __post_init__(self) -> None:
        names = [c.name for c in self.columns]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.name}: a column is declared twice in {names}")
        for group in (self.key, *self.unique):
            missing = [c for c in group if c not in names]
            if missing:
                raise ValueError(f"{self.name}: key columns {missing} are not declared")

    def __iter__(self) -> Iterator[Column]:
        return iter(self.columns)

    @property
    def schema(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]

    def column(self, name: str) -> Column:
        for column in self.columns:
            if column.name == name:
                return column
        raise KeyError(f"{self.name} has no column {name!r}")

    def nullable(self, name: str) -> bool:
        """Whether ``name`` may hold NULL: not if declared required or part of the key."""
        return self.column(name).nullable and name not in self.key
