"""The verdict per judge, field and slice: the rule on hand-made rows (each criterion, the
PPI gain from the PPI table or from rho, Dorner et al.'s bound), and the judge_robustness and
judge_verdicts assets on a shortened gold_tiers with an imported judge that ran twice."""

from __future__ import annotations

import json
import math
from pathlib import Path

import dagster as dg
import numpy as np
import pandas as pd
import pytest
import yaml
from scipy import stats

from assets import consensus, judge_verdicts, judges
from raterlab import warehouse
from raterlab.judges.verdict import DORNER_BOUND, fisher_interval, variance_ratio_gain
from raterlab.judges.verdict import judge_verdicts as decide_all
from raterlab.judges.verdict_study import verdict_inputs
from raterlab.judges.verdicts import imported_files, judges_dir, read_judge_file, store_imported
from raterlab.protocol import load_study
from raterlab.report.sections import judge_verdict_table
from raterlab.settings import Home
from raterlab.tables.judge_verdicts import ROBUSTNESS, VERDICTS
from resources import Raterlab
from tests.conftest import STUDIES
from tests.consensus.conftest import build_home

GOOD = {
    "task": "t",
    "judge": "j",
    "field": "f",
    "slice": "all",
    "statistic": "kappa",
    "estimate": 0.7,
    "ceiling_low": 0.6,
    "ceiling_high": 0.8,
    "within_human_range": True,
    "alt_winning_rate": 0.75,
    "winner_kappa": None,
    "winner_kappa_low": None,
    "n_checks": 2,
    "checks_flagged": "",
    "n_labeled": 200,
    "effective_n": None,
    "rho": 0.6,
    "rho_low": 0.5,
    "rho_high": 0.7,
    "judge_accuracy": None,
    "system_score": None,
}


def _one(**changes: object) -> pd.Series:
    return decide_all(pd.DataFrame([{**GOOD, **changes}])).iloc[0]


def test_replace_needs_every_criterion() -> None:
    assert _one()["verdict"] == "replace"
    assert _one(alt_winning_rate=0.5)["verdict"] == "replace"  # the test's own threshold
    for failing in (
        {"alt_winning_rate": 0.25},
        {"alt_winning_rate": None},
        {"within_human_range": False, "estimate": 0.5},
        {"within_human_range": None},
        {"checks_flagged": "slice_bias 0.20 [0.10, 0.30]"},
    ):
        row = _one(**failing)
        assert row["verdict"] == "ppi", failing  # rho's interval excludes 0: PPI helps
    assert _one(n_checks=0)["verdict"] == "replace"  # nothing measured counts against none


def test_a_pairwise_field_without_the_alt_test_reads_the_winner_agreement() -> None:
    pairwise = {"alt_winning_rate": None, "winner_kappa": 0.75, "winner_kappa_low": 0.6}
    row = _one(**pairwise)  # 0.6 reaches the ceiling's low end 0.6
    assert row["verdict"] == "replace"
    assert (
        "agreement with the human winners kappa 0.75 (interval from 0.60) reaches"
        in (row["reasons"])
    )
    below = _one(**{**pairwise, "winner_kappa_low": 0.55})
    assert (
        below["verdict"] == "ppi" and "below the human ceiling's low end 0.60" in below["reasons"]
    )
    no_ceiling = {"ceiling_low": None, "ceiling_high": None, "within_human_range": None}
    assert "no human ceiling to reach" in _one(**pairwise, **no_ceiling)["reasons"]
    # Where the test was run, its outcome decides, whatever the winner agreement.
    assert _one(**{**pairwise, "alt_winning_rate": 0.25})["verdict"] == "ppi"


def test_ppi_gain_from_rho_and_its_interval() -> None:
    row = _one(alt_winning_rate=0.0)
    assert row["ppi_gain"] == pytest.approx(1 / (1 - 0.6**2))
    assert row["ppi_gain_low"] == pytest.approx(1 / (1 - 0.5**2))
    assert row["gain_source"] == "rho"
    negative = _one(alt_winning_rate=0.0, rho=-0.6, rho_low=-0.7, rho_high=-0.5)
    assert negative["ppi_gain_low"] == pytest.approx(1 / (1 - 0.5**2))
    covering = _one(alt_winning_rate=0.0, rho=0.1, rho_low=-0.05, rho_high=0.25)
    assert covering["ppi_gain_low"] == 1.0
    assert covering["verdict"] == "no"
    assert _one(alt_winning_rate=0.0, rho=None, rho_low=None, rho_high=None)["verdict"] == "no"


def test_ppi_gain_from_the_substitution_table_wins() -> None:
    row = _one(alt_winning_rate=0.0, rho=0.0, rho_low=-0.1, rho_high=0.1, effective_n=300.0)
    assert row["ppi_gain"] == pytest.approx(1.5)
    assert row["gain_source"] == "judge_substitution"
    assert row["verdict"] == "ppi"
    worse = _one(alt_winning_rate=0.0, effective_n=180.0)
    assert worse["verdict"] == "no"
    assert "effective_n 180 / n_labeled 200" in worse["reasons"]


def test_dorner_bound_beside_the_gain() -> None:
    # Judge agreement 0.8 <= systems' score 0.85: the bound applies; rho 0.8 claims 2.78.
    row = _one(rho=0.8, rho_low=0.75, rho_high=0.85, judge_accuracy=0.8, system_score=0.85)
    assert row["dorner_bound"] == DORNER_BOUND == 2
    assert row["dorner_applies"]
    assert "exceeds Dorner et al.'s bound of 2" in row["reasons"]
    within = _one(judge_accuracy=0.8, system_score=0.85)
    assert "within Dorner et al.'s bound of 2" in within["reasons"]
    better = _one(rho=0.8, rho_low=0.75, rho_high=0.85, judge_accuracy=0.95, system_score=0.6)
    assert not better["dorner_applies"]
    assert (
        "0.95 > systems' score 0.60: Dorner et al.'s bound of 2 does not apply"
        in (better["reasons"])
    )
    assert "Dorner" not in _one(judge_accuracy=0.95, system_score=0.6)["reasons"]  # gain 1.56
    unknown = _one(rho=0.8, rho_low=0.75, rho_high=0.85)
    assert pd.isna(unknown["dorner_applies"])
    assert "needs a judge more accurate" in unknown["reasons"]


def test_reasons_name_every_criterion() -> None:
    reasons = _one(alt_winning_rate=0.25, within_human_range=False, estimate=0.5)["reasons"]
    assert "alternative annotator test failed (winning rate 0.25 < 0.5)" in reasons
    assert "kappa 0.50 below the human ceiling [0.60, 0.80]" in reasons
    assert "2 robustness check(s) pass" in reasons
    assert "PPI gain 1/(1-rho^2) = 1.56" in reasons


def test_missing_input_column_is_named() -> None:
    with pytest.raises(ValueError, match=r"missing column\(s\) \['rho'\]"):
        decide_all(pd.DataFrame([GOOD]).drop(columns="rho"))


def test_variance_ratio_gain_matches_ppi_plus_plus_large_n() -> None:
    """1/(1-rho^2) is the classical variance over the variance of the PPI++ mean with the
    optimal weight lambda = cov(Y, f)/var(f) (1 + n/N -> 1), computed from simulated data."""
    rng = np.random.default_rng(3)
    y = rng.normal(size=200_000)
    f = 0.6 * y + 0.8 * rng.normal(size=y.size)
    rho = np.corrcoef(y, f)[0, 1]
    lam = np.cov(y, f)[0, 1] / f.var(ddof=1)
    ratio = y.var(ddof=1) / (y - lam * f).var(ddof=1)
    assert variance_ratio_gain(rho) == pytest.approx(ratio, rel=1e-6)
    assert variance_ratio_gain(1.0) == math.inf


def test_fisher_interval_matches_scipy() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=50)
    y = x + rng.normal(size=50)
    result = stats.pearsonr(x, y)
    low, high = fisher_interval(float(result.statistic), 50, 0.95)
    reference = result.confidence_interval(0.95)
    assert (low, high) == pytest.approx((reference.low, reference.high))


def _gold_tiers(tmp_path: Path) -> Home:
    """A shortened gold_tiers, annotated and ingested, with a judge file of two runs."""
    data = yaml.safe_load((STUDIES / "gold_tiers.yaml").read_text())
    data["judges"]["resamples"] = 100
    data["judges"]["panel"]["vendor"] = {"source": "import", "fields": {"correct": "is_correct"}}
    lines = (STUDIES / "gold_tiers" / "generations.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines][::10]
    study, home = build_home(tmp_path, data, records)
    qa = [r for r in records if r["task"] == "factual_qa"]
    # The vendor ran twice: run 2 flips every fourth verdict of run 1 (judge_a's).
    rows = []
    for run in (1, 2):
        for k, r in enumerate(qa):
            value = bool(r["judge_a_correct"]) ^ (run == 2 and k % 4 == 0)
            rows.append(
                {
                    "item_id": r["id"],
                    "judge": "vendor",
                    "field": "is_correct",
                    "run": run,
                    "value": "yes" if value else "no",
                }
            )
    verdict_file = tmp_path / "vendor.csv"
    pd.DataFrame(rows).to_csv(verdict_file, index=False)
    study = load_study(tmp_path / "studies" / "gold_tiers.yaml")
    tasks_of = {r["id"]: r["task"] for r in records}
    store_imported(
        read_judge_file(study, verdict_file, tasks_of), judges_dir(home.root, study.name)
    )
    return home


def test_robustness_and_verdict_assets(tmp_path: Path) -> None:
    home = _gold_tiers(tmp_path)
    resource = Raterlab(home=str(home.root), studies=str(tmp_path / "studies"))
    result = dg.materialize(
        [
            *dg.load_assets_from_modules([consensus, judges, judge_verdicts]),
        ],
        partition_key="gold_tiers",
        resources={"raterlab": resource},
        instance=dg.DagsterInstance.ephemeral(),
    )
    assert result.success
    with warehouse.connect(home.warehouse, read_only=True) as con:
        robustness = con.sql("SELECT * FROM gold.judge_robustness").df()
        verdicts = con.sql("SELECT * FROM gold.judge_verdicts").df()
        calibration = con.sql("SELECT * FROM gold.judge_calibration").df()
    with warehouse.connect(home.published, read_only=True) as con:
        assert con.sql("SELECT count(*) FROM gold.judge_verdicts").fetchall()[0][0] == len(verdicts)
    assert list(robustness.columns) == [c.name for c in ROBUSTNESS]
    assert list(verdicts.columns) == [c.name for c in VERDICTS]
    runs = robustness[robustness["check"] == "repeat_run"]
    assert set(runs["judge"]) == {"vendor"}
    overall = runs[runs["slice"] == "all"].iloc[0]
    assert overall["statistic"] == "cohen_kappa"
    assert overall["n_runs"] == 2
    assert 0 < overall["estimate"] < 1
    assert overall["ci_low"] <= overall["estimate"] <= overall["ci_high"]
    biases = robustness[robustness["check"] == "slice_bias"]
    assert {"judge_a", "judge_b", "judge_c", "vendor"} <= set(biases["judge"])
    # One verdict per headline calibration row, each with its reasons.
    head = calibration[
        (calibration["level"] == "item")
        & calibration["versus"].isna()
        & calibration["statistic"].isin(["kappa", "spearman"])
    ]
    assert len(verdicts) == len(head)
    assert set(verdicts["verdict"]) <= {"replace", "ppi", "no"}
    assert verdicts["reasons"].str.contains("alternative annotator test").all()
    assert (verdicts["dorner_bound"] == 2).all()
    binary = verdicts[(verdicts["field"] == "correct") & (verdicts["n_labeled"] > 0)]
    assert binary["dorner_applies"].notna().all()
    likert = verdicts[verdicts["field"] == "faithfulness"]
    assert likert["dorner_applies"].isna().all()
    # The calibration reads the vendor's first run: judge_a's verdicts, so its kappa equals
    # judge_a's; the second run, which flips a quarter of them, is only read for consistency.
    kappa = head[(head["field"] == "correct") & (head["task"] == "factual_qa")]
    kappa = kappa[kappa["slice"] == "all"].set_index("judge")["estimate"]
    assert kappa["vendor"] == pytest.approx(kappa["judge_a"])
    vendor = verdicts[(verdicts["judge"] == "vendor") & (verdicts["slice"] == "all")].iloc[0]
    assert "repeat_run" in vendor["checks_flagged"]  # a quarter flipped: kappa well below 0.8
    assert vendor["verdict"] != "replace"
    shown, flag = judge_verdict_table(verdicts.drop(columns=["study"]))
    assert list(shown.columns) == ["judge", "field", "slice", "verdict", "PPI gain", "reasons"]
    assert (shown["slice"] == "all").all()
    assert flag.tolist() == (shown["verdict"] == "no").tolist()


def test_verdict_inputs_join_calibration_checks_and_substitution() -> None:
    keys = {"task": "t", "judge": "j", "field": "f"}
    calibration = pd.DataFrame(
        [
            {
                **keys,
                "slice": s,
                "level": "item",
                "statistic": stat,
                "label": label,
                "versus": None,
                "estimate": est,
                "ceiling_low": 0.6,
                "ceiling_high": 0.8,
                "within_human_range": est >= 0.6,
            }
            for s, stat, label, est in [
                ("all", "kappa", None, 0.7),
                ("all", "alt_winning_rate", "epsilon=0.2", 0.75),
                ("all", "accuracy", None, 0.9),
                ("x=1", "kappa", None, 0.5),
            ]
        ]
    )
    robustness = pd.DataFrame(
        [
            {
                **keys,
                "slice": "all",
                "check": "slice_bias",
                "label": None,
                "estimate": 0.1,
                "ci_low": 0.05,
                "ci_high": 0.15,
                "flagged": True,
            },
            {
                **keys,
                "slice": "all",
                "check": "repeat_run",
                "label": None,
                "estimate": 0.9,
                "ci_low": 0.85,
                "ci_high": 0.95,
                "flagged": False,
            },
            {
                **keys,
                "slice": "x=1",
                "check": "repeat_run",
                "label": None,
                "estimate": None,
                "ci_low": None,
                "ci_high": None,
                "flagged": None,
            },
        ]
    )
    correlations = pd.DataFrame(
        [
            {
                **keys,
                "slice": s,
                "n_labeled": 50,
                "rho": 0.5,
                "rho_low": 0.3,
                "rho_high": 0.65,
                "judge_accuracy": 0.8,
                "system_score": 0.7,
            }
            for s in ("all", "x=1")
        ]
    )
    substitution = pd.DataFrame(
        [{**keys, "slice": "x=1", "level": "item", "n_labeled": 40, "effective_n": 60.0}]
    )
    inputs = verdict_inputs(calibration, robustness, correlations, substitution)
    rows = inputs.set_index("slice")
    assert rows.loc["all", "alt_winning_rate"] == 0.75
    assert pd.isna(rows.loc["x=1", "alt_winning_rate"])
    assert rows.loc["all", "n_checks"] == 2
    assert rows.loc["all", "checks_flagged"] == "slice_bias 0.10 [0.05, 0.15]"
    assert rows.loc["x=1", "n_checks"] == 0  # an undefined check is not measured
    assert rows.loc["x=1", "n_labeled"] == 40 and rows.loc["x=1", "effective_n"] == 60
    assert rows.loc["all", "n_labeled"] == 50 and pd.isna(rows.loc["all", "effective_n"])
    verdicts = decide_all(inputs).set_index("slice")
    assert verdicts.loc["all", "verdict"] == "ppi"  # flagged bias: not replace
    assert verdicts.loc["x=1", "gain_source"] == "judge_substitution"


def test_the_judge_files_text_changes_with_any_imported_file(tmp_path: Path) -> None:
    """What the judge steps' cheap test reads of the judge files (``imported_files``): a
    file's new content or a new file changes it; nothing imported is the empty text."""
    folder = tmp_path / "judges"
    assert imported_files(folder) == ""
    folder.mkdir()
    (folder / "a.csv").write_text("item_id,judge\ni1,j\n")
    first = imported_files(folder)
    assert first.startswith("a.csv ")
    assert imported_files(folder) == first
    (folder / "a.csv").write_text("item_id,judge\ni1,k\n")
    changed = imported_files(folder)
    assert changed != first
    (folder / "b.csv").write_text("item_id,judge\n")
    assert imported_files(folder).splitlines()[0] == changed
    assert len(imported_files(folder).splitlines()) == 2


def test_paired_fields_of_some_kinds_are_those_of_every_field(tmp_path: Path) -> None:
    """``paired_fields(kinds=...)`` (what the pairwise judges read) leaves out the other
    fields before pairing, and pairs the rest exactly as the whole call does."""
    from raterlab.judges.verdict_study import paired_fields, study_data
    from raterlab.protocol import BinaryField, LikertField

    home = _gold_tiers(tmp_path)
    resource = Raterlab(home=str(home.root), studies=str(tmp_path / "studies"))
    assert dg.materialize(
        dg.load_assets_from_modules([consensus]),
        partition_key="gold_tiers",
        resources={"raterlab": resource},
        instance=dg.DagsterInstance.ephemeral(),
    ).success
    study = load_study(tmp_path / "studies" / "gold_tiers.yaml")
    with warehouse.connect(home.warehouse, read_only=True) as con:
        data = study_data(con, study, home)
    args = (study, data.verdicts, data.consensus, data.records, data.tiers)

    def plain(values) -> list:
        return [None if pd.isna(v) else v for v in values]

    def seen(pairs) -> list[tuple]:
        return [
            (
                p.task,
                p.judge,
                p.field,
                p.slice,
                p.runs.index.tolist(),
                plain(p.units),
                plain(p.judged),
                plain(p.human),
            )
            for p in pairs
        ]

    every = list(paired_fields(*args))
    assert {type(p.spec) for p in every} >= {BinaryField, LikertField}
    for kinds in ((LikertField,), (BinaryField,)):
        assert seen(paired_fields(*args, kinds)) == seen(
            p for p in every if isinstance(p.spec, kinds)
        )
