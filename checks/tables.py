"""One structural check per declared gold table, generated from the declarations
(:mod:`raterlab.tables`) and attached to the asset that writes the table."""

import dagster as dg

from assets.partitions import study_partitions
from raterlab.tables import TABLES, Table
from raterlab.tables.structure import problems
from resources import Raterlab


def structure_check(table: Table) -> dg.AssetChecksDefinition:
    """``<table>_structure`` on the asset that writes ``table``: the table exists with its
    declared columns and types, its key columns are never NULL and its key and unique
    columns hold no duplicate, among the study's rows."""

    @dg.asset_check(
        asset=dg.AssetKey(table.written_by),
        partitions_def=study_partitions,
        name=f"{table.name.split('.', 1)[1]}_structure",
        description=f"{table.name} as declared in raterlab/tables: {table.description}",
    )
    def _check(context: dg.AssetCheckExecutionContext, raterlab: Raterlab) -> dg.AssetCheckResult:
        with raterlab.warehouse(read_only=True) as con:
            found = problems(con, table, context.partition_key)
        return dg.AssetCheckResult(
            passed=not found,
            metadata={
                "table": table.name,
                "columns": len(table.columns),
                "problems": dg.MetadataValue.md(
                    "\n".join(f"- {p}" for p in found) if found else "none"
                ),
            },
        )

    return _check


structure_checks = [
    structure_check(table)
    for table in TABLES.values()
    if table.schema == "gold" and "<" not in table.name
]
