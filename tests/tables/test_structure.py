"""The structural check finds each way a table can differ from its declaration, and writers
create declared tables from their declarations."""

from __future__ import annotations

import duckdb
import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.tables import Column, Table, ddl
from raterlab.tables.judges import WEIGHTS
from raterlab.tables.structure import problems

PAIRS = Table(
    "gold.pairs",
    "Test table.",
    grain="pair",
    written_by="test",
    columns=(
        Column("study", "VARCHAR", "Study.", nullable=False),
        Column("a", "VARCHAR", "Key part."),
        Column("b", "BIGINT", "Key part."),
        Column("note", "VARCHAR", "Free."),
        Column("tag", "VARCHAR", "Unique with note."),
    ),
    key=("study", "a", "b"),
    unique=(("study", "note", "tag"),),
)


@pytest.fixture
def con() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    ddl.ensure(con, PAIRS)
    con.execute(
        "INSERT INTO gold.pairs VALUES ('s', 'x', 1, NULL, 't1'), ('s', 'x', 2, NULL, 't2'), "
        "('other', 'x', 1, 'n', 't1')"
    )
    return con


def test_a_table_as_declared_has_no_problem(con) -> None:
    assert problems(con, PAIRS) == []
    assert problems(con, PAIRS, "s") == []


def test_missing_table(con) -> None:
    con.execute("DROP TABLE gold.pairs")
    assert problems(con, PAIRS) == ["gold.pairs: missing (no such table or view)"]


def test_missing_column(con) -> None:
    con.execute("ALTER TABLE gold.pairs DROP COLUMN note")
    assert problems(con, PAIRS) == ["gold.pairs.note: declared column is missing (type VARCHAR)"]


def test_wrong_type_and_undeclared_column(con) -> None:
    con.execute("ALTER TABLE gold.pairs ALTER b TYPE VARCHAR")
    con.execute("ALTER TABLE gold.pairs ADD COLUMN extra DOUBLE")
    assert problems(con, PAIRS) == [
        "gold.pairs.b: type is VARCHAR, declared BIGINT",
        "gold.pairs.extra: column is not declared (type DOUBLE)",
    ]


def test_duplicate_key_names_the_duplicated_values(con) -> None:
    con.execute("INSERT INTO gold.pairs VALUES ('s', 'x', 1, 'other note', 't3')")
    assert problems(con, PAIRS, "s") == [
        "gold.pairs: (study, a, b) is not unique: study='s', a='x', b=1 (2x)"
    ]
    assert problems(con, PAIRS, "other") == []


def test_null_key_column(con) -> None:
    con.execute("INSERT INTO gold.pairs VALUES ('s', NULL, 3, 'n', 't3')")
    assert problems(con, PAIRS) == ["gold.pairs.a: 1 rows are NULL (declared not null)"]


def test_nulls_counted_per_column_and_per_study(con) -> None:
    con.execute(
        "INSERT INTO gold.pairs VALUES ('s', NULL, NULL, 'n', 't3'), ('s', NULL, 4, 'n', 't4'), "
        "('other', 'z', NULL, 'n', 't5')"
    )
    assert problems(con, PAIRS, "s") == [
        "gold.pairs.a: 2 rows are NULL (declared not null)",
        "gold.pairs.b: 1 rows are NULL (declared not null)",
    ]
    assert problems(con, PAIRS, "other") == ["gold.pairs.b: 1 rows are NULL (declared not null)"]


def test_unique_set_counts_null_as_a_value(con) -> None:
    con.execute("INSERT INTO gold.pairs VALUES ('s', 'y', 1, NULL, 't1')")
    assert problems(con, PAIRS) == [
        "gold.pairs: (study, note, tag) is not unique: study='s', note=None, tag='t1' (2x)"
    ]


def test_declaration_rejects_duplicate_and_unknown_key_columns() -> None:
    column = Column("a", "VARCHAR", "A.")
    with pytest.raises(ValueError, match="declared twice"):
        Table("gold.t", "T.", grain="t", written_by="x", columns=(column, column))
    with pytest.raises(ValueError, match=r"key columns \['b'\] are not declared"):
        Table("gold.t", "T.", grain="t", written_by="x", columns=(column,), key=("b",))


def test_ensure_adds_a_declared_column_an_older_warehouse_lacks() -> None:
    con = duckdb.connect()
    con.execute("CREATE SCHEMA gold")
    con.execute("CREATE TABLE gold.pairs (study VARCHAR, a VARCHAR, b BIGINT, note VARCHAR)")
    ddl.ensure(con, PAIRS)
    assert problems(con, PAIRS) == []


def test_a_declared_table_is_written_typed_and_only_with_its_columns() -> None:
    con = duckdb.connect()
    warehouse.replace_study_rows(con, WEIGHTS.name, "s", pd.DataFrame())
    assert problems(con, WEIGHTS) == []
    frame = pd.DataFrame({"task": ["t"], "judge": ["j"], "field": ["f"], "dimension": ["x"]})
    with pytest.raises(ValueError, match=r"gold.judge_weights: columns \['dimension'\] are not"):
        warehouse.replace_study_rows(con, WEIGHTS.name, "s", frame)
