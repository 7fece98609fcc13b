"""The policy consensus computed once per set of inputs: the stored draft equals a fresh
computation, is reused only for the same inputs, and the gold tables built from it are the
ones a fresh computation builds."""

from __future__ import annotations

import dataclasses
import json

import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.adjudication import stored_queue
from raterlab.adjudication.cases import item_cards
from raterlab.adjudication.ingest import ingest_inbox
from raterlab.adjudication.packets import issue_packets
from raterlab.adjudication.queue import build_queue, returned_tiebreaks
from raterlab.adjudication.staging import read_adjudication_key
from raterlab.adjudication.stored_queue import refresh_queue
from raterlab.consensus import draft
from raterlab.consensus.policy import compute_consensus
from raterlab.gold.build import build_consensus
from raterlab.ingest.study_tables import LABELS_READ, counting_ratings, load_tables
from raterlab.simulate.adjudicators import simulate_adjudication
from tests.consensus.conftest import SECRET

TIME = ["computed_at"]


def _fresh(study, tables) -> pd.DataFrame:
    return compute_consensus(study, tables.ratings, tables.rated_items(), tables.adjudications)


def _same(stored: pd.DataFrame, fresh: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(
        stored.drop(columns=TIME).reset_index(drop=True),
        fresh.drop(columns=TIME).reset_index(drop=True),
    )


def test_the_stored_draft_equals_a_fresh_computation(loop_home, monkeypatch) -> None:
    study, home = loop_home
    with warehouse.connect(home.warehouse) as con:
        tables = load_tables(con, study)
        first = draft.policy_consensus(con, study, tables).consensus
        calls = []
        monkeypatch.setattr(
            draft, "compute_consensus", lambda *a, **k: calls.append(a) or _fresh(study, tables)
        )
        again = draft.policy_consensus(con, study, load_tables(con, study)).consensus
    assert calls == [], "the same inputs were computed again"
    _same(again, _fresh(study, tables))
    pd.testing.assert_frame_equal(first, again)


def test_new_decisions_change_the_inputs(loop_home) -> None:
    study, home = loop_home
    with warehouse.connect(home.warehouse) as con:
        before = load_tables(con, study)
        draft.policy_consensus(con, study, before)
        issue_packets(study, home, con, SECRET)
    simulate_adjudication(study, home)
    with warehouse.connect(home.warehouse) as con:
        ingest_inbox(study, home, con)
        after = load_tables(con, study)
        assert draft.fingerprint(study, before, before.rated_items()) != draft.fingerprint(
            study, after, after.rated_items()
        )
        decided = draft.policy_consensus(con, study, after).consensus
    assert (decided["status"] == "adjudicated").any()
    _same(decided, _fresh(study, after))


def test_gold_tables_from_the_draft_equal_those_from_a_fresh_computation(loop_home) -> None:
    study, home = loop_home
    with warehouse.connect(home.warehouse) as con:
        refresh_queue(con, study)  # stores the draft, as the adjudication_queue asset does
        from_draft = build_consensus(con, study)
        con.execute("DELETE FROM staging.consensus_draft")
        fresh = build_consensus(con, study)
    _same(from_draft.consensus, fresh.consensus)
    pd.testing.assert_frame_equal(from_draft.items, fresh.items, check_dtype=False)
    pd.testing.assert_frame_equal(from_draft.queue, fresh.queue, check_dtype=False)


def test_the_order_rows_are_read_in_is_not_an_input(loop_home) -> None:
    """DuckDB may return an unchanged table's rows in another order on the next read; the
    draft must still be found, and it must be what the rows in any order give."""
    study, home = loop_home
    with warehouse.connect(home.warehouse, read_only=True) as con:
        tables = load_tables(con, study)
    shuffled = dataclasses.replace(
        tables,
        ratings=tables.ratings.sample(frac=1, random_state=1),
        adjudications=tables.adjudications.sample(frac=1, random_state=2),
    )
    items = tables.rated_items()
    assert draft.fingerprint(study, tables, items) == draft.fingerprint(
        study, shuffled, items.sample(frac=1, random_state=3)
    )
    _same(_fresh(study, shuffled), _fresh(study, tables))
    changed = dataclasses.replace(tables, ratings=tables.ratings.iloc[1:])
    assert draft.fingerprint(study, changed, items) != draft.fingerprint(study, tables, items)


def test_the_stored_queue_is_what_a_fresh_build_gives(loop_home, monkeypatch) -> None:
    """The adjudication queue is built once per set of inputs: read back, it is exactly
    (values, types, order) what a fresh build gives, and new packets (a new adjudication
    key) build it again."""
    study, home = loop_home
    with warehouse.connect(home.warehouse) as con:
        tables = load_tables(con, study)
        policy = draft.policy_consensus(con, study, tables)
        key = read_adjudication_key(con, study.name)
        fresh = build_queue(study, tables, key, policy.consensus)
        first = stored_queue.current_queue(con, study, tables, policy, key)
        with monkeypatch.context() as patched:
            patched.setattr(stored_queue, "build_queue", lambda *a, **k: pytest.fail("built again"))
            again = stored_queue.current_queue(con, study, load_tables(con, study), policy, key)
        issue_packets(study, home, con, SECRET)
        after = refresh_queue(con, study)
    assert (fresh["state"] == "open").any()
    pd.testing.assert_frame_equal(first, fresh)
    pd.testing.assert_frame_equal(again, fresh)
    assert not (after["state"] == "open").any()
    assert (after["state"] == "issued").any()


def test_the_item_tables_alone_are_those_of_the_whole_read(loop_home) -> None:
    """``load_tables(ratings=False)`` (what the judge steps read) gives the same records,
    tiers and generations as the whole read, without reading any label."""
    study, home = loop_home
    with warehouse.connect(home.warehouse, read_only=True) as con:
        whole = load_tables(con, study)
        items = load_tables(con, study, ratings=False)
        pd.testing.assert_frame_equal(items.generations, whole.generations)
        assert items.records() == whole.records()
    assert len(whole.labels) and len(whole.ratings)
    assert items.labels.empty and items.ratings.empty and items.key.empty
    pd.testing.assert_frame_equal(items.routed, whole.routed)
    assert items.tiers() == whole.tiers()
    assert items.promoted == whole.promoted


def test_the_generations_are_read_when_first_asked_for(loop_home) -> None:
    """``raw.generations`` is read on first use, once, and a packet's few records are read
    alone: the same frame and records as a read of the whole table."""
    study, home = loop_home
    with warehouse.connect(home.warehouse, read_only=True) as con:
        stored = warehouse.read_table(con, "raw.generations", study.name)
        tables = load_tables(con, study)
        few = list(stored["item_id"].iloc[[0, 3]])
        assert tables._generations is None
        assert tables.records_of(few) == {
            i: json.loads(r)
            for i, r in zip(stored["item_id"], stored["record"], strict=True)
            if i in few
        }
        assert tables._generations is None  # a few records read, not the table
        pd.testing.assert_frame_equal(tables.generations, stored)
        assert tables.generations is tables.generations
        assert tables.records_of(few) == load_tables(con, study).records_of(few)


def test_the_labels_read_make_the_ratings_and_cards_of_the_whole_table(loop_home) -> None:
    """``load_tables`` reads only the label columns its readers use (``LABELS_READ``): the
    counting ratings, returned third ratings and adjudicator cards are those of every
    column of ``gold.labels``."""
    study, home = loop_home
    with warehouse.connect(home.warehouse, read_only=True) as con:
        tables = load_tables(con, study)
        every = warehouse.read_table(con, "gold.labels", study.name)
    assert list(tables.labels.columns) == list(LABELS_READ)
    assert {"token", "source_file", "ingested_at"} <= set(every.columns)
    pd.testing.assert_frame_equal(tables.labels, every[list(LABELS_READ)])
    pd.testing.assert_frame_equal(tables.ratings, counting_ratings(study, every))
    whole = dataclasses.replace(tables, labels=every)
    assert returned_tiebreaks(tables) == returned_tiebreaks(whole)
    assert item_cards(study, tables.labels) == item_cards(study, every)
