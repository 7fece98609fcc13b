"""A six-annotator study simulated and ingested end to end with the pure functions (no
Dagster): the simulator plants one rater of each problem profile (lenient, rushed,
inconsistent, severe) next to good ones."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.design import assign, read_generations, routed_items, seal, write_packets
from raterlab.design.generations import JSON_COLUMNS
from raterlab.ingest.one_file import ingest_file
from raterlab.protocol import load_study
from raterlab.settings import Home
from raterlab.simulate import simulate, simulations_dir
from tests.conftest import MINI_STUDY, mini_records, write_study

SECRET = b"quality-tests-secret-32-bytes..."

PANEL_STUDY = copy.deepcopy(MINI_STUDY)
PANEL_STUDY.update(
    name="panel",
    title="Six raters, one of each simulated profile",
    generations="panel/generations.jsonl",
    guide="panel/guide.md",
    quality={
        "duplicate_within_one": 0.8,
        "attention_min_pass": 1.0,
        "max_rushed_share": 0.1,
        "drift": {"max_disagreement": 0.12, "consecutive_weeks": 2},
        "severity": "error",
    },
)
PANEL_STUDY["design"] = {
    **MINI_STUDY["design"],
    "annotators": ["p_ada", "p_bo", "p_cy", "p_dee", "p_eli", "p_fay"],
    "batch_size": 40,
}


def ingest_inbox(study, home: Home) -> None:
    """Ingest every returned file, then the corrected versions of files with a planted
    mistake (as an annotator would send after hearing back)."""
    with warehouse.connect(home.warehouse) as con:
        for path in sorted((home.inbox / study.name).glob("*")):
            ingest_file(study, path, home, con)
        corrected = simulations_dir(home, study.name) / "corrected"
        for path in sorted(corrected.glob("*")) if corrected.exists() else []:
            target = home.inbox / study.name / path.name
            shutil.copyfile(path, target)
            ingest_file(study, target, home, con)


def issue(study, home: Home) -> None:
    """The study's packets in the outbox and its design tables in the warehouse, as the
    design assets write them."""
    generations = read_generations(study)
    routed = routed_items(study, generations)
    assignments = assign(study, routed, generations)
    key = seal(study, assignments, SECRET)
    write_packets(study, key, generations, home.outbox)
    with warehouse.connect(home.warehouse) as con:
        warehouse.replace_study_rows(con, "staging.blinding_key", study.name, key)
        warehouse.replace_study_rows(
            con, "raw.generations", study.name, generations.assign(source_file=study.generations)
        )
        warehouse.replace_study_rows(con, "staging.routed_items", study.name, routed)
        warehouse.replace_study_rows(con, "staging.assignments", study.name, assignments)


def run_study(study, home: Home) -> dict[str, str]:
    """Issue, simulate every round and ingest; returns the simulated profiles."""
    issue(study, home)
    summary = simulate(study, home)
    ingest_inbox(study, home)
    return summary.profiles


def build_panel(root: Path, records: list | None = None):
    """The panel study issued, simulated and ingested under ``root``: (study, home,
    profiles)."""
    path = write_study(root / "studies", PANEL_STUDY, records or mini_records(240, 90))
    study = load_study(path)
    home = Home(root / "home")
    profiles = run_study(study, home)
    planted = sorted(set(profiles.values()))
    assert planted == ["good", "inconsistent", "lenient", "rushed", "severe"], profiles
    return study, home, profiles


def read_tables(home: Home, study: str) -> dict[str, pd.DataFrame]:
    """The tables :func:`raterlab.quality.assess` reads, as the asset reads them."""
    with warehouse.connect(home.warehouse, read_only=True) as con:

        def read(table: str) -> pd.DataFrame:
            return warehouse.read_study_rows(con, table, study)

        return {
            "labels": read("gold.labels"),
            "generations": warehouse.decode_json(read("raw.generations"), JSON_COLUMNS),
            "routed": read("staging.routed_items"),
            "assignments": read("staging.assignments"),
        }


@pytest.fixture(scope="package")
def panel(tmp_path_factory: pytest.TempPathFactory):
    """(study, home, tables, profiles) of the simulated six-annotator study."""
    study, home, profiles = build_panel(tmp_path_factory.mktemp("panel"))
    return study, home, read_tables(home, study.name), profiles
