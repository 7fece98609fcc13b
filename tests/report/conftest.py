"""Each bundled study's report, written from a warehouse filled with synthetic gold rows:
consensus values on the study's real items (so its ``comparison`` declaration runs as
declared), agreement computed from two raters' ratings as the pipeline computes it, a pilot
gate, and two tables of later stages (judge calibration and a
gold table the report does not know) to check they render generically."""

from __future__ import annotations

from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from raterlab import warehouse
from raterlab.agreement.plot import forest_plot
from raterlab.agreement.study import field_agreement, threshold_results
from raterlab.comparison import condition_comparison, condition_means, unit_values
from raterlab.comparison.conditions import compared_fields
from raterlab.comparison.plot import comparison_plot
from raterlab.comparison.store import write_comparison
from raterlab.design import read_generations
from raterlab.protocol import BinaryField, Study, load_study
from raterlab.report import write_report
from tests.conftest import BUNDLED, STUDIES


def _gold_rows(study: Study, rng: np.random.Generator) -> tuple[pd.DataFrame, ...]:
    """Items, consensus and two raters' ratings: ``r2`` differs from ``r1`` now and then (a
    binary label flipped, a Likert score one point off), so agreement is high but not 1."""
    generations = read_generations(study)
    items = generations[generations["role"] == "item"].groupby("task").head(80).assign(tier="GOLD")
    consensus, ratings = [], []
    for item, task in zip(items["item_id"], items["task"], strict=True):
        for field in compared_fields(study, task):
            binary = isinstance(study.tasks[task].fields[field], BinaryField)
            value = float(rng.integers(0, 2) if binary else rng.integers(1, 6))
            other = value
            if rng.random() < 0.25:
                other = 1 - value if binary else float(np.clip(value + rng.choice([-1, 1]), 1, 5))
            consensus.append((task, item, field, value))
            ratings += [(task, item, "r1", field, value), (task, item, "r2", field, other)]
    consensus = pd.DataFrame(consensus, columns=["task", "item_id", "field", "value_num"])
    ratings = pd.DataFrame(
        ratings, columns=["task", "item_id", "annotator_id", "field", "value_num"]
    )
    return items, consensus, ratings


def _agreement(study: Study, items: pd.DataFrame, ratings: pd.DataFrame) -> pd.DataFrame:
    """``gold.agreement`` and ``staging.agreement_thresholds`` of the ratings, computed as
    the pipeline does (no intervals, to stay quick)."""
    records = pd.DataFrame(list(items["record"]), index=items.index)
    keys = items[["item_id", "tier"]].join(records.drop(columns=["task"], errors="ignore"))
    rows = ratings.assign(value=ratings["value_num"].map(lambda v: str(int(v))), round="main")
    rows = rows.merge(keys, on="item_id", how="left")
    table = field_agreement(study, rows, interval=None)
    return table, threshold_results(study, table)


def _judge_plot(path: Path) -> Path:
    fig = Figure(figsize=(4, 3))
    fig.subplots().plot([0, 1], [0, 1])
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=80)
    return path


@pytest.fixture(scope="session")
def reports(tmp_path_factory) -> dict[str, Path]:
    """Each bundled study's ``index.html``, by study name."""
    root = tmp_path_factory.mktemp("reports")
    folder = root / "reports"
    con = duckdb.connect(str(root / "warehouse.duckdb"))
    out = {}
    for name in BUNDLED:
        study = load_study(STUDIES / f"{name}.yaml")
        items, consensus, ratings = _gold_rows(study, np.random.default_rng(1))
        units = unit_values(study, consensus, items)
        table = condition_comparison(study, units, ratings)
        write_comparison(con, study.name, table, condition_means(study, units))
        comparison_plot(study.title, table, folder / name / "condition_comparison.png")
        agreement, thresholds = _agreement(study, items, ratings)
        con.execute("CREATE SCHEMA IF NOT EXISTS gold")
        con.execute("CREATE SCHEMA IF NOT EXISTS staging")
        warehouse.replace_study_rows(con, "gold.agreement", name, agreement)
        warehouse.replace_study_rows(con, "staging.agreement_thresholds", name, thresholds)
        forest_plot(study, agreement, folder / name / "agreement.png")
        gate = pd.DataFrame([{"passed": False, "message": "pilot incomplete: 3 of 40"}])
        warehouse.replace_study_rows(con, "staging.pilot_gate", name, gate)
        if name == "plugin_triggers":
            judge = pd.DataFrame(
                {"field": ["trigger"], "statistic": ["spearman"], "estimate": [0.81], "n": [40]}
            )
            warehouse.replace_study_rows(con, "gold.judge_calibration", name, judge)
            verdicts = pd.DataFrame(
                {
                    "task": ["trigger-accuracy", "trigger-accuracy"],
                    "judge": ["llm_judge", "llm_judge"],
                    "field": ["triggerCorrect", "triggerCorrect"],
                    "slice": ["maturity=beta", "all"],
                    "verdict": ["no", "ppi"],
                    "reasons": ["in the slice", "alternative annotator test failed"],
                    "ppi_gain": [1.0, 1.8],
                    "dorner_applies": [None, True],
                }
            )
            warehouse.replace_study_rows(con, "gold.judge_verdicts", name, verdicts)
            _judge_plot(folder / name / "judge_calibration.png")
        if name == "rag_triplet":
            families = pd.DataFrame({"system": ["rag-v3"], "family": ["grounding"], "rate": [0.9]})
            warehouse.replace_study_rows(con, "gold.rag_metric_families", name, families)
        out[name] = write_report(con, study, folder)
    con.close()
    return out
