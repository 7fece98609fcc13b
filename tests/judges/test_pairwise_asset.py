"""The bundled arena's imported judge through the judge_robustness and judge_verdicts assets:
``gold.pairwise_judges``, the position rows of ``gold.judge_robustness`` and the verdict."""

from __future__ import annotations

import json
import re

import dagster as dg
import pandas as pd
import pytest
import yaml

from assets import consensus, judge_verdicts, judges, pairwise, pairwise_ranking
from raterlab import warehouse
from raterlab.judges.imports import BUNDLED_FILE, import_judge_file
from raterlab.report import write_report
from raterlab.tables import names
from raterlab.tables.judge_verdicts import PAIRWISE_JUDGES
from resources import Raterlab
from tests.conftest import STUDIES
from tests.consensus.conftest import build_home


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> dict[str, pd.DataFrame]:
    root = tmp_path_factory.mktemp("arena")
    data = yaml.safe_load((STUDIES / "pairwise_arena.yaml").read_text())
    data["judges"]["resamples"] = 100
    lines = (STUDIES / "pairwise_arena" / "generations.jsonl").read_text().splitlines()
    study, home = build_home(root, data, [json.loads(line) for line in lines])
    verdicts, _ = import_judge_file(study, STUDIES / "pairwise_arena" / BUNDLED_FILE, home.root)
    resource = Raterlab(home=str(home.root), studies=str(root / "studies"))
    result = dg.materialize(
        [
            *dg.load_assets_from_modules(
                [consensus, judges, judge_verdicts, pairwise, pairwise_ranking]
            )
        ],
        partition_key="pairwise_arena",
        resources={"raterlab": resource},
        instance=dg.DagsterInstance.ephemeral(),
    )
    assert result.success
    with warehouse.connect(home.warehouse, read_only=True) as con:
        tables = {
            name: con.execute(f"SELECT * FROM gold.{name}").df()
            for name in ("pairwise_judges", "judge_robustness", "judge_verdicts", "consensus")
        }
        page = write_report(con, study, home.reports).read_text(encoding="utf-8")
    return {**tables, "verdicts": verdicts, "page": page}


def test_the_arena_judge_is_calibrated_against_the_human_winners(arena) -> None:
    table = arena["pairwise_judges"]
    assert list(table.columns) == names(PAIRWISE_JUDGES)
    assert set(table["slice"]) == {"all", "category=coding", "category=science", "category=writing"}
    row = table[table["slice"] == "all"].iloc[0]
    agreed = arena["consensus"]["value"].notna().sum()
    assert row["n_pairs"] == agreed
    assert row["n_verdicts"] == 2 * agreed  # every pair in both orders
    assert 0.5 < row["percent_agreement"] < 0.95 and row["kappa_low"] < row["kappa"]
    assert row["kappa"] < row["kappa_high"]
    # The planted left pull: flagged, and swaps change the winner too often. The position
    # checks need no human winner: every judged pair counts.
    assert row["left_share"] > 0.55 and row["flagged"]
    assert row["consistent_share"] < 0.8
    assert row["n_swapped_pairs"] == arena["verdicts"]["item_id"].nunique()


def test_the_report_shows_the_judge_and_its_verdict(arena) -> None:
    page = arena["page"]
    answer = re.search(r'<section id="answer">(.*?)</section>', page, re.S).group(1)
    assert "Judges: arena_judge names the human winner in" in answer
    assert "FLAGGED for position bias" in answer and "Judges against the human winners" in answer
    judge_section = re.search(r'<section id="judge">(.*?)</section>', page, re.S).group(1)
    assert "May this judge replace the humans?" in judge_section
    assert "arena_judge" in judge_section and "position_bias" in judge_section


def test_position_rows_reach_robustness_and_the_verdict(arena) -> None:
    robustness = arena["judge_robustness"]
    every = robustness[robustness["slice"] == "all"].set_index("check")
    pairwise = arena["pairwise_judges"].set_index("slice").loc["all"]
    assert every.loc["position_swap", "estimate"] == pytest.approx(pairwise["consistent_share"])
    assert every.loc["position_bias", "estimate"] == pytest.approx(pairwise["left_share"])
    verdict = arena["judge_verdicts"].set_index("slice").loc["all"]
    assert verdict["verdict"] != "replace"
    assert "position_bias" in verdict["checks_flagged"]
