"""The pilot gate: exactly the declared coefficient (sklearn's unweighted Cohen's kappa),
weighted kappa beside it, every attempt kept, the protocol's agreement matrix per round, and
gates that cannot be computed refused when the study is loaded."""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

from raterlab.agreement.pilot import (
    GATE_COLUMNS,
    gate_history,
    matrix_markdown,
    pilot_gate,
    pilot_matrices,
)
from raterlab.protocol import StudyError, parse_study
from tests.conftest import MINI_STUDY

# Appendix B of the correctness protocol: rows annotator 2's score, columns annotator 1's.
APPENDIX_B = np.array(
    [[2, 0, 0, 0, 0], [0, 3, 1, 0, 0], [0, 1, 5, 2, 0], [0, 0, 1, 8, 1], [0, 0, 0, 1, 4]]
)


def _study(gate: dict | None = None, annotators=("a1", "a2"), bands=None):
    data = copy.deepcopy(MINI_STUDY)
    data["design"]["annotators"] = list(annotators)
    data["thresholds"] = {
        "pilot_gate": gate
        or {
            "coefficient": "cohen_kappa",
            "weights": "unweighted",
            "fields": ["score"],
            "min": 0.7,
            "strict": True,
        }
    }
    if bands:
        data["thresholds"]["bands"] = bands
    return parse_study(data)


def _appendix_b_scores() -> tuple[list[int], list[int]]:
    first, second = [], []
    for row in range(5):
        for col in range(5):
            first += [col + 1] * int(APPENDIX_B[row, col])
            second += [row + 1] * int(APPENDIX_B[row, col])
    return first, second


def _rows(first: list[int], second: list[int], round_name: str = "pilot") -> pd.DataFrame:
    out = []
    for annotator, scores in (("a1", first), ("a2", second)):
        for i, v in enumerate(scores):
            out.append(("answer", f"ans-{i:03d}", annotator, "score", str(v), float(v), round_name))
    return pd.DataFrame(
        out, columns=["task", "item_id", "annotator_id", "field", "value", "value_num", "round"]
    )


def _key(n_items: int, rounds=("pilot",)) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "round": r,
                "kind": "item",
                "item_id": f"ans-{i:03d}",
                "annotator_id": a,
                "task": "answer",
            }
            for r in rounds
            for i in range(n_items)
            for a in ("a1", "a2")
        ]
    )


def test_gate_is_sklearn_unweighted_kappa_with_weighted_beside() -> None:
    first, second = _appendix_b_scores()
    gate = pilot_gate(_study(), _rows(first, second), _key(len(first)), n_resamples=200)
    row = gate.table.iloc[0]
    assert row["estimate"] == pytest.approx(cohen_kappa_score(first, second), abs=1e-12)
    assert row["kappa_linear"] == pytest.approx(cohen_kappa_score(first, second, weights="linear"))
    assert row["kappa_quadratic"] == pytest.approx(
        cohen_kappa_score(first, second, weights="quadratic")
    )
    # The protocol prints kappa = 0.72 for this matrix; sklearn (and the gate) give 0.678,
    # so the pilot fails a strict 0.7 gate that quadratic weights (0.906) would have passed.
    assert row["estimate"] == pytest.approx(0.6778, abs=1e-4)
    assert not gate.passed and not row["passed"]
    assert gate.message == (
        "main round held back: pilot cohen_kappa on answer.score is 0.678, needs > 0.7"
    )
    assert row["ci_low"] < row["estimate"] < row["ci_high"]
    assert (row["n_units"], row["n_raters"], row["options"]) == (29, 2, "weights=unweighted")
    assert list(gate.table.columns) == list(GATE_COLUMNS)


def test_gate_passes_only_above_the_minimum_and_waits_for_the_round() -> None:
    first = [1, 2, 3, 4, 5, 1, 2, 3, 4, 5]
    second = [1, 2, 3, 4, 5, 1, 2, 3, 4, 4]
    kappa = cohen_kappa_score(first, second)
    rows, key = _rows(first, second), _key(10)
    below = {"coefficient": "cohen_kappa", "weights": "unweighted", "fields": ["score"]}
    assert pilot_gate(_study({**below, "min": kappa - 0.01, "strict": True}), rows, key).passed
    assert not pilot_gate(_study({**below, "min": kappa + 1e-9}), rows, key).passed
    assert pilot_gate(_study({**below, "min": kappa - 1e-9}), rows, key).passed
    waiting = pilot_gate(_study(), rows.iloc[:-3], key)
    assert not waiting.passed and waiting.message == "pilot incomplete: 17 of 20 ratings returned"


def test_a_repeated_pilot_is_its_own_attempt_and_history_keeps_both() -> None:
    first, second = _appendix_b_scores()
    key = _key(len(first), rounds=("pilot", "pilot-2"))
    study = _study()
    failed = pilot_gate(study, _rows(first, second), key[key["round"] == "pilot"])
    rows = pd.concat([_rows(first, second), _rows(first, first, "pilot-2")], ignore_index=True)
    waiting = pilot_gate(study, rows.iloc[:-1], key)
    assert not waiting.passed and waiting.message.startswith("pilot-2 incomplete")
    passed = pilot_gate(study, rows, key)
    assert passed.passed and passed.table["round"].tolist() == ["pilot-2"]
    assert passed.table["attempt"].tolist() == [2]
    history = gate_history(gate_history(None, failed.table), passed.table)
    assert history[["round", "gate_passed"]].values.tolist() == [
        ["pilot", False],
        ["pilot-2", True],
    ]
    assert gate_history(history, passed.table).equals(history)  # re-evaluating is idempotent
    assert history["evaluated_at"].notna().all() and (history["study_version"] == "1").all()


def test_agreement_matrix_reproduces_appendix_b() -> None:
    first, second = _appendix_b_scores()
    matrices = pilot_matrices(_study(), _rows(first, second))
    table = matrices.pivot(index="score_b", columns="score_a", values="count")
    assert table.to_numpy().tolist() == APPENDIX_B.tolist()
    assert set(matrices["round"]) == {"pilot"}
    text = matrix_markdown(matrices)
    assert "| **a2: 3** | 0 | 1 | 5 | 2 | 0 |" in text
    assert "Total agreement: 22/29 = 76%." in text


def test_study_bands_label_the_gate() -> None:
    bands = [[float("-inf"), "poor"], [0.4, "moderate"], [0.6, "substantial"], [0.8, "excellent"]]
    first, second = _appendix_b_scores()
    gate = pilot_gate(_study(bands=bands), _rows(first, second), _key(29), n_resamples=0)
    assert gate.table["band"].iloc[0] == "substantial"


@pytest.mark.parametrize(
    ("gate", "annotators", "path", "message"),
    [
        (
            {"coefficient": "cohen_kappa", "weights": "unweighted", "min": 0.7},
            ("a1", "a2", "a3"),
            "thresholds.pilot_gate",
            "cohen_kappa is defined for two raters",
        ),
        (
            {"coefficient": "cohen_kappa", "fields": ["score"], "min": 0.7},
            ("a1", "a2"),
            "thresholds.pilot_gate.weights",
            "needs weights: unweighted, linear",
        ),
        (
            {"coefficient": "cohen_kappa", "weights": "quadratic", "fields": ["relevant"]},
            ("a1", "a2"),
            "thresholds.pilot_gate.weights",
            "quadratic weights need a Likert scale",
        ),
        (
            {"coefficient": "gwet_ac1", "weights": "linear", "min": 0.6},
            ("a1", "a2"),
            "thresholds.pilot_gate.weights",
            "gwet_ac1 takes no weights",
        ),
    ],
)
def test_a_gate_that_cannot_be_computed_is_a_load_error(gate, annotators, path, message) -> None:
    gate = {"min": 0.5, **gate}
    with pytest.raises(StudyError) as error:
        _study(gate, annotators=annotators)
    assert any(p == path and message in m for p, m in error.value.problems), error.value.problems
