"""Each bundled study's report, written from a warehouse filled with synthetic gold rows:
consensus values on the study's real items (so its ``comparison`` declaration runs as
declared), agreement, a pilot gate, and two tables of later stages (judge calibration and a
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
from raterlab.comparison import condition_comparison, condition_means, unit_values
from raterlab.comparison.plot import comparison_plot
from raterlab.comparison.store import write_comparison
from raterlab.comparison.table import compared_fields
from raterlab.design import read_generations
from raterlab.protocol import BinaryField, Study, load_study
from raterlab.report import write_report
from tests.conftest import BUNDLED, STUDIES


def _gold_rows(study: Study, rng: np.random.Generator) -> tuple[pd.DataFrame, ...]:
    generations = read_generations(study)
    items = generations[generations["role"] == "item"].groupby("task").head(80).assign(tier="GOLD")
    consensus, ratings = [], []
    for item, task in zip(items["item_id"], items["task"], strict=True):
        for field in compared_fields(study, task):
            binary = isinstance(study.tasks[task].fields[field], BinaryField)
            value = float(rng.integers(0, 2) if binary else rng.integers(1, 6))
            consensus.append((task, item, field, value))
            for rater in ("r1", "r2"):
                ratings.append((task, item, rater, field, value))
    consensus = pd.DataFrame(consensus, columns=["task", "item_id", "field", "value_num"])
    ratings = pd.DataFrame(
        ratings, columns=["task", "item_id", "annotator_id", "field", "value_num"]
    )
    return items, consensus, ratings


def _agreement(study: Study) -> pd.DataFrame:
    rows = [
        (task, field, "all", "krippendorff_alpha", "ordinal", 0.7, 0.6, 0.8, 50, 2, "substantial")
        for task, spec in study.tasks.items()
        for field in spec.rating_fields
    ]
    columns = ["task", "field", "slice", "coefficient", "level", "estimate", "ci_low", "ci_high"]
    return pd.DataFrame(rows, columns=[*columns, "n_units", "n_raters", "band"])


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
        agreement = _agreement(study)
        con.execute("CREATE SCHEMA IF NOT EXISTS gold")
        con.execute("CREATE SCHEMA IF NOT EXISTS staging")
        warehouse.replace_study_rows(con, "gold.agreement", name, agreement)
        forest_plot(study, agreement, folder / name / "agreement.png")
        gate = pd.DataFrame([{"passed": False, "message": "pilot incomplete: 3 of 40"}])
        warehouse.replace_study_rows(con, "staging.pilot_gate", name, gate)
        if name == "plugin_triggers":
            judge = pd.DataFrame(
                {"field": ["trigger"], "statistic": ["spearman"], "estimate": [0.81], "n": [40]}
            )
            warehouse.replace_study_rows(con, "gold.judge_calibration", name, judge)
            _judge_plot(folder / name / "judge_calibration.png")
        if name == "rag_triplet":
            families = pd.DataFrame({"system": ["rag-v3"], "family": ["grounding"], "rate": [0.9]})
            warehouse.replace_study_rows(con, "gold.rag_metric_families", name, families)
        out[name] = write_report(con, study, folder)
    con.close()
    return out
