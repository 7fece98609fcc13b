"""The judge_calibration and judge_substitution assets on a shortened gold_tiers (three
sample judges in the generations, one imported judge file): gold tables, plot, check,
export."""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
import duckdb
import pandas as pd
import pytest
import yaml

from assets import consensus, judges
from raterlab import figures, warehouse
from raterlab.judges import study as judge_study
from raterlab.judges.calibrate import calibrate_field
from raterlab.judges.store import CALIBRATION, WEIGHTS
from raterlab.judges.verdicts import judges_dir, read_judge_file, store_imported
from raterlab.protocol import load_study
from raterlab.tables.judges import SUBSTITUTION
from resources import Raterlab
from tests.conftest import STUDIES
from tests.consensus.conftest import build_home


def _study_and_records() -> tuple[dict, list[dict]]:
    data = yaml.safe_load((STUDIES / "gold_tiers.yaml").read_text())
    data["judges"]["resamples"] = 100
    data["judges"]["panel"]["vendor"] = {"source": "import", "fields": {"correct": "is_correct"}}
    lines = (STUDIES / "gold_tiers" / "generations.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines][::20]
    return data, records


def test_judge_calibration_asset(tmp_path: Path) -> None:
    data, records = _study_and_records()
    study, home = build_home(tmp_path, data, records)
    qa = [r for r in records if r["task"] == "factual_qa"]
    verdict_file = tmp_path / "vendor.jsonl"
    verdict_file.write_text(
        "".join(
            json.dumps(
                {
                    "item_id": r["id"],
                    "judge": "vendor",
                    "field": "is_correct",
                    "value": "yes" if r["judge_a_correct"] else "no",
                    "confidence": 0.9,
                }
            )
            + "\n"
            for r in qa
        )
    )
    study = load_study(tmp_path / "studies" / "gold_tiers.yaml")
    tasks_of = {r["id"]: r["task"] for r in records}
    store_imported(
        read_judge_file(study, verdict_file, tasks_of), judges_dir(home.root, study.name)
    )

    resource = Raterlab(home=str(home.root), studies=str(tmp_path / "studies"))
    result = dg.materialize(
        [
            *dg.load_assets_from_modules([consensus, judges]),
            *dg.load_asset_checks_from_modules([judges]),
        ],
        partition_key="gold_tiers",
        resources={"raterlab": resource},
        instance=dg.DagsterInstance.ephemeral(),
    )
    assert result.success
    with warehouse.connect(home.warehouse, read_only=True) as con:
        calibration = con.sql("SELECT * FROM gold.judge_calibration").df()
        weights = con.sql("SELECT * FROM gold.judge_weights").df()
    assert list(calibration.columns) == [c.name for c in CALIBRATION]
    assert list(weights.columns) == [c.name for c in WEIGHTS]
    assert set(calibration["judge"]) == {"judge_a", "judge_b", "judge_c", "vendor"}
    headline = calibration[(calibration["slice"] == "all") & (calibration["level"] == "item")]
    kappa = headline[(headline["statistic"] == "kappa") & headline["versus"].isna()]
    by_judge = kappa[(kappa["task"] == "factual_qa") & (kappa["field"] == "correct")].set_index(
        "judge"
    )
    # The vendor file copies judge_a's verdicts on the same units.
    assert by_judge.loc["vendor", "estimate"] == by_judge.loc["judge_a", "estimate"]
    assert by_judge.loc["judge_a", "estimate"] > by_judge.loc["judge_c", "estimate"]
    assert by_judge["human_ceiling"].nunique() == 1
    # gold_tiers calibrates on tier-B only (judges.calibrate_on: tier=GOLD): no TRIAGE slice.
    assert not any(s.startswith("tier=") for s in calibration["slice"])
    assert (calibration["level"] == "system").any()
    noisy = weights[weights["judge"] == "judge_c"]
    assert noisy["flagged"].mean() >= 0.5
    mean_weight = weights.groupby("judge")["weight"].mean()
    assert mean_weight["judge_a"] > mean_weight["judge_c"]
    fields = weights.groupby(["task", "field"])["share"].sum()
    assert ((fields - 1).abs() < 1e-9).all() or (fields == 0).any()
    assert (home.reports / "gold_tiers" / "judge_calibration.png").stat().st_size > 10_000
    checks = {e.check_name: e for e in result.get_asset_check_evaluations()}
    assert checks["judges_within_bounds"].passed is False
    assert checks["judges_within_bounds"].severity == dg.AssetCheckSeverity.WARN
    export = home.root / "exports" / "gold_tiers" / "judges"
    summary = json.loads((export / "summary.json").read_text())
    assert {e["judge"] for e in summary["judges"]} == {"judge_a", "judge_b", "judge_c", "vendor"}
    assert (export / "judge_calibration.png").is_file()
    # the export's plot shows what the report's does: the same digest, copied, not drawn again
    report_plot = home.reports / "gold_tiers" / "judge_calibration.png"
    assert figures._digest_of(export / "judge_calibration.png") == figures._digest_of(report_plot)
    exported = pd.read_csv(export / "judge_calibration.csv")
    assert len(exported) == len(calibration)

    # gold.judge_substitution: written and published, one row per task, judge, field, slice
    # and label; tier-B (GOLD) is the labelled set, so factual_qa (all GOLD) has no
    # unlabelled item and no PPI estimate, and code_generation (4 of 18 items GOLD) has both.
    with duckdb.connect(str(home.published), read_only=True) as con:
        substitution = con.sql("SELECT * FROM gold.judge_substitution").df()
    assert list(substitution.columns) == [c.name for c in SUBSTITUTION]
    assert set(substitution["judge"]) == {"judge_a", "judge_b", "judge_c", "vendor"}
    every = substitution[substitution["slice"] == "all"]
    qa = every[every["task"] == "factual_qa"]
    assert (qa["n_unlabeled"] == 0).all() and qa["estimate"].isna().all()
    assert qa["classical_estimate"].notna().all() and set(qa["label"]) == {"1"}
    quality = every[(every["task"] == "code_generation") & (every["field"] == "quality")]
    # 14 unlabelled items, fewer for a judge whose verdict on some cannot be read.
    assert (quality["n_labeled"] == 4).all() and quality["n_unlabeled"].between(1, 14).all()
    assert quality["n_unlabeled"].max() == 14
    assert quality["estimate"].notna().all() and quality["label"].isna().all()

    # Run again on the same ratings and verdicts: the calibration is taken as it was (not
    # resampled), the weights are computed from the consensus as it is now.
    def no_resampling(*args, **kwargs):
        raise AssertionError("the calibration was resampled on unchanged inputs")

    study = load_study(tmp_path / "studies" / "gold_tiers.yaml")
    with warehouse.connect(home.warehouse) as con:
        con.execute(
            "UPDATE gold.consensus SET value = NULL, value_num = NULL WHERE task = 'factual_qa'"
        )
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(judge_study, "calibrate_field", no_resampling)
            judge_study.run_study(con, study, home)
        again = con.sql("SELECT * FROM gold.judge_calibration").df()
        reweighed = con.sql("SELECT * FROM gold.judge_weights").df()
        pd.testing.assert_frame_equal(
            again.sort_values(list(again.columns[:9])).reset_index(drop=True),
            calibration.sort_values(list(calibration.columns[:9])).reset_index(drop=True),
        )
        assert (reweighed["computed_at"] > weights["computed_at"].max()).all()
        qa = reweighed[reweighed["task"] == "factual_qa"]
        assert not qa["agreement"].equals(weights[weights["task"] == "factual_qa"]["agreement"])

        # One rating of factual_qa changed: that task's fields are resampled, no other, and
        # the table equals one computed from scratch.
        con.execute(
            "UPDATE gold.rating_values SET value = CASE value WHEN '1' THEN '0' ELSE '1' END, "
            "value_num = 1 - value_num WHERE field = 'correct' AND rating_id = (SELECT "
            "min(rating_id) FROM gold.labels WHERE task = 'factual_qa' AND field = 'correct' "
            "AND kind = 'item' AND copy = 0)"
        )
        resampled = []

        def counted(fi, opts):
            resampled.append(fi.field)
            return calibrate_field(fi, opts)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(judge_study, "calibrate_field", counted)
            judge_study.run_study(con, study, home)
        judged_qa = {f for f in calibration[calibration["task"] == "factual_qa"]["field"]}
        assert sorted(resampled) == sorted(judged_qa)
        partly = con.sql("SELECT * EXCLUDE (computed_at) FROM gold.judge_calibration").df()
        assert not partly.equals(again.drop(columns="computed_at"))
        con.execute("DELETE FROM staging.step_inputs WHERE step LIKE 'judge_calibration%'")
        judge_study.run_study(con, study, home)
        whole = con.sql("SELECT * EXCLUDE (computed_at) FROM gold.judge_calibration").df()
        order = list(whole.columns[:9])
        pd.testing.assert_frame_equal(
            partly.sort_values(order).reset_index(drop=True),
            whole.sort_values(order).reset_index(drop=True),
        )
