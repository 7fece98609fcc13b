"""Blinding: tokens, order, duplicates far apart, and packets that leak nothing."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from raterlab.design import assign, neutralise, read_generations, routed_items, seal, write_packets
from raterlab.design.blinding import token
from raterlab.design.verify import verify_no_hidden_values, verify_packets
from raterlab.protocol import parse_study
from tests.conftest import MINI_STUDY

SECRET = b"s" * 32


@pytest.fixture
def built(mini):
    generations = read_generations(mini)
    table = assign(mini, routed_items(mini, generations), generations)
    return generations, seal(mini, table, SECRET)


def test_tokens_are_opaque_and_unique(built) -> None:
    _, key = built
    assert key["token"].is_unique
    assert key["token"].str.fullmatch(r"[a-z2-7]{12}").all()
    for tok, item in zip(key["token"], key["item_id"], strict=True):
        assert item not in tok
    # The same item gets a different token per annotator and per duplicate copy.
    per_item = key.groupby("item_id")["token"].nunique()
    rows_per_item = key.groupby("item_id").size()
    assert (per_item == rows_per_item).all()
    # Without the secret, the token cannot be recomputed from the ids.
    row = key.iloc[0]
    parts = ("mini", row["annotator_id"], row["batch"], row["item_id"], row["copy"])
    assert token(SECRET, *parts) == row["token"]
    assert token(b"x" * 32, *parts) != row["token"]


def test_calibration_first_and_duplicates_far_apart(built) -> None:
    _, key = built
    for _, packet in key.groupby(["annotator_id", "batch"]):
        packet = packet.sort_values("position")
        kinds = packet["kind"].tolist()
        n_cal = kinds.count("calibration")
        assert kinds[:n_cal] == ["calibration"] * n_cal
        assert packet["position"].tolist() == list(range(1, len(packet) + 1))
        body = len(packet) - n_cal - int((packet["copy"] == 1).sum())
        for item_id in packet.loc[packet["copy"] == 1, "item_id"]:
            places = packet.loc[packet["item_id"] == item_id, "position"].to_numpy()
            assert abs(places[0] - places[1]) >= (body + 1) // 2 - 1


def test_order_is_not_correlated_with_condition(mini) -> None:
    """Across packets, position does not predict condition (A/B) or prompt order."""
    generations = read_generations(mini)
    table = assign(mini, routed_items(mini, generations), generations)
    key = seal(mini, table, SECRET)
    records = dict(zip(generations["item_id"], generations["record"], strict=True))
    key = key[(key["kind"] == "item") & (key["task"] == "answer")]
    condition = key["item_id"].map(lambda i: records[i]["condition"] == "A").astype(float)
    rho, p = stats.spearmanr(key["position"], condition)
    assert p > 0.01, (rho, p)
    number = key["item_id"].str.slice(4).astype(int)
    taus = [
        stats.kendalltau(g["position"], number[g.index]).statistic
        for _, g in key.groupby(["annotator_id", "batch"])
        if len(g) > 5
    ]
    assert abs(np.mean(taus)) < 0.2  # the source order is not preserved


def test_same_seed_same_packets_other_seed_other_order(mini, tmp_path: Path) -> None:
    generations = read_generations(mini)

    def build(study, folder):
        table = assign(study, routed_items(study, generations), generations)
        write_packets(study, seal(study, table, SECRET), generations, folder)
        return {
            p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
        }

    first, second = build(mini, tmp_path / "a"), build(mini, tmp_path / "b")
    assert first == second
    reseeded = parse_study({**MINI_STUDY, "design": {**MINI_STUDY["design"], "seed": 99}})
    reseeded = reseeded.model_copy(update={"source": mini.source})
    assert build(reseeded, tmp_path / "c") != first


def test_packet_files(mini, built, tmp_path: Path) -> None:
    generations, key = built
    files = write_packets(mini, key, generations, tmp_path)
    folder = tmp_path / "mini" / "a1" / "pilot"
    assert sorted(p.name for p in folder.iterdir()) == [
        "INSTRUCTIONS.md",
        "a1_answer_annotations.csv",
        "a1_check_annotations.csv",
        "a1_reference.jsonl",
        "guide.md",
        "packet.json",
    ]
    with (folder / "a1_answer_annotations.csv").open() as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["annotator_id", "item", "score", "confidence", "notes", "time_spent_s"]
    assert all(r[0] == "a1" and r[2:] == ["", "", "", ""] for r in rows[1:])
    reference = [
        json.loads(line) for line in (folder / "a1_reference.jsonl").read_text().splitlines()
    ]
    assert set(reference[0]) <= {
        "item",
        "position",
        "task",
        "prompt",
        "response",
        "category",
        "query",
        "chunk",
    }
    tokens = {r[1] for r in rows[1:]}
    assert tokens <= {r["item"] for r in reference}
    manifest = json.loads((folder / "packet.json").read_text())
    assert manifest["annotator_id"] == "a1" and manifest["batch"] == "pilot"
    assert verify_packets(key, files, tmp_path)[0] == []
    assert verify_no_hidden_values(mini, generations, files, tmp_path)[0] == []


def test_leak_and_misplaced_rows_are_caught(mini, built, tmp_path: Path) -> None:
    generations, key = built
    files = write_packets(mini, key, generations, tmp_path)
    reference = tmp_path / "mini" / "a2" / "main-01" / "a2_reference.jsonl"
    lines = reference.read_text().splitlines()
    leaked = json.loads(lines[0]) | {"model": "secret-model-1"}
    reference.write_text("\n".join([json.dumps(leaked), *lines[1:]]) + "\n")
    problems, _ = verify_no_hidden_values(mini, generations, files, tmp_path)
    assert "mini/a2/main-01/a2_reference.jsonl holds hidden value 'secret-model-1'" in problems
    assert "mini/a2/main-01/a2_reference.jsonl:1 holds hidden key(s) ['model']" in problems

    template = tmp_path / "mini" / "a1" / "pilot" / "a1_answer_annotations.csv"
    rows = template.read_text().splitlines()
    template.write_text("\n".join(rows[:-1]) + "\n")
    problems, _ = verify_packets(key, files, tmp_path)
    assert problems == ["1 assigned row(s) are in no packet"]


@pytest.mark.parametrize(
    ("cell", "safe"),
    [
        ('=HYPERLINK("x")', '\'=HYPERLINK("x")'),
        ("+1", "'+1"),
        ("-2", "'-2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("a1", "a1"),
        (None, ""),
    ],
)
def test_spreadsheet_formulas_are_neutralised(cell, safe) -> None:
    assert neutralise(cell) == safe


def test_sealed_key_has_the_declared_columns(built) -> None:
    from raterlab.design.blinding import KEY_COLUMNS

    _, key = built
    assert tuple(key.columns) == KEY_COLUMNS


def test_a_hidden_value_that_is_also_shown_is_still_found_outside_shown_text(
    mini, built, tmp_path: Path
) -> None:
    """A hidden value equal to shown text (here: a hidden ``model`` that an item also shows)
    is not skipped: it is found where it is not part of what an item shows."""
    generations, key = built
    generations = generations.copy()
    generations["record"] = [
        {**r, "prompt": f"{r['prompt']} ({r['model']})"} if "prompt" in r else r
        for r in generations["record"]
    ]
    files = write_packets(mini, key, generations, tmp_path)
    assert verify_no_hidden_values(mini, generations, files, tmp_path)[0] == []
    template = tmp_path / "mini" / "a1" / "pilot" / "a1_answer_annotations.csv"
    template.write_text(template.read_text().replace("\n", ",secret-model-1\n", 1))
    problems, _ = verify_no_hidden_values(mini, generations, files, tmp_path)
    assert problems == [
        "mini/a1/pilot/a1_answer_annotations.csv holds hidden value 'secret-model-1'"
    ]


def test_a_leaked_id_next_to_another_word_is_found(mini, built, tmp_path: Path) -> None:
    """A source item id glued to other text in a packet file (no space or quote around it)
    is a leak."""
    generations, key = built
    files = write_packets(mini, key, generations, tmp_path)
    assert verify_no_hidden_values(mini, generations, files, tmp_path)[0] == []
    item_id = str(generations["item_id"].iloc[0])
    template = tmp_path / "mini" / "a1" / "pilot" / "a1_answer_annotations.csv"
    template.write_text(template.read_text().replace("\n", f",see{item_id}x\n", 1))
    problems, _ = verify_no_hidden_values(mini, generations, files, tmp_path)
    assert problems == [f"mini/a1/pilot/a1_answer_annotations.csv holds hidden value {item_id!r}"]


@pytest.mark.parametrize(
    "name",
    ["correctness_ab", "empathy", "gold_tiers", "pairwise_arena", "plugin_triggers", "rag_triplet"],
)
def test_the_scan_reads_only_the_hidden_record_keys(name: str) -> None:
    """The leak check decodes each record for :func:`hidden_record_keys` alone: the values
    it searches for, in and out of the guide, are those of whole records."""
    from raterlab.design.verify import _values_of, hidden_needles, hidden_record_keys
    from raterlab.protocol import load_study
    from raterlab.settings import studies_dir

    study = load_study(studies_dir() / f"{name}.yaml")
    whole = read_generations(study)
    keys = hidden_record_keys(study)
    slim = whole.assign(record=[{k: r[k] for k in keys if k in r} for r in whole["record"]])
    assert hidden_needles(study, slim) == hidden_needles(study, whole)
    assert hidden_needles(study, whole) - {str(i) for i in whole["item_id"]}
    guide = study.packet.guide_may_name
    assert _values_of(study, slim, guide) == _values_of(study, whole, guide)


def test_packets_from_stored_records_equal_those_from_decoded_ones(mini, built, tmp_path) -> None:
    """The packets step passes the records as stored (JSON text), decoded a row at a time."""
    generations, key = built
    decoded = write_packets(mini, key, generations, tmp_path / "decoded")
    text = generations.assign(
        record=[json.dumps(r, ensure_ascii=False) for r in generations["record"]]
    )
    stored = write_packets(mini, key, text, tmp_path / "stored")
    pd.testing.assert_frame_equal(stored, decoded)
    assert (decoded["kind"] == "reference").any()


def test_an_id_inside_a_token_is_chance_not_a_leak(mini, built, tmp_path: Path) -> None:
    """A token is random base32 text: a short item id inside one (``att3`` in
    ``2njf7att3qon``) is no leak when the scan knows the tokens; the same id glued into any
    other word still is."""
    generations, key = built
    files = write_packets(mini, key, generations, tmp_path)
    template = tmp_path / "mini" / "a1" / "pilot" / "a1_answer_annotations.csv"
    token = next(csv.reader(template.read_text().splitlines()[1:2]))[1]
    inside = token[3:8]  # an "item id" that this token holds by chance
    generations = pd.concat(
        [generations, generations.iloc[[0]].assign(item_id=inside)], ignore_index=True
    )
    is_token = set(key["token"]).__contains__
    assert verify_no_hidden_values(mini, generations, files, tmp_path, is_token)[0] == []
    problems, _ = verify_no_hidden_values(mini, generations, files, tmp_path)
    assert f"mini/a1/pilot/a1_answer_annotations.csv holds hidden value {inside!r}" in problems
    word = f"q{inside}zzzzzz"  # twelve token characters, not a token
    assert len(word) == 12 and not is_token(word)
    template.write_text(template.read_text().replace("\n", f",{word}\n", 1))
    problems, _ = verify_no_hidden_values(mini, generations, files, tmp_path, is_token)
    assert problems == [f"mini/a1/pilot/a1_answer_annotations.csv holds hidden value {inside!r}"]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("x,abcdatt3qonz,y", True),  # the whole 12-character run is a token
        ("x,abcdatt3qonzz,y", False),  # 13 token characters: not a token
        ("x,bcdatt3qonz,y", False),  # 11
        ("x,abcdatt3qonz", True),  # at the end of the text
        ("abcdatt3qonz,", True),  # at the start
    ],
)
def test_inside_token_needs_exactly_a_known_token(text: str, found: bool) -> None:
    from raterlab.design.verify import inside_token

    start = text.index("att3")
    assert inside_token(text, start, start + 3, {"abcdatt3qonz"}.__contains__) is found


def test_a_sealed_token_is_looked_up_in_its_study_key(built) -> None:
    """What the packet check asks of the warehouse for a word a needle was found in."""
    import duckdb

    from raterlab.design.blinding import is_sealed_token

    _, key = built
    con = duckdb.connect()
    con.execute("CREATE SCHEMA staging")
    con.execute("CREATE TABLE staging.blinding_key AS SELECT 'mini' AS study, * FROM key")
    first = str(key["token"].iloc[0])
    assert is_sealed_token(con, "mini", first)
    assert not is_sealed_token(con, "other", first)
    assert not is_sealed_token(con, "mini", "abcdefghijkl")
