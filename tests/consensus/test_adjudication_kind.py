"""Decisions files and returned packets are kinds of the ingest's one path
(:mod:`raterlab.ingest.one_file`): the same version rule and warning, the same report of an
accepted file with warnings, the same quarantine of a rejected one."""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from raterlab import warehouse
from raterlab.adjudication.ingest import inbox_dir, ingest_decisions
from raterlab.adjudication.packets import issue_packets
from raterlab.ingest import ingest_file
from raterlab.ingest.audit import pending_files
from raterlab.settings import Home
from raterlab.simulate.adjudicators import simulate_adjudication
from tests.consensus.conftest import SECRET


def _decisions(study, home: Home) -> pd.DataFrame:
    with warehouse.connect(home.warehouse) as con:
        issue_packets(study, home, con, SECRET)
    simulate_adjudication(study, home)
    path = inbox_dir(home, study.name) / "adj-001__adjudication.csv"
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def _returned(study, home: Home) -> pd.DataFrame:
    """A returned packet the loop ingested (so a copy of it changes no rating)."""
    path = pending_files(home.inbox / study.name)[0]
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def _write(frame: pd.DataFrame, path: Path, mtime: float | None = None) -> Path:
    frame.to_csv(path, index=False)
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def test_both_kinds_warn_of_a_future_version_and_report_it_alike(loop_home, tmp_path) -> None:
    study, home = loop_home
    future = int(time.time()) + 86_400  # whole seconds: the value is the time's text
    decisions = _write(_decisions(study, home).iloc[[0]], tmp_path / "decided.csv", future)
    frame = _returned(study, home)
    returned = _write(frame.assign(notes=frame["notes"] + " "), tmp_path / "again.csv", future)
    with warehouse.connect(home.warehouse) as con:
        decided = ingest_decisions(study, decisions, home, con)
        answered = ingest_file(study, returned, home, con)
        warned = {
            table: con.execute(
                f"SELECT rule, severity, value FROM {table} WHERE rule = 'future_version'"
            ).fetchall()
            for table in ("staging.adjudication_issues", "staging.ingest_issues")
        }
    assert (decided.status, answered.status) == ("accepted", "accepted")
    stamp = datetime.fromtimestamp(future, UTC).isoformat()
    assert warned["staging.adjudication_issues"] == warned["staging.ingest_issues"]
    assert warned["staging.ingest_issues"] == [("future_version", "warning", stamp)]
    reports = home.reports / "ingest" / study.name
    assert decided.report.parent.parent == reports / "adjudication"
    assert answered.report.parent.parent == reports
    assert sorted(p.name for p in decided.report.parent.iterdir()) == sorted(
        p.name for p in answered.report.parent.iterdir()
    )


def test_a_rejected_file_of_either_kind_is_quarantined_alike(loop_home, tmp_path) -> None:
    study, home = loop_home
    decisions = _write(_decisions(study, home).assign(bogus="x"), tmp_path / "decided.csv")
    returned = _write(_returned(study, home).assign(bogus="x"), tmp_path / "answered.csv")
    with warehouse.connect(home.warehouse) as con:
        decided = ingest_decisions(study, decisions, home, con)
        answered = ingest_file(study, returned, home, con)
        recorded = [
            con.execute(f"SELECT status FROM {table} WHERE file = ?", [file]).fetchall()
            for table, file in (
                ("staging.adjudication_files", "decided.csv"),
                ("staging.ingests", "answered.csv"),
            )
        ]
    assert (decided.status, answered.status) == ("rejected", "rejected")
    assert recorded == [[("rejected",)], [("rejected",)]]
    quarantine = home.quarantine / study.name
    assert decided.report.parent.parent == quarantine / "adjudication"
    assert answered.report.parent.parent == quarantine
    files = [
        {p.name for p in result.report.parent.iterdir()} - {name}
        for result, name in ((decided, "decided.csv"), (answered, "answered.csv"))
    ]
    assert files[0] == files[1] == {"report.md", "report.json", "issues.csv"}
    assert (decided.report.parent / "decided.csv").read_bytes() == decisions.read_bytes()
    assert (answered.report.parent / "answered.csv").read_bytes() == returned.read_bytes()
