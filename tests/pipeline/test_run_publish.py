"""A run publishes the gold tables its steps wrote once, as it ends (failed or not), so that
researchers see a run's tables together; a publish that fails then is logged and done by the
next run. Outside a run (a command, an asset called directly) a write publishes at once."""

from __future__ import annotations

import errno
from pathlib import Path
from types import SimpleNamespace

import dagster as dg
import duckdb
import pytest

from raterlab import publish as publish_module
from raterlab import warehouse
from resources import Raterlab


def _published(home: Path, table: str) -> list[tuple]:
    with duckdb.connect(str(home / "published.duckdb"), read_only=True) as con:
        return con.execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall()


def _unpublished(home: Path) -> list[str]:
    with warehouse.connect(home / "warehouse.duckdb", read_only=True) as con:
        return [r[0] for r in con.execute("SELECT table_name FROM staging.unpublished").fetchall()]


@pytest.fixture
def publishes(monkeypatch: pytest.MonkeyPatch) -> list[set[str] | None]:
    """The gold tables each copy of ``published.duckdb`` took from the warehouse, in order
    (``None``: all of them)."""
    copies: list[set[str] | None] = []
    copy = publish_module._copy

    def counted(con, database, current, target, written):
        copies.append(None if written is None else set(written))
        copy(con, database, current, target, written)

    monkeypatch.setattr(publish_module, "_copy", counted)
    return copies


def _writer(name: str, value: int, home: Path, seen: dict[str, bool]):
    @dg.asset(name=name)
    def write(raterlab: Raterlab) -> None:
        seen[name] = (home / "published.duckdb").exists()
        with raterlab.warehouse() as con:
            con.execute(f"CREATE OR REPLACE TABLE gold.{name} AS SELECT {value} AS x")
            raterlab.publish(con, [f"gold.{name}", "staging.not_gold"])

    return write


def test_a_run_publishes_what_its_steps_wrote_once_as_it_ends(tmp_path: Path, publishes) -> None:
    seen: dict[str, bool] = {}
    first, second = _writer("first", 1, tmp_path, seen), _writer("second", 2, tmp_path, seen)

    @dg.asset(deps=[first])
    def after(raterlab: Raterlab) -> None:
        seen["after"] = (tmp_path / "published.duckdb").exists()

    result = dg.materialize(
        [first, second, after], resources={"raterlab": Raterlab(home=str(tmp_path))}
    )
    assert result.success
    assert not any(seen.values())  # nothing published while the run went on
    assert publishes == [{"gold.first", "gold.second"}]
    assert _published(tmp_path, "gold.first") == [(1,)]
    assert _published(tmp_path, "gold.second") == [(2,)]
    assert _unpublished(tmp_path) == []


def test_a_failed_run_still_publishes_what_its_steps_committed(tmp_path: Path) -> None:
    first = _writer("first", 1, tmp_path, {})

    @dg.asset(deps=[first])
    def fails(raterlab: Raterlab) -> None:
        raise RuntimeError("a step that fails")

    result = dg.materialize(
        [first, fails], resources={"raterlab": Raterlab(home=str(tmp_path))}, raise_on_error=False
    )
    assert not result.success
    assert _published(tmp_path, "gold.first") == [(1,)]


def test_a_publish_that_fails_as_the_run_ends_is_logged_and_the_next_run_does_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def disk_full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    first = _writer("first", 1, tmp_path, {})
    raterlab = Raterlab(home=str(tmp_path))
    with warehouse.connect(tmp_path / "warehouse.duckdb") as con:  # a previous copy to keep
        publish_module.publish(con, tmp_path / "published.duckdb")
    instance = dg.DagsterInstance.ephemeral()
    with monkeypatch.context() as patched:
        patched.setattr(publish_module, "shutil", SimpleNamespace(copyfile=disk_full))
        result = dg.materialize([first], resources={"raterlab": raterlab}, instance=instance)
    assert result.success  # the tables are committed; only the copy is late
    logged = [e.user_message for e in instance.all_logs(result.run_id) if e.level >= 40]
    assert any("No space left on device" in m and "committed" in m for m in logged)
    assert _unpublished(tmp_path) == ["gold.first"]
    with duckdb.connect(str(tmp_path / "published.duckdb"), read_only=True) as con:
        assert not con.execute(
            "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'first'"
        ).fetchall()[0][0]

    @dg.asset
    def nothing(raterlab: Raterlab) -> None:
        return None

    assert dg.materialize([nothing], resources={"raterlab": raterlab}).success
    assert _published(tmp_path, "gold.first") == [(1,)]
    assert _unpublished(tmp_path) == []


def test_outside_a_run_a_write_publishes_at_once(tmp_path: Path, publishes) -> None:
    raterlab = Raterlab(home=str(tmp_path))
    with raterlab.warehouse() as con:
        con.execute("CREATE TABLE gold.now AS SELECT 3 AS x")
        raterlab.publish(con, ["gold.now"])
    assert publishes == [{"gold.now"}]
    assert _published(tmp_path, "gold.now") == [(3,)]
