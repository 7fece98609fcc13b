"""Returns, imports and adjudication decisions share one commit: a file is known or not
inside the transaction, a rejected file of any front end is quarantined and recorded, and a
failed COMMIT reports its real cause."""

from __future__ import annotations

import duckdb
import pytest

from raterlab import warehouse
from raterlab.ingest.imports import import_file
from raterlab.ingest.one_file import commit
from raterlab.ingest.receive import receive
from raterlab.ingest.returns import validate_received
from raterlab.ingest.store import CorruptWarehouse
from tests.ingest.conftest import filled, write


def test_two_copies_received_together_are_committed_once(issued, tmp_path) -> None:
    study, home, _, _ = issued
    frame = filled(home, "a1", "pilot", "answer")
    paths = [write(frame, tmp_path / name) for name in ("a1.csv", "a1 (copy).csv")]
    with warehouse.connect(home.warehouse) as con:
        received = [receive(study, p, home) for p in paths]
        results = [commit(study, r, validate_received(study, r, con), home, con) for r in received]
        files = con.execute("SELECT count(*) FROM raw.returned_files").fetchall()[0][0]
        ratings = con.execute("SELECT count(*) FROM gold.ratings").fetchall()[0][0]
    assert [r.status for r in results] == ["accepted", "unchanged"]
    assert files == 1 and ratings == len(frame)


def test_a_rejected_import_is_quarantined_and_recorded(issued, tmp_path) -> None:
    study, home, _, _ = issued
    path = tmp_path / "old.csv"
    path.write_text("unit,rater,score\nans-000,r1,5\nans-001,r1,8\n")
    with warehouse.connect(home.warehouse) as con:
        result = import_file(study, "answer", path, home, con, "unit", "rater")
        outcome = con.execute("SELECT file, status, n_errors FROM staging.ingests").fetchall()
        issues = con.execute('SELECT "row", rule FROM staging.ingest_issues').fetchall()
    assert result.status == "rejected"
    assert outcome == [("old.csv", "rejected", 1)] and issues == [(3, "range")]
    folder = result.report.parent
    assert folder.parent == home.quarantine / study.name
    assert (folder / "old.csv").read_bytes() == path.read_bytes()


class _DiskFullAtCommit:
    """A connection whose COMMIT fails the way a full disk makes it fail: the transaction
    is gone (DuckDB rolled it back) and an I/O error is raised."""

    def __init__(self, con: duckdb.DuckDBPyConnection):
        self._con = con

    def __getattr__(self, name):
        return getattr(self._con, name)

    def execute(self, sql, *args, **kwargs):
        if sql.strip().upper() == "COMMIT":
            self._con.execute("ROLLBACK")
            raise duckdb.IOException("Could not write file: No space left on device")
        return self._con.execute(sql, *args, **kwargs)


def test_a_full_disk_at_commit_is_reported_as_such(issued, tmp_path) -> None:
    study, home, _, _ = issued
    path = write(filled(home, "a1", "pilot", "answer"), tmp_path / "a1.csv")
    with warehouse.connect(home.warehouse) as con:
        received = receive(study, path, home)
        validation = validate_received(study, received, con)
        with pytest.raises(duckdb.IOException, match="No space left on device"):
            commit(study, received, validation, home, _DiskFullAtCommit(con))
        assert con.execute("SELECT count(*) FROM gold.ratings").fetchall()[0][0] == 0
        assert commit(study, received, validation, home, con).status == "accepted"


def test_a_corrupted_warehouse_is_not_committed_onto(issued, tmp_path) -> None:
    study, home, _, _ = issued
    with warehouse.connect(home.warehouse) as con:
        con.execute(
            "INSERT INTO raw.returned_files (study, sha256, file) "
            "SELECT 'old', md5(range::VARCHAR), 'f' || range FROM range(300000)"
        )
    data = bytearray(home.warehouse.read_bytes())
    middle = len(data) // 2
    for offset in range(middle, middle + (1 << 19), 4096):
        data[offset : offset + 512] = bytes(range(256)) * 2
    home.warehouse.write_bytes(bytes(data))
    path = write(filled(home, "a1", "pilot", "answer"), tmp_path / "a1.csv")
    with warehouse.connect(home.warehouse) as con:
        received = receive(study, path, home)
        validation = validate_received(study, received, con)
        with pytest.raises(CorruptWarehouse, match="the warehouse is corrupt"):
            commit(study, received, validation, home, con)
