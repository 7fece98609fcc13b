"""What the table declarations (:mod:`raterlab.tables`) give the Dagster layer: the column
metadata of each asset's tables, and one structural check per declared gold table, attached
to the asset that writes it.

The structural checks of one asset's tables run in one step over one read-only connection
(a multi-asset check): each table keeps its own ``<table>_structure`` check and result in the
UI, without a step (process start, warehouse open) per table on every run."""

from collections.abc import Iterator

import dagster as dg
import duckdb

from assets.partitions import study_partitions
from raterlab.tables import TABLES, Table, ddl, declared, written_by
from raterlab.tables.structure import problems
from resources import Raterlab


def column_schema(table: Table) -> dg.TableSchema:
    """``table``'s columns with type, meaning and constraints (nullable; unique for a
    one-column key), and its key and unique column sets as table constraints."""
    single_key = table.key if len(table.key) == 1 else ()
    constraints = [f"key: {', '.join(table.key)}"] if table.key else []
    constraints += [f"unique: {', '.join(group)}" for group in table.unique]
    if table.study_columns:
        constraints.append(f"from the study: {table.study_columns}")
    return dg.TableSchema(
        columns=[
            dg.TableColumn(
                c.name,
                c.type.lower(),
                description=c.description,
                constraints=dg.TableColumnConstraints(
                    nullable=table.nullable(c.name), unique=c.name in single_key
                ),
            )
            for c in table.columns
        ],
        constraints=dg.TableConstraints(other=constraints),
    )


def table_metadata(asset: str, primary: str) -> dict[str, object]:
    """Definition metadata of the asset named ``asset``: the column schema of the table it
    is mainly about (``primary``) as ``dagster/column_schema``, and one ``<table> columns``
    entry for each other declared table or view it writes."""
    main = declared(primary)
    if main is None or main.written_by != asset:
        raise ValueError(f"{primary} is not a declared table written by the asset {asset!r}")
    metadata: dict[str, object] = {"dagster/column_schema": column_schema(main)}
    for table in written_by(asset):
        if table is not main:
            metadata[f"{table.name} columns"] = dg.MetadataValue.table_schema(column_schema(table))
    return metadata


def create_tables(con: duckdb.DuckDBPyConnection, asset: str) -> None:
    """Create (typed, empty) the declared tables the asset named ``asset`` writes, for a run
    that has nothing to write to some of them (a study without judges, tiers or a
    comparison), so that their structural checks find them."""
    ddl.ensure(con, *(t for t in written_by(asset) if not t.view))


def check_name(table: Table) -> str:
    """The name of ``table``'s structural check: ``<table>_structure``, without the schema."""
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
