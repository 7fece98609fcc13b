"""A study with no labels yet: consensus is empty, not a crash (merge of object and float64)."""

from __future__ import annotations

import duckdb
import pandas as pd

from raterlab.consensus.policy import compute_consensus
from raterlab.consensus.store import replace_rows
from tests.consensus.conftest import ratings, tiny


def test_consensus_of_no_ratings_is_empty_and_writable() -> None:
    study = tiny()
    none = ratings([]).reindex(columns=ratings([("i", "r1", "score", 3)]).columns)
    items = pd.DataFrame(columns=["task", "item_id", "tier"])
    out = compute_consensus(study, none, items)
    assert out.empty
    con = duckdb.connect()
    replace_rows(con, study.name, {"gold.consensus": out})
    assert con.execute("SELECT count(*) FROM gold.consensus").fetchone() == (0,)
