"""The protocol's coefficient is the headline of ``gold.agreement``: chosen from the study's
thresholds (never hand-listed), computed on every slice, one row per field and slice, and
equal to the reference implementation on the same pairs."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.metrics import cohen_kappa_score

from raterlab.agreement import krippendorff_alpha
from raterlab.agreement.study import field_agreement, pairwise, threshold_results
from tests.agreement.test_study import REL_A, REL_B, _rows, _study

RNG = np.random.default_rng(3)
A = list(RNG.integers(1, 6, 40))
B = [min(5, max(1, a + int(d))) for a, d in zip(A, RNG.integers(-1, 2, 40), strict=True)]
GATE = {"coefficient": "cohen_kappa", "weights": "unweighted", "min": 0.7, "strict": True}


def _headline(table: pd.DataFrame, field: str, slice_name: str) -> pd.Series:
    rows = table[(table["field"] == field) & (table["slice"] == slice_name) & table["headline"]]
    assert len(rows) == 1, rows
    return rows.iloc[0]


def test_the_pilot_gates_coefficient_is_the_headline_on_every_slice() -> None:
    """correctness_ab: the gate is unweighted Cohen's kappa on a Likert field; the table
    already has quadratic kappa, which must not be the headline."""
    study = _study(
        thresholds={
            "pilot_gate": GATE,
            "minimums": [{"coefficient": "cohen_kappa", "weights": "quadratic", "min": 0.4}],
        }
    )
    rows = _rows({"a1": A, "a2": B}, {"a1": REL_A, "a2": REL_B})
    table = field_agreement(study, rows, interval=None)
    for slice_name, keep in (("all", None), ("category=api", 0), ("category=security", 1)):
        idx = [i for i in range(len(A)) if keep is None or i % 2 == keep]
        row = _headline(table, "score", slice_name)
        assert (row["coefficient"], row["level"]) == ("cohen_kappa", "weights=unweighted")
        expected = cohen_kappa_score([A[i] for i in idx], [B[i] for i in idx])
        assert np.isclose(row["estimate"], expected)
        assert row["declared_by"] == "thresholds.pilot_gate"
    overall = table[(table["slice"] == "all") & (table["field"] == "score")]
    quadratic = overall[
        (overall["coefficient"] == "cohen_kappa") & (overall["level"] == "weights=quadratic")
    ].iloc[0]
    assert not quadratic["headline"] and quadratic["declared_by"] == "thresholds.minimums[0]"
    assert quadratic["estimate"] > _headline(table, "score", "all")["estimate"]
    # The binary field: the gate (no fields) reads it too, as nominal Cohen's kappa.
    relevant = _headline(table, "relevant", "all")
    assert relevant["coefficient"] == "cohen_kappa" and relevant["level"] == "nominal"
    assert np.isclose(relevant["estimate"], cohen_kappa_score(REL_A, REL_B))
    assert (table.groupby(["task", "field", "slice"])["headline"].sum() == 1).all()


def test_a_threshold_marked_headline_wins_and_the_others_stay_beside_it() -> None:
    """empathy: the gate is alpha, but the guide's target (Light's kappa) is marked."""
    study = _study(
        thresholds={
            "pilot_gate": {"coefficient": "krippendorff_alpha", "level": "ordinal", "min": 0.6},
            "minimums": [
                {"coefficient": "krippendorff_alpha", "level": "ordinal", "min": 0.667},
                {"coefficient": "light_kappa", "min": 0.4, "headline": True},
            ],
        }
    )
    rows = _rows({"a1": A, "a2": B}, {"a1": REL_A, "a2": REL_B})
    table = field_agreement(study, rows, interval=None)
    row = _headline(table, "score", "all")
    assert (row["coefficient"], row["level"]) == ("light_kappa", "nominal")
    assert np.isclose(row["estimate"], cohen_kappa_score(A, B))  # two raters: one pair
    alpha = table[
        (table["slice"] == "all")
        & (table["field"] == "score")
        & (table["coefficient"] == "krippendorff_alpha")
        & (table["level"] == "ordinal")
    ].iloc[0]
    assert alpha["declared_by"] == "thresholds.minimums[0], thresholds.pilot_gate"
    assert not alpha["headline"]


def test_per_task_alpha_is_pooled_on_every_slice_with_an_interval_and_read_on_its_slice() -> None:
    """gold_tiers: alpha per task type on the gold tier, not on GOLD and TRIAGE pooled."""
    study = _study(
        slices=["tier"],
        thresholds={
            "minimums": [
                {
                    "coefficient": "krippendorff_alpha",
                    "per": "task",
                    "slice": "tier=GOLD",
                    "min": 0.75,
                }
            ]
        },
    )
    rows = _rows({"a1": A, "a2": B}, {"a1": REL_A, "a2": REL_B})
    rows["tier"] = np.where(rows["item_id"].str[-1].astype(int) % 2 == 0, "GOLD", "TRIAGE")
    table = field_agreement(study, rows)
    pooled = table[table["field"].str.startswith("(pooled")]
    assert set(pooled["slice"]) == {"all", "tier=GOLD", "tier=TRIAGE", "round=main"}
    assert pooled["headline"].all() and pooled["ci_low"].notna().all()
    gold = rows[(rows["tier"] == "GOLD") & (rows["task"] == "answer")]
    matrix = gold.pivot_table(index="item_id", columns="annotator_id", values="value_num")
    expected = krippendorff_alpha(matrix, level="ordinal").estimate
    results = threshold_results(study, table).set_index("task")
    assert results.loc["answer", "slice"] == "tier=GOLD"
    assert np.isclose(results.loc["answer", "estimate"], expected)
    assert results.loc["answer", "ci_low"] <= expected <= results.loc["answer", "ci_high"]
    everything = pooled[(pooled["slice"] == "all") & (pooled["task"] == "answer")].iloc[0]
    assert not np.isclose(everything["estimate"], expected)


def test_pairwise_has_the_unweighted_kappa_beside_the_quadratic_one() -> None:
    study = _study()
    rows = _rows({"a1": A, "a2": B}, {"a1": REL_A, "a2": REL_B})
    pairs = pairwise(study, rows).set_index("field")
    assert np.isclose(pairs.loc["score", "cohen_kappa_unweighted"], cohen_kappa_score(A, B))
    quadratic = cohen_kappa_score(A, B, weights="quadratic")
    assert np.isclose(pairs.loc["score", "cohen_kappa"], quadratic)
    assert np.isclose(
        pairs.loc["relevant", "cohen_kappa_unweighted"], cohen_kappa_score(REL_A, REL_B)
    )


def test_the_forest_plot_draws_the_headline(tmp_path) -> None:
    from raterlab.agreement.plot import forest_plot, headline

    study = _study(thresholds={"pilot_gate": GATE})
    table = field_agreement(study, _rows({"a1": A, "a2": B}, {"a1": REL_A, "a2": REL_B}))
    drawn = headline(table)
    assert drawn[["field", "coefficient", "level"]].values.tolist() == [
        ["score", "cohen_kappa", "weights=unweighted"],
        ["relevant", "cohen_kappa", "nominal"],
    ]
    assert forest_plot(study, table, tmp_path / "agreement.png").is_file()
