"""Where an annotator meets a pair in a spreadsheet: the packet (both responses in the
reference sheet, a drop-down of left/right/tie). The terminal tool and Label Studio are
tested in tests/frontends/."""

from __future__ import annotations

import openpyxl
import pytest

from raterlab.design import assign, read_generations, routed_items, seal, write_packets
from raterlab.design.xlsx import xlsx_packet
from raterlab.protocol import load_study
from raterlab.settings import Home
from tests.conftest import STUDIES

SECRET = b"pairwise-frontend-secret-32bytes"


@pytest.fixture(scope="module")
def packet(tmp_path_factory: pytest.TempPathFactory):
    study = load_study(STUDIES / "pairwise_arena.yaml")
    home = Home(tmp_path_factory.mktemp("home"))
    generations = read_generations(study)
    key = seal(study, assign(study, routed_items(study, generations), generations), SECRET)
    write_packets(study, key, generations, home.outbox)
    annotator = study.design.annotators[0]
    return study, home, key, generations, xlsx_packet(home, study, annotator, "main")


def test_the_spreadsheet_shows_both_sides_and_offers_the_answers(packet) -> None:
    _, _, key, generations, written = packet
    (path,) = written
    book = openpyxl.load_workbook(path)
    reference = list(book["reference"].iter_rows(values_only=True))
    assert reference[0] == ("item", "category", "prompt", "response_left", "response_right")
    records = dict(zip(generations["item_id"], generations["record"], strict=True))
    sealed = key.set_index("token")
    for token, _, _, left, right in reference[1:]:
        record = records[sealed.at[token, "item_id"]]
        expected = ("b", "a") if sealed.at[token, "swapped"] else ("a", "b")
        assert (left, right) == (
            record[f"response_{expected[0]}"],
            record[f"response_{expected[1]}"],
        )
    lists = [row for row in book["lists"].iter_cols(values_only=True)]
    preference = next(column for column in lists if column[0] == "preference")
    assert [v for v in preference[1:] if v] == ["left", "right", "tie"]
    systems = {r["system_a"] for r in records.values()} | {r["system_b"] for r in records.values()}
    text = " ".join(
        str(v) for sheet in book for row in sheet.iter_rows(values_only=True) for v in row if v
    )
    assert not any(system in text for system in systems)
