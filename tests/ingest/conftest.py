"""A mini study with packets issued into a temporary RATERLAB_HOME, and helpers to fill them."""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.design import assign, read_generations, routed_items, seal, write_packets
from raterlab.ingest import store
from raterlab.settings import Home

SECRET = b"k" * 32


@pytest.fixture
def issued(mini, tmp_path: Path):
    """(study, home, key, generations) with the mini study's packets written and sealed."""
    home = Home(tmp_path / "home")
    return (mini, home, *issue(mini, home))


def issue(study, home: Home) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Seal the study's key, write its packets into ``home`` and store key and generations."""
    generations = read_generations(study)
    key = seal(study, assign(study, routed_items(study, generations), generations), SECRET)
    write_packets(study, key, generations, home.outbox)
    with warehouse.connect(home.warehouse) as con:
        warehouse.replace_study_rows(con, "staging.blinding_key", study.name, key)
        warehouse.replace_study_rows(con, "raw.generations", study.name, generations)
        store.ensure_tables(con)
    return key, generations


def template(home: Home, annotator: str, batch: str, task: str) -> Path:
    return home.outbox / "mini" / annotator / batch / f"{annotator}_{task}_annotations.csv"


def filled(home: Home, annotator: str, batch: str, task: str) -> pd.DataFrame:
    """A template filled with valid answers (score 3 with medium confidence; relevant=1)."""
    frame = pd.read_csv(template(home, annotator, batch, task), dtype=str, keep_default_na=False)
    if task == "answer":
        frame["score"], frame["confidence"] = "3", "medium"
    else:
        frame["relevant"], frame["sufficient"] = "1", "0"
    frame["time_spent_s"] = "42"
    return frame


def write(frame: pd.DataFrame, path: Path, **options) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(path, index=False, quoting=csv.QUOTE_MINIMAL, **options)
    return path
