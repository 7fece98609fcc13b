"""An outbox to simulate on: the mini study's packets and sealed key on a temporary home,
built with the pure design functions (no Dagster), and a reader for returned files."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.design import assign, read_generations, routed_items, seal, write_packets
from raterlab.protocol import Study, load_study
from raterlab.settings import Home
from tests.conftest import MINI_STUDY, mini_records, write_study

SECRET = b"simulation-tests-secret-32-bytes"

SIM_STUDY = {
    **MINI_STUDY,
    "design": {**MINI_STUDY["design"], "annotators": [f"a{i}" for i in range(1, 7)]},
}
"""The mini study with six annotators, so that every rater profile is planted."""


def build_outbox(root: Path, study_dict: dict = SIM_STUDY, records: list | None = None):
    """Write the study, its packets, and its key and generations tables under ``root``."""
    path = write_study(root / "studies", study_dict, records or mini_records())
    study = load_study(path)
    generations = read_generations(study)
    routed = routed_items(study, generations)
    key = seal(study, assign(study, routed, generations), SECRET)
    home = Home(root / "home")
    write_packets(study, key, generations, home.outbox)
    with warehouse.connect(home.warehouse) as con:
        warehouse.replace_study_rows(con, "staging.blinding_key", study.name, key)
        frame = generations.assign(source_file=study.generations)
        warehouse.replace_study_rows(con, "raw.generations", study.name, frame)
    return study, home, key, generations


def read_returns(home: Home, study: Study, key: pd.DataFrame) -> pd.DataFrame:
    """Every returned file as rows (strings as written), joined to the sealed key by token."""
    frames = []
    for path in sorted((home.inbox / study.name).glob("*.csv")):
        frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")
        frame = frame[frame["item"] != ""]
        frames.append(frame.assign(file=path.name))
    returns = pd.concat(frames, ignore_index=True)
    lookup = key[["token", "item_id", "task", "kind", "copy", "batch", "round"]]
    return returns.merge(lookup, left_on="item", right_on="token", how="left")


@pytest.fixture
def outbox(tmp_path: Path):
    return build_outbox(tmp_path)


@pytest.fixture(scope="module")
def big_outbox(tmp_path_factory: pytest.TempPathFactory):
    """The mini study with more items, for statistics over raters (shared by a module)."""
    return build_outbox(tmp_path_factory.mktemp("big"), records=mini_records(240, 120))


WIDGET_STUDY = {
    "name": "widget",
    "title": "Widget triggers, for the simulator's generic paths",
    "generations": "widget/generations.jsonl",
    "tasks": {
        "scenario": {
            "unit": "scenario",
            "shown": ["query", "response"],
            "hidden": ["judge_trigger", "family"],
            "fields": {
                "trigger": {
                    "type": "categorical",
                    "labels": ["yes", "no"],
                    "skip": {"reason": "skip_reason"},
                },
                "observed_component": {
                    "type": "text",
                    "description": "The component that did trigger.",
                },
                "code_parses": {"type": "binary"},
                "code_runs": {"type": "binary"},
                "code_issues": {"type": "list"},
                "completeness": {"type": "likert"},
                "missing_elements": {"type": "list"},
                "confidence": {"type": "confidence"},
                "skip_reason": {"type": "text"},
            },
            "conditional": [
                {"require": ["observed_component"], "when": {"any_of": ["trigger"], "in": ["no"]}},
                {
                    "require": ["code_issues"],
                    "when": {"any_of": ["code_parses", "code_runs"], "in": [0]},
                },
                {
                    "require": ["missing_elements"],
                    "when": {"any_of": ["completeness"], "in": [1, 2, 3]},
                },
            ],
            "constraints": ["code_runs => code_parses"],
        }
    },
    "design": {
        "annotators": ["w1", "w2", "w3"],
        "overlap": {"GOLD": 2},
        "pilot": {"fraction": 0.2},
        "attention_checks": 1,
        "duplicates_per_batch": 3,
        "time_floor_s": 30,
        "seed": 11,
    },
    "slices": ["family"],
    "edge_cases": [
        {
            "task": "scenario",
            "when": {"field": "response", "equals": ""},
            "expect": {"completeness": 1, "code_runs": 0},
            "message": "an empty response is incomplete and runs nothing",
        }
    ],
}


def widget_records(n: int = 60) -> list[dict]:
    records = [
        {
            "id": f"sc-{i:03d}",
            "task": "scenario",
            "query": f"Deploy service {i} with the release plugin",
            "response": "" if i % 10 == 0 else f"Run `release deploy svc{i}` then check status.",
            "judge_trigger": "yes" if i % 3 else "no",
            "family": ["release", "rollback"][i % 2],
        }
        for i in range(n)
    ]
    records.append(
        {
            "id": "att-w",
            "task": "scenario",
            "role": "attention",
            "expected": {"trigger": "no", "completeness": 1},
            "query": "Attention: answer trigger no and completeness 1.",
            "response": "Nothing here.",
            "judge_trigger": "no",
            "family": "release",
        }
    )
    return records
