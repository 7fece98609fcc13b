"""Real annotations (QAGS XSum: summary sentences, three crowd workers each, "is the sentence
supported by the article?") taken through a study: generations, ``raterlab import``, and the
study-level agreement the pipeline computes, checked against the library and ``krippendorff``."""

from __future__ import annotations

import json
from pathlib import Path

import krippendorff
import numpy as np
import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.agreement.study import field_agreement, ratings
from raterlab.design import read_generations
from raterlab.ingest.imports import import_file
from raterlab.protocol import load_study
from raterlab.settings import Home
from tests.conftest import REPO, write_study

QAGS = REPO.parent / "shared" / "realdata" / "qags" / "mturk_xsum.jsonl"

STUDY = {
    "name": "qags_xsum",
    "title": "QAGS XSum: is each summary sentence supported by its article?",
    "generations": "qags_xsum/generations.jsonl",
    "tasks": {
        "sentence": {
            "unit": "(article, summary sentence)",
            "shown": ["article", "sentence"],
            "fields": {"supported": {"type": "binary"}},
        }
    },
    "design": {"annotators": ["w0", "w1"], "overlap": {"GOLD": 2}, "seed": 1},
}


@pytest.mark.skipif(not QAGS.exists(), reason="../shared/realdata is not beside the checkout")
def test_qags_through_a_study(tmp_path: Path) -> None:
    records, long_rows = [], []
    for a, article in enumerate(json.loads(line) for line in QAGS.read_text().splitlines()):
        for s, sentence in enumerate(article["summary_sentences"]):
            unit = f"x{a:03d}-{s}"
            records.append(
                {
                    "id": unit,
                    "task": "sentence",
                    "article": article["article"][:200],
                    "sentence": sentence["sentence"],
                }
            )
            long_rows += [
                (unit, f"worker{r['worker_id']}", r["response"]) for r in sentence["responses"]
            ]
    study = load_study(write_study(tmp_path / "studies", STUDY, records))
    generations = read_generations(study)
    home = Home(tmp_path / "home")
    answers = pd.DataFrame(long_rows, columns=["unit", "worker", "supported"])
    answers.to_csv(tmp_path / "qags_long.csv", index=False)
    with warehouse.connect(home.warehouse) as con:
        warehouse.replace_study_rows(con, "raw.generations", study.name, generations)
        result = import_file(
            study, "sentence", tmp_path / "qags_long.csv", home, con, "unit", "worker"
        )
        assert result.status == "accepted" and result.n_labels == len(answers)
        labels = warehouse.read_study_rows(con, "gold.labels", study.name)
    items = generations[["item_id", "task", "record"]].assign(tier="GOLD", stratum="")
    table = field_agreement(study, ratings(labels, items), interval=None)
    alpha = table[(table["coefficient"] == "krippendorff_alpha") & (table["slice"] == "all")].iloc[
        0
    ]
    matrix = answers.assign(y=(answers["supported"] == "yes").astype(float)).pivot(
        index="unit", columns="worker", values="y"
    )
    reference = krippendorff.alpha(matrix.to_numpy().T, level_of_measurement="nominal")
    assert alpha["estimate"] == pytest.approx(reference, abs=1e-12)
    assert alpha["n_units"] == matrix.shape[0] and alpha["n_raters"] == matrix.shape[1]
    assert np.isfinite(table["estimate"]).sum() >= 3
