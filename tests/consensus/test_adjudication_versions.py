"""Adjudication decisions follow the ratings' version rule: the newer decisions file wins,
an older one arriving late goes to history and leaves the decision in force."""

from __future__ import annotations

import os

import pandas as pd

from raterlab import warehouse
from raterlab.adjudication.ingest import inbox_dir, ingest_decisions
from raterlab.adjudication.packets import issue_packets
from raterlab.simulate.adjudicators import simulate_adjudication
from tests.consensus.conftest import SECRET

T0 = 1_790_000_000


def _decisions_file(study, home) -> pd.DataFrame:
    with warehouse.connect(home.warehouse) as con:
        issue_packets(study, home, con, SECRET)
    simulate_adjudication(study, home)
    path = inbox_dir(home, study.name) / "adj-001__adjudication.csv"
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def _write(frame: pd.DataFrame, path, at: int):
    frame.to_csv(path, index=False)
    os.utime(path, (T0 + at, T0 + at))
    return path


def test_an_older_decisions_file_arriving_late_does_not_replace_the_newer(loop_home) -> None:
    study, home = loop_home
    frame = _decisions_file(study, home).iloc[[0]]
    folder = inbox_dir(home, study.name)
    newer = _write(
        frame.assign(rationale="the newer decision, after discussion"), folder / "v2.csv", 100
    )
    older = _write(frame.assign(rationale="the first draft of the decision"), folder / "v1.csv", 0)
    with warehouse.connect(home.warehouse) as con:
        assert ingest_decisions(study, newer, home, con).status == "accepted"
        late = ingest_decisions(study, older, home, con)
        current = con.execute(
            "SELECT rationale, source_file FROM gold.adjudications WHERE study = ?", [study.name]
        ).fetchall()
        assert current == [("the newer decision, after discussion", "v2.csv")]
        history = con.execute(
            "SELECT rationale, source_file, replaced_by_file, change "
            "FROM gold.adjudication_history WHERE study = ?",
            [study.name],
        ).fetchall()
        outcome = con.execute(
            "SELECT status, n_older FROM staging.adjudication_files WHERE file = 'v1.csv'"
        ).fetchall()
    assert late.status == "accepted" and late.n_older == 1
    assert history == [
        ("the first draft of the decision", "v1.csv", "v2.csv", "older_than_current")
    ]
    assert outcome == [("accepted", 1)]


def test_a_newer_decisions_file_replaces_and_keeps_the_old_in_history(loop_home) -> None:
    study, home = loop_home
    frame = _decisions_file(study, home).iloc[[0]]
    folder = inbox_dir(home, study.name)
    first = _write(frame.assign(rationale="the first draft of the decision"), folder / "v1.csv", 0)
    second = _write(
        frame.assign(rationale="the newer decision, after discussion"), folder / "v2.csv", 100
    )
    with warehouse.connect(home.warehouse) as con:
        ingest_decisions(study, first, home, con)
        result = ingest_decisions(study, second, home, con)
        current = con.execute("SELECT source_file, version_at FROM gold.adjudications").fetchall()
        history = con.execute(
            "SELECT source_file, replaced_by_file, change FROM gold.adjudication_history"
        ).fetchall()
    assert result.n_older == 0 and result.superseded == ["v1.csv"]
    assert [(f, v.timestamp()) for f, v in current] == [("v2.csv", T0 + 100)]
    assert history == [("v1.csv", "v2.csv", "replaced")]
