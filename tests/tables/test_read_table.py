"""``warehouse.read_table`` gives text as Python strings, one object per distinct value of a
column, and otherwise exactly what converting ``read_study_rows``' Arrow-backed strings to
objects gives (the path it replaced)."""

from __future__ import annotations

import math

import duckdb
import pandas as pd
import pytest

from raterlab import warehouse as wh


@pytest.fixture
def con() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute("CREATE SCHEMA gold")
    con.execute(
        "CREATE TABLE gold.t (study VARCHAR, item_id VARCHAR, n INTEGER, x DOUBLE, "
        "field VARCHAR, notes VARCHAR, stamped TIMESTAMP WITH TIME ZONE)"
    )
    rows = [
        (
            "s",
            f"item-{i % 7}",
            i,
            i / 3 if i % 4 else None,
            "correctness long name",
            None if i % 3 else f"note {i}",
            "2026-11-26 10:00:00+00",
        )
        for i in range(50)
    ]
    con.executemany("INSERT INTO gold.t VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    con.execute("INSERT INTO gold.t VALUES ('other', 'x', 1, 1.0, 'f', 'n', NULL)")
    con.execute("CREATE TABLE gold.texts (study VARCHAR, a VARCHAR, b VARCHAR)")
    con.executemany("INSERT INTO gold.texts VALUES ('s', ?, ?)", [("one", None), ("two", "b")])
    return con


def _arrow_path(con: duckdb.DuckDBPyConnection, table: str) -> pd.DataFrame:
    frame = wh.read_study_rows(con, table, "s")
    text = [c for c in frame.columns if isinstance(frame[c].dtype, pd.StringDtype)]
    return frame.astype(dict.fromkeys(text, object))


@pytest.mark.parametrize("table", ["gold.t", "gold.texts"])
def test_same_frame_as_converting_arrow_strings(con, table) -> None:
    got = wh.read_table(con, table, "s")
    expected = _arrow_path(con, table)
    pd.testing.assert_frame_equal(got, expected, check_exact=True)
    for column in got.columns:
        if got[column].dtype == object:
            assert [type(v) for v in got[column]] == [type(v) for v in expected[column]]


def test_repeated_values_share_one_object(con) -> None:
    got = wh.read_table(con, "gold.t", "s")
    assert len({id(v) for v in got["field"]}) == 1
    assert len({id(v) for v in got["item_id"]}) == 7
    assert all(isinstance(v, str) or math.isnan(v) for v in got["notes"])


def test_empty_study_and_missing_table(con) -> None:
    empty = wh.read_table(con, "gold.t", "nobody")
    pd.testing.assert_frame_equal(
        empty, _arrow_path(con, "gold.t").iloc[:0], check_index_type=False
    )
    assert wh.read_table(con, "gold.missing", "s") is None


def test_shared_text_equals_astype_object_with_one_object_per_value(con) -> None:
    rows = wh.read_study_rows(con, "gold.t", "s")
    for column in ("item_id", "notes", "field"):
        shared = wh.shared_text(rows[column])
        pd.testing.assert_series_equal(shared, rows[column].astype(object))
        texts = [v for v in shared if isinstance(v, str)]
        assert len({id(v) for v in texts}) == len(set(texts))
    assert wh.shared_text(rows["notes"]).isna().sum() == rows["notes"].isna().sum() > 0
    pd.testing.assert_series_equal(wh.shared_text(rows["n"]), rows["n"].astype(object))
