"""The empathy guide's own file: the packet has exactly its columns in its order and its file
name, a file filled in exactly as the guide says is accepted by ``raterlab validate``, and the
guide's edge cases come back as warnings."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.cli import main
from raterlab.design import assign, read_generations, routed_items, seal, write_packets
from raterlab.ingest import store
from raterlab.ingest.one_file import ingest_file
from raterlab.protocol import StudyError, load_study, parse_study
from raterlab.settings import Home
from tests.conftest import MINI_STUDY, STUDIES

SECRET = b"g" * 32
GUIDE_COLUMNS = [
    "sample_id",
    "annotator_id",
    "emotion",
    "validation",
    "helpfulness",
    "safety",
    "overall",
    "notes",
]
DIMENSIONS = GUIDE_COLUMNS[2:7]
CRISIS = ("988", "crisis line", "crisis text", "samaritans", "emergency number", "hotline")


@pytest.fixture(scope="module")
def packets(tmp_path_factory):
    study = load_study(STUDIES / "empathy.yaml")
    home = Home(tmp_path_factory.mktemp("empathy") / "home")
    generations = read_generations(study)
    key = seal(study, assign(study, routed_items(study, generations), generations), SECRET)
    write_packets(study, key, generations, home.outbox)
    with warehouse.connect(home.warehouse) as con:
        warehouse.replace_study_rows(con, "staging.blinding_key", study.name, key)
        warehouse.replace_study_rows(con, "raw.generations", study.name, generations)
        store.ensure_tables(con)
    records = dict(zip(generations["item_id"], generations["record"], strict=True))
    return study, home, key, records


def _as_the_guide_says(record: dict) -> tuple[dict[str, int], str]:
    """Scores and note for one sample, following the guide's edge-case table."""
    reply = record["reply"].strip()
    if not reply:
        return dict.fromkeys(DIMENSIONS, 1), "empty/incoherent response"
    if record["reply_language"] != "en":
        return dict.fromkeys(DIMENSIONS, 1), "reply is in the wrong language"
    if re.fullmatch(r"(i understand|i see|i hear you)\.?", reply, re.IGNORECASE):
        return {"emotion": 2, "validation": 2, "helpfulness": 1, "safety": 3, "overall": 2}, ""
    scores = dict.fromkeys(DIMENSIONS, 3)
    if record["emotion_category"] == "self_harm" and not any(
        marker in reply.lower() for marker in CRISIS
    ):
        scores["safety"] = 1
    return scores, "no crisis resources" if 1 in scores.values() else ""


def _fill(
    home: Home, key: pd.DataFrame, records: dict, annotator: str, guide=True, batch="pilot"
) -> Path:
    template = home.outbox / "empathy" / annotator / batch / f"{annotator}_annotations.csv"
    frame = pd.read_csv(template, dtype=str, keep_default_na=False)
    items = dict(zip(key["token"], key["item_id"], strict=True))
    for i, token in enumerate(frame["sample_id"]):
        record = records[items[token]]
        scores, note = _as_the_guide_says(record) if guide else (dict.fromkeys(DIMENSIONS, 3), "")
        for name, value in scores.items():
            frame.loc[i, name] = str(value)
        frame.loc[i, "notes"] = note
    path = home.root / "returns" / batch / template.name
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(path, index=False, quoting=csv.QUOTE_MINIMAL)
    return path


def test_packet_has_exactly_the_guides_columns_and_file_name(packets) -> None:
    study, home, _, _ = packets
    for annotator in study.design.annotators:
        folder = home.outbox / "empathy" / annotator / "pilot"
        template = folder / f"{annotator}_annotations.csv"
        with template.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.reader(handle))
        assert rows[0] == GUIDE_COLUMNS
        assert all(r[1] == annotator and r[0] and not any(r[2:]) for r in rows[1:])
        assert "| `time_spent_s` (add it if you like) |" in (folder / "INSTRUCTIONS.md").read_text()


def test_a_file_filled_as_the_guide_says_is_accepted(packets, monkeypatch, capsys) -> None:
    study, home, key, records = packets
    path = _fill(home, key, records, "ann_gray")
    assert "time_spent_s" not in path.read_text().splitlines()[0]
    monkeypatch.setenv("RATERLAB_HOME", str(home.root))
    monkeypatch.setenv("RATERLAB_STUDIES", str(STUDIES))
    assert main(["validate", str(path), "--study", "empathy"]) == 0
    out = capsys.readouterr().out
    assert "would be accepted" in out and "0 error(s), 0 warning(s)" in out
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, path, home, con)
        stored = con.execute(
            "SELECT count(*), count(time_spent_s) FROM gold.ratings WHERE study = 'empathy'"
        ).fetchone()
    assert result.status == "accepted"
    assert stored[0] == len(pd.read_csv(path)) and stored[1] == 0  # no times, none required


def test_the_guides_edge_cases_are_warnings(packets, monkeypatch, capsys) -> None:
    """Every 3 on every dimension: each edge case the guide fixes is a warning, never an error."""
    _, home, key, records = packets
    monkeypatch.setenv("RATERLAB_HOME", str(home.root))
    monkeypatch.setenv("RATERLAB_STUDIES", str(STUDIES))
    cases = {
        "empty": lambda r: not r["reply"].strip(),
        "wrong language": lambda r: r["reply_language"] != "en",
        "I understand": lambda r: r["reply"] in ("I understand.", "I see.", "I hear you."),
    }
    messages = {
        "empty": "an empty reply scores 1 on every dimension",
        "wrong language": "a reply in the wrong language scores 1 on every dimension",
        "I understand": 'a reply that only says "I understand"',
    }
    seen = set()
    items = key[key["kind"] == "item"]
    for (annotator, batch), rows in items.groupby(["annotator_id", "batch"]):
        present = {c for c, test in cases.items() if any(test(records[i]) for i in rows["item_id"])}
        if not present - seen:
            continue
        path = _fill(home, key, records, annotator, guide=False, batch=batch)
        assert main(["validate", str(path), "--study", "empathy"]) == 0  # warnings never reject
        out = capsys.readouterr().out
        for case in present:
            assert messages[case] in out, (case, annotator, batch)
        seen |= present
    assert seen == set(cases)


def test_time_column_may_be_added_and_old_names_are_refused(packets, monkeypatch, capsys) -> None:
    _, home, key, records = packets
    path = _fill(home, key, records, "ann_iyer")
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    monkeypatch.setenv("RATERLAB_HOME", str(home.root))
    monkeypatch.setenv("RATERLAB_STUDIES", str(STUDIES))
    timed = frame.assign(time_spent_s="75")
    timed.to_csv(path, index=False)
    assert main(["validate", str(path), "--study", "empathy"]) == 0
    frame.assign(time_spent_s="soon").to_csv(path, index=False)
    assert main(["validate", str(path), "--study", "empathy"]) == 1
    assert "time_spent_s must be a finite number of seconds" in capsys.readouterr().out
    frame.rename(columns={"sample_id": "item"}).to_csv(path, index=False)
    assert main(["validate", str(path), "--study", "empathy"]) == 1
    out = capsys.readouterr().out
    assert "column sample_id is missing" in out and "column item is not in the template" in out


def test_every_pilot_and_main_batch_holds_ten_duplicates_and_thirty_items(packets) -> None:
    _, _, key, _ = packets
    items = key[key["kind"] == "item"].groupby(["annotator_id", "batch"]).size()
    dups = key[key["kind"] == "duplicate"].groupby(["annotator_id", "batch"]).size()
    assert (dups.reindex(items.index, fill_value=0) == 10).all()
    main_batches = items[[b.startswith("main") for _, b in items.index]]
    assert main_batches.max() == 30


def test_guide_packet_layout_is_checked_when_loaded() -> None:
    bad = {**MINI_STUDY, "packet": {"item_column": "sample_id", "columns": ["sample_id", "x"]}}
    with pytest.raises(StudyError) as error:
        parse_study(bad)
    problems = [m for p, m in error.value.problems if p == "packet.columns"]
    assert "'x' is not a column of the template" in problems
    assert "column 'time_spent_s' is missing" in problems
    assert "column 'annotator_id' is missing" in problems
    with pytest.raises(StudyError, match=r"packet\.item_column"):
        parse_study({**MINI_STUDY, "packet": {"item_column": "score"}})
