"""Judges are calibrated on the set the protocol names (``judges.calibrate_on``): the gold
set's ADR calibrates on tier-B alone, so single-annotator TRIAGE items must not count."""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd

from raterlab.judges.study import calibrate_study
from raterlab.protocol import load_study, parse_study
from tests.conftest import STUDIES
from tests.judges.test_study import JUDGED


def _inputs(n: int = 40) -> tuple[pd.DataFrame, pd.DataFrame, dict, dict]:
    """Items ``ans-00..``: even ones GOLD (two raters, the judge agrees), odd ones TRIAGE (one
    rater, the judge says the opposite end of the scale)."""
    rng = np.random.default_rng(5)
    ratings, verdicts, tiers = [], [], {}
    for i in range(n):
        item = f"ans-{i:03d}"
        gold = i % 2 == 0
        tiers[item] = "GOLD" if gold else "TRIAGE"
        score = int(rng.integers(1, 6))
        for rater in ("a1", "a2") if gold else ("a1",):
            ratings.append(("answer", item, rater, "score", str(score)))
        said = score if gold else 6 - score
        verdicts.append(("answer", item, "llm", "score", float(said), str(said), 0.9, "", "x"))
    ratings = pd.DataFrame(ratings, columns=["task", "item_id", "annotator_id", "field", "value"])
    columns = ["task", "item_id", "judge", "field", "value", "raw", "confidence", "rationale"]
    verdicts = pd.DataFrame(verdicts, columns=[*columns, "source"])
    records = {item: {"category": "api", "model": "m1"} for item in tiers}
    return ratings, verdicts, records, tiers


def _items(calibration: pd.DataFrame) -> int:
    row = calibration[
        (calibration["statistic"] == "spearman")
        & (calibration["slice"] == "all")
        & (calibration["level"] == "item")
        & calibration["versus"].isna()
    ]
    return int(row["n"].iloc[0]), float(row["estimate"].iloc[0])


def test_calibration_reads_only_the_declared_slice() -> None:
    ratings, verdicts, records, tiers = _inputs()
    consensus = pd.DataFrame(columns=["task", "item_id", "field", "value", "value_num"])
    data = copy.deepcopy(JUDGED)
    data["judges"]["panel"].pop("external")
    data["consensus"] = {"adjudicate": {"binary_disagreement_tiers": ["GOLD", "TRIAGE"]}}
    everything = calibrate_study(
        parse_study(data), ratings, verdicts, records, tiers, consensus, resamples=100
    )
    data["judges"]["calibrate_on"] = "tier=GOLD"
    gold = calibrate_study(
        parse_study(data), ratings, verdicts, records, tiers, consensus, resamples=100
    )
    n_all, rho_all = _items(everything.calibration)
    n_gold, rho_gold = _items(gold.calibration)
    assert (n_all, n_gold) == (40, 20)
    assert rho_gold == 1.0 and rho_all < 0.5


def test_gold_tiers_calibrates_on_tier_b() -> None:
    assert load_study(STUDIES / "gold_tiers.yaml").judges.calibrate_on == "tier=GOLD"


def _projected(records: dict[str, dict], keys: list[str]) -> dict[str, dict]:
    return {item: {k: r[k] for k in keys if k in r} for item, r in records.items()}


def test_records_decoded_for_the_judge_keys_give_the_same_calibration() -> None:
    """The judge steps decode each record for :func:`record_keys` alone: the verdicts and the
    calibration (slices, group and system levels, calibrate_on) are those of whole records."""
    from raterlab.design import read_generations
    from raterlab.judges.verdicts import generation_verdicts, record_keys

    for name in ("gold_tiers", "plugin_triggers"):
        study = load_study(STUDIES / f"{name}.yaml")
        generations = read_generations(study)
        keys = record_keys(study)
        slim = generations.assign(
            record=[_projected({0: r}, keys)[0] for r in generations["record"]]
        )
        verdicts = generation_verdicts(study, generations)
        pd.testing.assert_frame_equal(generation_verdicts(study, slim), verdicts)
        rng = np.random.default_rng(11)
        ratings = [
            (task, item, rater, field, str(rng.choice(list(spec.domain()))))
            for task, item in zip(generations["task"], generations["item_id"], strict=True)
            for field, spec in study.tasks[task].fields.items()
            if field in study.tasks[task].rating_fields and spec.domain() is not None
            for rater in ("a1", "a2")
        ]
        ratings = pd.DataFrame(
            ratings, columns=["task", "item_id", "annotator_id", "field", "value"]
        )
        records = dict(zip(generations["item_id"], generations["record"], strict=True))
        tiers = {item: ("GOLD" if i % 2 else "TRIAGE") for i, item in enumerate(records)}
        consensus = pd.DataFrame(columns=["task", "item_id", "field", "value", "value_num"])
        whole = calibrate_study(study, ratings, verdicts, records, tiers, consensus, resamples=100)
        slimmed = calibrate_study(
            study, ratings, verdicts, _projected(records, keys), tiers, consensus, resamples=100
        )
        assert len(whole.calibration) > 0
        pd.testing.assert_frame_equal(
            slimmed.calibration.drop(columns="computed_at", errors="ignore"),
            whole.calibration.drop(columns="computed_at", errors="ignore"),
        )
