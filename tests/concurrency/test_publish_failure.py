"""A write committed to the warehouse whose publish failed (a full disk) says so with its own
exit code, and the next command or run publishes what is newer: ``published.duckdb`` is never
left stale for good."""

from __future__ import annotations

import errno
import shutil
from pathlib import Path
from types import SimpleNamespace

import duckdb
import pytest

from raterlab import publish as publish_module
from raterlab import warehouse
from raterlab.cli import EXIT_CODES, main
from raterlab.errors import PublishFailed
from raterlab.publish import publish, publish_pending
from tests.concurrency.conftest import STUDY


def _files(path: Path, table: str = "staging.ingests") -> int:
    with duckdb.connect(str(path), read_only=True) as con:
        return con.execute(f"SELECT count(DISTINCT source_file) FROM {table}").fetchall()[0][0]


def _published_files(home) -> int:
    return _files(home.published, "gold.ratings")


def _warehouse_files(home) -> int:
    return _files(home.warehouse, "gold.ratings")


def _disk_full(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


_FULL_DISK = SimpleNamespace(copyfile=_disk_full)
"""Stands in for ``shutil`` in :mod:`raterlab.publish`: copying the previous copy fails."""


def test_a_failed_publish_is_named_and_the_next_run_publishes(home, monkeypatch, capsys) -> None:
    first, second = sorted((home.inbox / STUDY).iterdir())[:2]
    assert main(["ingest", str(first), "--study", STUDY]) == 0
    assert _published_files(home) == 1
    capsys.readouterr()

    with monkeypatch.context() as patched:
        patched.setattr(publish_module, "shutil", _FULL_DISK)
        code = main(["ingest", str(second), "--study", STUDY])
    assert code == EXIT_CODES[PublishFailed] not in (0, 1, 2)
    captured = capsys.readouterr()
    assert f"{second.name}: accepted" in captured.out
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "committed" in err and "No space left on device" in err
    assert _warehouse_files(home) == 2 and _published_files(home) == 1

    assert main(["ingest", str(second), "--study", STUDY]) == 0
    assert "unchanged" in capsys.readouterr().out
    assert _published_files(home) == 2
    assert not list(home.root.glob(".published.duckdb.*.partial"))


def test_publish_pending_publishes_only_what_is_stale(home, monkeypatch) -> None:
    with warehouse.connect(home.warehouse) as con:
        con.execute("CREATE TABLE gold.scores AS SELECT 1 AS x")
        publish(con, home.published)
        assert publish_pending(con, home.published) is False
        con.execute("INSERT INTO gold.scores VALUES (2)")
        monkeypatch.setattr(publish_module, "shutil", _FULL_DISK)
        with pytest.raises(PublishFailed, match="committed"):
            publish(con, home.published, ["gold.scores"])
        monkeypatch.setattr(publish_module, "shutil", shutil)
        assert publish_pending(con, home.published) is True
        assert publish_pending(con, home.published) is False
    with duckdb.connect(str(home.published), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM gold.scores").fetchall() == [(2,)]
