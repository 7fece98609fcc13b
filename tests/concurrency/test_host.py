"""Warehouse files attached to the process's one DuckDB database (raterlab.warehouse._Host):
connections share an attachment, the file's lock is let go when the last one closes, and
two warehouses open at once never see each other's tables."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.tables.consensus import CONSENSUS
from raterlab.tables.structure import problems

WRITE_FROM_ANOTHER_PROCESS = (
    "import sys, duckdb; c = duckdb.connect(sys.argv[1]); "
    "c.execute('CREATE TABLE IF NOT EXISTS other AS SELECT 1 AS x'); c.close()"
)


def _other_process_writes(path: Path) -> bool:
    done = subprocess.run(
        [sys.executable, "-c", WRITE_FROM_ANOTHER_PROCESS, str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.returncode == 0


def test_nested_connections_share_the_file_and_let_go_of_it_together(tmp_path: Path) -> None:
    path = tmp_path / "warehouse.duckdb"
    with warehouse.connect(path) as outer:
        warehouse.replace_study_rows(outer, "gold.t", "s", pd.DataFrame({"x": [1]}))
        with warehouse.connect(path, read_only=True) as inner:
            assert inner.execute("SELECT x FROM gold.t").fetchall() == [(1,)]
        assert not _other_process_writes(path)  # the outer connection still holds it
        assert outer.execute("SELECT count(*) FROM gold.t").fetchall() == [(1,)]
    assert _other_process_writes(path)
    with warehouse.connect(path, read_only=True) as con:
        assert con.execute("SELECT x FROM main.other").fetchall() == [(1,)]


def test_writing_while_the_file_is_open_read_only_here_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "warehouse.duckdb"
    with warehouse.connect(path):
        pass
    with (
        warehouse.connect(path, read_only=True),
        pytest.raises(duckdb.ConnectionException),
        warehouse.connect(path),
    ):
        pass
    with warehouse.connect(path) as con:  # and once the reader is closed, it works
        con.execute("CREATE TABLE gold.done AS SELECT 1 AS x")


def test_two_warehouses_open_at_once_keep_to_their_own_tables(tmp_path: Path) -> None:
    first, second = tmp_path / "a.duckdb", tmp_path / "b.duckdb"
    with warehouse.connect(first) as a, warehouse.connect(second) as b:
        warehouse.replace_study_rows(a, "gold.t", "s", pd.DataFrame({"x": [1]}))
        warehouse.replace_study_rows(b, "gold.t", "s", pd.DataFrame({"x": [2], "y": [3]}))
        assert a.execute("SELECT * EXCLUDE (study) FROM gold.t").fetchall() == [(1,)]
        assert b.execute("SELECT * EXCLUDE (study) FROM gold.t").fetchall() == [(2, 3)]
        assert warehouse.table_exists(a, "gold.t") and not warehouse.table_exists(
            a, "gold.consensus"
        )
        assert problems(a, CONSENSUS) == [f"{CONSENSUS.name}: missing (no such table or view)"]
