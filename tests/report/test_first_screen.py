"""The first screen of each bundled study's report answers the question its study file
declares, with the numbers its protocol asks for; raw tables are folded away."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from raterlab.protocol import load_study
from raterlab.report import render
from raterlab.report.sections import ReportInputs
from tests.conftest import STUDIES

COLUMNS = ["task", "field", "slice", "coefficient", "level", "estimate", "ci_low", "ci_high"]
COLUMNS += ["n_units", "n_raters", "band", "headline", "declared_by"]


def _page(name: str, tables: dict[str, pd.DataFrame]) -> str:
    study = load_study(STUDIES / f"{name}.yaml")
    return render(ReportInputs(study, tables, {}))


def _section(html: str, anchor: str) -> str:
    match = re.search(rf'<section id="{anchor}">(.*?)</section>', html, re.S)
    assert match, f"no section {anchor}"
    return match.group(1)


def _visible(html: str) -> str:
    """The page without what is folded away."""
    return re.sub(r"<details>.*?</details>", "", html, flags=re.S)


def _row(task, field, slice_name, coefficient, level, estimate, half, band, headline, by):
    """A ``gold.agreement`` row with an interval of +- ``half`` on 100 units."""
    values = (task, field, slice_name, coefficient, level, estimate, estimate - half)
    return (*values, estimate + half, 100, 2, band, headline, by)


def _kappas() -> pd.DataFrame:
    """correctness_ab's agreement as the demo computes it: unweighted kappa (the protocol's)
    0.663 on all items and 0.396 on error_handling, quadratic kappa 0.887 and 0.799."""
    rows = []
    key = ("correctness", "correctness")
    gate = "thresholds.minimums[0], thresholds.pilot_gate"
    for slice_name, unweighted, quadratic in (
        ("all", 0.663, 0.887),
        ("category=error_handling", 0.396, 0.799),
    ):
        rows += [
            _row(
                *key,
                slice_name,
                "cohen_kappa",
                "weights=quadratic",
                quadratic,
                0.04,
                "excellent",
                False,
                "thresholds.minimums[1]",
            ),
            _row(
                *key,
                slice_name,
                "cohen_kappa",
                "weights=unweighted",
                unweighted,
                0.08,
                "substantial",
                True,
                gate,
            ),
            _row(
                *key,
                slice_name,
                "krippendorff_alpha",
                "ordinal",
                0.85,
                0.05,
                "excellent",
                False,
                "thresholds.minimums[2]",
            ),
        ]
    return pd.DataFrame(rows, columns=COLUMNS)


def test_correctness_ab_leads_with_the_protocols_unweighted_kappa() -> None:
    html = _page("correctness_ab", {"gold.agreement": _kappas()})
    answer = _section(html, "answer")
    assert "Is condition A (with instruction memory) more correct than B?" in html
    assert "cohen_kappa (weights=unweighted)" in answer and "0.663 [0.583, 0.743]" in answer
    assert "0.887" not in answer
    first = _visible(_section(html, "agreement")).split("<h3>")[1]
    assert "0.663" in first and "0.396" in first and "0.887" not in first
    assert "&gt; 0.7 (minimums[0]); &gt; 0.7 (pilot_gate)" in first
    assert "<td>no</td>" in first  # below the protocol's target


def test_gold_tiers_answers_is_the_gold_set_ready() -> None:
    costs = pd.DataFrame(
        {
            "tier": ["GOLD", "TRIAGE", "all"],
            "n": [400, 640, 1040],
            "share": [400 / 1040, 640 / 1040, 1.0],
            "cost_per_case": [0.40, 0.16, (160 + 102.4) / 1040],
            "cost": [160.0, 102.4, 262.4],
            "cases_per_labeler_day": [30, 80, np.nan],
            "labeler_days": [400 / 30, 8.0, 400 / 30 + 8.0],
            "noise_floor": [np.nan, 0.05, np.nan],
        }
    )
    thresholds = pd.DataFrame(
        {
            "threshold": ["thresholds.minimums[1]"] * 2 + ["thresholds.minimums[0]"],
            "task": ["code_generation", "summarization", "factual_qa"],
            "field": [
                "(pooled nominal: runs, correct)",
                "(pooled ordinal: faithfulness)",
                "correct",
            ],
            "slice": ["tier=GOLD", "tier=GOLD", "tier=GOLD"],
            "coefficient": ["krippendorff_alpha", "krippendorff_alpha", "fleiss_kappa"],
            "estimate": [0.631, 0.81, 0.75],
            "ci_low": [0.52, 0.74, 0.6],
            "ci_high": [0.73, 0.87, 0.85],
            "n_units": [120, 90, 150],
            "minimum": [0.75, 0.75, 0.7],
            "passed": [False, True, True],
            "severity": ["warn"] * 3,
            "note": [""] * 3,
        }
    )
    quality = pd.DataFrame(
        {
            "annotator_id": ["*", "*"],
            "metric": ["spot_check_disagreement"] * 2,
            "slice": ["all", "week=2026-W48"],
            "value": [0.095, 0.095],
            "target": [0.12, 0.12],
            "comparison": ["<=", "<="],
            "flagged": [False, False],
            "n": [200, 200],
            "ci_low": [np.nan, np.nan],
            "ci_high": [np.nan, np.nan],
            "p_value": [np.nan, np.nan],
        }
    )
    assignments = pd.DataFrame(
        {
            "item_id": ["a", "b", "c"],
            "annotator_id": ["ann_kaur", "ann_lind", "ann_moss"],
            "round": ["main"] * 3,
            "batch": [1, 2, 3],
            "spot_check": [True, True, False],
        }
    )
    html = _page(
        "gold_tiers",
        {
            "gold.tier_costs": costs,
            "staging.agreement_thresholds": thresholds,
            "gold.rater_quality": quality,
            "staging.assignments": assignments,
            "gold.promotions": pd.DataFrame(columns=["item_id"]),
        },
    )
    answer = _section(html, "answer")
    assert "Is the gold set ready?" in answer
    assert "Not ready" in answer and "code_generation: krippendorff_alpha (nominal)" in answer
    assert "0.631 [0.520, 0.730], 120 units" in answer and "on tier=GOLD" in answer
    assert "38.5% / 61.5% (400 / 640 cases)" in answer and "40% / 60%, ± 5% each" in answer
    assert "$0.252" in answer and "&lt;= $0.26" in answer
    assert "20.5 (21.3 for 1,040)" in answer and "&lt;= 14" in answer
    assert "9.5% [" in answer and "&lt;= 5%" in answer
    assert "not &gt; 12% for 2 weeks running" in answer and "0 promoted" in answer
    assert "calendar (ISO) weeks" in answer and "2 batches with spot checks" in answer
    assert "Judges are calibrated on tier=GOLD" in answer
    assert not re.search(r"\bp [=<]", answer)


def test_gold_tiers_judge_rows_are_folded_with_a_csv() -> None:
    n = 2000
    calibration = pd.DataFrame(
        {
            "task": ["factual_qa"] * n,
            "judge": ["judge_a"] * n,
            "field": ["correct"] * n,
            "slice": [f"domain=d{i}" for i in range(n)],
            "level": ["item"] * n,
            "statistic": ["accuracy"] * n,
            "estimate": np.linspace(0, 1, n),
        }
    )
    study = load_study(STUDIES / "gold_tiers.yaml")
    inputs = ReportInputs(study, {"gold.judge_calibration": calibration}, {})
    html = render(inputs)
    assert _visible(html).count("<tr>") < 100
    assert '<a href="tables/judge_calibration.csv">' in html
    assert len(inputs.attachments["tables/judge_calibration.csv"]) == n


def test_plugin_triggers_answers_with_each_judge_against_the_humans() -> None:
    def row(task, field, statistic, estimate, low, high, ceiling, within):
        return {
            "task": task,
            "judge": "llm_judge",
            "field": field,
            "slice": "all",
            "level": "item",
            "statistic": statistic,
            "label": None,
            "versus": None,
            "n": 100,
            "estimate": estimate,
            "ci_low": low,
            "ci_high": high,
            "human_ceiling": ceiling,
            "ceiling_low": ceiling - 0.1,
            "ceiling_high": ceiling + 0.05,
            "within_human_range": within,
        }

    calibration = pd.DataFrame(
        [
            row("trigger-accuracy", "triggerCorrect", "kappa", 0.55, 0.4, 0.7, 0.8, False),
            row("trigger-accuracy", "triggerCorrect", "spearman", 0.56, 0.41, 0.7, 0.8, False),
            row("completeness", "completenessScore", "spearman", 0.7, 0.6, 0.8, 0.72, True),
        ]
    )
    html = _page("plugin_triggers", {"gold.judge_calibration": calibration})
    answer = _section(html, "answer")
    assert "Does the LLM judge agree with the humans on each dimension?" in answer
    assert "Below target: llm_judge on triggerCorrect" in answer
    assert "0.55 [0.40, 0.70]" in answer and "<td>&gt;= 0.6</td>" in answer
    assert "Cohen&#x27;s kappa" in answer and "Spearman rho" in answer
    assert "0.70 [0.60, 0.80]" in answer and "in human range" in answer
    assert "0.72 [0.62, 0.77]" in answer  # the human ceiling


def test_rag_triplet_answers_with_the_metric_families_per_system() -> None:
    metrics = pd.DataFrame(
        {
            "family": ["grounding", "grounding", "retrieval", "retrieval"],
            "metric": ["supported_rate", "supported_rate", "sufficiency", "sufficiency"],
            "system": ["rag-v2", "rag-v3", "rag-v2", "rag-v3"],
            "estimate": [0.82, 0.9, 0.6, 0.7],
            "ci_low": [0.75, 0.85, 0.5, 0.6],
            "ci_high": [0.88, 0.94, 0.7, 0.8],
            "interval": ["wilson", "wilson", "cluster_bootstrap", "cluster_bootstrap"],
        }
    )
    answer = _section(_page("rag_triplet", {"gold.metrics": metrics}), "answer")
    assert "<th>rag-v2</th>" in answer and "<th>rag-v3</th>" in answer
    assert "0.82 [0.75, 0.88]" in answer and "0.70 [0.60, 0.80]" in answer
    assert "nothing to compare" not in answer


def test_empathy_answers_with_each_dimensions_kappa_target_and_self_consistency() -> None:
    agreement = pd.DataFrame(
        [
            _row(
                "reply",
                "safety",
                "all",
                "light_kappa",
                "nominal",
                0.35,
                0.1,
                "fair",
                True,
                "thresholds.minimums[2]",
            ),
            _row(
                "reply",
                "safety",
                "all",
                "krippendorff_alpha",
                "ordinal",
                0.7,
                0.1,
                "tentative",
                False,
                "thresholds.minimums[0]",
            ),
        ],
        columns=COLUMNS,
    )
    pairs = pd.DataFrame(
        {
            "task": ["reply"] * 2,
            "field": ["safety"] * 2,
            "rater_a": ["ann_gray", "ann_hale"],
            "rater_b": ["ann_hale", "ann_iyer"],
            "cohen_kappa_unweighted": [0.3, 0.42],
        }
    )
    quality = pd.DataFrame(
        {
            "annotator_id": ["ann_gray", "ann_gray"],
            "metric": ["duplicate_within_one", "duplicate_exact"],
            "slice": ["all", "all"],
            "value": [0.7, 0.4],
            "n": [10, 10],
            "target": [0.8, np.nan],
            "comparison": [">=", ""],
            "flagged": [True, False],
            "ci_low": [np.nan, np.nan],
            "ci_high": [np.nan, np.nan],
            "p_value": [np.nan, np.nan],
        }
    )
    html = _page(
        "empathy",
        {
            "gold.agreement": agreement,
            "gold.agreement_pairwise": pairs,
            "gold.rater_quality": quality,
        },
    )
    answer = _section(html, "answer")
    assert "light_kappa (nominal)" in answer and "0.350 [0.250, 0.450]" in answer
    assert "<th>task</th>" not in answer
    assert "&gt;= 0.4 (minimums[2])" in answer and "Below target: safety" in answer
    assert "0.300</td>" in answer and "0.420</td>" in answer  # the pairs' range
    assert "Self-consistency on hidden duplicates" in answer and "ann_gray" in answer


def test_contrasts_shown_together_are_holm_corrected_together() -> None:
    """empathy compares conditions on five dimensions: five tests on one screen."""
    p_values = [0.01, 0.02, 0.03, 0.04, 0.5]
    fields = ["emotion", "validation", "helpfulness", "safety", "overall"]
    comparison = pd.DataFrame(
        {
            "task": ["reply"] * 5,
            "field": fields,
            "by": ["condition"] * 5,
            "level": ["A"] * 5,
            "reference": ["B"] * 5,
            "slice": ["all"] * 5,
            "paired": [True] * 5,
            "n_units": [40] * 5,
            "mean_diff": [0.3] * 5,
            "mean_diff_low": [0.1] * 5,
            "mean_diff_high": [0.5] * 5,
            "median_diff": [0.0] * 5,
            "median_diff_low": [0.0] * 5,
            "median_diff_high": [0.5] * 5,
            "p_value": p_values,
            "p_holm": p_values,  # the table leaves the 'all' rows uncorrected
            "sign_test_p": [0.05] * 5,
            "rank_biserial": [0.3] * 5,
            "win_share": [0.5] * 5,
            "tie_share": [0.3] * 5,
            "loss_share": [0.2] * 5,
            "adjusted_diff": [0.3] * 5,
            "adjusted_se": [0.1] * 5,
            "adjusted_p": [0.01] * 5,
        }
    )
    empathy = load_study(STUDIES / "empathy.yaml")
    plain = empathy.model_copy(
        update={"report": empathy.report.model_copy(update={"answer": "comparison"})}
    )
    html = render(ReportInputs(plain, {"gold.condition_comparison": comparison}, {}))
    answer = _section(html, "answer")
    # Holm over five: 0.05, 0.08, 0.09 (monotone), 0.09, 0.5.
    assert "Holm-adjusted p = 0.050" in answer and "Holm-adjusted p = 0.080" in answer
    assert "Holm correction over the 5 contrast(s) on all items" in answer
    results = _visible(_section(html, "results"))
    assert '<td class="num">0.050</td>' in results and '<td class="num">0.080</td>' in results
