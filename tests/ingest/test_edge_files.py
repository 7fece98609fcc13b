"""Returned files at the edge of the file system: symbolic links out of the home, and names as
long as a file system allows."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from raterlab import warehouse
from raterlab.arrivals import new_files
from raterlab.ingest import ingest_file
from raterlab.ingest.audit import pending_files
from raterlab.ingest.batches import commit_all, validate_pending
from raterlab.ingest.inbox import record_inbox
from tests.ingest.conftest import filled, write


def _inbox_run(study, home) -> list:
    """What the asset chain does with the inbox: archive, validate, commit."""
    with warehouse.connect(home.warehouse) as con:
        record_inbox(study, pending_files(home.inbox / study.name), home, con)
        return commit_all(study, validate_pending(study, con), home, con)


def test_a_link_out_of_the_home_is_refused_with_a_report_and_never_read(issued, tmp_path):
    study, home, _, _ = issued
    secret = tmp_path / "outside" / "secret.csv"
    secret.parent.mkdir()
    secret.write_text("annotator_id,item\nTOP-SECRET,content\n")
    inbox = home.inbox / study.name
    inbox.mkdir(parents=True)
    (inbox / "a1_answer.csv").symlink_to(secret)

    (result,) = _inbox_run(study, home)

    assert result.status == "rejected"
    report = result.report.read_text()
    assert "symbolic link" in report and "symlink" in report
    for folder in (home.archive, home.quarantine, home.reports):
        for path in folder.rglob("*"):
            assert not path.is_symlink()
            assert path.is_dir() or b"TOP-SECRET" not in path.read_bytes(), path
    with warehouse.connect(home.warehouse) as con:
        rows = con.execute("SELECT status FROM staging.ingests").fetchall()
        issues = con.execute("SELECT rule, message FROM staging.ingest_issues").fetchall()
    assert rows == [("rejected",)]
    assert issues[0][0] == "symlink" and str(secret) in issues[0][1]
    # the sensor sees the same content it was given (the link), so it does not start again
    with warehouse.connect(home.warehouse) as con:
        known = {r[0] for r in con.execute("SELECT sha256 FROM raw.returned_files").fetchall()}
    assert new_files(home, study.name, known) == {}


def test_a_link_within_the_home_is_followed(issued):
    study, home, _, _ = issued
    real = write(filled(home, "a1", "main-01", "answer"), home.root / "elsewhere" / "real.csv")
    inbox = home.inbox / study.name
    inbox.mkdir(parents=True)
    (inbox / "a1_answer.csv").symlink_to(real)
    (result,) = _inbox_run(study, home)
    assert result.status == "accepted"


LONG = "r" * 246 + ".csv"  # 250 characters: as long as most file systems allow, nearly


def test_a_rejected_file_with_a_long_name_is_quarantined_with_its_report(issued):
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    frame.loc[0, "score"] = "9"
    write(frame, home.inbox / study.name / LONG)

    (result,) = _inbox_run(study, home)

    assert result.status == "rejected"
    assert result.report.exists()
    assert all(len(part.encode()) <= 255 for part in result.report.parts)
    assert (result.report.parent / LONG).exists()  # the copy keeps its name
    assert f"# {LONG}: rejected" in result.report.read_text()
    with warehouse.connect(home.warehouse) as con:
        assert con.execute("SELECT file, status FROM staging.ingests").fetchall() == [
            (LONG, "rejected")
        ]


def test_an_accepted_file_with_a_long_name_gets_its_warnings_report(issued, tmp_path):
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer").iloc[:-1]  # incomplete: a warning
    path = write(frame, tmp_path / LONG)
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, path, home, con)
    assert result.status == "accepted"
    assert result.report is not None and result.report.exists()
    assert str(home.reports / "ingest") in str(result.report)


def test_a_long_extension_is_archived(issued, tmp_path):
    study, home, _, _ = issued
    path = write(filled(home, "a1", "main-01", "answer"), tmp_path / ("a1." + "x" * 240))
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, path, home, con)
        (archived,) = con.execute("SELECT archived_path FROM raw.returned_files").fetchone()
    assert result.status == "accepted"
    assert Path(archived).exists() and len(Path(archived).name) <= 255
    assert pd.read_csv(archived, dtype=str).shape[0] == len(filled(home, "a1", "main-01", "answer"))


def test_a_name_too_long_for_the_file_system_still_hashes(issued):
    """The sensor lists the inbox by content; a long name changes nothing there."""
    study, home, _, _ = issued
    write(filled(home, "a1", "main-01", "answer"), home.inbox / study.name / LONG)
    found = new_files(home, study.name, set())
    assert [p.name for p in found] == [LONG]
    assert os.path.exists(next(iter(found)))
