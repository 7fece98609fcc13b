"""What the table declarations (:mod:`raterlab.tables`) give the Dagster layer: the column
metadata of each asset's tables, and one structural check per declared gold table, attached
to the asset that writes it.

The structural checks of an asset's tables are declared on the asset itself
(``check_specs``, :func:`structure_specs`) and evaluated at the end of its own step, over one
read-only connection, right after the write (:func:`assets.study_asset.study_asset`): each
table keeps its own ``<table>_structure`` check and result in the UI, without a step of its
own (Dagster's bookkeeping of a step, a warehouse connection) on every run."""

import dagster as dg
import duckdb

from assets.partitions import study_partitions
from raterlab.tables import Table, ddl, declared, written_by
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


def structure_tables(asset: str) -> list[Table]:
    """The declared gold tables (not the per-study views) the asset named ``asset`` writes."""
    return [
        table for table in written_by(asset) if table.schema == "gold" and "<" not in table.name
    ]


def structure_specs(asset: str) -> list[dg.AssetCheckSpec]:
    """``<table>_structure`` for each of the asset's gold tables (:func:`structure_tables`)."""
    return [
        dg.AssetCheckSpec(
            check_name(table),
            asset=dg.AssetKey(asset),
            partitions_def=study_partitions,
            description=f"{table.name} as declared in raterlab/tables: {table.description}",
        )
        for table in structure_tables(asset)
    ]


def structure_results(rl: Raterlab, asset: str, study: str) -> list[dg.AssetCheckResult]:
    """Each of the asset's gold tables exists with its declared columns and types, its key
    columns are never NULL and its key and unique columns hold no duplicate, among
    ``study``'s rows: one result per table, read over one read-only connection."""
    tables = structure_tables(asset)
    with rl.warehouse(read_only=True) as con:
        found = {table.name: problems(con, table, study) for table in tables}
    return [
        dg.AssetCheckResult(
            asset_key=dg.AssetKey(asset),
            check_name=check_name(table),
            passed=not found[table.name],
            metadata={
                "table": table.name,
                "columns": len(table.columns),
                "problems": dg.MetadataValue.md(
                    "\n".join(f"- {p}" for p in found[table.name]) if found[table.name] else "none"
                ),
            },
        )
        for table in tables
    ]
