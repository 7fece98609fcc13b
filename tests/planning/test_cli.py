"""``raterlab plan``: JSON as statsmodels, ppi_py-backed and simulated plans say."""

from __future__ import annotations

import json
import math

import pytest
from statsmodels.stats.power import TTestIndPower, TTestPower

from raterlab.cli import main


def _json(capsys, *argv):
    assert main(["plan", *argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("d", "p", "a"), [(0.5, 0.8, 0.05), (0.3, 0.9, 0.01), (0.8, 0.95, 0.1)])
def test_comparison_json_is_statsmodels_rounded_up(capsys, d, p, a):
    argv = ["comparison", "--effect-size", str(d), "--power", str(p), "--alpha", str(a)]
    paired = _json(capsys, *argv, "--paired")
    assert paired["n_pairs"] == math.ceil(TTestPower().solve_power(effect_size=d, power=p, alpha=a))
    assert paired["design"] == "paired" and paired["test"] == "paired t-test"
    independent = _json(capsys, *argv)
    reference = math.ceil(TTestIndPower().solve_power(effect_size=d, power=p, alpha=a, ratio=1))
    assert independent["n_per_group"] == independent["n_pairs"] == reference
    assert independent["n_items"] == 2 * reference


def test_comparison_text_states_the_test(capsys):
    argv = ["comparison", "--effect-size", "0.5", "--power", "0.8", "--paired"]
    assert main(["plan", *argv, "--test", "wilcoxon"]) == 0
    out = capsys.readouterr().out
    n = math.ceil(TTestPower().solve_power(effect_size=0.5, power=0.8, alpha=0.05) * math.pi / 3)
    assert out.startswith(f"{n} pairs") and "Wilcoxon signed-rank test" in out and "3/pi" in out


def test_agreement_json(capsys):
    plan = _json(
        capsys,
        "agreement",
        "--coefficient",
        "fleiss_kappa",
        "--expected",
        "0.6",
        "--ci-width",
        "0.3",
        "--raters",
        "3",
        "--categories",
        "2",
        "--simulations",
        "300",
        "--seed",
        "4",
    )
    assert plan["planned_width"] <= 0.3 and plan["n_units"] > 10 and plan["seed"] == 4


def test_judge_json_with_a_binary_rate(capsys):
    plan = _json(capsys, "judge", "--correlation", "0.8", "--ci-width", "0.1", "--rate", "0.5")
    assert plan["sd"] == 0.5
    assert plan["n_labels_classical"] == math.ceil(0.25 * (2 * 1.959963984540054 / 0.1) ** 2)
    assert plan["n_labels"] < plan["n_labels_classical"]


def test_bad_input_exits_2_with_the_reason(capsys):
    assert main(["plan", "comparison", "--effect-size", "0", "--power", "0.8"]) == 2
    assert "nonzero" in capsys.readouterr().err
    argv = ["agreement", "--coefficient", "cohen_kappa", "--expected", "0.7"]
    argv += ["--ci-width", "0.2", "--raters", "3", "--categories", "2"]
    assert main(["plan", *argv]) == 2
    assert "two raters" in capsys.readouterr().err


def test_the_simulations_default_is_the_planners():
    from raterlab.cli import build_parser
    from raterlab.planning.agreement_units import SIMULATIONS

    argv = ["plan", "agreement", "--coefficient", "icc", "--expected", "0.5", "--ci-width", "0.2"]
    args = build_parser("plan").parse_args([*argv, "--raters", "2", "--categories", "5"])
    assert args.simulations == SIMULATIONS
