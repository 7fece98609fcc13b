"""What people really send back is accepted; re-ingest, resubmission and crashes behave."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.ingest import ingest_file, ratings
from raterlab.ingest.audit import accepted_violations
from raterlab.protocol import parse_study
from tests.conftest import MINI_STUDY
from tests.ingest.conftest import filled, write


def _ingest(study, home, path):
    with warehouse.connect(home.warehouse) as con:
        return ingest_file(study, path, home, con)


def _query(home, sql, params=()):
    with warehouse.connect(home.warehouse) as con:
        return con.execute(sql, list(params)).df()


def _variant(name):
    def bom_crlf(frame, path):
        path.write_bytes(
            b"\xef\xbb\xbf" + frame.to_csv(index=False, lineterminator="\r\n").encode()
        )

    def floats_and_multiline(frame, path):
        frame.loc[0, ["score", "notes"]] = [
            "5.0",
            'Great answer.\nCites the retry rule,\r\nand "quotes" it.',
        ]
        frame.loc[1, "score"] = " 4 "
        frame.loc[2, "confidence"] = "HIGH"
        write(frame, path)

    def reordered_blank_trailing(frame, path):
        frame = frame[list(reversed(frame.columns))]
        frame[""] = ""
        text = frame.to_csv(index=False) + ",,,,,,\n,,,,,,\n\n"
        path.write_text(text)

    def jsonl(frame, path):
        rows = frame.to_dict(orient="records")
        for r in rows:
            r["score"] = int(r["score"])
            r["time_spent_s"] = float(r["time_spent_s"])
        path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")

    return {
        "bom_crlf": bom_crlf,
        "floats_multiline": floats_and_multiline,
        "reordered_blank_trailing": reordered_blank_trailing,
        "jsonl": jsonl,
    }[name]


@pytest.mark.parametrize(
    "variant", ["bom_crlf", "floats_multiline", "reordered_blank_trailing", "jsonl"]
)
def test_spreadsheet_variants_are_accepted(issued, tmp_path, variant) -> None:
    study, home, _, _ = issued
    frame = filled(home, "a1", "pilot", "answer")
    path = tmp_path / ("a1.jsonl" if variant == "jsonl" else "a1.csv")
    _variant(variant)(frame, path)
    result = _ingest(study, home, path)
    assert result.status == "accepted", result.validation.errors.to_string()
    labels = _query(home, "SELECT * FROM gold.labels WHERE field = 'score' ORDER BY source_row")
    assert len(labels) == len(frame)
    if variant == "floats_multiline":
        first = labels.iloc[0]
        assert (first["value"], first["value_num"]) == ("5", 5.0)
        assert first["notes"] == 'Great answer.\nCites the retry rule,\nand "quotes" it.'
        assert labels.iloc[1]["value"] == "4"
        conf = _query(home, "SELECT confidence FROM gold.labels WHERE source_row = 4 LIMIT 1")
        assert conf.iloc[0, 0] == "high"


def test_labels_are_unblinded_long_form(issued, tmp_path) -> None:
    study, home, key, _ = issued
    frame = filled(home, "a1", "main-01", "check")
    frame.loc[0, ["relevant", "sufficient"]] = ["yes", "no"]
    _ingest(study, home, write(frame, tmp_path / "a1_check.csv"))
    labels = _query(home, "SELECT * FROM gold.labels ORDER BY source_row, field")
    token = frame.loc[0, "item"]
    truth = key.set_index("token").loc[token]
    first = labels[labels["token"] == token]
    assert first["item_id"].unique().tolist() == [truth["item_id"]]
    assert first[["field", "value", "value_num"]].values.tolist() == [
        ["relevant", "1", 1.0],
        ["sufficient", "0", 0.0],
    ]
    assert set(labels["source_file"]) == {"a1_check.csv"}
    assert labels["source_row"].min() == 2
    assert set(labels["kind"]) <= {"item", "duplicate", "attention", "calibration"}


def test_same_content_twice_is_a_no_op(issued, tmp_path) -> None:
    study, home, _, _ = issued
    path = write(filled(home, "a1", "pilot", "answer"), tmp_path / "a1.csv")
    assert _ingest(study, home, path).status == "accepted"
    before = _query(home, "SELECT * FROM gold.labels ORDER BY ALL")
    again = _ingest(study, home, path)
    assert again.status == "unchanged"
    pd.testing.assert_frame_equal(_query(home, "SELECT * FROM gold.labels ORDER BY ALL"), before)
    assert len(_query(home, "SELECT * FROM staging.ingests")) == 1


def test_corrected_resubmission_replaces_and_is_recorded(issued, tmp_path) -> None:
    study, home, _, _ = issued
    first = filled(home, "a1", "pilot", "answer")
    _ingest(study, home, write(first, tmp_path / "a1.csv"))
    corrected = first.copy()
    corrected["score"] = "2"
    result = _ingest(study, home, write(corrected, tmp_path / "a1_fixed.csv"))
    assert result.status == "accepted" and result.superseded == ["a1.csv"]
    scores = _query(
        home, "SELECT DISTINCT value, source_file FROM gold.labels WHERE field = 'score'"
    )
    assert scores.values.tolist() == [["2", "a1_fixed.csv"]]
    log = _query(
        home,
        "SELECT file, status, coalesce(superseded_by, '') FROM staging.ingests ORDER BY ingested_at",
    )
    assert log.values.tolist() == [
        ["a1.csv", "superseded", result.sha256],
        ["a1_fixed.csv", "accepted", ""],
    ]


def test_raw_file_is_archived_by_hash_before_parsing(issued, tmp_path) -> None:
    study, home, _, _ = issued
    path = tmp_path / "broken.csv"
    path.write_bytes(b"\x00\x01")
    result = _ingest(study, home, path)
    assert (home.archive / "mini" / f"{result.sha256}.csv").read_bytes() == b"\x00\x01"


def test_crash_between_archive_and_commit_leaves_warehouse_consistent(
    issued, tmp_path, monkeypatch
) -> None:
    study, home, _, _ = issued
    path = write(filled(home, "a1", "pilot", "answer"), tmp_path / "a1.csv")
    real_apply = ratings.apply_returns

    def crash_after_labels(*args):
        real_apply(*args)
        raise OSError("disk full")

    monkeypatch.setattr(ratings, "apply_returns", crash_after_labels)
    with pytest.raises(OSError):
        _ingest(study, home, path)
    assert _query(home, "SELECT count(*) AS n FROM gold.labels")["n"][0] == 0
    assert _query(home, "SELECT count(*) AS n FROM staging.ingests")["n"][0] == 0
    assert any((home.archive / "mini").iterdir())
    monkeypatch.setattr(ratings, "apply_returns", real_apply)
    assert _ingest(study, home, path).status == "accepted"
    assert _query(home, "SELECT count(*) AS n FROM gold.labels")["n"][0] > 0


def test_study_may_accept_the_valid_rows(issued, tmp_path) -> None:
    study, home, _, _ = issued
    lenient = parse_study({**MINI_STUDY, "ingest": {"accept_valid_rows": True}})
    lenient = lenient.model_copy(update={"source": study.source})
    frame = filled(home, "a1", "pilot", "answer")
    frame.loc[0, "score"] = "9"
    result = _ingest(lenient, home, write(frame, tmp_path / "a1.csv"))
    assert result.status == "accepted" and result.n_errors == 1
    rows = _query(home, "SELECT DISTINCT source_row FROM gold.labels")["source_row"]
    assert sorted(rows) == list(range(3, len(frame) + 2))


def test_incomplete_return_is_accepted_with_a_warning(issued, tmp_path) -> None:
    study, home, _, _ = issued
    frame = filled(home, "a1", "pilot", "answer").iloc[:-2]
    result = _ingest(study, home, write(frame, tmp_path / "a1.csv"))
    assert result.status == "accepted"
    warning = result.validation.warnings.iloc[0]
    assert warning["rule"] == "incomplete"
    assert warning["message"].startswith("incomplete return: 2 assigned row(s) are missing")
    assert Path(result.report).name == "report.md"


def test_rule_check_on_accepted_labels_finds_real_violations_only(issued, tmp_path) -> None:
    study, home, _, _ = issued
    for task in ("answer", "check"):
        _ingest(study, home, write(filled(home, "a1", "main-01", task), tmp_path / f"{task}.csv"))
    with warehouse.connect(home.warehouse) as con:
        labels = warehouse.read_study_rows(con, "gold.labels", "mini")
        assert accepted_violations(study, labels).empty
        # Corrupt one stored value behind the validator's back: sufficient=1, relevant=0.
        rating = con.execute(
            "SELECT rating_id FROM gold.ratings WHERE task = 'check' LIMIT 1"
        ).fetchall()[0][0]
        con.execute(
            "UPDATE gold.rating_values SET value = CASE field WHEN 'sufficient' THEN '1' ELSE '0' END "
            "WHERE rating_id = ?",
            [rating],
        )
        found = accepted_violations(study, warehouse.read_study_rows(con, "gold.labels", "mini"))
    assert found[["task", "rule", "column"]].values.tolist() == [
        ["check", "constraint", "relevant"]
    ]
