"""An ingest publishes every gold table it writes, rating history included (the tables come
from the declarations, so a table added to the ingest's declarations is published too)."""

from __future__ import annotations

from pathlib import Path

import duckdb

from raterlab.ingest import store
from raterlab.publish import publish


def _history_row(con: duckdb.DuckDBPyConnection, rating_id: int) -> None:
    con.execute(
        "INSERT INTO gold.rating_history (study, rating_id, change) VALUES ('s', ?, 'replaced')",
        [rating_id],
    )


def test_ingest_publishes_its_rating_history(tmp_path: Path) -> None:
    target = tmp_path / "published.duckdb"
    con = duckdb.connect(str(tmp_path / "warehouse.duckdb"))
    store.ensure_tables(con)
    _history_row(con, 1)
    publish(con, target)
    _history_row(con, 2)
    publish(con, target, store.WRITTEN)
    con.close()
    assert "gold.rating_history" in store.WRITTEN
    published = duckdb.connect(str(target), read_only=True)
    assert published.execute("SELECT count(*) FROM gold.rating_history").fetchall() == [(2,)]
    published.close()
