"""A return's version is its modification time, capped at its arrival: a file stamped in the
future (a zip's timestamps, a laptop's wrong clock) must not stay current for good."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime

from raterlab import warehouse
from raterlab.cli import main
from raterlab.ingest import ingest_file
from raterlab.ingest.inbox import pending, record_inbox
from tests.ingest.conftest import filled, write

FUTURE = datetime(2099, 1, 1, tzinfo=UTC).timestamp()


def _ingest(study, home, path):
    with warehouse.connect(home.warehouse) as con:
        return ingest_file(study, path, home, con)


def _scores(home) -> set[str]:
    with warehouse.connect(home.warehouse, read_only=True) as con:
        rows = con.execute(
            "SELECT DISTINCT value FROM gold.labels WHERE field = 'score' AND annotator_id = 'a1'"
        ).fetchall()
    return {v for (v,) in rows}


def test_a_file_from_the_future_does_not_block_a_later_fix(issued, tmp_path) -> None:
    study, home, _, _ = issued
    packet = filled(home, "a1", "main-01", "answer")
    stamped = write(packet, tmp_path / "a1_from_zip.csv")
    os.utime(stamped, (FUTURE, FUTURE))
    first = _ingest(study, home, stamped)
    assert first.status == "accepted"
    fix = _ingest(study, home, write(packet.assign(score="4"), tmp_path / "a1_fix.csv"))
    assert fix.changes["replaced"] == len(packet)
    assert _scores(home) == {"4"}

    warnings = first.validation.warnings
    assert warnings["rule"].tolist() == ["future_version"]
    assert "2099-01-01" in warnings["value"].iloc[0]
    report = json.loads((first.report.parent / "report.json").read_text())
    assert any(i["rule"] == "future_version" for i in report["examples"])
    with warehouse.connect(home.warehouse, read_only=True) as con:
        version, received, modified = con.execute(
            "SELECT version_at, received_at, modified_at FROM raw.returned_files "
            "WHERE file = 'a1_from_zip.csv'"
        ).fetchall()[0]
    assert version == received and modified.year == 2099


def test_an_inbox_file_from_the_future_is_capped_when_archived(issued, tmp_path) -> None:
    study, home, _, _ = issued
    path = write(filled(home, "a1", "main-01", "answer"), tmp_path / "a1.csv")
    os.utime(path, (FUTURE, FUTURE))
    with warehouse.connect(home.warehouse) as con:
        record_inbox(study, [path], home, con)
        (waiting,) = pending(study, con)
    assert waiting.version_at == waiting.received_at
    assert waiting.modified_at.year == 2099


def test_validate_says_a_future_version_is_capped(issued, tmp_path, monkeypatch, capsys) -> None:
    study, home, _, _ = issued
    monkeypatch.setenv("RATERLAB_HOME", str(home.root))
    monkeypatch.setenv("RATERLAB_STUDIES", str(study.source.parent))
    path = write(filled(home, "a1", "main-01", "answer"), tmp_path / "a1.csv")
    os.utime(path, (FUTURE, FUTURE))
    assert main(["validate", str(path), "--study", "mini"]) == 0
    out = capsys.readouterr().out
    assert "future_version" in out and "arrival" in out
