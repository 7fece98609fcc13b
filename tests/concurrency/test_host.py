"""Warehouse files attached to the process's one DuckDB database (raterlab.warehouse._Host):
connections share an attachment, the file's lock is let go when the last one closes, and
two warehouses open at once never see each other's tables."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import dagster as dg
import duckdb
import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.tables.consensus import CONSENSUS
from raterlab.tables.structure import problems
from resources import Raterlab

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


@pytest.fixture
def lingering():
    """The warehouse kept attached 0.3 s after its last connection closes, as in a run (and
    let go after the test)."""
    warehouse.linger(0.3)
    yield 0.3
    warehouse.release()


HELD_S = 60.0
"""A linger far longer than another process takes to start: while it lasts, that process
must find the file held."""


@pytest.fixture
def attaches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The aliases ``ATTACH`` ed from now on, in order."""
    made: list[str] = []
    attach = warehouse._attach

    def counted(database, path, alias, read_only, timeout):
        made.append(alias)
        attach(database, path, alias, read_only, timeout)

    monkeypatch.setattr(warehouse, "_attach", counted)
    return made


def test_a_lingering_warehouse_is_taken_over_then_let_go_when_left_alone(
    tmp_path: Path, lingering: float, attaches: list[str]
) -> None:
    path = tmp_path / "warehouse.duckdb"
    warehouse.linger(HELD_S)
    with warehouse.connect(path) as con:
        warehouse.replace_study_rows(con, "gold.t", "s", pd.DataFrame({"x": [1]}))
    with warehouse.connect(path, read_only=True) as con:  # within the linger: no new ATTACH
        assert con.execute("SELECT x FROM gold.t").fetchall() == [(1,)]
    assert len(attaches) == 1
    assert not _other_process_writes(path)  # still held, for the next connection
    warehouse.linger(lingering)
    with warehouse.connect(path, read_only=True):  # taken over; closed, it lingers 0.3 s
        pass
    time.sleep(lingering + 0.5)
    assert _other_process_writes(path)  # left alone longer than the linger: let go
    with warehouse.connect(path, read_only=True) as con:
        assert con.execute("SELECT x FROM main.other").fetchall() == [(1,)]
    assert len(attaches) == 2


def test_release_lets_go_at_once_and_ends_the_lingering(
    tmp_path: Path, lingering: float, attaches: list[str]
) -> None:
    path = tmp_path / "warehouse.duckdb"
    with warehouse.connect(path) as con:
        con.execute("CREATE TABLE gold.t AS SELECT 1 AS x")
    warehouse.release()
    assert _other_process_writes(path)
    with warehouse.connect(path):
        pass
    assert _other_process_writes(path)  # no linger after release
    assert len(attaches) == 2


def test_a_lingering_read_only_attachment_gives_way_to_a_writer(
    tmp_path: Path, lingering: float, attaches: list[str]
) -> None:
    path = tmp_path / "warehouse.duckdb"
    with warehouse.connect(path):
        pass
    warehouse.release()
    warehouse.linger(HELD_S)
    with warehouse.connect(path, read_only=True):
        pass
    with warehouse.connect(path) as con:  # not refused: the reader had gone
        con.execute("CREATE TABLE gold.done AS SELECT 1 AS x")
    with warehouse.connect(path) as con:  # the writable attachment taken over
        assert con.execute("SELECT x FROM gold.done").fetchall() == [(1,)]
    assert len(attaches) == 3


def test_a_run_keeps_the_warehouse_between_connections_and_lets_go_when_it_ends(
    tmp_path: Path, attaches: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(warehouse, "LINGER_S", HELD_S)
    home = tmp_path / "home"
    held: list[bool] = []

    @dg.asset
    def writes_then_reads(raterlab: Raterlab) -> None:
        with raterlab.warehouse() as con:
            con.execute("CREATE TABLE gold.t AS SELECT 1 AS x")
        held.append(not _other_process_writes(raterlab.paths.warehouse))
        with raterlab.warehouse(read_only=True) as con:
            assert con.execute("SELECT x FROM gold.t").fetchall() == [(1,)]

    result = dg.materialize([writes_then_reads], resources={"raterlab": Raterlab(home=str(home))})
    assert result.success
    assert held == [True] and len(attaches) == 1  # the read took over the write's attachment
    assert _other_process_writes(home / "warehouse.duckdb")  # let go as the run ended
