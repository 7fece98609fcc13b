"""The gold-table contract (Great Expectations) passes on published tables and fails on
corrupted ones, naming the broken expectation."""

from __future__ import annotations

import gc
import re

import jinja2
import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.gold import contract
from raterlab.gold.build import build_consensus
from raterlab.gold.contract import consensus_expectations, contract_frame, validate_gold
from raterlab.ingest.study_tables import load_tables
from raterlab.warehouse import read_table


@pytest.fixture(scope="module")
def published(_built_loop):
    """Tables of the simulated mini study after consensus (read once for the module)."""
    study, home = _built_loop
    with warehouse.connect(home.warehouse) as con:
        build_consensus(con, study)
        tables = load_tables(con, study)
        consensus = read_table(con, "gold.consensus", study.name)
        items = read_table(con, "gold.items", study.name, ("record",))
    return study, home, tables, consensus, items


def _failed(result) -> set[tuple[str, str]]:
    return {(r.expectation, r.column) for r in result.failed.itertuples()}


def test_passes_on_published_tables_and_writes_data_docs(published, tmp_path) -> None:
    study, _, tables, consensus, items = published
    result = validate_gold(study, consensus, items, tables.ratings, tables.key, tmp_path)
    assert result.success, result.failed
    assert len(result.results) > 15
    assert result.docs == tmp_path / "gold_contract" / "index.html"
    assert result.docs.is_file()
    assert any(tmp_path.joinpath("gold_contract").rglob("validations/**/*.html"))


def _pages(folder) -> dict[str, str]:
    """The Data Docs' HTML pages under ``folder``, by path, without what differs from build
    to build (run times and their folder names, ids)."""
    varying = re.compile(
        r"\d{8}T\d{6}\.\d+Z|\d{4}-\d{2}-\d{2}[T ][\d:.]+(\+00:00|Z)?|_run_time_sort': [\d.]+"
        r"|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    )
    return {
        varying.sub("", str(page.relative_to(folder))): varying.sub("", page.read_text())
        for page in folder.rglob("*.html")
    }


def test_data_docs_compile_their_templates_once_and_show_great_expectations_pages(
    published, tmp_path, monkeypatch
) -> None:
    """The views share one Jinja environment per process (each build compiled every template
    again), and the pages are those of Great Expectations' own views."""
    study, _, tables, consensus, items = published
    validate_gold(study, consensus, items, tables.ratings, tables.key, tmp_path / "ours")
    built = []
    monkeypatch.setattr(jinja2.Environment, "compile", _counted(jinja2.Environment.compile, built))
    validate_gold(study, consensus, items, tables.ratings, tables.key, tmp_path / "ours")
    assert built == []

    monkeypatch.setattr(
        contract,
        "_view",
        lambda name: {
            "module_name": "great_expectations.render.view",
            "class_name": {"PageView": "DefaultJinjaPageView"}.get(name, "DefaultJinja" + name),
        },
    )
    validate_gold(study, consensus, items, tables.ratings, tables.key, tmp_path / "theirs")
    assert built, "Great Expectations' own views compile their templates"
    ours, theirs = _pages(tmp_path / "ours"), _pages(tmp_path / "theirs")
    assert len(ours) >= 5
    assert ours == theirs


def _counted(function, calls: list):
    def counted(*args, **kwargs):
        calls.append(args[1:2])
        return function(*args, **kwargs)

    return counted


def test_the_contract_frame_holds_every_column_an_expectation_reads(published) -> None:
    study, _, tables, consensus, items = published
    frame = contract_frame(study, consensus, items, tables.ratings, tables.key)
    read = set()
    for expectation in consensus_expectations(study, len(frame)):
        for name in ("column", "column_A", "column_B"):
            read |= {getattr(expectation, name, None)} - {None}
        read |= set(getattr(expectation, "column_list", None) or [])
        condition = getattr(expectation.row_condition, "pass_through_filter", None) or ""
        read |= set(re.findall(r"(\w+)\s*(?:==|\.isin\()", condition))
    assert read <= set(frame.columns)
    assert {"status", "task", "field"} <= read  # the conditions were read
    assert "reason" not in frame.columns


def test_the_validated_frames_are_not_kept(published) -> None:
    """Great Expectations keeps its last context process-wide: the frames it validated (at
    100,000 items about 200 MB) must not stay resident through the steps after."""
    study, _, tables, consensus, items = published
    odd = consensus.iloc[:-3]  # a length no other frame of the test has

    def held() -> list[pd.DataFrame]:
        gc.collect()
        return [o for o in gc.get_objects() if isinstance(o, pd.DataFrame) and len(o) == len(odd)]

    validate_gold(study, odd, items, tables.ratings, tables.key)
    assert [id(f) for f in held()] == [id(odd)]


def test_fails_on_corrupted_tables(published) -> None:
    study, _, tables, consensus, items = published
    bad = consensus.copy()
    binary = bad.index[(bad["field"] == "relevant") & bad["value"].notna()][0]
    bad.loc[binary, "value"] = "7"  # outside the binary domain
    likert = bad.index[(bad["field"] == "score") & bad["value_num"].notna()][0]
    bad.loc[likert, "value_num"] = 9.0  # outside 1..5
    resolved = bad.index[(bad["status"] == "unanimous")][-1]
    bad.loc[resolved, "value"] = None  # a resolved field without a value
    bad.loc[bad.index[0], "status"] = "probably"  # not a status
    bad = pd.concat([bad, bad.iloc[[5]]], ignore_index=True)  # a duplicate row
    result = validate_gold(study, bad, items, tables.ratings, tables.key)
    assert not result.success
    failed = _failed(result)
    assert ("expect_column_values_to_be_in_set", "value") in failed
    assert ("expect_column_values_to_be_between", "value_num") in failed
    assert ("expect_column_values_to_not_be_null", "value") in failed
    assert ("expect_column_values_to_be_in_set", "status") in failed
    assert ("expect_compound_columns_to_be_unique", "task, item_id, field") in failed
    assert ("expect_table_row_count_to_equal", "") in failed


def test_fails_when_counts_disagree_with_the_ratings(published) -> None:
    study, _, tables, consensus, items = published
    bad = consensus.copy()
    bad.loc[bad.index[:3], "n_ratings"] = 40
    result = validate_gold(study, bad, items, tables.ratings, tables.key)
    failed = _failed(result)
    assert ("expect_column_pair_values_to_be_equal", "n_ratings, n_counted") in failed
    assert ("expect_column_pair_values_a_to_be_greater_than_b", "n_assigned, n_ratings") in failed
    missing = consensus[consensus["item_id"] != consensus["item_id"].iloc[0]]
    result = validate_gold(study, missing, items, tables.ratings, tables.key)
    assert ("expect_table_row_count_to_equal", "") in _failed(result)


def test_items_keep_each_record_as_stored_and_show_its_keys(published) -> None:
    """gold.items copies each item's record from raw.generations as it is (JSON text, never
    decoded and encoded again), with condition, model and category taken from it."""
    study, home, _, _, items = published
    with warehouse.connect(home.warehouse, read_only=True) as con:
        stored = con.execute(
            "SELECT i.item_id, i.record::VARCHAR = g.record::VARCHAR FROM gold.items i "
            "JOIN raw.generations g USING (study, item_id) WHERE i.study = ?",
            [study.name],
        ).fetchall()
    assert len(stored) == len(items) > 0 and all(same for _, same in stored)
    for item in items.itertuples():
        assert item.condition == item.record.get("condition")
        assert item.model == item.record.get("model")
