"""Importing annotations collected elsewhere (no packets): long and wide files."""

from __future__ import annotations

from pathlib import Path

import pytest

from raterlab import warehouse
from raterlab.cli import main
from raterlab.ingest.imports import import_file


def _run(issued, path: Path, **options):
    study, home, _, _ = issued
    with warehouse.connect(home.warehouse) as con:
        return import_file(study, "answer", path, home, con, **options)


def _labels(issued):
    _, home, _, _ = issued
    with warehouse.connect(home.warehouse) as con:
        return con.execute(
            "SELECT item_id, annotator_id, field, value, round, source_row FROM gold.labels ORDER BY ALL"
        ).fetchall()


def test_long_file(issued, tmp_path) -> None:
    path = tmp_path / "old.csv"
    path.write_text("unit,rater,score,notes\nans-000,r1,5,clear\nans-000,r2,4,\nans-001,r1,2,\n")
    result = _run(issued, path, unit="unit", rater="rater")
    assert result.status == "accepted" and result.n_labels == 4
    assert _labels(issued) == [
        ("ans-000", "r1", "notes", "clear", "import", 2),
        ("ans-000", "r1", "score", "5", "import", 2),
        ("ans-000", "r2", "score", "4", "import", 3),
        ("ans-001", "r1", "score", "2", "import", 4),
    ]
    assert _run(issued, path, unit="unit", rater="rater").status == "unchanged"


def test_wide_file_one_column_per_rater(issued, tmp_path) -> None:
    path = tmp_path / "wide.csv"
    path.write_text("unit,kim,ortiz\nans-000,3,4\nans-001,2,\n")
    result = _run(issued, path, unit="unit", rater=None, field="score")
    assert result.status == "accepted"
    assert [(i, a, v, r) for i, a, _, v, _, r in _labels(issued)] == [
        ("ans-000", "kim", "3", 2),
        ("ans-000", "ortiz", "4", 2),
        ("ans-001", "kim", "2", 3),
    ]


def test_bad_rows_reject_the_whole_import(issued, tmp_path) -> None:
    path = tmp_path / "old.csv"
    path.write_text("unit,rater,score\nans-000,r1,5\nnope,r1,3\nans-001,r1,8\nans-000,r1,4\n")
    result = _run(issued, path, unit="unit", rater="rater")
    assert result.status == "rejected"
    got = sorted(
        zip(result.validation.errors["row"], result.validation.errors["rule"], strict=True)
    )
    # No notes column: the notes-for-a-5 rule concerns a column the file lacks, so it is not applied.
    assert got == [(3, "unknown_unit"), (4, "range"), (5, "duplicate_rating")]
    assert _labels(issued) == []


def test_cli_import_and_its_errors(issued, tmp_path, monkeypatch, capsys) -> None:
    study, home, _, _ = issued
    monkeypatch.setenv("RATERLAB_HOME", str(home.root))
    monkeypatch.setenv("RATERLAB_STUDIES", str(study.source.parent))
    path = tmp_path / "old.csv"
    path.write_text("unit,rater,score\nans-000,r1,3\n")
    assert main(["import", str(path), "--study", "mini", "--unit", "unit", "--rater", "rater"]) == 2
    assert "name the task with --task (one of answer, check)" in capsys.readouterr().out
    assert (
        main(
            [
                "import",
                str(path),
                "--study",
                "mini",
                "--task",
                "answer",
                "--unit",
                "id",
                "--rater",
                "rater",
            ]
        )
        == 2
    )
    assert "no column 'id' (columns: unit, rater, score)" in capsys.readouterr().out
    code = main(
        [
            "import",
            str(path),
            "--study",
            "mini",
            "--task",
            "answer",
            "--unit",
            "unit",
            "--rater",
            "rater",
        ]
    )
    assert code == 0
    assert capsys.readouterr().out == "old.csv: accepted, 1 labels into mini.answer\n"


@pytest.mark.parametrize("command", ["validate", "ingest"])
def test_cli_validate_and_ingest(issued, tmp_path, monkeypatch, capsys, command) -> None:
    from tests.ingest.conftest import filled, write

    study, home, _, _ = issued
    monkeypatch.setenv("RATERLAB_HOME", str(home.root))
    monkeypatch.setenv("RATERLAB_STUDIES", str(study.source.parent))
    frame = filled(home, "a1", "pilot", "answer")
    good = write(frame, tmp_path / "good.csv")
    frame.loc[0, "score"] = "6"
    bad = write(frame, tmp_path / "bad.csv")
    assert main([command, str(good), "--study", "mini"]) == 0
    out = capsys.readouterr().out
    assert (
        ("would be accepted" in out)
        if command == "validate"
        else out.startswith("good.csv: accepted")
    )
    assert main([command, str(bad), "--study", "mini"]) == 1
    out = capsys.readouterr().out
    assert "| 2 | score | range | 6 | score must be between 1 and 5 |" in out or "1 error(s)" in out
    with warehouse.connect(home.warehouse, read_only=True) as con:
        n = con.execute("SELECT count(*) FROM gold.labels").fetchone()[0]
    assert (n == 0) == (command == "validate")
