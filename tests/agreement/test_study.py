"""Agreement of a study's labels: coefficient sets by field type, slices, thresholds, the
pairwise tables and matrices, on constructed ratings with known answers."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from raterlab.agreement import cohen_kappa, krippendorff_alpha
from raterlab.agreement.study import (
    field_agreement,
    matrices,
    pairwise,
    threshold_results,
)
from raterlab.protocol import parse_study
from tests.conftest import MINI_STUDY


def _study(**changes):
    """The mini study with the two annotators the constructed ratings have (Cohen's kappa
    thresholds need a two-annotator design)."""
    design = {**MINI_STUDY["design"], "annotators": ["a1", "a2"]}
    # An adjudicator settles binary disagreements, so the two-annotator design is a valid study.
    consensus = {"adjudicate": {"binary_disagreement_tiers": ["GOLD", "TRIAGE"]}}
    data = {**MINI_STUDY, "slices": ["category"], "design": design, "consensus": consensus}
    data.update(changes)
    return parse_study(data)


def _rows(scores: dict[str, list], relevant: dict[str, list], round_name="main") -> pd.DataFrame:
    """Long ratings as ``raterlab.agreement.study.ratings`` returns them."""
    out = []
    for annotator, values in scores.items():
        for i, v in enumerate(values):
            if v is not None:
                out.append(
                    (
                        "answer",
                        f"ans-{i:03d}",
                        annotator,
                        "score",
                        str(v),
                        float(v),
                        ["api", "security"][i % 2],
                        round_name,
                    )
                )
    for annotator, values in relevant.items():
        for i, v in enumerate(values):
            out.append(
                ("check", f"chk-{i:03d}", annotator, "relevant", str(v), float(v), "", round_name)
            )
    return pd.DataFrame(
        out,
        columns=[
            "task",
            "item_id",
            "annotator_id",
            "field",
            "value",
            "value_num",
            "category",
            "round",
        ],
    )


A = [1, 2, 3, 4, 5, 3, 2, 4, 5, 1, 2, 3]
B = [1, 2, 3, 4, 4, 3, 2, 5, 5, 1, 3, 3]
REL_A = [1, 0, 1, 1, 0, 1, 0, 0, 1, 1]
REL_B = [1, 0, 1, 0, 0, 1, 0, 1, 1, 1]


def test_coefficients_follow_the_field_type_and_match_the_library() -> None:
    rows = _rows({"a1": A, "a2": B}, {"a1": REL_A, "a2": REL_B})
    table = field_agreement(_study(), rows, interval=None)
    overall = table[table["slice"] == "all"]
    likert = overall[overall["field"] == "score"].set_index(["coefficient", "level"])["estimate"]
    binary = overall[overall["field"] == "relevant"].set_index(["coefficient", "level"])["estimate"]
    assert set(likert.index) == {
        ("percent_agreement", "ordinal"),
        ("krippendorff_alpha", "ordinal"),
        ("krippendorff_alpha", "interval"),
        ("gwet_ac2", "weights=quadratic"),
        ("cohen_kappa", "weights=quadratic"),
        ("icc", "ICC(1,1)"),
    }
    assert set(binary.index) == {
        ("percent_agreement", "nominal"),
        ("fleiss_kappa", "nominal"),
        ("krippendorff_alpha", "nominal"),
        ("gwet_ac1", "nominal"),
        ("cohen_kappa", "nominal"),
    }
    pair = np.array([A, B], dtype=float).T
    assert likert[("cohen_kappa", "weights=quadratic")] == pytest.approx(
        float(cohen_kappa(pair, weights="quadratic", categories=[1, 2, 3, 4, 5]))
    )
    assert likert[("krippendorff_alpha", "ordinal")] == pytest.approx(
        float(krippendorff_alpha(pair, level="ordinal", categories=[1, 2, 3, 4, 5]))
    )
    assert binary[("percent_agreement", "nominal")] == pytest.approx(0.8)


def test_slices_and_bands_and_intervals() -> None:
    rows = _rows({"a1": A, "a2": B}, {"a1": REL_A, "a2": REL_B})
    table = field_agreement(_study(), rows)
    assert set(table["slice"]) == {"all", "category=api", "category=security", "round=main"}
    api = table[(table["slice"] == "category=api") & (table["field"] == "score")]
    assert (api["n_units"] == 6).all()
    alpha = table[
        (table["slice"] == "all")
        & (table["coefficient"] == "krippendorff_alpha")
        & (table["field"] == "score")
        & (table["level"] == "ordinal")
    ].iloc[0]
    assert alpha["ci_low"] <= alpha["estimate"] <= alpha["ci_high"]
    assert alpha["band"] in {"almost perfect", "substantial"}


def test_sparse_design_uses_multi_rater_coefficients_and_one_way_icc() -> None:
    """Four annotators, two per item: no Cohen's kappa; ICC(1,1) on each unit's two ratings."""
    scores = {
        f"r{k}": [v if (i % 4) in (k, (k + 1) % 4) else None for i, v in enumerate(A * 2)]
        for k in range(4)
    }
    table = field_agreement(_study(), _rows(scores, {}), interval=None)
    score = table[(table["slice"] == "all") & (table["field"] == "score")]
    assert "cohen_kappa" not in set(score["coefficient"])
    icc_row = score[score["coefficient"] == "icc"].iloc[0]
    assert icc_row["n_units"] == 24 and icc_row["n_raters"] == 2


def test_thresholds_per_field_and_pooled_per_task() -> None:
    study = _study(
        thresholds={
            "minimums": [
                {
                    "coefficient": "cohen_kappa",
                    "weights": "quadratic",
                    "fields": ["score"],
                    "min": 0.8,
                },
                {
                    "coefficient": "krippendorff_alpha",
                    "level": "nominal",
                    "per": "task",
                    "min": 0.99,
                },
            ]
        }
    )
    rows = _rows({"a1": A, "a2": B}, {"a1": REL_A, "a2": REL_B})
    results = threshold_results(study, field_agreement(study, rows, interval=None))
    score = results[results["field"] == "score"].iloc[0]
    assert score["passed"] and score["estimate"] > 0.8
    pooled = results[results["field"].str.startswith("(pooled nominal")].set_index("task")
    assert not pooled.loc["check", "passed"]  # two disagreements in ten
    assert pooled.loc["check", "estimate"] < 0.99


def test_pairwise_and_matrices() -> None:
    rows = _rows({"a1": A, "a2": B, "a3": A}, {"a1": REL_A, "a2": REL_B})
    pairs = pairwise(_study(), rows)
    score = pairs[pairs["field"] == "score"].set_index(["rater_a", "rater_b"])
    assert score.loc[("a1", "a3"), "percent_agreement"] == 1.0
    assert score.loc[("a1", "a2"), "n_units"] == 12
    table = matrices(_study(), rows)
    rel = table[table["field"] == "relevant"].set_index(["category_a", "category_b"])["count"]
    # Two raters: a1's rating by a2's over ten units: 1-1 x5, 0-0 x3, 1-0 (unit 3), 0-1 (unit 7).
    assert rel.to_dict() == {("0", "0"): 3, ("0", "1"): 1, ("1", "0"): 1, ("1", "1"): 5}
    score_matrix = table[table["field"] == "score"]
    # Three raters: pairs pooled in both orders, so the matrix sums to 12 units x 3 x 2.
    assert score_matrix["count"].sum() == 72


def test_forest_plot(tmp_path) -> None:
    from raterlab.agreement.plot import forest_plot, headline

    study = _study(thresholds={"minimums": [{"coefficient": "krippendorff_alpha", "min": 0.667}]})
    table = field_agreement(study, _rows({"a1": A, "a2": B}, {"a1": REL_A, "a2": REL_B}))
    assert headline(table)[["task", "field", "level"]].values.tolist() == [
        ["answer", "score", "ordinal"],
        ["check", "relevant", "nominal"],
    ]
    path = forest_plot(study, table, tmp_path / "agreement.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert forest_plot(study, table.iloc[0:0], tmp_path / "none.png") is None


def test_coefficient_bands_override_the_study_bands() -> None:
    targets = [(float("-inf"), "below acceptable"), (0.6, "acceptable"), (0.75, "good")]
    study = _study(thresholds={"coefficient_bands": {"fleiss_kappa": targets}})
    rows = _rows({"a1": A, "a2": B}, {"a1": REL_A, "a2": REL_B})
    table = field_agreement(study, rows, interval=None)
    overall = table[(table["slice"] == "all") & (table["field"] == "relevant")]
    bands = overall.set_index("coefficient")["band"]
    fleiss = overall.set_index("coefficient")["estimate"]["fleiss_kappa"]
    assert 0.5 < fleiss < 0.75  # 8 of 10 agree, balanced margins
    assert bands["fleiss_kappa"] == ("acceptable" if fleiss >= 0.6 else "below acceptable")
    assert bands["gwet_ac1"] in {"moderate", "substantial", "almost perfect"}  # Landis-Koch


def test_pooled_per_task_alpha_keeps_levels_apart() -> None:
    """Two Likert fields pooled at the ordinal level give the ordinal alpha of the stacked
    matrix; the same data read as nominal is lower (near misses count as misses)."""
    data = {**MINI_STUDY["tasks"]["answer"]}
    data["fields"] = {
        "score": {"type": "likert"},
        "depth": {"type": "likert"},
        "safe": {"type": "binary"},
    }
    data["conditional"] = []
    study = _study(
        tasks={"answer": data, "check": MINI_STUDY["tasks"]["check"]},
        thresholds={
            "minimums": [{"coefficient": "krippendorff_alpha", "per": "task", "min": 0.75}]
        },
    )
    rows = _rows({"a1": A, "a2": B}, {})
    depth = rows.assign(field="depth", item_id=rows["item_id"])
    depth["value_num"] = depth.groupby("annotator_id")["value_num"].transform(
        lambda s: s[::-1].values
    )
    depth["value"] = depth["value_num"].astype(int).astype(str)
    safe = _rows({}, {"a1": REL_A, "a2": REL_B}).assign(task="answer", field="safe")
    rows = pd.concat([rows, depth, safe], ignore_index=True)
    results = threshold_results(study, field_agreement(study, rows, interval=None))
    answer = results[results["task"] == "answer"].set_index("field")["estimate"]
    assert set(answer.index) == {"(pooled ordinal: score, depth)", "(pooled nominal: safe)"}
    stacked = np.vstack([np.array([A, B], float).T, np.array([A[::-1], B[::-1]], float).T])
    expected = float(krippendorff_alpha(stacked, level="ordinal", categories=[1, 2, 3, 4, 5]))
    assert answer["(pooled ordinal: score, depth)"] == pytest.approx(expected)
    nominal = float(krippendorff_alpha(stacked, level="nominal"))
    assert nominal < expected


def test_threshold_on_a_slice_reads_that_slice() -> None:
    minimum = {"coefficient": "fleiss_kappa", "slice": "round=main", "min": 0.1}
    study = _study(thresholds={"minimums": [minimum]})
    rows = _rows({"a1": A, "a2": B}, {"a1": REL_A, "a2": REL_B})
    table = field_agreement(study, rows, interval=None)
    results = threshold_results(study, table).set_index("field")
    # fleiss_kappa applies to binary fields only: the Likert score gets no row at all
    assert "score" not in results.index
    main = table[(table["slice"] == "round=main") & (table["field"] == "relevant")]
    expected = main.set_index("coefficient")["estimate"]["fleiss_kappa"]
    assert results.loc["relevant", "estimate"] == pytest.approx(expected)
    assert results.loc["relevant", "slice"] == "round=main"


def test_a_minimum_is_judged_on_exactly_the_coefficient_it_declares() -> None:
    """Unweighted Cohen's kappa on a Likert field (the set holds the quadratic one) gets its
    own row, equal to sklearn's default ``cohen_kappa_score``, and the threshold reads it."""
    from sklearn.metrics import cohen_kappa_score

    minimum = {"coefficient": "cohen_kappa", "weights": "unweighted", "fields": ["score"]}
    study = _study(thresholds={"minimums": [{**minimum, "min": 0.6}]})
    rows = _rows({"a1": A, "a2": B}, {"a1": REL_A, "a2": REL_B})
    table = field_agreement(study, rows, interval=None)
    score = table[(table["slice"] == "all") & (table["field"] == "score")]
    kappas = score[score["coefficient"] == "cohen_kappa"].set_index("level")["estimate"]
    assert kappas["weights=unweighted"] == pytest.approx(cohen_kappa_score(A, B))
    assert kappas["weights=quadratic"] == pytest.approx(
        cohen_kappa_score(A, B, weights="quadratic")
    )
    (result,) = threshold_results(study, table).itertuples()
    assert result.estimate == pytest.approx(cohen_kappa_score(A, B))
    assert result.passed == (cohen_kappa_score(A, B) >= 0.6)


def test_light_kappa_is_the_mean_of_cohen_kappa_over_annotator_pairs() -> None:
    """Four annotators, two per item (empathy's design): the protocol's "Cohen's kappa across
    annotator pairs" is Light's kappa, the mean of each pair's kappa on the items it shares."""
    from sklearn.metrics import cohen_kappa_score

    scores = {
        f"r{k}": [v if (i % 4) in (k, (k + 1) % 4) else None for i, v in enumerate(A * 2)]
        for k in range(4)
    }
    scores["r1"] = [None if v is None else min(v + 1, 5) for v in scores["r1"]]
    study = _study(thresholds={"minimums": [{"coefficient": "light_kappa", "min": 0.4}]})
    table = field_agreement(study, _rows(scores, {}), interval=None)
    row = table[(table["field"] == "score") & (table["coefficient"] == "light_kappa")]
    pairs = []
    for a, b in [("r0", "r1"), ("r1", "r2"), ("r2", "r3"), ("r0", "r3")]:
        shared = [(x, y) for x, y in zip(scores[a], scores[b], strict=True) if None not in (x, y)]
        pairs.append(cohen_kappa_score(*zip(*shared, strict=True)))
    assert row[row["slice"] == "all"]["estimate"].iloc[0] == pytest.approx(np.mean(pairs))


def test_a_study_exporting_study_json_gets_the_kappa_it_reports_on_likert_fields() -> None:
    """``study_json`` reads each field's inter-rater kappa from ``gold.agreement``: the
    agreement asset computes unweighted Cohen's kappa of a Likert field for such a study (as
    ``sklearn.metrics.cohen_kappa_score``), and the export reports that number."""
    from sklearn.metrics import cohen_kappa_score

    from raterlab.exports.study_json import kappa

    rows = _rows({"a1": A, "a2": B}, {"a1": REL_A, "a2": REL_B})
    plain = field_agreement(_study(), rows, interval=None)
    study = _study(exports=["study_json"])
    table = field_agreement(study, rows, interval=None)
    score = table[(table["slice"] == "all") & (table["field"] == "score")]
    unweighted = score[(score["coefficient"] == "cohen_kappa") & (score["level"] == "nominal")]
    assert unweighted["estimate"].tolist() == [pytest.approx(cohen_kappa_score(A, B))]
    assert len(table) == len(plain) + plain["slice"].nunique()
    reported = {e["field"]: e for e in kappa(study, table)}
    assert reported["score"]["estimate"] == round(cohen_kappa_score(A, B), 4)
    assert reported["score"]["weights"] == "unweighted"


def test_the_agreement_tables_are_the_ones_declared_for_the_agreement_asset() -> None:
    """``agreement_tables`` gives every table declared as written by ``agreement`` (and no
    other), the thresholds judged on the same ``gold.agreement`` rows."""
    from raterlab.agreement.study import agreement_tables
    from raterlab.tables import TABLES

    study = _study()
    frames = agreement_tables(study, _rows({"a1": A, "a2": B}, {"a1": REL_A, "a2": REL_B}))
    assert set(frames) == {n for n, t in TABLES.items() if t.written_by == "agreement"}
    expected = threshold_results(study, frames["gold.agreement"])
    assert frames["staging.agreement_thresholds"].equals(expected)


@pytest.mark.parametrize("seed", range(6))
def test_unit_matrix_is_pivot_table_first(seed: int) -> None:
    """Duplicates, missing values (NaN and None), units and annotators with nothing: the
    same frame as ``pivot_table(aggfunc="first")``."""
    from raterlab.agreement.study import unit_matrix

    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 60))
    values = [None, np.nan, "1", "2", "3"]
    rows = pd.DataFrame(
        {
            "item_id": [f"i{k}" for k in rng.integers(0, 12, n)],
            "annotator_id": [f"a{k}" for k in rng.integers(0, 5, n)],
            "value": [values[k] for k in rng.integers(0, len(values), n)],
            "value_num": np.where(rng.random(n) < 0.3, np.nan, rng.integers(1, 6, n)),
        }
    )
    # rater quality's ratings: numbers and labels in one object column
    rows["x"] = pd.Series(
        [[None, 2.0, 3.5, "a", "b"][k] for k in rng.integers(0, 5, n)], dtype=object
    )
    for column in ("value", "value_num", "x"):
        expected = rows.pivot_table(
            index="item_id", columns="annotator_id", values=column, aggfunc="first"
        )
        pd.testing.assert_frame_equal(unit_matrix(rows, "item_id", column), expected)
