"""Studies and warehouses for the consensus tests.

- :func:`tiny`: a study model (no files) with a Likert, a binary and a categorical field, to
  build consensus cases by hand (:func:`ratings` makes the long frame).
- :func:`loop_home`: a mini study taken through packets -> simulated returns -> ingest on a
  temporary ``RATERLAB_HOME`` with the pure functions (no Dagster), so the adjudication loop
  can run on it.
"""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.design import assign, read_generations, routed_items, seal, write_packets
from raterlab.ingest.audit import pending_files
from raterlab.ingest.one_file import ingest_file
from raterlab.protocol import Study, load_study, parse_study
from raterlab.settings import Home
from raterlab.simulate import simulate
from tests.conftest import MINI_STUDY, mini_records, write_study

SECRET = b"consensus-tests-secret-32-bytes!"

TINY = {
    "name": "tiny",
    "title": "Tiny study for consensus cases",
    "generations": "tiny.jsonl",
    "tasks": {
        "t": {
            "unit": "response",
            "shown": ["text"],
            "hidden": ["condition"],
            "fields": {
                "score": {"type": "likert", "min": 1, "max": 5},
                "ok": {"type": "binary"},
                "kind": {"type": "categorical", "labels": ["a", "b", "c"]},
                "confidence": {"type": "confidence"},
                "notes": {"type": "text"},
            },
        }
    },
    "design": {
        "annotators": ["r1", "r2", "r3", "r4"],
        "overlap": {"GOLD": 2, "TRIAGE": 1},
        "seed": 1,
    },
    "routing": {
        "default": "GOLD",
        "rules": [{"tier": "TRIAGE", "when": {"field": "condition", "equals": "triage"}}],
    },
    "consensus": {
        "likert": "median",
        "adjudicate": {"likert_gap": 2, "binary_disagreement_tiers": ["GOLD"]},
        "tie_break": "adjudicator",
        "unresolved": "keep",
    },
}


def tiny(**consensus) -> Study:
    data = copy.deepcopy(TINY)
    data["consensus"].update(consensus)
    return parse_study(data)


def ratings(rows: list[tuple]) -> pd.DataFrame:
    """Counting ratings from ``(item, annotator, field, value[, confidence[, round]])``."""
    out = []
    for i, row in enumerate(rows):
        item, annotator, field, value, *rest = row
        confidence = rest[0] if rest else "high"
        rnd = rest[1] if len(rest) > 1 else "main"
        number = None if field == "kind" else float(value)
        out.append(
            {
                "rating_id": i,
                "task": "t",
                "item_id": item,
                "annotator_id": annotator,
                "field": field,
                "value": str(value),
                "value_num": number,
                "confidence": confidence,
                "time_spent_s": 30.0,
                "notes": None,
                "round": rnd,
                "batch": rnd,
            }
        )
    return pd.DataFrame(out)


def items_of(frame: pd.DataFrame, tier: str = "GOLD", tiers: dict | None = None) -> pd.DataFrame:
    items = frame[["task", "item_id"]].drop_duplicates().reset_index(drop=True)
    return items.assign(tier=[(tiers or {}).get(i, tier) for i in items["item_id"]])


# --- a study taken through the loop -----------------------------------------------------------

LOOP_CONSENSUS = {
    "likert": "median",
    "adjudicate": {"likert_gap": 2, "binary_disagreement_tiers": ["GOLD"], "uncertain": False},
    "tie_break": "adjudicator",
    "unresolved": "keep",
}


def loop_study(name: str = "mini", **consensus) -> dict:
    data = copy.deepcopy(MINI_STUDY)
    data["name"] = name
    data["generations"] = f"{name}/generations.jsonl"
    data["guide"] = f"{name}/guide.md"
    data["consensus"] = {**copy.deepcopy(LOOP_CONSENSUS), **consensus}
    return data


def build_home(root: Path, data: dict, records: list | None = None) -> tuple[Study, Home]:
    """Design, packets, simulated returns and their ingest for ``data`` under ``root``."""
    path = write_study(root / "studies", data, records or mini_records(48, 24))
    study = load_study(path)
    home = Home(root / "home")
    generations = read_generations(study)
    routed = routed_items(study, generations)
    key = seal(study, assign(study, routed, generations), SECRET)
    write_packets(study, key, generations, home.outbox)
    home.blinding_secret.parent.mkdir(parents=True, exist_ok=True)
    home.blinding_secret.write_bytes(SECRET)
    with warehouse.connect(home.warehouse) as con:
        warehouse.replace_study_rows(con, "staging.blinding_key", study.name, key)
        warehouse.replace_study_rows(con, "staging.routed_items", study.name, routed)
        frame = generations.assign(source_file=study.generations)
        warehouse.replace_study_rows(con, "raw.generations", study.name, frame)
    simulate(study, home)
    ingest_pending(study, home)
    return study, home


def ingest_pending(study: Study, home: Home) -> list:
    with warehouse.connect(home.warehouse) as con:
        return [ingest_file(study, p, home, con) for p in pending_files(home.inbox / study.name)]


@pytest.fixture(scope="session")
def _built_loop(tmp_path_factory: pytest.TempPathFactory) -> tuple[Study, Home]:
    return build_home(tmp_path_factory.mktemp("loop"), loop_study())


@pytest.fixture
def loop_home(_built_loop, tmp_path: Path) -> tuple[Study, Home]:
    """The simulated, ingested mini study: a fresh copy of its home for each test."""
    study, home = _built_loop
    shutil.copytree(home.root, tmp_path / "home")
    return study, Home(tmp_path / "home")
