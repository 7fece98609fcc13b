"""The cheap test of the steps after the ratings (``StudyStep.warehouse_unchanged``): a run
that finds the study's tables as they were skips them, a changed table or a missing
output makes them compute again, and two steps that read each other's tables settle."""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
import pandas as pd
import yaml

import assets as asset_package
from assets.study_asset import later_tables
from raterlab import memo, warehouse
from resources import Raterlab
from tests.conftest import STUDIES
from tests.consensus.conftest import build_home

FAST = (
    "agreement",
    "pilot_agreement",
    "rater_quality",
    "consensus",
    "judge_calibration",
    "judge_substitution",
    "judge_robustness",
    "judge_verdicts",
    "condition_comparison",
    "system_metrics",
    "report",
    "exports",
)
"""The assets that take the cheap test first."""


def _tables(con) -> None:
    con.execute("CREATE TABLE gold.t (study VARCHAR, a INTEGER, computed_at TIMESTAMPTZ)")
    con.execute("CREATE TABLE staging.u (study VARCHAR, b VARCHAR)")
    con.execute("CREATE TABLE gold.no_study (a INTEGER)")


def test_the_digest_sees_every_row_of_the_study_and_nothing_else(tmp_path: Path) -> None:
    with warehouse.connect(tmp_path / "w.duckdb") as con:
        _tables(con)
        con.execute("INSERT INTO gold.t VALUES ('s', 1, now()), ('s', 2, now()), ('o', 9, now())")
        con.execute("INSERT INTO staging.u VALUES ('s', 'x')")
        first = memo.study_digest(con, "s", ())
        assert [line.split()[:2] for line in first.splitlines()] == [
            ["gold.t", "2"],
            ["staging.u", "1"],
        ]
        con.execute("DELETE FROM gold.t WHERE study = 's'")
        con.execute("INSERT INTO gold.t VALUES ('s', 2, now()), ('s', 1, now())")
        assert memo.study_digest(con, "s", ()) == first, "row order and write times are not read"
        con.execute("UPDATE gold.t SET a = 9 WHERE study = 'o'")
        con.execute("INSERT INTO gold.no_study VALUES (1)")
        assert memo.study_digest(con, "s", ()) == first, "other studies' rows are not read"
        con.execute("UPDATE gold.t SET a = 3 WHERE study = 's' AND a = 2")
        changed = memo.study_digest(con, "s", ())
        assert changed != first
        without_u = memo.study_digest(con, "s", ("staging.u",))
        assert "staging.u" not in without_u
        con.execute("UPDATE staging.u SET b = 'y'")
        assert memo.study_digest(con, "s", ()) != changed
        assert memo.study_digest(con, "s", ("staging.u",)) == without_u, "a table left out"
        memo.remember(con, "s", "step", "inputs")
        assert "staging.step_inputs" not in memo.study_digest(con, "s", ())


def test_the_tables_after_an_asset_are_its_own_and_those_of_every_asset_after_it() -> None:
    assert later_tables("judge_calibration") == {
        "gold.judge_calibration",
        "gold.judge_weights",
        "gold.judge_verdicts",
    }
    after_consensus = later_tables("consensus")
    assert {"gold.consensus", "gold.judge_verdicts", "gold.metrics"} <= after_consensus
    assert not {"gold.ratings", "gold.rater_quality", "gold.agreement"} & after_consensus
    assert later_tables("report") == set()


def _run(resource: Raterlab, instance: dg.DagsterInstance) -> dict[str, dict]:
    result = dg.materialize(
        dg.load_assets_from_package_module(asset_package),
        partition_key="gold_tiers",
        resources={"raterlab": resource},
        instance=instance,
    )
    return {
        e.asset_key.to_user_string(): e.materialization.metadata
        for e in result.get_asset_materialization_events()
    }


def _skipped(metadata: dict[str, dict]) -> set[str]:
    return {name for name in FAST if "unchanged" in metadata[name]}


def _gold(home) -> dict[str, pd.DataFrame]:
    names = ("gold.consensus", "gold.judge_verdicts", "gold.condition_comparison")
    with warehouse.connect(home.warehouse, read_only=True) as con:
        return {
            n: con.sql(f"SELECT COLUMNS(lambda c: c <> 'computed_at') FROM {n} ORDER BY ALL").df()
            for n in names
        }


def test_a_run_with_nothing_new_skips_them_and_a_change_does_not(tmp_path: Path) -> None:
    data = yaml.safe_load((STUDIES / "gold_tiers.yaml").read_text())
    lines = (STUDIES / "gold_tiers" / "generations.jsonl").read_text().splitlines()
    _, home = build_home(tmp_path, data, [json.loads(line) for line in lines][::8])
    resource = Raterlab(home=str(home.root), studies=str(tmp_path / "studies"))
    instance = dg.DagsterInstance.ephemeral()
    assert _skipped(_run(resource, instance)) == set()
    written = _gold(home)
    _run(
        resource, instance
    )  # a neighbour written after a step in the first run: computed again once
    settled = _run(resource, instance)
    assert _skipped(settled) == set(FAST)
    assert settled["report"]["open_report"].value.endswith("gold_tiers/index.html")
    assert "rows" in settled["condition_comparison"], "the metadata of the last write is kept"
    for name, frame in _gold(home).items():
        pd.testing.assert_frame_equal(frame, written[name], obj=name)

    (home.reports / "gold_tiers" / "index.html").unlink()
    assert _skipped(_run(resource, instance)) == set(FAST) - {"report"}
    assert (home.reports / "gold_tiers" / "index.html").is_file()

    with warehouse.connect(home.warehouse) as con:
        con.execute(
            """UPDATE gold.rating_values SET value = '1', value_num = 1
               WHERE rowid = (SELECT min(rowid) FROM gold.rating_values)"""
        )
    # gold_tiers has no pilot and no metrics: those tables say so whatever the ratings are
    assert _skipped(_run(resource, instance)) == {"pilot_agreement", "system_metrics"}
