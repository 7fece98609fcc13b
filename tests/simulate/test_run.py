"""Simulating a study's outbox: files, determinism, validity, planted tables, re-runs."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.cli import main
from raterlab.simulate import SimulationError, simulate, simulations_dir
from raterlab.simulate.run import SIM_FILES_COLUMNS, _planted_chunks
from tests.simulate.conftest import (
    WIDGET_STUDY,
    build_outbox,
    widget_records,
)
from tests.simulate.validate import row_problems


def _snapshot(home, study) -> dict[str, bytes]:
    files = {p.name: p.read_bytes() for p in (home.inbox / study.name).iterdir()}
    files["planted.json"] = (simulations_dir(home, study.name) / "planted.json").read_bytes()
    return files


def _tables(home, study) -> dict[str, pd.DataFrame]:
    with warehouse.connect(home.warehouse, read_only=True) as con:
        return {
            t: warehouse.read_study_rows(con, f"staging.{t}", study.name)
            for t in ("sim_truth", "sim_profiles", "sim_files")
        }


def _templates(home, study) -> dict[str, Path]:
    """Inbox name -> template path, for every template in the outbox."""
    out = {}
    for path in (home.outbox / study.name).glob("*/*/*_annotations.csv"):
        annotator, batch = path.parts[-3], path.parts[-2]
        out[f"{annotator}__{batch}__{path.name}"] = path
    return out


def _tokens(path: Path) -> list[str]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return [row["item"] for row in csv.DictReader(handle) if row["item"]]


def test_same_seed_same_bytes_other_seed_differs(outbox) -> None:
    study, home, _, _ = outbox
    simulate(study, home, seed=3)
    first = _snapshot(home, study)
    simulate(study, home, seed=3, clean=True)
    assert _snapshot(home, study) == first
    simulate(study, home, seed=4, clean=True)
    other = _snapshot(home, study)
    assert other.keys() == first.keys()
    differing = [name for name in first if first[name] != other[name]]
    assert len(differing) >= len(first) - 2


def test_every_template_row_is_filled_and_clean_files_validate(outbox) -> None:
    study, home, key, _ = outbox
    summary = simulate(study, home)
    templates = _templates(home, study)
    assert set(summary.written["file"]) == set(templates)
    files = summary.written.set_index("file")
    for name, template in templates.items():
        mistakes = json.loads(files.at[name, "mistakes"])
        returned = home.inbox / study.name / name
        frame = pd.read_csv(returned, dtype=str, keep_default_na=False, encoding="utf-8-sig")
        frame = frame[frame["item"] != ""]
        task = study.tasks[key.loc[key["token"] == _tokens(template)[0], "task"].iloc[0]]
        if mistakes:
            clean_path = home.root / files.at[name, "corrected"]
            frame = pd.read_csv(clean_path, dtype=str, keep_default_na=False, encoding="utf-8-sig")
            frame = frame[frame["item"] != ""]
        assert frame["item"].tolist() == _tokens(template), name
        for row in frame.to_dict(orient="records"):
            assert row_problems(task, row) == [], (name, row)


def test_planted_mistakes_are_recorded_and_really_in_the_files(tmp_path: Path) -> None:
    study, home, key, _ = build_outbox(tmp_path, WIDGET_STUDY, widget_records(90))
    simulate(study, home)
    files = _tables(home, study)["sim_files"]
    assert list(files.columns) == list(SIM_FILES_COLUMNS)
    templates = _templates(home, study)
    planted = files[files["mistakes"] != "[]"]
    assert 1 <= len(planted) <= 3
    # never every file of an annotator, at most one file per annotator
    assert planted["annotator_id"].is_unique
    per_annotator = files.groupby("annotator_id").size()
    assert (per_annotator[planted["annotator_id"]] > 1).all()
    task = study.tasks["scenario"]
    for row in planted.itertuples():
        (mistake,) = json.loads(row.mistakes)
        path = home.inbox / study.name / row.file
        frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")
        frame = frame[frame["item"] != ""].reset_index(drop=True)
        tokens = _tokens(templates[row.file])
        if mistake["kind"] == "missing_row":
            assert len(frame) == len(tokens) - 1 == row.n_rows
            assert mistake["value"] in tokens and mistake["value"] not in set(frame["item"])
            continue
        cells = frame.iloc[mistake["row"] - 2].to_dict()  # the header is row 1
        if mistake["kind"] == "token_altered":
            assert cells["item"] == mistake["value"] != mistake["original"]
            assert mistake["value"] not in set(key["token"])
            changed = [a != b for a, b in zip(mistake["value"], mistake["original"], strict=True)]
            assert sum(changed) == 1
        else:
            assert str(cells[mistake["column"]]).removesuffix(".0") == str(mistake["value"])
            assert row_problems(task, cells) != []


@pytest.mark.parametrize("kind", ["missing_note", "out_of_range", "token_altered", "missing_row"])
def test_each_kind_of_mistake_can_be_planted(kind: str) -> None:
    import numpy as np

    from raterlab.protocol import parse_study
    from raterlab.simulate.variants import plant_mistake

    study = parse_study(json.loads(json.dumps(WIDGET_STUDY)))
    base = {
        "annotator_id": "w1",
        "trigger": "yes",
        "observed_component": "",
        "code_parses": 1,
        "code_runs": 1,
        "code_issues": "",
        "completeness": 4,
        "missing_elements": "",
        "confidence": "high",
        "skip_reason": "",
        "time_spent_s": 40,
    }
    rows = [{**base, "item": f"tok{i:09d}"} for i in range(5)]
    out, record = plant_mistake(
        study, "scenario", kind, rows, ["item"] * 5, np.random.default_rng(1)
    )
    assert record["kind"] == kind
    if kind == "missing_row":
        assert len(out) == 4
    else:
        task = study.tasks["scenario"]
        broken = out[record["row"] - 2]
        assert broken != rows[record["row"] - 2]
        if kind != "token_altered":
            assert row_problems(task, {k: str(v) for k, v in broken.items()}) != []


def test_variant_files_stay_valid_and_parse_with_pandas(tmp_path: Path) -> None:
    study, home, _, _ = build_outbox(tmp_path)
    summary = simulate(study, home, seed=1)
    files = summary.written
    seen = set()
    for row in files.itertuples():
        variants = json.loads(row.variants)
        seen.update(variants)
        data = (home.inbox / study.name / row.file).read_bytes()
        assert data.startswith(b"\xef\xbb\xbf") == ("bom" in variants)
        assert (b"\r\n" in data) == ("crlf" in variants)
        frame = pd.read_csv(home.inbox / study.name / row.file, encoding="utf-8-sig")
        assert {"annotator_id", "item", "time_spent_s"} <= set(frame.columns)
        if "extra_blank_column" in variants:
            assert any(c.startswith("Unnamed") for c in frame.columns)
        if "trailing_empty_row" in variants:
            assert frame.iloc[-1].isna().all()
        if "likert_float" in variants:
            assert b".0," in data
        if json.loads(row.mistakes) == []:
            task = study.tasks[row.task]
            text = pd.read_csv(
                home.inbox / study.name / row.file,
                dtype=str,
                keep_default_na=False,
                encoding="utf-8-sig",
            )
            for cells in text[text["item"] != ""].to_dict(orient="records"):
                assert row_problems(task, cells) == []
    assert len(seen) >= 4
    assert 0 < (files["variants"] != "[]").sum() < len(files)


def test_planted_tables_and_json_agree(outbox) -> None:
    study, home, key, generations = outbox
    simulate(study, home)
    tables = _tables(home, study)
    truth, profiles, files = tables["sim_truth"], tables["sim_profiles"], tables["sim_files"]
    assert list(truth.columns) == [
        "item_id",
        "task",
        "role",
        "field",
        "value",
        "value_num",
        "source",
    ]
    rating_fields = {t: len(s.rating_fields) for t, s in study.tasks.items()}
    assert len(truth) == sum(rating_fields[t] for t in generations["task"])
    assert list(profiles.columns) == ["annotator_id", "profile", "parameters"]
    assert dict(zip(profiles["annotator_id"], profiles["profile"], strict=True)) == {
        "a1": "good",
        "a2": "good",
        "a3": "lenient",
        "a4": "rushed",
        "a5": "inconsistent",
        "a6": "severe",
    }
    assert json.loads(profiles["parameters"].iloc[0])["likert_sd"] > 0
    text = (simulations_dir(home, study.name) / "planted.json").read_text(encoding="utf-8")
    document = json.loads(text)
    # Written a truth row at a time, the text is what one json.dumps of it makes.
    assert text == json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    assert list(document)[-1] == "truth"
    assert [f["file"] for f in document["files"]] == files["file"].tolist()
    assert len(document["truth"]) == len(truth)
    assert document["effects"]["answer"]["condition"] == {"A": 0.25, "B": -0.25}
    assert [p["profile"] for p in document["profiles"]] == profiles["profile"].tolist()
    assert files["n_rows"].sum() == len(key) - sum(
        m["kind"] == "missing_row" for ms in files["mistakes"] for m in json.loads(ms)
    )


def test_rounds_fill_only_what_is_not_returned_yet(outbox, tmp_path: Path) -> None:
    study, home, _, _ = outbox
    pilot = simulate(study, home, round="pilot")
    assert set(pilot.written["round"]) == {"pilot"}
    main_round = simulate(study, home, round="main")
    assert set(main_round.written["round"]) == {"main"}
    assert main_round.already_returned == 0
    planted = simulations_dir(home, study.name) / "planted.json"
    before = planted.stat().st_mtime_ns
    again = simulate(study, home)
    assert again.written.empty and again.already_returned == len(pilot.written) + len(
        main_round.written
    )
    # Nothing left to fill: nothing drawn or written again.
    assert planted.stat().st_mtime_ns == before
    assert again.truth_rows == main_round.truth_rows
    assert again.profiles == main_round.profiles
    stepwise = _snapshot(home, study)
    # The same as simulating everything at once.
    study2, home2, _, _ = build_outbox(tmp_path / "again")
    simulate(study2, home2)
    assert _snapshot(home2, study2) == stepwise
    files = _tables(home, study)["sim_files"]
    assert len(files) == len(pilot.written) + len(main_round.written)


def test_a_file_already_in_the_inbox_is_left_alone(outbox) -> None:
    study, home, _, _ = outbox
    inbox = home.inbox / study.name
    inbox.mkdir(parents=True)
    mine = inbox / "a1__pilot__a1_answer_annotations.csv"
    mine.write_text("returned by hand\n")
    summary = simulate(study, home)
    assert summary.already_returned == 1
    assert mine.read_text() == "returned by hand\n"
    simulate(study, home, clean=True)
    assert mine.read_text() != "returned by hand\n"


def test_mixed_seeds_are_refused_and_missing_key_is_explained(outbox, tmp_path: Path) -> None:
    study, home, _, _ = outbox
    simulate(study, home, round="pilot", seed=1)
    with pytest.raises(SimulationError, match="--seed 1"):
        simulate(study, home, round="main", seed=2)
    from raterlab.settings import Home

    with pytest.raises(SimulationError, match="annotation job"):
        simulate(study, Home(tmp_path / "empty"))


def test_cli_simulates_and_summarises(outbox, monkeypatch, capsys) -> None:
    study, home, _, _ = outbox
    monkeypatch.setenv("RATERLAB_HOME", str(home.root))
    monkeypatch.setenv("RATERLAB_STUDIES", str(study.source.parent))
    assert main(["simulate", "mini", "--round", "pilot", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "file(s) written" in out and "a4 rushed" in out and "mistakes" in out
    assert main(["simulate", "mini", "--seed", "6"]) == 1
    assert "--seed 5" in capsys.readouterr().out
    assert main(["simulate", "mini", "--seed", "6", "--clean"]) == 0
    assert main(["simulate", "nope"]) == 2


@pytest.mark.parametrize(
    "truth",
    [
        [],
        [{"item_id": "i1", "value": "é", "source": {"nested": [1, 2]}}, {"item_id": "i2"}],
        [{"item_id": f"i{i}", "value": i} for i in range(20_001)],  # three batches
    ],
)
def test_planted_text_is_one_json_dump(truth: list[dict]) -> None:
    document = {"study": "s", "files": [{"file": "f.csv", "mistakes": []}], "hints": {}}
    text = b"".join(_planted_chunks(document, iter(truth))).decode("utf-8")
    expected = {**document, "truth": truth}
    assert text == json.dumps(expected, indent=1, ensure_ascii=False) + "\n"


@pytest.mark.parametrize(
    "name",
    ["correctness_ab", "empathy", "gold_tiers", "pairwise_arena", "plugin_triggers", "rag_triplet"],
)
def test_the_truth_is_drawn_alike_from_records_without_their_unread_shown_keys(name: str) -> None:
    """The simulator keeps of each record what the truth reads and the length of what the item
    shows: the truth and the lengths are those of whole records."""
    from raterlab.design import read_generations
    from raterlab.design.generations import JSON_COLUMNS
    from raterlab.protocol import load_study
    from raterlab.settings import studies_dir
    from raterlab.simulate.run import _decoded, _shown_keys
    from raterlab.simulate.truth import draw_truth

    study = load_study(studies_dir() / f"{name}.yaml")
    whole = read_generations(study)
    stored = whole.assign(
        **{c: [None if v is None else json.dumps(v) for v in whole[c]] for c in JSON_COLUMNS}
    )
    slim, lengths = _decoded(study, stored)
    assert sum(map(len, slim["record"])) < sum(map(len, whole["record"]))
    seed = (study.design.seed, 0)
    assert draw_truth(study, slim, seed) == draw_truth(study, whole, seed)
    assert lengths == {
        str(i): sum(len(str(r.get(k, ""))) for k in _shown_keys(study.tasks[t]))
        for i, t, r in zip(whole["item_id"], whole["task"], whole["record"], strict=True)
    }
