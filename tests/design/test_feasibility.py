"""``raterlab study check`` refuses designs that cannot work and warns about those that will
say little (:mod:`raterlab.design.feasibility`)."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest

from raterlab.cli import main
from raterlab.design.feasibility import findings, kappa_half_width
from raterlab.design.generations import read_generations
from raterlab.protocol import load_study
from tests.conftest import MINI_STUDY, mini_records, write_study


def _study(tmp_path: Path, **changes) -> Path:
    data = copy.deepcopy(MINI_STUDY)
    for dotted, value in changes.items():
        *parents, key = dotted.split("__")
        node = data
        for parent in parents:
            node = node.setdefault(parent, {})
        node[key] = value
    return write_study(tmp_path / "studies", data, mini_records())


def _findings(path: Path) -> list:
    study = load_study(path)
    return findings(study, read_generations(study))


def test_two_annotators_on_a_binary_field_with_nothing_to_break_ties_is_refused(tmp_path):
    ties = [f for f in _findings(_study(tmp_path)) if f.severity == "error"]
    assert [f.path for f in ties] == ["consensus.adjudicate.binary_disagreement_tiers"] * 2
    assert "tier 'GOLD' has two annotators on relevant, sufficient" in ties[0].message
    assert "a spot check's second annotator" in ties[1].message  # TRIAGE, overlap 1 + spot


@pytest.mark.parametrize(
    "settles",
    [
        {"consensus__adjudicate__binary_disagreement_tiers": ["GOLD", "TRIAGE"]},
        {"consensus__unresolved": "exclude"},
    ],
)
def test_a_declared_way_to_settle_ties_is_accepted(tmp_path, settles):
    assert not [f for f in _findings(_study(tmp_path, **settles)) if f.severity == "error"]


def test_study_check_fails_the_design_and_says_why(tmp_path, monkeypatch, capsys):
    path = _study(tmp_path)
    monkeypatch.setenv("RATERLAB_HOME", str(tmp_path / "home"))
    assert main(["study", "check", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"FAIL {path}: the design cannot work")
    assert "error: consensus.adjudicate.binary_disagreement_tiers: tier 'GOLD'" in out


def test_a_pilot_gate_on_few_items_is_warned_with_its_interval(tmp_path):
    gate = {"coefficient": "fleiss_kappa", "min": 0.6}
    settled = {"consensus__unresolved": "exclude", "thresholds__pilot_gate": gate}
    warned = [
        f for f in _findings(_study(tmp_path, **settled)) if f.path == "design.pilot.fraction"
    ]
    # 20% of 30 check items and of 60 answer items go to every annotator in the pilot.
    assert [f.severity for f in warned] == ["warning", "warning"]
    check = next(f.message for f in warned if f.message.startswith("task check"))
    half = kappa_half_width(0.6, 6, 2)
    assert f"rests on 6 items; its 95% interval will be about 0.60 ± {half:.2f}" in check


def test_no_rushing_floor_is_warned(tmp_path):
    path = _study(tmp_path, design__time_floor_s=0, consensus__unresolved="exclude")
    assert [f.path for f in _findings(path)] == ["design.time_floor_s"]


def test_the_half_width_is_kappas_spread_in_simulation():
    """Cohen's approximate SE against the spread of kappa over simulated pilots: rater B
    copies rater A with probability 0.7, else answers at random, so kappa = 0.7."""
    rng = np.random.default_rng(3)
    n, k, runs = 200, 5, 4000
    a = rng.integers(0, k, size=(runs, n))
    b = np.where(rng.random((runs, n)) < 0.7, a, rng.integers(0, k, size=(runs, n)))
    p_o = (a == b).mean(axis=1)
    share_a = np.stack([(a == c).mean(axis=1) for c in range(k)])
    share_b = np.stack([(b == c).mean(axis=1) for c in range(k)])
    p_e = (share_a * share_b).sum(axis=0)
    kappas = (p_o - p_e) / (1 - p_e)
    assert kappa_half_width(0.7, n, k) == pytest.approx(1.96 * kappas.std(), rel=0.08)
