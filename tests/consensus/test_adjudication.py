"""The adjudication loop on a simulated mini study: queue -> packet -> returned decisions ->
``adjudicated``; a bad decisions file quarantined; a third annotator through the normal
ingest; packets blind to hidden keys and to who rated."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import duckdb
import pandas as pd

from raterlab import warehouse
from raterlab.adjudication.adjudicator_packet import (
    REFERENCE,
    TEMPLATE,
    TEMPLATE_COLUMNS,
    adjudication_dir,
)
from raterlab.adjudication.ingest import inbox_dir, ingest_decisions, ingest_inbox
from raterlab.adjudication.packets import issue_packets
from raterlab.adjudication.staging import read_adjudication_key
from raterlab.adjudication.stored_queue import refresh_queue
from raterlab.adjudication.third_annotator import sealed_tiebreak_rows
from raterlab.design.verify import verify_no_hidden_values
from raterlab.gold.build import build_consensus
from raterlab.ingest.study_tables import load_tables
from raterlab.simulate.adjudicators import simulate_adjudication
from tests.consensus.conftest import SECRET, build_home, ingest_pending, loop_study


def _issue(study, home):
    with warehouse.connect(home.warehouse) as con:
        return issue_packets(study, home, con, SECRET)


def _consensus(study, home) -> pd.DataFrame:
    with warehouse.connect(home.warehouse) as con:
        return build_consensus(con, study).consensus


def test_queue_packet_decision_adjudicated(loop_home) -> None:
    study, home = loop_home
    with warehouse.connect(home.warehouse) as con:
        queue = refresh_queue(con, study)
    assert len(queue) and (queue["route"] == "adjudicator").all()
    assert (queue["state"] == "open").all()
    # Lowest agreement first.
    ranked = queue.sort_values("priority")
    assert (
        ranked["agreement"].is_monotonic_increasing
        or ranked.groupby("priority")["agreement"].min().is_monotonic_increasing
    )
    before = _consensus(study, home)
    disputed = before[before["reason"].fillna("").str.contains("awaiting adjudication")]
    assert len(disputed) == len(queue) and (disputed["status"] == "unresolved").all()

    issued = _issue(study, home)
    assert issued["adjudication_batch"] == "adj-001" and issued["fields"] == len(queue)
    # The queue stored after issuing (from the consensus computed before) is the one a fresh
    # computation gives.
    with warehouse.connect(home.warehouse) as con:
        stored = warehouse.read_study_rows(con, "staging.adjudication_queue", study.name)
        fresh = refresh_queue(con, study)
    pd.testing.assert_frame_equal(
        stored.reset_index(drop=True), fresh.reset_index(drop=True), check_dtype=False
    )
    assert set(stored["state"]) == {"issued"}
    packet = adjudication_dir(home.outbox, study.name, "adj-001")
    with (packet / TEMPLATE).open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == list(TEMPLATE_COLUMNS) and len(rows) == len(queue)
    # Issued once: a second run issues nothing new.
    assert _issue(study, home)["adjudication_batch"] is None
    with warehouse.connect(home.warehouse) as con:
        assert set(refresh_queue(con, study)["state"]) == {"issued"}

    done = simulate_adjudication(study, home)
    assert done.adjudication_files == ["adj-001__adjudication.csv"]
    with warehouse.connect(home.warehouse) as con:
        results = ingest_inbox(study, home, con)
        assert [r.status for r in results] == ["accepted"]
        stored = con.execute(
            "SELECT count(*), count(DISTINCT rationale) FROM gold.adjudications WHERE study = ?",
            [study.name],
        ).fetchone()
        again = ingest_inbox(study, home, con)
    assert stored[0] == len(queue) and stored[1] > 1
    assert [r.status for r in again] == ["unchanged"]
    after = _consensus(study, home)
    decided = after.merge(queue[["task", "item_id", "field"]])
    assert (decided["status"] == "adjudicated").all()
    assert decided["value"].notna().all() and (decided["method"] == "adjudicator").all()
    with warehouse.connect(home.warehouse) as con:
        assert set(refresh_queue(con, study)["state"]) == {"decided"}


def test_a_bad_decisions_file_is_quarantined(loop_home) -> None:
    study, home = loop_home
    _issue(study, home)
    packet = adjudication_dir(home.outbox, study.name, "adj-001")
    frame = pd.read_csv(packet / TEMPLATE, dtype=str, keep_default_na=False)
    with warehouse.connect(home.warehouse) as con:
        key = read_adjudication_key(con, study.name)
    likert = key[key["field"] == "score"]["case_token"].iloc[0]
    frame["decision"] = ["9" if c == likert else "1" for c in frame["case"]]
    frame["rationale"] = "ok"
    frame["adjudicator_id"] = ""
    path = inbox_dir(home, study.name) / "bad.csv"
    path.parent.mkdir(parents=True)
    frame.to_csv(path, index=False)
    with warehouse.connect(home.warehouse) as con:
        result = ingest_decisions(study, path, home, con)
        stored = con.execute("SELECT count(*) FROM gold.adjudications").fetchone()[0]
        outcome = con.execute(
            "SELECT status, n_errors FROM staging.adjudication_files WHERE file = 'bad.csv'"
        ).fetchone()
        issues = con.execute(
            "SELECT DISTINCT rule FROM staging.adjudication_issues WHERE file = 'bad.csv'"
        ).fetchall()
    assert result.status == "rejected" and stored == 0 and outcome[0] == "rejected"
    assert {"range", "rationale", "required"} <= {r[0] for r in issues}
    folder = Path(result.report).parent
    assert folder.parent == home.quarantine / study.name / "adjudication"
    assert (folder / "bad.csv").is_file() and (folder / "issues.csv").is_file()
    report = json.loads((folder / "report.json").read_text())
    assert report["status"] == "rejected" and report["errors"] == outcome[1]
    assert (home.archive / study.name / f"{result.sha256}.csv").is_file()


def test_packets_are_blind(loop_home) -> None:
    study, home = loop_home
    _issue(study, home)
    packet = adjudication_dir(home.outbox, study.name, "adj-001")
    with warehouse.connect(home.warehouse) as con:
        generations = load_tables(con, study).decoded_generations()
    files = pd.DataFrame(
        {"file": [str((packet / n).relative_to(home.outbox)) for n in (TEMPLATE, REFERENCE)]}
    )
    problems, _ = verify_no_hidden_values(study, generations, files, home.outbox)
    assert problems == []
    text = (packet / TEMPLATE).read_text() + (packet / REFERENCE).read_text()
    for annotator in study.design.annotators:
        assert not re.search(rf"\b{annotator}\b", text)
    for word in ("condition", "model", "uncertainty", "secret-model"):
        assert word not in text
    entry = json.loads((packet / REFERENCE).read_text().splitlines()[0])
    assert set(entry["item"]) == set(study.tasks[entry["task"]].shown)
    assert [r["rater"] for r in entry["ratings"]] == [
        f"rater {k}" for k in range(1, len(entry["ratings"]) + 1)
    ]
    assert all("notes" in r and "confidence" in r for r in entry["ratings"])


def test_third_annotator_round_trip(tmp_path: Path) -> None:
    data = loop_study("mini3", tie_break="third_annotator")
    data["design"] = {**data["design"], "pilot": None}
    study, home = build_home(tmp_path, data)
    with warehouse.connect(home.warehouse) as con:
        queue = refresh_queue(con, study)
    third = queue[queue["route"] == "third_annotator"]
    assert len(third)
    issued = _issue(study, home)
    assert issued["tiebreak_batch"] == "extra-01"
    assert issued["tiebreak_items"] == third["item_id"].nunique()
    with warehouse.connect(home.warehouse, read_only=True) as con:
        key = warehouse.read_study_rows(con, "staging.blinding_key", study.name)
    tiebreak = key[key["round"] == "tiebreak"]
    assert len(tiebreak) == issued["tiebreak_items"]
    with warehouse.connect(home.warehouse) as con:
        again = sealed_tiebreak_rows(con, study, SECRET)
    assert sorted(again["token"]) == sorted(tiebreak["token"])  # what a re-seal must keep
    before = key[key["round"] != "tiebreak"]
    for item, annotator in zip(tiebreak["item_id"], tiebreak["annotator_id"], strict=True):
        assert annotator not in set(before.loc[before["item_id"] == item, "annotator_id"])
    # A normal packet: template and reference file in the annotator's folder.
    row = tiebreak.iloc[0]
    folder = home.outbox / study.name / row["annotator_id"] / "extra-01"
    # Nothing the third annotator receives says the item was disputed.
    for file in folder.iterdir():
        text = file.read_text(encoding="utf-8").lower()
        assert not any(w in text for w in ("tiebreak", "tie-break", "disput", "third"))
    assert any(p.name.endswith("_annotations.csv") for p in folder.iterdir())
    done = simulate_adjudication(study, home)
    assert len(done.third_annotator_files) == tiebreak.groupby(["annotator_id", "task"]).ngroups
    results = ingest_pending(study, home)
    assert {r.status for r in results if r.file in done.third_annotator_files} == {"accepted"}
    consensus = _consensus(study, home)
    broken = consensus.merge(third[["task", "item_id", "field"]])
    assert (broken["status"] == "tie_broken").sum() > 0
    # (a third annotator may skip a field; the items they rated are broken with 3 ratings)
    assert (broken.loc[broken["status"] == "tie_broken", "n_ratings"] >= 3).all()
    with warehouse.connect(home.warehouse) as con:
        after = refresh_queue(con, study)
    states = set(after.loc[after["route"] == "third_annotator", "state"])
    assert states <= {"tie_broken", "awaiting_rating"} and "tie_broken" in states


def test_rerun_replaces_a_studys_rows(loop_home) -> None:
    study, home = loop_home
    first = _consensus(study, home)
    second = _consensus(study, home)
    assert len(first) == len(second)
    con = duckdb.connect(str(home.warehouse), read_only=True)
    n = con.execute("SELECT count(*) FROM gold.consensus WHERE study = ?", [study.name]).fetchone()
    items = con.execute("SELECT count(*) FROM gold.items WHERE study = ?", [study.name]).fetchone()
    con.close()
    assert n[0] == len(second) and items[0] > 0


def test_cli(loop_home, monkeypatch, capsys) -> None:
    import argparse

    from raterlab.cli import adjudicate

    study, home = loop_home
    monkeypatch.setenv("RATERLAB_HOME", str(home.root))
    monkeypatch.setenv("RATERLAB_STUDIES", str(study.source.parent))
    parser = argparse.ArgumentParser()
    adjudicate.register(parser.add_subparsers(dest="command"))

    def run(*argv: str) -> int:
        args = parser.parse_args(["adjudicate", *argv])
        return args.func(args)

    assert run("queue", study.name) == 0
    assert "disputed field(s)" in capsys.readouterr().out
    assert run("issue", study.name) == 0
    assert "adj-001" in capsys.readouterr().out
    assert run("simulate", study.name) == 0
    assert run("ingest", study.name) == 0
    assert "accepted" in capsys.readouterr().out
    assert run("consensus", study.name) == 0
    out = capsys.readouterr().out
    assert "adjudicated" in out and "recovery of the planted truth" in out
    assert (home.root / "exports" / study.name / "parquet" / "consensus.parquet").is_file()


def test_a_drift_promotion_is_acted_on(tmp_path: Path) -> None:
    """A TRIAGE item promoted by the drift rule (gold.promotions) moves to GOLD, goes to a
    second annotator in the next packets, and reaches gold/*.jsonl once resolved."""
    from raterlab.exports.bundle import load_bundle
    from raterlab.exports.gold_tier import gold_tier_jsonl

    data = loop_study("mini4")
    data["design"] = {**data["design"], "pilot": None}
    study, home = build_home(tmp_path, data)
    with warehouse.connect(home.warehouse) as con:
        tables = load_tables(con, study)
        counts = tables.ratings.groupby("item_id")["annotator_id"].nunique()
        routed = tables.routed.set_index("item_id")
        single = [i for i in counts.index[counts == 1] if routed.at[i, "tier"] == "TRIAGE"][:3]
        promotions = pd.DataFrame(
            {
                "item_id": single,
                "task": [routed.at[i, "task"] for i in single],
                "tier": "TRIAGE",
                "to_tier": "GOLD",
                "week": "2026-W47",
                "reason": "spot-check drift",
            }
        )
        warehouse.replace_study_rows(con, "gold.promotions", study.name, promotions)
        queue = refresh_queue(con, study)
    promoted = queue[queue["item_id"].isin(single)]
    assert set(promoted["route"]) == {"third_annotator"} and set(promoted["state"]) == {"open"}
    assert set(promoted["reasons"]) >= {"promoted"}
    assert (promoted["tier"] == "GOLD").all()
    issued = _issue(study, home)
    assert issued["tiebreak_items"] >= len(single)
    pending = _consensus(study, home)
    waiting = pending[pending["item_id"].isin(single)]
    assert (waiting["status"] == "unresolved").all()  # one rating is not gold
    assert (waiting["reason"] == "promoted: awaiting its second annotator").all()
    simulate_adjudication(study, home)
    ingest_pending(study, home)
    with warehouse.connect(home.warehouse) as con:
        built = build_consensus(con, study)
        bundle = load_bundle(con, study)
        raters = con.execute(
            "SELECT item_id, count(DISTINCT annotator_id) FROM gold.ratings"
            " WHERE study = ? AND kind = 'item' GROUP BY item_id",
            [study.name],
        ).fetchall()
    items = built.items.set_index("item_id").loc[single]
    assert (items["tier"] == "GOLD").all()
    assert items["tier_rule"].str.startswith("promoted from TRIAGE in 2026-W47").all()
    # every promoted item got its second annotator (who may have skipped a field)
    assert {item: n for item, n in raters if item in single} == dict.fromkeys(single, 2)
    resolved = [i for i in single if items.at[i, "status"] == "resolved"]
    assert resolved
    gold_tier_jsonl(bundle, tmp_path / "out")
    shipped = {
        json.loads(line)["id"]
        for path in (tmp_path / "out" / "gold").glob("*.jsonl")
        for line in path.read_text().splitlines()
    }
    assert set(resolved) <= shipped and set(single) - set(resolved) <= set(single) - shipped


def test_a_revised_decision_keeps_the_old_one_in_history(loop_home) -> None:
    """A later decisions file on the same case replaces the decision; the replaced one stays
    in gold.adjudication_history with the file that replaced it."""
    study, home = loop_home
    _issue(study, home)
    simulate_adjudication(study, home)
    first = inbox_dir(home, study.name) / "adj-001__adjudication.csv"
    frame = pd.read_csv(first, dtype=str, keep_default_na=False)
    with warehouse.connect(home.warehouse) as con:
        assert [r.status for r in ingest_inbox(study, home, con)] == ["accepted"]
        before = con.execute(
            "SELECT count(*) FROM gold.adjudications WHERE study = ?", [study.name]
        ).fetchone()[0]
    revised = frame.iloc[[0]].assign(rationale="revised after discussion")
    path = inbox_dir(home, study.name) / "adj-001__revised.csv"
    revised.to_csv(path, index=False)
    with warehouse.connect(home.warehouse) as con:
        result = ingest_decisions(study, path, home, con)
        current = con.execute(
            "SELECT count(*), count(*) FILTER (rationale = 'revised after discussion')"
            " FROM gold.adjudications WHERE study = ?",
            [study.name],
        ).fetchone()
        history = con.execute(
            "SELECT rationale, source_file, replaced_by_file FROM gold.adjudication_history"
            " WHERE study = ?",
            [study.name],
        ).fetchall()
    assert result.status == "accepted"
    assert current == (before, 1)
    assert history == [(frame["rationale"].iloc[0], first.name, path.name)]
