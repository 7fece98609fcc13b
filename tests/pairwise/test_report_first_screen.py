"""The first screen of a pairwise study (``report.answer: ranking``): the ranking with
intervals, the win-rate matrix, position bias with the biased rater flagged, agreement."""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

import pandas as pd
import pytest

from raterlab.pairwise.plot import win_rate_matrix
from raterlab.pairwise.study import pairwise_tables
from raterlab.protocol import load_study
from raterlab.report.answers import answer_kind, first_screen
from raterlab.report.build import render
from raterlab.report.pairwise import POSITION_BIAS, RANKING, WIN_RATES, ranking_sentence
from raterlab.report.sections import ReportInputs
from tests.pairwise.stats_sim import simulate

ARENA = Path(__file__).parents[2] / "studies" / "pairwise_arena.yaml"
STRENGTH = {"alpha": 1.2, "beta": 0.3, "gamma": 0.0, "delta": -1.2}


@pytest.fixture(scope="module")
def inputs() -> ReportInputs:
    comparisons = simulate(
        STRENGTH,
        n_prompts=20,
        raters=("r1", "r2", "r3"),
        nu=0.3,
        always_left={"r3": 0.9},
        seed=3,
    )
    tables = pairwise_tables(comparisons, ["category"], n_resamples=100, seed=3)
    return ReportInputs(load_study(ARENA), tables, {})


@pytest.fixture(scope="module")
def screen(inputs: ReportInputs) -> str:
    """The answer section of the rendered page."""
    page = render(inputs)
    return re.search(r'<section id="answer">(.*?)</section>', page, re.S).group(1)


def _row(screen: str, cell: str) -> str:
    """The table row of ``screen`` holding a cell with exactly ``cell``."""
    return re.search(rf"<tr[^>]*>(?:(?!</tr>).)*<td>{cell}</td>.*?</tr>", screen, re.S).group(0)


def test_the_arena_answers_with_the_ranking(inputs: ReportInputs, screen: str) -> None:
    assert answer_kind(inputs.study) == "ranking"
    assert inputs.study.report.question in screen


def test_the_ranking_leads_with_the_first_system_and_every_rank_interval(
    inputs: ReportInputs, screen: str
) -> None:
    ranking = inputs.get(RANKING)
    overall = ranking[ranking["slice"] == "all"].sort_values("rank")
    first = overall.iloc[0]
    interval = f"{first['rank_low']}-{first['rank_high']}"
    assert f"{first['system']} ranks first (rank interval {interval})" in screen
    for _, r in overall.iterrows():
        row = _row(screen, r["system"])
        assert f"<td>{r['rank']} ({r['rank_low']}-{r['rank_high']})</td>" in row
        assert f"{r['strength']:+.2f} [{r['ci_low']:+.2f}, {r['ci_high']:+.2f}]" in row
        assert f"{r['win_rate']:.3f}" in row
    assert 'alt="strengths"' in screen


def test_the_position_biased_rater_is_flagged_and_no_one_else(
    inputs: ReportInputs, screen: str
) -> None:
    bias = inputs.get(POSITION_BIAS)
    people = bias[(bias["slice"] == "all") & (bias["annotator_id"] != "all")]
    assert set(people[people["flagged"]]["annotator_id"]) == {"r3"}
    row = _row(screen, "r3")
    assert row.startswith('<tr class="flag">') and "FLAGGED" in row
    assert "FLAGGED" not in _row(screen, "r1") + _row(screen, "r2")
    assert "Position bias: 1 of 3 annotators flagged: r3 (left in" in screen


def test_the_win_rate_matrix_and_the_agreement_are_on_the_first_screen(screen: str) -> None:
    assert 'alt="win-rate matrix"' in screen
    assert escape("Raters of the same pair agree with Fleiss' kappa") in screen
    assert "<td>fleiss_kappa</td>" in screen
    assert "The ranking per slice" in screen


def test_the_asset_gets_the_sentences(inputs: ReportInputs) -> None:
    answer = first_screen(inputs)
    assert answer.verdict.startswith("preference: alpha ranks first")
    assert any("flagged: r3" in line for line in answer.lines)


def test_win_rate_matrix_is_the_table_with_complementary_cells(inputs: ReportInputs) -> None:
    rates = inputs.get(WIN_RATES)
    rates = rates[rates["slice"] == "all"]
    order = ["alpha", "beta", "gamma", "delta"]
    matrix = win_rate_matrix(rates, order)
    for _, r in rates.iterrows():
        assert matrix.loc[r["system"], r["opponent"]] == r["win_rate"]
        assert matrix.loc[r["system"], r["opponent"]] + matrix.loc[
            r["opponent"], r["system"]
        ] == pytest.approx(1)
    assert matrix.isna().to_numpy().diagonal().all()


def _ranking(lows: list[int], highs: list[int]) -> pd.DataFrame:
    systems = ["s1", "s2", "s3"]
    return pd.DataFrame(
        {
            "system": systems,
            "rank": [1, 2, 3],
            "rank_low": lows,
            "rank_high": highs,
            "n_comparisons": [40, 40, 40],
            "ridge": 0.0,
            "note": None,
        }
    )


def test_the_sentence_names_neighbours_whose_rank_intervals_overlap() -> None:
    text = ranking_sentence("f", _ranking([1, 2, 2], [1, 3, 3]))
    assert text.startswith("f: s1 ranks first (rank interval 1-1), then s2 (2-3) and s3 (2-3)")
    assert "from 60 comparisons" in text
    assert text.endswith("Not clearly ordered (rank intervals overlap): s2 and s3.")
    assert "Not clearly" not in ranking_sentence("f", _ranking([1, 2, 3], [1, 2, 3]))


def test_a_study_without_comparisons_says_so() -> None:
    empty = ReportInputs(load_study(ARENA), {}, {})
    assert "No pairwise comparisons ranked yet." in first_screen(empty).verdict


def _judges() -> pd.DataFrame:
    """gold.pairwise_judges rows of two judges: a fair one, and one flagged for position
    bias."""
    base = {"task": "preference", "field": "preference", "slice": "all", "n_pairs": 60}
    fair = {
        **base,
        "judge": "fair_judge",
        "n_verdicts": 120,
        "percent_agreement": 0.8,
        "kappa": 0.65,
        "kappa_low": 0.52,
        "kappa_high": 0.77,
        "n_swapped_pairs": 60,
        "consistent_share": 0.9,
        "consistent_share_low": 0.8,
        "consistent_share_high": 0.95,
        "n_non_tie": 110,
        "left_share": 0.51,
        "left_share_low": 0.42,
        "left_share_high": 0.6,
        "p_value": 0.92,
        "flagged": False,
    }
    leftish = {**fair, "judge": "leftish_judge", "left_share": 0.68, "p_value": 0.0002}
    leftish |= {"left_share_low": 0.59, "left_share_high": 0.76, "flagged": True}
    return pd.DataFrame([fair, leftish])


def test_judges_of_a_pairwise_field_are_on_the_first_screen(inputs: ReportInputs) -> None:
    tables = {**inputs.tables, "gold.pairwise_judges": _judges()}
    judged = ReportInputs(inputs.study, tables, {})
    answer = first_screen(judged)
    line = next(x for x in answer.lines if x.startswith("Judges: "))
    assert "fair_judge names the human winner in 80% of 120 verdicts on 60 pairs" in line
    assert "Cohen's kappa 0.65 [0.52, 0.77]" in line
    assert "kept its winner on 90% [80%, 95%]" in line
    assert "chose left in 68% [59%, 76%] of its decided verdicts (p < 0.001): FLAGGED" in line
    assert line.count("FLAGGED") == 1
    page = render(judged)
    screen = re.search(r'<section id="answer">(.*?)</section>', page, re.S).group(1)
    assert "Judges against the human winners" in screen
    row = _row(screen, "leftish_judge")
    assert row.startswith('<tr class="flag">') and "FLAGGED" in row
    assert not _row(screen, "fair_judge").startswith('<tr class="flag">')


def test_a_study_without_judges_has_no_judge_line(inputs: ReportInputs) -> None:
    answer = first_screen(inputs)
    assert not any(x.startswith("Judges: ") for x in answer.lines)
    assert "Judges against the human winners" not in render(inputs)
