"""The generated Pandera schema is the validator that runs: what it reports, row by row."""

from __future__ import annotations

import json

import numpy as np
import yaml

from raterlab import warehouse
from raterlab.ingest import ingest_file, preview, task_schema
from raterlab.ingest.read import read_returned
from raterlab.ingest.validate import rule_issues
from raterlab.protocol import load_study
from tests.ingest.conftest import filled, write


def test_each_broken_cell_is_reported_with_its_row_column_rule_and_value(issued) -> None:
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    rng = np.random.default_rng(3)
    frame["score"] = rng.choice(["1", "3", "5", "9", "x", "", "2.5", "skip"], size=len(frame))
    frame["confidence"] = rng.choice(["low", "HIGH", "sure", ""], size=len(frame))
    task = study.tasks["answer"]
    expected = set()
    for i, (score, confidence) in enumerate(zip(frame["score"], frame["confidence"], strict=True)):
        row = i + 2  # the spreadsheet row: the header is row 1
        if score in ("x", "2.5"):
            expected.add((row, "score", "type", score))
        if score == "9":
            expected.add((row, "score", "range", score))
        if score == "" and task.is_required("score"):
            expected.add((row, "score", "required", ""))
        if score == "skip":
            expected.add((row, "notes", "skip_reason", ""))
        if score in ("1", "5"):
            expected.add((row, "notes", "conditional", ""))
        if confidence == "sure":
            expected.add((row, "confidence", "allowed_values", "sure"))
        if confidence == "" and task.is_required("confidence"):
            expected.add((row, "confidence", "required", ""))
    issues = rule_issues(study, "answer", read_returned(write(frame, home.root / "m.csv")), "m.csv")
    found = set(zip(issues["row"], issues["column"], issues["rule"], issues["value"], strict=True))
    assert found == expected
    assert len(expected) > 10
    # In rule order (the study's), then row order.
    first = issues.drop_duplicates(["rule", "column"])[["rule", "column"]].apply(tuple, axis=1)
    assert list(first).index(("type", "score")) < list(first).index(
        ("allowed_values", "confidence")
    )
    assert (
        issues.groupby(["rule", "column"])["row"].apply(lambda r: r.is_monotonic_increasing).all()
    )


def test_a_rule_added_to_the_study_file_rejects_rows_with_no_other_change(issued) -> None:
    study, home, _, _ = issued
    path = write(filled(home, "a1", "main-01", "answer"), home.root / "a1.csv")
    with warehouse.connect(home.warehouse) as con:
        assert preview(study, path, con).status == "accepted"
    declared = yaml.safe_load(study.source.read_text())
    declared["tasks"]["answer"]["conditional"].append(
        {"require": ["notes"], "when": {"any_of": ["score"], "in": [3]}, "message": "why a 3?"}
    )
    study.source.write_text(yaml.safe_dump(declared, sort_keys=False))
    stricter = load_study(study.source)
    checks = [c.error for c in task_schema(stricter, "answer").columns["notes"].checks]
    assert "why a 3?" in checks
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(stricter, path, home, con)
    assert result.status == "rejected"
    errors = result.validation.errors
    assert set(errors["message"]) == {"why a 3?"}
    assert list(errors["row"]) == list(range(2, len(errors) + 2))
    assert set(errors["column"]) == {"notes"} and set(errors["rule"]) == {"conditional"}


def test_a_file_where_every_row_is_broken_is_summarised(issued, tmp_path) -> None:
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    frame["score"], frame["confidence"] = "9", "sure"
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, write(frame, tmp_path / "a1.csv"), home, con)
        stored = con.execute(
            "SELECT rule, count(*) FROM staging.ingest_issues GROUP BY rule ORDER BY rule"
        ).fetchall()
    n = len(frame)
    assert result.status == "rejected" and result.n_errors == 2 * n
    assert stored == [("allowed_values", n), ("range", n)]
    report = json.loads((result.report.parent / "report.json").read_text())
    counts = {(s["rule"], s["column"]): s["count"] for s in report["summary"]}
    assert counts == {("range", "score"): n, ("allowed_values", "confidence"): n}
    assert len(report["examples"]) == 10  # five per rule
    assert (result.report.parent / "issues.csv").read_text().count("\n") == 2 * n + 1
