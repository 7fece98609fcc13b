"""Prediction-powered estimates (PPI++) against ppi_py, the reference implementation of
Angelopoulos et al.: on simulated data (graded and binary, several seeds), through the
long-frame table (categorical labels, slices, median aggregate), a study's table
(``gold.judge_substitution``: the calibration slice labelled) and through
``raterlab calibrate --ppi`` on DialSummEval with humans held out on 80% of the summaries."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import ppi_py
import pytest

from raterlab.cli import main
from raterlab.judges.frames import JudgeInputError
from raterlab.judges.ppi import PPIUndefined, classical_mean, power_tuning, ppi_mean
from raterlab.judges.study_substitution import study_substitution
from raterlab.judges.substitution import substitution_table
from raterlab.judges.verdicts import VERDICT_COLUMNS
from raterlab.protocol import load_study
from tests.conftest import REPO, STUDIES

TOL = 1e-10
DATA = REPO.parent / "shared" / "realdata" / "dialsummeval"


def _reference(y: np.ndarray, yhat: np.ndarray, unl: np.ndarray, confidence: float) -> dict:
    """What ppi_py says, with its defaults (lam=None: tuned, clipped to [0, 1])."""
    alpha = 1 - confidence
    low, high = ppi_py.ppi_mean_ci(y, yhat, unl, alpha=alpha)
    c_low, c_high = ppi_py.classical_mean_ci(y, alpha=alpha)
    return {
        "estimate": float(np.squeeze(ppi_py.ppi_mean_pointestimate(y, yhat, unl))),
        "ci_low": float(np.squeeze(low)),
        "ci_high": float(np.squeeze(high)),
        "classical_estimate": float(y.mean()),
        "classical_ci_low": float(c_low),
        "classical_ci_high": float(c_high),
    }


def _ppi_py_lam(y: np.ndarray, yhat: np.ndarray, unl: np.ndarray) -> float:
    """The lam ppi_py's ppi_mean_ci chooses (its own code path: gradients at the lam=1
    estimate, ``_calc_lam_glm`` with clipping)."""
    theta = ppi_py.ppi_mean_pointestimate(y, yhat, unl, lam=1)
    return float(
        ppi_py.ppi._calc_lam_glm(
            (y - theta)[:, None],
            (yhat - theta)[:, None],
            (unl - theta)[:, None],
            np.eye(1),
            clip=True,
        )
    )


def _graded(seed: int, n: int, big_n: int, noise: float) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    truth = rng.normal(3, 1, size=n + big_n)
    human = np.clip(np.round(truth[:n, None] + rng.normal(0, 0.7, (n, 3))), 1, 5).mean(axis=1)
    judge = truth + 0.3 + rng.normal(0, noise, size=n + big_n)
    return human, judge[:n], judge[n:]


def _binary(seed: int, n: int, big_n: int, flip: float) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    truth = rng.random(n + big_n) < 0.3
    human = (truth[:n] ^ (rng.random(n) < 0.1)).astype(float)
    judge = (truth ^ (rng.random(n + big_n) < flip)).astype(float)
    return human, judge[:n], judge[n:]


def _assert_matches(est, ref: dict) -> None:
    for key, value in ref.items():
        assert getattr(est, key) == pytest.approx(value, abs=TOL, rel=TOL), key


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize(
    ("n", "big_n", "noise"), [(50, 500, 0.3), (200, 100, 1.0), (30, 3000, 3.0), (40, 40, 0.05)]
)
def test_graded_equals_ppi_py(seed: int, n: int, big_n: int, noise: float) -> None:
    y, yhat, unl = _graded(seed, n, big_n, noise)
    est = ppi_mean(y, yhat, unl, confidence=0.95)
    _assert_matches(est, _reference(y, yhat, unl, 0.95))
    assert est.lam == pytest.approx(_ppi_py_lam(y, yhat, unl), abs=TOL)
    assert (est.n_labeled, est.n_unlabeled) == (n, big_n)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize(("flip", "confidence"), [(0.05, 0.95), (0.3, 0.9), (0.5, 0.99)])
def test_binary_equals_ppi_py(seed: int, flip: float, confidence: float) -> None:
    y, yhat, unl = _binary(seed, 120, 900, flip)
    est = ppi_mean(y, yhat, unl, confidence=confidence)
    _assert_matches(est, _reference(y, yhat, unl, confidence))
    assert est.lam == pytest.approx(_ppi_py_lam(y, yhat, unl), abs=TOL)


@pytest.mark.parametrize("lam", [0.0, 0.4, 1.0])
def test_fixed_lam_equals_ppi_py(lam: float) -> None:
    y, yhat, unl = _graded(7, 80, 400, 0.5)
    est = ppi_mean(y, yhat, unl, confidence=0.9, lam=lam)
    low, high = ppi_py.ppi_mean_ci(y, yhat, unl, alpha=0.1, lam=lam)
    assert est.ci_low == pytest.approx(float(low[0]), abs=TOL)
    assert est.ci_high == pytest.approx(float(high[0]), abs=TOL)


def test_effective_n_is_the_variance_ratio() -> None:
    """n * var_classical / var_ppi, the variances read off both intervals' widths."""
    y, yhat, unl = _graded(3, 100, 1000, 0.2)
    est = ppi_mean(y, yhat, unl)
    ratio = ((est.classical_ci_high - est.classical_ci_low) / (est.ci_high - est.ci_low)) ** 2
    assert est.effective_n == pytest.approx(100 * ratio, rel=1e-12)
    assert est.effective_n > 100  # a good judge is worth more labels than the humans gave
    assert ppi_mean(y, -yhat, unl).lam == 0  # anti-correlated: clipped to the classical
    assert ppi_mean(y, -yhat, unl).effective_n == pytest.approx(100)


def test_constant_judge_is_classical() -> None:
    y = np.array([1.0, 2.0, 4.0, 5.0])
    assert power_tuning(y, np.ones(4), np.ones(6)) == 0
    est = ppi_mean(y, np.ones(4), np.ones(6))
    assert est.estimate == pytest.approx(classical_mean(y)[0])
    assert (est.ci_low, est.ci_high) == pytest.approx(classical_mean(y)[1:])


@pytest.mark.parametrize(
    ("y", "yhat", "unl", "message"),
    [
        ([], [], [1.0, 2.0], "0 labelled unit"),
        ([3.0], [2.0], [1.0, 2.0], "1 labelled unit"),
        ([1.0, 2.0], [1.0, 2.0], [], "no unlabelled units"),
        ([1.0, np.nan], [1.0, 2.0], [1.0], "human value"),
        ([1.0, 2.0], [1.0, 2.0, 3.0], [1.0], "2 human values but 3"),
    ],
)
def test_undefined_inputs_raise(y: list, yhat: list, unl: list, message: str) -> None:
    with pytest.raises(PPIUndefined, match=message):
        ppi_mean(np.array(y), np.array(yhat), np.array(unl))


def _long(seed: int) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """Three raters on a third of 90 units (a graded and a categorical field); one judge on
    every unit, some of its colours none of the humans' labels (a 0 for each label); a slice
    ``domain`` of two levels."""
    rng = np.random.default_rng(seed)
    units = [f"u{i:02d}" for i in range(90)]
    truth = rng.integers(1, 6, size=90)
    colours = np.array(["red", "green", "blue"])[truth % 3]
    humans = pd.DataFrame(
        [
            {"unit": u, "rater": r, "field": f, "value": v}
            for i, u in enumerate(units[:30])
            for r in ("r1", "r2", "r3")
            for f, v in (
                ("score", int(np.clip(truth[i] + rng.integers(-1, 2), 1, 5))),
                ("colour", colours[i] if rng.random() < 0.8 else "red"),
            )
        ]
    )
    judges = pd.DataFrame(
        [
            {"unit": u, "judge": "j", "field": f, "value": v}
            for i, u in enumerate(units)
            for f, v in (
                ("score", truth[i] + rng.normal(0, 0.5)),
                ("colour", "purple" if i % 17 == 0 else colours[i]),
            )
        ]
    )
    domain = {u: "a" if i % 2 else "b" for i, u in enumerate(units)}
    return humans, judges, domain


@pytest.mark.parametrize("aggregate", ["mean", "median"])
def test_table_equals_ppi_py_per_label_and_slice(aggregate: str) -> None:
    humans, judges, domain = _long(1)
    table = substitution_table(
        humans,
        judges,
        {"score": "graded", "colour": "categorical"},
        aggregate=aggregate,
        slices={"domain": domain},
    )
    assert set(table["label"].dropna()) == {"blue", "green", "red"}
    assert set(table["slice"]) == {"all", "domain=a", "domain=b"}
    judge = judges.set_index(["field", "unit"])["value"]
    for row in table.itertuples():
        wide = humans[humans["field"] == row.field].pivot(
            index="unit", columns="rater", values="value"
        )
        if pd.isna(row.label):
            per_unit, pred = wide.astype(float), judge["score"].astype(float)
        else:
            per_unit, pred = (wide == row.label).astype(float), (judge["colour"] == row.label) * 1.0
        y = per_unit.median(axis=1) if aggregate == "median" else per_unit.mean(axis=1)
        units = [u for u in pred.index if row.slice == "all" or domain[u] == row.slice[-1]]
        labelled = [u for u in units if u in y.index]
        unl = pred[[u for u in units if u not in y.index]].to_numpy()
        ref = _reference(y[labelled].to_numpy(), pred[labelled].to_numpy(), unl, 0.95)
        for key, value in ref.items():
            assert getattr(row, key) == pytest.approx(value, abs=TOL), (row, key)
        assert (row.n_labeled, row.n_unlabeled) == (len(labelled), len(unl))


def test_binary_field_is_the_rate_of_one() -> None:
    humans, judges, _ = _long(2)
    humans = humans[humans["field"] == "colour"].assign(
        field="flag", value=lambda f: (f["value"] == "red").astype(int)
    )
    judges = judges[judges["field"] == "colour"].assign(
        field="flag", value=lambda f: (f["value"] == "red").astype(int).astype(str)
    )
    table = substitution_table(humans, judges, {"flag": "binary"})
    assert table["label"].tolist() == ["1"]
    y = humans.groupby("unit")["value"].mean()
    pred = judges.set_index("unit")["value"].astype(float)
    ref = _reference(y.to_numpy(), pred[y.index].to_numpy(), pred.drop(y.index).to_numpy(), 0.95)
    assert table.loc[0, "estimate"] == pytest.approx(ref["estimate"], abs=TOL)


def test_undefined_rows_keep_counts_or_raise_when_strict() -> None:
    humans, judges, _ = _long(3)
    judged = judges[judges["unit"].isin(set(humans["unit"]))]
    table = substitution_table(humans, judged, {"score": "graded"})
    row = table.iloc[0]
    assert (row["n_labeled"], row["n_unlabeled"]) == (30, 0)
    assert np.isnan(row["estimate"]) and np.isnan(row["effective_n"])
    assert row["classical_estimate"] == pytest.approx(
        humans[humans["field"] == "score"].groupby("unit")["value"].mean().mean()
    )
    with pytest.raises(JudgeInputError, match="judge 'j', field 'score': no unlabelled units"):
        substitution_table(humans, judged, {"score": "graded"}, strict=True)


def test_a_human_rating_that_is_not_a_number_is_named() -> None:
    humans, judges, _ = _long(4)
    humans.loc[0, "value"] = "good"
    with pytest.raises(JudgeInputError, match="human rating 'good' of unit 'u00' by 'r1'"):
        substitution_table(humans, judges, {"score": "graded"})


@pytest.fixture(scope="module")
def dialsummeval(tmp_path_factory: pytest.TempPathFactory) -> tuple:
    """DialSummEval's humans kept on a seeded random 20% of the 1,400 summaries."""
    if not DATA.is_dir():
        pytest.skip(f"{DATA} is not there (../shared)")
    rows = [
        {"id": r["id"], "model_id": r["model_id"], "annotator": f"a{i}", **ratings}
        for r in map(json.loads, (DATA / "human_judgment.jsonl").read_text().splitlines())
        for i, ratings in enumerate(r["annotations"], start=1)
    ]
    humans = pd.DataFrame(rows)
    kept = humans[["id", "model_id"]].drop_duplicates().sample(frac=0.2, random_state=0)
    humans = humans.merge(kept)
    folder = tmp_path_factory.mktemp("dse_ppi")
    humans.to_csv(folder / "human.csv", index=False)
    judges = pd.read_csv(DATA / "judge_scores.csv", dtype={"id": str})
    return humans.astype({"id": str}), judges, folder


def test_cli_on_dialsummeval_equals_ppi_py(dialsummeval, capsys: pytest.CaptureFixture) -> None:
    humans, judges, folder = dialsummeval
    args = ["calibrate", str(folder / "human.csv"), str(DATA / "judge_scores.csv")]
    args += ["--unit", "id,model_id", "--rater", "annotator", "--fields", "relevance,coherence"]
    assert main([*args, "--ppi", "--format", "json", "--confidence", "0.9"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert len(records) == 2 * judges["judge"].nunique()
    for record in records:
        y = humans.groupby(["id", "model_id"])[record["field"]].mean()
        score = judges[judges["judge"] == record["judge"]].set_index(["id", "model_id"])["score"]
        labelled = score.index.isin(y.index)
        ref = _reference(
            y[score.index[labelled]].to_numpy(),
            score[labelled].to_numpy(),
            score[~labelled].to_numpy(),
            0.9,
        )
        for key, value in ref.items():
            assert record[key] == pytest.approx(value, abs=TOL), (record["judge"], key)
        assert (record["n_labeled"], record["n_unlabeled"]) == (280, 1120)
        assert record["lam"] == pytest.approx(
            _ppi_py_lam(
                y[score.index[labelled]].to_numpy(),
                score[labelled].to_numpy(),
                score[~labelled].to_numpy(),
            ),
            abs=TOL,
        )
        assert record["label"] is None and record["effective_n"] >= 280 - 1e-9


def test_cli_says_when_every_unit_is_labelled(tmp_path, capsys: pytest.CaptureFixture) -> None:
    if not DATA.is_dir():
        pytest.skip(f"{DATA} is not there (../shared)")
    scores = str(DATA / "judge_scores.csv")
    human = pd.read_csv(scores).assign(annotator="a1", relevance=3)
    # Every unit the judge scored has a human rating: nothing to predict.
    path = tmp_path / "human.csv"
    human.drop_duplicates(["id", "model_id"]).to_csv(path, index=False)
    args = ["calibrate", str(path), scores, "--unit", "id,model_id", "--rater", "annotator"]
    assert main([*args, "--fields", "relevance", "--ppi"]) == 2
    assert "no unlabelled units" in capsys.readouterr().err


def test_study_labels_only_its_calibration_slice() -> None:
    """gold_tiers calibrates on tier=GOLD: the GOLD items humans rated are the labelled set,
    every other item the judge scored (a TRIAGE item rated by one human too) is unlabelled."""
    study = load_study(STUDIES / "gold_tiers.yaml")
    rng = np.random.default_rng(5)
    items = [f"s{i:02d}" for i in range(40)]
    truth = rng.integers(1, 6, size=40)
    tiers = {u: "GOLD" if i < 15 else "TRIAGE" for i, u in enumerate(items)}
    records = {u: {"domain": "a" if i % 2 else "b"} for i, u in enumerate(items)}
    ratings = pd.DataFrame(
        [
            {"task": "summarization", "item_id": u, "annotator_id": a, "field": "faithfulness"}
            | {"value": str(int(np.clip(truth[i] + rng.integers(-1, 2), 1, 5)))}
            for i, u in enumerate(items)
            for a in (("ann_kaur", "ann_lind") if tiers[u] == "GOLD" else ("ann_moss",))
        ]
    )
    verdicts = pd.DataFrame(
        [
            {"task": "summarization", "item_id": u, "judge": "judge_a", "field": "faithfulness"}
            | {"value": str(truth[i] + rng.normal(0, 0.5)), "raw": "x", "source": "generations"}
            for i, u in enumerate(items)
        ]
    ).reindex(columns=list(VERDICT_COLUMNS))
    table = study_substitution(study, ratings, verdicts, records, tiers).set_index("slice")
    assert set(table.index) == {"all", "tier=GOLD", "tier=TRIAGE", "domain=a", "domain=b"}
    gold = ratings[ratings["item_id"].map(tiers) == "GOLD"]
    y = gold.assign(v=gold["value"].astype(float)).groupby("item_id")["v"].mean()
    pred = verdicts.set_index("item_id")["value"].astype(float)
    ref = _reference(y.to_numpy(), pred[y.index].to_numpy(), pred.drop(y.index).to_numpy(), 0.95)
    for key, value in ref.items():
        assert table.loc["all", key] == pytest.approx(value, abs=TOL), key
    assert table.loc["all", ["n_labeled", "n_unlabeled"]].tolist() == [15, 25]
    assert table.loc["tier=GOLD", ["n_labeled", "n_unlabeled"]].tolist() == [15, 0]
    assert np.isnan(table.loc["tier=GOLD", "estimate"])
    assert table.loc["tier=TRIAGE", ["n_labeled", "n_unlabeled"]].tolist() == [0, 25]
    assert np.isnan(table.loc["tier=TRIAGE", "classical_estimate"])


def test_a_second_score_for_the_same_unit_is_named() -> None:
    humans, judges, _ = _long(6)
    twice = pd.concat([judges, judges.iloc[[0]]], ignore_index=True)
    with pytest.raises(JudgeInputError, match="judge scores: more than one row for unit='u00'"):
        substitution_table(humans, twice, {"score": "graded"})


def test_cli_names_a_missing_column(dialsummeval, capsys: pytest.CaptureFixture) -> None:
    _, _, folder = dialsummeval
    args = ["calibrate", str(folder / "human.csv"), str(DATA / "judge_scores.csv"), "--ppi"]
    assert main([*args, "--unit", "id,model", "--rater", "annotator", "--fields", "fluency"]) == 2
    error = capsys.readouterr().err
    assert "HUMAN" in error and "'model'" in error and "model_id" in error
