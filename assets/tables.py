"""Dagster column metadata generated from the table declarations (:mod:`raterlab.tables`)."""

import dagster as dg
import duckdb

from raterlab.tables import Table, ddl, declared, written_by


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
