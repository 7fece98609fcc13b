"""Every front end writes the packet's own column names: a study that renames the item column
(empathy's ``sample_id``) and makes time optional gets returns that ingest accepts."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from raterlab import warehouse
from raterlab.design.xlsx import xlsx_packet
from raterlab.ingest import ingest_file
from raterlab.ingest.read import read_returned
from raterlab.protocol import load_study
from raterlab.settings import Home
from raterlab.simulate import simulate
from raterlab.simulate.spreadsheet import as_spreadsheets
from raterlab.terminal.model import Labeler
from tests.conftest import MINI_STUDY, mini_records, write_study
from tests.frontends.test_label_model import Clock, _label_all
from tests.ingest.conftest import issue


@pytest.fixture
def renamed(tmp_path: Path):
    data = copy.deepcopy(MINI_STUDY)
    data["packet"] = {"item_column": "sample_id", "time_spent": "optional"}
    study = load_study(write_study(tmp_path / "studies", data, mini_records()))
    home = Home(tmp_path / "home")
    issue(study, home)
    return study, home


def _ingest(study, home, path: Path):
    with warehouse.connect(home.warehouse) as con:
        return ingest_file(study, path, home, con)


def test_terminal_return_uses_the_packet_columns(renamed):
    study, home = renamed
    lab = Labeler.start(study, home, "a1", "main-01", "answer", clock=Clock())
    _label_all(lab)
    path = lab.finish()
    assert "sample_id" in read_returned(path).columns
    result = _ingest(study, home, path)
    assert result.status == "accepted", result.validation.issues


def test_spreadsheet_packet_and_return_use_the_packet_columns(renamed):
    study, home = renamed
    workbook = xlsx_packet(home, study, "a1", "main-01")[0]
    assert "sample_id" in read_returned(workbook).columns
    returned = simulate(study, home)
    workbooks = as_spreadsheets(study, home, returned.written, "a1")
    assert workbooks
    for path in workbooks:
        result = _ingest(study, home, path)
        assert result.status == "accepted", result.validation.issues
