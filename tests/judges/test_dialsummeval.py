"""`raterlab calibrate` on DialSummEval (1,400 summaries, 3 annotators, 12 metrics as judges)
reproduces scipy at the item, group (dialogue) and system (model) levels."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from raterlab.cli import main
from raterlab.judges.field_input import Options
from raterlab.judges.files import calibrate_files
from tests.conftest import REPO

DATA = REPO.parent / "shared" / "realdata" / "dialsummeval"
FIELDS = ["consistency", "relevance", "fluency", "coherence"]
JUDGES = ["rouge-1", "bartscore_s_h", "ppl"]
pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason=f"{DATA} is not there (../shared)")

SCIPY = {
    "pearson": lambda x, y: stats.pearsonr(x, y).statistic,
    "spearman": lambda x, y: stats.spearmanr(x, y).statistic,
    "kendall": lambda x, y: stats.kendalltau(x, y).statistic,
}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple:
    rows = []
    for line in (DATA / "human_judgment.jsonl").read_text().splitlines():
        record = json.loads(line)
        for position, ratings in enumerate(record["annotations"], start=1):
            rows.append(
                {
                    "id": record["id"],
                    "model_id": record["model_id"],
                    "annotator": f"a{position}",
                    **ratings,
                }
            )
    humans = pd.DataFrame(rows)
    judges = pd.read_csv(DATA / "judge_scores.csv", dtype={"id": str})
    # Six decimals: no two distinct scores are then within the 1e-9 tie tolerance, so scipy
    # sees exactly the ties raterlab sees.
    judges = judges[judges["judge"].isin(JUDGES)].assign(score=lambda f: f["score"].round(6))
    folder = tmp_path_factory.mktemp("dse")
    humans.to_csv(folder / "human.csv", index=False)
    judges.to_csv(folder / "judges.csv", index=False)
    return humans, judges, folder


def _expected(humans: pd.DataFrame, judges: pd.DataFrame, field: str, judge: str) -> dict:
    human = humans.groupby(["id", "model_id"])[field].mean().rename("h")
    score = judges[judges["judge"] == judge].set_index(["id", "model_id"])["score"].rename("j")
    both = pd.concat([human, score], axis=1, join="inner").reset_index()
    item = {k: f(both["j"], both["h"]) for k, f in SCIPY.items()}
    per_group = {
        k: [
            f(g["j"], g["h"])
            for _, g in both.groupby("id")
            if g["j"].nunique() > 1 and g["h"].nunique() > 1
        ]
        for k, f in SCIPY.items()
    }
    group = {k: float(np.mean(v)) for k, v in per_group.items()}
    systems = both.groupby("model_id")[["j", "h"]].mean()
    system = {k: f(systems["j"], systems["h"]) for k, f in SCIPY.items()}
    return {"item": item, "group": group, "system": system, "n_groups": len(per_group["pearson"])}


def test_all_three_levels_equal_scipy(files) -> None:
    humans, judges, _ = files
    table = calibrate_files(
        humans,
        judges,
        units=["id", "model_id"],
        rater="annotator",
        fields=FIELDS[:2],
        group="id",
        system="model_id",
        options=Options(resamples=0),
    )
    for field in FIELDS[:2]:
        for judge in JUDGES:
            expected = _expected(humans, judges, field, judge)
            for level in ("item", "group", "system"):
                for stat, value in expected[level].items():
                    row = table[
                        (table["judge"] == judge)
                        & (table["field"] == field)
                        & (table["level"] == level)
                        & (table["statistic"] == stat)
                        & (table["slice"] == "all")
                    ]
                    assert row["estimate"].iloc[0] == pytest.approx(value, abs=1e-10), (
                        field,
                        judge,
                        level,
                        stat,
                    )
            group_row = table[
                (table["judge"] == judge) & (table["field"] == field) & (table["level"] == "group")
            ].iloc[0]
            assert group_row["n_groups"] == expected["n_groups"]


def test_cli_json_records(files, capsys: pytest.CaptureFixture) -> None:
    _, _, folder = files
    code = main(
        [
            "calibrate",
            str(folder / "human.csv"),
            str(folder / "judges.csv"),
            "--unit",
            "id,model_id",
            "--rater",
            "annotator",
            "--fields",
            "coherence",
            "--system",
            "model_id",
            "--format",
            "json",
            "--ci",
            "--n-resamples",
            "200",
        ]
    )
    assert code == 0
    records = json.loads(capsys.readouterr().out)
    assert {(r["judge"], r["level"]) for r in records} == {
        (j, lvl) for j in JUDGES for lvl in ("item", "system")
    }
    for record in records:
        for key in (
            "judge",
            "field",
            "level",
            "n",
            "pearson",
            "spearman",
            "kendall",
            "pearson_ci_low",
            "pearson_ci_high",
            "human_spearman",
        ):
            assert key in record, key
        assert record["pearson_ci_low"] <= record["pearson"] <= record["pearson_ci_high"]
    # Annotators 2 and 3 gave identical coherence ratings (the data's README): the human
    # ceiling is high, far above every metric.
    item = [r for r in records if r["level"] == "item"]
    assert all(r["human_spearman"] > r["spearman"] + 0.2 for r in item)


def test_cli_names_a_missing_column(files, capsys: pytest.CaptureFixture) -> None:
    _, _, folder = files
    code = main(
        [
            "calibrate",
            str(folder / "human.csv"),
            str(folder / "judges.csv"),
            "--unit",
            "id,model",
            "--rater",
            "annotator",
            "--fields",
            "coherence",
        ]
    )
    assert code == 2
    error = capsys.readouterr().err
    assert "HUMAN" in error and "'model'" in error and "model_id" in error
