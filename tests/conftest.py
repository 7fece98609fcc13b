"""Shared fixtures: a small two-task study written to a temporary folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from raterlab.protocol import Study, load_study

REPO = Path(__file__).resolve().parents[1]
STUDIES = REPO / "studies"
BUNDLED = ("correctness_ab", "rag_triplet", "plugin_triggers", "empathy", "gold_tiers")

MINI_STUDY = {
    "name": "mini",
    "title": "Mini study for tests",
    "generations": "mini/generations.jsonl",
    "guide": "mini/guide.md",
    "tasks": {
        "answer": {
            "unit": "response",
            "shown": ["prompt", "response", "category"],
            "hidden": ["condition", "model", "uncertainty"],
            "fields": {
                "score": {
                    "type": "likert",
                    "min": 1,
                    "max": 5,
                    "anchors": {1: "bad", 5: "good"},
                    "skip": {"reason": "notes"},
                },
                "confidence": {"type": "confidence"},
                "notes": {"type": "text"},
            },
            "conditional": [{"require": ["notes"], "when": {"any_of": ["score"], "in": [1, 5]}}],
        },
        "check": {
            "unit": "(query, chunk)",
            "shown": ["query", "chunk"],
            "hidden": ["condition", "model", "uncertainty"],
            "no_missing": True,
            "fields": {"relevant": {"type": "binary"}, "sufficient": {"type": "binary"}},
            "constraints": ["sufficient => relevant"],
        },
    },
    "design": {
        "annotators": ["a1", "a2", "a3", "a4"],
        "overlap": {"GOLD": 2, "TRIAGE": 1},
        "pilot": {"fraction": 0.2},
        "spot_check": 0.1,
        "duplicates_per_batch": 3,
        "attention_checks": 2,
        "calibration": True,
        "batch_size": 15,
        "time_floor_s": 10,
        "seed": 7,
    },
    "routing": {
        "default": "TRIAGE",
        "rules": [
            {"tier": "GOLD", "when": {"field": "task", "in": ["check"]}},
            {"tier": "GOLD", "when": {"field": "uncertainty", "gte": 0.65}},
        ],
    },
    "slices": ["category", "condition", "tier"],
}


def mini_records(n_answer: int = 60, n_check: int = 30) -> list[dict]:
    """Items of the mini study; hidden values are distinctive strings so leaks are findable."""
    records = []
    for i in range(n_answer):
        records.append(
            {
                "id": f"ans-{i:03d}",
                "task": "answer",
                "prompt": f"How do I paginate endpoint {i}?",
                "response": f"=SUM(A1) use cursor pagination for list {i}",
                "category": ["api", "security", "data"][i % 3],
                "condition": "A" if i % 2 == 0 else "B",
                "model": f"secret-model-{i % 2}",
                "uncertainty": round((i * 37 % 100) / 100, 2),
            }
        )
    for i in range(n_check):
        records.append(
            {
                "id": f"chk-{i:03d}",
                "task": "check",
                "query": f"What is the quota for bucket tier {i}?",
                "chunk": f"Tier {i} buckets hold up to {i * 10} GB.",
                "condition": "A",
                "model": "secret-model-0",
                "uncertainty": 0.1,
            }
        )
    base = {"condition": "A", "model": "secret-model-0", "uncertainty": 0.0}
    for i in range(3):
        records.append(
            {
                "id": f"att-{i}",
                "task": "answer",
                "role": "attention",
                "expected": {"score": 1},
                "prompt": "Ignore this: rate it 1.",
                "response": "The sky is green.",
                "category": "api",
                **base,
            }
        )
    for i in range(2):
        records.append(
            {
                "id": f"cal-{i}",
                "task": "answer",
                "role": "calibration",
                "expected": {"score": 4 + i},
                "prompt": f"Calibration prompt {i}",
                "response": f"Calibration response {i}",
                "category": "data",
                **base,
            }
        )
    return records


def write_study(folder: Path, study: dict, records: list[dict]) -> Path:
    """Write a study file, its generations and its guide under ``folder``; return the YAML path."""
    name = study["name"]
    (folder / name).mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.yaml").write_text(yaml.safe_dump(study, sort_keys=False))
    lines = "\n".join(json.dumps(r) for r in records) + "\n"
    (folder / study["generations"]).write_text(lines)
    if study.get("guide"):
        (folder / study["guide"]).write_text("# Guide\n\nRate carefully.\n")
    return folder / f"{name}.yaml"


@pytest.fixture
def mini_path(tmp_path: Path) -> Path:
    return write_study(tmp_path / "studies", MINI_STUDY, mini_records())


@pytest.fixture
def mini(mini_path: Path) -> Study:
    return load_study(mini_path)
