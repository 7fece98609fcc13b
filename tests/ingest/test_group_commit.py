"""Committing consecutive files in one transaction (:func:`raterlab.ingest.batches.commit_all`):
which files share a transaction, and what happens when a group's transaction fails. That the
outcome equals one transaction per file is the property test
``test_group_commit_gives_what_one_by_one_gives``."""

from __future__ import annotations

import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.ingest import ratings, store
from raterlab.ingest.batches import commit_all
from raterlab.ingest.one_file import commit
from raterlab.ingest.receive import receive
from raterlab.ingest.returns import validate_received
from raterlab.settings import Home
from tests.ingest.conftest import filled, issue, write


def _validated(study, home, paths, con):
    received = [receive(study, p, home) for p in paths]
    return [(r, validate_received(study, r, con)) for r in received]


def _spy_on_groups(monkeypatch) -> list[list[str]]:
    """The files of each transaction ``commit_all`` commits, as it commits them."""
    groups: list[list[str]] = []
    real = store.commit_files

    def spy(con, ledger, entries, apply=None):
        groups.append([e.file_row["file"] for e in entries])
        return real(con, ledger, entries, apply)

    monkeypatch.setattr(store, "commit_files", spy)
    return groups


@pytest.fixture
def three_files(issued, tmp_path):
    """a1's and a2's packets, then a fix of a1's first row (it meets a1's file)."""
    study, home, _, _ = issued
    a1 = filled(home, "a1", "main-01", "answer")
    paths = [
        write(a1, tmp_path / "a1.csv"),
        write(filled(home, "a2", "main-01", "answer"), tmp_path / "a2.csv"),
        write(a1.iloc[[0]].assign(score="4"), tmp_path / "a1_fix.csv"),
    ]
    return study, home, paths


def test_files_share_a_transaction_until_one_meets_a_rating_of_another(
    three_files, monkeypatch
) -> None:
    study, home, paths = three_files
    groups = _spy_on_groups(monkeypatch)
    with warehouse.connect(home.warehouse) as con:
        results = commit_all(study, _validated(study, home, paths, con), home, con)
    assert groups == [["a1.csv", "a2.csv"], ["a1_fix.csv"]]
    assert [r.status for r in results] == ["accepted"] * 3
    assert results[2].changes["replaced"] == 1


def test_a_failed_group_is_committed_again_one_file_per_transaction(
    three_files, monkeypatch
) -> None:
    study, home, paths = three_files
    real = ratings.apply_returns

    def fails_in_groups(con, study_name, files):
        if len(files) > 1:
            raise RuntimeError("a group's statement failed")
        return real(con, study_name, files)

    monkeypatch.setattr(ratings, "apply_returns", fails_in_groups)
    with warehouse.connect(home.warehouse) as con:
        results = commit_all(study, _validated(study, home, paths, con), home, con)
        files = con.execute("SELECT file FROM staging.ingests ORDER BY file").fetchall()
        returned = con.execute("SELECT count(*) FROM raw.returned_files").fetchall()[0][0]
    assert [r.status for r in results] == ["accepted"] * 3
    assert files == [("a1.csv",), ("a1_fix.csv",), ("a2.csv",)]
    assert returned == 3


def test_each_task_is_grouped_apart_with_the_outcome_of_one_by_one(
    issued, tmp_path, monkeypatch
) -> None:
    """A study's returns alternate between its tasks' templates: each task's files share a
    transaction, and the tables are those of one transaction per file (but for the order in
    which rating ids were handed out); results come in the files' order."""
    study, home, _, _ = issued
    names = [(a, t) for a in ("a1", "a2") for t in ("answer", "check")]
    paths = [write(filled(home, a, "main-01", t), tmp_path / f"{a}_{t}.csv") for a, t in names]
    groups = _spy_on_groups(monkeypatch)
    with warehouse.connect(home.warehouse) as con:
        results = commit_all(study, _validated(study, home, paths, con), home, con)
        grouped = _ratings(con)
    assert groups == [["a1_answer.csv", "a2_answer.csv"], ["a1_check.csv", "a2_check.csv"]]
    assert [r.file for r in results] == [p.name for p in paths]
    assert [r.status for r in results] == ["accepted"] * 4

    monkeypatch.undo()
    alone = Home(tmp_path / "alone")
    issue(study, alone)
    with warehouse.connect(alone.warehouse) as con:
        for path in paths:
            received = receive(study, path, alone)
            commit(study, received, validate_received(study, received, con), alone, con)
        assert _ratings(con).equals(grouped)


def _ratings(con) -> pd.DataFrame:
    """Current ratings and their values, without the rating ids (handed out in commit
    order) and the times of the ingest."""
    return con.execute(
        """SELECT r.* EXCLUDE (rating_id, ingested_at, version_at, fingerprint),
                  v.field, v.value, v.value_num
           FROM gold.ratings r JOIN gold.rating_values v USING (study, rating_id)
           ORDER BY ALL"""
    ).df()
