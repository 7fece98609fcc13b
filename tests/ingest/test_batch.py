"""Files validated together (the row rules of a batch in one Pandera validation) get exactly
the validation each gets alone: the same task, issues (file, row, column, rule, value) and
unblinded rows, whatever mix of good, broken, unreadable and foreign files the batch holds
(the checks against the sealed key included: unknown, repeated, reassigned, missing and other
annotators' rows are found per file, never across files)."""

from __future__ import annotations

import pandas as pd
import pandas.testing as pdt

from raterlab import warehouse
from raterlab.ingest.context import study_context
from raterlab.ingest.validate import validate_file, validate_files
from tests.ingest.conftest import filled, write


def test_a_batch_validates_each_file_as_it_would_alone(issued, tmp_path) -> None:
    study, home, _, _ = issued
    good = filled(home, "a1", "main-01", "answer")
    broken = filled(home, "a2", "main-01", "answer")
    broken.loc[[0, 3], "score"] = ["9", "x"]
    no_time = filled(home, "a3", "main-01", "answer").drop(columns="time_spent_s")
    other = filled(home, "a1", "main-01", "check")
    other.loc[1, "relevant"] = "maybe"
    files = [
        write(good, tmp_path / "good.csv"),
        write(broken, tmp_path / "broken.csv"),
        write(no_time, tmp_path / "no_time.csv"),
        write(other, tmp_path / "other_task.csv"),
        write(broken.iloc[::-1], tmp_path / "again" / "broken.csv"),
    ]
    mixed = filled(home, "a1", "main-01", "answer")
    mixed.loc[0, "item"] = "not-a-token"
    mixed.loc[1, "annotator_id"] = "a2"
    mixed = pd.concat([mixed, mixed.iloc[[2]]], ignore_index=True).drop(index=3)
    foreign = filled(home, "a2", "main-01", "answer").head(2)
    files += [
        write(mixed, tmp_path / "mixed.csv"),
        write(pd.concat([good, foreign], ignore_index=True), tmp_path / "foreign.csv"),
        write(good.iloc[1:], tmp_path / "partial.csv"),
    ]
    (tmp_path / "binary.csv").write_bytes(b"\x00\x01\x02")
    files.append(tmp_path / "binary.csv")
    with warehouse.connect(home.warehouse, read_only=True) as con:
        context = study_context(con, study)
    together = validate_files(study, [(f, f.name) for f in files], context)
    alone = [validate_file(study, f, context) for f in files]
    assert [v.task for v in together] == [v.task for v in alone]
    assert sum(len(v.errors) for v in together) >= 4
    for batched, single in zip(together, alone, strict=True):
        pdt.assert_frame_equal(batched.issues, single.issues)
        pdt.assert_frame_equal(batched.rows, single.rows)
    rules = [set(v.issues["rule"]) for v in together]
    assert rules[5] == {"unknown_item", "not_assigned", "duplicate_item", "incomplete"}
    assert rules[6] == {"other_packet"}
    assert rules[7] == {"incomplete"}
    assert rules[0] == set()
    broken_rows = together[1].errors[["row", "column", "rule", "value"]]
    assert broken_rows.values.tolist() == [[5, "score", "type", "x"], [2, "score", "range", "9"]]
