"""Latent truth: reproducible per item, shaped by the study model, consistent with its rules."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from raterlab.design import read_generations
from raterlab.protocol import load_study, parse_study
from raterlab.protocol.rules import Constraint
from raterlab.simulate import draw_truth, repair, violations
from raterlab.simulate.truth import binary_polarity
from tests.conftest import MINI_STUDY, mini_records, write_study
from tests.simulate.conftest import WIDGET_STUDY, widget_records

SEED = (7, 0)


def _load(tmp_path, study, records):
    study = load_study(write_study(tmp_path / "studies", study, records))
    return study, read_generations(study)


def test_truth_is_per_item_and_reproducible(tmp_path) -> None:
    study, generations = _load(tmp_path, MINI_STUDY, mini_records())
    truth = draw_truth(study, generations, SEED)
    subset = generations.sample(frac=0.5, random_state=0)  # every slice level is still there
    again = draw_truth(study, subset, SEED)
    assert again.effects == truth.effects
    for item_id, item in again.items.items():
        assert item.values == truth.items[item_id].values
    other = draw_truth(study, generations, (7, 1))
    differs = sum(other.items[i].values != t.values for i, t in truth.items.items())
    assert differs > len(truth.items) / 3


def test_quality_items_and_rules_shape_the_truth(tmp_path) -> None:
    study, generations = _load(tmp_path, WIDGET_STUDY, widget_records(200))
    truth = draw_truth(study, generations, SEED)
    task = study.tasks["scenario"]
    for item_id, record, expected in zip(
        generations["item_id"], generations["record"], generations["expected"], strict=True
    ):
        item = truth.items[item_id]
        assert violations(item.values, task.constraints) == []
        assert set(item.values) == set(task.rating_fields)
        for name, value in (expected or {}).items():
            assert item.values[name] == value and item.source[name] == "expected"
        if record["response"] == "":
            assert item.values["completeness"] == 1 and item.values["code_runs"] == 0
            assert item.source["completeness"] == "edge_case"
    # The hidden judge verdict hints at the trigger truth.
    agree = np.mean(
        [
            truth.items[i].values["trigger"] == r["judge_trigger"]
            for i, r in zip(generations["item_id"], generations["record"], strict=True)
        ]
    )
    assert agree > 0.75
    assert truth.hints == {"scenario": {"trigger": "judge_trigger"}}


def test_slice_levels_shift_the_truth(tmp_path) -> None:
    study, generations = _load(tmp_path, MINI_STUDY, mini_records(600, 10))
    truth = draw_truth(study, generations, SEED)
    assert truth.effects["answer"]["condition"] == {"A": 0.25, "B": -0.25}
    scores = {"A": [], "B": []}
    for item_id, record, role in zip(
        generations["item_id"], generations["record"], generations["role"], strict=True
    ):
        if role == "item" and "condition" in record and item_id.startswith("ans"):
            scores[record["condition"]].append(truth.items[item_id].values["score"])
    gap = np.mean(scores["A"]) - np.mean(scores["B"])
    assert 0.15 < gap < 0.9, gap
    values = np.concatenate([scores["A"], scores["B"]])
    assert set(values) == {1, 2, 3, 4, 5}


def test_truth_frame_has_one_row_per_item_and_field(tmp_path) -> None:
    study, generations = _load(tmp_path, MINI_STUDY, mini_records())
    frame = draw_truth(study, generations, SEED).frame()
    n_fields = {t: len(s.rating_fields) for t, s in study.tasks.items()}
    assert len(frame) == sum(n_fields[t] for t in generations["task"])
    assert frame.loc[frame["field"] == "score", "value_num"].between(1, 5).all()


def test_polarity_follows_exclusions() -> None:
    study = parse_study(
        {
            "name": "pol",
            "title": "t",
            "generations": "g.jsonl",
            "tasks": {
                "t": {
                    "unit": "u",
                    "shown": ["x"],
                    "fields": {
                        "good": {"type": "binary"},
                        "bad": {"type": "binary"},
                        "worse": {"type": "binary"},
                        "alone": {"type": "binary"},
                    },
                    "constraints": ["good => not bad", "worse => bad"],
                }
            },
            "design": {"annotators": ["a"], "overlap": {"GOLD": 1}, "seed": 1},
        }
    )
    assert binary_polarity(study.tasks["t"]) == {"good": 1, "bad": -1, "worse": -1, "alone": 1}


FIELDS = ["a", "b", "c", "d"]
constraint = st.builds(
    lambda a, b, neg: Constraint.model_validate(f"{a} => {'not ' if neg else ''}{b}"),
    st.sampled_from(FIELDS),
    st.sampled_from(FIELDS),
    st.booleans(),
).filter(lambda c: c.antecedent != c.consequent)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(constraint, max_size=5),
    st.fixed_dictionaries({f: st.sampled_from([0, 1]) for f in FIELDS}),
    st.integers(0, 1000),
)
def test_repair_satisfies_every_constraint(constraints, values, seed) -> None:
    out = repair(values, constraints, np.random.default_rng(seed))
    assert violations(out, constraints) == []
    assert set(out) == set(values)
    if not violations(values, constraints):
        assert out == values


def test_repair_keeps_locked_values() -> None:
    constraints = [Constraint.model_validate("a => b")]
    for seed in range(20):
        out = repair({"a": 1, "b": 0}, constraints, np.random.default_rng(seed), {"b"})
        assert out == {"a": 0, "b": 0}
