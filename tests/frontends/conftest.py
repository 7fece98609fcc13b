"""The mini study with packets issued into a temporary RATERLAB_HOME (the ingest fixture), and
the bundled pairwise study issued the same way."""

from __future__ import annotations

from pathlib import Path

import pytest

from raterlab.protocol import load_study
from raterlab.settings import Home
from tests.conftest import BUNDLED, STUDIES
from tests.ingest.conftest import issue, issued

FRONT_END_STUDIES = tuple(dict.fromkeys([*BUNDLED, "pairwise_arena"]))
"""The bundled studies every front end is checked on, the pairwise one among them."""


@pytest.fixture
def arena(tmp_path: Path):
    """(study, home, key, generations) of pairwise_arena with its packets written and sealed."""
    study = load_study(STUDIES / "pairwise_arena.yaml")
    home = Home(tmp_path / "home")
    return (study, home, *issue(study, home))


__all__ = ["FRONT_END_STUDIES", "arena", "issued"]
