"""Steps skip their work when what they read did not change (``raterlab.memo``), and only
then: a changed input, a changed code version or a missing packet file makes them compute."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import dagster as dg
import duckdb
import pandas as pd
import pytest

from raterlab import memo, warehouse
from tests.conftest import STUDIES

STUDY = "correctness_ab"
DESIGN_STEPS = ("raw_generations", "routed_items", "assignments", "blinding_key")
PACKET_CHECKS = ("packets_match_assignment", "no_hidden_values_in_packets")


def test_a_fingerprint_ignores_row_order_and_sees_every_value() -> None:
    frame = pd.DataFrame({"a": ["x", "y", "z"], "b": [1.0, 2.0, None], "c": [{"k": 1}, [1], None]})
    same = memo.fingerprint("s", frame)
    assert memo.fingerprint("s", frame.iloc[::-1]) == same
    assert memo.fingerprint("s", frame.assign(b=[1.0, 2.0, 3.0])) != same
    assert memo.fingerprint("s", frame.assign(c=[{"k": 2}, [1], None])) != same
    assert memo.fingerprint("s", frame.rename(columns={"a": "d"})) != same
    assert memo.fingerprint("s", frame.iloc[:2]) != same
    assert memo.fingerprint("ab", "c") != memo.fingerprint("a", "bc")
    assert memo.fingerprint(None) != memo.fingerprint("") != memo.fingerprint(b"")


def test_the_code_version_changes_with_any_source_file(tmp_path: Path, monkeypatch) -> None:
    for folder in memo.CODE_FOLDERS:
        (tmp_path / folder / "sub").mkdir(parents=True)
        (tmp_path / folder / "sub" / "m.py").write_text("x = 1\n")
    monkeypatch.setattr(memo, "PACKAGE_ROOT", tmp_path)
    before = memo.code_version.__wrapped__()
    (tmp_path / "assets" / "sub" / "m.py").write_text("x = 2\n")
    assert memo.code_version.__wrapped__() != before


def test_a_failed_write_keeps_the_tables_and_the_record_it_found(tmp_path: Path) -> None:
    with warehouse.connect(tmp_path / "w.duckdb") as con:
        rows = pd.DataFrame({"step_name": ["a"]})
        memo.write_tables(con, "s", {"staging.anything": rows}, "step", "first")
        bad = {"staging.anything": rows.assign(step_name="b"), "raw.generations": rows}
        with pytest.raises(ValueError, match="not declared"):
            memo.write_tables(con, "s", bad, "step", "second")
        assert memo.recorded(con, "s", "step") == "first"
        assert con.sql("SELECT step_name FROM staging.anything").fetchall() == [("a",)]


def _run() -> dg.ExecuteInProcessResult:
    from pipelines.definitions import defs
    from pipelines.demo import QUIET

    return defs.resolve_job_def("packets_job").execute_in_process(
        partition_key=STUDY,
        instance=dg.DagsterInstance.ephemeral(),
        run_config=QUIET,
        raise_on_error=True,
    )


def _run_checks() -> dg.ExecuteInProcessResult:
    """The pilot packets' checks alone (the asset not re-run: a file edited by hand stays)."""
    from pipelines.definitions import defs
    from pipelines.demo import QUIET

    return defs.resolve_job_def("packets_job").execute_in_process(
        partition_key=STUDY,
        instance=dg.DagsterInstance.ephemeral(),
        run_config=QUIET,
        op_selection=[f"pilot_packets_{name}" for name in PACKET_CHECKS],
        raise_on_error=False,
    )


def _skipped(result: dg.ExecuteInProcessResult) -> set[str]:
    events = [e.materialization for e in result.get_asset_materialization_events()]
    return {m.asset_key.to_user_string() for m in events if "unchanged" in m.metadata}


def _checks_passed_before(result: dg.ExecuteInProcessResult) -> set[str]:
    return {
        e.check_name
        for e in result.get_asset_check_evaluations()
        if e.asset_key.to_user_string() == "pilot_packets" and "unchanged" in e.metadata
    }


def _table(home: Path, table: str) -> list[tuple]:
    with duckdb.connect(str(home / "warehouse.duckdb"), read_only=True) as con:
        return con.sql(f"SELECT * EXCLUDE (study) FROM {table} ORDER BY ALL").fetchall()


def test_design_steps_skip_an_unchanged_study_and_redo_a_changed_one(
    tmp_path: Path, monkeypatch
) -> None:
    home, studies = tmp_path / "home", tmp_path / "studies"
    shutil.copytree(STUDIES, studies)
    monkeypatch.setenv("RATERLAB_HOME", str(home))
    monkeypatch.setenv("RATERLAB_STUDIES", str(studies))
    first = _run()
    assert _skipped(first) == set()
    key, packet_files = (
        _table(home, "staging.blinding_key"),
        _table(home, "staging.pilot_packet_files"),
    )

    assert _checks_passed_before(first) == set()
    again = _run()
    assert _skipped(again) == {*DESIGN_STEPS, "pilot_packets"}
    assert _checks_passed_before(again) == set(PACKET_CHECKS)
    assert _table(home, "staging.blinding_key") == key
    assert _table(home, "staging.pilot_packet_files") == packet_files

    # A packet file that went missing is written again, with the same content.
    packet = next((home / "outbox" / STUDY).rglob("*_annotations.csv"))
    content = packet.read_bytes()
    packet.unlink()
    restored = _run()
    assert _skipped(restored) == set(DESIGN_STEPS)
    assert _checks_passed_before(restored) == set(PACKET_CHECKS)

    # A hidden value written into a packet by hand: the checks read the files again.
    packet.write_bytes(content + b"p001-A\n")
    tampered = _run_checks()
    leaks = {e.check_name: e for e in tampered.get_asset_check_evaluations()}
    assert leaks["no_hidden_values_in_packets"].passed is False
    assert "unchanged" not in leaks["packets_match_assignment"].metadata
    packet.write_bytes(content)
    assert hashlib.sha256(packet.read_bytes()).digest() == hashlib.sha256(content).digest()

    # A blank line added to the generations file: the file is read again, nothing else.
    generations = studies / STUDY / "generations.jsonl"
    text = generations.read_text(encoding="utf-8")
    generations.write_text(text + "\n", encoding="utf-8")
    assert _skipped(_run()) == {*DESIGN_STEPS[1:], "pilot_packets"}

    # One item's response changed: what reads the generations computes again; the sealed key
    # (from the assignments alone, which came out the same) does not.
    generations.write_text(text.replace("Two separate questions", "Two questions", 1))
    assert _skipped(_run()) == {"blinding_key"}
    assert _table(home, "staging.blinding_key") == key
    assert _table(home, "staging.pilot_packet_files") != packet_files
