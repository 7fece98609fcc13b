"""gold_tiers' ADR: the adjudication queue never waits on two people; a backup labeler is
rotated in (``consensus.adjudicators``)."""

from __future__ import annotations

import csv

from raterlab import warehouse
from raterlab.adjudication.adjudicator_packet import (
    TEMPLATE,
    adjudication_dir,
    assigned_adjudicator,
)
from raterlab.adjudication.ingest import inbox_dir, ingest_inbox
from raterlab.adjudication.packets import issue_packets
from raterlab.protocol import load_study
from raterlab.simulate.adjudicators import simulate_adjudication
from tests.conftest import STUDIES
from tests.consensus.conftest import SECRET

ROTATION = ["adj_lead", "adj_second", "ann_backup"]


def test_batches_go_round_robin_through_the_rotation() -> None:
    study = load_study(STUDIES / "gold_tiers.yaml")
    assert study.consensus.adjudicators == ["adj_lead", "adj_second", "ann_okoro"]
    turns = [assigned_adjudicator(study, f"adj-{n:03d}") for n in range(1, 8)]
    assert turns == ["adj_lead", "adj_second", "ann_okoro"] * 2 + ["adj_lead"]


def _rotating(study):
    consensus = study.consensus.model_copy(update={"adjudicators": ROTATION})
    return study.model_copy(update={"consensus": consensus})


def test_the_packet_names_its_adjudicator_and_strangers_are_refused(loop_home) -> None:
    study, home = loop_home
    study = _rotating(study)
    with warehouse.connect(home.warehouse) as con:
        issued = issue_packets(study, home, con, SECRET)
    packet = adjudication_dir(home.outbox, study.name, issued["adjudication_batch"])
    with (packet / TEMPLATE).open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert {r["adjudicator_id"] for r in rows} == {"adj_lead"}  # batch 1: the first's turn
    text = (packet / "INSTRUCTIONS.md").read_text(encoding="utf-8")
    assert "`adj_lead`'s turn" in text and "adj_second or ann_backup takes it" in text

    simulate_adjudication(study, home)  # fills the packet as handed out
    returned = inbox_dir(home, study.name) / f"{issued['adjudication_batch']}__adjudication.csv"
    original = returned.read_text(encoding="utf-8")
    returned.write_text(original.replace("adj_lead", "ann_someone"), encoding="utf-8")
    with warehouse.connect(home.warehouse) as con:
        (result,) = ingest_inbox(study, home, con)
        assert result.status == "rejected"
        rules = con.execute(
            "SELECT DISTINCT rule FROM staging.adjudication_issues WHERE sha256 = ?",
            [result.sha256],
        ).fetchall()
    assert ("unknown_adjudicator",) in rules

    stand_in = original.replace("adj_lead", "ann_backup")  # the backup takes the batch
    returned.write_text(stand_in, encoding="utf-8")
    with warehouse.connect(home.warehouse) as con:
        (result,) = ingest_inbox(study, home, con)
    assert result.status == "accepted"
