"""Metric families: Wilson and cluster-bootstrap intervals against published values and
reference libraries, and the rates of a declared family computed by hand."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import bootstrap
from statsmodels.stats.proportion import proportion_confint

from raterlab.metrics import cluster_bootstrap_interval, compute_metrics, intervals, wilson_interval
from raterlab.protocol import load_study, parse_study
from raterlab.protocol.load import StudyError
from tests.conftest import STUDIES


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    # Newcombe (1998), Statistics in Medicine 17:857-872, Table II, method 3 (Wilson score)
    [
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_matches_newcombe(successes: int, n: int, low: float, high: float) -> None:
    got = wilson_interval(successes, n)
    assert got == pytest.approx((low, high), abs=5e-5)
    assert got == pytest.approx(proportion_confint(successes, n, method="wilson"), abs=1e-12)


def test_wilson_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError, match="successes must lie"):
        wilson_interval(5, 3)
    assert np.isnan(wilson_interval(0, 0)[0])


def test_cluster_bootstrap_with_singleton_clusters_is_the_ordinary_bootstrap() -> None:
    rng = np.random.default_rng(3)
    values = (rng.random(200) < 0.3).astype(float)
    ours = cluster_bootstrap_interval(values, np.ones(200), n_resamples=4000, seed=1)
    ref = bootstrap((values,), np.mean, n_resamples=4000, method="percentile", random_state=1)
    ci = ref.confidence_interval
    assert ours == pytest.approx((ci.low, ci.high), abs=0.02)


def test_cluster_bootstrap_is_wider_than_wilson_when_clusters_are_homogeneous() -> None:
    # 30 queries of 5 chunks each, every chunk of a query alike: 150 items but 30 effective
    per_query = np.array([1.0] * 12 + [0.0] * 18)
    numerators, denominators = per_query * 5, np.full(30, 5.0)
    low, high = cluster_bootstrap_interval(numerators, denominators, seed=0)
    w_low, w_high = wilson_interval(60, 150)
    assert high - low > 1.5 * (w_high - w_low)
    assert low < 0.4 < high


@pytest.mark.parametrize("block", [37, 40, 37 * 11, 37 * 2000])
def test_cluster_bootstrap_does_not_depend_on_the_draws_block(monkeypatch, block) -> None:
    """Resamples drawn a block at a time are the draws of one draw of every resample, in the
    same order: the same interval, exactly, with one resample per block or all at once."""
    rng = np.random.default_rng(5)
    numerators, denominators = rng.integers(0, 6, 37).astype(float), np.full(37, 5.0)
    monkeypatch.setattr(intervals, "BLOCK_CELLS", 37 * 2000)
    whole = cluster_bootstrap_interval(numerators, denominators, seed=4)
    monkeypatch.setattr(intervals, "BLOCK_CELLS", block)
    assert cluster_bootstrap_interval(numerators, denominators, seed=4) == whole


def _study():
    return load_study(STUDIES / "rag_triplet.yaml")


def _tables(rows: list[tuple[str, str, str, int, int, dict[str, int]]]):
    """(item_id, task, query_id, rank, system..., {field: value}) -> items, consensus."""
    items, consensus = [], []
    for item_id, task, query, rank, system, values in rows:
        record = {"query_id": query, "rank": rank, "system": system}
        items.append({"item_id": item_id, "task": task, "record": record})
        for field, value in values.items():
            consensus.append({"task": task, "item_id": item_id, "field": field, "value_num": value})
    return pd.DataFrame(items), pd.DataFrame(consensus)


def test_declared_families_computed_by_hand() -> None:
    study = _study()
    rows = [
        # query 1: ranks 1-3 relevant, 4 not, rank 6 relevant but outside k=5
        (
            "q1-c1",
            "retrieval",
            "q1",
            1,
            "s",
            {"topically_relevant": 1, "evidence_sufficient": 1, "misleading": 0},
        ),
        (
            "q1-c2",
            "retrieval",
            "q1",
            2,
            "s",
            {"topically_relevant": 1, "evidence_sufficient": 0, "misleading": 1},
        ),
        (
            "q1-c3",
            "retrieval",
            "q1",
            3,
            "s",
            {"topically_relevant": 1, "evidence_sufficient": 0, "misleading": 0},
        ),
        (
            "q1-c4",
            "retrieval",
            "q1",
            4,
            "s",
            {"topically_relevant": 0, "evidence_sufficient": 0, "misleading": 0},
        ),
        (
            "q1-c6",
            "retrieval",
            "q1",
            6,
            "s",
            {"topically_relevant": 1, "evidence_sufficient": 1, "misleading": 0},
        ),
        # query 2: one chunk, not relevant
        (
            "q2-c1",
            "retrieval",
            "q2",
            1,
            "s",
            {"topically_relevant": 0, "evidence_sufficient": 0, "misleading": 1},
        ),
        ("q1-grd", "grounding", "q1", 0, "s", {"fabricated_source": 1, "support_present": 1}),
        ("q2-grd", "grounding", "q2", 0, "s", {"fabricated_source": 0, "support_present": 1}),
        ("q3-grd", "grounding", "q3", 0, "s", {"support_present": 0}),
    ]
    items, consensus = _tables(rows)
    consensus.loc[len(consensus)] = {
        "task": "grounding",
        "item_id": "q3-grd",
        "field": "fabricated_source",
        "value_num": np.nan,
    }
    out = compute_metrics(study, items, consensus).set_index("metric")
    # precision@5: mean over queries of (3/4, 0/1)
    assert out.loc["relevance_precision_at_k", "estimate"] == pytest.approx(0.375)
    assert out.loc["relevance_precision_at_k", "interval"] == "cluster_bootstrap"
    # sufficiency: queries with a sufficient chunk in the top 5: q1 only
    assert out.loc["sufficiency", ["estimate", "successes", "n"]].tolist() == [0.5, 1, 2]
    # misleading rate over the 5 top-5 chunks: 2 of 5, nested in 2 queries
    assert out.loc["misleading_rate", ["estimate", "n", "n_clusters"]].tolist() == [0.4, 5, 2]
    # fabricated sources: q3 has no consensus value and is left out
    fab = out.loc["fabricated_source_rate"]
    assert (fab["estimate"], fab["n"], fab["n_excluded"], fab["interval"]) == (0.5, 2, 1, "wilson")
    assert (fab["ci_low"], fab["ci_high"]) == pytest.approx(wilson_interval(1, 2))
    assert set(out["system"]) == {"s"}
    families = study.metrics.families
    assert set(out.index) == {m for f in ("retrieval", "grounding") for m in families[f].metrics}


def test_several_systems_get_their_own_rows_and_a_pooled_one() -> None:
    rows = [
        (
            f"q{i}-gen",
            "generation",
            f"q{i}",
            0,
            "A" if i < 4 else "B",
            {"unsafe_content": int(i == 1)},
        )
        for i in range(8)
    ]
    items, consensus = _tables(rows)
    out = compute_metrics(_study(), items, consensus)
    unsafe = out[out["metric"] == "unsafe_rate"].set_index("system")["estimate"]
    assert unsafe.to_dict() == {"A": 0.25, "B": 0.0, "(all)": 0.125}


def test_metric_declaration_errors_name_the_path() -> None:
    import yaml

    data = yaml.safe_load((STUDIES / "rag_triplet.yaml").read_text())
    data["generations"] = "x.jsonl"
    family = data["metrics"]["families"]["retrieval"]
    family["metrics"]["misleading_rate"]["field"] = "helpful"
    del family["rank"]
    data["metrics"]["by"] = "vendor"
    with pytest.raises(StudyError) as err:
        parse_study(data)
    problems = err.value.problems
    where = "metrics.families.retrieval.metrics."
    assert ("metrics.by", "refers to unknown item key 'vendor'") in problems
    assert (
        where + "misleading_rate",
        "field 'helpful' is not a binary field of task 'retrieval'",
    ) in problems
    assert (where + "relevance_precision_at_k", "k needs the family's rank key") in problems


def test_gold_table_and_export(tmp_path) -> None:
    import json

    import duckdb

    from raterlab.exports.bundle import ExportBundle
    from raterlab.exports.system_metrics import system_metrics
    from raterlab.metrics import write_metrics
    from raterlab.tables import names
    from raterlab.tables.adjudication import ADJUDICATIONS

    rows = [
        (f"q{i}-gen", "generation", f"q{i}", 0, "s", {"unsafe_content": int(i < 2)})
        for i in range(10)
    ]
    items, consensus = _tables(rows)
    study = _study()
    frame = compute_metrics(study, items, consensus)
    con = duckdb.connect()
    assert write_metrics(con, "rag_triplet", frame) == len(frame)
    assert write_metrics(con, "rag_triplet", frame) == len(frame)  # replaced, not appended
    stored = con.sql("SELECT metric, estimate, n FROM gold.metrics").df().set_index("metric")
    assert len(stored) == len(frame)
    assert stored.loc["unsafe_rate", "estimate"] == pytest.approx(0.2)
    bundle = ExportBundle(
        study=study,
        items=items,
        consensus=consensus,
        adjudications=pd.DataFrame(columns=names(ADJUDICATIONS)[1:]),
        labels=pd.DataFrame(),
    )
    csv_path, json_path = system_metrics(bundle, tmp_path)
    document = json.loads(json_path.read_text())
    unsafe = document["systems"]["s"]["generation"]["unsafe_rate"]
    assert unsafe["estimate"] == pytest.approx(0.2) and unsafe["interval"] == "wilson"
    assert unsafe["ci"] == pytest.approx(list(wilson_interval(2, 10)))
    assert pd.read_csv(csv_path).shape[0] == len(frame)


def test_read_inputs_decodes_the_keys_the_metrics_read(tmp_path) -> None:
    """The metrics step reads gold.items with each record decoded for the metrics' keys
    alone (a prompt or a response is not carried): the same rows as from whole records."""
    from raterlab import warehouse
    from raterlab.metrics import read_inputs
    from raterlab.metrics.families import record_keys

    rows = [
        (f"q{i}-c{j}", "retrieval", f"q{i}", j, f"s{i % 2}", {"topically_relevant": (i + j) % 2})
        for i in range(12)
        for j in range(1, 4)
    ]
    items, consensus = _tables(rows)
    items["record"] = [{**r, "chunk": "long text " * 50} for r in items["record"]]
    study = _study()
    assert set(record_keys(study)) == {"system", "query_id", "rank"}
    with warehouse.connect(tmp_path / "w.duckdb") as con:
        warehouse.replace_study_tables(
            con, study.name, {"gold.items": items, "gold.consensus": consensus}
        )
        stored, stored_consensus = read_inputs(con, study)
    assert all(set(r) == {"system", "query_id", "rank"} for r in stored["record"])
    expected = compute_metrics(study, items, consensus).drop(columns="computed_at")
    assert len(expected) > 0
    pd.testing.assert_frame_equal(
        compute_metrics(study, stored, stored_consensus).drop(columns="computed_at"), expected
    )


def test_a_study_without_metrics_reads_nothing(tmp_path) -> None:
    """Its ``gold.metrics`` is empty whatever the gold tables hold: neither is read (at
    100,000 items ``gold.items`` holds 100 MB of records)."""
    from raterlab import warehouse
    from raterlab.metrics import read_inputs

    study = _study()
    items, consensus = _tables([(f"q{i}-c1", "retrieval", f"q{i}", 1, "s0", {}) for i in range(3)])
    without = study.model_copy(update={"metrics": None})
    with warehouse.connect(tmp_path / "w.duckdb") as con:
        warehouse.replace_study_tables(
            con, study.name, {"gold.items": items, "gold.consensus": consensus}
        )
        assert len(read_inputs(con, study)[0]) == 3
        items, consensus = read_inputs(con, without)
    assert items.empty and consensus.empty
    assert compute_metrics(without, items, consensus).empty
