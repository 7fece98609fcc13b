"""Unblinding a returned pairwise cell: the answer as seen (``left``...) becomes the pair's
canonical value (``a``...) through the sealed key's side, for returns and for adjudicators'
decisions (who see the pair unswapped), and a file without sides is refused."""

from __future__ import annotations

import pandas as pd
import pytest

from raterlab.ingest.labels import normalised_values, to_labels, value_column
from raterlab.ingest.read import ROW
from raterlab.protocol import load_study
from tests.conftest import STUDIES

SOURCE = {"source_file": "f.csv", "source_sha256": "0" * 64, "ingested_at": None}
ANSWERS = ["left", "left", "Right", "right", "tie", "tie"]
SIDES = [False, True, False, True, False, True]


@pytest.fixture(scope="module")
def study():
    return load_study(STUDIES / "pairwise_arena.yaml")


def _frame(answers: list[str]) -> pd.DataFrame:
    n = len(answers)
    return pd.DataFrame(
        {
            ROW: range(2, n + 2),
            "annotator_id": ["r1"] * n,
            "item": [f"t{i}" for i in range(n)],
            "preference": answers,
            "reason": [""] * n,
            "time_spent_s": ["30"] * n,
        }
    )


def _joined(sides: list[bool]) -> pd.DataFrame:
    n = len(sides)
    return pd.DataFrame(
        {
            ROW: range(2, n + 2),
            "token": [f"t{i}" for i in range(n)],
            "item_id": [f"p{i}:x~y" for i in range(n)],
            "annotator_id": ["r1"] * n,
            "kind": ["item"] * n,
            "copy": [0] * n,
            "round": ["main"] * n,
            "batch": ["main"] * n,
            "swapped": sides,
        }
    )


def test_a_returned_answer_is_stored_in_the_pairs_orientation(study) -> None:
    labels = to_labels(study, "preference", _frame(ANSWERS), _joined(SIDES), SOURCE)
    stored = labels.table[value_column("preference")].to_pylist()
    assert stored == ["a", "b", "b", "a", "tie", "tie"]


def test_without_the_keys_sides_a_pairwise_answer_is_refused(study) -> None:
    joined = _joined(SIDES).drop(columns="swapped")
    with pytest.raises(ValueError, match="sealed key's sides"):
        to_labels(study, "preference", _frame(ANSWERS), joined, SOURCE)


def test_an_adjudicators_decision_reads_the_pair_unswapped(study) -> None:
    frame = pd.DataFrame({"preference": ["left", "RIGHT", "tie", ""], ROW: range(4)})
    values, _ = normalised_values(study, "preference", "preference", frame)
    assert values.tolist() == ["a", "b", "tie", None]
