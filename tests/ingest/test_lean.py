"""The lean path of a big returned file (:mod:`raterlab.ingest.lean`): it says a file is
clean only when the full validation finds nothing in it (a property over random cells), and
the warehouse after it is the warehouse after the full path: ratings, fingerprints, values,
``gold.labels``, the ingest ledger and, after a resubmission, the history."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from raterlab import warehouse
from raterlab.ingest import lean
from raterlab.ingest.context import study_context
from raterlab.ingest.one_file import ingest_file
from raterlab.ingest.receive import receive
from raterlab.ingest.returns import preview
from raterlab.ingest.validate import validate_file
from raterlab.settings import Home
from tests.ingest.conftest import filled, issue, write

TIMES = ("ingested_at", "version_at", "received_at", "replaced_at", "modified_at")
"""Columns that hold when a file arrived: not the same in two homes."""
PATHS = ("archived_path", "report")


def _answers(frame: pd.DataFrame, task: str) -> pd.DataFrame:
    """Varied valid answers: every score, a skip with its reason, notes where required,
    confidence in any case, time spent as written by people."""
    frame = frame.copy()
    n = len(frame)
    if task == "answer":
        frame["score"] = [["1", "2", "3", "4", "5", "skip", "3.0", "Skip"][i % 8] for i in range(n)]
        frame["notes"] = [
            "too vague" if s in ("1", "5", "skip", "Skip") else ("" if i % 3 else "fine")
            for i, s in enumerate(frame["score"])
        ]
        frame["confidence"] = [["high", "Medium", "low", "LOW"][i % 4] for i in range(n)]
    else:
        frame["relevant"] = [["1", "yes", "0", "no"][i % 4] for i in range(n)]
        frame["sufficient"] = [
            "1" if r in ("1", "yes") and i % 2 else "0" for i, r in enumerate(frame["relevant"])
        ]
    frame["time_spent_s"] = [["42", "7.5", "0", "120"][i % 4] for i in range(n)]
    return frame


def _tables(home: Home) -> dict[str, pd.DataFrame]:
    """The ingest's tables, rows sorted, without arrival times and paths."""
    tables = {}
    with warehouse.connect(home.warehouse) as con:
        for table in (
            "gold.ratings",
            "gold.rating_values",
            "gold.labels",
            "gold.rating_history",
            "staging.ingests",
            "staging.ingest_issues",
            "raw.returned_files",
        ):
            frame = con.sql(f"SELECT * FROM {table}").df()
            frame = frame.drop(columns=[c for c in frame.columns if c in TIMES + PATHS])
            tables[table] = frame.sort_values(list(frame.columns)).reset_index(drop=True)
    return tables


def _ingest(study, home: Home, paths: list[Path], lean_on: bool, monkeypatch) -> list[str]:
    """Ingest ``paths`` one after another, by the lean path where it takes them
    (``lean_on``) or the full way; returns, per file, ``lean`` or ``full``."""
    monkeypatch.setattr(lean, "MIN_BYTES", 0 if lean_on else 10**12)
    taken = []
    real = lean.lean_validation

    def spy(study, received, con):
        found = real(study, received, con)
        taken.append("full" if found is None else "lean")
        return found

    monkeypatch.setattr("raterlab.ingest.returns.lean_validation", spy)
    with warehouse.connect(home.warehouse) as con:
        for path in paths:
            assert ingest_file(study, path, home, con).status == "accepted"
    return taken


@pytest.mark.parametrize(
    ("annotator", "batch", "task"), [("a1", "main-01", "answer"), ("a1", "main-01", "check")]
)
def test_lean_path_writes_what_the_full_path_writes(
    issued, tmp_path, monkeypatch, annotator, batch, task
):
    study, home, _, _ = issued
    other = Home(tmp_path / "other")
    issue(study, other)
    first = _answers(filled(home, annotator, batch, task), task)
    again = first.copy()
    field = "score" if task == "answer" else "relevant"
    again.loc[again.index[:3], field] = "2" if task == "answer" else "0"
    if task == "check":
        again.loc[again.index[:3], "sufficient"] = "0"
    again.loc[again.index[:3], "time_spent_s"] = "99"
    paths = [write(first, tmp_path / "first.csv"), write(again, tmp_path / "again.csv")]
    # the second meets the first's ratings: its labels come to Arrow and the plan runs
    assert _ingest(study, home, paths, True, monkeypatch) == ["lean", "lean"]
    assert _ingest(study, other, paths, False, monkeypatch) == ["full", "full"]
    mine, theirs = _tables(home), _tables(other)
    assert len(mine["gold.rating_history"]) > 0
    assert len(mine["gold.ratings"]) == len(first)
    for table, frame in mine.items():
        pd.testing.assert_frame_equal(frame, theirs[table], obj=table)


def test_a_first_return_meets_no_rating_and_is_written_from_duckdb(issued, tmp_path, monkeypatch):
    """A resubmission meets current ratings: its labels come to Arrow and the plan runs
    (``WideLabels.table``), with the outcome of the full path (the test above)."""
    study, home, _, _ = issued
    frame = _answers(filled(home, "a2", "main-01", "answer"), "answer")
    path = write(frame, tmp_path / "a2.csv")
    assert _ingest(study, home, [path], True, monkeypatch) == ["lean"]
    with warehouse.connect(home.warehouse) as con:
        left = con.sql("SELECT count(*) FROM duckdb_tables() WHERE temporary").fetchall()
    assert left == [(0,)]


ODD = {
    "score": [" 3", "3 ", "3.0", "2", "4", "\u00a03"],
    "confidence": ["HIGH", "Medium", " low", "high"],
    "notes": ["ok", "fine", " why", "n/a"],
    "time_spent_s": ["42", "", "1e3", " 7", "0.5"],
    "annotator_id": [" a1", "a1 "],
    "relevant": ["1", "0", "yes", "No", "1.0", "true"],
    "sufficient": ["0", "n", "N", "false"],
}
"""Cells the full validation may accept, written as people write them."""
BAD = {
    "score": ["1", "5", "", "skip", "SKIP", "3.5", "0", "6", "x", "nan"],
    "confidence": ["", "lo", "none"],
    "notes": ["N A", "-", "\u200b"],
    "time_spent_s": ["-1", "nan", "inf", "x"],
    "annotator_id": ["a2", ""],
    "relevant": ["2", "", "maybe"],
    "sufficient": ["1", "", "Y", "maybe"],
}
"""Cells that break a rule, or do with another cell of the row (conditional, constraint)."""


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_the_screen_never_passes_a_file_the_full_validation_faults(issued, monkeypatch, data):
    """Random cells in some columns of either task, the others as filled validly (spaces,
    ``3.0``, unicode spaces, case, out of range, skips, placeholders, conditional and
    constraint breaks): whenever the lean path says a file is clean, the full validation
    finds no issue in it."""
    study, home, _, _ = issued
    monkeypatch.setattr(lean, "MIN_BYTES", 0)
    task = data.draw(st.sampled_from(["answer", "check"]))
    frame = filled(home, "a1", "main-01", task)
    n = len(frame)
    for column in (c for c in ODD if c in frame.columns):  # as filled, odd or anything
        pools = [[], *([v] for v in ODD[column]), ODD[column], ODD[column] + BAD[column]]
        pool = data.draw(st.sampled_from(pools))
        if pool:
            frame[column] = data.draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
    path = write(frame, home.root / "drawn" / f"{task}.csv")
    received = receive(study, path, home)
    with warehouse.connect(home.warehouse) as con:
        screened = lean.lean_validation(study, received, con)
        if screened is not None:
            screened.lean.drop()
        full = validate_file(study, received.archived, study_context(con, study), path.name)
    if screened is not None:
        assert full.issues.empty, full.issues.to_dict("records")
        assert screened.task == full.task


def test_a_clean_plain_file_is_taken_by_the_screen(issued, tmp_path, monkeypatch):
    """The screen is not so strict that it takes nothing: a packet's valid answers, as
    written by a spreadsheet (CRLF line breaks), go the lean way."""
    study, home, _, _ = issued
    monkeypatch.setattr(lean, "MIN_BYTES", 0)
    frame = _answers(filled(home, "a1", "main-01", "answer"), "answer")
    path = write(frame, tmp_path / "crlf.csv", lineterminator="\r\n")
    received = receive(study, path, home)
    with warehouse.connect(home.warehouse) as con:
        screened = lean.lean_validation(study, received, con)
        assert screened is not None
        assert screened.n_rows == len(frame)
        screened.lean.drop()


def test_the_dry_run_of_a_lean_file_says_what_its_ingest_does(issued, tmp_path, monkeypatch):
    """``raterlab validate`` (:func:`raterlab.ingest.returns.preview`) of a file the screen
    takes: every rating new, then, once ingested, the changed ones replaced."""
    study, home, _, _ = issued
    monkeypatch.setattr(lean, "MIN_BYTES", 0)
    frame = _answers(filled(home, "a1", "main-01", "answer"), "answer")
    path = write(frame, tmp_path / "a1.csv")
    changed = write(frame.assign(time_spent_s="99"), tmp_path / "a1_again.csv")
    with warehouse.connect(home.warehouse) as con:
        assert preview(study, path, con).changes["new"] == len(frame)
        assert ingest_file(study, path, home, con).changes["new"] == len(frame)
        assert preview(study, changed, con).changes["replaced"] == len(frame)
