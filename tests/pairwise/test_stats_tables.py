"""The pairwise tables as declared: they round-trip through the warehouse, pass their
structural checks, and the pairwise_ranking asset writes them from gold.pairwise_comparisons
(created here from a frame: its own asset is the design's)."""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
import pandas as pd

from assets import pairwise_ranking
from raterlab import warehouse
from raterlab.pairwise.contract import interval_problems, missing_systems
from raterlab.pairwise.study import pairwise_tables
from raterlab.settings import Home
from raterlab.tables.pairwise_ranking import TABLES
from raterlab.tables.structure import problems
from resources import Raterlab
from tests.conftest import STUDIES
from tests.pairwise.stats_sim import simulate

STUDY = "correctness_ab"
TRUTH = {"m1": 0.0, "m2": 0.5, "m3": 1.0, "m4": -0.5}


def test_tables_round_trip(tmp_path: Path) -> None:
    comparisons = simulate(TRUTH, 8, nu=0.4, always_left={"r3": 0.6})
    tables = pairwise_tables(comparisons, ["category", "absent"], n_resamples=50, seed=3)
    assert {t.name for t in TABLES} == set(tables)
    with warehouse.connect(tmp_path / "w.duckdb") as con:
        warehouse.replace_study_tables(con, "s", tables)
        for table in TABLES:
            assert problems(con, table, "s") == []
            back = warehouse.read_table(con, table.name, "s")
            assert ["study", *back.columns] == table.names
            expected = tables[table.name].reset_index(drop=True)
            pd.testing.assert_frame_equal(back, expected, check_dtype=False)
    ranking = tables["gold.pairwise_ranking"]
    assert set(ranking["slice"]) == {"all", "category=x", "category=y"}
    assert interval_problems(ranking) == [] and missing_systems(comparisons, ranking) == []


def test_pairwise_ranking_asset(tmp_path: Path) -> None:
    """On a bundled study's partition (its slices and seed), with a temporary home."""
    home = Home(tmp_path / "home")
    comparisons = simulate(TRUTH, 10, nu=0.4, always_left={"r3": 0.7}).assign(study=STUDY)
    with warehouse.connect(home.warehouse) as con:
        warehouse.replace_study_rows(con, "gold.pairwise_comparisons", STUDY, comparisons)
    result = dg.materialize(
        [
            *dg.load_assets_from_modules([pairwise_ranking]),
            *dg.load_asset_checks_from_modules([pairwise_ranking]),
        ],
        partition_key=STUDY,
        resources={"raterlab": Raterlab(home=str(home.root), studies=str(STUDIES))},
        instance=dg.DagsterInstance.ephemeral(),
    )
    assert result.success
    checks = {e.check_name: e.passed for e in result.get_asset_check_evaluations()}
    structure = {n: p for n, p in checks.items() if n.endswith("_structure")}
    assert len(structure) == 4 and all(structure.values())
    checks = {n: p for n, p in checks.items() if n not in structure}
    assert checks == {"ranking_intervals_and_systems": True, "no_position_biased_raters": False}
    with warehouse.connect(home.published, read_only=True) as con:
        ranking = con.sql("SELECT * FROM gold.pairwise_ranking WHERE slice = 'all'").df()
        bias = con.sql("SELECT * FROM gold.pairwise_position_bias WHERE flagged").df()
    assert sorted(ranking["system"]) == sorted(TRUTH) and ranking["n_resamples"].eq(1000).all()
    assert set(bias["annotator_id"]) >= {"r3"} and "r1" not in set(bias["annotator_id"])


def test_slices_from_the_json_column() -> None:
    """The prompt's slice keys come as a JSON object in ``slices``; it wins over a column."""
    comparisons = simulate(TRUTH, 4, seed=1)
    domain = comparisons["prompt_id"].map(lambda p: "math" if p in ("p0", "p1") else "code")
    comparisons["slices"] = [json.dumps({"domain": d, "category": d}) for d in domain]
    comparisons.loc[0, "slices"] = None
    tables = pairwise_tables(comparisons, ["domain", "category"], n_resamples=20)
    bias = tables["gold.pairwise_position_bias"]
    assert set(bias["slice"]) == {
        "all",
        "domain=math",
        "domain=code",
        "category=math",
        "category=code",
    }
    counts = bias[bias["annotator_id"] == "all"].set_index("slice")["n_non_tie"]
    assert counts["domain=math"] + counts["domain=code"] == counts["all"] - (
        comparisons.loc[0, "choice"] != "tie"
    )
