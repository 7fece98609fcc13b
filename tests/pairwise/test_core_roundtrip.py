"""A pairwise study from packets to ``gold.pairwise_comparisons``, without Dagster: the
design's packets, simulated returns (one rater position-biased), the one ingest path, and
the comparisons table, each rating's winner checked against the returned cell and the key."""

from __future__ import annotations

import shutil

import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.design import assign, read_generations, routed_items, seal, write_packets
from raterlab.ingest.one_file import ingest_file
from raterlab.ingest.pairwise import COLUMNS, pairwise_comparisons
from raterlab.ingest.study_tables import counting_ratings
from raterlab.protocol import Study, load_study
from raterlab.settings import Home
from raterlab.simulate import simulate, simulations_dir
from tests.conftest import STUDIES

SECRET = b"pairwise-roundtrip-secret-32byte"
PLANTED_ORDER = ["aurora-large", "borealis-base", "cirrus-mini", "drizzle-tiny"]
"""The assistants by planted quality (studies/_samples/pairwise_arena/material.yaml)."""


@pytest.fixture(scope="module")
def returned(tmp_path_factory: pytest.TempPathFactory):
    """The arena's packets, their simulated returns (corrected versions of files with planted
    mistakes resubmitted) ingested, and the tables the comparisons are built from."""
    study = load_study(STUDIES / "pairwise_arena.yaml")
    home = Home(tmp_path_factory.mktemp("home"))
    generations = read_generations(study)
    key = seal(study, assign(study, routed_items(study, generations), generations), SECRET)
    write_packets(study, key, generations, home.outbox)
    with warehouse.connect(home.warehouse) as con:
        warehouse.replace_study_rows(con, "staging.blinding_key", study.name, key)
        frame = generations.assign(source_file=study.generations)
        warehouse.replace_study_rows(con, "raw.generations", study.name, frame)
    simulate(study, home)
    with warehouse.connect(home.warehouse) as con:
        for path in sorted((home.inbox / study.name).glob("*")):
            ingest_file(study, path, home, con)
        corrected = simulations_dir(home, study.name) / "corrected"
        for path in sorted(corrected.glob("*")) if corrected.exists() else []:
            shutil.copyfile(path, home.inbox / study.name / f"fixed_{path.name}")
            ingest_file(study, home.inbox / study.name / f"fixed_{path.name}", home, con)
        labels = warehouse.read_table(con, "gold.labels", study.name)
        profiles = warehouse.read_table(con, "staging.sim_profiles", study.name)
    records = dict(zip(generations["item_id"], generations["record"], strict=True))
    table = pairwise_comparisons(study, counting_ratings(study, labels), key, records)
    return study, home, key, records, labels, profiles, table


def _returned_cells(study: Study, home: Home) -> pd.DataFrame:
    """Every return's (token, preference) as the annotator wrote it, a corrected
    resubmission's over the rejected file it replaces."""
    frames = []
    paths = (home.inbox / study.name).glob("*.csv")
    for path in sorted(paths, key=lambda p: (p.name.startswith("fixed_"), p.name)):
        frame = pd.read_csv(path, dtype=str, keep_default_na=False)
        frames.append(frame[["item", "preference"]])
    return pd.concat(frames).drop_duplicates("item", keep="last")


def test_every_counting_rating_has_one_row_with_its_winner(returned) -> None:
    study, home, key, records, _, _, table = returned
    assert list(table.columns) == list(COLUMNS)
    ordinary = key[(key["kind"] == "item") & (key["copy"] == 0)]
    assert len(table) == len(ordinary) == 120 * 2
    cells = _returned_cells(study, home).set_index("item")["preference"].str.strip().str.lower()
    sealed = ordinary.set_index(["annotator_id", "item_id"])
    for row in table.itertuples():
        token_row = sealed.loc[(row.annotator_id, row.item_id)]
        record = records[row.item_id]
        answer = cells[token_row["token"]]
        left = record["system_b"] if token_row["swapped"] else record["system_a"]
        right = record["system_a"] if token_row["swapped"] else record["system_b"]
        assert (row.left_system, row.right_system) == (left, right)
        assert row.choice == answer
        assert row.winner == {"left": left, "right": right, "tie": "tie"}[answer]
        assert row.category == record["category"] and row.prompt_id == record["prompt_id"]


def test_labels_hold_the_canonical_orientation(returned) -> None:
    *_, labels, _, table = returned
    stored = labels[(labels["field"] == "preference") & (labels["kind"] == "item")]
    assert set(stored["value"]) <= {"a", "b", "tie"}
    merged = table.merge(stored, on=["item_id", "annotator_id"], suffixes=("", "_label"))
    expected = [
        "tie" if w == "tie" else "a" if w == a else "b"
        for w, a in zip(merged["winner"], merged["system_a"], strict=True)
    ]
    assert merged["value_label"].tolist() == expected


def test_the_better_system_wins_and_the_biased_rater_picks_left(returned) -> None:
    *_, profiles, table = returned
    wins = pd.concat(
        [
            table.assign(system=table["system_a"], won=table["winner"] == table["system_a"]),
            table.assign(system=table["system_b"], won=table["winner"] == table["system_b"]),
        ]
    )
    share = wins.groupby("system")["won"].mean().sort_values(ascending=False)
    assert share.index.tolist() == PLANTED_ORDER
    decided = table[table["choice"] != "tie"]
    left = (decided["choice"] == "left").groupby(decided["annotator_id"]).mean()
    profile = profiles.set_index("annotator_id")["profile"]
    biased = profile[profile == "position_biased"].index.tolist()
    assert len(biased) == 1
    assert left[biased[0]] > 0.65
    assert (left.drop(biased[0]) < 0.65).all()


def test_a_swapped_duplicate_is_compared_canonically(returned) -> None:
    """The hidden duplicate is shown with the sides swapped: the duplicate-consistency check
    compares stored (canonical) values, so a rater who answers on the merits agrees with
    themself, and a position-biased rater (left, then left again) disagrees."""
    _, _, _, _, labels, profiles, _ = returned
    rows = labels[labels["field"] == "preference"]
    first = rows[(rows["kind"] == "item") & (rows["copy"] == 0)]
    second = rows[rows["kind"] == "duplicate"]
    pairs = first.merge(second, on=["annotator_id", "item_id", "batch"], suffixes=("", "_dup"))
    agree = (pairs["value"] == pairs["value_dup"]).groupby(pairs["annotator_id"]).mean()
    profile = profiles.set_index("annotator_id")["profile"]
    assert (
        agree[profile[profile == "good"].index].mean()
        > agree[profile[profile.isin(["position_biased", "inconsistent"])].index].mean()
    )


def test_a_study_without_pairwise_fields_has_no_comparisons(returned) -> None:
    study, _, key, records, labels, _, _ = returned
    empty = pairwise_comparisons(study, counting_ratings(study, labels.iloc[:0]), key, records)
    assert empty.empty and list(empty.columns) == list(COLUMNS)


def test_a_rating_missing_from_the_key_is_named(returned) -> None:
    study, _, key, records, labels, _, _ = returned
    ratings = counting_ratings(study, labels)
    with pytest.raises(ValueError, match="has no row in the sealed key"):
        pairwise_comparisons(study, ratings, key.iloc[:10], records)
