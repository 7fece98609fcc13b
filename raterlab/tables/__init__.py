"""Every warehouse table and view, declared once (:mod:`raterlab.tables.model`), one module
per domain, built from shared fields (:mod:`raterlab.tables.fields`).

From these declarations come the DDL every writer runs (:mod:`raterlab.tables.ddl`), the
table reference in ``docs/gold_tables.md`` (:mod:`raterlab.tables.docs`), the Dagster column
schema of each asset that writes them (``assets/tables.py``) and one structural check per
gold table (:mod:`raterlab.tables.structure`). No Dagster import here.
"""

from __future__ import annotations

from raterlab.tables import (
    adjudication,
    agreement,
    comparison,
    consensus,
    design,
    ingest,
    judge_verdicts,
    judges,
    metrics,
    pairwise,
    pairwise_ranking,
    quality,
    simulate,
)
from raterlab.tables.model import Column, Table

TABLES: dict[str, Table] = {
    t.name: t
    for module in (
        ingest,
        design,
        agreement,
        quality,
        adjudication,
        consensus,
        metrics,
        judges,
        judge_verdicts,
        comparison,
        pairwise,
        pairwise_ranking,
        simulate,
    )
    for t in module.TABLES
}
"""Every declared table and view by ``schema.name`` (wide views by their name pattern).
``written_by`` is an asset's name, or a command (``raterlab ...``) for a table no asset
writes."""


def declared(name: str) -> Table | None:
    """The declaration of table ``schema.name``, or ``None`` if it has none."""
    return TABLES.get(name)


def written_by(asset: str) -> list[Table]:
    """The declared tables and views the asset named ``asset`` writes."""
    return [t for t in TABLES.values() if t.written_by == asset]


def names(table: Table) -> list[str]:
    """The column names of ``table``, in order."""
    return table.names


__all__ = ["TABLES", "Column", "Table", "declared", "names", "written_by"]
