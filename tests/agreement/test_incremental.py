"""Agreement updated task by task equals agreement computed again on everything."""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
import numpy as np
import pandas as pd
import pytest
import yaml

from assets import agreement as agreement_assets
from raterlab import warehouse
from raterlab.agreement.incremental import (
    TASK_TABLES,
    agreement_update,
    changed_tasks,
    task_inputs,
)
from raterlab.agreement.study import agreement_tables, rating_fields
from raterlab.protocol import CategoricalField, load_study
from raterlab.tables.ingest import LABELS
from resources import Raterlab
from tests.conftest import BUNDLED, STUDIES
from tests.consensus.conftest import build_home

ANNOTATORS = ("a1", "a2", "a3")


def _rows(study, seed: int, n_items: int = 24) -> pd.DataFrame:
    """Random ratings of every rating field by three annotators (a few missing), with every
    slice key of the study taking two values."""
    rng = np.random.default_rng(seed)
    out = []
    for task, field, spec in rating_fields(study):
        domain = list(spec.domain())
        for i in range(n_items):
            for annotator in ANNOTATORS:
                if rng.random() < 0.1:
                    continue
                value = domain[int(rng.integers(len(domain)))]
                numeric = np.nan if isinstance(spec, CategoricalField) else float(value)
                row = {
                    "task": task,
                    "item_id": f"{task}-{i:03d}",
                    "annotator_id": annotator,
                    "field": field,
                    "value": str(value),
                    "value_num": numeric,
                    "round": "main",
                }
                row.update({key: f"{key}-{i % 2}" for key in study.slices if key not in row})
                out.append(row)
    return pd.DataFrame(out)


def _sorted(frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame.drop(columns=["computed_at"], errors="ignore").reset_index(drop=True)
    order = frame.astype(str).sort_values(list(frame.columns)).index
    return frame.loc[order].reset_index(drop=True)


@pytest.mark.parametrize("name", BUNDLED)
def test_changing_one_task_updates_to_what_a_full_computation_gives(name) -> None:
    study = load_study(STUDIES / f"{name}.yaml")
    before = _rows(study, seed=1)
    stored = agreement_tables(study, before)
    first = next(task for task, _, _ in rating_fields(study))
    after = pd.concat(
        [before[before["task"] != first], _rows(study, seed=2).query("task == @first")],
        ignore_index=True,
    )
    changed = changed_tasks(task_inputs(study, after, "a"), task_inputs(study, before, "a"))
    assert changed == [first]
    updated = agreement_update(study, after, changed, lambda: stored)
    full = agreement_tables(study, after)
    assert set(updated) == set(full)
    for table in (*TASK_TABLES, "staging.agreement_thresholds"):
        pd.testing.assert_frame_equal(_sorted(updated[table]), _sorted(full[table]), obj=table)


def _materialize(resource) -> dict:
    result = dg.materialize(
        dg.load_assets_from_modules([agreement_assets], group_name=None),
        selection=["agreement"],
        partition_key="gold_tiers",
        resources={"raterlab": resource},
        instance=dg.DagsterInstance.ephemeral(),
    )
    [event] = [e for e in result.get_asset_materialization_events()]
    return event.materialization.metadata


def _stored(home) -> pd.DataFrame:
    with warehouse.connect(home.warehouse, read_only=True) as con:
        return con.sql("SELECT * EXCLUDE (computed_at) FROM gold.agreement ORDER BY ALL").df()


def test_the_agreement_asset_computes_again_only_the_task_whose_ratings_changed(
    tmp_path: Path,
) -> None:
    data = yaml.safe_load((STUDIES / "gold_tiers.yaml").read_text())
    lines = (STUDIES / "gold_tiers" / "generations.jsonl").read_text().splitlines()
    _, home = build_home(tmp_path, data, [json.loads(line) for line in lines][::4])
    resource = Raterlab(home=str(home.root), studies=str(tmp_path / "studies"))
    assert _materialize(resource)["tasks_recomputed"].value == ", ".join(
        ["factual_qa", "summarization", "code_generation", "rag_synthesis"]
    )
    with warehouse.connect(home.warehouse) as con:
        con.execute(
            """UPDATE gold.rating_values v SET value = '1', value_num = 1
               FROM gold.ratings r WHERE r.rating_id = v.rating_id AND r.task = 'summarization'
               AND v.field = (SELECT min(field) FROM gold.rating_values w
                              WHERE w.rating_id = v.rating_id)"""
        )
    assert _materialize(resource)["tasks_recomputed"].value == "summarization"
    incremental = _stored(home)
    with warehouse.connect(home.warehouse) as con:
        con.execute("DELETE FROM staging.step_inputs WHERE step LIKE 'agreement%'")
    assert _materialize(resource)["recomputed"].value is True
    pd.testing.assert_frame_equal(_stored(home), incremental)


def test_agreement_read_from_its_label_columns_equals_agreement_from_whole_labels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = yaml.safe_load((STUDIES / "gold_tiers.yaml").read_text())
    lines = (STUDIES / "gold_tiers" / "generations.jsonl").read_text().splitlines()
    _, home = build_home(tmp_path, data, [json.loads(line) for line in lines][::4])
    resource = Raterlab(home=str(home.root), studies=str(tmp_path / "studies"))
    study = resource.study("gold_tiers")
    slim = agreement_assets.study_ratings(resource, study)
    pilot = agreement_assets.study_ratings(resource, study, "pilot")
    monkeypatch.setattr(agreement_assets, "label_columns", lambda s: LABELS.names[1:])
    whole = agreement_assets.study_ratings(resource, study)
    assert {"notes", "token", "source_file"} <= set(whole) - set(slim)
    assert len(slim) == len(whole) > 0
    assert len(pilot) == len(agreement_assets.study_ratings(resource, study, "pilot"))
    for name, table in agreement_tables(study, slim).items():
        pd.testing.assert_frame_equal(
            _sorted(table), _sorted(agreement_tables(study, whole)[name]), obj=name
        )
