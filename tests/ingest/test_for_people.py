"""CSVs written for people are neutralised against formula injection; the warehouse keeps
the raw value."""

from __future__ import annotations

import pandas as pd

from raterlab import warehouse
from raterlab.ingest import ingest_file
from raterlab.quality.sample import write_pi_sample
from tests.ingest.conftest import filled, write


def test_quarantine_issues_csv_is_neutralised(issued, tmp_path) -> None:
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    frame.loc[0, "score"] = '=HYPERLINK("http://x","y")'
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, write(frame, tmp_path / "a1.csv"), home, con)
        stored = con.execute("SELECT value FROM staging.ingest_issues").fetchall()
    issues = pd.read_csv(result.report.parent / "issues.csv", dtype=str, keep_default_na=False)
    assert issues["value"].tolist() == ['\'=HYPERLINK("http://x","y")'] * len(issues)
    assert stored[0][0] == '=HYPERLINK("http://x","y")'


def test_pi_sample_is_neutralised(tmp_path) -> None:
    sample = pd.DataFrame({"notes": ["=1+1", "@SUM(A1)", "fine", None], "score": [-3, 1, 2, 3]})
    path = write_pi_sample(sample, tmp_path)
    back = pd.read_csv(path, dtype=str, keep_default_na=False)
    assert back["notes"].tolist() == ["'=1+1", "'@SUM(A1)", "fine", ""]
    assert back["score"].tolist() == ["-3", "1", "2", "3"]


def test_pi_sample_with_list_cells(tmp_path) -> None:
    """A list field's values (codeIssues, missingElements) reach the sample as lists."""
    sample = pd.DataFrame({"issues": [["=cmd", "b"], None, []], "notes": ["-x", "ok", None]})
    back = pd.read_csv(write_pi_sample(sample, tmp_path), dtype=str, keep_default_na=False)
    assert back["notes"].tolist() == ["'-x", "ok", ""]
    assert back["issues"].tolist() == ["['=cmd', 'b']", "", "[]"]
