"""The Dagster layer: the annotation job materializes a study on a temporary RATERLAB_HOME."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import dagster as dg
import duckdb
import pandas as pd

from raterlab.planning.study_precision import planned_precision
from raterlab.protocol import load_study
from tests.conftest import MINI_STUDY, REPO, mini_records, write_study


def _run_job(study: str) -> dg.ExecuteInProcessResult:
    from pipelines.definitions import defs
    from pipelines.demo import QUIET

    job = defs.resolve_job_def("annotation_job")
    return job.execute_in_process(
        partition_key=study,
        instance=dg.DagsterInstance.ephemeral(),
        run_config=QUIET,
        raise_on_error=False,
    )


def test_in_process_materialization_of_a_bundled_study(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("RATERLAB_HOME", str(tmp_path / "home"))
    result = _run_job("correctness_ab")
    # Nothing has come back yet: the pilot gate holds the main round back, without failing.
    assert result.success
    checks = {
        (e.asset_key.to_user_string(), e.check_name): e.passed
        for e in result.get_asset_check_evaluations()
    }
    assert checks[("pilot_agreement", "pilot_gate")] is False
    # Checks are partitioned: each evaluation belongs to the study it ran for.
    assert {e.partition for e in result.get_asset_check_evaluations()} == {"correctness_ab"}
    assert checks[("assignments", "assignment_matches_design")] is True
    assert checks[("pilot_packets", "packets_match_assignment")] is True
    assert checks[("pilot_packets", "no_hidden_values_in_packets")] is True
    assert checks[("labels", "no_rule_violations_in_labels")] is True
    materialized = {m.asset_key.to_user_string() for m in result.get_asset_materialization_events()}
    assert {
        "study_protocol",
        "raw_generations",
        "routed_items",
        "assignments",
        "blinding_key",
        "pilot_packets",
        "labels",
        "pilot_agreement",
        "agreement",
    } <= materialized
    assert "main_packets" not in materialized
    held = [
        e.event_specific_data.asset_observation.metadata["held_back"].value
        for e in result.all_events
        if e.event_type_value == "ASSET_OBSERVATION"
    ]
    assert held == ["pilot incomplete: 0 of 40 ratings returned"]
    assert {"consensus", "condition_comparison", "report"} <= materialized
    report = tmp_path / "home" / "reports" / "correctness_ab" / "index.html"
    assert "No consensus values to compare yet." in report.read_text(encoding="utf-8")
    con = duckdb.connect(str(tmp_path / "home" / "warehouse.duckdb"), read_only=True)
    n_items = con.execute("SELECT count(*) FROM raw.generations WHERE role = 'item'").fetchone()
    assert n_items == (100,)
    # The planned widths the report shows are written once, by the assignment step.
    stored = con.execute(
        "SELECT * FROM staging.planned_precision WHERE study = 'correctness_ab'"
    ).df()
    expected = planned_precision(load_study(REPO / "studies" / "correctness_ab.yaml"))
    pd.testing.assert_frame_equal(stored, expected, check_dtype=False)
    outbox = tmp_path / "home" / "outbox" / "correctness_ab"
    assert sorted(p.name for p in outbox.iterdir()) == ["ann_kim", "ann_ortiz"]
    assert (outbox / "ann_kim" / "pilot" / "ann_kim_annotations.csv").is_file()

    # Re-running replaces the study's rows instead of appending.
    _run_job("correctness_ab")
    again = con.execute("SELECT count(*) FROM raw.generations WHERE role = 'item'").fetchone()
    assert again == (100,)
    con.close()


def test_demo_runs_a_study_folder_and_reports(tmp_path: Path) -> None:
    studies = tmp_path / "studies"
    write_study(studies, MINI_STUDY, mini_records())
    env = {**os.environ, "RATERLAB_STUDIES": str(studies), "RATERLAB_HOME": str(tmp_path / "home")}
    out = subprocess.run(
        [sys.executable, "-m", "pipelines.demo"], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert "mini" in out.stdout and "Packets:" in out.stdout
    assert (tmp_path / "home" / "dagster" / "dagster.yaml").is_file()
    assert any((tmp_path / "home" / "outbox" / "mini").rglob("*_annotations.csv"))
