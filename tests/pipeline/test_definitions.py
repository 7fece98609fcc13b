"""A snapshot of the code location's definitions: every asset (group, upstream assets, kinds),
every asset check (blocking or not), every job (its assets and steps), the schedule and the
sensor. The expected sets are written out here, so an asset or check that goes missing, is
renamed or moves to another group, or a job that selects other assets, fails this test; a
deliberate change updates the snapshot in the same commit."""

from __future__ import annotations

import dagster as dg
import pytest

ASSETS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    # key: (group, upstream asset keys, kinds)
    "study_protocol": ("design", (), ("duckdb", "yaml")),
    "raw_generations": ("design", ("study_protocol",), ("duckdb",)),
    "routed_items": ("design", ("raw_generations",), ("duckdb",)),
    "assignments": ("design", ("routed_items",), ("duckdb",)),
    "blinding_key": ("design", ("assignments",), ("duckdb",)),
    "pilot_packets": ("design", ("blinding_key",), ("csv",)),
    "main_packets": ("design", ("blinding_key", "pilot_agreement"), ("csv",)),
    "returned_annotations": ("ingest", ("pilot_packets",), ("csv",)),
    "validated_annotations": ("ingest", ("returned_annotations",), ("duckdb",)),
    "labels": ("ingest", ("validated_annotations",), ("duckdb",)),
    "pilot_agreement": ("agreement", ("labels",), ("duckdb",)),
    "agreement": ("agreement", ("labels",), ("duckdb",)),
    "rater_quality": ("quality", ("labels",), ("duckdb",)),
    "adjudication_queue": ("consensus", ("labels", "rater_quality"), ("duckdb",)),
    "adjudication_packets": ("consensus", ("adjudication_queue",), ("csv",)),
    "adjudications": ("consensus", ("adjudication_packets",), ("csv", "duckdb")),
    "consensus": ("consensus", ("adjudications",), ("duckdb",)),
    "system_metrics": ("consensus", ("consensus",), ("duckdb",)),
    "judge_calibration": ("consensus", ("consensus",), ("duckdb", "png")),
    "judge_substitution": ("consensus", ("consensus",), ("duckdb",)),
    "judge_robustness": ("consensus", ("consensus",), ("duckdb",)),
    "judge_verdicts": (
        "consensus",
        ("judge_calibration", "judge_robustness", "judge_substitution"),
        ("duckdb",),
    ),
    "condition_comparison": ("consensus", ("consensus",), ("duckdb",)),
    "pairwise_comparisons": ("pairwise", ("labels",), ("duckdb",)),
    "pairwise_ranking": ("pairwise", ("pairwise_comparisons",), ("duckdb",)),
    "exports": (
        "consensus",
        ("agreement", "condition_comparison", "consensus", "judge_calibration"),
        ("json", "parquet"),
    ),
    "report": (
        "report",
        (
            "agreement",
            "condition_comparison",
            "judge_calibration",
            "judge_verdicts",
            "pairwise_ranking",
            "pilot_agreement",
            "rater_quality",
            "system_metrics",
        ),
        ("html",),
    ),
}

BLOCKING_CHECKS = {
    ("assignments", "assignment_matches_design"),
    ("pilot_packets", "packets_match_assignment"),
    ("pilot_packets", "no_hidden_values_in_packets"),
    ("main_packets", "packets_match_assignment"),
    ("main_packets", "no_hidden_values_in_packets"),
    ("labels", "no_rule_violations_in_labels"),
    ("pilot_agreement", "pilot_gate"),
    ("consensus", "gold_table_contract"),
}
WARNING_CHECKS = {
    ("routed_items", "routed_shares_near_targets"),
    ("labels", "assignment_coverage"),
    ("validated_annotations", "quarantined_files"),
    ("agreement", "agreement_thresholds"),
    ("rater_quality", "attention_checks_passed"),
    ("rater_quality", "self_consistency"),
    ("rater_quality", "no_rushed_raters"),
    ("rater_quality", "calibration_alignment"),
    ("rater_quality", "no_biased_raters"),
    ("rater_quality", "no_spot_check_drift"),
    ("adjudications", "adjudication_backlog"),
    ("consensus", "unresolved_consensus"),
    ("judge_calibration", "judges_within_bounds"),
    ("pairwise_ranking", "ranking_intervals_and_systems"),
    ("pairwise_ranking", "no_position_biased_raters"),
}
STRUCTURE_CHECKS = {
    # asset: its gold tables, each with a ``<table>_structure`` check
    "routed_items": ("tier_costs",),
    "labels": ("ratings", "rating_values", "labels", "rating_history"),
    "pilot_agreement": ("pilot_gates", "pilot_matrices"),
    "agreement": ("agreement", "agreement_pairwise", "agreement_matrices"),
    "rater_quality": ("rater_quality", "rater_item_flags", "promotions"),
    "adjudications": ("adjudications", "adjudication_history"),
    "consensus": ("items", "consensus", "consensus_items", "consensus_by_condition"),
    "system_metrics": ("metrics",),
    "judge_calibration": ("judge_calibration", "judge_weights"),
    "judge_substitution": ("judge_substitution",),
    "judge_robustness": ("judge_robustness", "pairwise_judges"),
    "judge_verdicts": ("judge_verdicts",),
    "condition_comparison": ("condition_comparison", "condition_means"),
    "pairwise_comparisons": ("pairwise_comparisons",),
    "pairwise_ranking": (
        "pairwise_ranking",
        "pairwise_win_rates",
        "pairwise_position_bias",
        "pairwise_agreement",
    ),
}

PACKETS = {
    "study_protocol",
    "raw_generations",
    "routed_items",
    "assignments",
    "blinding_key",
    "pilot_packets",
}
"""The assets that write a study's first packets (``packets_job``)."""

JOB_ASSETS = {
    "annotation_job": set(ASSETS),
    "packets_job": PACKETS,
    "ingest_job": set(ASSETS) - PACKETS,
    "agreement_job": {"pilot_agreement", "agreement"},
}
SCHEDULES = {"nightly_agreement": ("agreement_job", "0 2 * * *")}
SENSORS = {"inbox_sensor": "ingest_job"}


@pytest.fixture(scope="module")
def defs() -> dg.Definitions:
    from pipelines.definitions import defs

    return defs


def _all_checks() -> set[tuple[str, str]]:
    structure = {
        (asset, f"{table}_structure")
        for asset, tables in STRUCTURE_CHECKS.items()
        for table in tables
    }
    return BLOCKING_CHECKS | WARNING_CHECKS | structure


def test_assets(defs: dg.Definitions) -> None:
    graph = defs.resolve_asset_graph()
    found = {
        key.to_user_string(): (
            graph.get(key).group_name,
            tuple(sorted(parent.to_user_string() for parent in graph.get(key).parent_keys)),
            tuple(sorted(graph.get(key).kinds)),
        )
        for key in graph.get_all_asset_keys()
    }
    assert found == ASSETS


PROMOTION_READERS = (
    "adjudication_queue",
    "adjudication_packets",
    "consensus",
    "judge_calibration",
    "judge_substitution",
    "judge_verdicts",
)
"""Steps that read ``gold.promotions`` (``raterlab.ingest.study_tables.load_tables``)."""


def test_a_promotion_is_read_in_the_run_that_writes_it(defs: dg.Definitions) -> None:
    """Every step that acts on the drift rule's promotions comes after ``rater_quality``,
    which writes them: no executor may run one first, on the previous run's promotions
    (before 2026-11-27 the adjudication queue was beside rater quality, not after it)."""
    graph = defs.resolve_asset_graph()

    def ancestors(key: dg.AssetKey) -> set[dg.AssetKey]:
        parents = graph.get(key).parent_keys
        return set(parents).union(*(ancestors(p) for p in parents))

    for name in PROMOTION_READERS:
        assert dg.AssetKey("rater_quality") in ancestors(dg.AssetKey(name)), name


def test_asset_checks(defs: dg.Definitions) -> None:
    graph = defs.resolve_asset_graph()
    found = {(key.asset_key.to_user_string(), key.name) for key in graph.asset_check_keys}
    assert found == _all_checks()
    blocking = {
        (key.asset_key.to_user_string(), key.name)
        for key in graph.asset_check_keys
        if graph.get_check_spec(key).blocking
    }
    assert blocking == BLOCKING_CHECKS


def test_everything_is_partitioned_by_study(defs: dg.Definitions) -> None:
    from assets.partitions import study_partitions

    graph = defs.resolve_asset_graph()
    for key in graph.get_all_asset_keys():
        assert graph.get(key).partitions_def == study_partitions, key
    for key in graph.asset_check_keys:
        assert graph.get_check_spec(key).partitions_def == study_partitions, key
    for name in JOB_ASSETS:
        assert defs.resolve_job_def(name).partitions_def == study_partitions, name


def test_jobs(defs: dg.Definitions) -> None:
    jobs = {job.name for job in defs.resolve_all_job_defs() if not job.name.startswith("__")}
    assert jobs == set(JOB_ASSETS)
    for name, selected in JOB_ASSETS.items():
        keys = defs.resolve_job_def(name).asset_layer.executable_asset_keys
        assert {key.to_user_string() for key in keys} == selected, name


def test_steps_of_the_annotation_job(defs: dg.Definitions) -> None:
    """One step per asset (its tables' structure checks evaluated in it), one for the rater
    quality checks together and one per other check (``<asset>_<check>``): the step keys runs
    and the UI show."""
    steps = {node.name for node in defs.resolve_job_def("annotation_job").graph.nodes}
    single = {
        f"{asset}_{name}"
        for asset, name in BLOCKING_CHECKS | WARNING_CHECKS
        if asset != "rater_quality"
    }
    assert steps == set(ASSETS) | single | {"rater_quality_checks"}
    graph = defs.resolve_asset_graph()
    for asset, tables in STRUCTURE_CHECKS.items():
        own = {key.name for key in graph.get(dg.AssetKey(asset)).check_keys}
        assert {f"{t}_structure" for t in tables} <= own, asset


def test_schedules_and_sensors(defs: dg.Definitions) -> None:
    repository = defs.get_repository_def()
    schedules = {s.name: (s.job_name, s.cron_schedule) for s in repository.schedule_defs}
    assert schedules == SCHEDULES
    assert {s.name: s.job_name for s in repository.sensor_defs} == SENSORS
