"""One structural check per declared gold table, generated from the declarations
(:mod:`raterlab.tables`) and attached to the asset that writes the table.

The checks of one asset's tables run in one step over one read-only connection
(a multi-asset check): each table keeps its own ``<table>_structure`` check and result in the
UI, without a step (process start, warehouse open) per table on every run."""

from collections.abc import Iterator

import dagster as dg

from assets.partitions import study_partitions
from raterlab.tables import TABLES, Table
from raterlab.tables.structure import problems
from resources import Raterlab


def check_name(table: Table) -> str:
    return f"{table.name.split('.', 1)[1]}_structure"


def structure_checks_of(asset: str, tables: list[Table]) -> dg.AssetChecksDefinition:
    """``<table>_structure`` for each of ``tables`` (all written by ``asset``): the table
    exists with its declared columns and types, its key columns are never NULL and its key
    and unique columns hold no duplicate, among the study's rows."""
    key = dg.AssetKey(asset)
    specs = [
        dg.AssetCheckSpec(
            check_name(table),
            asset=key,
            partitions_def=study_partitions,
            description=f"{table.name} as declared in raterlab/tables: {table.description}",
        )
        for table in tables
    ]

    @dg.multi_asset_check(name=f"{asset}_tables_structure", specs=specs)
    def _checks(
        context: dg.AssetCheckExecutionContext, raterlab: Raterlab
    ) -> Iterator[dg.AssetCheckResult]:
        with raterlab.warehouse(read_only=True) as con:
            found = {table.name: problems(con, table, context.partition_key) for table in tables}
        for table in tables:
            issues = found[table.name]
            yield dg.AssetCheckResult(
                asset_key=key,
                check_name=check_name(table),
                passed=not issues,
                metadata={
                    "table": table.name,
                    "columns": len(table.columns),
                    "problems": dg.MetadataValue.md(
                        "\n".join(f"- {p}" for p in issues) if issues else "none"
                    ),
                },
            )

    return _checks


def _gold_tables_by_writer() -> dict[str, list[Table]]:
    out: dict[str, list[Table]] = {}
    for table in TABLES.values():
        if table.schema == "gold" and "<" not in table.name:
            out.setdefault(table.written_by, []).append(table)
    return out


structure_checks = [
    structure_checks_of(asset, tables) for asset, tables in _gold_tables_by_writer().items()
]
