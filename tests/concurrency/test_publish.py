"""``published.duckdb``: the gold tables for researchers, swapped in after each gold write, so
an open session never blocks the pipeline."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.publish import publish
from tests.concurrency.conftest import STUDY, Session


def _warehouse(path: Path, rows: int) -> None:
    with warehouse.connect(path) as con:
        warehouse.replace_study_tables(
            con,
            "s",
            {
                "gold.scores": pd.DataFrame({"x": range(rows)}),
                "staging.work": pd.DataFrame({"y": [1]}),
            },
        )
        # Named so that alphabetical order puts the outer view before the one it reads.
        con.execute("CREATE OR REPLACE VIEW gold.z_inner AS SELECT x * 2 AS x2 FROM gold.scores")
        con.execute(
            "CREATE OR REPLACE VIEW gold.a_outer AS SELECT sum(x2) AS total FROM gold.z_inner"
        )


def test_publish_copies_gold_tables_and_views_only(tmp_path: Path) -> None:
    db, target = tmp_path / "warehouse.duckdb", tmp_path / "published.duckdb"
    _warehouse(db, 4)
    with warehouse.connect(db) as con:
        assert publish(con, target) == target
    session = Session(target)
    try:
        assert session.query("SELECT count(*) FROM gold.scores") == [[4]]
        assert session.query("SELECT total FROM gold.a_outer") == [[12]]
        assert session.query("SELECT tables, views FROM main.published") == [[1, 2]]
        assert session.query(
            "SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'staging'"
        ) == [[0]]
    finally:
        session.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["published.duckdb", "warehouse.duckdb"]


def test_an_open_session_keeps_its_copy_and_a_new_one_sees_the_swap(tmp_path: Path) -> None:
    db, target = tmp_path / "warehouse.duckdb", tmp_path / "published.duckdb"
    _warehouse(db, 4)
    with warehouse.connect(db) as con:
        publish(con, target)
    session = Session(target)
    try:
        _warehouse(db, 10)
        with warehouse.connect(db) as con:
            publish(con, target)
        assert session.query("SELECT count(*) FROM gold.scores") == [[4]]
        fresh = Session(target)
        assert fresh.query("SELECT count(*) FROM gold.scores") == [[10]]
        fresh.close()
    finally:
        session.close()


def test_a_view_reading_outside_gold_is_refused_and_the_copy_kept(tmp_path: Path) -> None:
    db, target = tmp_path / "warehouse.duckdb", tmp_path / "published.duckdb"
    _warehouse(db, 4)
    with warehouse.connect(db) as con:
        publish(con, target)
        con.execute("CREATE VIEW gold.leaky AS SELECT * FROM staging.work")
        with pytest.raises(RuntimeError, match=r"gold\.leaky"):
            publish(con, target)
        attached = "SELECT count(*) FROM duckdb_databases() WHERE database_name = '_published'"
        assert con.execute(attached).fetchall() == [(0,)]
    session = Session(target)
    assert session.query("SELECT count(*) FROM gold.scores") == [[4]]
    session.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["published.duckdb", "warehouse.duckdb"]


def materialize_core(partition: str) -> dg.ExecuteInProcessResult:
    """Ingest, agreement, rater quality, adjudication and consensus of one study, without
    the asset checks (the gold-table contract alone takes longer than all of these)."""
    from assets import ingest
    from assets.agreement import agreement
    from assets.consensus import adjudication_packets, adjudication_queue, adjudications, consensus
    from assets.quality import rater_quality
    from pipelines.demo import QUIET
    from resources import Raterlab

    return dg.materialize(
        [
            *dg.load_assets_from_modules([ingest]),
            agreement,
            rater_quality,
            adjudication_queue,
            adjudication_packets,
            adjudications,
            consensus,
        ],
        partition_key=partition,
        resources={"raterlab": Raterlab()},
        instance=dg.DagsterInstance.ephemeral(),
        run_config=QUIET,
        raise_on_error=False,
    )


def test_ingest_agreement_and_consensus_run_beside_an_open_session(home) -> None:
    """The researcher keeps a session on published.duckdb open for the whole run."""
    with warehouse.connect(home.warehouse) as con:
        publish(con, home.published)
    session = Session(home.published)
    try:
        result = materialize_core(STUDY)
        assert result.success
        done = {m.asset_key.to_user_string() for m in result.get_asset_materialization_events()}
        assert {"labels", "agreement", "rater_quality", "consensus"} <= done
        # Still the copy it opened, published before anything was ingested.
        assert session.query("SELECT tables FROM main.published") == [[0]]
    finally:
        session.close()
    fresh = Session(home.published)
    try:
        with warehouse.connect(home.warehouse, read_only=True) as con:
            labels = con.execute("SELECT count(*) FROM gold.labels").fetchall()[0][0]
            consensus = con.execute("SELECT count(*) FROM gold.consensus").fetchall()[0][0]
        assert labels > 0 and consensus > 0
        assert fresh.query("SELECT count(*) FROM gold.labels") == [[labels]]
        assert fresh.query("SELECT count(*) FROM gold.consensus") == [[consensus]]
        agreement = "SELECT count(*) FROM gold.agreement WHERE study = 'correctness_ab'"
        assert fresh.query(agreement)[0][0] > 0
    finally:
        fresh.close()


def test_publishing_named_tables_keeps_the_others_from_the_previous_copy(tmp_path: Path) -> None:
    db, target = tmp_path / "warehouse.duckdb", tmp_path / "published.duckdb"
    _warehouse(db, 4)
    with warehouse.connect(db) as con:
        warehouse.replace_study_rows(con, "gold.other", "s", pd.DataFrame({"z": [1]}))
        warehouse.replace_study_rows(con, "gold.gone", "s", pd.DataFrame({"z": [1]}))
        publish(con, target)
        warehouse.replace_study_rows(con, "gold.scores", "s", pd.DataFrame({"x": range(6)}))
        warehouse.replace_study_rows(con, "gold.other", "s", pd.DataFrame({"z": [1, 2]}))
        con.execute("DROP TABLE gold.gone")
        publish(con, target, tables=["gold.scores", "staging.work"])
    session = Session(target)
    try:
        assert session.query("SELECT count(*) FROM gold.scores") == [[6]]
        assert session.query("SELECT total FROM gold.a_outer") == [[30]]
        assert session.query("SELECT count(*) FROM gold.other") == [[1]]  # as it was published
        tables = "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'gold' ORDER BY 1"
        assert session.query(tables) == [["other"], ["scores"]]
        assert session.query("SELECT count(*), max(tables) FROM main.published") == [[1, 2]]
    finally:
        session.close()


def test_a_named_publish_keeps_unchanged_views_and_follows_changed_ones(tmp_path: Path) -> None:
    db, target = tmp_path / "warehouse.duckdb", tmp_path / "published.duckdb"
    _warehouse(db, 4)
    with warehouse.connect(db) as con:
        con.execute("CREATE VIEW gold.dropped AS SELECT 1 AS one")
        publish(con, target)
        warehouse.replace_study_rows(con, "gold.scores", "s", pd.DataFrame({"x": range(6)}))
        con.execute("CREATE OR REPLACE VIEW gold.z_inner AS SELECT x * 3 AS x2 FROM gold.scores")
        con.execute("DROP VIEW gold.dropped")
        con.execute("CREATE VIEW gold.added AS SELECT count(*) AS n FROM gold.scores")
        publish(con, target, tables=["gold.scores"])
    session = Session(target)
    try:
        # a_outer was kept and reads the new z_inner over the new scores: 3 * (0 + ... + 5).
        assert session.query("SELECT total FROM gold.a_outer") == [[45]]
        assert session.query("SELECT n FROM gold.added") == [[6]]
        views = "SELECT view_name FROM duckdb_views() WHERE NOT internal ORDER BY 1"
        assert session.query(views) == [["a_outer"], ["added"], ["z_inner"]]
        assert session.query("SELECT views FROM main.published") == [[3]]
    finally:
        session.close()
