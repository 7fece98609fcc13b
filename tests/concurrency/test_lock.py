"""A writer that meets another process's lock on the warehouse waits, then fails clearly."""

from __future__ import annotations

import time
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.cli import EXIT_WAREHOUSE_BUSY, main
from tests.concurrency.conftest import STUDY, held_lock


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "warehouse.duckdb"
    with warehouse.connect(path) as con:
        warehouse.replace_study_rows(con, "gold.t", "s", pd.DataFrame({"x": [1]}))
    return path


def test_a_writer_waits_for_a_reader_that_lets_go(db: Path) -> None:
    with held_lock(db, seconds=1.0):
        start = time.monotonic()
        with warehouse.connect(db) as con:
            waited = time.monotonic() - start
            warehouse.replace_study_rows(con, "gold.t", "s", pd.DataFrame({"x": [2]}))
    assert waited > 0.5
    with warehouse.connect(db, read_only=True) as con:
        assert con.execute("SELECT x FROM gold.t").fetchall() == [(2,)]


def test_a_lock_held_past_the_timeout_names_its_holder(db: Path, monkeypatch) -> None:
    monkeypatch.setenv("RATERLAB_LOCK_TIMEOUT", "0.3")
    with held_lock(db, read_only=False) as pid:
        start = time.monotonic()
        with pytest.raises(warehouse.WarehouseBusy) as caught, warehouse.connect(db, True):
            pass
    assert 0.3 <= time.monotonic() - start < 5
    message = str(caught.value)
    assert f"process {pid} (" in message and "import sys, time, duckdb" in message
    assert "RATERLAB_LOCK_TIMEOUT" in message and "published.duckdb" in message


def test_other_errors_are_not_retried(tmp_path: Path) -> None:
    (tmp_path / "not_a_db.duckdb").write_text("this is not a DuckDB file\n")
    start = time.monotonic()
    with pytest.raises(duckdb.Error), warehouse.connect(tmp_path / "not_a_db.duckdb", timeout=30):
        pass
    assert time.monotonic() - start < 5


@pytest.mark.parametrize("value", ["soon", "-1", "nan"])
def test_a_bad_lock_timeout_is_named(value: str, monkeypatch) -> None:
    monkeypatch.setenv("RATERLAB_LOCK_TIMEOUT", value)
    with pytest.raises(ValueError, match=f"RATERLAB_LOCK_TIMEOUT='{value}'"):
        warehouse.lock_timeout()


def test_cli_ingest_exits_with_its_own_code_when_the_warehouse_stays_locked(
    home, monkeypatch, capsys
) -> None:
    monkeypatch.setenv("RATERLAB_LOCK_TIMEOUT", "0.2")
    returned = sorted((home.inbox / STUDY).iterdir())[0]
    with held_lock(home.warehouse):
        code = main(["ingest", str(returned), "--study", STUDY])
    assert code == EXIT_WAREHOUSE_BUSY != 1
    err = capsys.readouterr().err
    assert err.startswith("raterlab ingest: the warehouse ") and "is locked by process" in err
    monkeypatch.setenv("RATERLAB_LOCK_TIMEOUT", "30")
    assert main(["ingest", str(returned), "--study", STUDY]) in (0, 1)


def test_one_transaction_for_all_tables_of_a_write(db: Path) -> None:
    with warehouse.connect(db) as con:
        warehouse.replace_study_rows(con, "gold.u", "s", pd.DataFrame({"y": [1]}))
        with pytest.raises(duckdb.Error):
            warehouse.replace_study_tables(
                con,
                "s",
                {"gold.t": pd.DataFrame({"x": [3, 4]}), "gold.u": pd.DataFrame({"y": ["text"]})},
            )
        assert con.execute("SELECT x FROM gold.t").fetchall() == [(1,)]
        assert con.execute("SELECT y FROM gold.u").fetchall() == [(1,)]
